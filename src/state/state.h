/*
 * state.h - what is known at the current instant of the trace.
 *
 * For every CPU: the task on it (idle, a task, or unknown) and its runnable
 * queue; for every task: cookie, tag, whereabouts (tasks.h).  The state stage
 * consumes events in time order and tells the checks, through
 * ca_check.advance and ca_check.update, around every change of a core.
 * It computes no findings.
 */
#ifndef COREAUDIT_STATE_H
#define COREAUDIT_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "coreaudit/audit.h"	/* enum ca_identity, an audit option */
#include "coreaudit/topology.h"
#include "state/coverage.h"
#include "state/tasks.h"
#include "util/event.h"

struct ca_check;

enum ca_cpu_run {
	CA_CPU_UNKNOWN,		/* before its first event, or after lost events */
	CA_CPU_IDLE,
	CA_CPU_TASK,
};

enum ca_cookie_source {
	CA_COOKIES_NONE,
	CA_COOKIES_MARKERS,
	CA_COOKIES_PRCTL,
	CA_COOKIES_PROBE,
};

/*
 * The tail of a switch: what the leaving task still shows in the same
 * __schedule, interrupts off, after the sched_switch event.  That is the
 * ring buffer's irq_work IPI (and the cookie probe, never read as the CPU's
 * occupant): IPI sends alone, and within CA_SWITCH_TAIL_NS (109 us seen
 * under QEMU TCG; a stopped vCPU can stretch it).  Any other event of the
 * leaving task (a tick, an idle state, a wakeup: none can come with
 * interrupts off) contradicts the switch, so a missing switch into idle does
 * not hide behind the idle task's events as a tail.
 */
#define CA_SWITCH_TAIL_NS 10000000ull

struct ca_cpu {
	enum ca_cpu_run run;
	int pid;		/* for CA_CPU_TASK */
	uint32_t task_index;	/* its place in the task table (stable: never removed) */
	uint64_t since;		/* when the current occupant (task or idle) began */
	/*
	 * The task its last switch replaced.  Until the new occupant shows,
	 * its IPI sends within CA_SWITCH_TAIL_NS are the tail of the same
	 * __schedule (the context switch comes after the sched_switch event),
	 * not a contradiction.
	 */
	int leaving_pid;
	bool is_in_switch_tail;
	bool is_tail_event;	/* its latest event was such a tail */
	/*
	 * The task we believed current here was switched in on another CPU (at
	 * taken_ts): its switch out here was not seen.  A switch is missing
	 * from the trace (on a global clock a switch out comes before the
	 * switch in elsewhere; on a coarse one they may tie): the CPU is
	 * unobserved from its last event to its next, counted once
	 * (is_taken_counted; also when a gap already says why).
	 */
	int taken_pid;
	uint64_t taken_ts;
	bool is_taken_counted;
	int *queued;		/* pids runnable here, not running */
	int queued_count;
	int queued_capacity;
	bool has_events;
	uint64_t last_ts;	/* last event seen on this CPU */
	/*
	 * Its first event in the span, when nothing before told what it ran:
	 * the task then current (0: idle), whose run is taken to reach back to
	 * the span's start (audit.c judges whether it can).
	 */
	bool has_first;		/* an event of its own: first_ts, first_pid, first_kind */
	bool is_first_unknown;
	bool is_head_covered;	/* unobserved already before it (lost events, damage) */
	uint64_t first_ts;
	int first_pid;
	enum ca_event_kind first_kind;
	int64_t lost_events;	/* counted; unknown counts add 1 */
	bool has_unknown_loss;	/* a gap of unknown size */
	uint64_t lost_ns;	/* time lost to gaps */
	uint64_t damaged_places;	/* unreadable data the reader skipped */
	/*
	 * Events whose common_pid (or switch prev_pid) was not the task we
	 * believed current: a switch is missing from the trace.
	 */
	uint64_t missed_switches;
	/* The last gap or contradiction: what ran in (from, to] is not known. */
	uint64_t uncertain_from;
	uint64_t uncertain_to;
	struct ca_cpu_coverage coverage;	/* where it was not observed */
};

struct ca_pending_prctl {
	int pid;		/* caller, 0 when the slot is free */
	uint64_t enter_ts;
	struct ca_prctl call;
};

#define CA_MAX_PENDING_PRCTL 64

struct ca_state {
	struct ca_topology topo;
	struct ca_tasks tasks;
	struct ca_cpu *cpus;	/* [cpu_count]: the topology's CPUs and every CPU with events */
	size_t cpu_count;
	enum ca_identity identity;
	enum ca_cookie_source cookie_source;
	bool assume_unknown_cookie_zero;
	bool has_tick_events;	/* the trace records them (the source says) */
	uint64_t ticks;		/* tick events seen */
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t uncertain_to;	/* the latest end of any CPU's unknown stretch */
	bool has_events;
	uint64_t next_prctl_cookie;
	uint64_t prctl_calls;
	uint64_t prctl_group_scope_calls;	/* scope 2: members beyond tgid unseen */
	struct ca_pending_prctl pending[CA_MAX_PENDING_PRCTL];
	int pending_count;	/* slots in use: none, the common case, is not searched */
	struct ca_check **checks;
	int check_count;
};

/**
 * ca_state_init() - prepare the state for a trace with topology @topo (copied)
 *                   whose events name CPUs below @cpu_count (the source's
 *                   count; the table grows for any CPU past it)
 * Return: 0, or -ENOMEM.
 */
int ca_state_init(struct ca_state *state, const struct ca_topology *topo, int cpu_count,
		  enum ca_identity identity);
void ca_state_free(struct ca_state *state);

/** ca_state_add_check() - add @check and call its setup() - Return: 0, or -ENOMEM. */
int ca_state_add_check(struct ca_state *state, struct ca_check *check);

/**
 * ca_state_consume() - apply one event (in time order)
 * Return: 0; -ENOMEM; -ERANGE for an event on a CPU outside 0..CA_CPU_LIMIT-1
 *         (the stream checks CPUs first).
 */
int ca_state_consume(struct ca_state *state, const struct ca_event *ev);

/**
 * ca_state_learn() - from an event before the audited span, only who the
 *                    tasks are: their names, cookies and tags (a fork's
 *                    inheritance, a prctl, a marker, a probe's cookies);
 *                    nothing of the CPUs, and no check sees it
 * Return: 0, or -ENOMEM.
 */
int ca_state_learn(struct ca_state *state, const struct ca_event *ev);

/**
 * ca_state_finish() - close the trace at its last timestamp: a CPU still
 *                     unobserved then becomes unknown from where that began;
 *                     then every check's finish.
 * Return: 0, or the first error of any check (ca_state_check_error()).
 */
int ca_state_finish(struct ca_state *state);

/**
 * ca_state_check_error() - the first error any check has met so far, in the
 *                          order they were added
 * Return: 0, or a negative errno (-ENOMEM).
 */
int ca_state_check_error(const struct ca_state *state);

/**
 * ca_state_identity() - the identity (cookie or tag id) that decides whether
 *                       @task may share a core
 * Return: true and *@value when known, false when unknown.
 */
bool ca_state_identity(const struct ca_state *state, const struct ca_task *task,
		       uint64_t *value);

/**
 * ca_state_first_identity() - like ca_state_identity(), but for a task whose
 *                             cookie was unknown then, the first cookie
 *                             observed later, when no prctl changed it first
 * Return: true and *@value when known.
 */
bool ca_state_first_identity(const struct ca_state *state, const struct ca_task *task,
			     uint64_t *value);

/**
 * ca_state_kernel_cookie() - the kernel cookie of @task, whatever decides identity (with
 *                            --tags markers, the cookie beside the tag): the one the
 *                            trace's cookie source last told, or 0 for a task it never
 *                            told when unknown cookies are assumed 0
 * Return: true and *@cookie when known; false when unknown, and always when the trace has
 *         no cookie source.
 */
bool ca_state_kernel_cookie(const struct ca_state *state, const struct ca_task *task,
			    uint64_t *cookie);

/**
 * ca_state_cookie_in_flight() - a prctl(PR_SCHED_CORE) that changes @pid's
 *                               cookie has entered and not yet returned
 */
bool ca_state_cookie_in_flight(const struct ca_state *state, int pid);

/**
 * ca_state_core_unobserved() - whether a CPU of @core was unobserved at any
 *                              time from @from until @to, or, @has_causes,
 *                              from CA_CAUSE_HORIZON_NS before @from: a
 *                              window there may have lost its cause with
 *                              that CPU's events (known once
 *                              ca_state_core_settled() says so)
 */
/**
 * ca_state_queued_before_gap() - whether @pid, queued on @cpu, was queued
 *                                before (or in) the CPU's last unknown
 *                                stretch: it may have left the queue unseen
 */
bool ca_state_queued_before_gap(const struct ca_state *state, int cpu, int pid);

/**
 * ca_state_queued_before_any_gap() - whether @pid was queued before (or in)
 * the last unknown stretch of any CPU: another CPU may have taken it unseen
 */
bool ca_state_queued_before_any_gap(const struct ca_state *state, int pid);

bool ca_state_core_unobserved(const struct ca_state *state, int core, uint64_t from,
			      uint64_t to, bool has_causes);

/**
 * ca_state_core_observed_ns() - how much of [@from, @to) every CPU of @core
 * was observed in (as far as the trace has told so far)
 */
uint64_t ca_state_core_observed_ns(const struct ca_state *state, int core, uint64_t from,
				   uint64_t to);

/**
 * ca_state_core_settled() - whether every CPU of @core has shown an event at
 *                           or after @ts: what coverage says of the time
 *                           before @ts no longer changes
 */
bool ca_state_core_settled(const struct ca_state *state, int core, uint64_t ts);

/**
 * ca_state_core_known_until() - up to when, in the interval (@start, @ts] that a
 *                               change of @core at @ts ends, its CPUs' state was
 *                               known: a CPU whose last stretch just turned out
 *                               unknown (lost events, a missed switch) was known
 *                               only up to that stretch's start (not before @start)
 */
uint64_t ca_state_core_known_until(const struct ca_state *state, int core, uint64_t start,
				   uint64_t ts);

/** ca_state_cpu_task() - Return: the task running on @cpu, or NULL (idle or unknown). */
const struct ca_task *ca_state_cpu_task(const struct ca_state *state, int cpu);

/** ca_cookie_source_name() - Return: "probe", "prctl", "markers" or "none". */
const char *ca_cookie_source_name(enum ca_cookie_source source);

#endif
