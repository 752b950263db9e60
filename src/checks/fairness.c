/*
 * fairness.c - per cookie (or tag), core time received against its fair
 * share of the core time it competed for, and the waits (fairness.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/fairness.h"
#include "state/state.h"
#include "util/grow.h"

static struct ca_fairness *to_fairness(struct ca_check *check)
{
	return (struct ca_fairness *)check;
}

/* The index of identity @value (added, with @pid as its example, when new); -1: no memory. */
static int64_t identity_index(struct ca_fairness *fair, uint64_t value, int pid)
{
	int64_t index = ca_keymap_get(&fair->identity_map, value);
	struct ca_fair_identity *id;

	if (index >= 0)
		return index;
	if (ca_grow(&fair->identities, fair->identity_count, &fair->identity_room,
		    sizeof(*fair->identities)) ||
	    ca_keymap_put(&fair->identity_map, value, (uint32_t)fair->identity_count))
		return -1;
	id = &fair->identities[fair->identity_count];
	memset(id, 0, sizeof(*id));
	id->value = value;
	id->example_pid = pid;
	return (int64_t)fair->identity_count++;
}

static struct ca_fair_pair *pair_of(struct ca_fairness *fair, uint32_t waiting, uint32_t running)
{
	uint64_t key = ca_keymap_pair(waiting, running);
	int64_t index = ca_keymap_get(&fair->pair_map, key);
	struct ca_fair_pair *pair;

	if (index >= 0)
		return &fair->pairs[index];
	if (ca_grow(&fair->pairs, fair->pair_count, &fair->pair_room, sizeof(*fair->pairs)) ||
	    ca_keymap_put(&fair->pair_map, key, (uint32_t)fair->pair_count))
		return NULL;
	pair = &fair->pairs[fair->pair_count++];
	pair->waiting = waiting;
	pair->running = running;
	pair->waited_ns = 0;
	return pair;
}

static struct ca_fair_task *task_of(struct ca_fairness *fair, int pid)
{
	int64_t index = ca_pidmap_get(&fair->task_map, pid);

	if (index >= 0)
		return &fair->tasks[index];
	if (ca_grow(&fair->tasks, fair->task_count, &fair->task_room, sizeof(*fair->tasks)) ||
	    ca_pidmap_put(&fair->task_map, pid, (uint32_t)fair->task_count))
		return NULL;
	memset(&fair->tasks[fair->task_count], 0, sizeof(*fair->tasks));
	return &fair->tasks[fair->task_count++];
}

/*
 * Add task @pid's identity to the core's distinct ones (the scratch, @count
 * of them so far), marked running when @runs.  Return: its place in the
 * scratch, -1 when its identity is not known, -2 when out of memory.
 */
static int note_identity(struct ca_fairness *fair, const struct ca_state *state, int pid,
			 bool runs, size_t *count)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);
	uint64_t value;
	int64_t index;
	size_t i;

	if (!task || !ca_state_identity(state, task, &value))
		return -1;
	index = identity_index(fair, value, pid);
	if (index < 0)
		return -2;
	for (i = 0; i < *count && fair->scratch[i].identity != (uint32_t)index; i++)
		;
	if (i == *count) {
		fair->scratch[i].identity = (uint32_t)index;
		fair->scratch[i].runs = false;
		(*count)++;
	}
	fair->scratch[i].runs |= runs;
	return (int)i;
}

/*
 * The core's runnable identities into the scratch. Return: how many (each
 * known one, with *@is_unknown set when a CPU, an identity or a queued task
 * is not known), -2 when out of memory.
 */
static int gather(struct ca_fairness *fair, const struct ca_state *state, int core,
		  bool *is_unknown)
{
	size_t count = 0, room = 0;
	int ret = 0;

	*is_unknown = false;
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		room += 1 + (size_t)state->cpus[state->topo.siblings[core][i]].queued_count;
	if (ca_grow_zeroed(&fair->scratch, room, &fair->scratch_room, sizeof(*fair->scratch)))
		return -2;
	for (int i = 0; i < state->topo.sibling_count[core] && ret != -2; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_cpu *c = &state->cpus[cpu];

		*is_unknown |= c->run == CA_CPU_UNKNOWN;
		if (c->run == CA_CPU_TASK &&
		    (ret = note_identity(fair, state, c->pid, true, &count)) == -1)
			*is_unknown = true;
		for (int q = 0; q < c->queued_count && ret != -2; q++) {
			/* A task queued before a gap (any CPU's) may have left unseen. */
			if (ca_state_queued_before_any_gap(state, c->queued[q]) ||
			    (ret = note_identity(fair, state, c->queued[q], false, &count)) == -1)
				*is_unknown = true;
		}
	}
	return ret == -2 ? -2 : (int)count;
}

/* The scratch's entry (of @count) for the identity of @pid, queued on the core; NULL: none. */
static const struct ca_fair_seen *seen_of(const struct ca_fairness *fair,
					  const struct ca_state *state, int pid, size_t count)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);
	uint64_t value;
	int64_t index;

	if (!task || !ca_state_identity(state, task, &value))
		return NULL;
	index = ca_keymap_get(&fair->identity_map, value);
	for (size_t i = 0; i < count; i++)
		if (fair->scratch[i].identity == (uint32_t)index)
			return &fair->scratch[i];
	return NULL;
}

/*
 * Task @pid, of identity @identity, waited on @cpu of @core from @from to
 * @to: its stretch goes on, or opens when @may_open (another identity runs on
 * the core).  A stretch that began before a gap of the core does not go on.
 */
static int wait_stretch(struct ca_fairness *fair, int pid, uint32_t identity, int core, int cpu,
			uint64_t from, uint64_t to, bool may_open)
{
	struct ca_fair_task *t = task_of(fair, pid);
	struct ca_fair_identity *id = &fair->identities[identity];

	if (!t)
		return -ENOMEM;
	if (t->end != from || !t->end || t->start < fair->cores[core].broken_to) {
		if (!may_open) {
			t->end = 0;
			return 0;
		}
		t->start = from;
		t->cpu = cpu;
	}
	t->end = to;
	if (to - t->start > id->longest_wait_ns) {
		id->longest_wait_ns = to - t->start;
		id->longest_wait_pid = pid;
		id->longest_wait_cpu = t->cpu;
		id->longest_wait_start = t->start;
	}
	return 0;
}

enum { ITEM_SHARE, ITEM_PAIR, ITEM_SPAN };

static void add_item(struct ca_fairness *fair, struct ca_fair_core *c, struct ca_fair_item item)
{
	if (ca_settle_add(&c->waiting, &item))
		fair->base.error = -ENOMEM;
}

/* Pairs: who waited while whom ran. */
static void account_pairs(struct ca_fairness *fair, struct ca_fair_core *c, size_t count)
{
	for (size_t w = 0; w < count; w++)
		for (size_t r = 0; r < count && !fair->scratch[w].runs; r++)
			if (fair->scratch[r].runs)
				add_item(fair, c, (struct ca_fair_item){
					.kind = ITEM_PAIR, .identity = fair->scratch[w].identity,
					.other = fair->scratch[r].identity });
}

/*
 * Stretches: a queued task whose identity does not run waits; it begins to
 * when another identity runs (@does_any_run), and goes on until it runs or
 * leaves (fairness.h).
 */
static int account_stretches(struct ca_fairness *fair, const struct ca_state *state, int core,
			     size_t count, uint64_t from, uint64_t to, bool does_any_run)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_cpu *c = &state->cpus[cpu];

		for (int q = 0; q < c->queued_count; q++) {
			const struct ca_fair_seen *seen = seen_of(fair, state, c->queued[q], count);

			if (seen && !seen->runs &&
			    wait_stretch(fair, c->queued[q], seen->identity, core, cpu, from, to,
					 does_any_run))
				return -ENOMEM;
		}
	}
	return 0;
}

/* [@from, @to) on @core: its shares and pairs wait to settle, its waits go on. */
static void account_core(struct ca_fairness *fair, const struct ca_state *state, int core,
			 uint64_t from, uint64_t to)
{
	struct ca_fair_core *c = &fair->cores[core];
	bool is_unknown, does_any_run = false;
	int count = gather(fair, state, core, &is_unknown);

	if (count < 0) {
		fair->base.error = -ENOMEM;
		return;
	}
	if (is_unknown) {
		c->unknown_ns += to - from;
		return;
	}
	for (int i = 0; i < count; i++)
		does_any_run |= fair->scratch[i].runs;
	/* Every interval waits: what turns out unobserved in it is time not known. */
	if (ca_settle_begin(&c->waiting, from, to)) {
		fair->base.error = -ENOMEM;
		return;
	}
	for (int i = 0; count >= 2 && does_any_run && i < count; i++)
		add_item(fair, c, (struct ca_fair_item){
			.kind = ITEM_SHARE, .runs = fair->scratch[i].runs,
			.identity = fair->scratch[i].identity, .other = (uint32_t)count });
	if (count >= 2 && does_any_run)
		account_pairs(fair, c, (size_t)count);
	add_item(fair, c, (struct ca_fair_item){ .kind = ITEM_SPAN });
	ca_settle_end(&c->waiting);
	if (account_stretches(fair, state, core, (size_t)count, from, to, does_any_run))
		fair->base.error = -ENOMEM;
}

/* Part of [@from, @to) on @core was unobserved: waits there are cut at @from. */
static void cut_waits(struct ca_fairness *fair, const struct ca_state *state, int core,
		      uint64_t from, uint64_t to)
{
	fair->cores[core].broken_to = to;
	for (size_t i = 0; i < fair->identity_count; i++) {
		struct ca_fair_identity *id = &fair->identities[i];

		if (!id->longest_wait_ns ||
		    ca_topology_core_of(&state->topo, id->longest_wait_cpu) != core ||
		    id->longest_wait_start + id->longest_wait_ns <= from ||
		    id->longest_wait_start >= to)
			continue;
		id->longest_wait_ns = id->longest_wait_start < from ?
				      from - id->longest_wait_start : 0;
	}
}

struct settling {
	struct ca_fairness *fair;
	const struct ca_state *state;
	int core;
};

/* An item settled: its figure grows by the observed part of its interval. */
static void apply_item(void *ctx, const void *it, uint64_t observed, uint64_t length,
		       const struct ca_settle_interval *in)
{
	const struct settling *s = ctx;
	const struct ca_fair_item *item = it;
	struct ca_fair_identity *id = &s->fair->identities[item->identity];
	struct ca_fair_pair *pair;

	if (item->kind == ITEM_SHARE) {
		id->fair_ns += (double)observed / item->other;
		id->competed_ns += observed;
		id->received_ns += item->runs ? observed : 0;
	} else if (item->kind == ITEM_PAIR && observed) {
		pair = pair_of(s->fair, item->identity, item->other);
		if (!pair)
			s->fair->base.error = -ENOMEM;
		else
			pair->waited_ns += observed;
	} else if (item->kind == ITEM_SPAN && observed < length) {
		s->fair->cores[s->core].unknown_ns += length - observed;
		cut_waits(s->fair, s->state, s->core, in->from, in->to);
	}
}

static void fairness_advance(struct ca_check *check, const struct ca_state *state, int core,
			     uint64_t ts)
{
	struct ca_fairness *fair = to_fairness(check);
	struct settling s = { fair, state, core };
	uint64_t last, until;

	if (!ca_settle_advance(&fair->cores[core].waiting, state, core, ts, apply_item, &s, &last))
		return;
	/* A CPU whose last stretch turned out unobserved: known up to its start. */
	until = ca_state_core_known_until(state, core, last, ts);
	if (until > last)
		account_core(fair, state, core, last, until);
	fair->cores[core].unknown_ns += ts - until;
}

static void fairness_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_fairness *fair = to_fairness(check);

	(void)end_ts;
	fair->unknown_ns = 0;
	for (int core = 0; core < fair->core_count; core++) {
		struct settling s = { fair, state, core };

		ca_settle_run(&fair->cores[core].waiting, state, core, true, apply_item, &s);
		fair->unknown_ns += fair->cores[core].unknown_ns;
	}
	/* Any identity may have had a task in any time not known (a CPU unobserved, a task's
	 * cookie unknown): the doubt is all of it. */
	for (size_t i = 0; i < fair->identity_count; i++)
		fair->identities[i].doubt_ns = fair->unknown_ns;
	fair->finding_count = 0;
	fair->undecided_count = 0;
	for (size_t i = 0; i < fair->identity_count; i++) {
		fair->finding_count += ca_fairness_is_finding(fair, &fair->identities[i]);
		fair->undecided_count += ca_fairness_is_undecided(fair, &fair->identities[i]);
	}
}

static int fairness_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_fairness *fair = to_fairness(check);

	fair->core_count = state->topo.core_count;
	fair->cores = calloc(fair->core_count, sizeof(*fair->cores));
	for (int core = 0; fair->cores && core < fair->core_count; core++)
		ca_settle_init(&fair->cores[core].waiting, sizeof(struct ca_fair_item));
	return fair->cores ? 0 : -ENOMEM;
}

void ca_fairness_init(struct ca_fairness *fair, double max_unfairness_pct)
{
	memset(fair, 0, sizeof(*fair));
	fair->base.name = "fairness";
	fair->base.setup = fairness_setup;
	fair->base.advance = fairness_advance;
	fair->base.finish = fairness_finish;
	fair->max_unfairness_pct = max_unfairness_pct;
	ca_keymap_init(&fair->identity_map);
	ca_keymap_init(&fair->pair_map);
	ca_pidmap_init(&fair->task_map);
}

void ca_fairness_free(struct ca_fairness *fair)
{
	for (int core = 0; fair->cores && core < fair->core_count; core++)
		ca_settle_free(&fair->cores[core].waiting);
	free(fair->cores);
	free(fair->identities);
	free(fair->pairs);
	free(fair->tasks);
	free(fair->scratch);
	ca_keymap_free(&fair->identity_map);
	ca_keymap_free(&fair->pair_map);
	ca_pidmap_free(&fair->task_map);
	ca_fairness_init(fair, fair->max_unfairness_pct);
}

static double short_pct(double fair_ns, double received_ns)
{
	double short_ns = fair_ns - received_ns;

	return fair_ns > 0 && short_ns > 0 ? 100.0 * short_ns / fair_ns : 0.0;
}

double ca_fairness_unfairness(const struct ca_fair_identity *id)
{
	return short_pct(id->fair_ns, (double)id->received_ns);
}

double ca_fairness_unfairness_doubted(const struct ca_fair_identity *id)
{
	return short_pct(id->fair_ns, (double)id->received_ns + (double)id->doubt_ns);
}

static bool is_judged(const struct ca_fairness *fair, double fair_ns)
{
	return fair->max_unfairness_pct >= 0 && fair_ns >= (double)CA_FAIRNESS_FLOOR_NS;
}

bool ca_fairness_is_finding(const struct ca_fairness *fair, const struct ca_fair_identity *id)
{
	return is_judged(fair, id->fair_ns) &&
	       ca_fairness_unfairness_doubted(id) > fair->max_unfairness_pct;
}

/*
 * Past the threshold over the known time, or it could be: in time not known
 * the identity may have competed with one other (half of it its share) and
 * received none.
 */
double ca_fairness_unfairness_worst(const struct ca_fair_identity *id)
{
	return short_pct(id->fair_ns + (double)id->doubt_ns / 2, (double)id->received_ns);
}

bool ca_fairness_is_undecided(const struct ca_fairness *fair, const struct ca_fair_identity *id)
{
	if (ca_fairness_is_finding(fair, id))
		return false;
	return (is_judged(fair, id->fair_ns) &&
		ca_fairness_unfairness(id) > fair->max_unfairness_pct) ||
	       (is_judged(fair, id->fair_ns + (double)id->doubt_ns / 2) &&
		ca_fairness_unfairness_worst(id) > fair->max_unfairness_pct);
}

bool ca_fairness_unknown_undecided(const struct ca_fairness *fair)
{
	return is_judged(fair, (double)fair->unknown_ns / 2);
}
