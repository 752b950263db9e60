/*
 * timeline.h - what every CPU did, kept for the pictures (--html, --perfetto).
 *
 * Not a check: a recorder on the check interface.  After each change of a
 * core it notes, per CPU of the core, what the CPU does now (a task, idle,
 * forced idle as forcedidle.h defines it, or unknown) and opens a segment
 * when that differs from the last; it also keeps wakeups and reschedule IPIs
 * as instants, for the evidence a picture shows around a window.  Unlike the
 * checks it grows with the trace: 16 bytes a segment, 24 an instant, kept
 * only when a picture is asked for.
 */
#ifndef COREAUDIT_TIMELINE_H
#define COREAUDIT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "checks/check.h"

enum ca_tl_kind {
	CA_TL_UNKNOWN,		/* not observed: before its first event, after lost events */
	CA_TL_IDLE,
	CA_TL_FORCED,		/* idle with work no sibling's task allowed to run */
	CA_TL_TASK,
};

/* From .start to the next segment's start (the last: to the timeline's end). */
struct ca_tl_segment {
	uint64_t start;
	int32_t pid;		/* CA_TL_TASK */
	uint16_t ident;		/* CA_TL_TASK: 0 unknown, else 1 + index into idents */
	uint8_t kind;		/* enum ca_tl_kind */
};

enum ca_tl_instant_kind {
	CA_TL_WAKEUP,		/* on .cpu, .pid woken onto .target */
	CA_TL_RESCHED_IPI,	/* from .cpu (its task .pid) to .target */
};

struct ca_tl_instant {
	uint64_t ts;
	int32_t pid;
	int32_t cpu;
	int32_t target;
	uint8_t kind;		/* enum ca_tl_instant_kind */
};

struct ca_tl_cpu {
	struct ca_tl_segment *segments;
	size_t count;
	size_t capacity;
};

struct ca_timeline {
	struct ca_check base;
	struct ca_tl_cpu *cpus;		/* [cpu_count] */
	int cpu_count;
	uint64_t *idents;		/* the identities (cookies, tag ids) segments name */
	size_t ident_count;
	size_t ident_capacity;
	struct ca_tl_instant *instants;	/* in time order */
	size_t instant_count;
	size_t instant_capacity;
	uint64_t start_ts;
	uint64_t end_ts;
	bool has_events;
};

/** ca_timeline_init() - an empty timeline, to add to the state */
void ca_timeline_init(struct ca_timeline *tl);
void ca_timeline_free(struct ca_timeline *tl);

#endif
