/*
 * text.c - the human summary: verdict line first, then the trace, per-core
 * table, window statistics, the longest windows, forced idle and starvation.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "coreaudit/report.h"
#include "observed.h"
#include "report/common.h"
#include "report/rows.h"
#include "report/sections.h"

#define D(ns, buf) ca_format_duration((ns), (buf), sizeof(buf))
#define MS(ns, buf) format_ms((ns), (buf), sizeof(buf))
/* A timestamp as trace-cmd report prints it, exact to the nanosecond at any uptime. */
#define TS(ns, buf) ca_format_timestamp((ns), (buf), sizeof(buf))

/* A table's column is in one unit, as perf sched's: milliseconds to the microsecond. */
static char *format_ms(uint64_t ns, char *buf, size_t len)
{
	uint64_t us = ns / 1000 + (ns % 1000 >= 500);

	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
	return buf;
}

/* SGR sequences: bold green, bold red, bold yellow, red, yellow, and back. */
#define GREEN "\033[1;32m"
#define RED "\033[1;31m"
#define YELLOW "\033[1;33m"
#define FAINT_RED "\033[31m"
#define FAINT_YELLOW "\033[33m"
#define PLAIN "\033[0m"

/*
 * The verdict and its reasons, coloured on a terminal: a failure red, what
 * is unknown yellow, a pass green.
 */
static void write_verdict(FILE *out, const struct ca_audit *audit, bool is_colour)
{
	static const char *const words[] = { "PASS", "FAIL", "INCONCLUSIVE" };
	static const char *const colours[] = { GREEN, RED, YELLOW };

	fprintf(out, "coreaudit: %s%s%s\n", is_colour ? colours[audit->verdict] : "",
		words[audit->verdict], is_colour ? PLAIN : "");
	for (int i = 0; i < audit->reason_count; i++)
		fprintf(out, "  - %s%s%s\n",
			!is_colour ? "" : i < audit->failure_count ? FAINT_RED : FAINT_YELLOW,
			audit->reasons[i], is_colour ? PLAIN : "");
	for (int i = 0; i < audit->warning_count; i++)
		fprintf(out, "%swarning:%s %s\n", is_colour ? FAINT_YELLOW : "",
			is_colour ? PLAIN : "", audit->warnings[i]);
}

/* How much of the span the audited CPUs were observed over, and which were not. */
static void write_observed(FILE *out, const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	char d[32];

	fprintf(out, "  observed %.2f%% of the audited CPUs' time over the span", audit->observed_pct);
	if (!audit->unobserved_cpus) {
		fputs(" (every CPU throughout)\n", out);
		return;
	}
	fprintf(out, "; unobserved:");
	for (int cpu = 0, shown = 0; cpu < state->topo.cpu_count; cpu++) {
		uint64_t ns = state->cpus[cpu].coverage.unobserved_ns +
			      ca_observed_edges_ns(audit, cpu);

		if (ca_topology_core_of(&state->topo, cpu) < 0 || !ns)
			continue;
		if (shown++ == 8) {
			fprintf(out, " ...");
			break;
		}
		fprintf(out, " CPU %d %s", cpu, D(ns, d));
	}
	fputc('\n', out);
}

/* --from, --to: which part of the trace was audited, and what was left out. */
static void write_cut(FILE *out, const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	char first[32], last[32], trace_first[32], trace_last[32];

	if (!audit->is_cut)
		return;
	fprintf(out, "  cut (--from, --to): audited %s s to %s s of a trace from %s s to %s s; "
		"%" PRIu64 " events before and %" PRIu64 " after not audited (cookies and tags "
		"set before known)\n", ca_format_timestamp(state->first_ts, first, sizeof(first)),
		ca_format_timestamp(state->last_ts, last, sizeof(last)),
		ca_format_timestamp(audit->trace_first_ts, trace_first, sizeof(trace_first)),
		ca_format_timestamp(audit->trace_last_ts, trace_last, sizeof(trace_last)),
		audit->events_before, audit->events_after);
}

static void write_trace(FILE *out, const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	char topo[256], span[32];

	ca_topology_brief(&state->topo, topo, sizeof(topo));
	fprintf(out, "\ntrace: %s (%s, clock %s)\n", audit->opts.path, audit->info.format,
		audit->info.clock);
	fprintf(out, "  span %s, %" PRIu64 " events, topology \"%s\" (%s), identity %s, "
		"cookies from %s, lost events %" PRIu64 "\n",
		D(state->last_ts - state->first_ts, span), audit->events, topo,
		audit->is_topology_from_option ? "--topology" : "marker",
		state->identity == CA_IDENTITY_TAG ? "tags (markers)" : "kernel cookies",
		ca_cookie_source_name(state->cookie_source), audit->lost_events);
	write_cut(out, audit);
	write_observed(out, audit);
	if (state->identity == CA_IDENTITY_TAG || audit->pipeline->has_rules)
		fprintf(out, "  tags checked against kernel cookies: %s\n",
			state->cookie_source == CA_COOKIES_NONE ? "no (the trace has none)" :
			ca_cookie_source_name(state->cookie_source));
}

static void write_cores(FILE *out, const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;

	fprintf(out, "\n%-5s %-12s %8s %10s %16s %16s\n", "core", "cpus", "windows",
		"violations", "co-run time (ms)", "forced idle (ms)");
	for (int core = 0; core < state->topo.core_count; core++) {
		char cpus[64] = "", total[32], fi[32];
		uint64_t fi_ns = 0;
		int used = 0;

		for (int i = 0; i < state->topo.sibling_count[core]; i++) {
			int cpu = state->topo.siblings[core][i];

			used += snprintf(cpus + used, sizeof(cpus) - used, "%s%d", i ? "," : "", cpu);
			fi_ns += audit->pipeline->forcedidle.per_cpu_ns[cpu];
		}
		fprintf(out, "%-5d %-12s %8zu %10" PRIu64 " %16s %16s\n", core, cpus,
			audit->pipeline->isolation.per_core_all[core].count,
			audit->pipeline->isolation.per_core_violations[core] +
			(audit->pipeline->has_rules ? audit->pipeline->policy.per_core_violations[core] : 0),
			MS(audit->pipeline->isolation.per_core_corun_ns[core], total), MS(fi_ns, fi));
	}
	if (audit->pipeline->isolation.corun_upper_bounds)
		fprintf(out, "  (co-run time of %d core%s: an upper bound, past %d co-runs kept "
			"while a window waited for the end of the trace)\n",
			audit->pipeline->isolation.corun_upper_bounds,
			audit->pipeline->isolation.corun_upper_bounds == 1 ? "" : "s",
			CA_CORUN_MAX_SPANS);
}

/* Percentiles of more than CA_DURATIONS_EXACT windows come from a histogram. */
static void note_if_approximate(FILE *out, const struct ca_summary *summaries, int count)
{
	for (int i = 0; i < count; i++) {
		if (summaries[i].is_approximate) {
			fprintf(out, "  (p50/p99 of more than %d windows: from a histogram, at most "
				"0.4%% high)\n", CA_DURATIONS_EXACT);
			return;
		}
	}
}

static void write_window_stats(FILE *out, const struct ca_audit *audit)
{
	char grace[32], label[80];

	D(audit->opts.grace_ns, grace);
	fprintf(out, "\nco-run windows of different %-10s %7s %11s %11s %11s %11s\n",
		audit->pipeline->state.identity == CA_IDENTITY_TAG ? "tags" : "cookies", "count",
		"total (ms)", "p50 (ms)", "p99 (ms)", "max (ms)");
	for (int kind = 0; kind < CA_WINDOW_KIND_COUNT; kind++) {
		const struct ca_summary *s = &audit->pipeline->isolation.summary[kind];
		char t[32], p50[32], p99[32], max[32];

		if (kind == CA_WINDOW_SKEW && audit->pipeline->isolation.has_causes)
			snprintf(label, sizeof(label), "skew (explained, or < %s)", grace);
		else if (kind == CA_WINDOW_SKEW)
			snprintf(label, sizeof(label), "skew (< %s)", grace);
		else if (kind == CA_WINDOW_VIOLATION &&
			 audit->pipeline->isolation.cause_summary[CA_CAUSE_SAME_COOKIE].count)
			snprintf(label, sizeof(label), "violation (same cookie, %s)",
				 audit->pipeline->isolation.has_causes ? "unexplained" : ">= grace");
		else if (kind == CA_WINDOW_VIOLATION && audit->pipeline->isolation.has_causes)
			snprintf(label, sizeof(label), "violation (unexplained >= %s)", grace);
		else if (kind == CA_WINDOW_VIOLATION)
			snprintf(label, sizeof(label), "violation (>= %s)", grace);
		else if (audit->pipeline->isolation.undecided_summary.count)
			snprintf(label, sizeof(label), "unknown (identity, switch, cause)");
		else
			snprintf(label, sizeof(label), "unknown (identity, missed switch)");
		fprintf(out, "  %-36s %7" PRIu64 " %11s %11s %11s %11s\n", label, s->count,
			MS(s->total_ns, t), MS(s->p50_ns, p50), MS(s->p99_ns, p99), MS(s->max_ns, max));
	}
	note_if_approximate(out, audit->pipeline->isolation.summary, CA_WINDOW_KIND_COUNT);
}

static void write_cause_stats(FILE *out, const struct ca_audit *audit)
{
	if (!audit->pipeline->isolation.has_causes) {
		fprintf(out, "  causes unknown: no ipi events in the trace\n");
		return;
	}
	fprintf(out, "\n%-38s %7s %11s %11s %11s %11s\n", "windows by cause", "count",
		"total (ms)", "p50 (ms)", "p99 (ms)", "max (ms)");
	for (int cause = 0; cause < CA_CAUSE_COUNT; cause++) {
		const struct ca_summary *s = &audit->pipeline->isolation.cause_summary[cause];
		char t[32], p50[32], p99[32], max[32];

		/* Rows that only some traces have: unknown (no tick events), same-cookie (tags). */
		if (cause > CA_CAUSE_UNEXPLAINED && !s->count)
			continue;

		fprintf(out, "  %-36s %7" PRIu64 " %11s %11s %11s %11s\n",
			ca_window_cause_name(cause), s->count, MS(s->total_ns, t), MS(s->p50_ns, p50),
			MS(s->p99_ns, p99), MS(s->max_ns, max));
	}
}

static void format_task(const struct ca_audit *audit, const struct ca_window_task *t,
			char *buf, size_t len)
{
	if (!t->is_known)
		snprintf(buf, len, "%s:%d (unknown)", t->comm, t->pid);
	else if (audit->pipeline->state.identity == CA_IDENTITY_TAG)
		snprintf(buf, len, "%s:%d tag=%s", t->comm, t->pid,
			 t->identity ? ca_tasks_tag_name(&audit->pipeline->state.tasks, (int)t->identity)
				     : "(none)");
	else
		snprintf(buf, len, "%s:%d cookie=%#" PRIx64, t->comm, t->pid, t->identity);
}

/* Who ran on each CPU of a row: "0: comm:pid cookie=... | 2: ..." */
static void format_row_tasks(const struct ca_audit *audit, const struct ca_window_row *row,
			     char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < row->cpu_count && used < len; i++) {
		char task[96];

		format_task(audit, row->tasks[i], task, sizeof(task));
		used += snprintf(buf + used, len - used, "%s%d: %s", i ? " | " : "", row->cpus[i],
				 task);
	}
}

/* The longest co-runs, one row each (report/rows.h), in one unit per column. */
static void write_windows(FILE *out, const struct ca_audit *audit, int top)
{
	size_t room = audit->pipeline->isolation.list_count < (size_t)top ?
		      audit->pipeline->isolation.list_count : (size_t)top;
	struct ca_window_row *rows = calloc(room ? room : 1, sizeof(*rows));
	long count = rows ? ca_report_window_rows(audit, rows, room) : -1;

	if (count <= 0) {
		free(rows);
		return;
	}
	fprintf(out, "\nlongest windows (pair windows overlapping on a core: one row)\n"
		"  %-16s %11s %-4s %-10s %-14s %s\n", "start (s)", "length (ms)", "core", "kind",
		"cause", "who ran (cpu: task)");
	for (long i = 0; i < count; i++) {
		const struct ca_window_row *row = &rows[i];
		char length[32], tasks[512], at[32];

		format_row_tasks(audit, row, tasks, sizeof(tasks));
		fprintf(out, "  %-16s %11s %-4d %-10s %-14s %s%s\n", TS(row->start, at),
			MS(row->end - row->start, length), row->core, ca_window_kind_name(row->kind),
			ca_window_cause_name(row->cause), tasks,
			row->is_open_at_end ? " (open at end)" : "");
	}
	free(rows);
}

static void write_evidence_line(FILE *out, const struct ca_trace_line *l);
static void write_evidence(FILE *out, const struct ca_audit *audit, const struct ca_window *w);

/* --explain: one CPU as it stood at the instant. */
static void write_explain_cpu(FILE *out, const struct ca_audit *audit, int cpu)
{
	const struct ca_explain_cpu *c = &audit->pipeline->explain.cpus[cpu];
	char task[96], since[32];

	if (c->run == CA_CPU_TASK)
		format_task(audit, &c->task, task, sizeof(task));
	else if (c->run == CA_CPU_IDLE)
		snprintf(task, sizeof(task), "idle%s (%d queued)", c->is_forced ? ", forced" : "",
			 c->queued);
	else
		snprintf(task, sizeof(task), "not known (no event yet, or events lost)");
	fprintf(out, "    cpu %-4d %s", cpu, task);
	if (c->run != CA_CPU_UNKNOWN)
		fprintf(out, ", since %s s", ca_format_timestamp(c->since, since, sizeof(since)));
	fputc('\n', out);
}

static bool has_explained_window(const struct ca_audit *audit, int core)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;

	for (int i = 0; i < iso->explained_count; i++)
		if (iso->explained[i].core == core)
			return true;
	return false;
}

/* The cores with a window open at the instant; none: every core, up to @top. */
static void write_explain_cores(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_topology *topo = &audit->pipeline->state.topo;
	bool is_any = audit->pipeline->isolation.explained_count > 0;
	int shown = 0;

	for (int core = 0; core < topo->core_count; core++) {
		if (is_any ? !has_explained_window(audit, core) : shown == top)
			continue;
		shown++;
		fprintf(out, "  core %d\n", core);
		for (int i = 0; i < topo->sibling_count[core]; i++)
			write_explain_cpu(out, audit, topo->siblings[core][i]);
	}
	if (!is_any && topo->core_count > shown)
		fprintf(out, "  (%d more cores: --top)\n", topo->core_count - shown);
}

static void write_explain_window(FILE *out, const struct ca_audit *audit,
				 const struct ca_window *w)
{
	char start[32], length[32], a[96], b[96], leaving[32] = "";

	format_task(audit, &w->tasks[0], a, sizeof(a));
	format_task(audit, &w->tasks[1], b, sizeof(b));
	if (w->leaving_cpu >= 0)
		snprintf(leaving, sizeof(leaving), ", cpu%d had to leave", w->leaving_cpu);
	fprintf(out, "  %s s for %s%s, core %d, cpus %d,%d: %s, cause %s%s\n    %s | %s\n",
		ca_format_timestamp(w->start, start, sizeof(start)), D(w->end - w->start, length),
		w->is_open_at_end ? " (open at the end)" : "", w->core, w->cpus[0], w->cpus[1],
		ca_window_kind_name(w->kind), ca_window_cause_name(w->cause), leaving, a, b);
	write_evidence(out, audit, w);
}

/* --explain TS: what every CPU ran then, and each co-run window open then. */
static void write_explain(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_explain *x = &audit->pipeline->explain;
	const struct ca_isolation *iso = &audit->pipeline->isolation;
	char at[32], first[32], last[32];

	if (!x->is_asked)
		return;
	fprintf(out, "\nat %s s (--explain)\n", ca_format_timestamp(x->ts, at, sizeof(at)));
	if (!x->is_in_span) {
		fprintf(out, "  outside the audited span, %s s to %s s: nothing known then\n",
			ca_format_timestamp(audit->pipeline->state.first_ts, first, sizeof(first)),
			ca_format_timestamp(audit->pipeline->state.last_ts, last, sizeof(last)));
		return;
	}
	write_explain_cores(out, audit, top);
	if (!iso->explained_count) {
		fprintf(out, "  no co-run window of different %s open then\n",
			audit->pipeline->state.identity == CA_IDENTITY_TAG ? "tags" : "cookies");
		return;
	}
	fprintf(out, "  co-run windows open then\n");
	for (int i = 0; i < iso->explained_count; i++)
		write_explain_window(out, audit, &iso->explained[i]);
	if (iso->explained_dropped)
		fprintf(out, "  (%" PRIu64 " more not kept)\n", iso->explained_dropped);
}

static void write_evidence_line(FILE *out, const struct ca_trace_line *l)
{
	char at[32];

	fprintf(out, "      %s cpu%d %-18s pid %d", TS(l->ts, at), l->cpu,
		ca_event_kind_name(l->kind), l->pid);
	if (l->kind == CA_EV_SWITCH)
		fprintf(out, "  %d ==> %d", l->a, l->b);
	else if (l->kind == CA_EV_WAKEUP)
		fprintf(out, "  wakes %d on cpu%d", l->a, l->b);
	else if (l->kind == CA_EV_IPI)
		fprintf(out, "  to cpu%d%s", l->a, l->b ? " (reschedule)" : "");
	fputc('\n', out);
}

/* The evidence kept for window @w (both CPUs' events around it), if any. */
static void write_evidence(FILE *out, const struct ca_audit *audit, const struct ca_window *w)
{
	const struct ca_evidence *e = ca_isolation_evidence(&audit->pipeline->isolation, w);

	for (int l = 0; e && l < e->count; l++)
		write_evidence_line(out, &e->lines[l]);
}

void ca_text_violations(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_window **sorted = ca_report_sorted_windows(audit);
	int shown = 0;

	for (size_t i = 0; sorted && i < audit->pipeline->isolation.list_count && shown < top; i++) {
		const struct ca_window *w = sorted[i];
		char length[32], a[96], b[96], at[32];

		if (w->kind != CA_WINDOW_VIOLATION)
			continue;
		shown++;
		format_task(audit, &w->tasks[0], a, sizeof(a));
		format_task(audit, &w->tasks[1], b, sizeof(b));
		fprintf(out, "%s %s on core %d (cpus %d,%d, cause %s): %s | %s\n", TS(w->start, at),
			D(w->end - w->start, length), w->core, w->cpus[0], w->cpus[1],
			ca_window_cause_name(w->cause), a, b);
		write_evidence(out, audit, w);
	}
	free(sorted);
}

/* The unexplained windows, longest first, each with the events around it. */
static void write_unexplained(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_window **sorted = ca_report_sorted_windows(audit);
	int shown = 0;

	for (size_t i = 0; sorted && i < audit->pipeline->isolation.list_count && shown < top; i++) {
		const struct ca_window *w = sorted[i];
		char length[32], at[32];

		if (w->cause != CA_CAUSE_UNEXPLAINED || w->kind == CA_WINDOW_UNKNOWN)
			continue;
		if (!shown++)
			fprintf(out, "\nunexplained windows: no reschedule request to the sibling "
				"that had to leave\n");
		fprintf(out, "  %s %s on core %d, cpu%d had to leave\n", TS(w->start, at),
			D(w->end - w->start, length), w->core, w->leaving_cpu);
		write_evidence(out, audit, w);
	}
	free(sorted);
}

/* The longest stretch any task starved: who, how long, from when, on which CPU. */
static void write_longest_starvation(FILE *out, const struct ca_audit *audit)
{
	const struct ca_task *t = ca_tasks_lookup(&audit->pipeline->state.tasks,
						  audit->max_starved_pid);
	char length[32], from[32];

	if (!audit->max_starved_ns)
		return;
	fprintf(out, "  longest starvation: %s:%d %s from %s s, queued on forced-idle CPU %d\n",
		t ? t->comm : "?", audit->max_starved_pid, D(audit->max_starved_ns, length),
		ca_format_timestamp(audit->max_starved_start, from, sizeof(from)),
		audit->max_starved_cpu);
}

void ca_text_forced_idle(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_fi_task **sorted = ca_report_sorted_tasks(audit);
	const struct ca_forcedidle *fi = &audit->pipeline->forcedidle;

	fprintf(out, "\nforced idle: %.2f%% of known CPU time\n  %-5s %16s %8s\n",
		audit->forced_idle_pct, "cpu", "forced idle (ms)", "share");
	for (int cpu = 0; cpu < audit->pipeline->state.topo.cpu_count; cpu++) {
		char ns[32];

		if (ca_topology_core_of(&audit->pipeline->state.topo, cpu) < 0)
			continue;
		fprintf(out, "  %-5d %16s %7.2f%%\n", cpu, MS(fi->per_cpu_ns[cpu], ns),
			fi->per_cpu_known_ns[cpu] ? 100.0 * fi->per_cpu_ns[cpu] /
							    fi->per_cpu_known_ns[cpu] : 0.0);
	}
	if (!sorted || !fi->task_count) {
		free(sorted);
		return;
	}
	fprintf(out, "\nper task (forced idle charged as the kernel does; starvation)\n"
		"  %-8s %-16s %16s %12s %16s\n", "pid", "comm", "forced idle (ms)", "starved (ms)",
		"longest (ms)");
	for (uint32_t i = 0; i < fi->task_count && i < (uint32_t)top; i++) {
		char k[32], s[32], l[32];

		fprintf(out, "  %-8d %-16s %16s %12s %16s\n", sorted[i]->pid, sorted[i]->comm,
			MS(sorted[i]->kernel_ns, k), MS(sorted[i]->starved_ns, s),
			MS(sorted[i]->longest_starved_ns, l));
	}
	free(sorted);
	write_longest_starvation(out, audit);
}

/* Stretches of a CPU idle beside work owed it (checks/owed.h), longest first, when found. */
void ca_text_owed(FILE *out, const struct ca_audit *audit, const struct ca_owed *owed,
		       const char *title, int top)
{
	const struct ca_tasks *tasks = &audit->pipeline->state.tasks;
	char total[32], max[32];

	if (!owed->finding_count)
		return;
	fprintf(out, "\n%s (over %s once the kernel chose): %llu stretch%s, %s\n", title,
		D(owed->max_ns, max), (unsigned long long)owed->finding_count,
		owed->finding_count == 1 ? "" : "es", D(owed->finding_ns, total));
	for (size_t i = 0; i < owed->listed && i < (size_t)top; i++) {
		const struct ca_owed_finding *f = &owed->list[i];
		const struct ca_task *w = ca_tasks_lookup(tasks, f->who.waiting_pid);
		const struct ca_task *h = ca_tasks_lookup(tasks, f->who.holder_pid);
		char length[32], after[32], at[32];

		fprintf(out, "  %s  CPU %d idle %s (%s after the kernel chose): %s:%d (prio %d, "
			"cookie %#llx) waited while CPU %d ran %s:%d (prio %d, cookie %#llx)\n",
			TS(f->start_ns, at), f->who.waiting_cpu, D(f->end_ns - f->start_ns, length),
			D(f->end_ns - f->decided_ns, after), w ? w->comm : "?", f->who.waiting_pid,
			f->who.waiting_prio, (unsigned long long)f->who.waiting_cookie, f->who.holder_cpu,
			h ? h->comm : "?", f->who.holder_pid, f->who.holder_prio,
			(unsigned long long)f->who.holder_cookie);
	}
}

/* The kernel's forced idle per task against the trace's, the largest differences first. */
void ca_text_accounting(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_accounting *acc = &audit->pipeline->accounting;
	const struct ca_tasks *tasks = &audit->pipeline->state.tasks;

	if (!acc->compared)
		return;
	fprintf(out, "\nkernel's forced-idle accounting (core_forceidle_sum) against the trace: "
		"%u task%s compared, %llu off by more than %g%% and 20ms\n", acc->compared,
		acc->compared == 1 ? "" : "s", (unsigned long long)acc->finding_count,
		acc->max_error_pct);
	for (size_t i = 0; i < acc->listed && i < (size_t)top; i++) {
		const struct ca_account_result *r = &acc->list[i];
		const struct ca_task *t = ca_tasks_lookup(tasks, r->pid);
		char k[32], m[32], at[32];

		fprintf(out, "  %s:%d  kernel %s  trace %s  over %.3fs from %s%s\n",
			t ? t->comm : "?", r->pid, D(r->kernel_ns, k), D(r->model_ns, m),
			(r->to_ns - r->from_ns) / 1e9, TS(r->from_ns, at),
			r->is_finding ? "  (off)" : "");
	}
}

/* Forced-idle stretches past the reselection owed, longest first (shown only when found). */
void ca_text_reselect(FILE *out, const struct ca_audit *audit, int top)
{
	const struct ca_reselect *rs = &audit->pipeline->reselect;
	const struct ca_tasks *tasks = &audit->pipeline->state.tasks;
	char total[32];

	if (!rs->finding_count)
		return;
	fprintf(out, "\nforced idle past the reselection owed (over %u ticks): %llu stretch%s, %s\n",
		audit->opts.max_reselect_ticks, (unsigned long long)rs->finding_count,
		rs->finding_count == 1 ? "" : "es", D(rs->finding_ns, total));
	for (size_t i = 0; i < rs->listed && i < (size_t)top; i++) {
		const struct ca_reselect_finding *f = &rs->list[i];
		const struct ca_task *w = ca_tasks_lookup(tasks, f->who.waiting_pid);
		const struct ca_task *h = ca_tasks_lookup(tasks, f->who.holder_pid);
		char length[32], at[32];

		fprintf(out, "  %s  CPU %d idle %s: %s:%d (prio %d, cookie %#llx) waited while CPU %d "
			"ran %s:%d (prio %d, cookie %#llx) through %u ticks\n", TS(f->start_ns, at),
			f->who.waiting_cpu,
			D(f->end_ns - f->start_ns, length), w ? w->comm : "?", f->who.waiting_pid,
			f->who.waiting_prio, (unsigned long long)f->who.waiting_cookie, f->who.holder_cpu,
			h ? h->comm : "?", f->who.holder_pid, f->who.holder_prio,
			(unsigned long long)f->who.holder_cookie, f->ticks);
	}
}

void ca_text_rule_relation(FILE *out, const struct ca_audit *audit, int r, int top)
{
	const struct ca_relation *rel = &audit->pipeline->rules.relations[r];
	const struct ca_policy_result *res = &audit->pipeline->policy.results[r];
	char name[80], t[32], max[32], grace[32], at[32];

	snprintf(name, sizeof(name), "%s %s%s%s", ca_relation_kind_name(rel->kind),
		 audit->pipeline->rules.names[rel->tags[0]], rel->tags[1] >= 0 ? " " : "",
		 rel->tags[1] >= 0 ? audit->pipeline->rules.names[rel->tags[1]] : "");
	if (rel->kind == CA_RELATION_TOGETHER) {
		fprintf(out, "  %-32s %s of its runtime beside another %s task (%.1f%%)\n", name,
			D(res->shared_ns, t), audit->pipeline->rules.names[rel->tags[0]],
			res->runtime_ns ? 100.0 * res->shared_ns / res->runtime_ns : 0.0);
		return;
	}
	fprintf(out, "  %-32s %6" PRIu64 " windows, total %s, max %s, %" PRIu64 " %s %s", name,
		res->summary.count, D(res->summary.total_ns, t), D(res->summary.max_ns, max),
		res->violations, audit->pipeline->policy.has_causes ? "violations: unexplained at or over" :
		"at or over", D(audit->pipeline->policy.grace_ns, grace));
	if (res->same_cookie_violations)
		fprintf(out, ", or of one kernel cookie (%" PRIu64 ")", res->same_cookie_violations);
	if (res->undecided)
		fprintf(out, "; %" PRIu64 " of unknown cause", res->undecided);
	fputc('\n', out);
	for (int w = 0; w < res->worst_count && w < top && w < 3; w++) {
		const struct ca_policy_window *pw = &res->worst[w];

		fprintf(out, "      %s %s on core %d: pids %d and %d (%s)\n", TS(pw->start, at),
			D(pw->end - pw->start, t), pw->core, pw->pids[0], pw->pids[1],
			ca_window_cause_name(pw->cause));
	}
}

void ca_text_baseline(FILE *out, const struct ca_audit *audit)
{
	const struct ca_baseline *b = &audit->pipeline->baseline;

	if (!audit->pipeline->has_baseline)
		return;
	fprintf(out, "\nagainst the baseline %s (margin %g%% and a floor per figure)\n"
		"  %-22s %14s %14s %14s\n", b->path, b->margin_pct, "figure", "then", "now",
		"allowed");
	for (int i = 0; i < CA_BASELINE_FIGURES; i++) {
		const struct ca_baseline_figure *f = &b->figures[i];
		bool is_ns = !strcmp(f->unit, "ns");
		char then[32] = "-", now[32], limit[32] = "-";

		if (is_ns) {
			D((uint64_t)f->new_value, now);
			if (f->has_old) {
				D((uint64_t)f->old_value, then);
				D((uint64_t)f->limit, limit);
			}
		} else {
			snprintf(now, sizeof(now), "%.4g", f->new_value);
			if (f->has_old) {
				snprintf(then, sizeof(then), "%.4g", f->old_value);
				snprintf(limit, sizeof(limit), "%.4g", f->limit);
			}
		}
		fprintf(out, "  %-22s %14s %14s %14s%s\n", f->name, then, now, limit,
			f->is_worse ? "  worse" : "");
	}
}

static void write_rules(FILE *out, const struct ca_audit *audit, int top)
{
	if (!audit->pipeline->has_rules)
		return;
	fprintf(out, "\nrules %s\n", audit->pipeline->rules.path);
	for (int r = 0; r < audit->pipeline->rules.relation_count; r++)
		ca_text_rule_relation(out, audit, r, top);
}

void ca_report_text(FILE *out, const struct ca_audit *audit, const struct ca_report_options *opts)
{
	write_verdict(out, audit, opts->is_colour);
	write_trace(out, audit);
	write_cores(out, audit);
	write_window_stats(out, audit);
	write_cause_stats(out, audit);
	write_windows(out, audit, opts->top);
	write_unexplained(out, audit, opts->top);
	write_explain(out, audit, opts->top);
	ca_text_forced_idle(out, audit, opts->top);
	ca_text_reselect(out, audit, opts->top);
	ca_text_owed(out, audit, &audit->pipeline->inversion, "priority inversion", opts->top);
	ca_text_owed(out, audit, &audit->pipeline->unjust, "unjustified forced idle", opts->top);
	ca_text_accounting(out, audit, opts->top);
	ca_text_capacity(out, audit, opts->top);
	ca_text_fairness(out, audit, opts->top);
	ca_text_exposure(out, audit, opts->top);
	write_rules(out, audit, opts->top);
	ca_text_baseline(out, audit);
}

static const struct ca_report reports[] = {
	{ "text", ca_report_text },
	{ "json", ca_report_json },
};

const struct ca_report *ca_report_find(const char *name)
{
	for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
		if (!strcmp(reports[i].name, name))
			return &reports[i];
	return NULL;
}
