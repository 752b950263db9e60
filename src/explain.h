/*
 * explain.h - private to the library: --explain TS, what every CPU ran at one
 * instant (explain.c), taken from the state as it stood then; the co-run
 * windows open at that instant are kept by the isolation check
 * (ca_isolation_explain()).
 */
#ifndef CA_EXPLAIN_H
#define CA_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/isolation.h"
#include "state/state.h"

struct ca_explain_cpu {
	enum ca_cpu_run run;		/* a task, idle, or not known */
	struct ca_window_task task;	/* with CA_CPU_TASK: who, of which identity */
	uint64_t since;			/* when it began to run (or to idle) */
	bool is_forced;			/* idle beside work it could not run */
	int queued;			/* tasks runnable there, not running */
};

struct ca_explain {
	bool is_asked;
	uint64_t ts;			/* resolved against the trace's first event */
	bool is_taken;			/* the state was seen at ts */
	bool is_in_span;		/* ts lies within the audited events' span */
	struct ca_explain_cpu *cpus;	/* [cpu_count], once taken */
	int cpu_count;
};

/** ca_explain_take() - what each CPU of @state runs now; Return: 0, or -ENOMEM. */
int ca_explain_take(struct ca_explain *explain, const struct ca_state *state);

void ca_explain_free(struct ca_explain *explain);

#endif
