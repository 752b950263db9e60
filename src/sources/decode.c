/*
 * decode.c - raw trace records (libtraceevent's struct tep_record) into
 * normalised events, for any source that has a tep handle: trace.dat files
 * (tracedat.c) and live tracefs buffers (live.c).  Fields are looked up once
 * per event type; each record is then read in place when the byte order is
 * the host's.  This file decodes; it decides nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/decode.h"
#include "util/pidmap.h"

enum field_id {
	F_PREV_COMM, F_PREV_PID, F_PREV_STATE, F_NEXT_COMM, F_NEXT_PID,	/* switch */
	F_PREV_PRIO, F_NEXT_PRIO,
	F_COMM, F_PID, F_TARGET_CPU,					/* wakeup */
	F_ORIG_CPU, F_DEST_CPU,						/* migrate */
	F_PARENT_PID, F_CHILD_PID, F_CHILD_COMM,			/* fork */
	F_FILENAME,							/* exec */
	F_STATE, F_CPU_ID,						/* cpu_idle */
	F_OPTION, F_ARG2, F_ARG3, F_ARG4, F_ARG5, F_RET,		/* prctl */
	F_BUF,								/* print */
	F_PREV_COOKIE, F_NEXT_COOKIE,					/* cs_switch */
	F_CPU, F_CPUMASK, F_CALLBACK, F_CALLSITE,			/* ipi */
	F_FUNCTION,							/* hrtimer */
	F_IRQ, F_VEC, F_ID,						/* kernel entry */
	F_COUNT,
};

static const char *const field_names[F_COUNT] = {
	"prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid", "prev_prio", "next_prio",
	"comm", "pid", "target_cpu", "orig_cpu", "dest_cpu",
	"parent_pid", "child_pid", "child_comm", "filename", "state", "cpu_id",
	"option", "arg2", "arg3", "arg4", "arg5", "ret", "buf",
	"prev_cookie", "next_cookie", "cpu", "cpumask", "callback", "callsite", "function",
	"irq", "vec", "id",
};

struct decoder {
	enum ca_event_kind kind;
	bool is_new_task;	/* sched_wakeup_new */
	bool is_hrtimer;	/* a tick only when its function is tick_* */
	enum ca_kernel_what what;	/* CA_EV_KERNEL */
	bool is_entry;
	bool is_native;		/* the file's byte order is the host's */
	struct tep_handle *tep;	/* for function names (kallsyms of the trace) */
	int min_size;		/* a record this long holds every fixed field */
	bool is_plain_switch;	/* sched_switch as the kernel lays it out, native: fast path */
	struct tep_format_field *fields[F_COUNT];
};

/*
 * Whether an hrtimer's function is tick_*, by its address.  A trace's hrtimers
 * run a handful of functions, and libtraceevent finds a name by a binary
 * search over every kernel symbol (4% of the decoding thread on 256 CPUs), so
 * the answers are kept, one address a slot.  Written while decoding: one
 * memo a decoding thread (ca_decoders_emit_with()).
 */
#define TICK_SLOTS 64
struct ca_tick_memo {
	unsigned long long addr[TICK_SLOTS];
	unsigned char known[TICK_SLOTS];	/* 0: empty; else 1 + is_tick */
};

/* The largest record coreaudit pads: longer fields are out of any sane format. */
#define PAD_SIZE 512

/* The events decoded: every one coreaudit reads (util/event.c). */
#define WANTED_COUNT ((size_t)ca_event_desc_count)

/*
 * A number field.  In the host's byte order it is read in place (the common
 * case, and the hot path); otherwise libtraceevent swaps it.  The record is
 * at least the decoder's min_size long (ca_decoders_emit pads short ones).
 */
static inline __attribute__((always_inline)) bool
read_raw(const struct tep_format_field *field, const struct tep_record *rec, bool is_native,
	 unsigned long long *value)
{
	if (!field)
		return false;
	if (!is_native)
		return !tep_read_number_field((struct tep_format_field *)field, rec->data, value);
	const unsigned char *at = (const unsigned char *)rec->data + field->offset;

	switch (field->size) {
	case 1: *value = *at; return true;
	case 2: { uint16_t v; memcpy(&v, at, 2); *value = v; return true; }
	case 4: { uint32_t v; memcpy(&v, at, 4); *value = v; return true; }
	case 8: { uint64_t v; memcpy(&v, at, 8); *value = v; return true; }
	default: return false;
	}
}

static inline __attribute__((always_inline)) int64_t
read_signed_as(const struct tep_format_field *field, const struct tep_record *rec, bool is_native)
{
	unsigned long long value = 0;

	if (!read_raw(field, rec, is_native, &value))
		return -1;
	if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8) {
		int shift = 64 - 8 * field->size;

		return (int64_t)(value << shift) >> shift;
	}
	return (int64_t)value;
}

static inline __attribute__((always_inline)) uint64_t
read_unsigned_as(const struct tep_format_field *field, const struct tep_record *rec, bool is_native)
{
	unsigned long long value = 0;

	read_raw(field, rec, is_native, &value);
	return value;
}

/* The decoders below read through these, with the decoder's byte order. */
#define read_signed(field, rec) read_signed_as((field), (rec), d->is_native)
#define read_unsigned(field, rec) read_unsigned_as((field), (rec), d->is_native)

/* A char[] field, fixed or __data_loc; returns its bytes and length. */
static const char *field_bytes(const struct decoder *d, const struct tep_format_field *field,
			       const struct tep_record *rec, int *len)
{
	int offset, size;

	if (!field)
		return NULL;
	offset = field->offset;
	size = field->size;
	if (field->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc = (uint32_t)read_unsigned(field, rec);

		offset = loc & 0xffff;
		size = loc >> 16;
		if (field->flags & TEP_FIELD_IS_RELATIVE)
			offset += field->offset + field->size;
	} else if (size == 0) {
		size = rec->size - offset;	/* char buf[] at the end */
	}
	if (offset < 0 || size < 0 || offset + size > rec->size)
		return NULL;
	*len = size;
	return (const char *)rec->data + offset;
}

static void read_comm(const struct decoder *d, const struct tep_format_field *field,
		      const struct tep_record *rec, char dst[CA_COMM_LEN])
{
	int len = 0;
	const char *bytes;

	/* The kernel's char comm[16] (NUL-terminated within it): a plain copy. */
	if (field && !(field->flags & TEP_FIELD_IS_DYNAMIC) && field->size == CA_COMM_LEN &&
	    field->offset + CA_COMM_LEN <= rec->size) {
		memcpy(dst, (const char *)rec->data + field->offset, CA_COMM_LEN);
		dst[CA_COMM_LEN - 1] = '\0';
		return;
	}
	bytes = field_bytes(d, field, rec, &len);
	dst[0] = '\0';
	if (bytes)
		ca_copy_comm(dst, bytes, len);
}

/* A signed native field of @size bytes at @offset (the plain layout). */
static inline __attribute__((always_inline)) int64_t
read_plain(const struct tep_record *rec, const struct tep_format_field *field)
{
	const unsigned char *at = (const unsigned char *)rec->data + field->offset;

	if (field->size == 8) {
		int64_t v;

		memcpy(&v, at, 8);
		return v;
	}
	int32_t v;

	memcpy(&v, at, 4);
	return v;
}

/*
 * The hot path: sched_switch in the host's byte order with pids, prios and
 * prev_state of 4 or 8 signed bytes and char comm[16] (every kernel since
 * 4.x); the record is at least min_size long.
 */
static void decode_plain_switch(const struct decoder *d, const struct tep_record *rec,
				struct ca_event *ev)
{
	struct tep_format_field *const *f = d->fields;
	const char *data = rec->data;

	ev->sw.prev_pid = (int)read_plain(rec, f[F_PREV_PID]);
	ev->sw.next_pid = (int)read_plain(rec, f[F_NEXT_PID]);
	ev->sw.prev_prio = (int)read_plain(rec, f[F_PREV_PRIO]);
	ev->sw.next_prio = (int)read_plain(rec, f[F_NEXT_PRIO]);
	ev->sw.is_prev_runnable = (read_plain(rec, f[F_PREV_STATE]) & 0xff) == 0;
	ev->sw.has_cookies = false;
	memcpy(ev->sw.prev_comm, data + f[F_PREV_COMM]->offset, CA_COMM_LEN);
	ev->sw.prev_comm[CA_COMM_LEN - 1] = '\0';
	memcpy(ev->sw.next_comm, data + f[F_NEXT_COMM]->offset, CA_COMM_LEN);
	ev->sw.next_comm[CA_COMM_LEN - 1] = '\0';
}

/* True when @d can take decode_plain_switch(). */
static bool is_plain_switch(const struct decoder *d)
{
	static const int numbers[] = { F_PREV_PID, F_NEXT_PID, F_PREV_PRIO, F_NEXT_PRIO,
				       F_PREV_STATE };
	static const int comms[] = { F_PREV_COMM, F_NEXT_COMM };

	if (d->kind != CA_EV_SWITCH || !d->is_native)
		return false;
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		const struct tep_format_field *f = d->fields[numbers[i]];

		if (!f || (f->size != 4 && f->size != 8) || !(f->flags & TEP_FIELD_IS_SIGNED))
			return false;
	}
	for (size_t i = 0; i < sizeof(comms) / sizeof(comms[0]); i++) {
		const struct tep_format_field *f = d->fields[comms[i]];

		if (!f || f->size != CA_COMM_LEN || (f->flags & TEP_FIELD_IS_DYNAMIC))
			return false;
	}
	return true;
}

static void decode_switch(const struct decoder *d, const struct tep_record *rec,
			  struct ca_event *ev)
{
	/* prev_state 0, or only the preempt bit (TASK_REPORT_MAX, 0x100): still runnable. */
	int64_t state = read_signed(d->fields[F_PREV_STATE], rec);

	ev->sw.prev_pid = (int)read_signed(d->fields[F_PREV_PID], rec);
	ev->sw.next_pid = (int)read_signed(d->fields[F_NEXT_PID], rec);
	ev->sw.prev_prio = (int)read_signed(d->fields[F_PREV_PRIO], rec);
	ev->sw.next_prio = (int)read_signed(d->fields[F_NEXT_PRIO], rec);
	ev->sw.is_prev_runnable = (state & 0xff) == 0;
	ev->sw.has_cookies = false;
	read_comm(d, d->fields[F_PREV_COMM], rec, ev->sw.prev_comm);
	read_comm(d, d->fields[F_NEXT_COMM], rec, ev->sw.next_comm);
}

static void decode_marker(const struct decoder *d, const struct tep_record *rec,
			  struct ca_event *ev)
{
	int len = 0;
	const char *bytes = field_bytes(d, d->fields[F_BUF], rec, &len);

	if (!bytes)
		len = 0;
	if (len >= CA_MARKER_LEN)
		len = CA_MARKER_LEN - 1;
	memcpy(ev->marker, bytes ? bytes : "", len);
	ev->marker[len] = '\0';
	ev->marker[strcspn(ev->marker, "\n")] = '\0';
}

static void decode_ipi(const struct decoder *d, const struct tep_record *rec,
		       struct ca_event *ev)
{
	bool is_resched = read_unsigned(d->fields[F_CALLBACK], rec) == 0;
	/* A reschedule IPI's callsite function, by the kallsyms of the trace. */
	const char *callsite = is_resched && d->fields[F_CALLSITE] ?
			       tep_find_function(d->tep, read_unsigned(d->fields[F_CALLSITE], rec)) :
			       NULL;

	ev->ipi.is_resched = is_resched;
	ev->ipi.is_callsite_known = callsite != NULL;
	ev->ipi.is_from_schedule = callsite && !strcmp(callsite, "__schedule");
	ev->ipi.target_cpu = -1;
	ev->ipi.target_count = 0;
	ev->ipi.is_first_target = true;
	if (d->fields[F_CPU]) {
		int64_t cpu = read_signed(d->fields[F_CPU], rec);

		if (cpu >= 0 && cpu < CA_CPU_LIMIT) {
			ev->ipi.target_cpu = (int)cpu;
			ev->ipi.target_count = 1;
		}
	}
}

/*
 * Whether CPU @cpu is set in the cpumask @mask of @len bytes: unsigned longs
 * of the trace's size and byte order (__data_loc cpumask_t, or cpumask_t *[]
 * on older kernels: the same bits).
 */
static bool is_cpu_set(const struct decoder *d, const unsigned char *mask, int len, int cpu)
{
	int long_size = tep_get_long_size(d->tep) == 4 ? 4 : 8;
	int byte = cpu / 8;

	/* The file's longs, in the file's byte order, whatever the host's. */
	if (tep_is_file_bigendian(d->tep))
		byte = byte / long_size * long_size + (long_size - 1 - byte % long_size);
	return byte < len && (mask[byte] >> (cpu % 8) & 1);
}

/* ipi_send_cpumask: one event per CPU of the mask, each naming its target. */
static int emit_ipi_targets(const struct decoder *d, const struct tep_record *rec,
			    struct ca_event *ev, ca_event_fn fn, void *ctx)
{
	int len = 0, count = 0, ret = 0;
	const unsigned char *mask = (const unsigned char *)field_bytes(d, d->fields[F_CPUMASK],
									rec, &len);
	int bits = len * 8 < CA_CPU_LIMIT ? len * 8 : CA_CPU_LIMIT;

	for (int cpu = 0; mask && cpu < bits; cpu++)
		count += is_cpu_set(d, mask, len, cpu);
	ev->ipi.target_count = count;
	if (!count)	/* aimed at no CPU: still an event of its sender */
		return fn(ctx, ev);
	for (int cpu = 0; mask && cpu < bits && !ret; cpu++) {
		if (!is_cpu_set(d, mask, len, cpu))
			continue;
		ev->ipi.target_cpu = cpu;
		ret = fn(ctx, ev);
		ev->ipi.is_first_target = false;
	}
	return ret;
}

/* sched_process_exec: the new comm is the filename's base name, as the kernel sets it. */
static void decode_exec(const struct decoder *d, const struct tep_record *rec, struct ca_event *ev)
{
	char path[256] = "";
	int len = 0;
	const char *bytes = field_bytes(d, d->fields[F_FILENAME], rec, &len);
	const char *base;

	if (bytes)
		snprintf(path, sizeof(path), "%.*s", len, bytes);
	base = strrchr(path, '/');
	ev->task.pid = (int)read_signed(d->fields[F_PID], rec);
	ca_copy_comm(ev->task.comm, base ? base + 1 : path, CA_COMM_LEN);
}

static void decode_wakeup(const struct decoder *d, const struct tep_record *rec,
			  struct ca_event *ev)
{
	ev->wakeup.pid = (int)read_signed(d->fields[F_PID], rec);
	ev->wakeup.target_cpu = (int)read_signed(d->fields[F_TARGET_CPU], rec);
	ev->wakeup.is_new = d->is_new_task;
	read_comm(d, d->fields[F_COMM], rec, ev->wakeup.comm);
}

/* The cs_switch probe: both tasks' kernel cookies (paired with its switch by stream.c). */
static void decode_cookie(const struct decoder *d, const struct tep_record *rec,
			  struct ca_event *ev)
{
	struct tep_format_field *const *f = d->fields;

	ev->cookie.prev_pid = (int)read_signed(f[F_PREV_PID], rec);
	ev->cookie.next_pid = (int)read_signed(f[F_NEXT_PID], rec);
	ev->cookie.prev_cookie = read_unsigned(f[F_PREV_COOKIE], rec);
	ev->cookie.next_cookie = read_unsigned(f[F_NEXT_COOKIE], rec);
}

/* An irq, softirq or syscall entry or exit: which, and its number. */
static void decode_kernel(const struct decoder *d, const struct tep_record *rec,
			  struct ca_event *ev)
{
	static const int number_field[CA_KERNEL_WHAT_COUNT] = {
		[CA_KERNEL_SYSCALL] = F_ID, [CA_KERNEL_IRQ] = F_IRQ, [CA_KERNEL_SOFTIRQ] = F_VEC,
	};

	ev->kernel.what = d->what;
	ev->kernel.is_entry = d->is_entry;
	ev->kernel.number = read_signed(d->fields[number_field[d->what]], rec);
}

static void decode_prctl(const struct decoder *d, const struct tep_record *rec,
			 struct ca_event *ev)
{
	struct tep_format_field *const *f = d->fields;

	ev->prctl.option = read_signed(f[F_OPTION], rec);
	ev->prctl.arg2 = read_signed(f[F_ARG2], rec);
	ev->prctl.arg3 = read_signed(f[F_ARG3], rec);
	ev->prctl.arg4 = read_signed(f[F_ARG4], rec);
	ev->prctl.arg5 = read_signed(f[F_ARG5], rec);
}

static void decode_migrate(const struct decoder *d, const struct tep_record *rec,
			   struct ca_event *ev)
{
	struct tep_format_field *const *f = d->fields;

	ev->migrate.pid = (int)read_signed(f[F_PID], rec);
	ev->migrate.orig_cpu = (int)read_signed(f[F_ORIG_CPU], rec);
	ev->migrate.dest_cpu = (int)read_signed(f[F_DEST_CPU], rec);
}

static void decode_fields(const struct decoder *d, const struct tep_record *rec,
			  struct ca_event *ev)
{
	struct tep_format_field *const *f = d->fields;

	switch (d->kind) {
	case CA_EV_SWITCH:
		if (d->is_plain_switch)
			decode_plain_switch(d, rec, ev);
		else
			decode_switch(d, rec, ev);
		break;
	case CA_EV_WAKEUP:
		decode_wakeup(d, rec, ev);
		break;
	case CA_EV_MIGRATE:
		decode_migrate(d, rec, ev);
		break;
	case CA_EV_FORK:
		ev->fork.parent_pid = (int)read_signed(f[F_PARENT_PID], rec);
		ev->fork.child_pid = (int)read_signed(f[F_CHILD_PID], rec);
		read_comm(d, f[F_CHILD_COMM], rec, ev->fork.child_comm);
		break;
	case CA_EV_EXIT:
		ev->task.pid = (int)read_signed(f[F_PID], rec);
		read_comm(d, f[F_COMM], rec, ev->task.comm);
		break;
	case CA_EV_EXEC:
		decode_exec(d, rec, ev);
		break;
	case CA_EV_IDLE:
		ev->idle.state = (uint32_t)read_unsigned(f[F_STATE], rec);
		ev->idle.cpu_id = (int)read_unsigned(f[F_CPU_ID], rec);
		break;
	case CA_EV_PRCTL_ENTER:
		decode_prctl(d, rec, ev);
		break;
	case CA_EV_PRCTL_EXIT:
		ev->prctl_ret = read_signed(f[F_RET], rec);
		break;
	case CA_EV_MARKER:
		decode_marker(d, rec, ev);
		break;
	case CA_EV_COOKIE:
		decode_cookie(d, rec, ev);
		break;
	case CA_EV_IPI:
		decode_ipi(d, rec, ev);
		break;
	case CA_EV_TICK:
		ev->tick.is_tick_timer = d->is_hrtimer;
		break;
	case CA_EV_KERNEL:
		decode_kernel(d, rec, ev);
		break;
	case CA_EV_LOST:
	case CA_EV_KIND_COUNT:
		break;
	}
}

/* @field, when it fits the padding, growing *@min_size to hold it; else NULL. */
static struct tep_format_field *fixed_field(struct tep_format_field *field, int *min_size)
{
	if (!field || field->offset < 0 || field->size < 0 ||
	    field->offset + field->size > PAD_SIZE)
		return NULL;
	if (field->offset + field->size > *min_size)
		*min_size = field->offset + field->size;
	return field;
}

static bool matches(const struct tep_event *event, size_t i)
{
	const struct ca_event_name *id = &ca_event_descs[i].id;

	if (strcmp(event->name, id->event))
		return false;
	return !id->system || !strcmp(event->system, id->system);
}

/* A decoder for @event, one of those coreaudit reads (@desc); @info says what the trace has. */
static void add_decoder(struct ca_decoders *td, struct tep_event *event,
			const struct ca_event_desc *desc, struct ca_source_info *info)
{
	struct decoder *d = &td->decoders[td->decoder_count++];

	d->kind = desc->kind;
	d->is_new_task = desc->is_new_task;
	d->is_hrtimer = desc->is_hrtimer;
	d->what = desc->what;
	d->is_entry = desc->is_entry;
	d->is_native = td->is_native;
	d->tep = td->tep;
	for (int f = 0; f < F_COUNT; f++)
		d->fields[f] = fixed_field(tep_find_field(event, field_names[f]), &d->min_size);
	d->is_plain_switch = is_plain_switch(d);
	td->by_id[event->id] = d;
	info->has_cookie_probe |= d->kind == CA_EV_COOKIE;
	info->has_prctl_events |= d->kind == CA_EV_PRCTL_EXIT;
	info->has_ipi_events |= d->kind == CA_EV_IPI;
	info->has_tick_events |= d->kind == CA_EV_TICK;
	info->has_wakeup_events |= d->kind == CA_EV_WAKEUP && !d->is_new_task;
	info->has_kernel_events |= d->kind == CA_EV_KERNEL;
}

int ca_decoders_build(struct ca_decoders *td, struct tep_handle *tep,
		      struct ca_source_info *info)
{
	struct tep_event **events;

	memset(td, 0, sizeof(*td));
	td->tep = tep;
	events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int max_id = 0;

	if (!events)
		return -ENOMEM;
	for (int i = 0; events[i]; i++)
		if (events[i]->id > max_id)
			max_id = events[i]->id;
	td->id_count = max_id + 1;
	td->is_native = tep_is_file_bigendian(td->tep) == tep_is_local_bigendian(td->tep);
	td->type_offset = -1;
	td->pid_offset = -1;
	if (events[0]) {
		struct tep_format_field *type = tep_find_common_field(events[0], "common_type");
		struct tep_format_field *pid = tep_find_common_field(events[0], "common_pid");

		if (type && type->size == 2 && pid && pid->size == 4) {
			td->type_offset = type->offset;
			td->pid_offset = pid->offset;
		}
	}
	td->by_id = calloc(td->id_count, sizeof(*td->by_id));
	td->is_defined = calloc(td->id_count, 1);
	td->decoders = calloc(WANTED_COUNT, sizeof(*td->decoders));
	td->tick_memo = calloc(1, sizeof(*td->tick_memo));
	if (!td->by_id || !td->is_defined || !td->decoders || !td->tick_memo)
		return -ENOMEM;
	for (int i = 0; events[i]; i++) {
		td->is_defined[events[i]->id] = 1;
		for (size_t w = 0; w < WANTED_COUNT; w++) {
			if (matches(events[i], w) && td->decoder_count < (int)WANTED_COUNT) {
				add_decoder(td, events[i], &ca_event_descs[w], info);
				break;
			}
		}
	}
	return 0;
}

/*
 * common_type and common_pid, in place when the byte order allows; -1 for a
 * record too short to hold them (libtraceevent would read past it).
 */
static int record_type(const struct ca_decoders *td, const struct tep_record *rec)
{
	uint16_t type;

	if (rec->size < td->type_offset + 2 || rec->size < 2)
		return -1;
	if (!td->is_native || td->type_offset < 0 || rec->size < td->pid_offset + 4)
		return tep_data_type(td->tep, (struct tep_record *)rec);
	memcpy(&type, (const char *)rec->data + td->type_offset, 2);
	return type;
}

static int record_pid(const struct ca_decoders *td, const struct tep_record *rec)
{
	int32_t pid;

	if (rec->size < td->pid_offset + 4 || rec->size < 4)
		return -1;
	if (!td->is_native || td->pid_offset < 0)
		return tep_data_pid(td->tep, (struct tep_record *)rec);
	memcpy(&pid, (const char *)rec->data + td->pid_offset, 4);
	return pid;
}

/* An hrtimer expiry is the tick when its function is tick_* (kallsyms of the trace). */
static bool is_tick_timer(const struct ca_decoders *td, struct ca_tick_memo *memo,
			  const struct decoder *d, const struct tep_record *rec)
{
	unsigned long long addr = read_unsigned(d->fields[F_FUNCTION], rec);
	size_t slot = (size_t)((addr >> 4 ^ addr >> 10) % TICK_SLOTS);
	const char *name;

	if (memo->known[slot] && memo->addr[slot] == addr)
		return memo->known[slot] == 2;
	name = tep_find_function(td->tep, addr);
	memo->addr[slot] = addr;
	memo->known[slot] = 1 + (name && !strncmp(name, "tick_", 5));
	return memo->known[slot] == 2;
}

/* A record shorter than its format (corrupt): a copy whose missing bytes are zeros. */
static struct tep_record *pad_record(struct tep_record *rec, int min_size,
				     unsigned char padded[PAD_SIZE], struct tep_record *copy)
{
	int size = rec->size > 0 ? rec->size : 0;

	memcpy(padded, rec->data, size);
	memset(padded + size, 0, min_size - size);
	*copy = *rec;
	copy->data = padded;
	copy->size = min_size;
	return copy;
}

struct ca_tick_memo *ca_tick_memo_new(void)
{
	return calloc(1, sizeof(struct ca_tick_memo));
}

void ca_tick_memo_free(struct ca_tick_memo *memo)
{
	free(memo);
}

void ca_decoders_share(const struct ca_decoders *td)
{
	unsigned char zeros[64] = { 0 };
	struct tep_record rec = { .data = zeros, .size = sizeof(zeros) };

	tep_find_function(td->tep, 0);	/* builds libtraceevent's function map */
	/* Where the common fields are, noted by libtraceevent at its first read of them. */
	if (!td->is_native || td->type_offset < 0)
		tep_data_type(td->tep, &rec);
	if (!td->is_native || td->pid_offset < 0)
		tep_data_pid(td->tep, &rec);
}

/* @rec's decoder: NULL for an event coreaudit does not read. */
static const struct decoder *decoder_of(const struct ca_decoders *td, const struct tep_record *rec)
{
	int id = record_type(td, rec);

	return id >= 0 && id < td->id_count ? td->by_id[id] : NULL;
}

/* @rec, whole, decoded by @d into @ev. */
static void decode_event(const struct ca_decoders *td, const struct decoder *d,
			 const struct tep_record *rec, struct ca_event *ev)
{
	ev->ts = rec->ts;
	ev->cpu = rec->cpu;
	ev->pid = record_pid(td, rec);
	ev->kind = d->kind;
	decode_fields(d, rec, ev);
}

int ca_decoders_emit(const struct ca_decoders *td, struct tep_record *rec, ca_event_fn fn,
		     void *ctx)
{
	return ca_decoders_emit_with(td, td->tick_memo, rec, fn, ctx);
}

int ca_decoders_emit_with(const struct ca_decoders *td, struct ca_tick_memo *memo,
			  struct tep_record *rec, ca_event_fn fn, void *ctx)
{
	const struct decoder *d = decoder_of(td, rec);
	unsigned char padded[PAD_SIZE];
	struct tep_record copy;
	struct ca_event ev;
	int ret;

	if (rec->missed_events) {
		ev.ts = rec->ts;
		ev.cpu = rec->cpu;
		ev.pid = -1;
		ev.kind = CA_EV_LOST;
		ev.lost = (struct ca_lost){ .count = rec->missed_events > 0 ? rec->missed_events : -1 };
		ret = fn(ctx, &ev);
		if (ret)
			return ret;
	}
	if (d && rec->size < d->min_size)
		rec = pad_record(rec, d->min_size, padded, &copy);
	if (!d || (d->is_hrtimer && !is_tick_timer(td, memo, d, rec)))
		return 0;
	decode_event(td, d, rec, &ev);
	if (ev.kind == CA_EV_IPI && !d->fields[F_CPU])
		return emit_ipi_targets(d, rec, &ev, fn, ctx);
	return fn(ctx, &ev);
}

/* The decoder of @rec when it is an event of @kind, whole; else NULL. */
static const struct decoder *decoder_of_kind(const struct ca_decoders *td,
					     const struct tep_record *rec, enum ca_event_kind kind)
{
	const struct decoder *d = decoder_of(td, rec);

	return d && d->kind == kind && rec->size >= d->min_size && !rec->missed_events ? d : NULL;
}

/*
 * The stream's pairing (stream.c), done where both records are at hand: @rec
 * a sched_switch, @next the next record of its CPU a cs_switch probe of the
 * same pids.  The stream pairs a switch with the next event of its CPU, and
 * with both records whole and nothing lost between them that event is
 * @next's: so the switch goes out with the probe's cookies, the probe not at
 * all, as the stream would have sent them.  Return: the probe's decoder
 * (*@sw the switch's), or NULL.
 */
static const struct decoder *probe_of(const struct ca_decoders *td, const struct tep_record *rec,
				      const struct tep_record *next, const struct decoder **sw)
{
	const struct decoder *d = decoder_of_kind(td, rec, CA_EV_SWITCH);
	const struct decoder *probe = d ? decoder_of_kind(td, next, CA_EV_COOKIE) : NULL;

	/* (compared as the stream compares the events' pids: as int) */
	if (!probe || (int)read_signed(d->fields[F_PREV_PID], rec) !=
		      (int)read_signed_as(probe->fields[F_PREV_PID], next, probe->is_native) ||
	    (int)read_signed(d->fields[F_NEXT_PID], rec) !=
		      (int)read_signed_as(probe->fields[F_NEXT_PID], next, probe->is_native))
		return NULL;
	*sw = d;
	return probe;
}

bool ca_decoders_pairs(const struct ca_decoders *td, const struct tep_record *rec,
		       const struct tep_record *next)
{
	const struct decoder *sw;

	return probe_of(td, rec, next, &sw) != NULL;
}

int ca_decoders_emit_paired(const struct ca_decoders *td, struct tep_record *rec,
			    struct tep_record *next, ca_event_fn fn, void *ctx)
{
	const struct decoder *sw;
	const struct decoder *probe = probe_of(td, rec, next, &sw);
	struct ca_event ev;

	if (!probe)
		return -EINVAL;	/* not after ca_decoders_pairs() */
	decode_event(td, sw, rec, &ev);
	ev.sw.has_cookies = true;
	ev.sw.prev_cookie = read_unsigned_as(probe->fields[F_PREV_COOKIE], next, probe->is_native);
	ev.sw.next_cookie = read_unsigned_as(probe->fields[F_NEXT_COOKIE], next, probe->is_native);
	return fn(ctx, &ev);
}

#define CPU_LIMIT 8192		/* NR_CPUS at its largest */

static bool is_pid(int64_t pid)
{
	return pid >= 0 && pid < CA_PID_LIMIT;	/* PID_MAX_LIMIT */
}

static bool is_cpu(const struct tep_format_field *field, int64_t cpu)
{
	return !field || (cpu >= 0 && cpu < CPU_LIMIT);
}

#define BYTES_ONES 0x0101010101010101ull
#define BYTES_HIGHS 0x8080808080808080ull

/*
 * The high bit of each byte of @x below @n (n <= 0x80) set, exact up to the
 * first such byte; a borrow may set it in later bytes too, which the caller
 * does not read.
 */
static inline uint64_t bytes_below(uint64_t x, unsigned int n)
{
	return (x - BYTES_ONES * n) & ~x & BYTES_HIGHS;
}

/*
 * 8 bytes of a comm at once (a 16-byte comm is two words, not 16 rounds of a
 * loop: the plausibility of every name was 8% of a storm's audit): 1 for
 * bytes all printable, 0 when the first control character or DEL is a NUL
 * (the comm ends well), -1 when it is another.
 */
static int comm_word(const unsigned char *at)
{
	uint64_t word, control, del;
	int first_control, first_del;

	memcpy(&word, at, 8);
	control = bytes_below(word, 0x20);
	del = bytes_below(word ^ BYTES_ONES * 0x7f, 1);
	if (!control && !del)
		return 1;
	first_control = control ? __builtin_ctzll(control) / 8 : 8;
	first_del = del ? __builtin_ctzll(del) / 8 : 8;
	if (first_del < first_control)
		return -1;
	return at[first_control] ? -1 : 0;
}

/* A comm up to its NUL: no control characters. */
static bool is_comm(const struct decoder *d, const struct tep_format_field *field,
		    const struct tep_record *rec)
{
	int len = 0, i = 0;
	const unsigned char *bytes = (const unsigned char *)field_bytes(d, field, rec, &len);

	if (!bytes)
		return true;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= len; i += 8) {
		int word = comm_word(bytes + i);

		if (word <= 0)
			return word == 0;
	}
#endif
	for (; i < len && bytes[i]; i++)
		if (bytes[i] < 0x20 || bytes[i] == 0x7f)
			return false;
	return true;
}

/* A cookie is 0 or a kernel address (the top 16 bits set) where it is 64 bits wide. */
static bool is_cookie(const struct decoder *d, const struct tep_format_field *field,
		      const struct tep_record *rec)
{
	uint64_t cookie = read_unsigned(field, rec);

	return !field || field->size != 8 || !cookie || cookie >> 48 == 0xffff;
}

static bool is_plausible_switch(const struct decoder *d, const struct tep_record *rec)
{
	struct tep_format_field *const *f = d->fields;
	int64_t state = read_signed(f[F_PREV_STATE], rec);
	int64_t prios[2] = { read_signed(f[F_PREV_PRIO], rec), read_signed(f[F_NEXT_PRIO], rec) };

	for (int i = 0; i < 2; i++)
		if (prios[i] < -100 || prios[i] > 200)
			return false;
	return is_pid(read_signed(f[F_PREV_PID], rec)) && is_pid(read_signed(f[F_NEXT_PID], rec)) &&
	       state >= 0 && state < 0x10000 && is_comm(d, f[F_PREV_COMM], rec) &&
	       is_comm(d, f[F_NEXT_COMM], rec);
}

static bool is_plausible_fields(const struct decoder *d, const struct tep_record *rec)
{
	struct tep_format_field *const *f = d->fields;
	uint64_t state;

	switch (d->kind) {
	case CA_EV_SWITCH:
		return is_plausible_switch(d, rec);
	case CA_EV_WAKEUP:
		return is_pid(read_signed(f[F_PID], rec)) &&
		       is_cpu(f[F_TARGET_CPU], read_signed(f[F_TARGET_CPU], rec)) &&
		       is_comm(d, f[F_COMM], rec);
	case CA_EV_MIGRATE:
		return is_pid(read_signed(f[F_PID], rec)) &&
		       is_cpu(f[F_ORIG_CPU], read_signed(f[F_ORIG_CPU], rec)) &&
		       is_cpu(f[F_DEST_CPU], read_signed(f[F_DEST_CPU], rec));
	case CA_EV_FORK:
		return is_pid(read_signed(f[F_PARENT_PID], rec)) &&
		       is_pid(read_signed(f[F_CHILD_PID], rec)) && is_comm(d, f[F_CHILD_COMM], rec);
	case CA_EV_IDLE:
		state = read_unsigned(f[F_STATE], rec);
		return (state < 1024 || state == UINT32_MAX) &&
		       is_cpu(f[F_CPU_ID], (int64_t)read_unsigned(f[F_CPU_ID], rec));
	case CA_EV_COOKIE:
		return is_pid(read_signed(f[F_PREV_PID], rec)) &&
		       is_pid(read_signed(f[F_NEXT_PID], rec)) &&
		       is_cookie(d, f[F_PREV_COOKIE], rec) && is_cookie(d, f[F_NEXT_COOKIE], rec);
	case CA_EV_IPI:
		return is_cpu(f[F_CPU], read_signed(f[F_CPU], rec));
	default:
		return true;
	}
}

bool ca_decoders_plausible(const void *decoders, const void *data, int size)
{
	const struct ca_decoders *td = decoders;
	struct tep_record rec = { .data = (void *)data, .size = size };
	const struct decoder *d = decoder_of(td, &rec);

	if (td->pid_offset >= 0 && size >= td->pid_offset + 4 && !is_pid(record_pid(td, &rec)))
		return false;
	if (!d)
		return true;
	return size >= d->min_size && is_plausible_fields(d, &rec);
}

void ca_decoders_free(struct ca_decoders *td)
{
	free(td->by_id);
	free(td->is_defined);
	free(td->decoders);
	free(td->tick_memo);
	td->by_id = NULL;
	td->is_defined = NULL;
	td->decoders = NULL;
	td->tick_memo = NULL;
}
