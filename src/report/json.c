/*
 * json.c - the findings as one JSON object.  Keys are stable (DESIGN.md,
 * coreaudit-audit(1)); times are integer nanoseconds on the trace's clock.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "coreaudit/report.h"
#include "common.h"

#define SCHEMA_VERSION 1

static void write_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void write_summary_fields(FILE *out, const struct ca_summary *s)
{
	fprintf(out, "\"count\": %" PRIu64 ", \"total_ns\": %" PRIu64 ", \"p50_ns\": %" PRIu64
		", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64, s->count, s->total_ns,
		s->p50_ns, s->p99_ns, s->max_ns);
	if (s->is_approximate)
		fprintf(out, ", \"approximate\": true");
}

static void write_summary(FILE *out, const struct ca_summary *s)
{
	fputc('{', out);
	write_summary_fields(out, s);
	fputc('}', out);
}

static void write_trace(FILE *out, const struct ca_audit *audit)
{
	const struct ca_topology *topo = &audit->state.topo;
	int cpus = 0;

	fprintf(out, "  \"trace\": {\"file\": ");
	write_string(out, audit->opts.path);
	fprintf(out, ", \"format\": \"%s\", \"reader\": \"%s\", \"clock\": ", audit->info.format,
		audit->info.reader ? audit->info.reader : audit->info.format);
	write_string(out, audit->info.clock);
	for (int core = 0; core < topo->core_count; core++)
		cpus += topo->sibling_count[core];
	fprintf(out, ", \"span_ns\": %" PRIu64 ", \"events\": %" PRIu64 ", \"cpus\": %d, "
		"\"topology\": [", audit->state.last_ts - audit->state.first_ts, audit->events, cpus);
	for (int core = 0; core < topo->core_count; core++) {
		fprintf(out, "%s[", core ? ", " : "");
		for (int i = 0; i < topo->sibling_count[core]; i++)
			fprintf(out, "%s%d", i ? ", " : "", topo->siblings[core][i]);
		fputc(']', out);
	}
	fprintf(out, "], \"topology_source\": \"%s\"", audit->is_topology_from_option ? "option" :
		"marker");
	if (audit->topology_marker[0]) {
		fputs(", \"topology_marker\": ", out);
		write_string(out, audit->topology_marker);
	}
	fprintf(out, ", \"identity\": \"%s\", \"cookie_source\": \"%s\", \"lost_events\": %"
		PRIu64 ", \"missed_switches\": %" PRIu64 ", \"resched_ipis\": %" PRIu64
		", \"unnamed_resched_ipis\": %" PRIu64 ", \"observed_pct\": %.4f, \"unobserved_ns\": %"
		PRIu64 "},\n",
		audit->state.identity == CA_IDENTITY_TAG ? "tags" : "cookies",
		ca_cookie_source_name(audit->state.cookie_source), audit->lost_events,
		audit->missed_switches, audit->resched_ipis, audit->unnamed_resched_ipis,
		audit->observed_pct, audit->unobserved_ns);
}

static void write_lines(FILE *out, const char *key, const char lines[][CA_REASON_LEN],
			int count)
{
	fprintf(out, "  \"%s\": [", key);
	for (int i = 0; i < count; i++) {
		fputs(i ? ", " : "", out);
		write_string(out, lines[i]);
	}
	fputs("],\n", out);
}

/* The events on both CPUs around an unexplained window. */
static void write_evidence(FILE *out, const struct ca_audit *audit, const struct ca_window *w)
{
	const struct ca_evidence *e;

	if (w->evidence < 0)
		return;
	e = &audit->isolation.evidence[w->evidence];
	fputs(", \"evidence\": [", out);
	for (int i = 0; i < e->count; i++) {
		const struct ca_trace_line *l = &e->lines[i];

		fprintf(out, "%s{\"ts_ns\": %" PRIu64 ", \"cpu\": %d, \"event\": \"%s\", "
			"\"pid\": %d, \"a\": %d, \"b\": %d}", i ? ", " : "", l->ts, l->cpu,
			ca_event_kind_name(l->kind), l->pid, l->a, l->b);
	}
	fputc(']', out);
}

static void write_window(FILE *out, const struct ca_audit *audit, const struct ca_window *w)
{
	fprintf(out, "      {\"core\": %d, \"cpus\": [%d, %d], \"start_ns\": %" PRIu64
		", \"end_ns\": %" PRIu64 ", \"kind\": \"%s\", \"cause\": \"%s\", "
		"\"leaving_cpu\": %d, \"open_at_end\": %s, \"tasks\": [", w->core, w->cpus[0],
		w->cpus[1], w->start, w->end, ca_window_kind_name(w->kind),
		ca_window_cause_name(w->cause), w->leaving_cpu, w->is_open_at_end ? "true" : "false");
	for (int i = 0; i < 2; i++) {
		const struct ca_window_task *t = &w->tasks[i];

		fprintf(out, "%s{\"pid\": %d, \"comm\": ", i ? ", " : "", t->pid);
		write_string(out, t->comm);
		if (!t->is_known)
			fprintf(out, ", \"cookie\": null}");
		else if (audit->state.identity == CA_IDENTITY_TAG)
			fprintf(out, ", \"tag\": \"%s\"}",
				ca_tasks_tag_name(&audit->state.tasks, (int)t->identity));
		else
			fprintf(out, ", \"cookie\": %" PRIu64 "}", t->identity);
	}
	fputc(']', out);
	write_evidence(out, audit, w);
	fputc('}', out);
}

static void write_windows(FILE *out, const struct ca_audit *audit)
{
	const struct ca_isolation *iso = &audit->isolation;
	const struct ca_window **sorted = ca_report_sorted_windows(audit);

	fputs("  \"windows\": {", out);
	write_summary_fields(out, &iso->summary_all);
	fputs(",\n    \"by_kind\": {", out);
	for (int kind = 0; kind < CA_WINDOW_KIND_COUNT; kind++) {
		fprintf(out, "%s\"%s\": ", kind ? ", " : "", ca_window_kind_name(kind));
		write_summary(out, &iso->summary[kind]);
	}
	fputs("},\n    \"by_cause\": {", out);
	for (int cause = 0; cause < CA_CAUSE_COUNT; cause++) {
		fprintf(out, "%s\"%s\": ", cause ? ", " : "", ca_window_cause_name(cause));
		write_summary(out, &iso->cause_summary[cause]);
	}
	fprintf(out, "},\n    \"listed\": %zu, \"not_listed\": %" PRIu64 ",\n    \"list\": [\n",
		iso->list_count, iso->list_dropped);
	for (size_t i = 0; sorted && i < iso->list_count; i++) {
		write_window(out, audit, sorted[i]);
		fputs(i + 1 < iso->list_count ? ",\n" : "\n", out);
	}
	fputs("    ]},\n", out);
	free(sorted);
}

static void write_forced_idle(FILE *out, const struct ca_audit *audit)
{
	const struct ca_forcedidle *fi = &audit->forcedidle;
	const struct ca_fi_task **sorted = ca_report_sorted_tasks(audit);
	bool first = true;

	fprintf(out, "  \"forced_idle\": {\"percent\": %.4f, \"per_cpu_ns\": {",
		audit->forced_idle_pct);
	for (int cpu = 0; cpu < audit->state.topo.cpu_count; cpu++) {
		if (audit->state.topo.core_of_cpu[cpu] < 0)
			continue;
		fprintf(out, "%s\"%d\": %" PRIu64, first ? "" : ", ", cpu, fi->per_cpu_ns[cpu]);
		first = false;
	}
	fputs("},\n    \"per_task\": [\n", out);
	for (uint32_t i = 0; sorted && i < fi->task_count; i++) {
		const struct ca_task *task = ca_tasks_find((struct ca_tasks *)&audit->state.tasks,
							   sorted[i]->pid);

		fprintf(out, "      {\"pid\": %d, \"comm\": ", sorted[i]->pid);
		write_string(out, sorted[i]->comm);
		if (task && task->is_cookie_known)
			fprintf(out, ", \"cookie\": %" PRIu64, task->cookie);
		else
			fputs(", \"cookie\": null", out);
		fprintf(out, ", \"kernel_ns\": %" PRIu64 ", \"starved_ns\": %" PRIu64
			", \"longest_starved_ns\": %" PRIu64 "}%s\n", sorted[i]->kernel_ns,
			sorted[i]->starved_ns, sorted[i]->longest_starved_ns,
			i + 1 < fi->task_count ? "," : "");
	}
	fputs("    ]}", out);
	free(sorted);
}

static void write_rule_result(FILE *out, const struct ca_audit *audit, int r)
{
	const struct ca_relation *rel = &audit->rules.relations[r];
	const struct ca_policy_result *res = &audit->policy.results[r];

	fprintf(out, "      {\"kind\": \"%s\", \"line\": %d, \"tags\": [",
		ca_relation_kind_name(rel->kind), rel->line);
	write_string(out, audit->rules.names[rel->tags[0]]);
	if (rel->tags[1] >= 0) {
		fputs(", ", out);
		write_string(out, audit->rules.names[rel->tags[1]]);
	}
	fputs("], ", out);
	if (rel->kind == CA_RELATION_TOGETHER) {
		fprintf(out, "\"runtime_ns\": %" PRIu64 ", \"shared_ns\": %" PRIu64 "}",
			res->runtime_ns, res->shared_ns);
		return;
	}
	fputs("\"windows\": ", out);
	write_summary(out, &res->summary);
	fprintf(out, ", \"violations\": %" PRIu64 ", \"unknown\": %" PRIu64 ", \"worst\": [",
		res->violations, res->unknown);
	for (int w = 0; w < res->worst_count; w++)
		fprintf(out, "%s{\"core\": %d, \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64
			", \"pids\": [%d, %d], \"cause\": \"%s\"}", w ? ", " : "", res->worst[w].core,
			res->worst[w].start, res->worst[w].end, res->worst[w].pids[0],
			res->worst[w].pids[1], ca_window_cause_name(res->worst[w].cause));
	fputs("]}", out);
}

static void write_rules(FILE *out, const struct ca_audit *audit)
{
	if (!audit->has_rules)
		return;
	fputs(",\n  \"rules\": {\"file\": ", out);
	write_string(out, audit->rules.path);
	fprintf(out, ", \"grace_ns\": %" PRIu64 ", \"relations\": [\n", audit->policy.grace_ns);
	for (int r = 0; r < audit->rules.relation_count; r++) {
		write_rule_result(out, audit, r);
		fputs(r + 1 < audit->rules.relation_count ? ",\n" : "\n", out);
	}
	fputs("    ]}", out);
}

void ca_report_json(FILE *out, const struct ca_audit *audit, const struct ca_report_options *opts)
{
	fprintf(out, "{\n  \"version\": %d,\n", SCHEMA_VERSION);
	write_trace(out, audit);
	fprintf(out, "  \"verdict\": \"%s\",\n", ca_verdict_name(audit->verdict));
	write_lines(out, "reasons", audit->reasons, audit->reason_count);
	write_lines(out, "warnings", audit->warnings, audit->warning_count);
	fprintf(out, "  \"grace_ns\": %" PRIu64 ",\n  \"violations\": %" PRIu64 ",\n",
		audit->opts.grace_ns, audit->isolation.summary[CA_WINDOW_VIOLATION].count);
	write_windows(out, audit);
	write_forced_idle(out, audit);
	write_rules(out, audit);
	fputs("\n}\n", out);
}
