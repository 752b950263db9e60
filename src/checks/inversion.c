/*
 * inversion.c - priority inversion: a realtime task kept off an idle CPU by
 * a lower-priority task of another cookie on its core (inversion.h says the
 * rule; owed.c runs it).
 */
#include "checks/inversion.h"
#include "state/state.h"

#define FIRST_FAIR_PRIO 100		/* kernel prio below this: RT (or deadline, below 0) */

static bool is_rt(int prio)
{
	return prio >= 0 && prio < FIRST_FAIR_PRIO;
}

/* W: the best task queued on idle @cpu, when it is RT and its cookie known. */
static bool best_queued_rt(const struct ca_state *state, int cpu, struct ca_owed_finding *f)
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
	if (!best || !is_rt(best->prio) || !ca_state_kernel_cookie(state, best, &f->who.waiting_cookie))
		return false;
	f->who.waiting_cpu = cpu;
	f->who.waiting_pid = best->pid;
	f->who.waiting_prio = best->prio;
	return true;
}

/* Whether a task queued on @cpu ranks with W or above it (the selection could pick it). */
static bool has_queued_rival(const struct ca_state *state, int cpu, int prio)
{
	const struct ca_cpu *c = &state->cpus[cpu];

	for (int q = 0; q < c->queued_count; q++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks, c->queued[q]);

		if (task && task->prio <= prio)
			return true;
	}
	return false;
}

/*
 * Whether W outranks every task the other CPUs of @core run or hold queued,
 * one running task (H, the first) of another cookie, every state and cookie
 * known.
 */
static bool is_outranked_holder(const struct ca_state *state, int core,
				struct ca_owed_finding *f)
{
	bool has_holder = false;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);
		uint64_t cookie;

		if (cpu == f->who.waiting_cpu)
			continue;
		if (has_queued_rival(state, cpu, f->who.waiting_prio))
			return false;
		if (state->cpus[cpu].run == CA_CPU_IDLE)
			continue;
		if (!task || task->prio <= f->who.waiting_prio ||
		    !ca_state_kernel_cookie(state, task, &cookie))
			return false;
		if (has_holder || cookie == f->who.waiting_cookie)
			continue;
		has_holder = true;
		f->who.holder_cpu = cpu;
		f->who.holder_pid = task->pid;
		f->who.holder_prio = task->prio;
		f->who.holder_cookie = cookie;
	}
	return has_holder;
}

/* Whether a CPU of @core is idle beside an inversion now: @f says who waits and who holds. */
static bool find_inversion(const struct ca_state *state, int core, struct ca_owed_finding *f)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		if (best_queued_rt(state, state->topo.siblings[core][i], f) &&
		    is_outranked_holder(state, core, f))
			return true;
	return false;
}

/*
 * Whether throttling or the fair server could have kept W off its CPU (see
 * history.h): W's CPU ran RT near the throttle in the second before @ts, or a
 * sibling running a CFS task had run CFS too little for the fair server to
 * leave it alone.
 */
static bool is_excused(const struct ca_history *history, const struct ca_state *state,
		       const struct ca_owed_finding *f, uint64_t ts)
{
	if (ca_history_may_be_rt_throttled(history, f->who.waiting_cpu, ts, state->first_ts))
		return true;
	for (int i = 0; i < state->topo.sibling_count[f->core]; i++) {
		int cpu = state->topo.siblings[f->core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);

		if (cpu != f->who.waiting_cpu && task && task->prio >= FIRST_FAIR_PRIO &&
		    ca_history_may_be_fair_served(history, cpu, ts))
			return true;
	}
	return false;
}

const struct ca_owed_rule ca_inversion_rule = {
	.name = "inversion",
	.find = find_inversion,
	.is_excused = is_excused,
	.is_decided_by_sibling = true,
};
