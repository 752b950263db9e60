/*
 * causes.h - why the sibling that had to leave a co-run window was still
 * running (coreaudit-audit(1), WINDOW CAUSES): a reschedule IPI, a local wakeup, its own tick, a
 * stalled vCPU, or nothing.  A tracker a check feeds with every event; the
 * isolation check and the rules check each keep one.
 */
#ifndef COREAUDIT_CAUSES_H
#define COREAUDIT_CAUSES_H

#include <stdbool.h>
#include <stdint.h>

#include "util/event.h"
#include "coreaudit/topology.h"

struct ca_state;

enum ca_window_cause {
	CA_CAUSE_RESCHED_IPI,		/* a reschedule IPI to it since its switch-in */
	CA_CAUSE_RESCHED_WAKEUP,	/* a wakeup on it had set need-resched */
	CA_CAUSE_RESCHED_TICK,		/* its own tick, and it left before the next */
	CA_CAUSE_VCPU_STALL,		/* it ran less than the grace: a stalled vCPU */
	CA_CAUSE_UNEXPLAINED,		/* the kernel never asked it to leave */
	CA_CAUSE_UNKNOWN,		/* no ipi events; or no tick events, and a tick could */
	CA_CAUSE_SAME_COOKIE,		/* one kernel cookie: the kernel never kept them apart */
	CA_CAUSE_COUNT,
};

/*
 * The longest window a tick can explain.  The tick that set need-resched
 * came before the window, and the leaving CPU leaves before its next tick:
 * at most one tick period, 10 ms at the kernel's lowest CONFIG_HZ (100),
 * plus the next tick's delivery, which the tick rules accept up to half a
 * period late (a silence over 1.25 periods is read as a stopped vCPU, and
 * the overdue tick that ends it refutes nothing).
 * Without tick events a longer window, with no IPI or local wakeup, was
 * caused by no tick.
 */
#define CA_TICK_WINDOW_MAX_NS 15000000ull

/* What a window's cause makes of it. */
enum ca_judgement {
	CA_JUDGED_SKEW,		/* the kernel's transition, or shorter than the grace */
	CA_JUDGED_VIOLATION,
	CA_JUDGED_UNDECIDED,	/* its cause is unknown, and decides */
};

/* What a sibling had pending when a window opened on it. */
struct ca_leaving {
	int cpu;		/* -1: neither sibling switched (a cookie changed) */
	bool has_ipi;
	bool has_wakeup;
	bool has_tick;
	uint64_t tick_seq;	/* its tick count then: a later tick refutes the tick */
	uint64_t stalled_ns;	/* of the window so far, time it showed no sign of running */
	uint64_t opened_ns;
	int pids[2];		/* the two tasks; their kernel cookies at the opening */
	bool is_cookie_known[2];
	uint64_t cookies[2];
	int arriving_cpu;	/* the sibling that just switched */
	bool has_arriving_kick;	/* it got a reschedule IPI during the window, */
	uint64_t arriving_kick_ns;	/* this long after the window opened */
};

/* Tick intervals seen, in 250 us buckets up to 32 ms: their mode is the tick period. */
#define CA_TICK_BUCKETS 128

struct ca_cpu_causes {
	uint64_t last_resched_ipi;
	uint64_t last_local_wakeup;
	uint64_t last_tick;	/* timer interrupt or tick timer, merged within 200 us */
	uint64_t last_tick_timer;	/* the tick's own hrtimer */
	uint64_t tick_seq;	/* ticks that refute a pending request */
	uint64_t last_event;	/* any event on the CPU */
	uint64_t resumed_at;	/* its first event after a stall (a silence while busy) */
	bool is_idle;		/* switched to the idle task (a silence there is no stall) */
	/*
	 * Known to run a task since its last event (a switch to one, no idle
	 * state entered, no events lost since): its silences measure stalls.
	 */
	bool is_surely_running;
	int softirq_depth;	/* in softirq work (irq:softirq_entry without its exit), */
	uint64_t softirq_since;	/* since then */
};

/* Intervals between one CPU's timer events, of one kind (struct ca_causes). */
struct ca_tick_intervals {
	uint32_t counts[CA_TICK_BUCKETS];
	uint64_t sums_ns[CA_TICK_BUCKETS];
	uint32_t total;
};

struct ca_causes {
	struct ca_cpu_causes *cpus;	/* [cpu_count]: events of other CPUs are not tracked */
	size_t cpu_count;
	/*
	 * The tick period from the tick's own hrtimer when the trace has it;
	 * else from timer interrupts, which other hrtimers (a task's sleep)
	 * also raise: their intervals are shorter and irregular.
	 */
	struct ca_tick_intervals timer_interrupts;
	struct ca_tick_intervals tick_timers;
	uint64_t period_ns;	/* 0 until enough intervals were seen */
	bool lacks_tick_events;	/* the trace has none: a tick may explain what it shows not */
	bool has_seen_tick;	/* any CPU's: until then (or ever), ticks are not told */
	bool lacks_wakeup_events;	/* the trace has none: a local wakeup may explain a window */
	bool has_seen_wakeup;	/* any CPU's */
	bool has_tick_timers;	/* the tick's own hrtimer seen: only it counts as a tick */
	uint64_t longest_stall_ns;	/* the longest silence of a running CPU that was a stall */
};

/* Which events behind the causes the trace has (struct ca_source_info says). */
struct ca_cause_events {
	bool has_tick_events;
	bool has_wakeup_events;
};

/**
 * ca_causes_period() - the tick period: the mean interval around the most
 *                      common one, between the tick timer's expiries when
 *                      the trace has @min_intervals of them, else between
 *                      timer interrupts
 * Return: ns; 0 while fewer than @min_intervals were seen.
 */
uint64_t ca_causes_period(const struct ca_causes *causes, uint32_t min_intervals);

/**
 * ca_causes_tick_timer_period() - the same from the tick timer's expiries
 *                                 alone (other timers' interrupts, more
 *                                 frequent, would make it shorter)
 */
uint64_t ca_causes_tick_timer_period(const struct ca_causes *causes, uint32_t min_intervals);

/** ca_causes_init() - an empty tracker for a trace with @events */
void ca_causes_init(struct ca_causes *causes, struct ca_cause_events events);

/**
 * ca_causes_size() - track CPUs 0 to @cpu_count - 1
 * Return: 0, or -ENOMEM.
 */
int ca_causes_size(struct ca_causes *causes, size_t cpu_count);

/** ca_causes_free() - release the per-CPU table (safe on a zeroed tracker) */
void ca_causes_free(struct ca_causes *causes);

/**
 * ca_causes_note_event() - what @ev tells an open window (opened at @start
 *                          with @leaving): the silence it ends on the leaving
 *                          sibling (a stall), a reschedule IPI to the arriving
 *                          one; every check that judges windows calls it for
 *                          each of its open windows on a core @ev touches,
 *                          before ca_causes_track(@ev)
 */
void ca_causes_note_event(const struct ca_causes *causes, struct ca_leaving *leaving,
			  uint64_t start, const struct ca_event *ev);

/**
 * ca_causes_event_cores() - the cores whose open windows @ev can tell
 *                           something: @ev's CPU's, and a reschedule IPI's
 *                           targets' (each once)
 * Return: how many were written to @cores (at most 2).
 */
int ca_causes_event_cores(const struct ca_topology *topo, const struct ca_event *ev, int *cores);

/** ca_causes_track() - note @ev: reschedule IPIs, local wakeups, ticks, any event */
void ca_causes_track(struct ca_causes *causes, const struct ca_event *ev);

/**
 * ca_causes_capture() - at a window's opening on @cpu_a and @cpu_b: the one
 *                       that did not just switch must leave; what it had pending,
 *                       and the kernel cookies of both tasks
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
 * ca_causes_is_same_cookie() - at the close of a window opened with @leaving:
 *                              both tasks carry one kernel cookie, known now and
 *                              unchanged since the opening where known then; two
 *                              tasks declared apart (tags, rules) that the kernel
 *                              never asked to be apart
 */
bool ca_causes_is_same_cookie(const struct ca_leaving *leaving, const struct ca_state *state);

/**
 * ca_causes_classify() - the cause of a window of @length that @leaving had to
 *                        leave: IPI, local wakeup, its tick (until its next
 *                        tick), an IPI to the arriving sibling within @grace_ns
 *                        of the opening (a later pick sent it away instead), a
 *                        stalled vCPU (it ran less than @grace_ns); unknown up
 *                        to CA_TICK_WINDOW_MAX_NS without tick events, or past
 *                        the next tick of a tick before the pick; else
 *                        unexplained
 */
enum ca_window_cause ca_causes_classify(const struct ca_causes *causes,
					const struct ca_leaving *leaving, uint64_t length,
					uint64_t grace_ns);

/**
 * ca_causes_add_stalled() - add to @leaving what of [@from, @now) lay in a
 *                           silence of its CPU ending at @now: longer than 1.25
 *                           tick periods, a vCPU the host had stopped; call
 *                           before tracking the event at @now
 */
void ca_causes_add_stalled(const struct ca_causes *causes, struct ca_leaving *leaving,
			   uint64_t from, uint64_t now);

/* How a check judges its windows (the same for every check). */
struct ca_judging {
	uint64_t grace_ns;
	uint64_t max_transition_ns;	/* 0: explained windows never fail */
	bool has_causes;		/* ipi events: causes are told */
	/*
	 * Without ipi events: windows of unknown cause from the grace up to this
	 * are undecided (a reschedule IPI delayed that long could explain them),
	 * longer ones violations; 0: every one of the grace or more is.
	 */
	uint64_t unknown_until_ns;
	/*
	 * The longest stall of a running vCPU the trace showed so far (its ticks
	 * missing): a kicked CPU stopped that long answers that much later, so
	 * it lengthens unknown_until_ns (an emulated SMT4 guest on two host
	 * cores stops vCPUs for 20 ms and more).
	 */
	uint64_t stall_ns;
};

/**
 * ca_causes_judge() - a window of @cause and @length: of one kernel cookie, a
 *                     violation whatever its length; one the kernel explained (a
 *                     pending request, a stopped vCPU) only over
 *                     max_transition_ns; unexplained at the grace or more; of
 *                     unknown cause, undecided at the grace or more (no tick
 *                     events; or no ipi events, up to unknown_until_ns)
 * Return: what @judging makes of it.
 */
enum ca_judgement ca_causes_judge(const struct ca_judging *judging, enum ca_window_cause cause,
				  uint64_t length);

const char *ca_window_cause_name(enum ca_window_cause cause);

#endif
