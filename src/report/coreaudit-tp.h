/*
 * coreaudit-tp.h - the LTTng-UST tracepoint provider "coreaudit": every
 * finding of an audit or a monitor as an event, so findings sit beside other
 * traces in an LTTng session.  Built only --with-lttng-ust.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER coreaudit

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "report/coreaudit-tp.h"

#if !defined(COREAUDIT_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define COREAUDIT_TP_H

#include <lttng/tracepoint.h>

/* A co-run window of different cookies (or tags): kind skew|violation|unknown. */
LTTNG_UST_TRACEPOINT_EVENT(coreaudit, window,
	LTTNG_UST_TP_ARGS(int, core, int, cpu_a, int, cpu_b, uint64_t, start_ns, uint64_t, end_ns,
			  const char *, kind, const char *, cause, int, pid_a, int, pid_b),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, core, core)
		lttng_ust_field_integer(int, cpu_a, cpu_a)
		lttng_ust_field_integer(int, cpu_b, cpu_b)
		lttng_ust_field_integer(uint64_t, start_ns, start_ns)
		lttng_ust_field_integer(uint64_t, end_ns, end_ns)
		lttng_ust_field_string(kind, kind)
		lttng_ust_field_string(cause, cause)
		lttng_ust_field_integer(int, pid_a, pid_a)
		lttng_ust_field_integer(int, pid_b, pid_b)
	)
)

/* A task's forced idle (kernel terms) and longest starvation, over the threshold. */
LTTNG_UST_TRACEPOINT_EVENT(coreaudit, forced_idle,
	LTTNG_UST_TP_ARGS(int, pid, uint64_t, kernel_ns, uint64_t, starved_ns,
			  uint64_t, longest_starved_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, pid, pid)
		lttng_ust_field_integer(uint64_t, kernel_ns, kernel_ns)
		lttng_ust_field_integer(uint64_t, starved_ns, starved_ns)
		lttng_ust_field_integer(uint64_t, longest_starved_ns, longest_starved_ns)
	)
)

/* A span whose verdict is unknown: lost events or a missed switch on a CPU. */
LTTNG_UST_TRACEPOINT_EVENT(coreaudit, inconclusive,
	LTTNG_UST_TP_ARGS(int, cpu, int64_t, lost_events, uint64_t, lost_ns,
			  uint64_t, missed_switches),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, cpu, cpu)
		lttng_ust_field_integer(int64_t, lost_events, lost_events)
		lttng_ust_field_integer(uint64_t, lost_ns, lost_ns)
		lttng_ust_field_integer(uint64_t, missed_switches, missed_switches)
	)
)

/* The verdict: pass|fail|inconclusive, with the violation count. */
LTTNG_UST_TRACEPOINT_EVENT(coreaudit, verdict,
	LTTNG_UST_TP_ARGS(const char *, verdict, uint64_t, violations, uint64_t, windows),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(verdict, verdict)
		lttng_ust_field_integer(uint64_t, violations, violations)
		lttng_ust_field_integer(uint64_t, windows, windows)
	)
)

#endif

#include <lttng/tracepoint-event.h>
