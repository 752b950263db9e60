/*
 * zchunks.h - private to sources/: the layout of a trace.dat's CPU data,
 * and those data read page by page, chunk by chunk for version 7 zstd
 * files, every page checked and damage skipped (zchunks.c).
 */
#ifndef CA_SOURCES_ZCHUNKS_H
#define CA_SOURCES_ZCHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <trace-cmd.h>

#include "util/event.h"
#include "coreaudit/topology.h"
#include "sources/pages.h"

/* Where one CPU's data lies in the file, as the file declares it. */
struct ca_layout_cpu {
	int cpu;
	uint64_t offset;	/* zstd: of the chunk count; else of the first page */
	uint64_t size;		/* bytes after the chunk count (zstd), or of pages */
};

struct ca_layout {
	int version;		/* 6 or 7 */
	bool is_compressed;	/* zstd chunks; else pages in place */
	bool has_converted_ts;	/* options that make libtracecmd change timestamps */
	bool has_tsc2nsec;	/* one of them: x86-tsc cycles to ns */
	int instance_count;	/* buffers of tracefs instances (trace-cmd record -B) */
	char instance[32];	/* the first one's name */
	int page_size;
	uint64_t file_size;
	int cpu_count;		/* CPUs with data */
	struct ca_layout_cpu *cpus;	/* [cpu_count] */
	size_t cpu_room;
};

/**
 * ca_layout_read() - the layout of @path's CPU data, from its headers (version
 *                    6) or options (version 7), checking on the way that the
 *                    header page, event formats and kallsyms are intact text;
 *                    before libtracecmd reads them (it needs no tep)
 * Return: 0; -ENOTSUP for a file this code does not lay out (big endian, a
 *         latency trace, a compression other than zstd): libtracecmd reads
 *         it; -EINVAL with @error set for damaged headers; -ENOMEM.
 */
int ca_layout_read(struct ca_layout *layout, const char *path, char *error, size_t error_len);

/** ca_layout_free() - release what ca_layout_read() built (safe on a zeroed layout) */
void ca_layout_free(struct ca_layout *layout);

#define CA_PAGE_EMPTY (-1)
#define CA_PAGE_BAD (-2)

/**
 * ca_layout_page_table() - per page of the in-place data of @layout's CPU
 *                          number @index: the offset in the page of its last
 *                          data event, CA_PAGE_EMPTY, or CA_PAGE_BAD (fails
 *                          ca_page_check(), or is not in the file)
 * Return: 0 with *@table (free() it) and *@count set; -ENOMEM.
 */
int ca_layout_page_table(const struct ca_layout *layout, int index, const char *path,
			 const struct ca_page_rules *rules, int32_t **table, size_t *count);

/* Unreadable data skipped on one CPU: emitted in time order (ts), see struct ca_lost. */
struct ca_damage {
	int cpu;
	uint64_t ts;
	struct ca_lost lost;
};

struct ca_read_fns {
	int (*record)(void *ctx, struct tep_record *rec);	/* 0 to go on */
	int (*damage)(void *ctx, const struct ca_damage *damage);
	void *ctx;
	/*
	 * Optional: whether @rec and @next, the record after it in its CPU's page,
	 * go out as one (a switch and its cookie probe); then both go to
	 * record_paired() at once, and @next to nothing else.
	 */
	bool (*pairs)(void *ctx, const struct tep_record *rec, const struct tep_record *next);
	int (*record_paired)(void *ctx, struct tep_record *rec, struct tep_record *next);
};

struct ca_zchunks;

/**
 * ca_zchunks_open() - read the CPU data of @path laid out as @layout, its
 *                     pages judged by @rules (a zstd chunk with one page that
 *                     fails is damaged whole: what else it decompressed to is
 *                     not known)
 * Return: 0 with *@out set, or -ENOMEM.
 */
int ca_zchunks_open(struct ca_zchunks **out, const char *path, const struct ca_layout *layout,
		    const struct ca_page_rules *rules);

/**
 * ca_zchunks_read() - pass every event, in timestamp order (the lowest CPU
 *                     first on a tie), to @fns->record, and each stretch of
 *                     unreadable data (a page or chunk that fails its checks,
 *                     data cut short) to @fns->damage on its CPU, right before
 *                     that CPU's next event or right after its last one:
 *                     ca_zchunks_start(), then ca_zchunks_merge()
 * Return: 0; what a callback returned to stop; -ENODATA when CPU data were
 *         declared but no event could be read; -ENOMEM.
 */
int ca_zchunks_read(struct ca_zchunks *z, const struct ca_read_fns *fns);

/**
 * ca_zchunks_start() - find every CPU's first event; the damage of CPUs with
 *                      nothing readable goes to @fns->damage now, at the time
 *                      of the first event of all (before it)
 * Return: as ca_zchunks_read().
 */
int ca_zchunks_start(struct ca_zchunks *z, const struct ca_read_fns *fns);

/**
 * ca_zchunks_merge() - the events of a started @z (or of a part of it), merged
 *                      in time order, to @fns as ca_zchunks_read() says
 * Return: 0; what a callback returned to stop; -ENOMEM.
 */
int ca_zchunks_merge(struct ca_zchunks *z, const struct ca_read_fns *fns);

/**
 * ca_zchunks_part() - part @index of @parts of @z: a run of its CPUs
 *                     (in CPU order, cut where the data the file declares
 *                     per CPU add up to equal shares), merged by
 *                     ca_zchunks_merge() on a thread of its own: each part has
 *                     its own decompression, the CPUs are its alone, the file
 *                     is read with pread().  Merging the parts' outputs by
 *                     (timestamp, CPU) gives ca_zchunks_merge()'s order of the
 *                     whole, event for event, once @z is started.  Close
 *                     parts before @z.
 * Return: 0 with *@out set; -EINVAL (@parts over the CPUs); -ENOMEM.
 */
int ca_zchunks_part(struct ca_zchunks *z, int index, int parts, struct ca_zchunks **out);

/** ca_zchunks_damage() - the CPU, offset and bytes of the first damage read, if any */
bool ca_zchunks_damage(const struct ca_zchunks *z, struct ca_damage *first);

void ca_zchunks_close(struct ca_zchunks *z);

#endif
