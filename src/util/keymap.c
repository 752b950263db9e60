/*
 * keymap.c - 64-bit keys to dense indexes, open addressing (keymap.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/keymap.h"

#define FIRST_SLOTS 64

void ca_keymap_init(struct ca_keymap *map)
{
	memset(map, 0, sizeof(*map));
}

void ca_keymap_free(struct ca_keymap *map)
{
	free(map->keys);
	free(map->indexes);
	memset(map, 0, sizeof(*map));
}

/* A 64-bit mix (splitmix64's finaliser): cookies are addresses, pairs small numbers. */
static size_t slot_of(uint64_t key, size_t slots)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)key & (slots - 1);
}

/* The slot that holds @key, or the empty one where it would go. */
static size_t find(const struct ca_keymap *map, uint64_t key)
{
	size_t slot = slot_of(key, map->slots);

	while (map->indexes[slot] && map->keys[slot] != key)
		slot = (slot + 1) & (map->slots - 1);
	return slot;
}

int64_t ca_keymap_get(const struct ca_keymap *map, uint64_t key)
{
	if (!map->slots)
		return -1;
	return (int64_t)map->indexes[find(map, key)] - 1;
}

static int rehash(struct ca_keymap *map, size_t slots)
{
	struct ca_keymap grown = { .slots = slots };

	grown.keys = calloc(slots, sizeof(*grown.keys));
	grown.indexes = calloc(slots, sizeof(*grown.indexes));
	if (!grown.keys || !grown.indexes) {
		ca_keymap_free(&grown);
		return -ENOMEM;
	}
	for (size_t i = 0; i < map->slots; i++) {
		size_t slot;

		if (!map->indexes[i])
			continue;
		slot = find(&grown, map->keys[i]);
		grown.keys[slot] = map->keys[i];
		grown.indexes[slot] = map->indexes[i];
	}
	grown.used = map->used;
	ca_keymap_free(map);
	*map = grown;
	return 0;
}

int ca_keymap_put(struct ca_keymap *map, uint64_t key, uint32_t index)
{
	size_t slot;

	if ((map->used + 1) * 2 > map->slots) {
		int ret = rehash(map, map->slots ? map->slots * 2 : FIRST_SLOTS);

		if (ret)
			return ret;
	}
	slot = find(map, key);
	if (!map->indexes[slot])
		map->used++;
	map->keys[slot] = key;
	map->indexes[slot] = index + 1;
	return 0;
}
