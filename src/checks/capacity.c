/*
 * capacity.c - per core, the time by how many CPUs ran, co-run and forced
 * idle; machine-wide, SMT off from the same runnable sets (capacity.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/capacity.h"
#include "checks/forcedidle.h"
#include "state/state.h"

static struct ca_capacity *to_capacity(struct ca_check *check)
{
	return (struct ca_capacity *)check;
}

static bool is_core_known(const struct ca_state *state, int core)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		if (state->cpus[state->topo.siblings[core][i]].run == CA_CPU_UNKNOWN)
			return false;
	return true;
}

/* Running tasks, and whether they share one known cookie (or tag). */
static int count_running(const struct ca_state *state, int core, bool *is_one_identity)
{
	uint64_t first = 0, value;
	int running = 0;

	*is_one_identity = true;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		const struct ca_task *task = ca_state_cpu_task(state, state->topo.siblings[core][i]);

		if (!task)
			continue;
		if (!ca_state_identity(state, task, &value) || (running && value != first))
			*is_one_identity = false;
		first = running ? first : value;
		running++;
	}
	return running;
}

static int count_queued(const struct ca_state *state, int core)
{
	int queued = 0;

	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		queued += state->cpus[state->topo.siblings[core][i]].queued_count;
	return queued;
}

static bool has_forced_cpu(const struct ca_state *state, int core)
{
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		if (ca_forcedidle_is_forced(state, core, state->topo.siblings[core][i]))
			return true;
	return false;
}

/* The core's state, constant over @length ns, into its figures. */
static void account_core(struct ca_capacity_core *c, const struct ca_state *state, int core,
			 uint64_t length)
{
	bool is_one_identity;
	int running, queued;

	if (!is_core_known(state, core))
		return;
	running = count_running(state, core, &is_one_identity);
	queued = count_queued(state, core);
	c->known_ns += length;
	c->busy_ns[running] += length;
	if (running >= 2 && is_one_identity)
		c->compatible_ns += length;
	else if (running >= 2)
		c->mixed_ns += length;
	if (running + queued)
		c->demand_ns += length;
	c->waiting_ns += (uint64_t)queued * length;
	if (queued && has_forced_cpu(state, core))
		c->forced_ns += length;
}

/* Machine-wide, up to @ts: C known cores, R tasks runnable on them. */
static void account_machine(struct ca_capacity *cap, uint64_t ts)
{
	uint64_t length, r, c;

	if (cap->has_machine_last && ts > cap->machine_last_ts && cap->known_cores) {
		length = ts - cap->machine_last_ts;
		r = (uint64_t)cap->runnable_total;
		c = (uint64_t)cap->known_cores;
		cap->machine_known_ns += length;
		cap->core_ns += c * length;
		cap->ht_off_busy_ns += (r < c ? r : c) * length;
		cap->ht_off_waiting_ns += (r > c ? r - c : 0) * length;
	}
	if (!cap->has_machine_last || ts > cap->machine_last_ts)
		cap->machine_last_ts = ts;
	cap->has_machine_last = true;
}

static void capacity_advance(struct ca_check *check, const struct ca_state *state, int core,
			     uint64_t ts)
{
	struct ca_capacity *cap = to_capacity(check);
	uint64_t last = cap->last_ts[core];

	account_machine(cap, ts);
	if (cap->has_last[core] && ts > last) {
		/* A CPU whose last stretch turned out unobserved: known up to its start. */
		uint64_t until = ca_state_core_known_until(state, core, last, ts);

		if (until > last)
			account_core(&cap->cores[core], state, core, until - last);
	}
	if (!cap->has_last[core] || ts > last)
		cap->last_ts[core] = ts;
	cap->has_last[core] = true;
}

/* What the core holds now, for the machine-wide sums. */
static void capacity_update(struct ca_check *check, const struct ca_state *state, int core,
			    uint64_t ts, unsigned int changes)
{
	struct ca_capacity *cap = to_capacity(check);
	bool is_known = is_core_known(state, core), is_one_identity;
	int runnable = 0;

	(void)ts;
	(void)changes;
	if (is_known)
		runnable = count_running(state, core, &is_one_identity) + count_queued(state, core);
	cap->known_cores += (int)is_known - (int)cap->is_known[core];
	cap->runnable_total += runnable - cap->runnable[core];
	cap->is_known[core] = is_known;
	cap->runnable[core] = runnable;
}

static int capacity_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_capacity *cap = to_capacity(check);
	int cores = state->topo.core_count;

	cap->core_count = cores;
	cap->cores = calloc(cores, sizeof(*cap->cores));
	cap->last_ts = calloc(cores, sizeof(*cap->last_ts));
	cap->has_last = calloc(cores, sizeof(*cap->has_last));
	cap->runnable = calloc(cores, sizeof(*cap->runnable));
	cap->is_known = calloc(cores, sizeof(*cap->is_known));
	if (!cap->cores || !cap->last_ts || !cap->has_last || !cap->runnable || !cap->is_known)
		return -ENOMEM;
	for (int core = 0; core < cores; core++)
		cap->cores[core].cpus = state->topo.sibling_count[core];
	return 0;
}

void ca_capacity_init(struct ca_capacity *cap)
{
	memset(cap, 0, sizeof(*cap));
	cap->base.name = "capacity";
	cap->base.setup = capacity_setup;
	cap->base.advance = capacity_advance;
	cap->base.update = capacity_update;
}

void ca_capacity_free(struct ca_capacity *cap)
{
	free(cap->cores);
	free(cap->last_ts);
	free(cap->has_last);
	free(cap->runnable);
	free(cap->is_known);
	ca_capacity_init(cap);
}

void ca_capacity_sum(const struct ca_capacity *cap, struct ca_capacity_core *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (int core = 0; core < cap->core_count; core++) {
		const struct ca_capacity_core *c = &cap->cores[core];

		sum->known_ns += c->known_ns;
		for (int k = 0; k <= c->cpus; k++)
			sum->busy_ns[k] += c->busy_ns[k];
		sum->compatible_ns += c->compatible_ns;
		sum->mixed_ns += c->mixed_ns;
		sum->forced_ns += c->forced_ns;
		sum->demand_ns += c->demand_ns;
		sum->waiting_ns += c->waiting_ns;
		if (c->cpus > sum->cpus)
			sum->cpus = c->cpus;
	}
}

uint64_t ca_capacity_busy_core_ns(const struct ca_capacity_core *c)
{
	uint64_t busy = 0;

	for (int k = 1; k <= c->cpus; k++)
		busy += c->busy_ns[k];
	return busy;
}

uint64_t ca_capacity_busy_thread_ns(const struct ca_capacity_core *c)
{
	uint64_t busy = 0;

	for (int k = 1; k <= c->cpus; k++)
		busy += (uint64_t)k * c->busy_ns[k];
	return busy;
}

bool ca_capacity_break_even(const struct ca_capacity_core *c, uint64_t ht_off_ns, double *s)
{
	uint64_t core = ca_capacity_busy_core_ns(c);
	uint64_t extra = ca_capacity_busy_thread_ns(c) - core;

	if (!extra)
		return false;
	*s = 1.0 + ((double)ht_off_ns - (double)core) / (double)extra;
	return true;
}
