/*
 * kernelfi.h - private to the forced-idle check: forced idle charged per task
 * the way the kernel does (kernel/sched/core.c pick_next_task,
 * kernel/sched/core_sched.c __sched_core_account_forceidle), by following its
 * core-wide selections through the trace.
 */
#ifndef CA_CHECKS_KERNELFI_H
#define CA_CHECKS_KERNELFI_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/schedlag.h"
#include "util/event.h"
#include "coreaudit/topology.h"

struct ca_state;

/* One core-wide selection and the forced-idle period it opened. */
struct ca_kfi_selection {
	uint64_t cookie;		/* the core cookie it chose */
	int count;			/* forced-idle picks (idle with nr_running > 0) */
	int occupation;			/* non-idle picks */
	uint64_t start;			/* period start while count > 0 */
	int pick[CA_MAX_SIBLINGS];	/* per sibling slot: 0 idle, > 0 a task */
	bool is_pending[CA_MAX_SIBLINGS];	/* the sibling has not taken its pick yet */
	int slot;			/* the selecting CPU's slot; -1 none yet */
};

/*
 * The kernel's view of one core, as far as the trace shows it: the selection
 * in force, and the enqueue/dequeue sequence that decides whether a
 * sibling's next schedule takes its pick (fast path) or selects again.
 */
struct ca_kfi_core {
	struct ca_kfi_selection sel;
	struct ca_kfi_selection before;	/* what a tentative selection replaced */
	uint64_t task_seq;		/* enqueues and dequeues on the core */
	uint64_t pick_seq;		/* task_seq at the last selection */
	uint64_t before_pick_seq;
	int tentative_slot;		/* a wakeup's selection, not yet confirmed; -1 */
	struct ca_schedlag lag;		/* its clock reads behind the events (its own CPUs' pace) */
};

/* What is charged, to whom: the forced-idle check's per-task figures. */
typedef void (*ca_kernelfi_charge_fn)(void *ctx, int pid, uint64_t ns);

/*
 * What one CPU's own events tell of its picks: the reschedule IPIs its
 * __schedule sent since its last other event (the pick's time, and which
 * siblings it kicked), and whether a kick reaches it in the idle state it is
 * in (from a non-polling idle state, the kernel kicks with an IPI; from a
 * polling one it only sets need-resched, and no IPI shows).
 */
struct ca_kfi_cpu {
	uint64_t pick_ts;		/* the first __schedule IPI since its last event */
	bool has_pick_ts;
	uint8_t kicked;			/* sibling slots those IPIs went to */
	uint32_t idle_state;		/* power:cpu_idle state it is in; UINT32_MAX none */
	uint32_t kick_states;		/* idle states (below 32) a __schedule IPI reached it in */
	uint64_t ipi_ts;		/* the last IPI sent to it */
	bool owes_pick;			/* idle, enqueued to, not yet shown scheduling */
	bool is_disturbed;		/* an IPI or a wakeup reached it in its idle state */
	bool is_best_cookied;		/* left idle beside cookie 0, tasks queued: its best has a cookie */
	uint64_t clock_ts;		/* its rq clock's last update the trace shows */
	bool is_clock_kept;		/* its next __schedule keeps that clock (RQCF_REQ_SKIP) */
	uint64_t last_ts;		/* its last event but switches and __schedule IPIs */
	bool is_leaving_idle;		/* that event: it left an idle state (cpu_idle -1) */
};

struct ca_kernelfi {
	struct ca_kfi_core *kcores;	/* [core_count] */
	struct ca_kfi_cpu *kcpus;	/* [cpu_count] */
	size_t cpu_count;
	bool has_idle_events;		/* power:cpu_idle seen: idle CPUs show their schedules */
	bool has_softirq_events;	/* irq:softirq_* seen: the SCHED softirq's clock updates show */
	ca_kernelfi_charge_fn charge;
	void *charge_ctx;
};

/**
 * ca_kernelfi_new() - a model with no selection yet, charging through @charge
 * Return: it, or NULL (out of memory).
 */
struct ca_kernelfi *ca_kernelfi_new(ca_kernelfi_charge_fn charge, void *charge_ctx);
void ca_kernelfi_free(struct ca_kernelfi *fi);

/**
 * ca_kernelfi_size() - follow @core_count cores and events of CPUs below @cpu_count
 * Return: 0, or -ENOMEM.
 */
int ca_kernelfi_size(struct ca_kernelfi *fi, size_t cpu_count, int core_count);

/** ca_kernelfi_event() - follow one event (after the state applied it). */
void ca_kernelfi_event(struct ca_kernelfi *fi, const struct ca_state *state,
		       const struct ca_event *ev);

#endif
