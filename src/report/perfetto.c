/*
 * perfetto.c - the trace and the findings as Chrome trace-event JSON, the
 * format ui.perfetto.dev (and chrome://tracing) opens: a process per core
 * (its name lists the CPUs), in it a thread per CPU with the tasks it ran
 * (complete events, "X") and the instants of its reschedule IPIs and
 * wakeups ("i"), a thread per CPU with its forced-idle stretches, and the
 * core's co-run windows as async slices ("b"/"e", which may overlap on SMT4),
 * named by kind and cause.  Times are microseconds from the trace's first
 * event, with three decimals (the nanosecond).  Every value is made by
 * json-c; only the array's punctuation is written here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "coreaudit/report.h"
#include "report/common.h"

typedef struct json_object json;

#define FORCED_TID_BASE (CA_CPU_LIMIT + 1)	/* a CPU's forced-idle thread: base + cpu */

struct writer {
	FILE *out;
	const struct ca_audit *audit;
	uint64_t t0;
	size_t count;		/* events written */
};

static void put(json *obj, const char *key, json *value)
{
	json_object_object_add(obj, key, value);
}

/* @ns as microseconds, to the nanosecond. */
static json *micros(uint64_t ns)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
	return json_object_new_double_s((double)ns / 1e3, text);
}

/* Nanoseconds since the trace's first event. */
static uint64_t since(const struct writer *wr, uint64_t ts)
{
	return ts > wr->t0 ? ts - wr->t0 : 0;
}

static json *clean_string(const char *text)
{
	char copy[256];

	snprintf(copy, sizeof(copy), "%s", text ? text : "");
	ca_report_clean(copy);
	return json_object_new_string(copy);
}

static void emit(struct writer *wr, json *event)
{
	fputs(wr->count++ ? ",\n" : "\n", wr->out);
	fputs(json_object_to_json_string_ext(event, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), wr->out);
	json_object_put(event);
}

static json *event(const char *ph, int pid, int tid, const char *name)
{
	json *e = json_object_new_object();

	put(e, "ph", json_object_new_string(ph));
	put(e, "pid", json_object_new_int(pid));
	if (tid >= 0)
		put(e, "tid", json_object_new_int(tid));
	put(e, "name", clean_string(name));
	return e;
}

static void metadata(struct writer *wr, const char *what, int pid, int tid, const char *name,
		     int sort)
{
	json *e = event("M", pid, tid, what), *args = json_object_new_object();

	put(args, "name", clean_string(name));
	put(e, "args", args);
	emit(wr, e);
	e = event("M", pid, tid, tid < 0 ? "process_sort_index" : "thread_sort_index");
	args = json_object_new_object();
	put(args, "sort_index", json_object_new_int(sort));
	put(e, "args", args);
	emit(wr, e);
}

/* A process per core, named with its CPUs; a task thread and a forced-idle thread per CPU. */
static void name_tracks(struct writer *wr)
{
	const struct ca_topology *topo = &wr->audit->pipeline->state.topo;
	char name[96];

	for (int core = 0; core < topo->core_count; core++) {
		int used = snprintf(name, sizeof(name), "core %d (CPUs", core);

		for (int i = 0; i < topo->sibling_count[core] && used < (int)sizeof(name); i++)
			used += snprintf(name + used, sizeof(name) - (size_t)used, "%s%d",
					 i ? "," : " ", topo->siblings[core][i]);
		if (used < (int)sizeof(name) - 1)
			snprintf(name + used, sizeof(name) - (size_t)used, ")");
		metadata(wr, "process_name", core + 1, -1, name, core);
		for (int i = 0; i < topo->sibling_count[core]; i++) {
			int cpu = topo->siblings[core][i];

			snprintf(name, sizeof(name), "CPU %d", cpu);
			metadata(wr, "thread_name", core + 1, cpu + 1, name, i);
			snprintf(name, sizeof(name), "CPU %d forced idle", cpu);
			metadata(wr, "thread_name", core + 1, FORCED_TID_BASE + cpu, name,
				 CA_MAX_SIBLINGS + i);
		}
	}
}

static const char *comm_of(const struct writer *wr, int pid)
{
	const struct ca_task *task = ca_tasks_lookup(&wr->audit->pipeline->state.tasks, pid);

	return task ? task->comm : "?";
}

static void segment(struct writer *wr, int core, int cpu, const struct ca_tl_segment *seg,
		    uint64_t end)
{
	const struct ca_timeline *tl = &wr->audit->pipeline->timeline;
	int tid = seg->kind == CA_TL_FORCED ? FORCED_TID_BASE + cpu : cpu + 1;
	char name[64], ident[80] = "unknown";
	json *e, *args;

	if (seg->kind == CA_TL_IDLE || end <= seg->start)
		return;
	if (seg->kind == CA_TL_TASK)
		snprintf(name, sizeof(name), "%s:%d", comm_of(wr, seg->pid), seg->pid);
	else
		snprintf(name, sizeof(name), "%s", seg->kind == CA_TL_FORCED ? "forced idle" :
			 "unobserved");
	e = event("X", core + 1, tid, name);
	put(e, "cat", json_object_new_string(seg->kind == CA_TL_TASK ? "task" :
					     seg->kind == CA_TL_FORCED ? "forced-idle" : "unknown"));
	put(e, "ts", micros(since(wr, seg->start)));
	put(e, "dur", micros(end - seg->start));
	if (seg->kind == CA_TL_TASK) {
		args = json_object_new_object();
		if (seg->ident)
			ca_report_identity(wr->audit, tl->idents[seg->ident - 1], ident, sizeof(ident));
		put(args, wr->audit->pipeline->state.identity == CA_IDENTITY_TAG ? "tag" : "cookie",
		    clean_string(ident));
		put(e, "args", args);
	}
	emit(wr, e);
}

static void segments(struct writer *wr)
{
	const struct ca_timeline *tl = &wr->audit->pipeline->timeline;
	const struct ca_topology *topo = &wr->audit->pipeline->state.topo;

	for (int cpu = 0; cpu < tl->cpu_count; cpu++) {
		const struct ca_tl_cpu *c = &tl->cpus[cpu];
		int core = ca_topology_core_of(topo, cpu);

		for (size_t i = 0; core >= 0 && i < c->count; i++)
			segment(wr, core, cpu, &c->segments[i],
				i + 1 < c->count ? c->segments[i + 1].start : tl->end_ts);
	}
}

static json *window_args(const struct writer *wr, const struct ca_window *w)
{
	json *args = json_object_new_object();
	char task[96], ident[80];

	put(args, "length_ns", json_object_new_uint64(w->end - w->start));
	put(args, "kind", json_object_new_string(ca_window_kind_name(w->kind)));
	put(args, "cause", json_object_new_string(ca_window_cause_name(w->cause)));
	for (int i = 0; i < 2; i++) {
		const struct ca_window_task *t = &w->tasks[i];

		snprintf(ident, sizeof(ident), "unknown");
		if (t->is_known)
			ca_report_identity(wr->audit, t->identity, ident, sizeof(ident));
		snprintf(task, sizeof(task), "%s:%d on CPU %d (%s)", t->comm, t->pid, w->cpus[i],
			 ident);
		put(args, i ? "task_b" : "task_a", clean_string(task));
	}
	return args;
}

/* The kept co-run windows as async slices of their core. */
static void windows(struct writer *wr)
{
	const struct ca_isolation *iso = &wr->audit->pipeline->isolation;

	for (size_t i = 0; i < iso->list_count; i++) {
		const struct ca_window *w = &iso->list[i];
		char name[64];

		snprintf(name, sizeof(name), "%s: %s", ca_window_kind_name(w->kind),
			 ca_window_cause_name(w->cause));
		for (int end = 0; end < 2; end++) {
			json *e = event(end ? "e" : "b", w->core + 1, -1, name);

			put(e, "cat", json_object_new_string("window"));
			put(e, "id", json_object_new_uint64(i + 1));
			put(e, "ts", micros(since(wr, end ? w->end : w->start)));
			if (!end)
				put(e, "args", window_args(wr, w));
			emit(wr, e);
		}
	}
}

static void instants(struct writer *wr)
{
	const struct ca_timeline *tl = &wr->audit->pipeline->timeline;
	const struct ca_topology *topo = &wr->audit->pipeline->state.topo;

	for (size_t i = 0; i < tl->instant_count; i++) {
		const struct ca_tl_instant *in = &tl->instants[i];
		int core = in->cpu < topo->cpu_count ? ca_topology_core_of(topo, in->cpu) : -1;
		char name[64];
		json *e;

		if (core < 0)
			continue;
		if (in->kind == CA_TL_WAKEUP)
			snprintf(name, sizeof(name), "wakeup %s:%d to CPU %d", comm_of(wr, in->pid),
				 in->pid, in->target);
		else
			snprintf(name, sizeof(name), "reschedule IPI to CPU %d", in->target);
		e = event("i", core + 1, in->cpu + 1, name);
		put(e, "cat", json_object_new_string(in->kind == CA_TL_WAKEUP ? "wakeup" : "ipi"));
		put(e, "s", json_object_new_string("t"));
		put(e, "ts", micros(since(wr, in->ts)));
		emit(wr, e);
	}
}

static json *other_data(const struct ca_audit *audit, uint64_t t0)
{
	json *obj = json_object_new_object();

	put(obj, "tool", json_object_new_string("coreaudit"));
	put(obj, "file", clean_string(audit->opts.path));
	put(obj, "verdict", json_object_new_string(ca_verdict_name(audit->verdict)));
	put(obj, "first_event_ns", json_object_new_uint64(t0));
	return obj;
}

int ca_report_perfetto(const char *path, const struct ca_audit *audit)
{
	struct writer wr = { .audit = audit, .t0 = audit->pipeline->timeline.start_ts };
	json *other;
	int ret;

	if (!audit->pipeline->has_timeline)
		return -EINVAL;
	wr.out = fopen(path, "w");
	if (!wr.out)
		return -errno;
	other = other_data(audit, wr.t0);
	fprintf(wr.out, "{\"displayTimeUnit\": \"ns\", \"otherData\": %s,\n\"traceEvents\": [",
		json_object_to_json_string_ext(other, JSON_C_TO_STRING_PLAIN));
	json_object_put(other);
	name_tracks(&wr);
	segments(&wr);
	instants(&wr);
	windows(&wr);
	fputs("\n]}\n", wr.out);
	ret = ferror(wr.out) ? -EIO : 0;
	if (fclose(wr.out) && !ret)
		ret = -EIO;
	return ret;
}
