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

/* The core's runnable identities into the scratch. Return: how many, -1 unknown, -2 no memory. */
static int gather(struct ca_fairness *fair, const struct ca_state *state, int core)
{
	size_t count = 0, room = 0;
	int ret = 0;

	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		room += 1 + (size_t)state->cpus[state->topo.siblings[core][i]].queued_count;
	if (ca_grow_zeroed(&fair->scratch, room, &fair->scratch_room, sizeof(*fair->scratch)))
		return -2;
	for (int i = 0; i < state->topo.sibling_count[core] && ret >= 0; i++) {
		const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];

		if (c->run == CA_CPU_UNKNOWN)
			return -1;
		if (c->run == CA_CPU_TASK)
			ret = note_identity(fair, state, c->pid, true, &count);
		for (int q = 0; q < c->queued_count && ret >= 0; q++)
			ret = note_identity(fair, state, c->queued[q], false, &count);
	}
	return ret < 0 ? ret : (int)count;
}

/* The scratch's entry (of @count) for the identity of @pid, queued on the core; NULL: none. */
static const struct ca_fair_seen *seen_of(const struct ca_fairness *fair,
					  const struct ca_state *state, int pid, size_t count)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);
	uint64_t value;
	int64_t index;

	if (!task || !ca_state_identity(state, task, &value))
		return NULL;	/* not reached: gather() saw every identity known */
	index = ca_keymap_get(&fair->identity_map, value);
	for (size_t i = 0; i < count; i++)
		if (fair->scratch[i].identity == (uint32_t)index)
			return &fair->scratch[i];
	return NULL;
}

/*
 * Task @pid, of identity @identity, waited on @cpu from @from to @to: its
 * stretch goes on, or opens when @may_open (another identity runs on the core).
 */
static int wait_stretch(struct ca_fairness *fair, int pid, uint32_t identity, int cpu,
			uint64_t from, uint64_t to, bool may_open)
{
	struct ca_fair_task *t = task_of(fair, pid);
	struct ca_fair_identity *id = &fair->identities[identity];

	if (!t)
		return -ENOMEM;
	if (t->end != from || !t->end) {
		if (!may_open)
			return 0;
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

/* Pairs: who waited while whom ran. */
static int account_pairs(struct ca_fairness *fair, size_t count, uint64_t from, uint64_t to)
{
	for (size_t w = 0; w < count; w++) {
		for (size_t r = 0; r < count && !fair->scratch[w].runs; r++) {
			struct ca_fair_pair *pair;

			if (!fair->scratch[r].runs)
				continue;
			pair = pair_of(fair, fair->scratch[w].identity, fair->scratch[r].identity);
			if (!pair)
				return -ENOMEM;
			pair->waited_ns += to - from;
		}
	}
	return 0;
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
			    wait_stretch(fair, c->queued[q], seen->identity, cpu, from, to,
					 does_any_run))
				return -ENOMEM;
		}
	}
	return 0;
}

static void account_core(struct ca_fairness *fair, const struct ca_state *state, int core,
			 uint64_t from, uint64_t to)
{
	int count = gather(fair, state, core);
	bool does_any_run = false;

	if (count == -1)
		fair->unknown_ns += to - from;
	if (count == -2)
		fair->base.error = -ENOMEM;
	if (count < 0)
		return;
	for (int i = 0; i < count; i++)
		does_any_run |= fair->scratch[i].runs;
	for (int i = 0; i < count && count >= 2; i++) {
		struct ca_fair_identity *id = &fair->identities[fair->scratch[i].identity];

		id->fair_ns += (double)(to - from) / count;
		id->competed_ns += to - from;
		if (fair->scratch[i].runs)
			id->received_ns += to - from;
	}
	if ((count >= 2 && does_any_run && account_pairs(fair, (size_t)count, from, to)) ||
	    account_stretches(fair, state, core, (size_t)count, from, to, does_any_run))
		fair->base.error = -ENOMEM;
}

static void fairness_advance(struct ca_check *check, const struct ca_state *state, int core,
			     uint64_t ts)
{
	struct ca_fairness *fair = to_fairness(check);
	uint64_t last = fair->last_ts[core];

	if (last && ts > last) {
		/* A CPU whose last stretch turned out unobserved: known up to its start. */
		uint64_t until = ca_state_core_known_until(state, core, last, ts);

		if (until > last)
			account_core(fair, state, core, last, until);
		fair->unknown_ns += ts - until;
	}
	if (ts > last)
		fair->last_ts[core] = ts;
}

static void fairness_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_fairness *fair = to_fairness(check);

	(void)state;
	(void)end_ts;
	fair->finding_count = 0;
	for (size_t i = 0; i < fair->identity_count; i++)
		fair->finding_count += ca_fairness_is_finding(fair, &fair->identities[i]);
}

static int fairness_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_fairness *fair = to_fairness(check);

	fair->core_count = state->topo.core_count;
	fair->last_ts = calloc(fair->core_count, sizeof(*fair->last_ts));
	return fair->last_ts ? 0 : -ENOMEM;
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
	free(fair->last_ts);
	free(fair->identities);
	free(fair->pairs);
	free(fair->tasks);
	free(fair->scratch);
	ca_keymap_free(&fair->identity_map);
	ca_keymap_free(&fair->pair_map);
	ca_pidmap_free(&fair->task_map);
	ca_fairness_init(fair, fair->max_unfairness_pct);
}

double ca_fairness_unfairness(const struct ca_fair_identity *id)
{
	double short_ns = id->fair_ns - (double)id->received_ns;

	return id->fair_ns > 0 && short_ns > 0 ? 100.0 * short_ns / id->fair_ns : 0.0;
}

bool ca_fairness_is_finding(const struct ca_fairness *fair, const struct ca_fair_identity *id)
{
	return fair->max_unfairness_pct >= 0 && id->fair_ns >= (double)CA_FAIRNESS_FLOOR_NS &&
	       ca_fairness_unfairness(id) > fair->max_unfairness_pct;
}
