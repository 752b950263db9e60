/*
 * live.h - a live source: a tracefs instance of coreaudit's own on the
 * running kernel, its per-CPU buffers read with kbuffer and merged in time
 * order.  It feeds the same pipeline as a trace file.
 */
#ifndef COREAUDIT_LIVE_H
#define COREAUDIT_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"

struct ca_live_options {
	uint64_t duration_ns;		/* 0: until stopped */
	uint64_t interval_ns;		/* how often on_interval is called */
	size_t buffer_kb;		/* per CPU */
	volatile sig_atomic_t *stop;	/* set by a signal handler */
	/*
	 * Called after every drain (about every 50 ms), with @is_interval set
	 * once per interval; returns true to stop.
	 */
	bool (*on_drain)(void *user, bool is_interval);
	/* Called with every raw ring-buffer page read, before it is parsed. */
	int (*on_page)(void *user, int cpu, const void *page, int size);
	void *user;
	/*
	 * Called once when reading stops (CMD done, a stop, the duration),
	 * while tracing is still on: markers written then reach the last drain.
	 */
	void (*on_end)(void *user);
	/* Also irq, softirq and raw_syscalls entries and exits (record --kernel-entry). */
	bool with_kernel_entry;
};

/**
 * ca_live_open() - remove instances left by killed monitors, create one of
 *                  ours, enable the events coreaudit reads (those the kernel
 *                  has), with clock mono, and start tracing
 * Return: 0, or a negative errno with @source->error set (-EACCES: not root).
 */
int ca_live_open(struct ca_source *source, const struct ca_live_options *opts);

/** ca_live_instance_name() - Return: the name of the instance (for messages). */
const char *ca_live_instance_name(const struct ca_source *source);

/** ca_live_page_size() - Return: the size of a ring-buffer page; 0 before ca_live_open(). */
int ca_live_page_size(const struct ca_source *source);

/**
 * ca_live_write_topology() - write @topo as coreaudit-topology markers (one,
 *                            or parts when it is long), for the audit of the
 *                            recording
 * Return: 0, or -ENOMEM.
 */
int ca_live_write_topology(struct ca_source *source, const struct ca_topology *topo);

/** ca_live_write_marker() - write @text to the instance's trace_marker. Return: 0 or -EIO. */
int ca_live_write_marker(struct ca_source *source, const char *text);

/**
 * ca_live_clock_text() - the instance's trace_clock file
 * Return: its text (the caller frees it), or NULL when it cannot be read.
 */
char *ca_live_clock_text(const struct ca_source *source);

#endif
