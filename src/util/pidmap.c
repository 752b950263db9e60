/*
 * pidmap.c - open addressing (linear probing) from pid to a dense index.
 * Entries are never removed: a trace's tasks are few next to its events.
 */
#include <errno.h>
#include <stdlib.h>

#include "coreaudit/pidmap.h"

#define INITIAL_CAPACITY 1024

static uint32_t pid_hash(int pid)
{
	return (uint32_t)pid * 2654435761u;
}

static int alloc_slots(struct ca_pidmap *map, uint32_t capacity)
{
	map->keys = malloc(capacity * sizeof(*map->keys));
	map->values = malloc(capacity * sizeof(*map->values));
	if (!map->keys || !map->values) {
		free(map->keys);
		free(map->values);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < capacity; i++)
		map->keys[i] = -1;
	map->capacity = capacity;
	map->used = 0;
	return 0;
}

int ca_pidmap_init(struct ca_pidmap *map)
{
	return alloc_slots(map, INITIAL_CAPACITY);
}

void ca_pidmap_free(struct ca_pidmap *map)
{
	free(map->keys);
	free(map->values);
	map->keys = NULL;
	map->values = NULL;
	map->capacity = 0;
}

static uint32_t find_slot(const struct ca_pidmap *map, int pid)
{
	uint32_t mask = map->capacity - 1;
	uint32_t slot = pid_hash(pid) & mask;

	while (map->keys[slot] != -1 && map->keys[slot] != pid)
		slot = (slot + 1) & mask;
	return slot;
}

int64_t ca_pidmap_get(const struct ca_pidmap *map, int pid)
{
	uint32_t slot = find_slot(map, pid);

	return map->keys[slot] == pid ? (int64_t)map->values[slot] : -1;
}

static int grow(struct ca_pidmap *map)
{
	struct ca_pidmap bigger;
	int ret = alloc_slots(&bigger, map->capacity * 2);

	if (ret)
		return ret;
	for (uint32_t i = 0; i < map->capacity; i++) {
		if (map->keys[i] == -1)
			continue;
		uint32_t slot = find_slot(&bigger, map->keys[i]);

		bigger.keys[slot] = map->keys[i];
		bigger.values[slot] = map->values[i];
		bigger.used++;
	}
	ca_pidmap_free(map);
	*map = bigger;
	return 0;
}

int ca_pidmap_put(struct ca_pidmap *map, int pid, uint32_t index)
{
	if ((map->used + 1) * 2 > map->capacity) {
		int ret = grow(map);

		if (ret)
			return ret;
	}
	uint32_t slot = find_slot(map, pid);

	if (map->keys[slot] == -1)
		map->used++;
	map->keys[slot] = pid;
	map->values[slot] = index;
	return 0;
}
