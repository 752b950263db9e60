/*
 * policy.c - the relations of a rule file, held against the state.
 *
 * Tags are computed per task from its comm, pid, tgid, priority class,
 * kernel cookie and marker tag, and recomputed only when one of those
 * changes.  A task carries every tag whose rule matches it.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "checks/policy.h"
#include "state/state.h"
#include "util/grow.h"
#include "checks/automata.h"

static struct ca_policy *to_policy(struct ca_check *check)
{
	return (struct ca_policy *)check;
}

/* The kernel's prio: deadline below 0, realtime (fifo, rr) below 100. */
static int prio_class(int prio)
{
	return prio < 0 ? 2 : prio < 100 ? 1 : 0;
}

static bool rule_matches(const struct ca_state *state, const struct ca_tag_rule *rule,
			 const struct ca_task *task)
{
	switch (rule->match) {
	case CA_MATCH_COMM:
		return !fnmatch(rule->value, task->comm, 0);
	case CA_MATCH_PID:
		return task->pid == rule->number;
	case CA_MATCH_TGID:
		return task->tgid == rule->number;
	case CA_MATCH_POLICY:
		if (!strcmp(rule->value, "deadline"))
			return prio_class(task->prio) == 2;
		if (!strcmp(rule->value, "other"))
			return prio_class(task->prio) == 0;
		return prio_class(task->prio) == 1;	/* fifo, rr, realtime */
	case CA_MATCH_COOKIE:
		return task->is_cookie_known && (rule->is_any ? task->cookie != 0 :
					       task->cookie == (uint64_t)rule->number);
	case CA_MATCH_MARKER:
		return task->tag && !strcmp(ca_tasks_tag_name(&state->tasks, task->tag), rule->value);
	case CA_MATCH_UID:
	case CA_MATCH_CGROUP:
		return false;	/* scheduler traces carry neither */
	}
	return false;
}

static bool inputs_changed(const struct ca_policy_task *cached, const struct ca_task *task)
{
	return memcmp(cached->comm, task->comm, sizeof(cached->comm)) ||
	       cached->prio_class != prio_class(task->prio) ||
	       cached->is_cookie_known != task->is_cookie_known || cached->cookie != task->cookie ||
	       cached->marker_tag != task->tag || cached->tgid != task->tgid;
}

static struct ca_policy_task *cached_task(struct ca_policy *policy, int pid, bool *is_new)
{
	int64_t index = ca_pidmap_get(&policy->map, pid);

	*is_new = false;
	if (index >= 0)
		return &policy->tasks[index];
	if (policy->task_count == policy->task_capacity) {
		uint32_t capacity = policy->task_capacity ? policy->task_capacity * 2 : 64;
		struct ca_policy_task *tasks = realloc(policy->tasks, capacity * sizeof(*tasks));

		if (!tasks)
			return NULL;
		policy->tasks = tasks;
		policy->task_capacity = capacity;
	}
	if (ca_pidmap_put(&policy->map, pid, policy->task_count))
		return NULL;
	*is_new = true;
	return &policy->tasks[policy->task_count++];
}

/* The tags of @task (bit per rule tag). */
static uint64_t tags_of(struct ca_policy *policy, const struct ca_state *state,
			const struct ca_task *task)
{
	bool is_new;
	struct ca_policy_task *cached = cached_task(policy, task->pid, &is_new);

	if (!cached) {
		policy->base.error = -ENOMEM;
		return 0;
	}
	if (!is_new && !inputs_changed(cached, task))
		return cached->tags;
	cached->pid = task->pid;
	memcpy(cached->comm, task->comm, sizeof(cached->comm));
	cached->prio_class = prio_class(task->prio);
	cached->is_cookie_known = task->is_cookie_known;
	cached->cookie = task->cookie;
	cached->marker_tag = task->tag;
	cached->tgid = task->tgid;
	cached->tags = 0;
	for (int r = 0; r < policy->rules->tag_rule_count; r++)
		if (rule_matches(state, &policy->rules->tag_rules[r], task))
			cached->tags |= 1ull << policy->rules->tag_rules[r].tag;
	return cached->tags;
}

/* Per core: what each sibling runs (pid, 0 idle or unknown) and its tags. */
struct core_view {
	int count;
	int pids[CA_MAX_SIBLINGS];
	uint64_t tags[CA_MAX_SIBLINGS];
};

static void view_core(struct ca_policy *policy, const struct ca_state *state, int core,
		      struct core_view *view)
{
	view->count = state->topo.sibling_count[core];
	for (int i = 0; i < view->count; i++) {
		const struct ca_task *task = ca_state_cpu_task(state, state->topo.siblings[core][i]);

		view->pids[i] = task ? task->pid : 0;
		view->tags[i] = task ? tags_of(policy, state, task) : 0;
	}
}

/* isolate A B: a sibling runs A while another runs B.  exclusive T: a sibling
 * runs T while another runs anything.  @slots: where the two run. */
static bool is_together(const struct ca_relation *rel, const struct core_view *view, int pids[2],
			int slots[2])
{
	uint64_t a = 1ull << rel->tags[0];
	bool is_isolate = rel->kind == CA_RELATION_ISOLATE;
	uint64_t b = is_isolate ? 1ull << rel->tags[1] : 0;

	for (int i = 0; i < view->count; i++) {
		if (!view->pids[i] || !(view->tags[i] & a))
			continue;
		for (int j = 0; j < view->count; j++) {
			if (j == i || !view->pids[j] || (is_isolate && !(view->tags[j] & b)))
				continue;
			pids[0] = view->pids[i];
			pids[1] = view->pids[j];
			slots[0] = i;
			slots[1] = j;
			return true;
		}
	}
	return false;
}

static void keep_worst(struct ca_policy_result *res, const struct ca_policy_window *w)
{
	int at = res->worst_count < CA_POLICY_WORST ? res->worst_count++ : CA_POLICY_WORST - 1;

	if (at == CA_POLICY_WORST - 1 && res->worst_count == CA_POLICY_WORST &&
	    res->worst[at].end - res->worst[at].start >= w->end - w->start)
		return;
	res->worst[at] = *w;
	for (; at > 0 && res->worst[at].end - res->worst[at].start >
			 res->worst[at - 1].end - res->worst[at - 1].start; at--) {
		struct ca_policy_window t = res->worst[at];

		res->worst[at] = res->worst[at - 1];
		res->worst[at - 1] = t;
	}
}

/* @w moves on by @event (window.dot). */
static void step_window(struct ca_policy *policy, struct ca_policy_window *w,
			enum ca_window_event event)
{
	w->state = ca_window_apply(w->state, event, &policy->invalid_transitions);
}

/*
 * A would-be violation whose core had a CPU unobserved around it may have
 * lost its cause with that CPU's events: unknown, not a violation.
 */
static void judge_suspect(struct ca_policy *policy, const struct ca_state *state,
			  struct ca_policy_result *res, struct ca_policy_window *w)
{
	step_window(policy, w, CA_WIN_ON_JUDGE);
	if (ca_state_core_unobserved(state, w->core, w->start, w->end, policy->has_causes)) {
		res->unknown++;
		return;
	}
	res->violations++;
	res->same_cookie_violations += w->cause == CA_CAUSE_SAME_COOKIE;
	policy->per_core_violations[w->core]++;
}

/* Until every CPU of its core has shown an event past it. */
static void suspect(struct ca_policy *policy, struct ca_policy_result *res,
		    const struct ca_policy_window *w)
{
	struct ca_policy_suspect *s;

	if (ca_grow(&policy->suspects, policy->suspect_count, &policy->suspect_capacity,
		    sizeof(*policy->suspects))) {
		policy->base.error = -ENOMEM;
		return;
	}
	s = &policy->suspects[policy->suspect_count++];
	*s = (struct ca_policy_suspect){ res, *w };
	step_window(policy, &s->window, CA_WIN_ON_SUSPECT);
}

static void close_window(struct ca_policy *policy, const struct ca_state *state,
			 struct ca_policy_result *res, int core, uint64_t ts)
{
	struct ca_policy_window w = { .core = core, .start = res->since[core],
				      .pids = { res->pids[core][0], res->pids[core][1] },
				      .cause = CA_CAUSE_UNKNOWN, .state = CA_WIN_OPEN };
	const struct ca_judging judging = { .grace_ns = policy->grace_ns,
					    .max_transition_ns = policy->max_transition_ns,
					    .has_causes = policy->has_causes,
					    .unknown_until_ns = policy->unknown_until_ns,
					    .stall_ns = policy->causes.longest_stall_ns };
	struct ca_leaving *leaving = &res->leaving[core];

	ts = ca_state_core_known_until(state, core, w.start, ts);	/* what is beyond is not judged */
	w.end = ts;
	if (ts <= w.start) {
		step_window(policy, &w, CA_WIN_ON_DISCARD);
		return;
	}
	/* Judged at its end: a later contradiction is the suspects' (coverage.h). */
	step_window(policy, &w, CA_WIN_ON_END);
	if (ca_causes_is_same_cookie(leaving, state)) {
		w.cause = CA_CAUSE_SAME_COOKIE;
	} else if (policy->has_causes) {	/* else unknown: the grace alone decides */
		ca_causes_add_stalled(&policy->causes, leaving, w.start, ts);
		w.cause = ca_causes_classify(&policy->causes, leaving, ts - w.start,
					     policy->grace_ns);
	}
	if (ca_durations_add(&res->windows, ts - w.start))
		policy->base.error = -ENOMEM;
	keep_worst(res, &w);
	switch (ca_causes_judge(&judging, w.cause, ts - w.start)) {
	case CA_JUDGED_VIOLATION:
		break;
	case CA_JUDGED_UNDECIDED:
		res->undecided++;
		/* fall through */
	default:
		step_window(policy, &w, CA_WIN_ON_JUDGE);
		return;
	}
	if (ca_state_core_settled(state, core, ts))
		judge_suspect(policy, state, res, &w);
	else
		suspect(policy, res, &w);
}

/* The suspects whose cores have shown past them (all of them when the trace ended). */
static void release_suspects(struct ca_policy *policy, const struct ca_state *state,
			     bool is_final)
{
	size_t kept = 0;

	for (size_t i = 0; i < policy->suspect_count; i++) {
		struct ca_policy_suspect *s = &policy->suspects[i];

		if (is_final || ca_state_core_settled(state, s->window.core, s->window.end))
			judge_suspect(policy, state, s->res, &s->window);
		else
			policy->suspects[kept++] = *s;
	}
	policy->suspect_count = kept;
}

/* What the core now shows of @rel's pair, for the pair automaton (pair.dot). */
static enum ca_pair_event relation_event(const struct ca_policy_result *res, int core,
					 bool is_now, const int pids[2])
{
	if (!is_now)
		return CA_PAIR_NOW_APART;
	if (res->pair[core] == CA_PAIR_TOGETHER && pids[0] == res->pids[core][0] &&
	    pids[1] == res->pids[core][1])
		return CA_PAIR_NOW_SAME;
	return CA_PAIR_NOW_OTHER;
}

static void step_relation(struct ca_policy *policy, const struct ca_state *state,
			  struct ca_policy_result *res, const struct ca_relation *rel,
			  const struct core_view *view, int core, uint64_t ts)
{
	int pids[2] = { 0, 0 }, slots[2] = { 0, 0 };
	bool is_now = is_together(rel, view, pids, slots);
	unsigned int actions;

	res->pair[core] = ca_pair_apply(res->pair[core], relation_event(res, core, is_now, pids),
					&actions, &policy->invalid_transitions);
	if (actions & CA_PAIR_CLOSE)
		close_window(policy, state, res, core, ts);
	if (actions & CA_PAIR_OPEN) {
		res->since[core] = ts;
		res->pids[core][0] = pids[0];
		res->pids[core][1] = pids[1];
		/* Without ipi events the tracker is empty: only the cookies count. */
		res->leaving[core] = ca_causes_capture(&policy->causes, state,
						       state->topo.siblings[core][slots[0]],
						       state->topo.siblings[core][slots[1]]);
	}
}

static void policy_update(struct ca_check *check, const struct ca_state *state, int core,
			  uint64_t ts, unsigned int changes)
{
	struct ca_policy *policy = to_policy(check);
	struct core_view view;

	if (!(changes & (CA_CHANGE_RUN | CA_CHANGE_IDENTITY)))
		return;		/* relations depend on who runs, not on who waits */
	view_core(policy, state, core, &view);
	for (int r = 0; r < policy->rules->relation_count; r++)
		if (policy->rules->relations[r].kind != CA_RELATION_TOGETHER)
			step_relation(policy, state, &policy->results[r],
				      &policy->rules->relations[r], &view, core, ts);
}

/* together G: integrate G's runtime on the core, and the part beside another G task. */
static void policy_advance(struct ca_check *check, const struct ca_state *state, int core,
			   uint64_t ts)
{
	struct ca_policy *policy = to_policy(check);
	uint64_t last = policy->core_last_ts[core];
	struct core_view view;

	policy->core_last_ts[core] = ts;
	if (!policy->has_core_last[core] || ts <= last) {
		policy->has_core_last[core] = true;
		return;
	}
	view_core(policy, state, core, &view);
	for (int r = 0; r < policy->rules->relation_count; r++) {
		const struct ca_relation *rel = &policy->rules->relations[r];
		uint64_t g = 1ull << rel->tags[0];
		int running = 0;

		if (rel->kind != CA_RELATION_TOGETHER)
			continue;
		for (int i = 0; i < view.count; i++)
			running += view.pids[i] && (view.tags[i] & g);
		policy->results[r].runtime_ns += (ts - last) * running;
		if (running > 1)
			policy->results[r].shared_ns += (ts - last) * running;
	}
}

/* What @ev tells the open windows of the cores it touches (causes.c); then the causes. */
static void policy_event(struct ca_check *check, const struct ca_state *state,
			 const struct ca_event *ev)
{
	struct ca_policy *policy = to_policy(check);
	int cores[2], core_count;

	if (policy->suspect_count && ev->kind != CA_EV_LOST)
		release_suspects(policy, state, false);
	if (ev->kind == CA_EV_LOST)
		return;
	core_count = policy->has_causes ? ca_causes_event_cores(&state->topo, ev, cores) : 0;
	for (int k = 0; k < core_count; k++)
		for (int r = 0; r < policy->rules->relation_count; r++) {
			struct ca_policy_result *res = &policy->results[r];

			if (res->pair[cores[k]] == CA_PAIR_TOGETHER)
				ca_causes_note_event(&policy->causes, &res->leaving[cores[k]],
						     res->since[cores[k]], ev);
		}
	ca_causes_track(&policy->causes, ev);	/* without ipi events too: the stalls */
}

static void policy_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_policy *policy = to_policy(check);

	for (int r = 0; r < policy->rules->relation_count; r++) {
		struct ca_policy_result *res = &policy->results[r];

		for (int core = 0; core < state->topo.core_count; core++) {
			unsigned int actions;

			/* The trace's end parts every pair. */
			res->pair[core] = ca_pair_apply(res->pair[core], CA_PAIR_NOW_APART, &actions,
							&policy->invalid_transitions);
			if (actions & CA_PAIR_CLOSE)
				close_window(policy, state, res, core, end_ts);
		}
		res->summary = ca_durations_summary(&res->windows);
	}
	release_suspects(policy, state, true);
}

static int size_result(struct ca_policy_result *res, int cores)
{
	res->pair = calloc(cores, sizeof(*res->pair));
	res->since = calloc(cores, sizeof(*res->since));
	res->pids = calloc(cores, sizeof(*res->pids));
	res->leaving = calloc(cores, sizeof(*res->leaving));
	return res->pair && res->since && res->pids && res->leaving ? 0 : -ENOMEM;
}

static void free_result(struct ca_policy_result *res)
{
	ca_durations_free(&res->windows);
	free(res->pair);
	free(res->since);
	free(res->pids);
	free(res->leaving);
}

/* Tables per core, as many as the topology has; the causes' per CPU. */
static int policy_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_policy *policy = to_policy(check);
	int cores = state->topo.core_count, ret = 0;

	policy->core_count = cores;
	policy->core_last_ts = calloc(cores, sizeof(*policy->core_last_ts));
	policy->has_core_last = calloc(cores, sizeof(*policy->has_core_last));
	policy->per_core_violations = calloc(cores, sizeof(*policy->per_core_violations));
	if (!policy->core_last_ts || !policy->has_core_last || !policy->per_core_violations)
		return -ENOMEM;
	for (int r = 0; r < policy->rules->relation_count && !ret; r++)
		ret = size_result(&policy->results[r], cores);
	return ret ? ret : ca_causes_size(&policy->causes, state->cpu_count);
}

int ca_policy_init(struct ca_policy *policy, const struct ca_rules *rules, uint64_t grace_ns)
{
	memset(policy, 0, sizeof(*policy));
	policy->base.name = "policy";
	policy->base.setup = policy_setup;
	policy->base.advance = policy_advance;
	policy->base.update = policy_update;
	policy->base.finish = policy_finish;
	policy->base.event = policy_event;
	policy->rules = rules;
	policy->grace_ns = grace_ns;
	policy->results = calloc(rules->relation_count ? rules->relation_count : 1,
				 sizeof(*policy->results));
	if (!policy->results)
		return -ENOMEM;
	ca_pidmap_init(&policy->map);
	return 0;
}

void ca_policy_use_causes(struct ca_policy *policy, uint64_t max_transition_ns,
			  struct ca_cause_events events)
{
	policy->has_causes = true;
	policy->max_transition_ns = max_transition_ns;
	ca_causes_init(&policy->causes, events);
}

void ca_policy_free(struct ca_policy *policy)
{
	if (policy->results)
		for (int r = 0; r < policy->rules->relation_count; r++)
			free_result(&policy->results[r]);
	free(policy->results);
	free(policy->core_last_ts);
	free(policy->has_core_last);
	free(policy->per_core_violations);
	ca_causes_free(&policy->causes);
	policy->core_last_ts = NULL;
	policy->has_core_last = NULL;
	policy->per_core_violations = NULL;
	free(policy->tasks);
	free(policy->suspects);
	policy->suspects = NULL;
	ca_pidmap_free(&policy->map);
	policy->results = NULL;
	policy->tasks = NULL;
}
