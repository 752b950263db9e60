/*
 * causes.h - why the sibling that had to leave a co-run window was still
 * running (DESIGN.md): a reschedule IPI, a local wakeup, its own tick, a
 * stalled vCPU, or nothing.  A tracker a check feeds with every event; the
 * isolation check and the rules check each keep one.
 */
#ifndef COREAUDIT_CAUSES_H
#define COREAUDIT_CAUSES_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "topology.h"

struct ca_state;

enum ca_window_cause {
	CA_CAUSE_RESCHED_IPI,		/* a reschedule IPI to it since its switch-in */
	CA_CAUSE_RESCHED_WAKEUP,	/* a wakeup on it had set need-resched */
	CA_CAUSE_RESCHED_TICK,		/* its own tick, and it left before the next */
	CA_CAUSE_VCPU_STALL,		/* it ran less than the grace: a stalled vCPU */
	CA_CAUSE_UNEXPLAINED,		/* the kernel never asked it to leave */
	CA_CAUSE_UNKNOWN,		/* no ipi events in the trace */
	CA_CAUSE_COUNT,
};

/* What a sibling had pending when a window opened on it. */
struct ca_leaving {
	int cpu;		/* -1: neither sibling switched (a cookie changed) */
	bool has_ipi;
	bool has_wakeup;
	bool has_tick;
	uint64_t tick_seq;	/* its tick count then: a later tick refutes the tick */
	uint64_t stalled_ns;	/* of the window so far, time it showed no sign of running */
	int arriving_cpu;	/* the sibling that just switched */
	bool has_arriving_kick;	/* it got a reschedule IPI during the window, */
	uint64_t arriving_kick_ns;	/* this long after the window opened */
};

/* Tick intervals seen, in 250 us buckets up to 32 ms: their mode is the tick period. */
#define CA_TICK_BUCKETS 128

struct ca_cpu_causes {
	uint64_t last_resched_ipi;
	uint64_t last_local_wakeup;
	uint64_t last_tick;
	uint64_t tick_seq;
	uint64_t last_event;	/* any event on the CPU */
};

struct ca_causes {
	struct ca_cpu_causes cpus[CA_MAX_CPUS];
	uint32_t tick_intervals[CA_TICK_BUCKETS];
	uint32_t tick_interval_count;
};

/** ca_causes_track() - note @ev: reschedule IPIs, local wakeups, ticks, any event */
void ca_causes_track(struct ca_causes *causes, const struct ca_event *ev);

/**
 * ca_causes_capture() - at a window's opening on @cpu_a and @cpu_b: the one
 *                       that did not just switch must leave; what it had pending
 * Return: the leaving sibling's pending requests (cpu -1 when neither switched).
 */
struct ca_leaving ca_causes_capture(const struct ca_causes *causes, const struct ca_state *state,
				    int cpu_a, int cpu_b);

/**
 * ca_causes_note_kick() - a reschedule IPI @ev during a window opened at
 *                         @start: note the first one to its arriving sibling
 */
void ca_causes_note_kick(struct ca_leaving *leaving, uint64_t start, const struct ca_event *ev);

/**
 * ca_causes_classify() - the cause of a window of @length that @leaving had to
 *                        leave: IPI, local wakeup, its tick (refuted by its next
 *                        tick), an IPI to the arriving sibling within @grace_ns
 *                        of the opening (a later pick sent it away instead), a
 *                        stalled vCPU (it ran less than @grace_ns), else
 *                        unexplained
 */
enum ca_window_cause ca_causes_classify(const struct ca_causes *causes,
					const struct ca_leaving *leaving, uint64_t length,
					uint64_t grace_ns);

/**
 * ca_causes_add_stalled() - add to @leaving what of [@from, @now) lay in a
 *                           silence of its CPU ending at @now: longer than 1.5
 *                           tick periods, a vCPU the host had stopped; call
 *                           before tracking the event at @now
 */
void ca_causes_add_stalled(const struct ca_causes *causes, struct ca_leaving *leaving,
			   uint64_t from, uint64_t now);

/**
 * ca_causes_is_violation() - a window of @cause and @length fails: one the
 *                            kernel explained (a pending request, a stopped
 *                            vCPU) only over @max_transition_ns (0: never), any
 *                            other (unexplained, unknown) at @grace_ns or more
 */
bool ca_causes_is_violation(enum ca_window_cause cause, uint64_t length, uint64_t grace_ns,
			    uint64_t max_transition_ns);

const char *ca_window_cause_name(enum ca_window_cause cause);

#endif
