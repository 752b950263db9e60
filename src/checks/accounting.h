/*
 * accounting.h - the kernel's own forced-idle figure per task against what
 * the trace implies (issue class: misaccounting, b171501f in 5.17: forced
 * idle charged only to tasks with a cookie).
 *
 * `coreaudit record` writes every thread's core_forceidle_sum (schedstats
 * on) as "coreaudit-kfi pid=P forceidle_ns=N" markers at the start, every
 * second and at the end; the harness's workload can write the same for its
 * own tasks.  For each task with two samples or more, the kernel's figure
 * between its first and last sample is compared with the charge the
 * forced-idle check's model of the kernel's accounting (kernelfi.h) made
 * over the same span.  Both lag a charge at most until the next tick or
 * selection, so a sample is off by up to a tick period (10 ms at HZ 100)
 * at each end; the model itself follows the kernel within 2% with one
 * vCPU per host core and within 12% on an overcommitted guest (README,
 * Accuracy).  A task is a finding when the two differ by more than
 * max_error_pct of the larger and by more than CA_ACCOUNTING_FLOOR_NS; it
 * is not compared when a CPU was unobserved between its samples (the model
 * charges nothing there, the kernel goes on counting).
 *
 * The automaton, per task: unsampled -> sampled (first marker: both
 * figures kept) -> sampled (each later marker: the last figures) ->
 * judged at the end.
 */
#ifndef COREAUDIT_ACCOUNTING_H
#define COREAUDIT_ACCOUNTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/check.h"
#include "checks/forcedidle.h"
#include "util/pidmap.h"

#define CA_ACCOUNTING_DEFAULT_PCT 50.0	/* the model was 34% off on a correct kernel */
#define CA_ACCOUNTING_FLOOR_NS 20000000ull	/* two tick periods at HZ 100 */
#define CA_ACCOUNTING_LIST 64

struct ca_kfi_sample {
	uint64_t ts;
	uint64_t kernel_ns;	/* the kernel's core_forceidle_sum then */
	uint64_t model_ns;	/* what the model had charged the task by then */
};

struct ca_account_task {
	int pid;
	uint32_t samples;
	struct ca_kfi_sample first;
	struct ca_kfi_sample last;
};

/* A task whose accounting the trace contradicts (or, listed, every task compared). */
struct ca_account_result {
	int pid;
	uint64_t from_ns;
	uint64_t to_ns;
	uint64_t kernel_ns;	/* the kernel's figure over [from, to] */
	uint64_t model_ns;	/* the trace's */
	bool is_finding;
};

struct ca_accounting {
	struct ca_check base;
	const struct ca_forcedidle *fi;
	double max_error_pct;
	struct ca_pidmap map;
	struct ca_account_task *tasks;
	uint32_t task_count;
	uint32_t task_capacity;
	uint64_t markers;		/* coreaudit-kfi markers read */
	uint32_t compared;		/* tasks with two samples */
	uint32_t unknown;		/* tasks not compared: a CPU was unobserved in their span */
	uint64_t finding_count;
	struct ca_account_result list[CA_ACCOUNTING_LIST];	/* the largest differences */
	size_t listed;
};

/** ca_accounting_init() - compare with @fi's model; @max_error_pct: 0 to 100 */
void ca_accounting_init(struct ca_accounting *acc, const struct ca_forcedidle *fi,
			double max_error_pct);
void ca_accounting_free(struct ca_accounting *acc);

#endif
