/*
 * text.c - the text `trace-cmd report` prints (and tracefs "trace" text), so
 * small fixtures stay readable.  One line, one event:
 *
 *     comm-pid [cpu] [latency] seconds.fraction: event: fields
 *
 * Lines of events coreaudit does not use are skipped; a malformed line of an
 * event it uses is an error naming the file and line.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/source.h"

struct text_source {
	FILE *file;
	int64_t pending_lost[CA_MAX_CPUS];	/* 0 none, < 0 unknown count */
	bool has_pending_lost[CA_MAX_CPUS];
};

/* Parsing helpers ------------------------------------------------------------ */

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* "key=value" anywhere in @fields, as a number (decimal or 0x). */
static int field_number(const char *fields, const char *key, int64_t *value)
{
	size_t key_len = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		bool at_word = p == fields || p[-1] == ' ' || p[-1] == ',';

		p += key_len;
		if (!at_word || (*p != '=' && *p != ':'))
			continue;
		p = skip_blank(p + 1);
		char *end;

		errno = 0;
		*value = (int64_t)strtoull(p, &end, 0);
		if (end == p || errno)
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

static int field_string(const char *fields, const char *key, char *dst, size_t len)
{
	size_t key_len = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		bool at_word = p == fields || p[-1] == ' ';

		p += key_len;
		if (!at_word || *p != '=')
			continue;
		p++;
		size_t n = strcspn(p, " \t\r\n");

		if (n >= len)
			n = len - 1;
		memcpy(dst, p, n);
		dst[n] = '\0';
		return 0;
	}
	return -EINVAL;
}

/* "comm:pid [prio]" as printed by the sched plugin; @end is where it stops. */
static int parse_comm_pid(const char *start, const char *end, char comm[CA_COMM_LEN], int *pid)
{
	const char *colon = NULL;

	for (const char *p = start; p < end; p++)
		if (*p == ':')
			colon = p;
	if (!colon || !isdigit((unsigned char)colon[1]))
		return -EINVAL;
	ca_copy_comm(comm, start, (int)(colon - start));
	*pid = atoi(colon + 1);
	return 0;
}

/*
 * A prev_state string: R or R+ (the kernel's format; preempted).  trace-cmd's
 * sched_switch plugin prints the low 8 bits with "SDTtZXxW": its W is 0x80,
 * TASK_REPORT_IDLE (an idle kernel thread asleep, "I" in the kernel's own
 * format), and a preempted task (0x100) shows as R.
 */
static bool is_runnable_state(const char *state, size_t len)
{
	return len >= 1 && state[0] == 'R';
}

static int parse_switch_plugin(const char *fields, struct ca_switch *sw)
{
	const char *arrow = strstr(fields, " ==> ");
	const char *bracket, *state, *state_end;

	if (!arrow)
		return -EINVAL;
	state_end = arrow;
	state = state_end;
	while (state > fields && state[-1] != ' ')
		state--;
	bracket = strstr(fields, " [");
	if (!bracket || bracket >= state)
		return -EINVAL;
	if (parse_comm_pid(fields, bracket, sw->prev_comm, &sw->prev_pid))
		return -EINVAL;
	sw->prev_prio = atoi(bracket + 2);
	sw->is_prev_runnable = is_runnable_state(state, state_end - state);
	fields = arrow + 5;
	bracket = strstr(fields, " [");
	sw->next_prio = bracket ? atoi(bracket + 2) : 120;
	return parse_comm_pid(fields, bracket ? bracket : fields + strlen(fields),
			      sw->next_comm, &sw->next_pid);
}

static int parse_switch(const char *fields, struct ca_switch *sw)
{
	char state[16];
	int64_t prev_pid, next_pid;

	memset(sw, 0, sizeof(*sw));
	if (strncmp(fields, "prev_comm=", 10))
		return parse_switch_plugin(fields, sw);
	if (field_number(fields, "prev_pid", &prev_pid) ||
	    field_number(fields, "next_pid", &next_pid) ||
	    field_string(fields, "prev_state", state, sizeof(state)) ||
	    field_string(fields, "prev_comm", sw->prev_comm, CA_COMM_LEN) ||
	    field_string(fields, "next_comm", sw->next_comm, CA_COMM_LEN))
		return -EINVAL;
	sw->prev_pid = (int)prev_pid;
	sw->next_pid = (int)next_pid;
	sw->prev_prio = field_number(fields, "prev_prio", &prev_pid) ? 120 : (int)prev_pid;
	sw->next_prio = field_number(fields, "next_prio", &next_pid) ? 120 : (int)next_pid;
	sw->is_prev_runnable = is_runnable_state(state, strlen(state));
	return 0;
}

static int parse_wakeup(const char *fields, struct ca_wakeup *w)
{
	const char *cpu = strstr(fields, "CPU:");
	int64_t value;

	memset(w, 0, sizeof(*w));
	if (!strncmp(fields, "comm=", 5)) {
		if (field_number(fields, "pid", &value))
			return -EINVAL;
		w->pid = (int)value;
		if (field_number(fields, "target_cpu", &value))
			return -EINVAL;
		w->target_cpu = (int)value;
		return field_string(fields, "comm", w->comm, CA_COMM_LEN);
	}
	const char *bracket = strstr(fields, " [");

	if (!cpu || !bracket || parse_comm_pid(fields, bracket, w->comm, &w->pid))
		return -EINVAL;
	w->target_cpu = atoi(cpu + 4);
	return 0;
}

/* "0-1,4" as a bitmask of CPUs 0..63. */
static uint64_t parse_cpu_list(const char *list)
{
	uint64_t mask = 0;

	while (isdigit((unsigned char)*list)) {
		char *end;
		long first = strtol(list, &end, 10), last = first;

		if (*end == '-')
			last = strtol(end + 1, &end, 10);
		for (long cpu = first; cpu <= last && cpu < 64; cpu++)
			mask |= 1ull << cpu;
		list = *end == ',' ? end + 1 : end;
	}
	return mask;
}

/*
 * A reschedule IPI's callsite: named when trace-cmd had a symbol for it (else
 * a bare address), and from __schedule+0x... when it is a core-wide pick's.
 */
static void read_callsite(const char *fields, struct ca_ipi *ipi)
{
	char callsite[128];

	if (field_string(fields, "callsite", callsite, sizeof(callsite)))
		return;
	ipi->is_callsite_known = callsite[0] && !isdigit((unsigned char)callsite[0]);
	ipi->is_from_schedule = !strncmp(callsite, "__schedule+", 11) ||
				!strcmp(callsite, "__schedule");
}

static bool is_null_callback(const char *fields)
{
	char callback[64];

	if (field_string(fields, "callback", callback, sizeof(callback)))
		return false;
	return !strcmp(callback, "0x0") || !strcmp(callback, "0") || !strcmp(callback, "(nil)");
}

static int parse_prctl_enter(const char *fields, struct ca_prctl *call)
{
	if (field_number(fields, "option", &call->option) ||
	    field_number(fields, "arg2", &call->arg2) ||
	    field_number(fields, "arg3", &call->arg3) ||
	    field_number(fields, "arg4", &call->arg4) ||
	    field_number(fields, "arg5", &call->arg5))
		return -EINVAL;
	return 0;
}

static int parse_number(const char *text, int64_t *value)
{
	char *end;

	errno = 0;
	*value = (int64_t)strtoull(text, &end, 0);
	return end == text || errno ? -EINVAL : 0;
}

static void copy_marker(const char *fields, struct ca_event *ev)
{
	/* "tracing_mark_write: text" (the %ps of the ip, then the buffer) */
	const char *text = strstr(fields, ": ");

	text = text ? text + 2 : fields;
	snprintf(ev->marker, CA_MARKER_LEN, "%s", text);
	ev->marker[strcspn(ev->marker, "\r\n")] = '\0';
}

static int parse_cookie_probe(const char *fields, struct ca_cookie_probe *probe)
{
	int64_t prev_pid, next_pid, prev_cookie, next_cookie;

	if (field_number(fields, "prev_pid", &prev_pid) ||
	    field_number(fields, "next_pid", &next_pid) ||
	    field_number(fields, "prev_cookie", &prev_cookie) ||
	    field_number(fields, "next_cookie", &next_cookie))
		return -EINVAL;
	probe->prev_pid = (int)prev_pid;
	probe->next_pid = (int)next_pid;
	probe->prev_cookie = (uint64_t)prev_cookie;
	probe->next_cookie = (uint64_t)next_cookie;
	return 0;
}

static int parse_task_fields(const char *fields, const char *comm_key, struct ca_task_ref *task)
{
	int64_t pid;

	if (field_number(fields, "pid", &pid))
		return -EINVAL;
	task->pid = (int)pid;
	task->comm[0] = '\0';
	if (comm_key && field_string(fields, comm_key, task->comm, CA_COMM_LEN))
		return -EINVAL;
	return 0;
}

static int parse_exec(const char *fields, struct ca_task_ref *task)
{
	char path[256];
	const char *base;

	if (parse_task_fields(fields, NULL, task) ||
	    field_string(fields, "filename", path, sizeof(path)))
		return -EINVAL;
	base = strrchr(path, '/');
	ca_copy_comm(task->comm, base ? base + 1 : path, CA_COMM_LEN);
	return 0;
}

static int parse_fields(const char *name, const char *fields, struct ca_event *ev)
{
	int64_t a, b, c;

	if (!strcmp(name, "sched_switch")) {
		ev->kind = CA_EV_SWITCH;
		return parse_switch(fields, &ev->sw);
	}
	if (!strcmp(name, "sched_wakeup") || !strcmp(name, "sched_wakeup_new")) {
		ev->kind = CA_EV_WAKEUP;
		if (parse_wakeup(fields, &ev->wakeup))
			return -EINVAL;
		ev->wakeup.is_new = name[12] == '_';
		return 0;
	}
	if (!strcmp(name, "sched_migrate_task")) {
		ev->kind = CA_EV_MIGRATE;
		if (field_number(fields, "pid", &a) || field_number(fields, "orig_cpu", &b) ||
		    field_number(fields, "dest_cpu", &c))
			return -EINVAL;
		ev->migrate = (struct ca_migrate){ .pid = (int)a, .orig_cpu = (int)b,
						   .dest_cpu = (int)c };
		return 0;
	}
	if (!strcmp(name, "sched_process_fork")) {
		ev->kind = CA_EV_FORK;
		if (field_number(fields, "pid", &a) || field_number(fields, "child_pid", &b) ||
		    field_string(fields, "child_comm", ev->fork.child_comm, CA_COMM_LEN))
			return -EINVAL;
		ev->fork.parent_pid = (int)a;
		ev->fork.child_pid = (int)b;
		return 0;
	}
	if (!strcmp(name, "sched_process_exit")) {
		ev->kind = CA_EV_EXIT;
		return parse_task_fields(fields, "comm", &ev->task);
	}
	if (!strcmp(name, "sched_process_exec")) {
		ev->kind = CA_EV_EXEC;
		return parse_exec(fields, &ev->task);
	}
	if (!strcmp(name, "cpu_idle")) {
		ev->kind = CA_EV_IDLE;
		if (field_number(fields, "state", &a) || field_number(fields, "cpu_id", &b))
			return -EINVAL;
		ev->idle.state = (uint32_t)a;
		ev->idle.cpu_id = (int)b;
		return 0;
	}
	if (!strcmp(name, "sys_enter_prctl")) {
		ev->kind = CA_EV_PRCTL_ENTER;
		return parse_prctl_enter(fields, &ev->prctl);
	}
	if (!strcmp(name, "sys_exit_prctl")) {
		ev->kind = CA_EV_PRCTL_EXIT;
		return parse_number(fields, &ev->prctl_ret);
	}
	if (!strcmp(name, "print")) {
		ev->kind = CA_EV_MARKER;
		copy_marker(fields, ev);
		return 0;
	}
	if (!strcmp(name, "cs_switch")) {
		ev->kind = CA_EV_COOKIE;
		return parse_cookie_probe(fields, &ev->cookie);
	}
	if (!strcmp(name, "ipi_send_cpu") || !strcmp(name, "ipi_send_cpumask")) {
		char list[128];

		ev->kind = CA_EV_IPI;
		ev->ipi.is_resched = is_null_callback(fields);
		ev->ipi.is_from_schedule = false;
		ev->ipi.is_callsite_known = false;
		if (ev->ipi.is_resched)
			read_callsite(fields, &ev->ipi);
		if (name[12] == '\0') {
			if (field_number(fields, "cpu", &a))
				return -EINVAL;
			ev->ipi.target_mask = a >= 0 && a < 64 ? 1ull << a : 0;
			return 0;
		}
		if (field_string(fields, "cpumask", list, sizeof(list)))
			return -EINVAL;
		ev->ipi.target_mask = parse_cpu_list(list);
		return 0;
	}
	if (!strcmp(name, "local_timer_entry")) {
		ev->kind = CA_EV_TICK;
		return 0;
	}
	if (!strcmp(name, "hrtimer_expire_entry")) {
		char function[64];

		/* Only the tick's timer: "function=tick_nohz_handler/0x0" */
		ev->kind = CA_EV_TICK;
		if (field_string(fields, "function", function, sizeof(function)))
			return -EINVAL;
		return strncmp(function, "tick_", 5) ? 1 : 0;
	}
	return 1;	/* an event coreaudit does not use */
}

/* "3.520296" or "3.520296123" (or "3520296123" ns) into nanoseconds. */
static int parse_timestamp(const char *start, const char *end, uint64_t *ts)
{
	uint64_t seconds = 0, fraction = 0;
	int digits = 0;
	const char *p = start;

	if (p == end)
		return -EINVAL;
	for (; p < end && isdigit((unsigned char)*p); p++)
		seconds = seconds * 10 + (*p - '0');
	if (p < end && *p == '.') {
		for (p++; p < end && isdigit((unsigned char)*p); p++, digits++)
			if (digits < 9)
				fraction = fraction * 10 + (*p - '0');
		if (!digits)
			return -EINVAL;
		for (int d = digits < 9 ? digits : 9; d < 9; d++)
			fraction *= 10;
		*ts = seconds * 1000000000ull + fraction;
	} else {
		*ts = seconds;
	}
	return p == end ? 0 : -EINVAL;
}

/* "comm-pid [cpu]": the header of an event line. */
static const char *parse_task_cpu(const char *line, struct ca_event *ev)
{
	for (const char *open = strchr(line, '['); open; open = strchr(open + 1, '[')) {
		const char *p = open - 1, *digits_end, *close;

		while (p > line && *p == ' ')
			p--;
		digits_end = p + 1;
		while (p > line && isdigit((unsigned char)*p))
			p--;
		if (*p != '-' || p + 1 == digits_end || !isdigit((unsigned char)open[1]))
			continue;
		close = strchr(open, ']');
		if (!close)
			return NULL;
		ev->pid = atoi(p + 1);
		ev->cpu = atoi(open + 1);
		return close + 1;
	}
	return NULL;
}

int ca_text_parse_line(const char *line, struct ca_event *ev)
{
	const char *p = parse_task_cpu(line, ev);
	const char *token_end, *name, *name_end;
	char event_name[64];

	if (!p)
		return 0;
	/* Skip latency columns until the "seconds.fraction:" token. */
	for (;;) {
		p = skip_blank(p);
		token_end = p + strcspn(p, " \t");
		if (token_end == p)
			return -EINVAL;
		if (token_end[-1] == ':' && isdigit((unsigned char)*p))
			break;
		p = token_end;
	}
	if (parse_timestamp(p, token_end - 1, &ev->ts) || ev->cpu >= CA_MAX_CPUS)
		return -EINVAL;
	name = skip_blank(token_end);
	name_end = strchr(name, ':');
	if (!name_end || name_end - name >= (long)sizeof(event_name))
		return -EINVAL;
	memcpy(event_name, name, name_end - name);
	event_name[name_end - name] = '\0';
	switch (parse_fields(event_name, skip_blank(name_end + 1), ev)) {
	case 0:
		return 1;
	case 1:
		return 0;
	default:
		return -EINVAL;
	}
}

/* The source ------------------------------------------------------------------ */

/* "CPU:1 [123 EVENTS DROPPED]" or "CPU:1 [EVENTS DROPPED]" */
static bool parse_lost_line(struct text_source *ts, const char *line)
{
	const char *drop = strstr(line, "EVENTS DROPPED]");
	int cpu;

	if (strncmp(line, "CPU:", 4) || !drop)
		return false;
	cpu = atoi(line + 4);
	if (cpu < 0 || cpu >= CA_MAX_CPUS)
		return false;
	const char *bracket = strchr(line, '[');
	int64_t count = bracket && isdigit((unsigned char)bracket[1]) ? atoll(bracket + 1) : -1;

	ts->has_pending_lost[cpu] = true;
	if (count < 0 || ts->pending_lost[cpu] < 0)
		ts->pending_lost[cpu] = -1;
	else
		ts->pending_lost[cpu] += count;
	return true;
}

static int emit_pending_lost(struct text_source *ts, const struct ca_event *next,
			     ca_event_fn fn, void *ctx)
{
	struct ca_event lost = { .ts = next->ts, .cpu = next->cpu, .pid = -1,
				 .kind = CA_EV_LOST };

	if (!ts->has_pending_lost[next->cpu])
		return 0;
	lost.lost.count = ts->pending_lost[next->cpu];
	ts->has_pending_lost[next->cpu] = false;
	ts->pending_lost[next->cpu] = 0;
	return fn(ctx, &lost);
}

static int text_read(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	struct text_source *ts = source->priv;
	char *line = NULL;
	size_t capacity = 0;
	long line_number = 0;
	uint64_t last_ts = 0;
	ssize_t len;
	int ret = 0;

	while (!ret && (len = getline(&line, &capacity, ts->file)) >= 0) {
		struct ca_event ev;
		int parsed;

		line_number++;
		if (parse_lost_line(ts, line))
			continue;
		parsed = ca_text_parse_line(line, &ev);
		if (parsed < 0 || (parsed && ev.ts < last_ts)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(source->error, sizeof(source->error), "%s:%ld: %s: \"%.100s\"",
				 source->path, line_number,
				 parsed < 0 ? "malformed event line" : "timestamp goes backwards",
				 line);
			ret = -EINVAL;
			break;
		}
		if (!parsed)
			continue;
		last_ts = ev.ts;
		ret = emit_pending_lost(ts, &ev, fn, ctx);
		if (!ret)
			ret = fn(ctx, &ev);
	}
	free(line);
	return ret;
}

static void text_close(struct ca_source *source)
{
	struct text_source *ts = source->priv;

	if (!ts)
		return;
	if (ts->file)
		fclose(ts->file);
	free(ts);
	source->priv = NULL;
}

/* Header lines ("cpus=2") and which events appear, from a first pass. */
static int scan_header(struct ca_source *source, struct text_source *ts)
{
	char *line = NULL;
	size_t capacity = 0;
	long events = 0;

	while (getline(&line, &capacity, ts->file) >= 0) {
		struct ca_event ev;

		if (!strncmp(line, "cpus=", 5))
			source->info.cpu_count = atoi(line + 5);
		if (ca_text_parse_line(line, &ev) != 1)
			continue;
		events++;
		if (ev.cpu + 1 > source->info.cpu_count)
			source->info.cpu_count = ev.cpu + 1;
		source->info.has_cookie_probe |= ev.kind == CA_EV_COOKIE;
		source->info.has_prctl_events |= ev.kind == CA_EV_PRCTL_EXIT;
		source->info.has_ipi_events |= ev.kind == CA_EV_IPI;
		source->info.has_tick_events |= ev.kind == CA_EV_TICK;
	}
	free(line);
	rewind(ts->file);
	if (!events) {
		snprintf(source->error, sizeof(source->error),
			 "%s: no scheduler events: not trace-cmd report text nor a trace.dat file",
			 source->path);
		return -EINVAL;
	}
	return 0;
}

int ca_text_open(struct ca_source *source, const char *path)
{
	struct text_source *ts = calloc(1, sizeof(*ts));

	source->path = path;
	source->read = text_read;
	source->close = text_close;
	source->priv = ts;
	source->info.format = "text";
	source->info.reader = "text";
	snprintf(source->info.clock, sizeof(source->info.clock), "unknown");
	if (!ts)
		return -ENOMEM;
	ts->file = fopen(path, "r");
	if (!ts->file) {
		snprintf(source->error, sizeof(source->error), "%s: %s", path, strerror(errno));
		return -errno;
	}
	return scan_header(source, ts);
}
