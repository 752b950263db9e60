/*
 * pidmap.h - an open-addressing map from pid to a dense index.
 *
 * The owner keeps its per-task records in its own array and uses the map to
 * find them; the map stores no records itself.
 */
#ifndef COREAUDIT_PIDMAP_H
#define COREAUDIT_PIDMAP_H

#include <stdint.h>

struct ca_pidmap {
	uint32_t capacity;	/* power of two */
	uint32_t used;
	int *keys;		/* -1: empty slot */
	uint32_t *values;
};

/** ca_pidmap_init() - Return: 0, or -ENOMEM. */
int ca_pidmap_init(struct ca_pidmap *map);
void ca_pidmap_free(struct ca_pidmap *map);

/** ca_pidmap_get() - Return: the index stored for @pid, or -1. */
int64_t ca_pidmap_get(const struct ca_pidmap *map, int pid);

/** ca_pidmap_put() - store @index for @pid (pid >= 0). Return: 0 or -ENOMEM. */
int ca_pidmap_put(struct ca_pidmap *map, int pid, uint32_t index);

#endif
