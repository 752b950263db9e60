/*
 * capacity.h - what SMT with core scheduling gave, against SMT off
 * (--report capacity).  An accountant, not a check: it judges nothing.
 *
 * Between two changes of a core the state is constant: the core's time goes
 * to the number of its CPUs that run a task (0 .. N), to compatible co-run
 * (two or more running, one cookie or tag: the only time SMT adds
 * throughput), to forced idle (a CPU forced idle) and to demand (a task
 * runnable on the core).  Machine-wide, SMT off is estimated from the same
 * runnable sets: with one thread per core, min(R, C) of the R runnable tasks
 * run on the C cores whose CPUs are known, and max(R - C, 0) wait.
 *
 * The break-even SMT speed-up s* is the throughput of k co-running threads,
 * 1 + (k - 1)(s - 1) times one thread's, at which the trace's SMT machine
 * does as much work as one thread per core would under the same runnable
 * sets: 1 + (HT-off busy time - busy core time) / (busy thread time - busy
 * core time); none without co-run.
 */
#ifndef CA_CHECKS_CAPACITY_H
#define CA_CHECKS_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/check.h"
#include "coreaudit/topology.h"

struct ca_capacity_core {
	uint64_t known_ns;		/* every CPU of the core known */
	uint64_t busy_ns[CA_MAX_SIBLINGS + 1];	/* with k CPUs running a task */
	uint64_t compatible_ns;		/* two or more running, of one cookie (or tag) */
	uint64_t mixed_ns;		/* two or more running, not known to share one */
	uint64_t forced_ns;		/* a CPU forced idle */
	uint64_t demand_ns;		/* a task runnable (running or queued) */
	uint64_t waiting_ns;		/* task time queued, not running */
	int cpus;			/* siblings: how many of busy_ns count */
};

struct ca_capacity {
	struct ca_check base;
	struct ca_capacity_core *cores;	/* [core_count] */
	int core_count;
	uint64_t *last_ts;		/* [core_count]: the core's last change */
	bool *has_last;			/* [core_count]: one was seen (it may be at 0) */
	int *runnable;			/* [core_count]: its runnable tasks now */
	bool *is_known;			/* [core_count]: every CPU's state known now */
	uint64_t machine_last_ts;	/* machine-wide, over the known cores: */
	bool has_machine_last;
	int runnable_total;		/* R */
	int known_cores;		/* C */
	uint64_t machine_known_ns;	/* time with C > 0 */
	uint64_t core_ns;		/* the integral of C */
	uint64_t ht_off_busy_ns;	/* of min(R, C) */
	uint64_t ht_off_waiting_ns;	/* of max(R - C, 0) */
};

/** ca_capacity_init() - an accountant with no tables yet (setup() sizes them) */
void ca_capacity_init(struct ca_capacity *cap);
void ca_capacity_free(struct ca_capacity *cap);

/** ca_capacity_sum() - every core's figures added into @sum (its cpus: the most of any core) */
void ca_capacity_sum(const struct ca_capacity *cap, struct ca_capacity_core *sum);

/** ca_capacity_busy_core_ns() - Return: time at least one CPU of @c ran a task. */
uint64_t ca_capacity_busy_core_ns(const struct ca_capacity_core *c);

/** ca_capacity_busy_thread_ns() - Return: CPU time of @c spent running tasks. */
uint64_t ca_capacity_busy_thread_ns(const struct ca_capacity_core *c);

/**
 * ca_capacity_break_even() - the SMT speed-up at which @c's work equals what one
 *                            thread could do in @ht_off_ns (a core: its demand time)
 * Return: false when @c had no co-run (no speed-up makes SMT win), else true with *@s.
 */
bool ca_capacity_break_even(const struct ca_capacity_core *c, uint64_t ht_off_ns, double *s);

#endif
