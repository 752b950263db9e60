/*
 * keymap.h - private to the library: a map from a 64-bit key (a cookie, a
 * pair of indexes) to a dense index, for tables whose keys are not pids.
 *
 * Open addressing with linear probing, grown at half full; entries are never
 * removed (the keys of a trace are few next to its events).  The owner keeps
 * its records in its own array; the map stores indexes.
 */
#ifndef CA_UTIL_KEYMAP_H
#define CA_UTIL_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

struct ca_keymap {
	uint64_t *keys;
	uint32_t *indexes;	/* index + 1; 0: an empty slot */
	size_t slots;		/* a power of two, or 0 */
	size_t used;
};

/** ca_keymap_init() - an empty map (it allocates as it fills) */
void ca_keymap_init(struct ca_keymap *map);
void ca_keymap_free(struct ca_keymap *map);

/** ca_keymap_get() - Return: the index stored for @key, or -1. */
int64_t ca_keymap_get(const struct ca_keymap *map, uint64_t key);

/** ca_keymap_put() - store @index for @key (new or not). Return: 0, or -ENOMEM. */
int ca_keymap_put(struct ca_keymap *map, uint64_t key, uint32_t index);

/** ca_keymap_pair() - Return: the key of the ordered pair (@a, @b) of 32-bit indexes. */
static inline uint64_t ca_keymap_pair(uint32_t a, uint32_t b)
{
	return (uint64_t)a << 32 | b;
}

#endif
