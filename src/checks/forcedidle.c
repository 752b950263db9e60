/*
 * forcedidle.c - forced idle per CPU and per task, and starvation.
 *
 * Between two changes of a core, the state is constant: count the CPUs that
 * run idle with a non-empty runqueue while a sibling runs a task (forced
 * idle), and the CPUs that run a task (occupation).  Like the kernel's
 * __sched_core_account_forceidle, each running task is charged the interval
 * scaled by count / occupation; each task queued on a forced-idle CPU starves
 * for the interval.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/forcedidle.h"
#include "coreaudit/state.h"

static struct ca_forcedidle *to_fi(struct ca_check *check)
{
	return (struct ca_forcedidle *)check;
}

static struct ca_fi_task *fi_task(struct ca_forcedidle *fi, int pid)
{
	int64_t index = ca_pidmap_get(&fi->map, pid);
	struct ca_fi_task *task;

	if (index >= 0)
		return &fi->tasks[index];
	if (fi->task_count == fi->task_capacity) {
		uint32_t capacity = fi->task_capacity ? fi->task_capacity * 2 : 64;
		struct ca_fi_task *tasks = realloc(fi->tasks, capacity * sizeof(*tasks));

		if (!tasks)
			return NULL;
		fi->tasks = tasks;
		fi->task_capacity = capacity;
	}
	if (ca_pidmap_put(&fi->map, pid, fi->task_count))
		return NULL;
	task = &fi->tasks[fi->task_count++];
	memset(task, 0, sizeof(*task));
	task->pid = pid;
	return task;
}

static void starve(struct ca_forcedidle *fi, int pid, uint64_t from, uint64_t to)
{
	struct ca_fi_task *task = fi_task(fi, pid);

	if (!task) {
		fi->base.error = -ENOMEM;
		return;
	}
	task->stretch_ns = task->stretch_end == from ? task->stretch_ns + (to - from) : to - from;
	task->stretch_end = to;
	task->starved_ns += to - from;
	if (task->stretch_ns > task->longest_starved_ns)
		task->longest_starved_ns = task->stretch_ns;
}

static void charge(struct ca_forcedidle *fi, int pid, uint64_t ns)
{
	struct ca_fi_task *task = fi_task(fi, pid);

	if (!task) {
		fi->base.error = -ENOMEM;
		return;
	}
	task->kernel_ns += ns;
}

static void account_interval(struct ca_forcedidle *fi, const struct ca_state *state, int core,
			     uint64_t from, uint64_t to)
{
	int count = state->topo.sibling_count[core];
	int forced = 0, occupation = 0;
	uint64_t length = to - from;

	for (int i = 0; i < count; i++) {
		const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];

		if (c->run != CA_CPU_UNKNOWN)
			fi->per_cpu_known_ns[state->topo.siblings[core][i]] += length;
		if (c->run == CA_CPU_TASK)
			occupation++;
		else if (c->run == CA_CPU_IDLE && c->queued_count > 0)
			forced++;
	}
	if (!forced || !occupation)
		return;
	for (int i = 0; i < count; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_cpu *c = &state->cpus[cpu];

		if (c->run == CA_CPU_TASK) {
			charge(fi, c->pid, length * forced / occupation);
		} else if (c->run == CA_CPU_IDLE && c->queued_count > 0) {
			fi->per_cpu_ns[cpu] += length;
			for (int q = 0; q < c->queued_count; q++)
				starve(fi, c->queued[q], from, to);
		}
	}
}

static void fi_advance(struct ca_check *check, const struct ca_state *state, int core,
		       uint64_t ts)
{
	struct ca_forcedidle *fi = to_fi(check);
	uint64_t last = fi->core_last_ts[core];

	if (fi->has_core_last[core] && ts > last)
		account_interval(fi, state, core, last, ts);
	if (!fi->has_core_last[core] || ts > last)
		fi->core_last_ts[core] = ts;
	fi->has_core_last[core] = true;
}

static void fi_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_forcedidle *fi = to_fi(check);

	for (uint32_t i = 0; i < fi->task_count; i++) {
		const struct ca_task *task = ca_tasks_find((struct ca_tasks *)&state->tasks,
							   fi->tasks[i].pid);

		if (task)
			memcpy(fi->tasks[i].comm, task->comm, CA_COMM_LEN);
	}
}

int ca_forcedidle_init(struct ca_forcedidle *fi)
{
	memset(fi, 0, sizeof(*fi));
	fi->base.name = "forced-idle";
	fi->base.advance = fi_advance;
	fi->base.finish = fi_finish;
	return ca_pidmap_init(&fi->map);
}

void ca_forcedidle_free(struct ca_forcedidle *fi)
{
	ca_pidmap_free(&fi->map);
	free(fi->tasks);
	fi->tasks = NULL;
	fi->task_count = 0;
}
