/*
 * explain.c - what every CPU ran at --explain's instant (explain.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/forcedidle.h"
#include "explain.h"

static void take_cpu(struct ca_explain_cpu *out, const struct ca_state *state, int cpu)
{
	const struct ca_cpu *c = &state->cpus[cpu];
	const struct ca_task *task = c->run == CA_CPU_TASK ?
				     ca_tasks_lookup(&state->tasks, c->pid) : NULL;
	int core = ca_topology_core_of(&state->topo, cpu);

	out->run = c->run;
	out->since = c->since;
	out->queued = c->queued_count;
	out->is_forced = core >= 0 && c->run == CA_CPU_IDLE &&
			 ca_forcedidle_is_forced(state, core, cpu);
	if (!task)
		return;
	out->task.pid = task->pid;
	memcpy(out->task.comm, task->comm, CA_COMM_LEN);
	out->task.is_known = ca_state_identity(state, task, &out->task.identity);
}

int ca_explain_take(struct ca_explain *explain, const struct ca_state *state)
{
	explain->cpus = calloc(state->topo.cpu_count, sizeof(*explain->cpus));
	if (!explain->cpus)
		return -ENOMEM;
	explain->cpu_count = state->topo.cpu_count;
	for (int cpu = 0; cpu < explain->cpu_count; cpu++)
		take_cpu(&explain->cpus[cpu], state, cpu);
	explain->is_taken = true;
	return 0;
}

void ca_explain_free(struct ca_explain *explain)
{
	free(explain->cpus);
	explain->cpus = NULL;
	explain->is_taken = false;
}
