/*
 * identity.c - what decides whether two tasks may share a core: the kernel
 * cookie (from the cs_switch probe, else rebuilt from prctl(PR_SCHED_CORE)
 * calls and fork inheritance, plus coreaudit-cookie markers), or a declared
 * tag (coreaudit-tag markers, inherited on fork).  Beside a tag, the task's
 * kernel cookie still tells whether the kernel was asked to keep it apart.
 *
 * A task whose cookie was never learned is unknown, not 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/identity.h"

static void raise_source(struct ca_state *state, enum ca_cookie_source source)
{
	if (source > state->cookie_source)
		state->cookie_source = source;
}

/* An observed cookie (probe, marker), as opposed to one a prctl assigns. */
static void set_cookie(struct ca_task *task, uint64_t cookie)
{
	task->cookie = cookie;
	task->is_cookie_known = true;
	if (!task->has_first_cookie && !task->is_prctl_touched) {
		task->has_first_cookie = true;
		task->first_cookie = cookie;
	}
}

void ca_identity_apply_probe(struct ca_state *state, int prev_pid, uint64_t prev_cookie,
			     int next_pid, uint64_t next_cookie, uint64_t ran_from, uint64_t ts)
{
	struct ca_task *task;

	raise_source(state, CA_COOKIES_PROBE);
	task = prev_pid > 0 ? ca_tasks_find(&state->tasks, prev_pid) : NULL;
	if (task && ran_from && task->has_probe_in && task->probe_in != prev_cookie) {
		task->run_change_from = ran_from;
		task->run_change_to = ts;
	}
	if (task)
		set_cookie(task, prev_cookie);
	task = next_pid > 0 ? ca_tasks_find(&state->tasks, next_pid) : NULL;
	if (task) {
		set_cookie(task, next_cookie);
		task->has_probe_in = true;
		task->probe_in = next_cookie;
	}
}

/* A probe whose switch was not seen (lost, or cut at the trace start). */
static int prepare_unpaired_probe(struct ca_state *state, const struct ca_event *ev,
				  struct ca_identity_change *change)
{
	if (!ca_tasks_get(&state->tasks, ev->cookie.prev_pid) ||
	    !ca_tasks_get(&state->tasks, ev->cookie.next_pid))
		return -ENOMEM;
	change->kind = CA_IDENTITY_CHANGE_PROBE;
	change->probe = ev->cookie;
	return 1;
}

void ca_identity_inherit(struct ca_state *state, const struct ca_task *parent,
			 struct ca_task *child)
{
	if (!parent)
		return;
	child->tag = parent->tag;
	child->is_cookie_known = parent->is_cookie_known;
	child->cookie = parent->cookie;
}

bool ca_state_first_identity(const struct ca_state *state, const struct ca_task *task,
			     uint64_t *value)
{
	if (state->identity == CA_IDENTITY_COOKIE && task->has_first_cookie) {
		*value = task->first_cookie;
		return true;
	}
	if (state->identity == CA_IDENTITY_COOKIE && task->is_prctl_touched) {
		*value = 0;
		return state->assume_unknown_cookie_zero;
	}
	return ca_state_identity(state, task, value);
}

bool ca_state_identity(const struct ca_state *state, const struct ca_task *task,
		       uint64_t *value)
{
	if (state->identity == CA_IDENTITY_TAG) {
		*value = (uint64_t)task->tag;
		return true;
	}
	if (task->is_cookie_known) {
		*value = task->cookie;
		return true;
	}
	*value = 0;
	return state->assume_unknown_cookie_zero;
}

bool ca_state_kernel_cookie(const struct ca_state *state, const struct ca_task *task,
			    uint64_t *cookie)
{
	*cookie = 0;
	if (state->cookie_source == CA_COOKIES_NONE)
		return false;
	if (task->is_cookie_known) {
		*cookie = task->cookie;
		return true;
	}
	return state->assume_unknown_cookie_zero;
}

/* prctl(PR_SCHED_CORE) ------------------------------------------------------- */

static struct ca_pending_prctl *pending_slot(struct ca_state *state, int pid)
{
	struct ca_pending_prctl *free_slot = NULL;

	for (int i = 0; i < CA_MAX_PENDING_PRCTL; i++) {
		if (state->pending[i].pid == pid)
			return &state->pending[i];
		if (!state->pending[i].pid && !free_slot)
			free_slot = &state->pending[i];
	}
	return free_slot;
}

void ca_identity_prctl_enter(struct ca_state *state, const struct ca_event *ev)
{
	struct ca_pending_prctl *slot;

	if (ev->prctl.option != CA_PR_SCHED_CORE || ev->pid <= 0)
		return;
	slot = pending_slot(state, ev->pid);
	if (!slot)
		return;
	state->pending_count += !slot->pid;
	slot->pid = ev->pid;
	slot->enter_ts = ev->ts;
	slot->call = ev->prctl;
}

bool ca_state_cookie_in_flight(const struct ca_state *state, int pid)
{
	for (int i = 0; state->pending_count && i < CA_MAX_PENDING_PRCTL; i++) {
		const struct ca_pending_prctl *p = &state->pending[i];
		int target = p->call.arg3 ? (int)p->call.arg3 : p->pid;

		if (!p->pid || p->call.arg2 == CA_PR_SCHED_CORE_GET)
			continue;
		if (p->pid == pid || target == pid)
			return true;
	}
	return false;
}

/* The kernel changed @task's cookie at some instant of [from, to]. */
static void mark_change(struct ca_task *task, uint64_t from, uint64_t to)
{
	task->is_prctl_touched = true;
	task->cookie_change_from = from;
	task->cookie_change_to = to;
}

/* Set @cookie on the tasks @scope names around @target. */
static void set_scope_cookie(struct ca_state *state, struct ca_task *target, int scope,
			     bool is_known, uint64_t cookie, uint64_t from, uint64_t to)
{
	if (scope == CA_SCOPE_PROCESS_GROUP)
		state->prctl_group_scope_calls++;
	for (uint32_t i = 0; i < state->tasks.count; i++) {
		struct ca_task *task = &state->tasks.items[i];
		bool is_in_scope = task == target ||
				   (scope != CA_SCOPE_THREAD && task->tgid == target->tgid);

		if (!is_in_scope || task->pid == 0)
			continue;
		mark_change(task, from, to);
		task->is_cookie_known = is_known;
		task->cookie = is_known ? cookie : 0;
	}
}

static int prepare_prctl(struct ca_state *state, int caller_pid, const struct ca_prctl *call,
			 uint64_t from, struct ca_identity_change *change)
{
	int target_pid = call->arg3 ? (int)call->arg3 : caller_pid;

	if (call->arg3 < 0 || call->arg3 >= CA_PID_LIMIT || caller_pid <= 0)
		return 0;	/* no task has that pid: a damaged event (the kernel says ESRCH) */
	if (!ca_tasks_get(&state->tasks, caller_pid) || !ca_tasks_get(&state->tasks, target_pid))
		return -ENOMEM;
	state->prctl_calls++;
	change->kind = CA_IDENTITY_CHANGE_PRCTL;
	change->pid = caller_pid;
	change->target_pid = target_pid;
	change->call = *call;
	change->from = from;
	return 1;
}

static void commit_prctl(struct ca_state *state, const struct ca_identity_change *change)
{
	struct ca_task *caller = ca_tasks_find(&state->tasks, change->pid);
	struct ca_task *target = ca_tasks_find(&state->tasks, change->target_pid);
	int scope = (int)change->call.arg4;

	switch (change->call.arg2) {
	case CA_PR_SCHED_CORE_CREATE:
		set_scope_cookie(state, target, scope, true, state->next_prctl_cookie++,
				 change->from, change->ts);
		break;
	case CA_PR_SCHED_CORE_SHARE_TO:
		set_scope_cookie(state, target, scope, caller->is_cookie_known, caller->cookie,
				 change->from, change->ts);
		break;
	case CA_PR_SCHED_CORE_SHARE_FROM:
		mark_change(caller, change->from, change->ts);
		caller->is_cookie_known = target->is_cookie_known;
		caller->cookie = target->cookie;
		break;
	default:
		break;
	}
}

static int prepare_prctl_exit(struct ca_state *state, const struct ca_event *ev,
			      struct ca_identity_change *change)
{
	struct ca_pending_prctl *slot = pending_slot(state, ev->pid);
	struct ca_prctl call;
	uint64_t from;

	if (!slot || slot->pid != ev->pid || ev->pid <= 0)
		return 0;
	call = slot->call;
	from = slot->enter_ts;
	slot->pid = 0;
	state->pending_count--;
	raise_source(state, CA_COOKIES_PRCTL);
	if (ev->prctl_ret != 0 || call.arg2 == CA_PR_SCHED_CORE_GET)
		return 0;
	return prepare_prctl(state, ev->pid, &call, from, change);
}

/* Markers -------------------------------------------------------------------- */

int ca_marker_field(const char *text, const char *key, char *value, int len)
{
	size_t key_len = strlen(key);
	const char *pos = text;

	while ((pos = strstr(pos, key))) {
		bool at_word = pos == text || pos[-1] == ' ';

		pos += key_len;
		if (!at_word || *pos != '=')
			continue;
		pos++;
		int n = (int)strcspn(pos, " \t\r\n");

		if (n >= len)
			return -1;
		memcpy(value, pos, n);
		value[n] = '\0';
		return n;
	}
	return -1;
}

static int marker_pid(const char *text)
{
	char value[16];
	char *end;
	long pid;

	if (ca_marker_field(text, "pid", value, sizeof(value)) <= 0)
		return -1;
	pid = strtol(value, &end, 10);
	return *end || pid <= 0 || pid >= CA_PID_LIMIT ? -1 : (int)pid;
}

static int prepare_tag_marker(struct ca_state *state, const struct ca_event *ev,
			      struct ca_identity_change *change)
{
	char name[64];
	int pid = marker_pid(ev->marker);
	int tag;

	if (pid < 0 || ca_marker_field(ev->marker, "tag", name, sizeof(name)) <= 0)
		return 0;
	tag = ca_tasks_tag_id(&state->tasks, name);
	if (tag < 0)
		return tag;
	if (!ca_tasks_get(&state->tasks, pid))
		return -ENOMEM;
	change->kind = CA_IDENTITY_CHANGE_TAG;
	change->pid = pid;
	change->tag = tag;
	return 1;
}

static int prepare_cookie_marker(struct ca_state *state, const struct ca_event *ev,
				 struct ca_identity_change *change)
{
	char value[32];
	int pid = marker_pid(ev->marker);
	unsigned long long cookie;
	char *end;

	if (pid < 0 || ca_marker_field(ev->marker, "cookie", value, sizeof(value)) <= 0)
		return 0;
	cookie = strtoull(value, &end, 0);
	if (*end)
		return 0;
	if (!ca_tasks_get(&state->tasks, pid))
		return -ENOMEM;
	raise_source(state, CA_COOKIES_MARKERS);
	change->kind = CA_IDENTITY_CHANGE_COOKIE;
	change->pid = pid;
	change->cookie = cookie;
	return 1;
}

int ca_identity_prepare(struct ca_state *state, const struct ca_event *ev,
			struct ca_identity_change *change)
{
	change->ts = ev->ts;
	switch (ev->kind) {
	case CA_EV_PRCTL_EXIT:
		return prepare_prctl_exit(state, ev, change);
	case CA_EV_COOKIE:
		return prepare_unpaired_probe(state, ev, change);
	case CA_EV_MARKER:
		if (!strncmp(ev->marker, "coreaudit-tag ", 14))
			return prepare_tag_marker(state, ev, change);
		if (!strncmp(ev->marker, "coreaudit-cookie ", 17))
			return prepare_cookie_marker(state, ev, change);
		return 0;
	default:
		return 0;
	}
}

void ca_identity_commit(struct ca_state *state, const struct ca_identity_change *change)
{
	switch (change->kind) {
	case CA_IDENTITY_CHANGE_TAG:
		ca_tasks_find(&state->tasks, change->pid)->tag = change->tag;
		break;
	case CA_IDENTITY_CHANGE_COOKIE:
		set_cookie(ca_tasks_find(&state->tasks, change->pid), change->cookie);
		break;
	case CA_IDENTITY_CHANGE_PRCTL:
		commit_prctl(state, change);
		break;
	case CA_IDENTITY_CHANGE_PROBE:
		ca_identity_apply_probe(state, change->probe.prev_pid, change->probe.prev_cookie,
					change->probe.next_pid, change->probe.next_cookie, 0,
					change->ts);
		break;
	}
}
