/*
 * state.c - apply events to what is known now: per CPU the task on it and its
 * runnable queue, per task where it is.  Around every change of a core it
 * calls the checks' advance() (before) and update() (after).
 *
 * Cookies and tags live in identity.c; this file only dispatches to it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"
#include "state/state.h"
#include "state/identity.h"
#include "util/grow.h"

int ca_state_init(struct ca_state *state, const struct ca_topology *topo, int cpu_count,
		  enum ca_identity identity)
{
	int ret;

	memset(state, 0, sizeof(*state));
	state->identity = identity;
	state->next_prctl_cookie = 1;
	ret = ca_topology_copy(&state->topo, topo);
	if (cpu_count < topo->cpu_count)
		cpu_count = topo->cpu_count;
	if (!ret && cpu_count)
		ret = ca_grow_zeroed(&state->cpus, cpu_count - 1, &state->cpu_count,
				     sizeof(*state->cpus));
	return ret ? ret : ca_tasks_init(&state->tasks);
}

void ca_state_free(struct ca_state *state)
{
	ca_tasks_free(&state->tasks);
	for (size_t cpu = 0; cpu < state->cpu_count; cpu++) {
		free(state->cpus[cpu].queued);
		ca_coverage_free(&state->cpus[cpu].coverage);
	}
	free(state->cpus);
	state->cpus = NULL;
	state->cpu_count = 0;
	ca_topology_free(&state->topo);
	free(state->checks);
	state->checks = NULL;
}

int ca_state_add_check(struct ca_state *state, struct ca_check *check)
{
	struct ca_check **checks = realloc(state->checks,
					   (state->check_count + 1) * sizeof(*checks));

	if (!checks)
		return -ENOMEM;
	state->checks = checks;
	checks[state->check_count++] = check;
	return check->setup ? check->setup(check, state) : 0;
}

static void state_begin_core(struct ca_state *state, int core, uint64_t ts)
{
	if (core < 0)
		return;
	for (int i = 0; i < state->check_count; i++)
		if (state->checks[i]->advance)
			state->checks[i]->advance(state->checks[i], state, core, ts);
}

static void state_end_core(struct ca_state *state, int core, uint64_t ts, unsigned int changes)
{
	if (core < 0)
		return;
	for (int i = 0; i < state->check_count; i++)
		if (state->checks[i]->update)
			state->checks[i]->update(state->checks[i], state, core, ts, changes);
}

static void state_begin_all(struct ca_state *state, uint64_t ts)
{
	for (int core = 0; core < state->topo.core_count; core++)
		state_begin_core(state, core, ts);
}

static void state_end_all(struct ca_state *state, uint64_t ts)
{
	for (int core = 0; core < state->topo.core_count; core++)
		state_end_core(state, core, ts, CA_CHANGE_IDENTITY);
}

static int core_of(const struct ca_state *state, int cpu)
{
	return ca_topology_core_of(&state->topo, cpu);
}

const struct ca_task *ca_state_cpu_task(const struct ca_state *state, int cpu)
{
	const struct ca_cpu *c = &state->cpus[cpu];

	if (c->run != CA_CPU_TASK)
		return NULL;
	return &state->tasks.items[c->task_index];
}

bool ca_state_core_unobserved(const struct ca_state *state, int core, uint64_t from,
			      uint64_t to, bool has_causes)
{
	uint64_t since = !has_causes ? from : from > CA_CAUSE_HORIZON_NS ?
			 from - CA_CAUSE_HORIZON_NS : 0;

	for (int i = 0; core >= 0 && i < state->topo.sibling_count[core]; i++)
		if (ca_coverage_overlaps(&state->cpus[state->topo.siblings[core][i]].coverage,
					 since, to))
			return true;
	return false;
}

uint64_t ca_state_core_observed_ns(const struct ca_state *state, int core, uint64_t from,
				   uint64_t to)
{
	size_t next[CA_MAX_SIBLINGS];
	int count = core >= 0 ? state->topo.sibling_count[core] : 0;
	uint64_t at = from, unobserved = 0;

	for (int i = 0; i < count; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_cpu_coverage *cov = &state->cpus[cpu].coverage;

		if (cov->has_lost_spans)
			return 0;
		next[i] = ca_coverage_first_after(cov, from);
	}
	for (;;) {	/* the union of the CPUs' stretches, in order of their starts */
		const struct ca_span *first = NULL;
		int which = -1;

		for (int i = 0; i < count; i++) {
			const struct ca_cpu_coverage *cov =
				&state->cpus[state->topo.siblings[core][i]].coverage;

			if (next[i] < cov->span_count && cov->spans[next[i]].from < to &&
			    (!first || cov->spans[next[i]].from < first->from)) {
				first = &cov->spans[next[i]];
				which = i;
			}
		}
		if (!first)
			break;
		next[which]++;
		if (first->to > at && at < to) {
			uint64_t start = first->from > at ? first->from : at;

			unobserved += (first->to < to ? first->to : to) - start;
			at = first->to;
		}
	}
	return to > from ? to - from - (unobserved < to - from ? unobserved : to - from) : 0;
}

bool ca_state_queued_before_gap(const struct ca_state *state, int cpu, int pid)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);
	const struct ca_cpu *c = &state->cpus[cpu];

	return task && c->uncertain_to && task->queued_ts <= c->uncertain_to;
}

bool ca_state_queued_before_any_gap(const struct ca_state *state, int pid)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);

	return task && state->uncertain_to && task->queued_ts <= state->uncertain_to;
}

uint64_t ca_state_core_known_until(const struct ca_state *state, int core, uint64_t start,
				   uint64_t ts)
{
	uint64_t until = ts;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];

		if (c->uncertain_to == ts && c->uncertain_from < until)
			until = c->uncertain_from > start ? c->uncertain_from : start;
	}
	return until;
}

bool ca_state_core_settled(const struct ca_state *state, int core, uint64_t ts)
{
	for (int i = 0; core >= 0 && i < state->topo.sibling_count[core]; i++) {
		const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];

		if (!c->has_events || c->last_ts < ts)
			return false;
	}
	return true;
}

/* Run queues ---------------------------------------------------------------- */

static void queue_remove(struct ca_cpu *cpu, int pid)
{
	for (int i = 0; i < cpu->queued_count; i++) {
		if (cpu->queued[i] != pid)
			continue;
		cpu->queued[i] = cpu->queued[--cpu->queued_count];
		return;
	}
}

static int queue_add(struct ca_cpu *cpu, int pid)
{
	if (cpu->queued_count == cpu->queued_capacity) {
		int capacity = cpu->queued_capacity ? cpu->queued_capacity * 2 : 16;
		int *queued = realloc(cpu->queued, capacity * sizeof(*queued));

		if (!queued)
			return -ENOMEM;
		cpu->queued = queued;
		cpu->queued_capacity = capacity;
	}
	cpu->queued[cpu->queued_count++] = pid;
	return 0;
}

/* Take @task off any queue; the caller says where it goes. */
static void task_leave_queue(struct ca_state *state, struct ca_task *task)
{
	if (task->where == CA_TASK_QUEUED && task->cpu >= 0)
		queue_remove(&state->cpus[task->cpu], task->pid);
}

static int task_set_queued(struct ca_state *state, struct ca_task *task, int cpu)
{
	task_leave_queue(state, task);
	task->where = CA_TASK_QUEUED;
	task->cpu = cpu;
	task->queued_ts = state->last_ts;
	return queue_add(&state->cpus[cpu], task->pid);
}

static void task_set_sleeping(struct ca_state *state, struct ca_task *task)
{
	task_leave_queue(state, task);
	task->where = CA_TASK_SLEEPING;
	task->cpu = -1;
}

static void task_set_running(struct ca_state *state, struct ca_task *task, int cpu)
{
	task_leave_queue(state, task);
	task->where = CA_TASK_RUNNING;
	task->cpu = cpu;
}

/* CPU occupancy -------------------------------------------------------------- */

/* Put @task on @cpu as its current task (NULL: idle). */
static void cpu_put_task(struct ca_state *state, int cpu, struct ca_task *task, uint64_t ts)
{
	struct ca_cpu *c = &state->cpus[cpu];

	c->since = ts;
	c->taken_pid = 0;
	if (!task) {
		c->run = CA_CPU_IDLE;
		c->pid = 0;
		return;
	}
	/* The task was current elsewhere: that CPU's switch out was not seen. */
	if (task->where == CA_TASK_RUNNING && task->cpu != cpu && task->cpu >= 0 &&
	    state->cpus[task->cpu].pid == task->pid) {
		struct ca_cpu *left = &state->cpus[task->cpu];

		left->taken_pid = task->pid;
		left->taken_ts = ts;
		left->is_taken_counted = left->run != CA_CPU_TASK;	/* a gap says why */
		left->run = CA_CPU_UNKNOWN;
	}
	task_set_running(state, task, cpu);
	c->run = CA_CPU_TASK;
	c->pid = task->pid;
	c->task_index = (uint32_t)(task - state->tasks.items);
}

static int cpu_set_current(struct ca_state *state, int cpu, int pid, uint64_t ts)
{
	struct ca_task *task = NULL;

	if (pid > 0) {
		task = ca_tasks_get(&state->tasks, pid);
		if (!task)
			return -ENOMEM;
	}
	cpu_put_task(state, cpu, task, ts);
	return 0;
}

/* A switch the trace does not show: @c unobserved from its last event to @ts. */
static void note_missed_switch(struct ca_state *state, struct ca_cpu *c, uint64_t ts)
{
	/* The tail's IPIs showed the leaving task, not the new one: unknown from the switch. */
	uint64_t from = c->is_in_switch_tail ? c->since : c->last_ts;

	c->missed_switches++;
	c->uncertain_from = from;
	c->uncertain_to = ts;
	state->uncertain_to = ts;
	c->is_in_switch_tail = false;
	ca_coverage_add(&c->coverage, &(struct ca_stretch){
		.from = from, .to = ts, .why = CA_UNOBSERVED_MISSED_SWITCH });
}

/*
 * @c's task was switched in on another CPU, its switch out here not seen: a
 * missed switch, what ran here since @c's last event not known, counted once.
 * An event of that very task came late, out of order: counted too, unless it
 * is its switch out at the very time of the switch in elsewhere (a coarse
 * clock's tie, merged by CPU number); the task stays where it runs now.
 * Return: true when @ev is that task's (the CPU is not given it back).
 */
static bool taken_is_missed(struct ca_state *state, struct ca_cpu *c, const struct ca_event *ev,
			    int current)
{
	bool is_tie = ev->kind == CA_EV_SWITCH && ev->ts == c->taken_ts;

	if (!c->is_taken_counted && !(current == c->taken_pid && is_tie))
		note_missed_switch(state, c, ev->ts);
	c->is_taken_counted = true;
	return current == c->taken_pid;
}

/*
 * Whatever the event, its common_pid is the task current on its CPU (a
 * switch's prev_pid likewise).  That settles a CPU whose state is not known:
 * its first event (the backfill to the trace start on that CPU) or the first
 * event after lost events.  When it contradicts a known state, a switch is
 * missing from the trace: count it, and believe the evidence from here on.
 */
static int settle_current(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_cpu *c = &state->cpus[ev->cpu];
	int current = ev->kind == CA_EV_SWITCH ? ev->sw.prev_pid : ev->pid;
	int core = core_of(state, ev->cpu);
	int believed = c->run == CA_CPU_TASK ? c->pid : 0;
	int ret;

	/* The cookie probe fires inside __schedule: its common_pid is the previous task. */
	if (ev->kind == CA_EV_LOST || ev->kind == CA_EV_COOKIE || current < 0)
		return 0;
	if (c->run != CA_CPU_UNKNOWN && believed == current) {
		c->is_in_switch_tail = false;
		return 0;
	}
	if (c->is_in_switch_tail && current == c->leaving_pid && ev->kind == CA_EV_IPI &&
	    ev->ts - c->since <= CA_SWITCH_TAIL_NS) {
		c->is_tail_event = true;	/* shows the leaving task: confirms nothing */
		return 0;
	}
	if (c->run != CA_CPU_UNKNOWN)
		note_missed_switch(state, c, ev->ts);
	else if (c->taken_pid && taken_is_missed(state, c, ev, current))
		return 0;
	state_begin_core(state, core, ev->ts);
	ret = cpu_set_current(state, ev->cpu, current, ev->ts);
	state_end_core(state, core, ev->ts, CA_CHANGE_RUN | CA_CHANGE_QUEUE);
	return ret;
}

/* Both tasks of a switch, created when new, with two lookups. */
static int switch_tasks(struct ca_state *state, const struct ca_switch *sw,
			struct ca_task **prev, struct ca_task **next)
{
	struct ca_task *task;
	int64_t prev_index = -1;

	if (sw->prev_pid > 0) {
		task = ca_tasks_get(&state->tasks, sw->prev_pid);
		if (!task)
			return -ENOMEM;
		prev_index = task - state->tasks.items;
	}
	*next = NULL;
	if (sw->next_pid > 0) {
		*next = ca_tasks_get(&state->tasks, sw->next_pid);
		if (!*next)
			return -ENOMEM;
	}
	/* The second lookup may have moved the table. */
	*prev = prev_index >= 0 ? &state->tasks.items[prev_index] : NULL;
	return 0;
}

/* Since when @cpu ran @pid, as the state believed; 0 when it believed otherwise. */
static uint64_t ran_since(const struct ca_state *state, int cpu, int pid)
{
	const struct ca_cpu *c = &state->cpus[cpu];

	return c->run == CA_CPU_TASK && c->pid == pid ? c->since : 0;
}

static int apply_switch(struct ca_state *state, const struct ca_event *ev)
{
	const struct ca_switch *sw = &ev->sw;
	struct ca_task *prev, *next;
	int core = core_of(state, ev->cpu);
	int ret = switch_tasks(state, sw, &prev, &next);

	if (ret)
		return ret;
	state_begin_core(state, core, ev->ts);
	if (sw->has_cookies)
		ca_identity_apply_probe(state, sw->prev_pid, sw->prev_cookie,
					sw->next_pid, sw->next_cookie, ran_since(state, ev->cpu,
										 sw->prev_pid),
					ev->ts);
	if (prev) {
		memcpy(prev->comm, sw->prev_comm, CA_COMM_LEN);
		prev->prio = sw->prev_prio;
	}
	/* The switch out of a task switched in elsewhere since, come late: it stays there. */
	if (prev && state->cpus[ev->cpu].taken_pid != sw->prev_pid) {
		if (sw->is_prev_runnable)
			ret = task_set_queued(state, prev, ev->cpu);
		else
			task_set_sleeping(state, prev);
	}
	if (next) {
		memcpy(next->comm, sw->next_comm, CA_COMM_LEN);
		next->prio = sw->next_prio;
	}
	cpu_put_task(state, ev->cpu, next, ev->ts);
	state->cpus[ev->cpu].leaving_pid = sw->prev_pid;
	state->cpus[ev->cpu].is_in_switch_tail = sw->prev_pid != sw->next_pid;
	state_end_core(state, core, ev->ts, CA_CHANGE_RUN | CA_CHANGE_QUEUE |
			  (sw->has_cookies ? CA_CHANGE_IDENTITY : 0));
	return ret;
}

/* Queue @task on @dest, telling the checks of both cores (it may leave one). */
static int requeue(struct ca_state *state, struct ca_task *task, int dest, uint64_t ts)
{
	int from_core = task->where == CA_TASK_QUEUED ? core_of(state, task->cpu) : -1;
	int to_core = core_of(state, dest);
	int ret;

	state_begin_core(state, from_core, ts);
	if (to_core != from_core)
		state_begin_core(state, to_core, ts);
	ret = task_set_queued(state, task, dest);
	state_end_core(state, from_core, ts, CA_CHANGE_QUEUE);
	if (to_core != from_core)
		state_end_core(state, to_core, ts, CA_CHANGE_QUEUE);
	return ret;
}

static int apply_wakeup(struct ca_state *state, const struct ca_event *ev)
{
	const struct ca_wakeup *w = &ev->wakeup;
	struct ca_task *task;

	if (w->pid <= 0)
		return 0;	/* the idle task is never woken: a damaged event */
	task = ca_tasks_get(&state->tasks, w->pid);
	if (!task)
		return -ENOMEM;
	if (w->comm[0])
		ca_copy_comm(task->comm, w->comm, CA_COMM_LEN);
	if (task->where == CA_TASK_RUNNING || w->target_cpu < 0 || w->target_cpu >= CA_CPU_LIMIT)
		return 0;
	if (ca_grow_zeroed(&state->cpus, w->target_cpu, &state->cpu_count, sizeof(*state->cpus)))
		return -ENOMEM;
	if (task->where == CA_TASK_QUEUED && task->cpu == w->target_cpu)
		return 0;	/* already runnable there: nothing changes */
	return requeue(state, task, w->target_cpu, ev->ts);
}

static int apply_migrate(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_task *task = ev->migrate.pid > 0 ?
			       ca_tasks_find(&state->tasks, ev->migrate.pid) : NULL;
	int dest = ev->migrate.dest_cpu;

	/* Only a queued task moves between queues; a waking one is placed by its wakeup. */
	if (!task || task->where != CA_TASK_QUEUED || dest < 0 || dest >= CA_CPU_LIMIT)
		return 0;
	if (ca_grow_zeroed(&state->cpus, dest, &state->cpu_count, sizeof(*state->cpus)))
		return -ENOMEM;
	return requeue(state, task, dest, ev->ts);
}

static int apply_fork(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_task *child, *parent;

	if (ev->fork.child_pid <= 0)
		return 0;	/* no fork makes the idle task: a damaged event */
	if (!ca_tasks_get(&state->tasks, ev->fork.parent_pid))
		return -ENOMEM;
	child = ca_tasks_get(&state->tasks, ev->fork.child_pid);
	if (!child)
		return -ENOMEM;
	parent = ca_tasks_find(&state->tasks, ev->fork.parent_pid);
	ca_copy_comm(child->comm, ev->fork.child_comm, CA_COMM_LEN);
	child->where = CA_TASK_SLEEPING;
	ca_identity_inherit(state, parent, child);
	return 0;
}

static int apply_exec(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_task *task = ca_tasks_get(&state->tasks, ev->task.pid);

	if (!task)
		return -ENOMEM;
	ca_copy_comm(task->comm, ev->task.comm, CA_COMM_LEN);
	return 0;
}

/*
 * What ran on @cpu from @from up to @ts is not known after all: tell the
 * checks, which judge what they had believed there only up to @from.
 */
static void forget_cpu(struct ca_state *state, int cpu, uint64_t from, uint64_t ts)
{
	int core = core_of(state, cpu);
	struct ca_cpu *c;

	if (cpu < 0 || (size_t)cpu >= state->cpu_count)
		return;
	c = &state->cpus[cpu];
	c->uncertain_from = from;
	c->uncertain_to = ts;
	if (ts > state->uncertain_to)
		state->uncertain_to = ts;
	c->is_in_switch_tail = false;	/* whatever left before the gap is not its tail */
	c->is_taken_counted = true;	/* the gap says why */
	if (c->run == CA_CPU_UNKNOWN)
		return;
	state_begin_core(state, core, ts);
	c->run = CA_CPU_UNKNOWN;
	state_end_core(state, core, ts, CA_CHANGE_RUN);
}

/* Where the CPU's silence began: its last event, or the trace's start. */
static uint64_t silent_since(const struct ca_state *state, const struct ca_cpu *c)
{
	return c->has_events ? c->last_ts : state->first_ts;
}

/*
 * A gap in the CPU's stream (events lost, or unreadable data skipped): its
 * state is unknown from its last event before the gap until the first event
 * after it (whose common_pid settles it again).  A stream that ends in
 * unreadable data stays unknown to the end of the trace.
 */
static void apply_lost(struct ca_state *state, const struct ca_event *ev)
{
	const struct ca_lost *lost = &ev->lost;
	struct ca_cpu *c = &state->cpus[ev->cpu];
	struct ca_stretch stretch = { .from = silent_since(state, c), .to = ev->ts,
				      .why = lost->is_damage ? CA_UNOBSERVED_DAMAGE :
							       CA_UNOBSERVED_LOST,
				      .offset = lost->offset, .bytes = lost->bytes };

	if (lost->is_damage) {
		c->damaged_places++;
	} else if (lost->count < 0) {
		c->has_unknown_loss = true;
		c->lost_events++;
	} else {
		c->lost_events += lost->count;
	}
	if (!lost->is_damage && c->has_events && ev->ts > c->last_ts)
		c->lost_ns += ev->ts - c->last_ts;
	if (lost->is_stream_end)
		ca_coverage_end_stream(&c->coverage, ev->ts, lost->offset, lost->bytes);
	else
		ca_coverage_add(&c->coverage, &stretch);
	c->coverage.has_demand = false;		/* the gap accounts for the silence */
	forget_cpu(state, ev->cpu, stretch.from, ev->ts);
}

/* An identity change may touch any core: the checks see it between begin and end. */
static int apply_identity(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_identity_change change;
	int ret = ca_identity_prepare(state, ev, &change);

	if (ret <= 0)
		return ret;
	state_begin_all(state, ev->ts);
	ca_identity_commit(state, &change);
	state_end_all(state, ev->ts);
	return 0;
}

static int apply_event(struct ca_state *state, const struct ca_event *ev)
{
	switch (ev->kind) {
	case CA_EV_SWITCH:
		return apply_switch(state, ev);
	case CA_EV_WAKEUP:
		return apply_wakeup(state, ev);
	case CA_EV_MIGRATE:
		return apply_migrate(state, ev);
	case CA_EV_FORK:
		return apply_fork(state, ev);
	case CA_EV_EXEC:
		return apply_exec(state, ev);
	case CA_EV_PRCTL_ENTER:
		ca_identity_prctl_enter(state, ev);
		return 0;
	case CA_EV_PRCTL_EXIT:
	case CA_EV_MARKER:
	case CA_EV_COOKIE:
		return apply_identity(state, ev);
	case CA_EV_LOST:
		apply_lost(state, ev);
		return 0;
	case CA_EV_EXIT:
	case CA_EV_IDLE:
	case CA_EV_IPI:
	case CA_EV_TICK:
	case CA_EV_KERNEL:
	case CA_EV_KIND_COUNT:
		return 0;
	}
	return 0;
}

static void demand(struct ca_state *state, const struct ca_event *ev, int cpu,
		   enum ca_demand kind)
{
	if (cpu != ev->cpu && core_of(state, cpu) >= 0)
		ca_coverage_demand(&state->cpus[cpu].coverage, kind, ev->ts);
}

/* Events of one CPU aimed at others: each target must answer with events of its own. */
static void note_demands(struct ca_state *state, const struct ca_event *ev)
{
	switch (ev->kind) {
	case CA_EV_IPI:
		demand(state, ev, ev->ipi.target_cpu, CA_DEMAND_IPI);
		break;
	case CA_EV_WAKEUP:
		demand(state, ev, ev->wakeup.target_cpu, CA_DEMAND_WAKEUP);
		break;
	case CA_EV_MIGRATE:
		demand(state, ev, ev->migrate.dest_cpu, CA_DEMAND_MIGRATION);
		break;
	default:
		break;
	}
}

/*
 * Believed running a task, the CPU showed nothing for longer than a running
 * CPU goes without a tick (where the trace records ticks and has shown one),
 * and this event is no tick that a stopped vCPU takes as it resumes: its
 * events in between are missing (a page or lines cut out, data zeroed).
 */
static bool is_quiet_while_running(const struct ca_state *state, const struct ca_cpu *c,
				   const struct ca_event *ev)
{
	return state->has_tick_events && state->ticks && c->has_events && c->run == CA_CPU_TASK &&
	       c->pid > 0 && ev->kind != CA_EV_TICK && ev->ts > c->last_ts + CA_QUIET_NS;
}

/* The CPU's own event ends its silence: was it silent while others needed it, or quiet? */
static void end_silence(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_cpu *c = &state->cpus[ev->cpu];
	uint64_t since = silent_since(state, c);

	if (ca_coverage_own_event(&c->coverage, since, ev->ts, is_quiet_while_running(state, c, ev)))
		forget_cpu(state, ev->cpu, since, ev->ts);
	state->ticks += ev->kind == CA_EV_TICK;
}

/* A switch's tasks and the cookies its probe shows, nothing of the CPU. */
static int learn_switch(struct ca_state *state, const struct ca_event *ev)
{
	const struct ca_switch *sw = &ev->sw;
	struct ca_task *prev, *next;
	int ret = switch_tasks(state, sw, &prev, &next);

	if (ret)
		return ret;
	if (sw->has_cookies)
		ca_identity_apply_probe(state, sw->prev_pid, sw->prev_cookie, sw->next_pid,
					sw->next_cookie, 0, ev->ts);
	if (prev)
		memcpy(prev->comm, sw->prev_comm, CA_COMM_LEN);
	if (next)
		memcpy(next->comm, sw->next_comm, CA_COMM_LEN);
	return 0;
}

int ca_state_learn(struct ca_state *state, const struct ca_event *ev)
{
	switch (ev->kind) {
	case CA_EV_SWITCH:
		return learn_switch(state, ev);
	case CA_EV_FORK:
		return apply_fork(state, ev);
	case CA_EV_EXEC:
		return apply_exec(state, ev);
	case CA_EV_PRCTL_ENTER:
		ca_identity_prctl_enter(state, ev);
		return 0;
	case CA_EV_PRCTL_EXIT:
	case CA_EV_MARKER:
	case CA_EV_COOKIE:
		return apply_identity(state, ev);
	default:
		return 0;	/* what ran, was queued or was lost: not audited */
	}
}

int ca_state_consume(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_cpu *c;
	int ret;

	if (ev->cpu < 0 || ev->cpu >= CA_CPU_LIMIT)
		return -ERANGE;
	if (ca_grow_zeroed(&state->cpus, ev->cpu, &state->cpu_count, sizeof(*state->cpus)))
		return -ENOMEM;
	if (!state->has_events) {
		state->first_ts = ev->ts;
		state->has_events = true;
	}
	if (ev->ts > state->last_ts)
		state->last_ts = ev->ts;
	if (ev->kind != CA_EV_LOST) {
		note_demands(state, ev);
		end_silence(state, ev);
	}
	c = &state->cpus[ev->cpu];
	c->is_tail_event = false;
	if (!c->has_first && ev->kind != CA_EV_LOST && ev->kind != CA_EV_COOKIE) {
		c->has_first = true;
		c->is_first_unknown = c->run == CA_CPU_UNKNOWN;
		c->is_head_covered = c->coverage.unobserved_ns > 0;
		c->first_ts = ev->ts;
		c->first_pid = ev->kind == CA_EV_SWITCH ? ev->sw.prev_pid : ev->pid;
		c->first_kind = ev->kind;
	}
	ret = settle_current(state, ev);
	if (!ret)
		ret = apply_event(state, ev);
	c = &state->cpus[ev->cpu];	/* a wakeup or migration may have moved the table */
	c->has_events = true;
	c->last_ts = ev->ts;
	for (int i = 0; i < state->check_count && !ret; i++)
		if (state->checks[i]->event)
			state->checks[i]->event(state->checks[i], state, ev);
	return ret;
}

int ca_state_finish(struct ca_state *state)
{
	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++) {
		struct ca_cpu *c = &state->cpus[cpu];
		uint64_t from;

		if (core_of(state, cpu) >= 0 &&
		    ca_coverage_finish(&c->coverage, c->has_events, silent_since(state, c),
				       state->last_ts, &from))
			forget_cpu(state, cpu, from, state->last_ts);
		/* Its task went elsewhere, no switch out here to the end (unless a gap said why). */
		if (c->taken_pid && !c->is_taken_counted)
			note_missed_switch(state, c, state->last_ts);
		c->is_taken_counted = true;
	}
	state_begin_all(state, state->last_ts);
	for (int i = 0; i < state->check_count; i++)
		if (state->checks[i]->finish)
			state->checks[i]->finish(state->checks[i], state, state->last_ts);
	return ca_state_check_error(state);
}

int ca_state_check_error(const struct ca_state *state)
{
	for (int i = 0; i < state->check_count; i++)
		if (state->checks[i]->error)
			return state->checks[i]->error;
	return 0;
}

const char *ca_cookie_source_name(enum ca_cookie_source source)
{
	switch (source) {
	case CA_COOKIES_PROBE:
		return "probe";
	case CA_COOKIES_PRCTL:
		return "prctl";
	case CA_COOKIES_MARKERS:
		return "markers";
	case CA_COOKIES_NONE:
		break;
	}
	return "none";
}
