/*
 * history.h - what each CPU ran over the last second, by scheduling class.
 *
 * Two kernel mechanisms take a CPU from a runnable task for tens of
 * milliseconds a second and leave no event in a scheduler trace: RT
 * throttling (sched_rt_runtime_us, 950 ms of every 1 s period by default:
 * past it, a CPU's RT tasks wait while they look runnable) and, since 6.12,
 * the fair server (a deadline entity that runs CFS tasks ahead of RT ones
 * for 50 ms of every second when RT work has kept them from running).  A
 * check of the kernel's decisions asks this history whether either could
 * have been at work: RT time on a CPU near the throttle, CFS time on a CPU
 * short of the fair server's share.
 *
 * Run time is kept per CPU in 50 ms buckets (a ring of 21 of them), so the
 * time in the second before a moment is known within a bucket: the lower
 * bound counts the 20 buckets inside that second (at least 950 ms of it),
 * the upper bound one more before them (at least the whole second).
 */
#ifndef COREAUDIT_HISTORY_H
#define COREAUDIT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CA_HISTORY_BUCKET_NS 50000000ull
#define CA_HISTORY_BUCKETS 21
#define CA_HISTORY_SPAN_NS 1000000000ull

enum ca_history_class {
	CA_HISTORY_RT,		/* kernel prio 0 to 99 */
	CA_HISTORY_FAIR,	/* 100 to 139 */
	CA_HISTORY_CLASSES,
};

struct ca_history_cpu {
	uint64_t accounted_to;				/* run time is added up to here */
	uint64_t epoch[CA_HISTORY_BUCKETS];		/* which 50 ms a bucket holds */
	uint32_t ns[CA_HISTORY_BUCKETS][CA_HISTORY_CLASSES];
};

struct ca_history {
	struct ca_history_cpu *cpus;	/* [cpu_count] */
	size_t cpu_count;
};

/** ca_history_init() - room for @cpu_count CPUs: 0, -ENOMEM */
int ca_history_init(struct ca_history *h, size_t cpu_count);
void ca_history_free(struct ca_history *h);

/**
 * ca_history_account() - @cpu ran a task of kernel prio @prio (or was idle:
 * @is_task false) from the last moment accounted up to @ts
 */
void ca_history_account(struct ca_history *h, int cpu, bool is_task, int prio, uint64_t ts);

/**
 * ca_history_may_be_rt_throttled() - whether @cpu ran RT near the throttle
 * (900 ms of sched_rt_runtime_us's 950 per second) in the second up to @ts,
 * counting what came before @known_from (the trace's start) as RT: its RT
 * tasks may have been throttled
 */
bool ca_history_may_be_rt_throttled(const struct ca_history *h, int cpu, uint64_t ts,
				    uint64_t known_from);

/**
 * ca_history_may_be_fair_served() - whether @cpu ran CFS so little (under
 * 100 ms, twice the fair server's 50 per second) in the second up to @ts that
 * the fair server may have run its CFS task ahead of RT work
 */
bool ca_history_may_be_fair_served(const struct ca_history *h, int cpu, uint64_t ts);

/**
 * ca_history_ran() - time @cpu ran @class in the second up to @ts, accounted
 * so far: @is_upper for the bound from above, else from below
 */
uint64_t ca_history_ran(const struct ca_history *h, int cpu, enum ca_history_class class,
			uint64_t ts, bool is_upper);

#endif
