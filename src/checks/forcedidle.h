/*
 * forcedidle.h - the forced-idle and starvation check.
 *
 * Observed: a CPU is forced idle while it runs idle although its runqueue
 * holds runnable tasks, none of them compatible with the tasks its siblings
 * run (per CPU; starvation: per queued task, time runnable on a forced-idle
 * CPU and its longest such stretch).  Per task, the kernel's own figure
 * (core_forceidle_sum) is followed selection by selection (kernelfi.c).
 */
#ifndef COREAUDIT_FORCEDIDLE_H
#define COREAUDIT_FORCEDIDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/check.h"
#include "util/event.h"
#include "util/pidmap.h"
#include "coreaudit/topology.h"

struct ca_fi_task {
	int pid;
	char comm[CA_COMM_LEN];
	uint64_t kernel_ns;		/* charged as the kernel would */
	uint64_t starved_ns;
	uint64_t longest_starved_ns;
	uint64_t longest_starved_start;	/* where that stretch began, */
	int longest_starved_cpu;	/* queued on which forced-idle CPU */
	uint64_t stretch_ns;		/* current stretch */
	uint64_t stretch_start;
	uint64_t stretch_end;		/* where the current stretch ended */
	int stretch_cpu;
};

struct ca_kernelfi;	/* the kernel's accounting, followed (checks/kernelfi.h) */

struct ca_forcedidle {
	struct ca_check base;
	struct ca_kernelfi *kernel;	/* charges each task as the kernel does */
	size_t cpu_count;		/* of the tables sized when the check is added */
	uint64_t *core_last_ts;		/* [core count] */
	bool *has_core_last;		/* [core count] */
	uint64_t *per_cpu_ns;		/* [cpu_count] */
	uint64_t *per_cpu_known_ns;	/* [cpu_count]: time the CPU's state was known */
	struct ca_pidmap map;
	struct ca_fi_task *tasks;
	uint32_t task_count;
	uint32_t task_capacity;
};

/** ca_forcedidle_init() - Return: 0, or -ENOMEM. */
int ca_forcedidle_init(struct ca_forcedidle *fi);
void ca_forcedidle_free(struct ca_forcedidle *fi);

struct ca_state;

/**
 * ca_forcedidle_is_forced() - whether @cpu of @core is forced idle in @state as it is
 *                             now: idle with runnable tasks, none of them able to run
 *                             beside what a sibling runs (a task of unknown cookie
 *                             counts as unable)
 */
bool ca_forcedidle_is_forced(const struct ca_state *state, int core, int cpu);

/** ca_forcedidle_charged() - Return: the forced idle charged to @pid so far, as the kernel would. */
uint64_t ca_forcedidle_charged(const struct ca_forcedidle *fi, int pid);

#endif
