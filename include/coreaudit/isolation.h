/*
 * isolation.h - the isolation check: co-run windows of different identities.
 *
 * A window is an interval in which two CPUs of one core both run non-idle
 * tasks whose identities (cookies, or tags) differ.  Windows shorter than the
 * grace period are transition skew, longer ones violations; windows where an
 * identity is unknown are counted apart and make the verdict inconclusive.
 */
#ifndef COREAUDIT_ISOLATION_H
#define COREAUDIT_ISOLATION_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "event.h"
#include "stats.h"
#include "topology.h"

enum ca_window_kind {
	CA_WINDOW_SKEW,
	CA_WINDOW_VIOLATION,
	CA_WINDOW_UNKNOWN,	/* an identity was not known */
	CA_WINDOW_KIND_COUNT,
};

struct ca_window_task {
	int pid;
	char comm[CA_COMM_LEN];
	bool is_known;
	uint64_t identity;	/* cookie, or tag id */
};

struct ca_window {
	int core;
	int cpus[2];
	uint64_t start;
	uint64_t end;
	enum ca_window_kind kind;
	bool is_open_at_end;	/* still open when the trace ended */
	bool is_uncertain;	/* a missed switch: who ran is not known */
	struct ca_window_task tasks[2];
};

/* A closed window waiting for each CPU's next event to confirm what ran. */
struct ca_pending_window {
	struct ca_window window;
	bool is_confirmed[2];
};

struct ca_segment {
	bool is_open;
	uint64_t start;
	struct ca_window_task tasks[2];
};

#define CA_MAX_PAIRS (CA_MAX_CPUS * (CA_MAX_SIBLINGS - 1) / 2)

struct ca_isolation {
	struct ca_check base;
	uint64_t grace_ns;
	size_t list_limit;	/* windows kept with detail */
	struct ca_segment segments[CA_MAX_CPUS][CA_MAX_SIBLINGS][CA_MAX_SIBLINGS];
	struct ca_durations by_kind[CA_WINDOW_KIND_COUNT];
	struct ca_durations all;
	struct ca_durations per_core_all[CA_MAX_CPUS];
	/* Computed when the trace ends. */
	struct ca_summary summary[CA_WINDOW_KIND_COUNT];
	struct ca_summary summary_all;
	uint64_t per_core_violations[CA_MAX_CPUS];
	struct ca_window *list;	/* kept: every violation and unknown, then skew */
	size_t list_count;
	size_t list_capacity;
	uint64_t list_dropped;
	struct ca_pending_window *pending;
	size_t pending_count;
	size_t pending_capacity;
	/* Windows with an unknown side, classified when the trace ends. */
	struct ca_window *deferred;
	size_t deferred_count;
	size_t deferred_capacity;
};

/**
 * ca_isolation_init() - @grace_ns: windows at or above it are violations;
 *                       @list_limit: how many windows to keep with detail
 * Return: 0.
 */
int ca_isolation_init(struct ca_isolation *iso, uint64_t grace_ns, size_t list_limit);
void ca_isolation_free(struct ca_isolation *iso);

const char *ca_window_kind_name(enum ca_window_kind kind);

#endif
