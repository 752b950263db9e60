/*
 * text.c - the text `trace-cmd report` prints (and tracefs "trace" text), so
 * small fixtures stay readable.  One line, one event:
 *
 *     comm-pid [cpu] [latency] seconds.fraction: event: fields
 *
 * Every number is read strictly (digits only, range checked, ended where the
 * format ends it).  Lines of events coreaudit does not use, headers, comments
 * and blank lines are skipped; any other line is bad.  A file whose bad lines
 * outnumber its event lines is not report text (an error naming the first);
 * otherwise bad lines are counted in the source's info (the audit is then
 * inconclusive).  Not a parser of the events' meaning: that is state/'s.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/readers.h"
#include "util/pidmap.h"

/* A lost-events line's count above this is damage, not a ring buffer's overrun. */
#define MAX_LOST_COUNT 1000000000000000ull
#define PID_MAX (CA_PID_LIMIT - 1)	/* PID_MAX_LIMIT - 1: a larger pid is damage */

/* The first "cpus=N" header: event lines after it name CPUs below N. */
struct cpus_header {
	int cpus;		/* 0: none */
	long line;		/* its line number */
};

struct text_source {
	FILE *file;
	long line_count;		/* from the first pass */
	int cpu_count;			/* from the first pass: the highest CPU + 1 */
	int64_t *pending_lost;		/* [cpu_count]: 0 none, < 0 unknown count */
	bool *has_pending_lost;		/* [cpu_count] */
	struct bad_line *pending_bad;	/* [cpu_count]: a bad line of that CPU since its last event */
	struct cpus_header header;	/* from the first pass */
};

/* A line that could not be read, of a CPU its "[N]" names: where it is in the file. */
struct bad_line {
	bool is_pending;
	uint64_t offset;
	uint64_t bytes;
};

/* What a line is, beyond ca_text_parse_line()'s answer. */
struct line_class {
	int cpus;		/* a "cpus=N" header: N; else 0 */
	bool is_event_shaped;	/* "comm-pid [cpu] ts: name:" parsed (or a lost line) */
};

/* Numbers ------------------------------------------------------------------------ */

static bool is_value_end(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\n';
}

static bool is_rest_blank(const char *p)
{
	return p[strspn(p, " \t\r\n")] == '\0';
}

/* Decimal digits at @p, at most @max.  Return: the end, or NULL (no digit, over @max). */
static const char *read_decimal(const char *p, uint64_t max, uint64_t *value)
{
	const char *start = p;
	uint64_t total = 0;

	for (; isdigit((unsigned char)*p); p++) {
		uint64_t digit = *p - '0';

		if (digit > max || total > (max - digit) / 10)
			return NULL;
		total = total * 10 + digit;
	}
	if (p == start)
		return NULL;
	*value = total;
	return p;
}

/* Decimal, or 0x and hex digits, any 64-bit value.  Return: the end, or NULL. */
static const char *read_u64(const char *p, uint64_t *value)
{
	const char *start;
	uint64_t total = 0;

	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return read_decimal(p, UINT64_MAX, value);
	for (start = p += 2; isxdigit((unsigned char)*p); p++) {
		if (total >> 60)
			return NULL;
		total = total << 4 | (isdigit((unsigned char)*p) ? *p - '0' :
				      tolower((unsigned char)*p) - 'a' + 10);
	}
	if (p == start)
		return NULL;
	*value = total;
	return p;
}

/* An optional '-' and decimal digits, within int. */
static const char *read_int(const char *p, int *value)
{
	bool is_negative = *p == '-';
	uint64_t magnitude;

	p = read_decimal(p + is_negative, is_negative ? -(int64_t)INT_MIN : INT_MAX, &magnitude);
	if (p)
		*value = is_negative ? (int)-(int64_t)magnitude : (int)magnitude;
	return p;
}

/* Fields ------------------------------------------------------------------------- */

/* Where "key=" or "key:" starts a word in @fields: Return: its value, or NULL. */
static const char *field_value(const char *fields, const char *key)
{
	size_t key_len = strlen(key);
	const char *p = fields;

	while ((p = strstr(p, key))) {
		bool at_word = p == fields || p[-1] == ' ' || p[-1] == ',';

		p += key_len;
		if (at_word && (*p == '=' || *p == ':'))
			return p + 1 + strspn(p + 1, " ");
	}
	return NULL;
}

/* A 64-bit field ("pid=12", "cookie=0xffff...", "option: 0x3e,"), whole. */
static int field_u64(const char *fields, const char *key, uint64_t *value)
{
	const char *p = field_value(fields, key);

	if (!p || !(p = read_u64(p, value)) || !is_value_end(*p))
		return -EINVAL;
	return 0;
}

/* A decimal field from 0 to @max, as an int. */
static int field_int(const char *fields, const char *key, int max, int *value)
{
	const char *p = field_value(fields, key);
	uint64_t number;

	if (!p || !(p = read_decimal(p, max, &number)) || !is_value_end(*p))
		return -EINVAL;
	*value = (int)number;
	return 0;
}

/* A field's text up to the next blank, truncated to @len - 1. */
static int field_string(const char *fields, const char *key, char *dst, size_t len)
{
	const char *p = field_value(fields, key);
	size_t n;

	if (!p || p[-1] != '=')
		return -EINVAL;
	n = strcspn(p, " \t\r\n");
	if (n >= len)
		n = len - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
	return 0;
}

/* "comm:pid" between @start and @end (trailing blanks allowed), as the sched plugin prints. */
static int parse_comm_pid(const char *start, const char *end, char comm[CA_COMM_LEN], int *pid)
{
	const char *colon = NULL, *digits_end;
	uint64_t number;

	for (const char *p = start; p < end; p++)
		if (*p == ':')
			colon = p;
	if (!colon || !(digits_end = read_decimal(colon + 1, PID_MAX, &number)) ||
	    digits_end > end)
		return -EINVAL;
	while (digits_end < end && isspace((unsigned char)*digits_end))
		digits_end++;
	if (digits_end != end)
		return -EINVAL;
	ca_copy_comm(comm, start, (int)(colon - start));
	*pid = (int)number;
	return 0;
}

/* The last @needle that starts before @end, or NULL. */
static const char *last_before(const char *start, const char *end, const char *needle)
{
	const char *found = NULL;

	for (const char *p = start; (p = strstr(p, needle)) && p < end; p++)
		found = p;
	return found;
}

/* "[prio]" at @p.  Return: after the ']', or NULL. */
static const char *parse_prio(const char *p, int *prio)
{
	if (*p != '[' || !(p = read_int(p + 1, prio)) || *p != ']')
		return NULL;
	return p + 1;
}

/* Events ------------------------------------------------------------------------- */

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

/*
 * A prev_state as report -R prints it, a number: runnable when its low 8 bits
 * are 0, as decode.c reads it from a trace.dat (0x100, TASK_REPORT_MAX, marks
 * a preempted task); else a letter, as above.
 */
static bool is_runnable_field(const char *state)
{
	char *end;
	unsigned long value;

	if (*state < '0' || *state > '9')
		return is_runnable_state(state, strlen(state));
	value = strtoul(state, &end, 0);
	return !*end && (value & 0xff) == 0;
}

/* "prev:1 [120] R ==> next:2 [120]" */
static int parse_switch_plugin(const char *fields, struct ca_switch *sw)
{
	const char *arrow = strstr(fields, " ==> ");
	const char *bracket, *state, *p;

	if (!arrow)
		return -EINVAL;
	state = arrow;
	while (state > fields && state[-1] != ' ')
		state--;
	bracket = last_before(fields, state, " [");
	if (!bracket || state == arrow ||
	    parse_comm_pid(fields, bracket, sw->prev_comm, &sw->prev_pid))
		return -EINVAL;
	p = parse_prio(bracket + 1, &sw->prev_prio);
	if (!p || p + 1 != state)
		return -EINVAL;
	sw->is_prev_runnable = is_runnable_state(state, arrow - state);
	fields = arrow + 5;
	bracket = last_before(fields, fields + strlen(fields), " [");
	sw->next_prio = 120;
	if (bracket && (!(p = parse_prio(bracket + 1, &sw->next_prio)) || !is_rest_blank(p)))
		return -EINVAL;
	return parse_comm_pid(fields, bracket ? bracket : fields + strlen(fields),
			      sw->next_comm, &sw->next_pid);
}

/* An optional "key=prio": 120 when absent. */
static int field_prio(const char *fields, const char *key, int *prio)
{
	const char *p = field_value(fields, key);

	*prio = 120;
	if (!p)
		return 0;
	return (p = read_int(p, prio)) && is_value_end(*p) ? 0 : -EINVAL;
}

static int parse_switch(const char *fields, struct ca_switch *sw)
{
	char state[16];

	memset(sw, 0, sizeof(*sw));
	if (strncmp(fields, "prev_comm=", 10))
		return parse_switch_plugin(fields, sw);
	if (field_int(fields, "prev_pid", PID_MAX, &sw->prev_pid) ||
	    field_int(fields, "next_pid", PID_MAX, &sw->next_pid) ||
	    field_string(fields, "prev_state", state, sizeof(state)) ||
	    field_string(fields, "prev_comm", sw->prev_comm, CA_COMM_LEN) ||
	    field_string(fields, "next_comm", sw->next_comm, CA_COMM_LEN) ||
	    field_prio(fields, "prev_prio", &sw->prev_prio) ||
	    field_prio(fields, "next_prio", &sw->next_prio))
		return -EINVAL;
	sw->is_prev_runnable = is_runnable_field(state);
	return 0;
}

/* "comm=x pid=1 prio=120 target_cpu=001" or the plugin's "x:1 [120] CPU:001" */
static int parse_wakeup(const char *fields, struct ca_wakeup *w)
{
	const char *cpu = last_before(fields, fields + strlen(fields), " CPU:");
	const char *bracket = cpu ? last_before(fields, cpu, " [") : NULL, *p;
	uint64_t target;
	int prio;

	memset(w, 0, sizeof(*w));
	if (!strncmp(fields, "comm=", 5)) {
		if (field_int(fields, "pid", PID_MAX, &w->pid) ||
		    field_int(fields, "target_cpu", CA_CPU_LIMIT - 1, &w->target_cpu))
			return -EINVAL;
		return field_string(fields, "comm", w->comm, CA_COMM_LEN);
	}
	if (!bracket || parse_comm_pid(fields, bracket, w->comm, &w->pid) ||
	    !(p = parse_prio(bracket + 1, &prio)) || p > cpu ||
	    !(p = read_decimal(cpu + 5, CA_CPU_LIMIT - 1, &target)) || !is_rest_blank(p))
		return -EINVAL;
	w->target_cpu = (int)target;
	return 0;
}

/*
 * "0-1,4": ascending ranges of CPUs below CA_CPU_LIMIT, nothing else; @each
 * (when given) is called for every CPU in order.  Return: the count, or -EINVAL.
 */
static int walk_cpu_list(const char *list, int (*each)(int cpu, void *ctx), void *ctx)
{
	int count = 0, ret;

	for (;;) {
		uint64_t first, last;

		list = read_decimal(list, CA_CPU_LIMIT - 1, &first);
		if (!list)
			return -EINVAL;
		last = first;
		if (*list == '-' && !(list = read_decimal(list + 1, CA_CPU_LIMIT - 1, &last)))
			return -EINVAL;
		if (last < first)
			return -EINVAL;
		for (uint64_t cpu = first; cpu <= last; cpu++, count++)
			if (each && (ret = each((int)cpu, ctx)))
				return ret;
		if (*list != ',')
			return *list ? -EINVAL : count;
		list++;
	}
}

/* An ipi_send_cpumask's list: as long as a mask of CA_CPU_LIMIT CPUs printed sparsely. */
#define CPU_LIST_LEN (CA_CPU_LIMIT * 3)

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

/*
 * ipi_send_cpu names its target; ipi_send_cpumask a list, whose first CPU and
 * count are told here: the source emits one event per CPU (emit_ipi_targets).
 */
static int parse_ipi(const char *name, const char *fields, struct ca_ipi *ipi)
{
	char list[CPU_LIST_LEN];
	uint64_t first;
	int cpu, count;

	ipi->is_resched = is_null_callback(fields);
	ipi->is_from_schedule = false;
	ipi->is_callsite_known = false;
	ipi->is_first_target = true;
	if (ipi->is_resched)
		read_callsite(fields, ipi);
	if (!strcmp(name, "ipi_send_cpu")) {
		if (field_int(fields, "cpu", CA_CPU_LIMIT - 1, &cpu))
			return -EINVAL;
		ipi->target_cpu = cpu;
		ipi->target_count = 1;
		return 0;
	}
	if (field_string(fields, "cpumask", list, sizeof(list)) || strlen(list) >= sizeof(list) - 1)
		return -EINVAL;
	count = walk_cpu_list(list, NULL, NULL);
	if (count < 0 || !read_decimal(list, CA_CPU_LIMIT - 1, &first))
		return -EINVAL;
	ipi->target_count = count;
	ipi->target_cpu = (int)first;
	return 0;
}

static int parse_prctl_enter(const char *fields, struct ca_prctl *call)
{
	static const char *const keys[] = { "option", "arg2", "arg3", "arg4", "arg5" };
	int64_t *values[] = { &call->option, &call->arg2, &call->arg3, &call->arg4, &call->arg5 };

	for (int i = 0; i < 5; i++) {
		uint64_t value;

		if (field_u64(fields, keys[i], &value))
			return -EINVAL;
		*values[i] = (int64_t)value;
	}
	return 0;
}

/* sys_exit_prctl: the return value alone, "0xffffffffffffffea" (-22) or "0" */
static int parse_prctl_exit(const char *fields, int64_t *ret)
{
	const char *end;
	uint64_t value;

	if (!strncmp(fields, "__syscall_nr=", 13)) {	/* report -R: "... ret=-22" (%lld) */
		const char *p = field_value(fields, "ret");
		bool is_negative = p && *p == '-';

		if (!p || !(end = read_u64(p + is_negative, &value)) || !is_value_end(*end))
			return -EINVAL;
		*ret = is_negative ? -(int64_t)value : (int64_t)value;
		return 0;
	}
	if (!(end = read_u64(fields, &value)) || !is_rest_blank(end))
		return -EINVAL;
	*ret = (int64_t)value;
	return 0;
}

static void copy_marker(const char *fields, struct ca_event *ev)
{
	/*
	 * "tracing_mark_write: text" (the %ps of the ip, then the buffer), or
	 * with report -R "ip=SYMBOL buf=text"
	 */
	const char *text = strstr(fields, ": ");

	if (!strncmp(fields, "ip=", 3) && strstr(fields, " buf="))
		text = strstr(fields, " buf=") + 5;
	else
		text = text ? text + 2 : fields;
	snprintf(ev->marker, CA_MARKER_LEN, "%s", text);
	ev->marker[strcspn(ev->marker, "\r\n")] = '\0';
}

static int parse_cookie_probe(const char *fields, struct ca_cookie_probe *probe)
{
	if (field_int(fields, "prev_pid", PID_MAX, &probe->prev_pid) ||
	    field_int(fields, "next_pid", PID_MAX, &probe->next_pid) ||
	    field_u64(fields, "prev_cookie", &probe->prev_cookie) ||
	    field_u64(fields, "next_cookie", &probe->next_cookie))
		return -EINVAL;
	return 0;
}

static int parse_task_fields(const char *fields, const char *comm_key, struct ca_task_ref *task)
{
	if (field_int(fields, "pid", PID_MAX, &task->pid))
		return -EINVAL;
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

static int parse_migrate(const char *fields, struct ca_migrate *migrate)
{
	if (field_int(fields, "pid", PID_MAX, &migrate->pid) ||
	    field_int(fields, "orig_cpu", CA_CPU_LIMIT - 1, &migrate->orig_cpu) ||
	    field_int(fields, "dest_cpu", CA_CPU_LIMIT - 1, &migrate->dest_cpu))
		return -EINVAL;
	return 0;
}

/* "comm=P pid=N child_comm=C child_pid=M"; report -R names the parent's "parent_pid" */
static int parse_fork(const char *fields, struct ca_fork *fork)
{
	if ((field_int(fields, "pid", PID_MAX, &fork->parent_pid) &&
	     field_int(fields, "parent_pid", PID_MAX, &fork->parent_pid)) ||
	    field_int(fields, "child_pid", PID_MAX, &fork->child_pid) ||
	    field_string(fields, "child_comm", fork->child_comm, CA_COMM_LEN))
		return -EINVAL;
	return 0;
}

static int parse_idle(const char *fields, struct ca_idle *idle)
{
	uint64_t state, cpu_id;
	const char *p = field_value(fields, "state");

	if (!p || !(p = read_decimal(p, UINT32_MAX, &state)) || !is_value_end(*p))
		return -EINVAL;
	p = field_value(fields, "cpu_id");
	if (!p || !(p = read_decimal(p, CA_CPU_LIMIT - 1, &cpu_id)) || !is_value_end(*p))
		return -EINVAL;
	idle->state = (uint32_t)state;
	idle->cpu_id = (int)cpu_id;
	return 0;
}

/* hrtimer_expire_entry: only the tick's own timer ("function=tick_nohz_handler/0x0"). */
static int parse_tick_timer(const char *fields, struct ca_tick *tick)
{
	char function[64];

	tick->is_tick_timer = true;
	if (field_string(fields, "function", function, sizeof(function)))
		return -EINVAL;
	return strncmp(function, "tick_", 5) ? 1 : 0;
}

/*
 * irq_handler_entry/exit "irq=24 ...", softirq_entry/exit "vec=1 [action=TIMER]",
 * sys_enter "NR 0 (3, ...)" and sys_exit "NR 0 = 8": which, and its number.
 */
static int parse_kernel(const struct ca_event_desc *desc, const char *fields,
			struct ca_kernel_entry *kernel)
{
	static const char *const keys[CA_KERNEL_WHAT_COUNT] = {
		[CA_KERNEL_IRQ] = "irq", [CA_KERNEL_SOFTIRQ] = "vec",
	};
	const char *p = keys[desc->what] ? field_value(fields, keys[desc->what]) : NULL;
	bool is_negative;
	uint64_t number;

	kernel->what = desc->what;
	kernel->is_entry = desc->is_entry;
	if (desc->what == CA_KERNEL_SYSCALL && !strncmp(fields, "NR ", 3))
		p = fields + 3;
	is_negative = p && *p == '-';	/* NR -1: no syscall number (as trace.dat has it) */
	if (!p || !(p = read_decimal(p + is_negative, INT64_MAX, &number)) || !is_value_end(*p))
		return -EINVAL;
	kernel->number = is_negative ? -(int64_t)number : (int64_t)number;
	return 0;
}

/* Return: 0 parsed, 1 an event coreaudit does not use, -EINVAL malformed. */
static int parse_fields(const char *name, const char *fields, struct ca_event *ev)
{
	const struct ca_event_desc *desc = ca_event_desc_find(name);

	if (!desc)
		return 1;
	ev->kind = desc->kind;
	switch (desc->kind) {
	case CA_EV_SWITCH:
		return parse_switch(fields, &ev->sw);
	case CA_EV_WAKEUP:
		if (parse_wakeup(fields, &ev->wakeup))
			return -EINVAL;
		ev->wakeup.is_new = desc->is_new_task;
		return 0;
	case CA_EV_MIGRATE:
		return parse_migrate(fields, &ev->migrate);
	case CA_EV_FORK:
		return parse_fork(fields, &ev->fork);
	case CA_EV_EXIT:
		return parse_task_fields(fields, "comm", &ev->task);
	case CA_EV_EXEC:
		return parse_exec(fields, &ev->task);
	case CA_EV_IDLE:
		return parse_idle(fields, &ev->idle);
	case CA_EV_PRCTL_ENTER:
		return parse_prctl_enter(fields, &ev->prctl);
	case CA_EV_PRCTL_EXIT:
		return parse_prctl_exit(fields, &ev->prctl_ret);
	case CA_EV_MARKER:
		copy_marker(fields, ev);
		return 0;
	case CA_EV_COOKIE:
		return parse_cookie_probe(fields, &ev->cookie);
	case CA_EV_IPI:
		return parse_ipi(name, fields, &ev->ipi);
	case CA_EV_TICK:
		if (desc->is_hrtimer)
			return parse_tick_timer(fields, &ev->tick);
		ev->tick.is_tick_timer = false;
		return 0;
	case CA_EV_KERNEL:
		return parse_kernel(desc, fields, &ev->kernel);
	case CA_EV_LOST:
	case CA_EV_KIND_COUNT:
		break;
	}
	return 1;
}

/* Line headers -------------------------------------------------------------------- */

/*
 * "3.520296", "3.520296123" (up to 9 fraction digits) or "3520296123" (ns)
 * from @start to @end, into nanoseconds that fit 64 bits.
 */
static int parse_timestamp(const char *start, const char *end, uint64_t *ts)
{
	uint64_t seconds, fraction = 0;
	const char *p = read_decimal(start, UINT64_MAX, &seconds);
	int digits = 0;

	if (!p || p > end)
		return -EINVAL;
	if (p == end) {
		*ts = seconds;
		return 0;
	}
	if (*p != '.' || seconds > UINT64_MAX / 1000000000ull - 1)
		return -EINVAL;
	for (p++; p < end && isdigit((unsigned char)*p) && digits < 9; p++, digits++)
		fraction = fraction * 10 + (*p - '0');
	if (!digits || p != end)
		return -EINVAL;
	for (; digits < 9; digits++)
		fraction *= 10;
	*ts = seconds * 1000000000ull + fraction;
	return 0;
}

/*
 * "comm-pid [cpu]": the header of an event line.  The comm may hold blanks,
 * '-' and '[': the first "-digits [digits]" is the one.
 * Return: after the ']', or NULL; -ERANGE in @ret for a CPU over the kernel's limit.
 */
static const char *parse_task_cpu(const char *line, struct ca_event *ev, int *ret)
{
	for (const char *open = strchr(line, '['); open; open = strchr(open + 1, '[')) {
		const char *p = open, *close;
		uint64_t pid, cpu;

		while (p > line && p[-1] == ' ')
			p--;
		while (p > line && isdigit((unsigned char)p[-1]))
			p--;
		if (p == line || p[-1] != '-' || !isdigit((unsigned char)*p) ||
		    !read_decimal(p, PID_MAX, &pid) || !isdigit((unsigned char)open[1]))
			continue;
		close = read_decimal(open + 1, UINT64_MAX, &cpu);
		if (!close || *close != ']')
			return NULL;
		if (cpu >= CA_CPU_LIMIT) {
			*ret = -ERANGE;
			return NULL;
		}
		ev->pid = (int)pid;
		ev->cpu = (int)cpu;
		return close + 1;
	}
	return NULL;
}

/* After the CPU: latency columns ("d..2."), "seconds.fraction:", "name:". */
static int parse_event(const char *p, struct ca_event *ev)
{
	const char *token_end, *name, *name_end;
	char event_name[64];

	for (;;) {
		p += strspn(p, " \t");
		token_end = p + strcspn(p, " \t\r\n");
		if (token_end == p)
			return -EINVAL;
		if (token_end[-1] == ':' && isdigit((unsigned char)*p))
			break;
		p = token_end;
	}
	if (parse_timestamp(p, token_end - 1, &ev->ts))
		return -EINVAL;
	name = token_end + strspn(token_end, " \t");
	name_end = name + strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (name_end == name || *name_end != ':' || name_end - name >= (long)sizeof(event_name))
		return -EINVAL;
	memcpy(event_name, name, name_end - name);
	event_name[name_end - name] = '\0';
	return parse_fields(event_name, name_end + 1 + strspn(name_end + 1, " \t"), ev);
}

/*
 * "CPU:1 [123 EVENTS DROPPED]", "CPU:1 [EVENTS DROPPED]" (trace-cmd) or
 * "CPU:1 [LOST 123 EVENTS]" (tracefs): a CA_EV_LOST without a timestamp.
 */
static int parse_lost_line(const char *line, struct ca_event *ev)
{
	uint64_t cpu, count = 0;
	const char *p = read_decimal(line + 4, UINT64_MAX, &cpu);

	if (!p || strncmp(p, " [", 2))
		return -EINVAL;
	if (cpu >= CA_CPU_LIMIT)
		return -ERANGE;
	p += 2;
	if (!strncmp(p, "EVENTS DROPPED]", 15)) {
		p += 15;
	} else if (!strncmp(p, "LOST ", 5)) {
		p = read_decimal(p + 5, MAX_LOST_COUNT, &count);
		p = p && count && !strncmp(p, " EVENTS]", 8) ? p + 8 : NULL;
	} else {
		p = read_decimal(p, MAX_LOST_COUNT, &count);
		p = p && count && !strncmp(p, " EVENTS DROPPED]", 16) ? p + 16 : NULL;
	}
	if (!p || !is_rest_blank(p))
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->kind = CA_EV_LOST;
	ev->cpu = (int)cpu;
	ev->pid = -1;
	ev->lost.count = count ? (int64_t)count : -1;
	return 1;
}

/* Blank lines, comments ("# tracer: nop"), stack lines ("=> f"), headers. */
static bool is_header(const char *line, struct line_class *class)
{
	const char *p = line + strspn(line, " \t");
	uint64_t value;
	const char *end;

	if (!*p || *p == '\n' || *p == '\r' || *p == '#' || !strncmp(p, "=>", 2))
		return true;
	if (!strncmp(line, "cpus=", 5) && (end = read_decimal(line + 5, INT_MAX, &value)) &&
	    is_rest_blank(end) && value) {
		class->cpus = value > CA_CPU_LIMIT ? -1 : (int)value;
		return true;
	}
	if (!strncmp(line, "version = ", 10) && (end = read_decimal(line + 10, INT_MAX, &value)))
		return is_rest_blank(end);
	if (!strncmp(line, "CPU ", 4) && (end = read_decimal(line + 4, CA_CPU_LIMIT - 1, &value)))
		return !strncmp(end, " is empty", 9) && is_rest_blank(end + 9);
	return false;
}

static int classify_line(const char *line, struct ca_event *ev, struct line_class *class)
{
	const char *p;
	int ret = -EINVAL;

	memset(class, 0, sizeof(*class));
	if (is_header(line, class))
		return 0;
	if (!strncmp(line, "CPU:", 4)) {
		ret = parse_lost_line(line, ev);
		class->is_event_shaped = ret == 1;
		return ret;
	}
	p = parse_task_cpu(line, ev, &ret);
	if (!p)
		return ret;
	switch (parse_event(p, ev)) {
	case 0:
		class->is_event_shaped = true;
		return 1;
	case 1:
		class->is_event_shaped = true;
		return 0;
	default:
		return -EINVAL;
	}
}

int ca_text_parse_line(const char *line, struct ca_event *ev)
{
	struct line_class class;

	return classify_line(line, ev, &class);
}

/* The source ------------------------------------------------------------------ */

/*
 * One line of the file, classified: 1 an event, 0 a line to skip, -EINVAL a
 * bad line (a NUL inside, a last line without its newline: the file was cut,
 * or it does not parse), -ERANGE a CPU over the kernel's limit.
 */
static int read_line(const char *line, ssize_t len, bool is_last, struct ca_event *ev,
		     struct line_class *class)
{
	int ret;

	if ((size_t)len != strlen(line)) {
		memset(class, 0, sizeof(*class));
		return -EINVAL;
	}
	ret = classify_line(line, ev, class);
	if (ret >= 0 && is_last && line[len - 1] != '\n')
		return class->is_event_shaped ? -EINVAL : ret;
	return ret;
}

static int line_error(struct ca_source *source, long line_number, char *line, const char *what,
		      const char *after)
{
	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	snprintf(source->error, sizeof(source->error), "%s:%ld: %s: \"%.100s\"%s", source->path,
		 line_number, what, line, after);
	return -EINVAL;
}

/* Lost events wait for their CPU's next event: the gap ends there. */
static void keep_lost(struct text_source *ts, const struct ca_event *lost)
{
	int64_t *pending = &ts->pending_lost[lost->cpu];	/* below cpu_count: the first pass saw it */

	if (lost->lost.count < 0 || *pending < 0 || *pending > INT64_MAX - lost->lost.count)
		*pending = -1;
	else
		*pending += lost->lost.count;
	ts->has_pending_lost[lost->cpu] = true;
}

/*
 * A bad line that names its CPU hides what that CPU did between its events
 * around it: damage there (unobserved), as unreadable data in a trace.dat.
 */
static void keep_bad_line(struct text_source *ts, const char *line, uint64_t offset,
			  uint64_t bytes)
{
	struct ca_event head;
	int ret = 0;

	if (!parse_task_cpu(line, &head, &ret) || head.cpu >= ts->cpu_count ||
	    ts->pending_bad[head.cpu].is_pending)
		return;
	ts->pending_bad[head.cpu] = (struct bad_line){ .is_pending = true, .offset = offset,
						       .bytes = bytes };
}

static int emit_pending_lost(struct text_source *ts, int cpu, uint64_t when, ca_event_fn fn,
			     void *ctx)
{
	struct ca_event lost = { .ts = when, .cpu = cpu, .pid = -1, .kind = CA_EV_LOST };
	struct bad_line *bad = &ts->pending_bad[cpu];
	int ret = 0;

	if (bad->is_pending) {
		lost.lost = (struct ca_lost){ .count = -1, .is_damage = true, .offset = bad->offset,
					      .bytes = bad->bytes };
		bad->is_pending = false;
		ret = fn(ctx, &lost);
	}
	if (ret || !ts->has_pending_lost[cpu])
		return ret;
	lost.lost = (struct ca_lost){ .count = ts->pending_lost[cpu] };
	ts->has_pending_lost[cpu] = false;
	ts->pending_lost[cpu] = 0;
	return fn(ctx, &lost);
}

/* Lost events after a CPU's last event: unknown from there to the end. */
static int emit_trailing_lost(struct text_source *ts, uint64_t last_ts, ca_event_fn fn,
			      void *ctx)
{
	int ret = 0;

	for (int cpu = 0; cpu < ts->cpu_count && !ret; cpu++)
		ret = emit_pending_lost(ts, cpu, last_ts, fn, ctx);
	return ret;
}

struct ipi_targets {
	struct ca_event *ev;
	ca_event_fn fn;
	void *ctx;
};

static int emit_ipi_target(int cpu, void *data)
{
	struct ipi_targets *targets = data;
	int ret;

	targets->ev->ipi.target_cpu = cpu;
	ret = targets->fn(targets->ctx, targets->ev);
	targets->ev->ipi.is_first_target = false;
	return ret;
}

/* The event of @line; an ipi_send_cpumask as one event per CPU of its list. */
static int emit_event(const char *line, struct ca_event *ev, ca_event_fn fn, void *ctx)
{
	struct ipi_targets targets = { ev, fn, ctx };
	char list[CPU_LIST_LEN];
	int ret;

	if (ev->kind != CA_EV_IPI || ev->ipi.target_count < 2)
		return fn(ctx, ev);
	if (field_string(line, "cpumask", list, sizeof(list)))
		return -EINVAL;	/* (it parsed before) */
	ret = walk_cpu_list(list, emit_ipi_target, &targets);
	return ret < 0 ? ret : 0;
}

/*
 * An event line after the "cpus=N" header naming CPU N or above: damaged (a
 * flipped digit), not a CPU the file has; as bad as a line that does not
 * parse, in both passes.
 */
static bool is_beyond_header(const struct cpus_header *header, long line_number, int parsed,
			     const struct ca_event *ev)
{
	return parsed == 1 && header->cpus && line_number > header->line && ev->cpu >= header->cpus;
}

static int text_read(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	struct text_source *ts = source->priv;
	char *line = NULL;
	size_t capacity = 0;
	long line_number = 0;
	uint64_t last_ts = 0, offset = 0;
	ssize_t len;
	int ret = 0;

	for (; !ret && (len = getline(&line, &capacity, ts->file)) >= 0; offset += (uint64_t)len) {
		struct line_class class;
		struct ca_event ev;
		int parsed;

		line_number++;
		parsed = read_line(line, len, line_number == ts->line_count, &ev, &class);
		if (is_beyond_header(&ts->header, line_number, parsed, &ev))
			parsed = -EINVAL;
		if (parsed == -ERANGE)
			ret = line_error(source, line_number, line, "a CPU over the kernel's limit",
					 "");
		if (parsed == -EINVAL)
			keep_bad_line(ts, line, offset, (uint64_t)len);
		if (parsed <= 0)
			continue;
		/* The tables are the first pass's: a file that grew since is not read past it. */
		if (ev.cpu >= ts->cpu_count || line_number > ts->line_count) {
			ret = line_error(source, line_number, line, "the file changed while it was "
					 "read (a CPU or a line the first pass did not see)", "");
			break;
		}
		if (ev.kind == CA_EV_LOST) {
			keep_lost(ts, &ev);
			continue;
		}
		if (ev.ts < last_ts) {
			ret = line_error(source, line_number, line, "timestamp goes backwards", "");
			break;
		}
		last_ts = ev.ts;
		ret = emit_pending_lost(ts, ev.cpu, ev.ts, fn, ctx);
		if (!ret)
			ret = emit_event(line, &ev, fn, ctx);
	}
	if (!ret)
		ret = emit_trailing_lost(ts, last_ts, fn, ctx);
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
	free(ts->pending_lost);
	free(ts->has_pending_lost);
	free(ts->pending_bad);
	free(ts);
	source->priv = NULL;
}

/* Lost events wait per CPU: one entry for each CPU the first pass saw. */
static int size_lost_tables(struct ca_source *source, struct text_source *ts)
{
	ts->cpu_count = source->info.cpu_count;
	ts->pending_lost = calloc(ts->cpu_count + 1, sizeof(*ts->pending_lost));
	ts->has_pending_lost = calloc(ts->cpu_count + 1, sizeof(*ts->has_pending_lost));
	ts->pending_bad = calloc(ts->cpu_count + 1, sizeof(*ts->pending_bad));
	if (ts->pending_lost && ts->has_pending_lost && ts->pending_bad)
		return 0;
	snprintf(source->error, sizeof(source->error), "%s: out of memory", source->path);
	return -ENOMEM;
}

/* What the first pass counts. */
struct scan {
	long line_count;
	struct cpus_header header;
	uint64_t events;	/* events coreaudit uses */
	uint64_t good_lines;	/* event lines that parse, used or not, and lost lines */
	char first_bad[128];	/* the first bad line's text */
};

/* A line that is not bad: @is_event when it is an event coreaudit uses (or lost events). */
static void note_line(struct ca_source *source, struct scan *scan, bool is_event,
		      const struct ca_event *ev, const struct line_class *class)
{
	struct ca_source_info *info = &source->info;

	if (class->cpus > info->cpu_count)
		info->cpu_count = class->cpus;
	scan->good_lines += class->is_event_shaped;
	if (!is_event)
		return;		/* a header, or an event coreaudit does not use */
	if (ev->cpu + 1 > info->cpu_count)
		info->cpu_count = ev->cpu + 1;
	if (ev->kind == CA_EV_LOST)
		return;
	scan->events++;
	info->has_cookie_probe |= ev->kind == CA_EV_COOKIE;
	info->has_prctl_events |= ev->kind == CA_EV_PRCTL_EXIT;
	info->has_ipi_events |= ev->kind == CA_EV_IPI;
	info->has_tick_events |= ev->kind == CA_EV_TICK;
	info->has_wakeup_events |= ev->kind == CA_EV_WAKEUP && !ev->wakeup.is_new;
	info->has_kernel_events |= ev->kind == CA_EV_KERNEL;
}

/* One line of the first pass.  Return: 0, or -EINVAL with the error set. */
static int scan_line(struct ca_source *source, struct scan *scan, char *line, ssize_t len,
		     bool is_last)
{
	struct line_class class;
	struct ca_event ev;
	int ret = read_line(line, len, is_last, &ev, &class);
	char what[80];

	if (ret == -ERANGE || class.cpus < 0) {
		snprintf(what, sizeof(what), "%s the kernel's limit of %d", ret == -ERANGE ?
			 "a CPU over" : "more CPUs than", CA_CPU_LIMIT);
		return line_error(source, scan->line_count, line, what, "");
	}
	if (class.cpus > 0 && !scan->header.cpus)
		scan->header = (struct cpus_header){ class.cpus, scan->line_count };
	if (is_beyond_header(&scan->header, scan->line_count, ret, &ev))
		ret = -EINVAL;
	if (ret < 0) {
		if (!source->info.bad_lines++) {
			source->info.first_bad_line = scan->line_count;
			snprintf(scan->first_bad, sizeof(scan->first_bad), "%s", line);
		}
		return 0;
	}
	note_line(source, scan, ret == 1, &ev, &class);
	return 0;
}

/*
 * Bad lines that outnumber the event lines, or no event at all: not report
 * text (or not enough of it to audit).
 */
static int judge_scan(struct ca_source *source, struct scan *scan)
{
	const struct ca_source_info *info = &source->info;
	char counts[96];

	if (info->bad_lines && (info->bad_lines > scan->good_lines || !scan->events)) {
		snprintf(counts, sizeof(counts), " (%" PRIu64 " of %ld lines unreadable, this the "
			 "first)", info->bad_lines, scan->line_count);
		return line_error(source, info->first_bad_line, scan->first_bad,
				  "not trace-cmd report text", counts);
	}
	if (!scan->events) {
		snprintf(source->error, sizeof(source->error),
			 "%s: no scheduler events: not trace-cmd report text nor a trace.dat file",
			 source->path);
		return -EINVAL;
	}
	return 0;
}

static void swap_lines(char **a, size_t *a_capacity, char **b, size_t *b_capacity)
{
	char *line = *a;
	size_t capacity = *a_capacity;

	*a = *b;
	*a_capacity = *b_capacity;
	*b = line;
	*b_capacity = capacity;
}

/* Header lines ("cpus=2"), which events appear and which lines are bad, from a first pass. */
static int scan_file(struct ca_source *source, struct text_source *ts)
{
	struct scan scan = { 0 };
	char *line = NULL, *next = NULL;
	size_t capacity = 0, next_capacity = 0;
	ssize_t len = getline(&line, &capacity, ts->file), next_len;
	int ret = 0;

	/* one line ahead: the last line is known when it is read */
	while (!ret && len >= 0) {
		next_len = getline(&next, &next_capacity, ts->file);
		scan.line_count++;
		ret = scan_line(source, &scan, line, len, next_len < 0);
		swap_lines(&line, &capacity, &next, &next_capacity);
		len = next_len;
	}
	free(line);
	free(next);
	ts->line_count = scan.line_count;
	ts->header = scan.header;
	rewind(ts->file);
	if (!ret)
		ret = judge_scan(source, &scan);
	return ret ? ret : size_lost_tables(source, ts);
}

static struct text_source *text_begin(struct ca_source *source, const char *path)
{
	struct text_source *ts = calloc(1, sizeof(*ts));

	source->path = path;
	source->read = text_read;
	source->close = text_close;
	source->priv = ts;
	source->info.format = "text";
	source->info.reader = "text";
	snprintf(source->info.clock, sizeof(source->info.clock), "unknown");
	return ts;
}

int ca_text_open_file(struct ca_source *source, const char *path, FILE *file)
{
	struct text_source *ts = text_begin(source, path);

	if (!ts) {
		fclose(file);
		return -ENOMEM;
	}
	ts->file = file;
	return scan_file(source, ts);
}

int ca_text_open(struct ca_source *source, const char *path)
{
	struct text_source *ts = text_begin(source, path);

	if (!ts)
		return -ENOMEM;
	ts->file = fopen(path, "r");
	if (!ts->file) {
		int err = errno;

		snprintf(source->error, sizeof(source->error), "%s: %s", path, strerror(err));
		return -err;
	}
	return scan_file(source, ts);
}
