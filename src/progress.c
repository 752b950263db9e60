/*
 * progress.c - an audit's findings while it runs, read out of the pipeline
 * for a program that watches it (coreaudit monitor).  It decides nothing: the
 * verdict is audit.c's, once the source ends.
 */
#include <stdio.h>
#include <string.h>

#include "pipeline.h"

void ca_audit_progress(const struct ca_audit *audit, struct ca_audit_progress *progress)
{
	const struct ca_audit_pipeline *pipeline = audit->pipeline;
	const struct ca_isolation *iso;
	const struct ca_forcedidle *fi;

	memset(progress, 0, sizeof(*progress));
	if (!pipeline)
		return;
	iso = &pipeline->isolation;
	fi = &pipeline->forcedidle;
	progress->has_events = pipeline->state.has_events;
	progress->first_ts = pipeline->state.first_ts;
	progress->last_ts = pipeline->state.last_ts;
	/* the topology's CPUs: the tables hold them (and maybe more, never used) */
	progress->cpu_count = pipeline->state.topo.cpu_count;
	progress->forced_idle_ns = fi->per_cpu_ns;
	progress->known_ns = fi->per_cpu_known_ns;
	progress->windows = iso->all.count;
	progress->skew_windows = iso->by_kind[CA_WINDOW_SKEW].count;
	progress->violation_windows = iso->by_kind[CA_WINDOW_VIOLATION].count;
	progress->unknown_windows = iso->by_kind[CA_WINDOW_UNKNOWN].count;
	for (size_t cpu = 0; cpu < pipeline->state.cpu_count; cpu++) {
		progress->lost_events += pipeline->state.cpus[cpu].lost_events;
		progress->missed_switches += pipeline->state.cpus[cpu].missed_switches;
	}
	for (uint32_t i = 0; i < fi->task_count; i++)
		if (fi->tasks[i].longest_starved_ns > progress->longest_starved_ns)
			progress->longest_starved_ns = fi->tasks[i].longest_starved_ns;
}

bool ca_audit_next_violation(const struct ca_audit *audit, size_t *cursor,
			     struct ca_violation *violation)
{
	const struct ca_isolation *iso;

	if (!audit->pipeline)
		return false;
	iso = &audit->pipeline->isolation;
	for (; *cursor < iso->list_count; (*cursor)++) {
		const struct ca_window *w = &iso->list[*cursor];

		if (w->kind != CA_WINDOW_VIOLATION)
			continue;
		*violation = (struct ca_violation){
			.start_ns = w->start, .end_ns = w->end, .core = w->core,
			.pids = { w->tasks[0].pid, w->tasks[1].pid },
			.cause = ca_window_cause_name(w->cause),
		};
		for (int i = 0; i < 2; i++)
			snprintf(violation->comms[i], sizeof(violation->comms[i]), "%s",
				 w->tasks[i].comm);
		(*cursor)++;
		return true;
	}
	return false;
}
