/*
 * reselect.c - forced idle that outlives the reselection the kernel owed
 * (reselect.h says the rule and draws the automaton; reselect.dot).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/reselect.h"
#include "state/state.h"
#include "util/longest.h"

#define TICK_MERGE_NS 200000ull		/* a timer interrupt and its tick hrtimer: one tick */
#define FIRST_RT_PRIO 100		/* kernel prio below this: RT or DL */

static struct ca_reselect *to_rs(struct ca_check *check)
{
	return (struct ca_reselect *)check;
}

/* The kernel cookie and priority of @task; false when its cookie is not known. */
static bool is_known(const struct ca_state *state, const struct ca_task *task, uint64_t *cookie)
{
	return task && ca_state_kernel_cookie(state, task, cookie);
}

/*
 * The best-priority CFS task waiting on idle @cpu, when none of the work
 * there could run beside @cookie (forced idle); false otherwise, or when a
 * waiting task's cookie is not known.
 */
static bool best_waiting(const struct ca_state *state, int cpu, uint64_t cookie,
			 struct ca_reselect_finding *f)
{
	const struct ca_cpu *c = &state->cpus[cpu];
	bool has_cfs = false;

	if (c->run != CA_CPU_IDLE || !c->queued_count)
		return false;
	for (int q = 0; q < c->queued_count; q++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks, c->queued[q]);
		uint64_t waiting;

		if (!is_known(state, task, &waiting) || waiting == cookie)
			return false;
		if (task->prio < FIRST_RT_PRIO || (has_cfs && task->prio >= f->who.waiting_prio))
			continue;
		has_cfs = true;
		f->who.waiting_cpu = cpu;
		f->who.waiting_pid = task->pid;
		f->who.waiting_prio = task->prio;
		f->who.waiting_cookie = waiting;
	}
	return has_cfs;
}

/* The one CPU of @core running a task, known, CFS; -1 otherwise. */
static int lone_holder(const struct ca_state *state, int core, struct ca_reselect_finding *f)
{
	int holder = -1;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_task *task;

		if (state->cpus[cpu].run == CA_CPU_UNKNOWN)
			return -1;
		if (state->cpus[cpu].run != CA_CPU_TASK)
			continue;
		task = ca_state_cpu_task(state, cpu);
		if (holder >= 0 || !is_known(state, task, &f->who.holder_cookie) ||
		    task->prio < FIRST_RT_PRIO)
			return -1;
		holder = cpu;
		f->who.holder_pid = task->pid;
		f->who.holder_prio = task->prio;
	}
	f->who.holder_cpu = holder;
	return holder;
}

/* Whether the core owes a reselection now: @f names who waits and who holds. */
static bool is_owed(const struct ca_state *state, int core, struct ca_reselect_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->core = core;
	if (lone_holder(state, core, f) < 0)
		return false;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];

		if (cpu != f->who.holder_cpu && best_waiting(state, cpu, f->who.holder_cookie, f) &&
		    f->who.holder_prio >= f->who.waiting_prio)
			return true;
	}
	return false;
}

static uint64_t length_of(const void *item)
{
	const struct ca_reselect_finding *f = item;

	return f->end_ns - f->start_ns;
}

/* A would-be finding whose core settled: a finding, or unknown over unobserved time. */
static void judge_suspect(void *ctx, const struct ca_state *state, const void *item)
{
	struct ca_reselect *rs = ctx;
	const struct ca_reselect_finding *f = item;

	if (ca_state_core_unobserved(state, f->core, f->start_ns, f->end_ns, false) ||
	    ca_state_queued_before_gap(state, f->who.waiting_cpu, f->who.waiting_pid)) {
		rs->unknown_count++;
		return;
	}
	rs->finding_count++;
	rs->finding_ns += f->end_ns - f->start_ns;
	ca_keep_longest(rs->list, &rs->listed, CA_RESELECT_LIST, sizeof(rs->list[0]), f,
			length_of);
}

/* The stretch ends at @ts: past max_ticks, judged once its core has shown past it. */
static void close_stretch(struct ca_reselect *rs, struct ca_reselect_core *c, uint64_t ts)
{
	if (c->is_found) {
		c->found.end_ns = ts;
		if (ca_suspects_add(&rs->suspects, c->found.core, ts, &c->found))
			rs->base.error = -ENOMEM;
	}
	c->is_owed = false;
	c->is_found = false;
}

static void rs_update(struct ca_check *check, const struct ca_state *state, int core,
		      uint64_t ts, unsigned int changes)
{
	struct ca_reselect *rs = to_rs(check);
	struct ca_reselect_core *c = &rs->cores[core];
	struct ca_reselect_finding now;
	bool owed = is_owed(state, core, &now);

	(void)changes;
	if (c->is_owed && owed && now.who.holder_cpu == c->found.who.holder_cpu &&
	    now.who.holder_pid == c->found.who.holder_pid && now.who.waiting_cpu == c->found.who.waiting_cpu)
		return;		/* the same stretch goes on */
	if (c->is_owed)
		close_stretch(rs, c, ts);
	if (!owed)
		return;
	c->is_owed = true;
	c->found = now;
	c->found.start_ns = ts;
}

/* A tick on @cpu, counted once: a timer interrupt and the tick hrtimer in it are one. */
static bool is_new_tick(struct ca_reselect *rs, const struct ca_event *ev)
{
	uint64_t *last = &rs->last_tick[ev->cpu];

	if (ev->tick.is_tick_timer)
		rs->is_tick_timer_only = true;
	if (rs->is_tick_timer_only && !ev->tick.is_tick_timer)
		return false;
	if (*last && ev->ts - *last <= TICK_MERGE_NS)
		return false;
	*last = ev->ts;
	return true;
}

static void rs_event(struct ca_check *check, const struct ca_state *state,
		     const struct ca_event *ev)
{
	struct ca_reselect *rs = to_rs(check);
	struct ca_reselect_core *c;
	int core;

	if (rs->suspects.count && ev->kind != CA_EV_LOST)
		ca_suspects_release(&rs->suspects, state, false, judge_suspect, rs);
	if (ev->kind != CA_EV_TICK || (size_t)ev->cpu >= rs->cpu_count || !is_new_tick(rs, ev))
		return;
	rs->has_ticks = true;
	core = ca_topology_core_of(&state->topo, ev->cpu);
	if (core < 0 || (size_t)core >= rs->core_count)
		return;
	c = &rs->cores[core];
	if (!c->is_owed || c->found.who.holder_cpu != ev->cpu)
		return;
	c->found.ticks++;
	c->found.end_ns = ev->ts;
	if (c->found.ticks > rs->most_ticks)
		rs->most_ticks = c->found.ticks;
	c->is_found |= c->found.ticks > rs->max_ticks;
}

static void rs_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_reselect *rs = to_rs(check);

	for (size_t core = 0; core < rs->core_count; core++)
		if (rs->cores[core].is_owed)
			close_stretch(rs, &rs->cores[core], end_ts);
	ca_suspects_release(&rs->suspects, state, true, judge_suspect, rs);
}

static int rs_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_reselect *rs = to_rs(check);

	rs->cpu_count = state->cpu_count;
	rs->core_count = (size_t)state->topo.core_count;
	rs->last_tick = calloc(rs->cpu_count ? rs->cpu_count : 1, sizeof(*rs->last_tick));
	rs->cores = calloc(rs->core_count ? rs->core_count : 1, sizeof(*rs->cores));
	return rs->last_tick && rs->cores ? 0 : -ENOMEM;
}

void ca_reselect_init(struct ca_reselect *rs, uint32_t max_ticks)
{
	memset(rs, 0, sizeof(*rs));
	rs->base.name = "reselect";
	rs->base.setup = rs_setup;
	rs->base.update = rs_update;
	rs->base.event = rs_event;
	rs->base.finish = rs_finish;
	rs->max_ticks = max_ticks;
	ca_suspects_init(&rs->suspects, sizeof(struct ca_reselect_finding));
}

void ca_reselect_free(struct ca_reselect *rs)
{
	free(rs->last_tick);
	free(rs->cores);
	ca_suspects_free(&rs->suspects);
	rs->last_tick = NULL;
	rs->cores = NULL;
}
