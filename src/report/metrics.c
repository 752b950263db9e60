/*
 * metrics.c - what an audit found so far as metrics a monitoring system
 * scrapes: the Prometheus text format (0.0.4, what node_exporter's textfile
 * collector reads) or OpenMetrics 1.0 (what a scrape that asks for it gets).
 * The two differ in a counter's family name (OpenMetrics: without _total)
 * and in OpenMetrics' closing "# EOF".  It reads the pipeline as
 * ca_audit_progress() does and decides nothing; the verdict gauge is the
 * verdict so far (a violation or a kernel-decision finding: fail; unknown
 * windows, lost events or missed switches: inconclusive; else pass), the
 * final one once the audit is decided.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "coreaudit/report.h"
#include "report/common.h"

struct family {
	FILE *out;
	bool is_openmetrics;
	const char *name;	/* without _total */
	bool is_counter;
};

static struct family begin(FILE *out, bool is_openmetrics, const char *name, bool is_counter,
			   const char *help)
{
	struct family f = { out, is_openmetrics, name, is_counter };
	const char *suffix = is_counter && !is_openmetrics ? "_total" : "";

	fprintf(out, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help, name, suffix,
		is_counter ? "counter" : "gauge");
	return f;
}

/* A sample; @label ("cpu", "cause"...) NULL for none; @value's characters are [0-9a-z_-]. */
static void sample(const struct family *f, const char *label, const char *value, double number)
{
	fprintf(f->out, "%s%s", f->name, f->is_counter ? "_total" : "");
	if (label)
		fprintf(f->out, "{%s=\"%s\"}", label, value);
	fprintf(f->out, " %.9g\n", number);
}

static void sample_u64(const struct family *f, const char *label, const char *value,
		       uint64_t number)
{
	fprintf(f->out, "%s%s", f->name, f->is_counter ? "_total" : "");
	if (label)
		fprintf(f->out, "{%s=\"%s\"}", label, value);
	fprintf(f->out, " %" PRIu64 "\n", number);
}

static void windows(FILE *out, bool om, const struct ca_isolation *iso)
{
	struct family f = begin(out, om, "coreaudit_windows", true,
				"Co-run windows of different cookies (or tags), by kind.");

	for (int k = 0; k < CA_WINDOW_KIND_COUNT; k++)
		sample_u64(&f, "kind", ca_window_kind_name((enum ca_window_kind)k),
			   iso->by_kind[k].count);
	f = begin(out, om, "coreaudit_windows_by_cause", true,
		  "Co-run windows by why the kernel let them happen.");
	for (int c = 0; c < CA_CAUSE_COUNT; c++)
		sample_u64(&f, "cause", ca_window_cause_name((enum ca_window_cause)c),
			   iso->by_cause[c].count);
	f = begin(out, om, "coreaudit_window_seconds", true,
		  "Time in co-run windows of different cookies, by kind.");
	for (int k = 0; k < CA_WINDOW_KIND_COUNT; k++)
		sample(&f, "kind", ca_window_kind_name((enum ca_window_kind)k),
		       iso->by_kind[k].total / 1e9);
}

/*
 * Findings of every check that counts them as it runs: isolation and rule-file
 * violations, the kernel-decision checks' stretches and tasks, and (once
 * decided) figures worse than the baseline.  Thresholds are judged at the end
 * and show in the verdict gauge only.
 */
static uint64_t findings(const struct ca_audit_pipeline *p)
{
	uint64_t count = p->isolation.by_kind[CA_WINDOW_VIOLATION].count + p->reselect.finding_count +
			 p->inversion.finding_count + p->unjust.finding_count +
			 p->accounting.finding_count;

	for (int r = 0; p->has_rules && p->policy.results && r < p->rules.relation_count; r++)
		count += p->policy.results[r].violations;
	return count + (p->has_baseline ? (uint64_t)p->baseline.worse_count : 0);
}

static void violations(FILE *out, bool om, const struct ca_audit_pipeline *p)
{
	struct family f = begin(out, om, "coreaudit_violations", true,
				"Findings that fail the audit: violation windows, stretches past "
				"the reselection owed, priority inversion, unjustified forced "
				"idle, misaccounted tasks.");

	sample_u64(&f, NULL, NULL, findings(p));
}

static void forced_idle_per_cpu(FILE *out, bool om, const struct ca_audit_pipeline *p)
{
	const struct ca_topology *topo = &p->state.topo;
	struct family f = begin(out, om, "coreaudit_forced_idle_seconds", true,
				"Time a CPU was forced idle: idle with work no sibling's task "
				"allowed to run.");
	char cpu[16];

	for (int c = 0; c < topo->cpu_count; c++)
		if (ca_topology_core_of(topo, c) >= 0) {
			snprintf(cpu, sizeof(cpu), "%d", c);
			sample(&f, "cpu", cpu, p->forcedidle.per_cpu_ns[c] / 1e9);
		}
	f = begin(out, om, "coreaudit_known_seconds", true,
		  "Time a CPU's state was known: what forced idle is a share of.");
	for (int c = 0; c < topo->cpu_count; c++)
		if (ca_topology_core_of(topo, c) >= 0) {
			snprintf(cpu, sizeof(cpu), "%d", c);
			sample(&f, "cpu", cpu, p->forcedidle.per_cpu_known_ns[c] / 1e9);
		}
}

#define MAX_IDENTITIES 64	/* identities beyond them add up under "other" */

struct identity_sum {
	uint64_t value;
	uint64_t ns;
};

/* The forced idle charged to tasks (as the kernel does), summed per cookie or tag. */
static int sum_by_identity(const struct ca_audit *audit, struct identity_sum *sums,
			   uint64_t *other_ns)
{
	const struct ca_audit_pipeline *p = audit->pipeline;
	int count = 0;

	*other_ns = 0;
	for (uint32_t i = 0; i < p->forcedidle.task_count; i++) {
		const struct ca_fi_task *t = &p->forcedidle.tasks[i];
		const struct ca_task *task = ca_tasks_lookup(&p->state.tasks, t->pid);
		uint64_t value;
		int s = 0;

		if (!t->kernel_ns || !task || !ca_state_identity(&p->state, task, &value))
			continue;
		while (s < count && sums[s].value != value)
			s++;
		if (s == count && count == MAX_IDENTITIES) {
			*other_ns += t->kernel_ns;
			continue;
		}
		if (s == count)
			sums[count++] = (struct identity_sum){ value, 0 };
		sums[s].ns += t->kernel_ns;
	}
	return count;
}

static void forced_idle_per_identity(FILE *out, bool om, const struct ca_audit *audit)
{
	bool is_tag = audit->pipeline->state.identity == CA_IDENTITY_TAG;
	struct family f = begin(out, om, is_tag ? "coreaudit_forced_idle_by_tag_seconds" :
				"coreaudit_forced_idle_by_cookie_seconds", true,
				"Forced idle charged to the tasks of a cookie (or tag), as the "
				"kernel charges core_forceidle_sum.");
	struct identity_sum sums[MAX_IDENTITIES];
	uint64_t other_ns;
	int count = sum_by_identity(audit, sums, &other_ns);
	char label[80];

	for (int s = 0; s < count; s++) {
		ca_report_identity(audit, sums[s].value, label, sizeof(label));
		ca_report_clean(label);
		for (char *c = label; *c; c++)	/* a tag's name in a label value: no quote, no \ */
			*c = *c == '"' || *c == '\\' || *c == '\n' ? '_' : *c;
		sample(&f, is_tag ? "tag" : "cookie", label, sums[s].ns / 1e9);
	}
	if (other_ns)
		sample(&f, is_tag ? "tag" : "cookie", "other", other_ns / 1e9);
}

static void trace_health(FILE *out, bool om, const struct ca_audit *audit,
			 const struct ca_audit_progress *so_far)
{
	struct family f = begin(out, om, "coreaudit_events", true, "Events read.");

	sample_u64(&f, NULL, NULL, audit->events);
	f = begin(out, om, "coreaudit_lost_events", true,
		  "Events the kernel lost (a gap of unknown size counts 1): the verdict is "
		  "inconclusive over them.");
	sample_u64(&f, NULL, NULL, so_far->lost_events);
	f = begin(out, om, "coreaudit_missed_switches", true,
		  "Events that contradict the task believed current: a switch is missing.");
	sample_u64(&f, NULL, NULL, so_far->missed_switches);
	f = begin(out, om, "coreaudit_longest_starvation_seconds", false,
		  "The longest a task starved on a forced-idle CPU at a stretch.");
	sample(&f, NULL, NULL, so_far->longest_starved_ns / 1e9);
	f = begin(out, om, "coreaudit_span_seconds", false, "Time the audit has covered.");
	sample(&f, NULL, NULL, so_far->has_events ? (so_far->last_ts - so_far->first_ts) / 1e9 : 0);
}

/* The verdict so far (the final one once decided), one gauge per verdict: 1 for it. */
static void verdict(FILE *out, bool om, const struct ca_audit *audit, bool is_decided,
		    const struct ca_audit_progress *so_far)
{
	static const char *const names[] = { "pass", "fail", "inconclusive" };
	struct family f = begin(out, om, "coreaudit_verdict", false,
				"The verdict so far: 1 for it, 0 for the others.");
	enum ca_verdict v = audit->verdict;

	if (!is_decided)
		v = findings(audit->pipeline) ? CA_VERDICT_FAIL :
		    so_far->unknown_windows || so_far->lost_events || so_far->missed_switches ?
		    CA_VERDICT_INCONCLUSIVE : CA_VERDICT_PASS;
	for (int i = 0; i < 3; i++)
		sample_u64(&f, "verdict", names[i], (int)v == i);
}

void ca_report_metrics(FILE *out, const struct ca_audit *audit, bool is_decided,
		       bool is_openmetrics)
{
	struct ca_audit_progress so_far;

	ca_audit_progress(audit, &so_far);
	if (audit->pipeline && audit->pipeline->state.topo.cpu_count) {
		windows(out, is_openmetrics, &audit->pipeline->isolation);
		violations(out, is_openmetrics, audit->pipeline);
		forced_idle_per_cpu(out, is_openmetrics, audit->pipeline);
		forced_idle_per_identity(out, is_openmetrics, audit);
	}
	trace_health(out, is_openmetrics, audit, &so_far);
	verdict(out, is_openmetrics, audit, is_decided, &so_far);
	if (is_openmetrics)
		fputs("# EOF\n", out);
}
