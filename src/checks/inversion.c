/*
 * inversion.c - priority inversion: a realtime task kept off an idle CPU by
 * a lower-priority task of another cookie on its core (inversion.h says the
 * rule and draws the automaton; inversion.dot).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/inversion.h"
#include "state/state.h"
#include "util/longest.h"

#define FIRST_FAIR_PRIO 100		/* kernel prio below this: RT (or deadline, below 0) */
#define RT_THROTTLE_NEAR_NS 900000000ull	/* of 950 ms sched_rt_runtime_us, per second */
#define FAIR_SERVER_SHORT_NS 100000000ull	/* twice the fair server's 50 ms a second */

static struct ca_inversion *to_inv(struct ca_check *check)
{
	return (struct ca_inversion *)check;
}

static bool is_rt(int prio)
{
	return prio >= 0 && prio < FIRST_FAIR_PRIO;
}

/* W: the best task queued on idle @cpu, when it is RT and its cookie known. */
static bool best_queued_rt(const struct ca_state *state, int cpu, struct ca_inversion_finding *f)
{
	const struct ca_cpu *c = &state->cpus[cpu];
	const struct ca_task *best = NULL;

	if (c->run != CA_CPU_IDLE)
		return false;
	for (int q = 0; q < c->queued_count; q++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks, c->queued[q]);

		if (task && (!best || task->prio < best->prio))
			best = task;
	}
	if (!best || !is_rt(best->prio) || !ca_state_kernel_cookie(state, best, &f->waiting_cookie))
		return false;
	f->waiting_cpu = cpu;
	f->waiting_pid = best->pid;
	f->waiting_prio = best->prio;
	return true;
}

/*
 * Whether W outranks every task the other CPUs of @core run, one of them
 * (H, the first) of another cookie, every state and cookie known.
 */
static bool is_outranked_holder(const struct ca_state *state, int core,
				struct ca_inversion_finding *f)
{
	bool has_holder = false;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);
		uint64_t cookie;

		if (cpu == f->waiting_cpu || state->cpus[cpu].run == CA_CPU_IDLE)
			continue;
		if (!task || task->prio <= f->waiting_prio ||
		    !ca_state_kernel_cookie(state, task, &cookie))
			return false;
		if (has_holder || cookie == f->waiting_cookie)
			continue;
		has_holder = true;
		f->holder_cpu = cpu;
		f->holder_pid = task->pid;
		f->holder_prio = task->prio;
		f->holder_cookie = cookie;
	}
	return has_holder;
}

/* Whether a CPU of @core is idle beside an inversion now: @f says who waits and who holds. */
static bool is_inverted(const struct ca_state *state, int core, struct ca_inversion_finding *f)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		memset(f, 0, sizeof(*f));
		f->core = core;
		if (best_queued_rt(state, state->topo.siblings[core][i], f) &&
		    is_outranked_holder(state, core, f))
			return true;
	}
	return false;
}

/* What each CPU of @core ran up to @ts, into the history (its occupant since the last call). */
static void account_core(struct ca_inversion *inv, const struct ca_state *state, int core,
			 uint64_t ts)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);

		ca_history_account(&inv->history, cpu, task != NULL, task ? task->prio : 0, ts);
	}
}

static void inv_advance(struct ca_check *check, const struct ca_state *state, int core,
			uint64_t ts)
{
	account_core(to_inv(check), state, core, ts);
}

/*
 * Whether throttling or the fair server could have kept W off its CPU (see
 * history.h): W's CPU ran RT near the throttle in the second before @ts, or a
 * sibling running a CFS task had run CFS too little for the fair server to
 * leave it alone.
 */
static bool is_excused(const struct ca_inversion *inv, const struct ca_state *state,
		       const struct ca_inversion_finding *f, uint64_t ts)
{
	if (ca_history_ran(&inv->history, f->waiting_cpu, CA_HISTORY_RT, ts, true) >=
	    RT_THROTTLE_NEAR_NS)
		return true;
	for (int i = 0; i < state->topo.sibling_count[f->core]; i++) {
		int cpu = state->topo.siblings[f->core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);

		if (cpu != f->waiting_cpu && task && task->prio >= FIRST_FAIR_PRIO &&
		    ca_history_ran(&inv->history, cpu, CA_HISTORY_FAIR, ts, false) <
		    FAIR_SERVER_SHORT_NS)
			return true;
	}
	return false;
}

static uint64_t length_of(const void *item)
{
	const struct ca_inversion_finding *f = item;

	return f->end_ns - f->start_ns;
}

/* The stretch ends at @ts: a finding when it outlived max_ns after the decision, unexcused. */
static void close_stretch(struct ca_inversion *inv, struct ca_inversion_core *c, uint64_t ts)
{
	uint64_t after = ts - c->now.decided_ns;

	if (c->phase == CA_INVERSION_DECIDED && after > inv->longest_ns)
		inv->longest_ns = after;
	if (c->phase == CA_INVERSION_DECIDED && after > inv->max_ns) {
		if (c->is_excused) {
			inv->excused_count++;
		} else {
			c->now.end_ns = ts;
			inv->finding_count++;
			inv->finding_ns += ts - c->now.start_ns;
			ca_keep_longest(inv->list, &inv->listed, CA_INVERSION_LIST,
					sizeof(inv->list[0]), &c->now, length_of);
		}
	}
	c->phase = CA_INVERSION_CLEAR;
}

static void inv_update(struct ca_check *check, const struct ca_state *state, int core,
		       uint64_t ts, unsigned int changes)
{
	struct ca_inversion *inv = to_inv(check);
	struct ca_inversion_core *c = &inv->cores[core];
	struct ca_inversion_finding now;
	bool inverted = is_inverted(state, core, &now);

	(void)changes;
	if (c->phase != CA_INVERSION_CLEAR && inverted &&
	    now.waiting_cpu == c->now.waiting_cpu && now.waiting_pid == c->now.waiting_pid)
		return;		/* the same stretch goes on */
	if (c->phase != CA_INVERSION_CLEAR)
		close_stretch(inv, c, ts);
	if (!inverted)
		return;
	c->phase = CA_INVERSION_WAITING;
	c->now = now;
	c->now.start_ns = ts;
}

/*
 * Whether @ev shows a core-wide selection made with W queued (enqueue and
 * pick hold the core's lock, so a pick traced after W's enqueue saw W): W's
 * CPU switching to idle, or going back to an idle state, after W was queued
 * there; a sibling switching to a task with a cookie (such a pick always
 * compares every sibling's).  A sibling's pick of a task without one, while
 * the core has no cookie, takes its own CPU's best and looks at no other
 * (pick_next_task()'s unconstrained fast path): W's CPU, told to reschedule,
 * selects for the core when it gets there.
 */
static bool is_decision(const struct ca_state *state, const struct ca_inversion_core *c,
			const struct ca_event *ev)
{
	const struct ca_task *next;
	uint64_t cookie;

	if (ev->ts < c->now.start_ns)
		return false;
	if (ev->cpu == c->now.waiting_cpu)
		return ev->kind == CA_EV_SWITCH ||
		       (ev->kind == CA_EV_IDLE && ev->idle.state != UINT32_MAX &&
			ev->ts > c->now.start_ns);
	if (ev->kind != CA_EV_SWITCH)
		return false;
	next = ca_state_cpu_task(state, ev->cpu);
	return next && ca_state_kernel_cookie(state, next, &cookie) && cookie;
}

static void inv_event(struct ca_check *check, const struct ca_state *state,
		      const struct ca_event *ev)
{
	struct ca_inversion *inv = to_inv(check);
	struct ca_inversion_core *c;
	int core = ca_topology_core_of(&state->topo, ev->cpu);

	if (core < 0 || (size_t)core >= inv->core_count)
		return;
	c = &inv->cores[core];
	if (c->phase != CA_INVERSION_WAITING || !is_decision(state, c, ev))
		return;
	account_core(inv, state, core, ev->ts);
	c->phase = CA_INVERSION_DECIDED;
	c->now.decided_ns = ev->ts;
	c->is_excused = is_excused(inv, state, &c->now, ev->ts);
}

static void inv_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_inversion *inv = to_inv(check);

	(void)state;
	for (size_t core = 0; core < inv->core_count; core++)
		if (inv->cores[core].phase != CA_INVERSION_CLEAR)
			close_stretch(inv, &inv->cores[core], end_ts);
}

static int inv_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_inversion *inv = to_inv(check);

	inv->core_count = (size_t)state->topo.core_count;
	inv->cores = calloc(inv->core_count ? inv->core_count : 1, sizeof(*inv->cores));
	if (!inv->cores)
		return -ENOMEM;
	return ca_history_init(&inv->history, (size_t)state->topo.cpu_count);
}

void ca_inversion_init(struct ca_inversion *inv, uint64_t max_ns)
{
	memset(inv, 0, sizeof(*inv));
	inv->base.name = "inversion";
	inv->base.setup = inv_setup;
	inv->base.advance = inv_advance;
	inv->base.update = inv_update;
	inv->base.event = inv_event;
	inv->base.finish = inv_finish;
	inv->max_ns = max_ns;
}

void ca_inversion_free(struct ca_inversion *inv)
{
	free(inv->cores);
	inv->cores = NULL;
	ca_history_free(&inv->history);
}
