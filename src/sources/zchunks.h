/*
 * zchunks.h - private to sources/: the CPU data of a version 7 zstd
 * trace.dat read chunk by chunk (zchunks.c).
 */
#ifndef CA_SOURCES_ZCHUNKS_H
#define CA_SOURCES_ZCHUNKS_H

#include <stddef.h>

#include <trace-cmd.h>

#include "pages.h"

struct ca_zchunks;

/**
 * ca_zchunks_open() - read @path's CPU data chunk by chunk, @handle (opened on
 *                     the same file by libtracecmd) as the reference
 * Return: 0 with *@out set; -ENOTSUP when this reader does not apply (not
 *         version 7 with zstd, big endian, a latency trace, or a first event
 *         libtracecmd reads differently): use libtracecmd; -EINVAL with
 *         @error set when the file is corrupt; -ENOMEM.
 */
int ca_zchunks_open(struct ca_zchunks **out, const char *path, struct tracecmd_input *handle,
		    char *error, size_t error_len);

/**
 * ca_zchunks_read() - pass every event, in timestamp order (the lowest CPU
 *                     first on a tie), to @fn
 * Return: 0; what @fn returned to stop; -EINVAL with the error set at a
 *         corrupt chunk or page; -ENOMEM.
 */
int ca_zchunks_read(struct ca_zchunks *z, ca_pages_fn fn, void *ctx);

void ca_zchunks_close(struct ca_zchunks *z);

#endif
