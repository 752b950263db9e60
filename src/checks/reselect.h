/*
 * reselect.h - forced idle that outlives the reselection the kernel owed.
 *
 * Linux 6.12 (kernel/sched/fair.c, task_tick_core(), since 8039e96f in
 * 5.14): while a core is in forced idle, the tick on the CPU that runs a CFS
 * task reschedules it once the task has run half its slice, and the
 * core-wide selection that follows gives the forced-idle sibling its turn
 * as soon as its task's vruntime is the lower by a slice.  Between CFS tasks
 * of equal or better priority that takes a few ticks at any HZ (a slice is
 * at most 3 ms: 0.7 ms x (1 + log2 CPUs, at most 8)); without that hook a
 * lone task runs on until something else reschedules the core, and the
 * sibling starves.
 *
 * The automaton, per core (reselect.dot):
 *   clear -> owed    a sibling Y idle with runnable CFS work, none of it
 *                    compatible with the cookie of the one task T running
 *                    on the core, on X, a CFS task of priority no better
 *                    than the best waiting one, every CPU's state and
 *                    cookie known
 *   owed -> owed     a tick on X: counted; past max_ticks, a finding opens
 *   owed -> clear    X switches, Y runs or its work leaves, a CPU's state
 *                    or a cookie becomes unknown: the finding, if any,
 *                    closes there
 * A tick is the scheduler's: the tick_* hrtimer where the trace has it, else
 * a timer interrupt (those within 200 us of the last count once).  Cgroup
 * weights are not in the trace: tasks are taken to compete at equal weight
 * (the root group, or groups of the default weight).
 */
#ifndef COREAUDIT_RESELECT_H
#define COREAUDIT_RESELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/check.h"
#include "checks/suspects.h"

#define CA_RESELECT_DEFAULT_TICKS 8
#define CA_RESELECT_LIST 64	/* findings kept with detail, longest first */

/* One forced-idle stretch past the reselection owed. */
struct ca_reselect_finding {
	int core;
	struct ca_parties who;	/* Y, forced idle, and its best-priority CFS task; X and T */
	uint64_t start_ns;	/* the stretch: from when the reselection was owed */
	uint64_t end_ns;
	uint32_t ticks;		/* X's ticks in it */
};

/* A core's automaton. */
struct ca_reselect_core {
	bool is_owed;
	bool is_found;		/* the stretch passed max_ticks: @found is its finding */
	struct ca_reselect_finding found;
};

struct ca_reselect {
	struct ca_check base;
	uint32_t max_ticks;
	bool is_tick_timer_only;	/* the trace has tick_* hrtimer events: those count */
	bool has_ticks;			/* a tick was seen: the check could run */
	uint64_t *last_tick;		/* [cpu_count] */
	struct ca_reselect_core *cores;	/* [core_count] */
	size_t cpu_count;
	size_t core_count;
	uint32_t most_ticks;		/* the most any stretch held, finding or not */
	uint64_t finding_count;
	uint64_t finding_ns;		/* their time in all */
	uint64_t unknown_count;		/* would-be findings over a CPU's unobserved time */
	struct ca_suspects suspects;	/* would-be findings, until their core settles */
	struct ca_reselect_finding list[CA_RESELECT_LIST];	/* longest first */
	size_t listed;
};

/** ca_reselect_init() - @max_ticks: ticks on X a stretch may hold before it is a finding */
void ca_reselect_init(struct ca_reselect *rs, uint32_t max_ticks);
void ca_reselect_free(struct ca_reselect *rs);

#endif
