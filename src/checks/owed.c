/*
 * owed.c - the automaton of the checks that judge an idle CPU beside work
 * the core-wide selection owed it (owed.h draws it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/causes.h"
#include "checks/owed.h"
#include "state/state.h"
#include "util/longest.h"

static struct ca_owed *to_owed(struct ca_check *check)
{
	return (struct ca_owed *)check;
}

/* What each CPU of @core ran up to @ts, into the history (its occupant since the last call). */
static void account_core(struct ca_owed *s, const struct ca_state *state, int core,
			 uint64_t ts)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);

		ca_history_account(&s->history, cpu, task != NULL, task ? task->prio : 0, ts);
	}
}

static void st_advance(struct ca_check *check, const struct ca_state *state, int core,
		       uint64_t ts)
{
	account_core(to_owed(check), state, core, ts);
}

static uint64_t length_of(const void *item)
{
	const struct ca_owed_finding *f = item;

	return f->end_ns - f->start_ns;
}

/*
 * Whether a sibling of Y was told to reschedule since its occupant (a task,
 * or idle) came: a selection changed what it must run, and what the core
 * runs now is not what the kernel chose.
 */
static bool is_core_in_flux(const struct ca_owed *s, const struct ca_state *state,
			    const struct ca_owed_finding *f, uint64_t ts)
{
	for (int i = 0; i < state->topo.sibling_count[f->core]; i++) {
		int cpu = state->topo.siblings[f->core][i];

		if (cpu != f->who.waiting_cpu && (size_t)cpu < s->cpu_count &&
		    state->cpus[cpu].run != CA_CPU_UNKNOWN &&
		    s->last_resched[cpu] > state->cpus[cpu].since &&
		    ts - s->last_resched[cpu] <= CA_TICK_WINDOW_MAX_NS)
			return true;
	}
	return false;
}

/*
 * Whether the stretch ends in the core's transition to another cookie: a
 * sibling of Y told to reschedule, or one running a task of a cookie other
 * than H's (the kernel had chosen another; a CPU that had need-resched set by
 * its own tick takes no IPI, so the trace may show no request).
 */
static bool is_transition(const struct ca_owed *s, const struct ca_state *state,
			  const struct ca_owed_finding *f, uint64_t ts)
{
	if (is_core_in_flux(s, state, f, ts))
		return true;
	for (int i = 0; i < state->topo.sibling_count[f->core]; i++) {
		int cpu = state->topo.siblings[f->core][i];
		const struct ca_task *task = ca_state_cpu_task(state, cpu);
		uint64_t cookie;

		if (cpu != f->who.waiting_cpu && task && ca_state_kernel_cookie(state, task, &cookie) &&
		    cookie != f->who.holder_cookie)
			return true;
	}
	return false;
}

/* A would-be finding, judged once every CPU of its core has shown past its end. */
static void keep_suspect(struct ca_owed *s, const struct ca_owed_finding *f)
{
	if (ca_suspects_add(&s->suspects, f->core, f->end_ns, f))
		s->base.error = -ENOMEM;
}

/* A would-be finding whose core settled: a finding, or unknown over unobserved time. */
static void judge_suspect(void *ctx, const struct ca_state *state, const void *item)
{
	struct ca_owed *s = ctx;
	const struct ca_owed_finding *f = item;

	if (ca_state_core_unobserved(state, f->core, f->start_ns, f->end_ns, false) ||
	    ca_state_queued_before_gap(state, f->who.waiting_cpu, f->who.waiting_pid)) {
		s->unknown_count++;
		return;
	}
	s->finding_count++;
	s->finding_ns += f->end_ns - f->start_ns;
	ca_keep_longest(s->list, &s->listed, CA_OWED_LIST, sizeof(s->list[0]), f, length_of);
}

/*
 * Up to when the state of @core's CPUs is known at @ts: a CPU whose last
 * stretch just turned out unknown (a missed switch, lost events) was known
 * only up to its start.
 */
static uint64_t known_until(const struct ca_state *state, int core, uint64_t ts)
{
	uint64_t end = ts;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];

		if (c->uncertain_to == ts && c->uncertain_from < end)
			end = c->uncertain_from;
	}
	return end;
}

/*
 * The stretch ends at @ts (known up to there): a finding when it outlived
 * max_ns after the decision, unexcused.
 */
static void close_stretch(struct ca_owed *s, struct ca_owed_core *c, uint64_t ts)
{
	uint64_t after = ts > c->now.decided_ns ? ts - c->now.decided_ns : 0;

	if (ts < c->now.start_ns)
		c->phase = CA_OWED_CLEAR;
	if (c->phase == CA_OWED_DECIDED && after > s->longest_ns)
		s->longest_ns = after;
	if (c->phase == CA_OWED_DECIDED && after > s->max_ns) {
		if (c->is_excused) {
			s->excused_count++;
		} else {
			c->now.end_ns = ts;
			keep_suspect(s, &c->now);
		}
	}
	c->phase = CA_OWED_CLEAR;
}

/*
 * The stretch on @core ends at @ts.  In the core's transition to another
 * cookie it is judged up to the first reschedule IPI the kernel sent a
 * sibling after the decision (the kernel was wrong until then), and not at
 * all without one (a tick-set request shows nothing).
 */
static void end_stretch(struct ca_owed *s, const struct ca_state *state, struct ca_owed_core *c,
			int core, uint64_t ts)
{
	uint64_t end = known_until(state, core, ts);

	if (c->phase == CA_OWED_DECIDED && is_transition(s, state, &c->now, ts)) {
		if (!c->first_kick_ns) {
			c->phase = CA_OWED_CLEAR;
			return;
		}
		if (c->first_kick_ns < end)
			end = c->first_kick_ns;
	}
	close_stretch(s, c, end);
}

static void st_update(struct ca_check *check, const struct ca_state *state, int core,
		      uint64_t ts, unsigned int changes)
{
	struct ca_owed *s = to_owed(check);
	struct ca_owed_core *c = &s->cores[core];
	struct ca_owed_finding now;
	bool found;

	(void)changes;
	memset(&now, 0, sizeof(now));
	now.core = core;
	found = s->rule->find(state, core, &now);
	if (c->phase != CA_OWED_CLEAR && found &&
	    now.who.waiting_cpu == c->now.who.waiting_cpu && now.who.waiting_pid == c->now.who.waiting_pid)
		return;		/* the same stretch goes on */
	if (c->phase != CA_OWED_CLEAR)
		end_stretch(s, state, c, core, ts);
	if (!found)
		return;
	c->phase = CA_OWED_WAITING;
	c->is_prompted = false;
	c->first_kick_ns = 0;
	c->now = now;
	c->now.start_ns = ts;
}

/*
 * Whether @ev shows a core-wide selection made with W queued (enqueue and
 * pick hold the core's lock, so a pick traced after W's enqueue saw W): Y
 * switching to idle, or going back to an idle state, after W was queued
 * there; with the rule's leave, a sibling switching to a task with a cookie.
 */
static bool is_decision(const struct ca_owed *s, const struct ca_state *state,
			const struct ca_owed_core *c, const struct ca_event *ev)
{
	const struct ca_task *next;
	uint64_t cookie;

	if (ev->ts < c->now.start_ns)
		return false;
	if (ev->cpu == c->now.who.waiting_cpu)
		return ev->kind == CA_EV_SWITCH ||
		       (ev->kind == CA_EV_IDLE && ev->idle.state != UINT32_MAX &&
			ev->ts > c->now.start_ns && c->is_prompted);
	if (ev->kind != CA_EV_SWITCH || !s->rule->is_decided_by_sibling)
		return false;
	next = ca_state_cpu_task(state, ev->cpu);
	return next && ca_state_kernel_cookie(state, next, &cookie) && cookie;
}

/* The CPU @ev tells to select (a wakeup or migration onto it, a reschedule IPI), or -1. */
static int told_cpu(const struct ca_event *ev)
{
	if (ev->kind == CA_EV_WAKEUP)
		return ev->wakeup.target_cpu;
	if (ev->kind == CA_EV_MIGRATE)
		return ev->migrate.dest_cpu;
	if (ev->kind == CA_EV_IPI && ev->ipi.is_resched)
		return ev->ipi.target_cpu;
	return -1;
}

/*
 * A wakeup onto @cpu, running a task, of a task whose cookie is another (or
 * not known): it may preempt there and win the core-wide selection, and a
 * local wakeup sets need-resched with no IPI (seen: a sibling forced idle for
 * 1.2 ms beside a task of its queued task's cookie, on a correct kernel,
 * while the CPU that had woken an untagged task sat 4.6 ms in a softirq).
 */
static bool is_rival_wakeup(const struct ca_state *state, const struct ca_event *ev, int cpu)
{
	const struct ca_task *running = ca_state_cpu_task(state, cpu), *woken;
	uint64_t cookie, rival;

	if (ev->kind != CA_EV_WAKEUP || !running || running->pid == ev->wakeup.pid)
		return false;
	woken = ca_tasks_lookup(&state->tasks, ev->wakeup.pid);
	return !woken || !ca_state_kernel_cookie(state, running, &cookie) ||
	       !ca_state_kernel_cookie(state, woken, &rival) || rival != cookie;
}

/* What @ev tells the stretch on the core of the CPU it is aimed at. */
static void note_told(struct ca_owed *s, const struct ca_state *state, const struct ca_event *ev)
{
	int cpu = told_cpu(ev), core = ca_topology_core_of(&state->topo, cpu);
	struct ca_owed_core *c;

	if (cpu < 0 || (size_t)cpu >= s->cpu_count || core < 0 || (size_t)core >= s->core_count)
		return;
	if (ev->kind == CA_EV_IPI || is_rival_wakeup(state, ev, cpu))
		s->last_resched[cpu] = ev->ts;
	c = &s->cores[core];
	if (c->phase == CA_OWED_WAITING && cpu == c->now.who.waiting_cpu)
		c->is_prompted = true;
	if (c->phase == CA_OWED_DECIDED && ev->kind == CA_EV_IPI &&
	    cpu != c->now.who.waiting_cpu && !c->first_kick_ns)
		c->first_kick_ns = ev->ts;
}

/*
 * A switch to a task of another cookie than a sibling runs: the selection
 * behind it told that sibling to reschedule, with an IPI unless need-resched
 * was already set (then the trace shows none, and a stalled vCPU may take
 * milliseconds to act on it).
 */
static void note_told_by_switch(struct ca_owed *s, const struct ca_state *state,
				const struct ca_event *ev, int core)
{
	const struct ca_task *next = ca_state_cpu_task(state, ev->cpu), *task;
	uint64_t cookie, other;

	if (!next || !ca_state_kernel_cookie(state, next, &cookie))
		return;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];

		task = ca_state_cpu_task(state, cpu);
		if (cpu != ev->cpu && (size_t)cpu < s->cpu_count && task &&
		    ca_state_kernel_cookie(state, task, &other) && other != cookie)
			s->last_resched[cpu] = ev->ts;
	}
}

static void st_event(struct ca_check *check, const struct ca_state *state,
		     const struct ca_event *ev)
{
	struct ca_owed *s = to_owed(check);
	struct ca_owed_core *c;
	int core = ca_topology_core_of(&state->topo, ev->cpu);

	note_told(s, state, ev);
	if (ev->kind == CA_EV_SWITCH && core >= 0)
		note_told_by_switch(s, state, ev, core);
	if (s->suspects.count && ev->kind != CA_EV_LOST)
		ca_suspects_release(&s->suspects, state, false, judge_suspect, s);
	if (core < 0 || (size_t)core >= s->core_count)
		return;
	c = &s->cores[core];
	if (c->phase == CA_OWED_WAITING && ev->kind == CA_EV_SWITCH)
		c->is_prompted = true;
	if (c->phase != CA_OWED_WAITING || !is_decision(s, state, c, ev) ||
	    is_core_in_flux(s, state, &c->now, ev->ts))
		return;
	account_core(s, state, core, ev->ts);
	c->phase = CA_OWED_DECIDED;
	c->now.decided_ns = ev->ts;
	c->is_excused = s->rule->is_excused &&
			s->rule->is_excused(&s->history, state, &c->now, ev->ts);
}

static void st_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_owed *s = to_owed(check);

	for (size_t core = 0; core < s->core_count; core++)
		if (s->cores[core].phase != CA_OWED_CLEAR)
			close_stretch(s, &s->cores[core], end_ts);
	ca_suspects_release(&s->suspects, state, true, judge_suspect, s);
}

static int st_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_owed *s = to_owed(check);

	s->core_count = (size_t)state->topo.core_count;
	s->cores = calloc(s->core_count ? s->core_count : 1, sizeof(*s->cores));
	s->cpu_count = (size_t)state->topo.cpu_count;
	s->last_resched = calloc(s->cpu_count ? s->cpu_count : 1, sizeof(*s->last_resched));
	if (!s->cores || !s->last_resched)
		return -ENOMEM;
	return ca_history_init(&s->history, (size_t)state->topo.cpu_count);
}

void ca_owed_init(struct ca_owed *s, const struct ca_owed_rule *rule, uint64_t max_ns)
{
	memset(s, 0, sizeof(*s));
	s->base.name = rule->name;
	s->base.setup = st_setup;
	s->base.advance = st_advance;
	s->base.update = st_update;
	s->base.event = st_event;
	s->base.finish = st_finish;
	s->rule = rule;
	s->max_ns = max_ns;
	ca_suspects_init(&s->suspects, sizeof(struct ca_owed_finding));
}

void ca_owed_free(struct ca_owed *s)
{
	free(s->cores);
	free(s->last_resched);
	ca_suspects_free(&s->suspects);
	s->cores = NULL;
	s->last_resched = NULL;
	ca_history_free(&s->history);
}
