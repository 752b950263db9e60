/*
 * exposure.c - a CPU in the kernel for one identity beside another's task
 * (exposure.h): its time per ordered pair and by what, and the longest
 * unbroken windows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/exposure.h"
#include "state/state.h"
#include "util/grow.h"
#include "util/longest.h"

static struct ca_exposure *to_exposure(struct ca_check *check)
{
	return (struct ca_exposure *)check;
}

/* The syscall @pid is in, if any; with @is_added, made for a pid not seen yet. */
static struct ca_exposure_syscall *syscall_of(struct ca_exposure *exp, int pid, bool is_added)
{
	int64_t index = pid > 0 ? ca_pidmap_get(&exp->syscall_map, pid) : -1;

	if (index >= 0)
		return &exp->syscalls[index];
	if (!is_added || pid <= 0 || pid >= CA_PID_LIMIT)
		return NULL;
	if (ca_grow(&exp->syscalls, exp->syscall_count, &exp->syscall_room,
		    sizeof(*exp->syscalls)) ||
	    ca_pidmap_put(&exp->syscall_map, pid, (uint32_t)exp->syscall_count)) {
		exp->base.error = -ENOMEM;
		return NULL;
	}
	exp->syscalls[exp->syscall_count] = (struct ca_exposure_syscall){ 0 };
	return &exp->syscalls[exp->syscall_count++];
}

/*
 * What @cpu is in the kernel for now (-1: nothing): an interrupt (*@inside
 * unset), or its task's syscall (*@inside its identity, when *@is_known);
 * *@pid the task running there, 0 idle.
 */
static int in_kernel(struct ca_exposure *exp, const struct ca_state *state, int cpu, int *pid,
		     uint64_t *inside, int64_t *number, bool *is_known)
{
	const struct ca_exposure_cpu *k = &exp->cpus[cpu];
	const struct ca_task *task = ca_state_cpu_task(state, cpu);
	const struct ca_exposure_syscall *syscall;

	*pid = task ? task->pid : 0;
	*inside = 0;
	*is_known = true;
	if (state->cpus[cpu].run == CA_CPU_UNKNOWN)
		return -1;
	if (k->irq_depth || k->softirq_depth) {
		*number = k->irq_depth ? k->irq : k->vec;
		return k->irq_depth ? CA_KERNEL_IRQ : CA_KERNEL_SOFTIRQ;
	}
	syscall = task ? syscall_of(exp, task->pid, false) : NULL;
	if (!syscall || !syscall->is_in)
		return -1;
	*is_known = ca_state_identity(state, task, inside);
	*number = syscall->number;
	return CA_KERNEL_SYSCALL;
}

/* Whether a sibling of @cpu is unobserved, or runs a task whose identity is not known. */
static bool is_unknown_beside(const struct ca_state *state, int core, int cpu)
{
	uint64_t value;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int sibling = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, sibling);

		if (sibling != cpu && (state->cpus[sibling].run == CA_CPU_UNKNOWN ||
				       (task && !ca_state_identity(state, task, &value))))
			return true;
	}
	return false;
}

static uint32_t identity_index(struct ca_exposure *exp, uint64_t value)
{
	int64_t index = ca_keymap_get(&exp->identity_map, value);

	if (index >= 0)
		return (uint32_t)index;
	if (ca_keymap_put(&exp->identity_map, value, (uint32_t)exp->identity_count))
		exp->base.error = -ENOMEM;
	return (uint32_t)exp->identity_count++;
}

static struct ca_exposure_pair *pair_of(struct ca_exposure *exp, bool is_interrupt,
				       uint64_t inside, uint64_t beside)
{
	uint32_t in = is_interrupt ? UINT32_MAX : identity_index(exp, inside);
	uint64_t key = ca_keymap_pair(in, identity_index(exp, beside));
	int64_t index = ca_keymap_get(&exp->pair_map, key);
	struct ca_exposure_pair *pair;

	if (index >= 0)
		return &exp->pairs[index];
	if (ca_grow(&exp->pairs, exp->pair_count, &exp->pair_room, sizeof(*exp->pairs)) ||
	    ca_keymap_put(&exp->pair_map, key, (uint32_t)exp->pair_count)) {
		exp->base.error = -ENOMEM;
		return NULL;
	}
	pair = &exp->pairs[exp->pair_count++];
	memset(pair, 0, sizeof(*pair));
	pair->is_interrupt = is_interrupt;
	pair->inside = inside;
	pair->beside = beside;
	return pair;
}

/*
 * The first sibling of @cpu from place @from on running a task of an identity
 * other than @inside (any identity beside an interrupt, @is_interrupt); -1: none.
 */
static int beside_cpu(const struct ca_state *state, int core, int cpu, bool is_interrupt,
		      uint64_t inside, int from, uint64_t *beside)
{
	for (int i = from; i < state->topo.sibling_count[core]; i++) {
		int sibling = state->topo.siblings[core][i];
		const struct ca_task *task = ca_state_cpu_task(state, sibling);

		if (sibling != cpu && task && ca_state_identity(state, task, beside) &&
		    (is_interrupt || *beside != inside))
			return i;
	}
	return -1;
}

enum { ITEM_IN_KERNEL, ITEM_EXPOSED, ITEM_UNKNOWN, ITEM_PAIR };

static void add_item(struct ca_exposure *exp, struct ca_settle *q, struct ca_exposure_item item)
{
	if (ca_settle_add(q, &item))
		exp->base.error = -ENOMEM;
}

/* @cpu's state, constant over the core's newest interval: its items, per sibling beside it. */
static void account_cpu(struct ca_exposure *exp, const struct ca_state *state, int core, int cpu)
{
	struct ca_settle *c = &exp->waiting[core];
	uint64_t inside, beside;
	int64_t number;
	bool is_known;
	int pid, what = in_kernel(exp, state, cpu, &pid, &inside, &number, &is_known);
	bool is_interrupt = what != CA_KERNEL_SYSCALL, is_exposed = false;

	if (what < 0)
		return;
	add_item(exp, c, (struct ca_exposure_item){ .kind = ITEM_IN_KERNEL, .what = what });
	/* Beside whom, not (all) known. */
	if (!is_known || is_unknown_beside(state, core, cpu))
		add_item(exp, c, (struct ca_exposure_item){ .kind = ITEM_UNKNOWN, .what = what });
	if (!is_known)
		return;
	for (int i = beside_cpu(state, core, cpu, is_interrupt, inside, 0, &beside); i >= 0;
	     i = beside_cpu(state, core, cpu, is_interrupt, inside, i + 1, &beside)) {
		add_item(exp, c, (struct ca_exposure_item){ ITEM_PAIR, what, is_interrupt,
							    is_interrupt ? 0 : inside, beside });
		is_exposed = true;
	}
	if (is_exposed)
		add_item(exp, c, (struct ca_exposure_item){ .kind = ITEM_EXPOSED, .what = what });
}

/* An item settled: its figure grows by the observed part of its interval. */
static void apply_item(void *ctx, const void *it, uint64_t observed, uint64_t length,
		       const struct ca_settle_interval *in)
{
	struct ca_exposure *exp = ctx;
	const struct ca_exposure_item *item = it;
	struct ca_exposure_pair *pair;

	(void)length;
	(void)in;
	switch (item->kind) {
	case ITEM_IN_KERNEL:
		exp->in_kernel_ns[item->what] += observed;
		break;
	case ITEM_EXPOSED:
		exp->exposed_ns[item->what] += observed;
		break;
	case ITEM_UNKNOWN:
		exp->unknown_ns += observed;
		break;
	default:
		pair = observed ? pair_of(exp, item->is_interrupt, item->inside, item->beside) :
		       NULL;
		if (pair) {
			pair->ns[item->what] += observed;
			pair->total_ns += observed;
		}
	}
}

static uint64_t window_length(const void *item)
{
	const struct ca_exposure_window *w = item;

	return w->end - w->start;
}

static void close_window(struct ca_exposure *exp, struct ca_exposure_cpu *k)
{
	if (!k->is_open)
		return;
	k->is_open = false;
	if (k->open.end <= k->open.start)
		return;
	exp->window_count++;
	ca_keep_longest(exp->list, &exp->listed, exp->list_capacity, sizeof(*exp->list), &k->open,
			window_length);
}

/* After a change at @ts: @cpu's window goes on, closes, or opens (a new what, task or sibling). */
static void refresh_window(struct ca_exposure *exp, const struct ca_state *state, int core,
			   int cpu, uint64_t ts)
{
	struct ca_exposure_cpu *k = &exp->cpus[cpu];
	struct ca_exposure_window now = { .cpu = cpu, .start = ts, .end = ts };
	bool is_known;
	int what = in_kernel(exp, state, cpu, &now.pid, &now.inside, &now.number, &is_known);
	int i = -1;

	now.is_interrupt = what != CA_KERNEL_SYSCALL;
	if (what >= 0 && is_known)
		i = beside_cpu(state, core, cpu, now.is_interrupt, now.inside, 0, &now.beside);
	if (i >= 0) {
		now.what = (enum ca_kernel_what)what;
		now.beside_cpu = state->topo.siblings[core][i];
		now.beside_pid = ca_state_cpu_task(state, now.beside_cpu)->pid;
	}
	if (k->is_open && i >= 0 && k->open.what == now.what && k->open.pid == now.pid &&
	    k->open.number == now.number && k->open.beside_pid == now.beside_pid)
		return;
	close_window(exp, k);
	if (i < 0)
		return;
	k->open = now;
	k->is_open = true;
}

/* [@from, @to) on @core: an interval waiting, with the items of its CPUs' state. */
static void account_core(struct ca_exposure *exp, const struct ca_state *state, int core,
			 uint64_t from, uint64_t to)
{
	if (ca_settle_begin(&exp->waiting[core], from, to)) {
		exp->base.error = -ENOMEM;
		return;
	}
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		account_cpu(exp, state, core, state->topo.siblings[core][i]);
	ca_settle_end(&exp->waiting[core]);
}

static void exposure_advance(struct ca_check *check, const struct ca_state *state, int core,
			     uint64_t ts)
{
	struct ca_exposure *exp = to_exposure(check);
	uint64_t last, until;

	if (!ca_settle_advance(&exp->waiting[core], state, core, ts, apply_item, exp, &last))
		return;
	account_core(exp, state, core, last, ts);
	/* Windows: a CPU whose last stretch turned out unobserved, known to its start. */
	until = ca_state_core_known_until(state, core, last, ts);
	for (int i = 0; until > last && i < state->topo.sibling_count[core]; i++)
		if (exp->cpus[state->topo.siblings[core][i]].is_open)
			exp->cpus[state->topo.siblings[core][i]].open.end = until;
}

static void exposure_update(struct ca_check *check, const struct ca_state *state, int core,
			    uint64_t ts, unsigned int changes)
{
	(void)changes;
	for (int i = 0; i < state->topo.sibling_count[core]; i++)
		refresh_window(to_exposure(check), state, core, state->topo.siblings[core][i], ts);
}

/* An irq, softirq or syscall entered or left: what the CPU (or the task) is in now. */
static void apply_kernel(struct ca_exposure *exp, const struct ca_event *ev, bool is_audited)
{
	const struct ca_kernel_entry *kernel = &ev->kernel;
	struct ca_exposure_cpu *k = is_audited ? &exp->cpus[ev->cpu] : NULL;
	struct ca_exposure_syscall *syscall;

	exp->events++;
	if (kernel->what == CA_KERNEL_SYSCALL) {
		syscall = syscall_of(exp, ev->pid, true);
		if (syscall) {
			syscall->is_in = kernel->is_entry;
			syscall->number = kernel->number;
		}
	} else if (k && kernel->what == CA_KERNEL_IRQ) {
		k->irq_depth += kernel->is_entry ? 1 : k->irq_depth > 0 ? -1 : 0;
		k->irq = kernel->number;
	} else if (k) {
		k->softirq_depth = kernel->is_entry;	/* softirqs do not nest */
		k->vec = kernel->number;
	}
}

/*
 * Lost events on @cpu: whatever it was in is not known, nor whether the task
 * last seen there left its syscall in the gap.
 */
static void forget_kernel(struct ca_exposure *exp, int cpu)
{
	struct ca_exposure_syscall *syscall = syscall_of(exp, exp->cpus[cpu].last_pid, false);

	exp->cpus[cpu].irq_depth = 0;
	exp->cpus[cpu].softirq_depth = 0;
	if (syscall)
		syscall->is_in = false;
}

/* What the kernel is in on @ev's CPU (or a task's syscall) changes: the hooks around it. */
static void exposure_event(struct ca_check *check, const struct ca_state *state,
			   const struct ca_event *ev)
{
	struct ca_exposure *exp = to_exposure(check);
	int core = ca_topology_core_of(&state->topo, ev->cpu);
	struct ca_exposure_syscall *syscall = NULL;

	if (ev->kind == CA_EV_EXIT)	/* it leaves a syscall it never returns from */
		syscall = syscall_of(exp, ev->task.pid, false);
	if (ev->kind != CA_EV_KERNEL && !(syscall && syscall->is_in) &&
	    !(ev->kind == CA_EV_LOST && core >= 0)) {
		if (core >= 0 && ev->kind != CA_EV_LOST)	/* the task current there now */
			exp->cpus[ev->cpu].last_pid = ev->kind == CA_EV_SWITCH ? ev->sw.next_pid :
						      ev->pid;
		return;
	}
	if (core >= 0)
		exposure_advance(check, state, core, ev->ts);
	if (ev->kind == CA_EV_KERNEL)
		apply_kernel(exp, ev, core >= 0);
	else if (ev->kind == CA_EV_LOST)
		forget_kernel(exp, ev->cpu);
	else
		syscall->is_in = false;
	if (core >= 0) {
		exposure_update(check, state, core, ev->ts, 0);
		exp->cpus[ev->cpu].last_pid = ev->kind == CA_EV_LOST ? 0 : ev->pid;
	}
}

static void exposure_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	struct ca_exposure *exp = to_exposure(check);

	(void)end_ts;
	for (int core = 0; core < exp->core_count; core++)
		ca_settle_run(&exp->waiting[core], state, core, true, apply_item, exp);
	for (size_t cpu = 0; cpu < exp->cpu_count; cpu++)
		close_window(exp, &exp->cpus[cpu]);
}

static int exposure_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_exposure *exp = to_exposure(check);

	exp->cpu_count = state->cpu_count;
	exp->cpus = calloc(exp->cpu_count, sizeof(*exp->cpus));
	exp->core_count = state->topo.core_count;
	exp->waiting = calloc(exp->core_count, sizeof(*exp->waiting));
	for (int core = 0; exp->waiting && core < exp->core_count; core++)
		ca_settle_init(&exp->waiting[core], sizeof(struct ca_exposure_item));
	return exp->cpus && exp->waiting ? 0 : -ENOMEM;
}

int ca_exposure_init(struct ca_exposure *exp, size_t list_limit)
{
	memset(exp, 0, sizeof(*exp));
	exp->base.name = "exposure";
	exp->base.setup = exposure_setup;
	exp->base.advance = exposure_advance;
	exp->base.update = exposure_update;
	exp->base.event = exposure_event;
	exp->base.finish = exposure_finish;
	ca_pidmap_init(&exp->syscall_map);
	ca_keymap_init(&exp->pair_map);
	ca_keymap_init(&exp->identity_map);
	exp->list_capacity = list_limit && list_limit < CA_EXPOSURE_LISTED ? list_limit :
			     CA_EXPOSURE_LISTED;
	exp->list = calloc(exp->list_capacity, sizeof(*exp->list));
	return exp->list ? 0 : -ENOMEM;
}

void ca_exposure_free(struct ca_exposure *exp)
{
	free(exp->cpus);
	for (int core = 0; exp->waiting && core < exp->core_count; core++)
		ca_settle_free(&exp->waiting[core]);
	free(exp->waiting);
	free(exp->syscalls);
	free(exp->pairs);
	free(exp->list);
	ca_pidmap_free(&exp->syscall_map);
	ca_keymap_free(&exp->pair_map);
	ca_keymap_free(&exp->identity_map);
	memset(exp, 0, sizeof(*exp));
}
