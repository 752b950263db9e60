/*
 * writer.h - write a trace-cmd trace.dat, version 6 (uncompressed), from raw
 * ring-buffer pages: the format libtracecmd reads fastest, with memory that
 * does not grow with the trace (bench/RESULTS.md).
 */
#ifndef COREAUDIT_WRITER_H
#define COREAUDIT_WRITER_H

#include <stdio.h>

#include "topology.h"

/*
 * Pages wait in one temporary file in the order they came, whatever their
 * CPU: one file descriptor for any number of CPUs.
 */
struct ca_writer_page {
	unsigned long long offset;	/* in the temporary file */
	unsigned int size;
};

struct ca_writer_cpu {
	unsigned long long bytes;
	struct ca_writer_page *pages;	/* in the order they came */
	size_t page_count;
	size_t page_room;
};

struct ca_writer {
	int cpu_count;
	int page_size;
	FILE *pages;			/* temporary */
	unsigned long long pages_size;
	struct ca_writer_cpu *cpus;	/* [cpu_count] */
	bool with_kernel_entry;		/* the irq and raw_syscalls formats too (--kernel-entry) */
};

/**
 * ca_writer_open() - start a trace.dat of @cpu_count CPUs' pages of @page_size bytes
 * Return: 0, or -errno with @err set.
 */
int ca_writer_open(struct ca_writer *writer, int cpu_count, int page_size, char *err,
		   int err_len);

/** ca_writer_page() - append one raw page of @cpu. Return: 0 or -EIO. */
int ca_writer_page(struct ca_writer *writer, int cpu, const void *page, int size);

/**
 * ca_writer_finish() - write @path: headers and event formats from tracefs,
 *                      saved_cmdlines, the trace clock (@clock_text, the
 *                      trace_clock file), then every CPU's pages
 * Return: 0, or -errno with @err set naming @path.
 */
int ca_writer_finish(struct ca_writer *writer, const char *path, const char *clock_text,
		     char *err, int err_len);

/** ca_writer_free() - close the per-CPU temporary files (tmpfile(3)); safe after any failure */
void ca_writer_free(struct ca_writer *writer);

#endif
