/*
 * pidmap.h - a map from pid to a dense index.
 *
 * Linux pids are below PID_MAX_LIMIT (2^22): a two-level direct table, its
 * 4096-entry chunks allocated on first use, makes a lookup two loads.  The
 * owner keeps its per-task records in its own array; the map stores indexes.
 */
#ifndef COREAUDIT_PIDMAP_H
#define COREAUDIT_PIDMAP_H

#include <stdint.h>

#define CA_PID_LIMIT (1 << 22)
#define CA_PIDMAP_CHUNK_BITS 12
#define CA_PIDMAP_CHUNKS (CA_PID_LIMIT >> CA_PIDMAP_CHUNK_BITS)

struct ca_pidmap {
	uint32_t *chunks[CA_PIDMAP_CHUNKS];	/* entries hold index + 1; 0: none */
};

/** ca_pidmap_init() - an empty map (it allocates as it fills) */
void ca_pidmap_init(struct ca_pidmap *map);
void ca_pidmap_free(struct ca_pidmap *map);

/** ca_pidmap_get() - Return: the index stored for @pid, or -1. */
int64_t ca_pidmap_get(const struct ca_pidmap *map, int pid);

/**
 * ca_pidmap_put() - store @index for @pid
 * Return: 0, -ERANGE for a pid outside 0..2^22-1, or -ENOMEM.
 */
int ca_pidmap_put(struct ca_pidmap *map, int pid, uint32_t index);

#endif
