/*
 * lttng.c - the findings of an audit as LTTng-UST events (provider
 * "coreaudit", coreaudit-tp.h): the co-run windows the audit kept (all of
 * them up to its list limit; past it, violations and unknown windows before
 * skew, as the JSON list), every task whose
 * starvation reached the --max-starvation threshold, every CPU with lost
 * events or missed switches, and the verdict.  Free when no session listens.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "report/coreaudit-tp.h"

#include "coreaudit/report.h"
#include "pipeline.h"

void ca_report_lttng(FILE *out, const struct ca_audit *audit, const struct ca_report_options *opts)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;
	const struct ca_forcedidle *fi = &audit->pipeline->forcedidle;

	(void)out;
	(void)opts;
	for (size_t i = 0; i < iso->list_count; i++) {
		const struct ca_window *w = &iso->list[i];

		lttng_ust_tracepoint(coreaudit, window, w->core, w->cpus[0], w->cpus[1], w->start,
				     w->end, ca_window_kind_name(w->kind),
				     ca_window_cause_name(w->cause), w->tasks[0].pid,
				     w->tasks[1].pid);
	}
	for (uint32_t i = 0; i < fi->task_count; i++) {
		const struct ca_fi_task *t = &fi->tasks[i];

		if (audit->opts.max_starvation_ns < 0 ||
		    t->longest_starved_ns <= (uint64_t)audit->opts.max_starvation_ns)
			continue;
		lttng_ust_tracepoint(coreaudit, forced_idle, t->pid, t->kernel_ns, t->starved_ns,
				     t->longest_starved_ns);
	}
	for (int cpu = 0; cpu < (int)audit->pipeline->state.cpu_count; cpu++) {
		const struct ca_cpu *c = &audit->pipeline->state.cpus[cpu];

		if (c->lost_events || c->missed_switches)
			lttng_ust_tracepoint(coreaudit, inconclusive, cpu, c->lost_events,
					     c->lost_ns, c->missed_switches);
	}
	lttng_ust_tracepoint(coreaudit, verdict, ca_verdict_name(audit->verdict),
			     iso->summary[CA_WINDOW_VIOLATION].count, iso->summary_all.count);
}
