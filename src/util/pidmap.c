/*
 * pidmap.c - two-level direct table from pid to index.  Entries are never
 * removed: a trace's tasks are few next to its events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/pidmap.h"

#define CHUNK_SIZE (1u << CA_PIDMAP_CHUNK_BITS)

void ca_pidmap_init(struct ca_pidmap *map)
{
	memset(map, 0, sizeof(*map));
}

void ca_pidmap_free(struct ca_pidmap *map)
{
	for (int i = 0; i < CA_PIDMAP_CHUNKS; i++)
		free(map->chunks[i]);
	memset(map, 0, sizeof(*map));
}

int64_t ca_pidmap_get(const struct ca_pidmap *map, int pid)
{
	const uint32_t *chunk;

	if ((unsigned int)pid >= CA_PID_LIMIT)
		return -1;
	chunk = map->chunks[pid >> CA_PIDMAP_CHUNK_BITS];
	if (!chunk)
		return -1;
	return (int64_t)chunk[pid & (CHUNK_SIZE - 1)] - 1;
}

int ca_pidmap_put(struct ca_pidmap *map, int pid, uint32_t index)
{
	uint32_t **chunk;

	if ((unsigned int)pid >= CA_PID_LIMIT)
		return -ERANGE;
	chunk = &map->chunks[pid >> CA_PIDMAP_CHUNK_BITS];
	if (!*chunk) {
		*chunk = calloc(CHUNK_SIZE, sizeof(**chunk));
		if (!*chunk)
			return -ENOMEM;
	}
	(*chunk)[pid & (CHUNK_SIZE - 1)] = index + 1;
	return 0;
}
