/*
 * source.h - an input to audit: opened here, fed to ca_audit_feed(), which
 * reads its events in time order (reading is private to the library).
 *
 * Files: trace-cmd trace.dat files (libtracecmd parses the headers, the
 * pages are read by coreaudit or libtracecmd), and the text `trace-cmd
 * report` prints; ca_source_open() detects which.  The live source
 * (live.h) reads tracefs.  A source knows nothing about what consumes its
 * events.
 */
#ifndef COREAUDIT_SOURCE_H
#define COREAUDIT_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "topology.h"

/* What a source emits: private to the library (src/util/event.h). */
struct ca_event;

/* The library's reading callback: 0 to go on, negative to stop (the value is passed back). */
typedef int (*ca_event_fn)(void *ctx, const struct ca_event *ev);

struct ca_source_info {
	const char *format;	/* "trace.dat" or "text" */
	const char *reader;	/* trace.dat: "pages" (in place) or "records"; else as format */
	char clock[32];		/* "mono", "local", ...; "unknown" for text */
	int cpu_count;
	bool has_cookie_probe;	/* a cs_switch event is defined */
	bool has_prctl_events;
	bool has_ipi_events;
	bool has_tick_events;
	bool has_wakeup_events;	/* sched_wakeup defined (not _new alone); text: seen */
	uint64_t bad_lines;	/* text: lines that could not be read (skipped) */
	long first_bad_line;	/* text: the first of them, 1-based; 0 none */
	bool has_kernel_events;	/* irq, softirq or raw_syscalls entries (--kernel-entry) */
	bool is_tsc_in_ns;	/* x86-tsc cycles turned into ns by the file's tsc2nsec option */
	int instance_count;	/* trace.dat: buffers of tracefs instances, not read */
	char instance[32];	/* the first one's name */
};

struct ca_source {
	const char *path;
	struct ca_source_info info;
	int (*read)(struct ca_source *source, ca_event_fn fn, void *ctx);
	void (*close)(struct ca_source *source);
	void *priv;
	bool use_records;	/* trace.dat: one libtracecmd record per event (the reference) */
	char error[512];	/* why open or read failed, naming the file */
	char warning[512];	/* what did not stop it but limits it (the caller says it) */
};

/**
 * ca_source_open() - open @path, detecting trace.dat or text
 * Return: 0, or a negative errno with @source->error set.
 */
int ca_source_open(struct ca_source *source, const char *path);

/** ca_source_close() - release what ca_source_open() and reading took (safe after failure). */
void ca_source_close(struct ca_source *source);

#endif
