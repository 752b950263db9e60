/*
 * scenario.h - terse builders for scheduler scenarios in report text.
 * Times are nanoseconds; pid 0 is idle.
 */
#ifndef CA_TEST_SCENARIO_H
#define CA_TEST_SCENARIO_H

#include <stdint.h>

#include "helpers.h"

#define MS 1000000ull
#define US 1000ull
#define T0 1000000000ull	/* scenarios start at 1 s */

/* sched_switch on @cpu at @ts; with @probe, a cs_switch 200 ns later with cookies. */
void sc_switch(struct trace_text *t, int cpu, uint64_t ts, int prev, const char *prev_state,
	       int next, bool probe, uint64_t prev_cookie, uint64_t next_cookie);
void sc_wakeup(struct trace_text *t, int cpu, uint64_t ts, int waker, int pid, int target);
void sc_marker(struct trace_text *t, int cpu, uint64_t ts, int pid, const char *text);
void sc_fork(struct trace_text *t, int cpu, uint64_t ts, int parent, int child);
void sc_ipi(struct trace_text *t, int cpu, uint64_t ts, int pid, int target);
void sc_tick(struct trace_text *t, int cpu, uint64_t ts, int pid);
/* The tick's own hrtimer expiring (hrtimer_expire_entry, function tick_nohz_handler). */
void sc_tick_timer(struct trace_text *t, int cpu, uint64_t ts, int pid);
void sc_prctl(struct trace_text *t, int cpu, uint64_t ts, int pid, int cmd, int target,
	      int scope, long ret);
/* power:cpu_idle on @cpu (idle): @state entered, or -1 for leaving it. */
void sc_idle(struct trace_text *t, int cpu, uint64_t ts, int state);
/* An irq_handler_*, softirq_* or sys_enter/sys_exit of @number (irq, vector, syscall). */
void sc_kernel(struct trace_text *t, int cpu, uint64_t ts, int pid, const char *event, long number);
void sc_migrate(struct trace_text *t, int cpu, uint64_t ts, int pid, int orig, int dest);

#endif
