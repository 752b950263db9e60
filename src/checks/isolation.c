/*
 * isolation.c - co-run windows: for every pair of siblings of a core, the
 * intervals in which both run non-idle tasks of different identities.
 *
 * Per pair, a segment is open while the same two tasks co-run.  It is
 * classified when it closes, with what is known then: a cookie learned at the
 * end of a segment (the probe reports a backfilled task's cookie when it
 * switches out) applies to the whole segment, since only prctl changes a
 * cookie and a prctl closes the segment first.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "checks/isolation.h"
#include "state/state.h"
#include "checks/pending.h"
#include "util/grow.h"
#include "checks/automata.h"

static const char *const kind_names[CA_WINDOW_KIND_COUNT] = {
	[CA_WINDOW_SKEW] = "skew",
	[CA_WINDOW_VIOLATION] = "violation",
	[CA_WINDOW_UNKNOWN] = "unknown",
};


#define EVIDENCE_BEFORE_NS 1000000ull	/* evidence shown from 1 ms before a window */

const char *ca_window_kind_name(enum ca_window_kind kind)
{
	return (unsigned int)kind < CA_WINDOW_KIND_COUNT ? kind_names[kind] : "?";
}


/* Causes (causes.c) and evidence ------------------------------------------- */

static enum ca_window_cause classify_cause(const struct ca_isolation *iso,
					   const struct ca_leaving *leaving, uint64_t length)
{
	if (!iso->has_causes)
		return CA_CAUSE_UNKNOWN;
	return ca_causes_classify(&iso->causes, leaving, length, iso->grace_ns);
}

/*
 * An IPI to a CPU mask is one event per target: the first, and those on the
 * sender's core, are worth a line; a broadcast would push the rest out.  So
 * would system calls and interrupts (record --kernel-entry): not kept.
 */
static bool is_worth_remembering(const struct ca_state *state, const struct ca_event *ev)
{
	if (ev->kind == CA_EV_KERNEL)
		return false;
	return ev->kind != CA_EV_IPI || ev->ipi.is_first_target ||
	       ca_topology_core_of(&state->topo, ev->ipi.target_cpu) ==
	       ca_topology_core_of(&state->topo, ev->cpu);
}

static void remember_event(struct ca_isolation *iso, const struct ca_event *ev)
{
	struct ca_cpu_recent *r;
	struct ca_trace_line *line;

	if ((size_t)ev->cpu >= iso->cpu_count)
		return;		/* a CPU of no core, beyond those the trace declared */
	r = &iso->recent[ev->cpu];
	line = &r->lines[r->next];

	r->next = (r->next + 1) % CA_RECENT_EVENTS;
	*line = (struct ca_trace_line){ .ts = ev->ts, .cpu = ev->cpu, .kind = ev->kind,
					.pid = ev->pid };
	if (ev->kind == CA_EV_SWITCH) {
		line->a = ev->sw.prev_pid;
		line->b = ev->sw.next_pid;
	} else if (ev->kind == CA_EV_WAKEUP) {
		line->a = ev->wakeup.pid;
		line->b = ev->wakeup.target_cpu;
	} else if (ev->kind == CA_EV_IPI) {
		line->a = ev->ipi.target_cpu;
		line->b = ev->ipi.is_resched;
	}
}

/* What @ev tells the open windows of every core it touches (causes.c). */
static void note_window_events(struct ca_isolation *iso, const struct ca_state *state,
			       const struct ca_event *ev)
{
	int cores[2];
	int core_count = ca_causes_event_cores(&state->topo, ev, cores);

	for (int k = 0; k < core_count; k++) {
		int core = cores[k], count = state->topo.sibling_count[core];

		for (int i = 0; i < count; i++)
			for (int j = i + 1; j < count; j++) {
				struct ca_segment *seg = &iso->segments[core][i][j];

				if (seg->pair == CA_PAIR_TOGETHER)
					ca_causes_note_event(&iso->causes, &seg->leaving,
							     seg->start, ev);
			}
	}
}

static void track_causes(struct ca_isolation *iso, const struct ca_state *state,
			 const struct ca_event *ev)
{
	/* The evidence shown for unexplained windows: only when causes are told. */
	if ((iso->has_causes || iso->has_explain) && ev->kind != CA_EV_IDLE &&
	    ev->kind != CA_EV_LOST && is_worth_remembering(state, ev))
		remember_event(iso, ev);
	if (iso->has_causes && ev->kind != CA_EV_LOST)
		note_window_events(iso, state, ev);
	ca_causes_track(&iso->causes, ev);
}

/* The shortest window's place in a full store, of those not pinned. */
static void find_shortest(struct ca_isolation *iso)
{
	int shortest = -1;

	for (int i = 0; i < CA_EVIDENCE_WINDOWS; i++)
		if (!iso->evidence[i].is_pinned &&
		    (shortest < 0 || iso->evidence[i].length < iso->evidence[shortest].length))
			shortest = i;
	iso->evidence_shortest = shortest;
}

/*
 * The store's place for a window of @length: a free one, else the shortest
 * window's when this one is longer (the report shows the longest first) or
 * is @is_pinned (at --explain's instant); -1: none.
 */
static int evidence_slot(struct ca_isolation *iso, uint64_t length, bool is_pinned)
{
	int slot;

	if (iso->evidence_count < CA_EVIDENCE_WINDOWS)
		slot = iso->evidence_count++;
	else if (iso->evidence_shortest >= 0 &&
		 (is_pinned || length > iso->evidence[iso->evidence_shortest].length))
		slot = iso->evidence_shortest;
	else
		return -1;
	iso->evidence[slot].length = length;
	iso->evidence[slot].is_pinned = is_pinned;
	if (iso->evidence_count == CA_EVIDENCE_WINDOWS)
		find_shortest(iso);
	return slot;
}

/* Whether @window is open at --explain's instant. */
static bool is_at_explain(const struct ca_isolation *iso, const struct ca_window *window)
{
	return iso->has_explain && window->start <= iso->explain_ts &&
	       iso->explain_ts < window->end;
}

static void keep_explained(struct ca_isolation *iso, const struct ca_window *window)
{
	if (iso->explained_count == CA_EXPLAINED_WINDOWS)
		iso->explained_dropped++;
	else
		iso->explained[iso->explained_count++] = *window;
}

const struct ca_evidence *ca_isolation_evidence(const struct ca_isolation *iso,
						const struct ca_window *window)
{
	for (int i = 0; window->evidence >= 0 && i < iso->evidence_count; i++)
		if (iso->evidence[i].serial == window->evidence)
			return &iso->evidence[i];
	return NULL;
}

/* The recent events of both CPUs of an unexplained window, in time order. */
static int keep_evidence(struct ca_isolation *iso, const struct ca_window *window)
{
	struct ca_evidence *e;
	uint64_t from = window->start > EVIDENCE_BEFORE_NS ? window->start - EVIDENCE_BEFORE_NS : 0;
	/* Pinned: the windows --explain shows, no more than it keeps (the rest of the store
	 * stays for the longest). */
	bool is_pinned = is_at_explain(iso, window) && iso->evidence_pinned < CA_EXPLAINED_WINDOWS;
	int slot = evidence_slot(iso, window->end - window->start, is_pinned);

	if (slot < 0)
		return -1;
	iso->evidence_pinned += is_pinned;
	e = &iso->evidence[slot];
	e->serial = iso->evidence_serial;
	iso->evidence_serial = iso->evidence_serial == INT_MAX ? 0 : iso->evidence_serial + 1;
	e->count = 0;
	for (int side = 0; side < 2; side++) {
		const struct ca_cpu_recent *r = &iso->recent[window->cpus[side]];

		for (int i = 0; i < CA_RECENT_EVENTS && e->count < CA_EVIDENCE_LINES; i++) {
			const struct ca_trace_line *line = &r->lines[(r->next + i) %
								     CA_RECENT_EVENTS];

			if (line->ts >= from && line->ts <= window->end && line->ts)
				e->lines[e->count++] = *line;
		}
	}
	for (int i = 1; i < e->count; i++)	/* insertion sort by time */
		for (int j = i; j > 0 && e->lines[j].ts < e->lines[j - 1].ts; j--) {
			struct ca_trace_line t = e->lines[j];

			e->lines[j] = e->lines[j - 1];
			e->lines[j - 1] = t;
		}
	return e->serial;
}

static struct ca_isolation *to_isolation(struct ca_check *check)
{
	return (struct ca_isolation *)check;
}

static void describe_task(const struct ca_state *state, const struct ca_task *task,
			  struct ca_window_task *out)
{
	out->pid = task->pid;
	memcpy(out->comm, task->comm, CA_COMM_LEN);
	out->is_known = ca_state_identity(state, task, &out->identity);
}

/* Still the task the segment saw, with the same known identity (a prctl or a marker ends it). */
static bool is_same_task(const struct ca_state *state, const struct ca_task *task,
			 const struct ca_window_task *seen)
{
	uint64_t value;

	if (!task || task->pid != seen->pid)
		return false;
	if (!seen->is_known)
		return true;
	return ca_state_identity(state, task, &value) && value == seen->identity;
}

/* What is known now about a side unknown when its segment opened. */
static void refine_identity(const struct ca_state *state, struct ca_window_task *seen,
			    bool is_final)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, seen->pid);

	if (!task)
		return;
	if (!seen->comm[0])
		memcpy(seen->comm, task->comm, CA_COMM_LEN);
	if (seen->is_known)
		return;
	if (is_final)
		seen->is_known = ca_state_first_identity(state, task, &seen->identity);
	else
		seen->is_known = ca_state_identity(state, task, &seen->identity);
}

static bool is_same_identity(const struct ca_window *window)
{
	return window->tasks[0].is_known && window->tasks[1].is_known &&
	       window->tasks[0].identity == window->tasks[1].identity;
}

/* @window moves on by @event (window.dot). */
static void step_window(struct ca_isolation *iso, struct ca_window *window,
			enum ca_window_event event)
{
	window->state = ca_window_apply(window->state, event, &iso->invalid_transitions);
}

static int defer_window(struct ca_isolation *iso, const struct ca_window *window)
{
	if (ca_grow(&iso->deferred, iso->deferred_count, &iso->deferred_capacity,
		    sizeof(*iso->deferred)))
		return -ENOMEM;
	iso->deferred[iso->deferred_count] = *window;
	step_window(iso, &iso->deferred[iso->deferred_count++], CA_WIN_ON_DEFER);
	return 0;
}

static int keep_window(struct ca_isolation *iso, const struct ca_window *window)
{
	if (iso->list_count == iso->list_capacity && iso->list_count < iso->list_limit) {
		size_t capacity = iso->list_capacity ? iso->list_capacity * 2 : 64;
		struct ca_window *list;

		if (capacity > iso->list_limit)
			capacity = iso->list_limit;
		list = realloc(iso->list, capacity * sizeof(*list));
		if (!list)
			return -ENOMEM;
		iso->list = list;
		iso->list_capacity = capacity;
	}
	if (iso->list_count < iso->list_capacity) {
		iso->list[iso->list_count++] = *window;
		return 0;
	}
	/*
	 * Full: a violation or unknown window displaces a skew window.  A slot
	 * once displaced never holds skew again, so the scan only moves on.
	 */
	while (window->kind != CA_WINDOW_SKEW && iso->list_skew_scan < iso->list_count) {
		struct ca_window *slot = &iso->list[iso->list_skew_scan++];

		if (slot->kind != CA_WINDOW_SKEW)
			continue;
		*slot = *window;
		break;
	}
	iso->list_dropped++;
	return 0;
}

static struct ca_judging judging_of(const struct ca_isolation *iso)
{
	return (struct ca_judging){ .grace_ns = iso->grace_ns,
				    .max_transition_ns = iso->max_transition_ns,
				    .has_causes = iso->has_causes,
				    .unknown_until_ns = iso->unknown_until_ns,
				    .stall_ns = iso->causes.longest_stall_ns };
}

/* Its kind, by its cause; unknown when who ran or their identities are not known. */
static bool judge_window(const struct ca_isolation *iso, struct ca_window *window)
{
	const struct ca_judging judging = judging_of(iso);

	if (window->is_uncertain || !window->tasks[0].is_known || !window->tasks[1].is_known) {
		window->kind = CA_WINDOW_UNKNOWN;
		window->cause = CA_CAUSE_UNKNOWN;	/* not judged, so no cause either */
		return false;
	}
	switch (ca_causes_judge(&judging, window->cause, window->end - window->start)) {
	case CA_JUDGED_VIOLATION:
		/*
		 * Pending at the trace's end, a CPU of it seen in less than the
		 * grace of it: its stream may have ended first (trace-cmd split
		 * -p), so what it ran then is not proven.
		 */
		if (window->is_unseen_at_end) {
			window->kind = CA_WINDOW_UNKNOWN;
			window->cause = CA_CAUSE_UNKNOWN;
			return false;
		}
		window->kind = CA_WINDOW_VIOLATION;
		break;
	case CA_JUDGED_UNDECIDED:
		window->kind = CA_WINDOW_UNKNOWN;	/* its cause: judged, and unknown */
		break;
	default:
		window->kind = CA_WINDOW_SKEW;
		break;
	}
	return true;
}

static uint64_t earlier(uint64_t mark, uint64_t ts)
{
	return ts < mark ? ts : mark;
}

/*
 * The earliest start of any window of @core not judged yet: in an open
 * segment, pending its CPUs' confirmation, a suspect or deferred.
 */
static uint64_t unjudged_mark(const struct ca_isolation *iso, const struct ca_state *state,
			      int core)
{
	const struct ca_pending *pending = &iso->pending;
	int count = state->topo.sibling_count[core];
	uint64_t mark = UINT64_MAX;

	for (int i = 0; i < count; i++) {
		const struct ca_pending_cpu *p = &pending->cpus[state->topo.siblings[core][i]];

		for (int j = i + 1; j < count; j++)
			if (iso->segments[core][i][j].pair == CA_PAIR_TOGETHER)
				mark = earlier(mark, iso->segments[core][i][j].start);
		for (size_t k = 0; k < p->count; k++)
			mark = earlier(mark, pending->slots[p->ids[k]].window.start);
	}
	for (size_t k = 0; k < pending->confirmed_count; k++)
		if (pending->slots[pending->confirmed[k]].window.core == core)
			mark = earlier(mark, pending->slots[pending->confirmed[k]].window.start);
	for (size_t k = 0; k < iso->suspect_count; k++)
		if (iso->suspects[k].core == core)
			mark = earlier(mark, iso->suspects[k].start);
	for (size_t k = 0; k < iso->deferred_count; k++)
		if (iso->deferred[k].core == core)
			mark = earlier(mark, iso->deferred[k].start);
	return mark;
}

/* A judged window into its core's co-run time (cores of 3 CPUs or more: corun.h). */
static int add_corun(struct ca_isolation *iso, const struct ca_state *state,
		     const struct ca_window *window)
{
	struct ca_corun *corun = &iso->per_core_corun[window->core];

	if (state->topo.sibling_count[window->core] < 3)
		return 0;	/* one pair: the sum of its windows is the union */
	if (ca_corun_add(corun, window->start, window->end))
		return -ENOMEM;
	iso->is_corun_due |= ca_corun_wants_mark(corun);
	return 0;
}

/*
 * Spans are let go between events only: then every window not judged yet is
 * open, pending, a suspect or deferred, and unjudged_mark() sees it (not so
 * while a batch that one event confirmed is being judged).
 */
static void settle_corun(struct ca_isolation *iso, const struct ca_state *state)
{
	if (!iso->is_corun_due)
		return;
	iso->is_corun_due = false;
	for (int core = 0; core < iso->core_count; core++)
		if (state->topo.sibling_count[core] >= 3 &&
		    ca_corun_wants_mark(&iso->per_core_corun[core]))
			ca_corun_settle(&iso->per_core_corun[core],
					unjudged_mark(iso, state, core));
}

/* Each core's co-run time counted once. */
static void sum_corun(struct ca_isolation *iso, const struct ca_state *state)
{
	for (int core = 0; core < iso->core_count; core++) {
		iso->per_core_corun_ns[core] = state->topo.sibling_count[core] < 3 ?
					       iso->per_core_all[core].total :
					       ca_corun_total(&iso->per_core_corun[core]);
		iso->corun_upper_bounds += iso->per_core_corun[core].is_upper_bound;
	}
}

static void record_window(struct ca_isolation *iso, const struct ca_state *state,
			  struct ca_window *window)
{
	uint64_t length = window->end - window->start;
	bool is_judged = judge_window(iso, window);
	int ret;

	step_window(iso, window, CA_WIN_ON_JUDGE);
	if (is_at_explain(iso, window))
		keep_explained(iso, window);
	if (is_judged && ca_durations_add(&iso->by_cause[window->cause], length))
		iso->base.error = -ENOMEM;
	if (is_judged && window->kind == CA_WINDOW_UNKNOWN &&
	    ca_durations_add(&iso->undecided, length))
		iso->base.error = -ENOMEM;
	if (window->kind == CA_WINDOW_VIOLATION)
		iso->per_core_violations[window->core]++;
	ret = ca_durations_add(&iso->by_kind[window->kind], length);
	if (!ret)
		ret = ca_durations_add(&iso->all, length);
	if (!ret)
		ret = ca_durations_add(&iso->per_core_all[window->core], length);
	if (!ret)
		ret = keep_window(iso, window);
	if (!ret)
		ret = add_corun(iso, state, window);
	if (ret)
		iso->base.error = ret;
}

static bool is_violation(const struct ca_isolation *iso, const struct ca_window *window)
{
	const struct ca_judging judging = judging_of(iso);

	return !window->is_uncertain && window->tasks[0].is_known && window->tasks[1].is_known &&
	       ca_causes_judge(&judging, window->cause, window->end - window->start) ==
	       CA_JUDGED_VIOLATION;
}

/* Windows that would be violations, until every CPU of their core has shown past them. */
static int keep_suspect(struct ca_isolation *iso, const struct ca_window *window)
{
	if (ca_grow(&iso->suspects, iso->suspect_count, &iso->suspect_capacity,
		    sizeof(*iso->suspects)))
		return -ENOMEM;
	iso->suspects[iso->suspect_count] = *window;
	step_window(iso, &iso->suspects[iso->suspect_count++], CA_WIN_ON_SUSPECT);
	return 0;
}

/*
 * Whether a task of @window had its cookie changed at an instant the trace
 * does not show, within the window: a prctl in flight (@is_run_change
 * false), or a running task whose switch-out probe showed a cookie other
 * than its switch-in's (true: learned after the window closed, before it is
 * judged).  Which cookie held is unknown.
 */
static bool is_cookie_changing(const struct ca_state *state, const struct ca_window *window,
			       bool is_run_change)
{
	for (int i = 0; i < 2; i++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks, window->tasks[i].pid);
		uint64_t from, to;

		if (!task)
			continue;
		from = is_run_change ? task->run_change_from : task->cookie_change_from;
		to = is_run_change ? task->run_change_to : task->cookie_change_to;
		if (to && to >= window->start && from < window->end)
			return true;
	}
	return false;
}

/*
 * Whether the cookies @window was judged by are proven: with cookies from
 * the probe, a task's cookie is shown only at its switches, and one set
 * while it ran shows at its switch-out; a would-be violation waits for each
 * side's run to end (or the trace's).
 */
static bool is_identity_settled(const struct ca_state *state, const struct ca_window *window)
{
	if (state->identity == CA_IDENTITY_TAG || state->cookie_source != CA_COOKIES_PROBE)
		return true;
	for (int i = 0; i < 2; i++) {
		const struct ca_cpu *c = &state->cpus[window->cpus[i]];

		if (c->run == CA_CPU_TASK && c->pid == window->tasks[i].pid &&
		    c->since <= window->start)
			return false;
	}
	return true;
}

/*
 * A would-be violation whose core had a CPU unobserved around it may have
 * lost its cause with that CPU's events: it is unknown, not a violation.
 * That is known once every CPU of the core has shown an event after it.
 */
static void judge_suspect(struct ca_isolation *iso, const struct ca_state *state,
			  struct ca_window *window)
{
	if (ca_state_core_unobserved(state, window->core, window->start, window->end,
				     iso->has_causes))
		window->is_uncertain = true;
	/* A violation of cookies only if they held: a change while a task ran leaves it unproven. */
	if (state->identity != CA_IDENTITY_TAG && is_cookie_changing(state, window, true))
		window->is_uncertain = true;
	record_window(iso, state, window);
}

/* The suspects whose cores have shown past them (all of them when the trace ended). */
static void release_suspects(struct ca_isolation *iso, const struct ca_state *state,
			     bool is_final)
{
	size_t kept = 0;

	for (size_t i = 0; i < iso->suspect_count; i++) {
		struct ca_window *window = &iso->suspects[i];

		if (is_final || (ca_state_core_settled(state, window->core, window->end) &&
				 is_identity_settled(state, window)))
			judge_suspect(iso, state, window);
		else
			iso->suspects[kept++] = *window;
	}
	iso->suspect_count = kept;
}

/*
 * A confirmed window: classify it now; at the end when a side is unknown;
 * once its core has shown past it when it would be a violation.
 */
static void finalize_window(struct ca_isolation *iso, const struct ca_state *state,
			    const struct ca_window *window)
{
	struct ca_window copy = *window;

	if (!window->is_uncertain && (!window->tasks[0].is_known || !window->tasks[1].is_known) &&
	    iso->deferred_count < iso->list_limit) {
		if (defer_window(iso, window))
			iso->base.error = -ENOMEM;
		return;
	}
	if (!is_violation(iso, window))
		record_window(iso, state, &copy);
	else if (ca_state_core_settled(state, window->core, window->end) &&
		 is_identity_settled(state, window))
		judge_suspect(iso, state, &copy);
	else if (keep_suspect(iso, window))
		iso->base.error = -ENOMEM;
}

/* Finalize, as they closed, the windows both of whose CPUs confirmed them. */
static void release_confirmed(struct ca_isolation *iso, const struct ca_state *state)
{
	uint32_t *ids;
	size_t count = ca_pending_take(&iso->pending, &ids);

	for (size_t i = 0; i < count; i++) {
		finalize_window(iso, state, &ca_pending_get(&iso->pending, ids[i])->window);
		ca_pending_remove(&iso->pending, ids[i]);
	}
}

/*
 * The part of pending window @id after @from, which a contradiction on one of
 * its CPUs made unknown, as a window of its own: pending like it.
 * Return: the new window's id, or -ENOMEM.
 */
static long split_uncertain(struct ca_isolation *iso, uint32_t id, uint64_t from)
{
	struct ca_pending_window *p = ca_pending_get(&iso->pending, id);
	struct ca_window tail = p->window;
	bool is_confirmed[2] = { p->is_confirmed[0], p->is_confirmed[1] };

	tail.start = from;
	tail.is_uncertain = true;
	p->window.end = from;
	step_window(iso, &p->window, CA_WIN_ON_SPLIT);
	return ca_pending_add(&iso->pending, &tail, is_confirmed);
}

/*
 * An event on @cpu.  Consistent with what we believed: it confirms every
 * pending window of that CPU that ended by now.  A contradiction: what ran
 * there after its last consistent event is unknown, so the part of each
 * pending window after that instant becomes an uncertain window.  Only the
 * windows waiting on @cpu are looked at (struct ca_pending).
 */
static void confirm_cpu(struct ca_isolation *iso, const struct ca_state *state, int cpu,
			uint64_t ts, bool is_final)
{
	const struct ca_cpu *c = &state->cpus[cpu];
	bool is_contradiction = c->uncertain_to == ts && c->uncertain_from < ts;
	struct ca_pending_cpu *waiting = (size_t)cpu < iso->pending.cpu_count ?
					 &iso->pending.cpus[cpu] : NULL;
	size_t kept = 0, count = waiting ? waiting->count : 0;

	for (size_t i = 0; i < count; i++) {
		uint32_t id = waiting->ids[i];
		struct ca_pending_window *p = ca_pending_get(&iso->pending, id);
		struct ca_window *w = &p->window;
		int side = w->cpus[0] == cpu ? 0 : 1;
		long tail;

		if (w->end > ts) {
			waiting->ids[kept++] = id;
			continue;
		}
		p->is_confirmed[side] = true;
		step_window(iso, w, CA_WIN_ON_SIDE_SEEN);
		if (p->is_confirmed[!side] && ca_pending_confirmed(&iso->pending, id))
			iso->base.error = -ENOMEM;
		/* A window the contradicting event closed was split when it closed. */
		if (!is_contradiction || (w->end == ts && !is_final) || w->end <= c->uncertain_from ||
		    w->is_uncertain)
			continue;
		if (w->start >= c->uncertain_from) {
			w->is_uncertain = true;
			continue;
		}
		tail = split_uncertain(iso, id, c->uncertain_from);
		if (tail < 0 || (ca_pending_get(&iso->pending, (uint32_t)tail)->is_confirmed[!side] &&
				 ca_pending_confirmed(&iso->pending, (uint32_t)tail)))
			iso->base.error = -ENOMEM;
	}
	if (waiting)
		waiting->count = kept;
	release_confirmed(iso, state);
}

/*
 * Whether what a pending window's unconfirmed CPUs last showed proves less
 * than the grace of it: a CPU whose stream ended first (trace-cmd split -p
 * cuts each CPU's pages apart) may have left soon after its last event.
 */
static bool is_unseen_at_end(const struct ca_isolation *iso, const struct ca_state *state,
			     const struct ca_pending_window *p)
{
	uint64_t seen = UINT64_MAX;

	for (int side = 0; side < 2; side++)
		if (!p->is_confirmed[side] && state->cpus[p->window.cpus[side]].last_ts < seen)
			seen = state->cpus[p->window.cpus[side]].last_ts;
	return seen < p->window.start + iso->grace_ns;
}

/*
 * The trace ended: every window still pending is judged, as they closed; one
 * whose unconfirmed CPU's last event proves less than the grace of it is
 * not judged a violation (is_unseen_at_end).
 */
static void finalize_pending(struct ca_isolation *iso, const struct ca_state *state)
{
	uint32_t *ids;
	long count = ca_pending_all(&iso->pending, &ids);

	if (count < 0) {
		iso->base.error = -ENOMEM;
		return;
	}
	for (long i = 0; i < count; i++) {
		struct ca_pending_window *p = ca_pending_get(&iso->pending, ids[i]);

		p->window.is_unseen_at_end = is_unseen_at_end(iso, state, p);
		finalize_window(iso, state, &p->window);
		ca_pending_remove(&iso->pending, ids[i]);
	}
	free(ids);
}

static void isolation_event(struct ca_check *check, const struct ca_state *state,
			    const struct ca_event *ev)
{
	struct ca_isolation *iso = to_isolation(check);

	track_causes(iso, state, ev);
	if (iso->suspect_count && ev->kind != CA_EV_LOST)
		release_suspects(iso, state, false);
	if (ev->kind != CA_EV_LOST && iso->pending.count && !state->cpus[ev->cpu].is_tail_event)
		confirm_cpu(iso, state, ev->cpu, ev->ts, false);
	settle_corun(iso, state);
}

static void close_segment(struct ca_isolation *iso, const struct ca_state *state,
			  struct ca_segment *seg, int core, int cpu_a, int cpu_b,
			  uint64_t ts, bool is_end, bool is_uncertain)
{
	struct ca_window window = {
		.core = core, .cpus = { cpu_a, cpu_b }, .start = seg->start, .end = ts,
		.is_open_at_end = is_end, .is_uncertain = is_uncertain,
		.leaving_cpu = seg->leaving.cpu, .evidence = -1, .state = CA_WIN_OPEN,
	};

	/* The leaving CPU's silence up to now, if it is one. */
	ca_causes_add_stalled(&iso->causes, &seg->leaving, seg->start, ts);
	window.cause = classify_cause(iso, &seg->leaving, ts > seg->start ? ts - seg->start : 0);
	if (ts <= seg->start) {
		step_window(iso, &window, CA_WIN_ON_DISCARD);
		return;
	}
	for (int i = 0; i < 2; i++) {
		refine_identity(state, &seg->tasks[i], false);
		window.tasks[i] = seg->tasks[i];
		/* A prctl in flight during the window: which cookie held is unknown. */
		if (ca_state_cookie_in_flight(state, seg->tasks[i].pid))
			window.is_uncertain = true;
	}
	if (is_cookie_changing(state, &window, false))
		window.is_uncertain = true;
	if (is_same_identity(&window)) {
		step_window(iso, &window, CA_WIN_ON_DISCARD);
		return;
	}
	step_window(iso, &window, CA_WIN_ON_END);
	/* Declared apart, one kernel cookie: the kernel never kept them apart. */
	if (state->identity == CA_IDENTITY_TAG && ca_causes_is_same_cookie(&seg->leaving, state))
		window.cause = CA_CAUSE_SAME_COOKIE;
	if (window.cause == CA_CAUSE_UNEXPLAINED || is_at_explain(iso, &window))
		window.evidence = keep_evidence(iso, &window);
	if (ca_pending_add(&iso->pending, &window, (bool[2]){ false, false }) < 0)
		iso->base.error = -ENOMEM;
}

/*
 * When one of the pair's CPUs just contradicted what we believed ran there,
 * the segment is known only up to that CPU's last consistent event: close the
 * known part there, and record the rest as uncertain.
 */
static void close_contradicted(struct ca_isolation *iso, const struct ca_state *state,
			       struct ca_segment *seg, int core, int cpu_a, int cpu_b, uint64_t ts)
{
	uint64_t from = ts;

	for (int i = 0; i < 2; i++) {
		const struct ca_cpu *c = &state->cpus[i ? cpu_b : cpu_a];

		if (c->uncertain_to == ts && c->uncertain_from < from)
			from = c->uncertain_from;
	}
	if (from >= ts || from <= seg->start) {
		close_segment(iso, state, seg, core, cpu_a, cpu_b, ts, false, from < ts);
		return;
	}
	close_segment(iso, state, seg, core, cpu_a, cpu_b, from, false, false);
	seg->start = from;
	close_segment(iso, state, seg, core, cpu_a, cpu_b, ts, false, true);
}

/* What the pair's two CPUs now show, for the pair automaton (pair.dot). */
static enum ca_pair_event pair_event(const struct ca_state *state, const struct ca_segment *seg,
				     const struct ca_task *a, const struct ca_task *b)
{
	uint64_t identity_a, identity_b;

	if (seg->pair == CA_PAIR_TOGETHER && is_same_task(state, a, &seg->tasks[0]) &&
	    is_same_task(state, b, &seg->tasks[1]))
		return CA_PAIR_NOW_SAME;
	if (!a || !b)
		return CA_PAIR_NOW_APART;
	/*
	 * Known and equal identities make no window, and only a change of
	 * identity (which re-evaluates every core) could make one.
	 */
	if (ca_state_identity(state, a, &identity_a) && ca_state_identity(state, b, &identity_b) &&
	    identity_a == identity_b)
		return CA_PAIR_NOW_APART;
	return CA_PAIR_NOW_OTHER;
}

static void open_segment(struct ca_isolation *iso, const struct ca_state *state,
			 struct ca_segment *seg, int cpu_a, int cpu_b, uint64_t ts)
{
	seg->start = ts;
	seg->leaving = ca_causes_capture(&iso->causes, state, cpu_a, cpu_b);
	describe_task(state, ca_state_cpu_task(state, cpu_a), &seg->tasks[0]);
	describe_task(state, ca_state_cpu_task(state, cpu_b), &seg->tasks[1]);
}

static void update_pair(struct ca_isolation *iso, const struct ca_state *state, int core,
			int i, int j, uint64_t ts)
{
	struct ca_segment *seg = &iso->segments[core][i][j];
	int cpu_a = state->topo.siblings[core][i];
	int cpu_b = state->topo.siblings[core][j];
	enum ca_pair_event event = pair_event(state, seg, ca_state_cpu_task(state, cpu_a),
					      ca_state_cpu_task(state, cpu_b));
	unsigned int actions;

	seg->pair = ca_pair_apply(seg->pair, event, &actions, &iso->invalid_transitions);
	if (actions & CA_PAIR_CLOSE)
		close_contradicted(iso, state, seg, core, cpu_a, cpu_b, ts);
	if (actions & CA_PAIR_OPEN)
		open_segment(iso, state, seg, cpu_a, cpu_b, ts);
}

static void isolation_update(struct ca_check *check, const struct ca_state *state, int core,
			     uint64_t ts, unsigned int changes)
{
	struct ca_isolation *iso = to_isolation(check);
	int count = state->topo.sibling_count[core];

	if (!(changes & (CA_CHANGE_RUN | CA_CHANGE_IDENTITY)))
		return;		/* windows depend on who runs, not on who waits */

	for (int i = 0; i < count; i++)
		for (int j = i + 1; j < count; j++)
			update_pair(iso, state, core, i, j, ts);
}

static void isolation_finish(struct ca_check *check, const struct ca_state *state,
			     uint64_t end_ts)
{
	struct ca_isolation *iso = to_isolation(check);

	for (int core = 0; core < state->topo.core_count; core++) {
		int count = state->topo.sibling_count[core];

		for (int i = 0; i < count; i++) {
			for (int j = i + 1; j < count; j++) {
				struct ca_segment *seg = &iso->segments[core][i][j];
				unsigned int actions;

				/* The trace's end parts every pair. */
				seg->pair = ca_pair_apply(seg->pair, CA_PAIR_NOW_APART, &actions,
							  &iso->invalid_transitions);
				if (actions & CA_PAIR_CLOSE)
					close_segment(iso, state, seg, core,
						      state->topo.siblings[core][i],
						      state->topo.siblings[core][j], end_ts, true,
						      false);
			}
		}
	}
	/* A CPU unobserved at the end answers its pending windows with that. */
	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++)
		if (state->cpus[cpu].uncertain_to == end_ts && iso->pending.count)
			confirm_cpu(iso, state, cpu, end_ts, true);
	finalize_pending(iso, state);
	release_suspects(iso, state, true);
	for (size_t i = 0; i < iso->deferred_count; i++) {
		struct ca_window *window = &iso->deferred[i];

		refine_identity(state, &window->tasks[0], true);
		refine_identity(state, &window->tasks[1], true);
		if (is_same_identity(window))
			step_window(iso, window, CA_WIN_ON_DISCARD);
		else
			judge_suspect(iso, state, window);
	}
	for (size_t i = 0; i < iso->list_count; i++) {
		refine_identity(state, &iso->list[i].tasks[0], true);
		refine_identity(state, &iso->list[i].tasks[1], true);
	}
	for (int i = 0; i < iso->explained_count; i++) {
		refine_identity(state, &iso->explained[i].tasks[0], true);
		refine_identity(state, &iso->explained[i].tasks[1], true);
	}
	for (int kind = 0; kind < CA_WINDOW_KIND_COUNT; kind++)
		iso->summary[kind] = ca_durations_summary(&iso->by_kind[kind]);
	for (int cause = 0; cause < CA_CAUSE_COUNT; cause++)
		iso->cause_summary[cause] = ca_durations_summary(&iso->by_cause[cause]);
	iso->summary_all = ca_durations_summary(&iso->all);
	sum_corun(iso, state);
	iso->undecided_summary = ca_durations_summary(&iso->undecided);
}

/* Tables per CPU and per core, as many as the state has. */
static int isolation_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_isolation *iso = to_isolation(check);
	size_t cores = state->topo.core_count;

	iso->cpu_count = state->cpu_count;
	iso->core_count = (int)cores;
	iso->recent = calloc(iso->cpu_count, sizeof(*iso->recent));
	iso->segments = calloc(cores, sizeof(*iso->segments));
	iso->per_core_all = calloc(cores, sizeof(*iso->per_core_all));
	iso->per_core_violations = calloc(cores, sizeof(*iso->per_core_violations));
	iso->per_core_corun = calloc(cores, sizeof(*iso->per_core_corun));
	iso->per_core_corun_ns = calloc(cores, sizeof(*iso->per_core_corun_ns));
	if (!iso->recent || !iso->segments || !iso->per_core_all || !iso->per_core_violations ||
	    !iso->per_core_corun || !iso->per_core_corun_ns ||
	    ca_pending_size(&iso->pending, iso->cpu_count))
		return -ENOMEM;
	return ca_causes_size(&iso->causes, iso->cpu_count);
}

void ca_isolation_init(struct ca_isolation *iso, uint64_t grace_ns, size_t list_limit)
{
	memset(iso, 0, sizeof(*iso));
	iso->base.name = "isolation";
	iso->base.setup = isolation_setup;
	iso->base.update = isolation_update;
	iso->base.finish = isolation_finish;
	iso->base.event = isolation_event;
	iso->grace_ns = grace_ns;
	iso->list_limit = list_limit;
}

void ca_isolation_explain(struct ca_isolation *iso, uint64_t ts)
{
	iso->has_explain = true;
	iso->explain_ts = ts;
}

void ca_isolation_use_causes(struct ca_isolation *iso, uint64_t max_transition_ns,
			     struct ca_cause_events events)
{
	iso->has_causes = true;
	iso->max_transition_ns = max_transition_ns;
	ca_causes_init(&iso->causes, events);
}

void ca_isolation_free(struct ca_isolation *iso)
{
	for (int kind = 0; kind < CA_WINDOW_KIND_COUNT; kind++)
		ca_durations_free(&iso->by_kind[kind]);
	for (int cause = 0; cause < CA_CAUSE_COUNT; cause++)
		ca_durations_free(&iso->by_cause[cause]);
	ca_durations_free(&iso->all);
	ca_durations_free(&iso->undecided);
	for (int core = 0; iso->per_core_all && core < iso->core_count; core++)
		ca_durations_free(&iso->per_core_all[core]);
	free(iso->per_core_all);
	for (int core = 0; iso->per_core_corun && core < iso->core_count; core++)
		ca_corun_free(&iso->per_core_corun[core]);
	free(iso->per_core_corun);
	iso->per_core_corun = NULL;
	free(iso->per_core_corun_ns);
	iso->per_core_corun_ns = NULL;
	free(iso->per_core_violations);
	free(iso->segments);
	free(iso->recent);
	ca_causes_free(&iso->causes);
	iso->per_core_all = NULL;
	iso->per_core_violations = NULL;
	iso->segments = NULL;
	iso->recent = NULL;
	free(iso->list);
	free(iso->deferred);
	ca_pending_free(&iso->pending);
	free(iso->suspects);
	iso->suspects = NULL;
	iso->deferred = NULL;
	iso->list = NULL;
	iso->list_count = 0;
}
