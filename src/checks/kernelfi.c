/*
 * kernelfi.c - forced idle as the kernel charges it, selection by selection.
 *
 * The kernel decides forced idle only in pick_next_task().  Fast path: when
 * nothing was enqueued or dequeued on the core since a sibling's core-wide
 * selection, a CPU takes the pick that selection made for it, and nothing is
 * accounted.  Slow path: an open forced-idle period is charged first; then,
 * unless the core has no cookie, had no forced idle and this CPU's own pick
 * has cookie 0, a new selection: the winner's cookie becomes the core's, each
 * sibling keeps a compatible task, takes a queued task of that cookie, or
 * goes idle.  Idle picks with runnable tasks count as forced idle; non-idle
 * picks are the occupation; the period starts at the selection, so the
 * winner is charged while the kicked sibling still runs.  A charge is the
 * period x count / occupation (when either is above 1), added to each
 * sibling's pick, or its current task once it took it, idle skipped.  Ticks
 * charge what is open so far (not while a sibling left forced idle still runs
 * its task: its switch may show another pick); a CPU whose last queued task
 * migrates away while forced idle reschedules (sched_core_dequeue).
 *
 * From a trace, a slow path is a sched_switch that does not follow a pending
 * pick, and it happened at its pick: the __schedule IPI that kicks a sibling
 * is sent from inside pick_next_task(), tens of us (on a stalled vCPU,
 * milliseconds) before the switch event.  A selection's picks are read off
 * the tasks each sibling runs and has queued (an idle sibling keeps its own
 * best queued task when compatible, cookie 0 included, unless the selection
 * sent it no kick where kicks show), and the winner's cookie off the task the
 * selecting CPU switches to.  A CPU that goes idle with a cookied task queued
 * selected (its own pick had a cookie), whatever the core's cookie was.  A
 * CPU left idle beside a core of cookie 0 with tasks queued had a best task
 * with a cookie (a compatible one it would have kept): until its queue
 * changes (its tasks do not run, so their order holds), later selections of
 * cookie 0 leave it idle too, whatever cookie-0 tasks wait behind that one.
 * A CPU that goes idle at its own selection rules out as the winner's cookie
 * any cookie of a task queued there (one would have been found for it), and
 * cookie 0 when all its queued tasks have cookie 0 (its best would have run).
 * A sibling the selection left forced idle that runs a task instead, nothing
 * enqueued or dequeued since, took the pick the selection made for it (the
 * fast path): its best was that task, and the selection holds it from then.
 * An idle sibling the selection gave a task that enters an idle state
 * instead, nothing enqueued or dequeued since, was not kicked: the selection
 * left it forced idle (its best was not compatible).
 * The core's clock is its leader's (the first sibling): a pick from idle on
 * the leader that a wakeup asked for reads the clock of the last update, not
 * the pick's time, where the trace's softirq events show those updates.
 * A wakeup on an idle CPU selects too, but no switch shows it when a sibling
 * wins: that selection is tentative until the woken task's own switch on
 * that CPU shows it won (the selection it replaced then stands again, from
 * the wakeup on) or anything else happens on the core (it stands).  It
 * happens at the wakeup, or, when the trace has idle events, at the CPU's
 * next idle event or __schedule IPI.  A migration's enqueue is that of a
 * queued task only (a waking task's is its wakeup).
 */
#include <errno.h>
#include <stdlib.h>

#include "state/state.h"
#include "checks/kernelfi.h"

#define CA_SCHED_SOFTIRQ 7	/* SCHED_SOFTIRQ, include/linux/interrupt.h */

_Static_assert(CA_MAX_SIBLINGS <= 8, "struct ca_kfi_cpu's kicked holds a bit per sibling slot");

static uint64_t cookie_of(const struct ca_state *state, int pid)
{
	const struct ca_task *task;

	if (pid <= 0)
		return 0;
	task = ca_tasks_lookup(&state->tasks, pid);
	return task && task->is_cookie_known ? task->cookie : 0;
}

/*
 * The core's leader (rq->core), whose clock is the core's: the first
 * sibling, the lowest CPU, the first of the core to come online.
 */
static int leader_cpu(const struct ca_state *state, int core)
{
	return state->topo.siblings[core][0];
}

static int slot_of(const struct ca_state *state, int core, int cpu)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		if (state->topo.siblings[core][i] == cpu)
			return i;
	return -1;
}

/* The task on a CPU as the state knows it now: 0 idle, -1 unknown. */
static int current_pid(const struct ca_state *state, int cpu)
{
	const struct ca_cpu *c = &state->cpus[cpu];

	if (c->run == CA_CPU_UNKNOWN)
		return -1;
	return c->run == CA_CPU_TASK ? c->pid : 0;
}

/*
 * Charge the open period up to @now to each sibling's pick, or its current
 * task (@switching_pid stands for the state's on the CPU in @switching_slot).
 */
static void charge_period(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			  uint64_t now, int switching_slot, int switching_pid)
{
	struct ca_kfi_selection *sel = &fi->kcores[core].sel;
	uint64_t delta;

	if (!sel->count || now <= sel->start)
		return;
	delta = now - sel->start;
	sel->start = now;
	if (!sel->occupation)
		return;
	if (sel->count > 1 || sel->occupation > 1)
		delta = delta * sel->count / sel->occupation;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int pid;

		if (sel->is_pending[i])
			pid = sel->pick[i];
		else if (i == switching_slot)
			pid = switching_pid;
		else
			pid = current_pid(state, state->topo.siblings[core][i]);
		if (pid > 0)
			fi->charge(fi->charge_ctx, pid, delta);
	}
}

/*
 * A queued task of @cookie on @cpu, or 0.  sched_core_find() looks for
 * non-zero cookies only; an idle sibling's own pick (its best queued task)
 * is kept when compatible, cookie 0 included (@is_own_pick): the trace does
 * not tell which queued task is the best, any compatible one stands for it.
 */
static int queued_of_cookie(const struct ca_state *state, int cpu, uint64_t cookie,
			    bool is_own_pick)
{
	const struct ca_cpu *c = &state->cpus[cpu];

	if (!cookie && !is_own_pick)
		return 0;
	for (int q = 0; q < c->queued_count; q++)
		if (cookie_of(state, c->queued[q]) == cookie)
			return c->queued[q];
	return 0;
}

/*
 * Whether a CPU that went idle at its own selection could have seen @cookie
 * win: a task of a cookie it has queued would have been found for it
 * (sched_core_find()); with cookie 0 its own best must have had a cookie (or
 * one the trace does not know).
 */
static bool could_idle_under(const struct ca_state *state, const struct ca_cpu *own,
			     uint64_t cookie)
{
	bool has_cookied = false;

	for (int q = 0; q < own->queued_count; q++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks, own->queued[q]);

		if (!task || !task->is_cookie_known) {
			has_cookied = true;	/* it may have one: rules nothing out */
			continue;
		}
		if (cookie && task->cookie == cookie)
			return false;
		has_cookied |= task->cookie != 0;
	}
	return cookie || has_cookied || !own->queued_count;
}

/*
 * The core cookie: the cookie of the task the selecting CPU switches to; when
 * it goes idle, a sibling's winner: what it runs, else what it has queued;
 * with nothing on any sibling, its own queued task (a wakeup's selection,
 * which its queue wins; the oldest queued task stands for its best).  When
 * the selecting CPU's switch to idle shows its pick (@is_idle_pick), a cookie
 * under which it could not have gone idle did not win.
 */
static uint64_t winner_cookie(const struct ca_state *state, int core, int slot, int next,
			      bool is_idle_pick)
{
	const struct ca_cpu *own = &state->cpus[state->topo.siblings[core][slot]];

	if (next > 0)
		return cookie_of(state, next);
	for (int pass = is_idle_pick ? 0 : 1; pass < 2; pass++) {
		for (int i = 0; i < state->topo.sibling_count[core]; i++) {
			int pid = i == slot ? 0 : current_pid(state, state->topo.siblings[core][i]);

			if (pid > 0 && (pass || could_idle_under(state, own, cookie_of(state, pid))))
				return cookie_of(state, pid);
		}
		for (int i = 0; i < state->topo.sibling_count[core]; i++) {
			const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];

			for (int q = 0; i != slot && q < c->queued_count; q++)
				if (pass || could_idle_under(state, own, cookie_of(state, c->queued[q])))
					return cookie_of(state, c->queued[q]);
		}
	}
	return own->queued_count ? cookie_of(state, own->queued[0]) : 0;
}

/*
 * Whether the idle CPU @cpu, in slot @i, was left idle by the selection of
 * @selector (the selecting CPU's own events; NULL: not known): a pick of a
 * task for it would have kicked it, and kicks reach it, in the idle state it
 * is in, as IPIs the trace shows, unless one already did (need-resched is
 * set: no second IPI), which nothing since it entered that state says.  The
 * trace does not tell which of its queued tasks was its own best pick; this
 * does, when that pick was not compatible.
 */
static bool is_left_idle(const struct ca_kernelfi *fi, int cpu, int i,
			 const struct ca_kfi_cpu *selector)
{
	const struct ca_kfi_cpu *kc = &fi->kcpus[cpu];
	uint8_t kicked = selector && selector->has_pick_ts ? selector->kicked : 0;

	return selector && kc->idle_state < 32 && (kc->kick_states >> kc->idle_state & 1) &&
	       !kc->is_disturbed && !kc->owes_pick && !(kicked >> i & 1);
}

/*
 * A core-wide selection by the CPU in @slot, which switches to @next; the
 * selecting CPU's own events in @selector (NULL: not a switch).
 */
static void select_core(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			int slot, int next, uint64_t now, const struct ca_kfi_cpu *selector)
{
	struct ca_kfi_core *k = &fi->kcores[core];
	struct ca_kfi_selection *sel = &k->sel;

	sel->cookie = winner_cookie(state, core, slot, next, selector && !next);
	sel->slot = slot;
	sel->count = 0;
	sel->occupation = 0;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		int current = i == slot ? next : current_pid(state, cpu);
		int runnable = state->cpus[cpu].queued_count + (i != slot && current > 0);
		int pick;

		if (current < 0) {		/* unknown: leave it out */
			sel->pick[i] = 0;
			sel->is_pending[i] = false;
			continue;
		}
		if (current > 0 && (i == slot || cookie_of(state, current) == sel->cookie))
			pick = current;
		else if (i != slot && !current && is_left_idle(fi, cpu, i, selector))
			pick = 0;
		else
			pick = queued_of_cookie(state, cpu, sel->cookie, i != slot && !current &&
						!fi->kcpus[cpu].is_best_cookied);
		sel->pick[i] = pick;
		sel->is_pending[i] = pick != current;
		if (pick)
			sel->occupation++;
		else if (runnable)
			sel->count++;
	}
	k->pick_seq = k->task_seq;
	sel->start = now;
}

/*
 * Whether the CPU's own pick (pick_task() on its queue alone) has a cookie:
 * the task it switches to; when it goes idle, a queued task with a cookie
 * stands for it (its own pick was a queued task, ruled out by a selection:
 * with a pick of cookie 0 and no core cookie it would have run it).
 */
static bool own_pick_has_cookie(const struct ca_state *state, int cpu, int next)
{
	const struct ca_cpu *c = &state->cpus[cpu];

	if (next > 0)
		return cookie_of(state, next) != 0;
	for (int q = 0; q < c->queued_count; q++)
		if (cookie_of(state, c->queued[q]))
			return true;
	return false;
}

/*
 * The slow path of pick_next_task() on the CPU in @slot at the core's clock
 * @end_now (an open period charged up to it) and @now (a selection's
 * start); @selector as for select_core().
 */
static void slow_path(struct ca_kernelfi *fi, const struct ca_state *state, int core,
		      int slot, int prev, int next, uint64_t end_now, uint64_t now,
		      const struct ca_kfi_cpu *selector)
{
	struct ca_kfi_selection *sel = &fi->kcores[core].sel;
	bool had_forced_idle = sel->count > 0;
	int cpu = state->topo.siblings[core][slot];

	if (had_forced_idle) {
		charge_period(fi, state, core, end_now, slot, prev);
		now = now > sel->start ? now : sel->start;	/* what was charged stays charged */
	}
	sel->count = 0;
	sel->occupation = 0;
	if (!sel->cookie && !had_forced_idle && !own_pick_has_cookie(state, cpu, next)) {
		/* No selection: the core has no cookie and this pick has none. */
		sel->is_pending[slot] = false;
		sel->pick[slot] = next;
		return;
	}
	if (slot)		/* a sibling's selection updates the leader's clock */
		fi->kcpus[leader_cpu(state, core)].clock_ts = now;
	select_core(fi, state, core, slot, next, now, selector);
}

/* The woken task's switch on the CPU of a tentative selection: it won. */
static void revoke_tentative(struct ca_kfi_core *k)
{
	k->sel = k->before;
	k->pick_seq = k->before_pick_seq;
}

/* A pick the CPU made (its __schedule IPI) since @sel was charged, its switch not shown yet. */
static bool is_pick_in_flight(const struct ca_kfi_cpu *kc, const struct ca_kfi_selection *sel)
{
	return kc->has_pick_ts && kc->pick_ts >= sel->start;
}

/*
 * When the pick behind the switch in @slot happened: a core-wide pick that
 * kicks a sibling sends its IPI from inside pick_next_task(), tens of us
 * before the sched_switch event (p50 37 us, and milliseconds when the
 * hypervisor stalls the vCPU in between); the kernel accounts and selects at
 * the pick.  Without such an IPI, the switch's own time.
 */
static uint64_t pick_time(const struct ca_kfi_cpu *kc, const struct ca_kfi_core *k,
			  uint64_t switch_ts)
{
	return is_pick_in_flight(kc, &k->sel) ? kc->pick_ts : switch_ts;
}

/*
 * The core's clock at a pick at @pick_ts by the CPU in @slot: the core's
 * clock is its leader's (slot 0), which the leader's own __schedule does not
 * update when a wakeup onto it asked to skip that (wakeup_preempt() on an
 * idle leader: RQCF_REQ_SKIP): then it reads the clock of the last update
 * (the wakeup, or a tick or a sibling's selection since).  A sibling's pick
 * updates the leader's clock first.
 */
static uint64_t core_clock(const struct ca_kernelfi *fi, const struct ca_state *state, int core,
			   int slot, uint64_t pick_ts)
{
	const struct ca_kfi_cpu *leader = &fi->kcpus[leader_cpu(state, core)];

	if (slot == 0 && leader->is_clock_kept && leader->clock_ts <= pick_ts)
		return leader->clock_ts;
	return pick_ts;
}

/*
 * The core's clock at the pick behind the switch @ev in @slot (schedlag.c):
 * where an open period ends (*@end_now) and the selection's starts (*@now).
 * A pick from the first sibling's kept clock reads that clock; without
 * softirq events a kept clock is not told from a fresh one (core_clock()),
 * and the first sibling's pick stays at its event (with the lag of a fresh
 * read it would be tens of us earlier, a kept one often more: the reference
 * traces' figures, recorded without softirq events, hold only that way).
 */
static void pick_clock(const struct ca_kernelfi *fi, const struct ca_state *state, int core,
		       int slot, const struct ca_event *ev, uint64_t *end_now, uint64_t *now)
{
	const struct ca_kfi_cpu *kc = &fi->kcpus[ev->cpu];
	uint64_t shown = pick_time(kc, &fi->kcores[core], ev->ts);
	uint64_t clock = core_clock(fi, state, core, slot, shown);
	enum ca_pick_path path = shown != ev->ts ? CA_PICK_KICKED :
				 !ev->sw.prev_pid ? CA_PICK_IDLE_TO_TASK :
				 !ev->sw.next_pid ? CA_PICK_TASK_TO_IDLE : CA_PICK_TASK_TO_TASK;

	if (clock != shown || (slot == 0 && !fi->has_softirq_events)) {
		*end_now = clock;
		*now = clock;
		return;
	}
	ca_schedlag_pick(&fi->kcores[core].lag, slot == 0, path, shown, kc->last_ts, end_now, now);
}

/*
 * An enqueue onto the idle @target (a wakeup or a migration, at @ev) updates
 * its clock and has wakeup_preempt() ask its __schedule to keep it.  The
 * SCHED softirq updates it again (sched_balance_update_blocked_averages()),
 * and the tick raises that softirq whenever a balance is due, often on an
 * idle CPU: in a trace without softirq events a kept clock cannot be told
 * from one updated since, and the pick's own time stands (with its lag behind
 * the pick, the same at both ends of a period; the kept clock at one end only
 * made the reference traces' figures worse: README, Accuracy).
 */
static void note_enqueue_clock(struct ca_kernelfi *fi, const struct ca_state *state, int target,
			       uint64_t now)
{
	struct ca_kfi_cpu *kc = &fi->kcpus[target];

	kc->clock_ts = now;
	if (state->cpus[target].run == CA_CPU_IDLE && fi->has_softirq_events)
		kc->is_clock_kept = true;
}

/* The events that update a CPU's rq clock, and the enqueues that keep it. */
static void note_clock(struct ca_kernelfi *fi, const struct ca_state *state, int core,
		       const struct ca_event *ev)
{
	int target = ev->kind == CA_EV_WAKEUP ? ev->wakeup.target_cpu :
		     ev->kind == CA_EV_MIGRATE ? ev->migrate.dest_cpu : -1;

	if (target >= 0 && (size_t)target < fi->cpu_count)
		note_enqueue_clock(fi, state, target, ev->ts);
	if (ev->kind == CA_EV_KERNEL && ev->kernel.what == CA_KERNEL_SOFTIRQ) {
		fi->has_softirq_events = true;
		if (ev->kernel.number == CA_SCHED_SOFTIRQ && !ev->kernel.is_entry)
			fi->kcpus[ev->cpu].clock_ts = ev->ts;
	}
	if (ev->kind != CA_EV_TICK || core < 0)
		return;
	fi->kcpus[ev->cpu].clock_ts = ev->ts;
	if (fi->kcores[core].sel.count)		/* __sched_core_tick() updates the core's */
		fi->kcpus[leader_cpu(state, core)].clock_ts = ev->ts;
}

/* A __schedule IPI from @ev's CPU: its pick, and the sibling it kicks. */
static void note_kick(struct ca_kernelfi *fi, const struct ca_state *state,
		      const struct ca_event *ev)
{
	struct ca_kfi_cpu *kc = &fi->kcpus[ev->cpu];
	int target = ev->ipi.target_cpu;
	int core = ca_topology_core_of(&state->topo, ev->cpu);
	int slot;

	if (!kc->has_pick_ts) {
		kc->pick_ts = ev->ts;
		kc->has_pick_ts = true;
		kc->kicked = 0;
	}
	if (target < 0 || (size_t)target >= fi->cpu_count || core < 0 ||
	    (slot = slot_of(state, core, target)) < 0)
		return;
	kc->kicked |= 1u << slot;
	if (state->cpus[target].run == CA_CPU_IDLE && fi->kcpus[target].idle_state < 32)
		fi->kcpus[target].kick_states |= 1u << fi->kcpus[target].idle_state;
}

/*
 * A __schedule IPI marks its sender's pick; any other event on the sender
 * (interrupts are off from the pick to the switch) means that __schedule
 * ended without a switch: forget it.
 */
static void note_pick(struct ca_kernelfi *fi, const struct ca_state *state,
		      const struct ca_event *ev)
{
	if (ev->kind == CA_EV_SWITCH || ev->kind == CA_EV_COOKIE)
		return;
	if (ev->kind == CA_EV_IPI && ev->ipi.is_from_schedule) {
		note_kick(fi, state, ev);
		return;
	}
	if (ev->kind != CA_EV_IPI)
		fi->kcpus[ev->cpu].has_pick_ts = false;
}

/*
 * Whether a kick to an idle CPU would show as an IPI now: entering an idle
 * state (power:cpu_idle) clears what disturbed it; an IPI, a wakeup or a
 * migration aimed at it, or any event of its own but an idle event (an
 * interrupt it handles, which may set need-resched itself), disturbs it.
 */
static void note_idle_state(struct ca_kernelfi *fi, const struct ca_event *ev)
{
	int target = ev->kind == CA_EV_IPI ? ev->ipi.target_cpu :
		     ev->kind == CA_EV_WAKEUP ? ev->wakeup.target_cpu :
		     ev->kind == CA_EV_MIGRATE ? ev->migrate.dest_cpu : -1;

	if (target >= 0 && (size_t)target < fi->cpu_count) {
		fi->kcpus[target].is_disturbed = true;
		if (ev->kind == CA_EV_IPI)
			fi->kcpus[target].ipi_ts = ev->ts;
	}
	if (ev->kind != CA_EV_IDLE) {
		fi->kcpus[ev->cpu].is_disturbed = true;
		return;
	}
	fi->has_idle_events = true;
	fi->kcpus[ev->cpu].idle_state = ev->idle.state;
	fi->kcpus[ev->cpu].is_disturbed = false;
}

/*
 * A sibling the selection left forced idle runs a task instead, with nothing
 * enqueued or dequeued on the core since: the kernel's fast path, so the
 * selection picked that task (@next) for it: its best was @next, queued, not
 * the task it ran.  Every non-idle pick has the core's cookie, so @next's
 * cookie won: the selection stands with that pick from its start, when the
 * other siblings' picks agree (nothing was charged since: ticks wait while
 * an idle pick is pending).
 */
static bool select_again(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			 int slot, int next)
{
	struct ca_kfi_selection *sel = &fi->kcores[core].sel;
	uint64_t cookie = cookie_of(state, next);

	if (sel->slot == slot || sel->slot < 0 || !sel->count)
		return false;
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		if (i != slot && sel->pick[i] > 0 && cookie_of(state, sel->pick[i]) != cookie)
			return false;
	sel->cookie = cookie;
	sel->pick[slot] = next;
	sel->count--;
	sel->occupation++;
	fi->kcores[core].tentative_slot = -1;
	return true;
}

/*
 * The pick a selection made for a sibling that had not taken it yet, @slot,
 * as it shows: the sibling switches to @next, not the task the model gave it,
 * with nothing enqueued or dequeued on the core since.  That is the kernel's
 * fast path, so the selection picked @next: the trace does not tell which
 * queued task is a CPU's best (the oldest stood for it, in the winner's cookie
 * too).  Every non-idle pick has the core's cookie, so @next's cookie won,
 * and the other siblings' picks follow from it where what they show agrees:
 * an idle one with nothing of that cookie queued was left idle (forced, with
 * tasks queued), a running one runs a task of that cookie.  The selection
 * stands so from its start.
 */
static bool take_shown_pick(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			    int slot, int next)
{
	struct ca_kfi_core *k = &fi->kcores[core];
	struct ca_kfi_selection shown = k->sel;
	uint64_t cookie = cookie_of(state, next);

	if (shown.slot == slot || shown.slot < 0 || shown.pick[slot] <= 0)
		return false;
	shown.cookie = cookie;
	shown.count = 0;
	shown.occupation = 1;
	shown.pick[slot] = next;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		int current = current_pid(state, cpu);

		if (i == slot)
			continue;
		if (current < 0 || (current > 0 && cookie_of(state, current) != cookie) ||
		    (!current && queued_of_cookie(state, cpu, cookie, true)))
			return false;
		shown.pick[i] = current;
		shown.is_pending[i] = false;
		shown.occupation += current > 0;
		shown.count += !current && state->cpus[cpu].queued_count;
	}
	k->sel = shown;
	k->tentative_slot = -1;
	return true;
}

/*
 * The kernel's fast path: the CPU in @slot has a pick from the last selection
 * and nothing was enqueued or dequeued on the core since, so its switch to
 * @next takes that pick: the model's, or, where the model gave it another
 * one, the selection as the switch shows it (select_again() for an idle pick,
 * take_shown_pick() for a task).  Return: whether it was the fast path.
 */
static bool takes_its_pick(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			   int slot, int next)
{
	struct ca_kfi_core *k = &fi->kcores[core];
	int pick = k->sel.pick[slot];

	if (k->pick_seq != k->task_seq || !k->sel.is_pending[slot])
		return false;
	if (pick != next && (next <= 0 || !(pick ? take_shown_pick(fi, state, core, slot, next) :
					    select_again(fi, state, core, slot, next))))
		return false;
	k->sel.is_pending[slot] = false;
	return true;
}

static void on_switch(struct ca_kernelfi *fi, const struct ca_state *state, int core,
		      const struct ca_event *ev)
{
	struct ca_kfi_core *k = &fi->kcores[core];
	struct ca_kfi_selection *sel = &k->sel;
	struct ca_kfi_cpu *kc = &fi->kcpus[ev->cpu];
	int slot = slot_of(state, core, ev->cpu);
	int prev = ev->sw.prev_pid, next = ev->sw.next_pid;

	if (slot < 0)
		return;
	if (k->tentative_slot == slot && prev == 0 && next > 0)
		revoke_tentative(k);
	if (prev > 0 && !ev->sw.is_prev_runnable)
		k->task_seq++;		/* prev dequeued before the pick */
	if (!takes_its_pick(fi, state, core, slot, next)) {
		uint64_t end_now, now;

		k->tentative_slot = -1;		/* a new selection supersedes it */
		pick_clock(fi, state, core, slot, ev, &end_now, &now);
		slow_path(fi, state, core, slot, prev, next, end_now, now, kc);
	}
	kc->is_clock_kept = false;	/* __schedule updated it, or used what it kept */
	kc->has_pick_ts = false;
	kc->owes_pick = false;
	kc->idle_state = UINT32_MAX;	/* a switch is never inside an idle state */
	kc->is_best_cookied = next == 0 && sel->cookie == 0 && own_pick_has_cookie(state, ev->cpu, 0);
}

/*
 * Whether @pid is queued on @cpu: a migration moved a runnable task from queue
 * to queue; a waking task's is set_task_cpu() alone, and its enqueue is its
 * wakeup.
 */
static bool is_queued_on(const struct ca_state *state, int pid, int cpu)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);

	return task && task->where == CA_TASK_QUEUED && task->cpu == cpu;
}

/* sched_core_dequeue: the last queued task left a forced-idle CPU. */
static void on_dequeue_from(struct ca_kernelfi *fi, const struct ca_state *state, int cpu,
			    uint64_t now)
{
	int core = ca_topology_core_of(&state->topo, cpu);
	struct ca_kfi_core *k;

	if (core < 0)
		return;
	k = &fi->kcores[core];
	k->task_seq++;
	k->tentative_slot = -1;
	fi->kcpus[cpu].is_best_cookied = false;	/* its queue changed */
	if (k->sel.count && state->cpus[cpu].run == CA_CPU_IDLE && !state->cpus[cpu].queued_count)
		slow_path(fi, state, core, slot_of(state, core, cpu), 0, 0, now, now, NULL);
}

/*
 * The schedule an enqueue owes an idle CPU: it selects, and when a sibling's
 * task wins, the CPU stays idle and no sched_switch shows it, so the
 * selection is made here, tentatively.
 */
static void select_tentatively(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			       int cpu, uint64_t now)
{
	struct ca_kfi_core *k = &fi->kcores[core];
	int slot = slot_of(state, core, cpu);

	/* What stands again if the woken task wins: charged up to now. */
	charge_period(fi, state, core, now, -1, 0);
	k->before = k->sel;
	k->before_pick_seq = k->pick_seq;
	slow_path(fi, state, core, slot, 0, 0, now, now, NULL);
	k->tentative_slot = slot;
}

/*
 * An enqueue.  An idle CPU always reschedules, and when a sibling's task wins
 * it stays idle and no sched_switch shows it.  When the trace has idle
 * events, that schedule happened before the CPU's next idle event, switch or
 * __schedule IPI (the host may stall a vCPU for milliseconds between the
 * wakeup, in an interrupt on that CPU, and its schedule; until then its
 * siblings select without it); without them, at the enqueue.
 */
static void on_enqueue_to(struct ca_kernelfi *fi, const struct ca_state *state, int cpu,
			  uint64_t now)
{
	int core = ca_topology_core_of(&state->topo, cpu);
	struct ca_kfi_core *k;

	if (core < 0 || cpu < 0 || (size_t)cpu >= fi->cpu_count)
		return;
	k = &fi->kcores[core];
	k->task_seq++;
	k->tentative_slot = -1;
	fi->kcpus[cpu].is_best_cookied = false;	/* its queue changed */
	if (state->cpus[cpu].run != CA_CPU_IDLE)
		return;
	fi->kcpus[cpu].owes_pick = fi->has_idle_events;
	if (!fi->kcpus[cpu].owes_pick)
		select_tentatively(fi, state, core, cpu, now);
}

/* An idle event or a __schedule IPI of an idle CPU that owes a schedule. */
static void on_owed_pick(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			 const struct ca_event *ev)
{
	struct ca_kfi_cpu *kc = &fi->kcpus[ev->cpu];

	if (!kc->owes_pick)
		return;
	if (ev->kind != CA_EV_IDLE && !(ev->kind == CA_EV_IPI && ev->ipi.is_from_schedule))
		return;
	kc->owes_pick = false;
	if (state->cpus[ev->cpu].run == CA_CPU_IDLE)
		select_tentatively(fi, state, core, ev->cpu,
				   core_clock(fi, state, core, slot_of(state, core, ev->cpu),
					      kc->has_pick_ts ? kc->pick_ts : ev->ts));
}

/*
 * An idle sibling that the selection gave a task enters an idle state
 * instead, nothing enqueued or dequeued on the core since: no kick reached
 * it (a kick sets need-resched, and the idle loop schedules before it enters
 * a state; an IPI sent to it since may be a kick that came as it entered
 * one), so the selection left it idle: its own best was not compatible
 * (beside cookie 0: it had a cookie), and it was forced idle from the
 * selection on.  Nothing was charged meanwhile (no forced idle was open);
 * a selection's picks only (a pick that selected nothing zeroes the counts).
 */
static void on_idle_entry(struct ca_kernelfi *fi, const struct ca_state *state, int core,
			  const struct ca_event *ev)
{
	struct ca_kfi_core *k = &fi->kcores[core];
	struct ca_kfi_selection *sel = &k->sel;
	int slot = slot_of(state, core, ev->cpu);

	if (ev->idle.state == UINT32_MAX || slot < 0 || slot == sel->slot ||
	    !sel->is_pending[slot] || sel->pick[slot] <= 0 || sel->count || sel->occupation < 2 ||
	    k->pick_seq != k->task_seq || state->cpus[ev->cpu].run != CA_CPU_IDLE ||
	    !state->cpus[ev->cpu].queued_count || fi->kcpus[ev->cpu].ipi_ts >= sel->start)
		return;
	sel->pick[slot] = 0;
	sel->is_pending[slot] = false;
	sel->occupation--;
	sel->count++;
	fi->kcpus[ev->cpu].is_best_cookied = !sel->cookie;
}

/*
 * Whether a sibling left forced idle still runs its task, with nothing
 * enqueued since (select_again() may yet undo the forced idle).
 */
static bool has_idle_pick_pending(const struct ca_state *state, const struct ca_kfi_core *k,
				  int core)
{
	if (k->pick_seq != k->task_seq)
		return false;		/* its switch takes the slow path now */
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		if (k->sel.is_pending[i] && !k->sel.pick[i] &&
		    current_pid(state, state->topo.siblings[core][i]) > 0)
			return true;
	return false;
}

/*
 * The CPU's last event but switches (and their cookie probes) and __schedule
 * IPIs, which belong to a pick: no pick's clock read is before it; a switch
 * from idle right after the CPU left an idle state times one pass through
 * __schedule() (schedlag.c), for its core (a core's figures are its own CPUs'
 * events': the same in a trace of that core alone).
 */
static void note_last_event(struct ca_kernelfi *fi, int core, const struct ca_event *ev)
{
	struct ca_kfi_cpu *kc = &fi->kcpus[ev->cpu];

	if (ev->kind == CA_EV_SWITCH) {
		if (core >= 0 && !ev->sw.prev_pid && kc->is_leaving_idle && ev->ts >= kc->last_ts)
			ca_schedlag_note(&fi->kcores[core].lag, kc->last_ts, ev->ts);
		kc->is_leaving_idle = false;
		return;
	}
	if (ev->kind == CA_EV_COOKIE)
		return;
	kc->is_leaving_idle = ev->kind == CA_EV_IDLE && ev->idle.state == UINT32_MAX;
	if (ev->kind != CA_EV_IPI || !ev->ipi.is_from_schedule)
		kc->last_ts = ev->ts;
}

/*
 * How far a tick at @tick_ts charges the selection in force: no further than
 * a sibling's pick in flight (its __schedule IPI seen, its switch not yet),
 * which charged the period and selected again then (a vCPU stalled between
 * the IPI and its switch would otherwise have the stall charged to the old
 * selection's tasks).
 */
static uint64_t charged_until(const struct ca_kernelfi *fi, const struct ca_state *state,
			      int core, uint64_t tick_ts)
{
	const struct ca_kfi_selection *sel = &fi->kcores[core].sel;
	uint64_t until = tick_ts;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		const struct ca_kfi_cpu *kc = &fi->kcpus[state->topo.siblings[core][i]];

		if (is_pick_in_flight(kc, sel) && kc->pick_ts < until)
			until = kc->pick_ts;
	}
	return until;
}

void ca_kernelfi_event(struct ca_kernelfi *fi, const struct ca_state *state,
		       const struct ca_event *ev)
{
	int core = ca_topology_core_of(&state->topo, ev->cpu);

	if (ev->cpu >= 0 && (size_t)ev->cpu < fi->cpu_count) {
		note_last_event(fi, core, ev);
		note_pick(fi, state, ev);
		note_idle_state(fi, ev);
		note_clock(fi, state, core, ev);
		if (core >= 0 && ev->kind == CA_EV_IDLE)
			on_idle_entry(fi, state, core, ev);
		if (core >= 0)
			on_owed_pick(fi, state, core, ev);
	}
	switch (ev->kind) {
	case CA_EV_SWITCH:
		if (core >= 0 && (size_t)ev->cpu < fi->cpu_count)
			on_switch(fi, state, core, ev);
		break;
	case CA_EV_TICK:
		/* A tentative period is charged whole, or not at all. */
		if (core >= 0 && fi->kcores[core].tentative_slot < 0 &&
		    !has_idle_pick_pending(state, &fi->kcores[core], core))
			charge_period(fi, state, core, charged_until(fi, state, core, ev->ts), -1, 0);
		break;
	case CA_EV_WAKEUP:
		on_enqueue_to(fi, state, ev->wakeup.target_cpu, ev->ts);
		break;
	case CA_EV_MIGRATE:
		if (is_queued_on(state, ev->migrate.pid, ev->migrate.dest_cpu)) {
			on_dequeue_from(fi, state, ev->migrate.orig_cpu, ev->ts);
			on_enqueue_to(fi, state, ev->migrate.dest_cpu, ev->ts);
		}
		break;
	default:
		break;
	}
}

struct ca_kernelfi *ca_kernelfi_new(ca_kernelfi_charge_fn charge, void *charge_ctx)
{
	struct ca_kernelfi *fi = calloc(1, sizeof(*fi));

	if (!fi)
		return NULL;
	fi->charge = charge;
	fi->charge_ctx = charge_ctx;
	return fi;
}

int ca_kernelfi_size(struct ca_kernelfi *fi, size_t cpu_count, int core_count)
{
	fi->kcores = calloc(core_count, sizeof(*fi->kcores));
	fi->kcpus = calloc(cpu_count, sizeof(*fi->kcpus));
	if (!fi->kcores || !fi->kcpus)
		return -ENOMEM;
	for (size_t cpu = 0; cpu < cpu_count; cpu++)
		fi->kcpus[cpu].idle_state = UINT32_MAX;
	for (int core = 0; core < core_count; core++) {
		fi->kcores[core].tentative_slot = -1;
		fi->kcores[core].sel.slot = -1;
	}
	fi->cpu_count = cpu_count;
	return 0;
}

void ca_kernelfi_free(struct ca_kernelfi *fi)
{
	if (!fi)
		return;
	free(fi->kcores);
	free(fi->kcpus);
	free(fi);
}
