/*
 * unjust.c - unjustified forced idle: a CPU idle while a task of the cookie
 * its siblings run waits on it (unjust.h says the rule; owed.c runs it).
 */
#include "checks/unjust.h"
#include "state/state.h"

#define FIRST_FAIR_PRIO 100

/* The one cookie the other CPUs of @core run (H: the first such task); false if none or two. */
static bool core_cookie(const struct ca_state *state, int core, struct ca_owed_finding *f)
{
	bool has_holder = false;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);
		uint64_t cookie;

		if (cpu == f->who.waiting_cpu || state->cpus[cpu].run == CA_CPU_IDLE)
			continue;
		if (!task || !ca_state_kernel_cookie(state, task, &cookie))
			return false;
		if (has_holder) {
			if (cookie != f->who.holder_cookie)
				return false;
			continue;
		}
		has_holder = true;
		f->who.holder_cpu = cpu;
		f->who.holder_pid = task->pid;
		f->who.holder_prio = task->prio;
		f->who.holder_cookie = cookie;
	}
	return has_holder && f->who.holder_cookie;
}

/* W: the best task queued on idle @cpu of the holder's cookie. */
static bool compatible_queued(const struct ca_state *state, int cpu, struct ca_owed_finding *f)
{
	const struct ca_cpu *c = &state->cpus[cpu];
	const struct ca_task *best = NULL;

	for (int q = 0; q < c->queued_count; q++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks, c->queued[q]);
		uint64_t cookie;

		if (task && ca_state_kernel_cookie(state, task, &cookie) &&
		    cookie == f->who.holder_cookie && (!best || task->prio < best->prio))
			best = task;
	}
	if (!best)
		return false;
	f->who.waiting_pid = best->pid;
	f->who.waiting_prio = best->prio;
	f->who.waiting_cookie = f->who.holder_cookie;
	return true;
}

static bool find_unjust(const struct ca_state *state, int core, struct ca_owed_finding *f)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];

		if (state->cpus[cpu].run != CA_CPU_IDLE || !state->cpus[cpu].queued_count)
			continue;
		f->who.waiting_cpu = cpu;
		if (core_cookie(state, core, f) && compatible_queued(state, cpu, f))
			return true;
	}
	return false;
}

/* An RT task on a CPU near the RT throttle may have been throttled (history.h). */
static bool is_excused(const struct ca_history *history, const struct ca_state *state,
		       const struct ca_owed_finding *f, uint64_t ts)
{
	return f->who.waiting_prio >= 0 && f->who.waiting_prio < FIRST_FAIR_PRIO &&
	       ca_history_may_be_rt_throttled(history, f->who.waiting_cpu, ts, state->first_ts);
}

const struct ca_owed_rule ca_unjust_rule = {
	.name = "unjustified",
	.find = find_unjust,
	.is_excused = is_excused,
	.is_decided_by_sibling = false,
};
