/*
 * accounting.c - the kernel's own forced-idle figure per task against what
 * the trace implies (accounting.h says how and how exactly).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/accounting.h"
#include "state/identity.h"
#include "util/grow.h"
#include "util/longest.h"

static struct ca_accounting *to_acc(struct ca_check *check)
{
	return (struct ca_accounting *)check;
}

/* "coreaudit-kfi pid=P forceidle_ns=N": false for any other marker. */
static bool parse_sample(const char *text, int *pid, uint64_t *ns)
{
	char value[32];
	char *end;
	long long number;

	if (strncmp(text, "coreaudit-kfi ", 14) ||
	    ca_marker_field(text, "pid", value, sizeof(value)) <= 0)
		return false;
	number = strtoll(value, &end, 10);
	if (*end || number <= 0 || number >= CA_PID_LIMIT)
		return false;
	*pid = (int)number;
	if (ca_marker_field(text, "forceidle_ns", value, sizeof(value)) <= 0)
		return false;
	errno = 0;
	*ns = strtoull(value, &end, 10);
	return !*end && !errno && value[0] >= '0' && value[0] <= '9';
}

static struct ca_account_task *task_of(struct ca_accounting *acc, int pid)
{
	int64_t index = ca_pidmap_get(&acc->map, pid);
	size_t capacity = acc->task_capacity;
	struct ca_account_task *task;

	if (index >= 0)
		return &acc->tasks[index];
	if (ca_grow(&acc->tasks, acc->task_count, &capacity, sizeof(*acc->tasks)))
		return NULL;
	acc->task_capacity = (uint32_t)capacity;
	if (ca_pidmap_put(&acc->map, pid, acc->task_count))
		return NULL;
	task = &acc->tasks[acc->task_count++];
	memset(task, 0, sizeof(*task));
	task->pid = pid;
	return task;
}

static void acc_event(struct ca_check *check, const struct ca_state *state,
		      const struct ca_event *ev)
{
	struct ca_accounting *acc = to_acc(check);
	struct ca_account_task *task;
	struct ca_kfi_sample sample = { .ts = ev->ts };
	int pid;

	(void)state;
	if (ev->kind != CA_EV_MARKER || !parse_sample(ev->marker, &pid, &sample.kernel_ns))
		return;
	acc->markers++;
	task = task_of(acc, pid);
	if (!task) {
		check->error = -ENOMEM;
		return;
	}
	sample.model_ns = ca_forcedidle_charged(acc->fi, pid);
	if (!task->samples++)
		task->first = sample;
	task->last = sample;
}

static uint64_t difference_of(const void *item)
{
	const struct ca_account_result *r = item;

	return r->kernel_ns > r->model_ns ? r->kernel_ns - r->model_ns :
	       r->model_ns - r->kernel_ns;
}

/* Whether the two figures of @r differ beyond what the model's error allows. */
static bool is_finding(const struct ca_accounting *acc, const struct ca_account_result *r)
{
	uint64_t larger = r->kernel_ns > r->model_ns ? r->kernel_ns : r->model_ns;
	uint64_t difference = difference_of(r);

	return difference > CA_ACCOUNTING_FLOOR_NS &&
	       (double)difference > acc->max_error_pct / 100.0 * (double)larger;
}

/*
 * Whether a CPU was unobserved in [@from, @to]: the model charged nothing
 * there while the kernel went on counting (the task may have run anywhere).
 */
static bool is_unobserved(const struct ca_state *state, uint64_t from, uint64_t to)
{
	for (int core = 0; core < state->topo.core_count; core++)
		if (ca_state_core_unobserved(state, core, from, to, false))
			return true;
	return false;
}

static void acc_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_accounting *acc = to_acc(check);
	bool has_gaps = is_unobserved(state, state->first_ts, end_ts);

	for (uint32_t i = 0; i < acc->task_count; i++) {
		const struct ca_account_task *task = &acc->tasks[i];
		struct ca_account_result r = { .pid = task->pid, .from_ns = task->first.ts,
					       .to_ns = task->last.ts };

		if (task->samples < 2 || task->last.kernel_ns < task->first.kernel_ns)
			continue;
		if (has_gaps && is_unobserved(state, r.from_ns, r.to_ns)) {
			acc->unknown++;
			continue;
		}
		r.kernel_ns = task->last.kernel_ns - task->first.kernel_ns;
		r.model_ns = task->last.model_ns - task->first.model_ns;
		r.is_finding = is_finding(acc, &r);
		acc->compared++;
		acc->finding_count += r.is_finding;
		ca_keep_longest(acc->list, &acc->listed, CA_ACCOUNTING_LIST, sizeof(acc->list[0]),
				&r, difference_of);
	}
}

void ca_accounting_init(struct ca_accounting *acc, const struct ca_forcedidle *fi,
			double max_error_pct)
{
	memset(acc, 0, sizeof(*acc));
	acc->base.name = "accounting";
	acc->base.event = acc_event;
	acc->base.finish = acc_finish;
	acc->fi = fi;
	acc->max_error_pct = max_error_pct;
	ca_pidmap_init(&acc->map);
}

void ca_accounting_free(struct ca_accounting *acc)
{
	ca_pidmap_free(&acc->map);
	free(acc->tasks);
	acc->tasks = NULL;
}
