/*
 * pages.h - private to sources/: a trace.dat's events read in place from
 * libtracecmd's pages (pages.c).
 */
#ifndef CA_SOURCES_PAGES_H
#define CA_SOURCES_PAGES_H

#include <stdbool.h>

#include <trace-cmd.h>

struct ca_pages;

/**
 * ca_kbuffer_for() - a kbuffer for @tep's pages: the kernel's long size (of
 *                    the page header, not the file header's user-space one)
 *                    and the file's byte order
 * Return: the kbuffer, or NULL when out of memory.
 */
struct kbuffer *ca_kbuffer_for(struct tep_handle *tep);

/* Return 0 to go on, non-zero to stop (the value is passed back). */
typedef int (*ca_pages_fn)(void *ctx, struct tep_record *event);

/**
 * ca_pages_open() - start reading the @cpu_count CPUs of @handle, whose data
 *                   tracecmd_init_data() has loaded
 * Return: the reader, or NULL when out of memory.
 */
struct ca_pages *ca_pages_open(struct tracecmd_input *handle, int cpu_count);

/**
 * ca_pages_read() - pass every event, in timestamp order (the lowest CPU first
 *                   on a tie, as tracecmd_read_next_data()), to @fn; the
 *                   record is valid only during the call
 * Return: 0; what @fn returned to stop; or -EPROTO when a page's timestamps
 *         were converted by libtracecmd although the first pages' were not
 *         (ca_pages_disagreement() tells where).
 */
int ca_pages_read(struct ca_pages *pages, ca_pages_fn fn, void *ctx);

/** ca_pages_is_record_mode() - true when timestamps are converted: one record per event */
bool ca_pages_is_record_mode(const struct ca_pages *pages);

/** ca_pages_disagreement() - the CPU and timestamp of the page that stopped the read */
bool ca_pages_disagreement(const struct ca_pages *pages, int *cpu, unsigned long long *ts);

void ca_pages_close(struct ca_pages *pages);

#endif
