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

#include "checks/forcedidle.h"
#include "state/state.h"
#include "checks/kernelfi.h"

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

/* @pid starved from @from to @to, queued on forced-idle @cpu: its stretch goes on or begins. */
static void starve(struct ca_forcedidle *fi, int pid, int cpu, uint64_t from, uint64_t to)
{
	struct ca_fi_task *task = fi_task(fi, pid);

	if (!task) {
		fi->base.error = -ENOMEM;
		return;
	}
	if (task->stretch_end != from || !task->stretch_ns) {
		task->stretch_ns = 0;
		task->stretch_start = from;
		task->stretch_cpu = cpu;
	}
	task->stretch_ns += to - from;
	task->stretch_end = to;
	task->starved_ns += to - from;
	if (task->stretch_ns > task->longest_starved_ns) {
		task->longest_starved_ns = task->stretch_ns;
		task->longest_starved_start = task->stretch_start;
		task->longest_starved_cpu = task->stretch_cpu;
	}
}

/* The kernel model's charge of @ns to @pid (kernelfi.c). */
static void charge_task(void *ctx, int pid, uint64_t ns)
{
	struct ca_forcedidle *fi = ctx;
	struct ca_fi_task *task = fi_task(fi, pid);

	if (!task) {
		fi->base.error = -ENOMEM;
		return;
	}
	task->kernel_ns += ns;
}

static bool is_cookie_of(const struct ca_state *state, int pid, uint64_t *cookie)
{
	const struct ca_task *task = ca_tasks_lookup(&state->tasks, pid);

	*cookie = task && task->is_cookie_known ? task->cookie : 0;
	return task && task->is_cookie_known;
}

/*
 * An idle CPU with runnable tasks is forced idle when none of them could run
 * beside what its siblings run: a task of unknown cookie counts as unable.
 */
static bool is_forced_idle(const struct ca_state *state, const struct ca_cpu *c,
			   const uint64_t *running, int running_count)
{
	for (int q = 0; q < c->queued_count; q++) {
		uint64_t cookie;
		bool is_compatible = is_cookie_of(state, c->queued[q], &cookie);

		for (int r = 0; r < running_count && is_compatible; r++)
			is_compatible = running[r] == cookie;
		if (is_compatible)
			return false;
	}
	return c->queued_count > 0;
}

/* Count @length as known time of the core's CPUs; true when an idle one has work. */
static bool count_known(struct ca_forcedidle *fi, const struct ca_state *state, int core,
			uint64_t length)
{
	bool has_waiting_idle = false;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_cpu *c = &state->cpus[cpu];

		if (c->run != CA_CPU_UNKNOWN)
			fi->per_cpu_known_ns[cpu] += length;
		has_waiting_idle |= c->run == CA_CPU_IDLE && c->queued_count;
	}
	return has_waiting_idle;
}

/* The cookies the core's CPUs run; *has_unknown when one of them is not known. */
static int running_cookies(const struct ca_state *state, int core, uint64_t *running,
			   bool *has_unknown)
{
	int running_count = 0;

	*has_unknown = false;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];

		if (state->cpus[cpu].run == CA_CPU_TASK) {
			const struct ca_task *task = ca_state_cpu_task(state, cpu);

			running[running_count++] = task->cookie;
			*has_unknown |= !task->is_cookie_known;
		}
	}
	return running_count;
}

bool ca_forcedidle_is_forced(const struct ca_state *state, int core, int cpu)
{
	const struct ca_cpu *c = &state->cpus[cpu];
	uint64_t running[CA_MAX_SIBLINGS];
	int running_count;
	bool has_unknown;

	if (c->run != CA_CPU_IDLE || !c->queued_count)
		return false;
	running_count = running_cookies(state, core, running, &has_unknown);
	if (!running_count || running_count == state->topo.sibling_count[core])
		return false;
	return has_unknown || is_forced_idle(state, c, running, running_count);
}

static void account_interval(struct ca_forcedidle *fi, const struct ca_state *state, int core,
			     uint64_t from, uint64_t to)
{
	if (!count_known(fi, state, core, to - from))
		return;		/* the common case: no idle CPU has work */
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		const struct ca_cpu *c = &state->cpus[cpu];

		if (!ca_forcedidle_is_forced(state, core, cpu))
			continue;
		fi->per_cpu_ns[cpu] += to - from;
		for (int q = 0; q < c->queued_count; q++)
			starve(fi, c->queued[q], cpu, from, to);
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

static void fi_event(struct ca_check *check, const struct ca_state *state,
		     const struct ca_event *ev)
{
	ca_kernelfi_event(to_fi(check)->kernel, state, ev);
}

static void fi_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_forcedidle *fi = to_fi(check);

	for (uint32_t i = 0; i < fi->task_count; i++) {
		const struct ca_task *task = ca_tasks_lookup(&state->tasks,
							   fi->tasks[i].pid);

		if (task)
			memcpy(fi->tasks[i].comm, task->comm, CA_COMM_LEN);
	}
}

/* Tables per CPU and per core, as many as the state has. */
static int fi_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_forcedidle *fi = to_fi(check);
	int cores = state->topo.core_count;

	fi->cpu_count = state->cpu_count;
	fi->core_last_ts = calloc(cores, sizeof(*fi->core_last_ts));
	fi->has_core_last = calloc(cores, sizeof(*fi->has_core_last));
	fi->per_cpu_ns = calloc(fi->cpu_count, sizeof(*fi->per_cpu_ns));
	fi->per_cpu_known_ns = calloc(fi->cpu_count, sizeof(*fi->per_cpu_known_ns));
	if (!fi->core_last_ts || !fi->has_core_last || !fi->per_cpu_ns || !fi->per_cpu_known_ns)
		return -ENOMEM;
	return ca_kernelfi_size(fi->kernel, fi->cpu_count, cores);
}

int ca_forcedidle_init(struct ca_forcedidle *fi)
{
	memset(fi, 0, sizeof(*fi));
	fi->kernel = ca_kernelfi_new(charge_task, fi);
	if (!fi->kernel)
		return -ENOMEM;
	fi->base.name = "forced-idle";
	fi->base.setup = fi_setup;
	fi->base.advance = fi_advance;
	fi->base.finish = fi_finish;
	fi->base.event = fi_event;
	ca_pidmap_init(&fi->map);
	return 0;
}

void ca_forcedidle_free(struct ca_forcedidle *fi)
{
	ca_kernelfi_free(fi->kernel);
	fi->kernel = NULL;
	free(fi->core_last_ts);
	free(fi->has_core_last);
	free(fi->per_cpu_ns);
	free(fi->per_cpu_known_ns);
	fi->core_last_ts = NULL;
	fi->has_core_last = NULL;
	fi->per_cpu_ns = NULL;
	fi->per_cpu_known_ns = NULL;
	ca_pidmap_free(&fi->map);
	free(fi->tasks);
	fi->tasks = NULL;
	fi->task_count = 0;
}

uint64_t ca_forcedidle_charged(const struct ca_forcedidle *fi, int pid)
{
	int64_t index = ca_pidmap_get(&fi->map, pid);

	return index >= 0 ? fi->tasks[index].kernel_ns : 0;
}
