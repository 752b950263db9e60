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

#include "checks/causes.h"
#include "checks/check.h"
#include "checks/corun.h"
#include "util/event.h"
#include "util/stats.h"
#include "coreaudit/topology.h"

enum ca_window_kind {
	CA_WINDOW_SKEW,
	CA_WINDOW_VIOLATION,
	CA_WINDOW_UNKNOWN,	/* an identity, who ran, or (no tick events) the cause not known */
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
	bool is_unseen_at_end;	/* pending at the end, its unconfirmed CPUs seen less than the grace */
	enum ca_window_cause cause;
	int leaving_cpu;	/* the sibling that had to leave; -1 not known */
	int evidence;		/* its serial in the evidence store (-1 none; it may have
				 * given its place to a longer window since) */
	struct ca_window_task tasks[2];
	uint8_t state;		/* its lifecycle: enum ca_window_state (checks/window.dot) */
};


/* Recent events of one CPU, shown around unexplained windows. */
struct ca_trace_line {
	uint64_t ts;
	int cpu;
	enum ca_event_kind kind;
	int pid;		/* common_pid */
	int a, b;		/* switch: prev, next; wakeup: pid, target; ipi: target, resched */
};

#define CA_RECENT_EVENTS 8
#define CA_EVIDENCE_LINES 24
#define CA_EVIDENCE_WINDOWS 64
#define CA_EXPLAINED_WINDOWS 16	/* windows at --explain's instant kept, and at most
				 * as many evidence places pinned for them */

struct ca_evidence {
	int serial;		/* of the window it shows (struct ca_window.evidence) */
	uint64_t length;	/* that window's */
	bool is_pinned;		/* a window at --explain's instant: never given away */
	int count;
	struct ca_trace_line lines[CA_EVIDENCE_LINES];
};

/* A CPU's recent events: the evidence shown around unexplained windows. */
struct ca_cpu_recent {
	struct ca_trace_line lines[CA_RECENT_EVENTS];	/* ring */
	int next;
};

/* A closed window waiting for each CPU's next event to confirm what ran. */
struct ca_pending_window {
	struct ca_window window;
	bool is_confirmed[2];
	uint64_t seq;		/* the order windows closed in: they are judged in it */
};

/* The ids of the pending windows one CPU has not confirmed yet. */
struct ca_pending_cpu {
	uint32_t *ids;
	size_t count;
	size_t room;
};

/*
 * The pending windows (pending.c), in slots that stay put, found by the CPU
 * that has to confirm them: an event looks at its own CPU's, not at every
 * core's.
 */
struct ca_pending {
	struct ca_pending_window *slots;
	size_t slot_count;		/* used and free */
	size_t slot_room;
	uint32_t *free_ids;
	size_t free_count;
	size_t free_room;
	struct ca_pending_cpu *cpus;	/* [cpu_count] */
	size_t cpu_count;
	size_t count;			/* pending windows */
	uint64_t next_seq;
	uint32_t *confirmed;		/* ids both CPUs confirmed, to judge now */
	size_t confirmed_count;
	size_t confirmed_room;
};

struct ca_segment {
	uint8_t pair;		/* enum ca_pair_state (checks/pair.dot): together while open */
	uint64_t start;
	struct ca_leaving leaving;
	struct ca_window_task tasks[2];
};

struct ca_isolation {
	struct ca_check base;
	bool has_causes;		/* the trace has ipi events */
	uint64_t max_transition_ns;	/* 0: explained windows never fail */
	uint64_t unknown_until_ns;	/* no ipi events: see struct ca_judging */
	struct ca_causes causes;
	struct ca_cpu_recent *recent;	/* [cpu_count] */
	size_t cpu_count;		/* of the tables sized when the check is added */
	int core_count;
	struct ca_durations by_cause[CA_CAUSE_COUNT];
	struct ca_summary cause_summary[CA_CAUSE_COUNT];
	/* Kept for the longest unexplained windows: a full store gives its shortest one's
	 * place to a longer window. */
	struct ca_evidence evidence[CA_EVIDENCE_WINDOWS];
	int evidence_count;
	int evidence_shortest;		/* of a full store */
	int evidence_serial;		/* the next window's (0 again after INT_MAX) */
	int evidence_pinned;		/* places never given away: at most
					 * CA_EXPLAINED_WINDOWS */
	/* --explain: the windows open at this instant, judged, with their evidence. */
	bool has_explain;
	uint64_t explain_ts;
	struct ca_window explained[CA_EXPLAINED_WINDOWS];
	int explained_count;
	uint64_t explained_dropped;	/* more than CA_EXPLAINED_WINDOWS */
	uint64_t grace_ns;
	size_t list_limit;	/* windows kept with detail */
	struct ca_segment (*segments)[CA_MAX_SIBLINGS][CA_MAX_SIBLINGS];	/* [core_count] */
	struct ca_durations by_kind[CA_WINDOW_KIND_COUNT];
	struct ca_durations all;
	struct ca_durations undecided;	/* unknown for their cause alone (no tick events) */
	struct ca_durations *per_core_all;	/* [core_count] */
	struct ca_corun *per_core_corun;	/* [core_count]: of cores of 3 CPUs or more */
	bool is_corun_due;			/* one of them has spans to let go */
	uint64_t *per_core_corun_ns;		/* [core_count]: co-run time counted once,
						 * computed when the trace ends */
	int corun_upper_bounds;			/* cores whose figure is an upper bound */
	/* Computed when the trace ends. */
	struct ca_summary summary[CA_WINDOW_KIND_COUNT];
	struct ca_summary summary_all;
	struct ca_summary undecided_summary;
	uint64_t *per_core_violations;		/* [core_count] */
	struct ca_window *list;	/* kept: every violation and unknown, then skew */
	size_t list_count;
	size_t list_skew_scan;	/* full list: no skew window before this index */
	size_t list_capacity;
	uint64_t list_dropped;
	struct ca_pending pending;
	/* Would-be violations, until every CPU of their core has shown past them. */
	struct ca_window *suspects;
	size_t suspect_count;
	size_t suspect_capacity;
	/* Windows with an unknown side, classified when the trace ends. */
	struct ca_window *deferred;
	size_t deferred_count;
	size_t deferred_capacity;
	uint64_t invalid_transitions;	/* asked of the automata, not in their tables: 0 */
};

/**
 * ca_isolation_init() - @grace_ns: windows at or above it are violations;
 *                       @list_limit: how many windows to keep with detail
 */
void ca_isolation_init(struct ca_isolation *iso, uint64_t grace_ns, size_t list_limit);

/**
 * ca_isolation_use_causes() - classify windows by cause (the trace has ipi
 *                             events): unexplained windows at or over the
 *                             grace are violations, explained ones only over
 *                             @max_transition_ns (0: never); without tick
 *                             (wakeup) @events, those a tick (a local wakeup)
 *                             could explain are of unknown cause
 */
void ca_isolation_use_causes(struct ca_isolation *iso, uint64_t max_transition_ns,
			     struct ca_cause_events events);

void ca_isolation_free(struct ca_isolation *iso);

/**
 * ca_isolation_explain() - keep the windows open at @ts apart (with their
 *                          evidence) for --explain; before the first event
 */
void ca_isolation_explain(struct ca_isolation *iso, uint64_t ts);

const char *ca_window_kind_name(enum ca_window_kind kind);

/**
 * ca_isolation_evidence() - the events around @window kept in @iso's store
 * Return: them, or NULL: none were kept, or a longer window took their place.
 */
const struct ca_evidence *ca_isolation_evidence(const struct ca_isolation *iso,
						const struct ca_window *window);

#endif
