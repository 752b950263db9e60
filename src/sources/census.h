/*
 * census.h - private to sources/: every CPU made to show its state at the
 * start of a live trace (census.c).
 */
#ifndef CA_SOURCES_CENSUS_H
#define CA_SOURCES_CENSUS_H

/**
 * ca_live_census() - visit every CPU this process may run on (of
 *                    @cpu_space), once, then return to the CPUs it had
 *
 * A CPU idle throughout a trace shows no event, and a trace cannot tell it
 * from a CPU whose events are missing (nor from one that ran one task on
 * and on without a tick: nohz_full).  Run right after tracing starts, the
 * visit makes each CPU switch to this process and back: two sched_switch
 * events that show what it ran and then ran again, so that an idle CPU is
 * observed from the start.  Migrations are synchronous (the kernel's
 * stopper thread moves the caller before sched_setaffinity() returns).
 *
 * Return: the CPUs visited; 0 when the affinity cannot be read or set (a
 *         container may forbid it: those CPUs stay unobserved until their
 *         first event, which the report says).
 */
int ca_live_census(int cpu_space);

#endif
