/*
 * clock.c - trace clocks by what their timestamps are (clock.h).
 *
 * The kernel's trace clocks (kernel/trace/trace.c, trace_clocks[]): local
 * and perf are local_clock(), per CPU and not synchronised; global, mono,
 * mono_raw, boot and tai are nanoseconds of one clock for all CPUs; counter
 * is an atomic counter and uptime jiffies, no time at all; x86-tsc is raw
 * TSC cycles.  trace-cmd record -C tsc2nsec records x86-tsc and saves the
 * clock as "tsc2nsec" with the conversion (the TSC2NSEC option), which
 * libtracecmd applies: nanoseconds, when the option is there.  A verdict needs nanoseconds in one
 * order across CPUs: every grace, ceiling and duration is in ns.
 */
#include <string.h>

#include "clock.h"

static const char *const global_ns[] = { "mono", "mono_raw", "boot", "global", "tai" };
static const char *const per_cpu[] = { "local", "perf" };
static const char *const not_ns[] = { "counter", "uptime", "x86-tsc", "tsc2nsec" };

static bool is_one_of(const char *clock, const char *const *names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!strcmp(clock, names[i]))
			return true;
	return false;
}

#define IS_ONE_OF(clock, names) is_one_of(clock, names, sizeof(names) / sizeof(names[0]))

enum ca_clock_kind ca_clock_kind(const struct ca_source_info *info)
{
	if (!strcmp(info->clock, "unknown"))
		return CA_CLOCK_UNNAMED;
	if (IS_ONE_OF(info->clock, global_ns) ||
	    ((!strcmp(info->clock, "x86-tsc") || !strcmp(info->clock, "tsc2nsec")) &&
	     info->is_tsc_in_ns))
		return CA_CLOCK_GLOBAL_NS;
	if (IS_ONE_OF(info->clock, per_cpu))
		return CA_CLOCK_PER_CPU;
	if (IS_ONE_OF(info->clock, not_ns))
		return CA_CLOCK_NOT_NS;
	return CA_CLOCK_UNKNOWN;
}

const char *ca_clock_why(enum ca_clock_kind kind)
{
	switch (kind) {
	case CA_CLOCK_PER_CPU:
		return "is per CPU: cross-CPU order is not guaranteed";
	case CA_CLOCK_NOT_NS:
		return "does not count nanoseconds: no duration in the trace is a time";
	case CA_CLOCK_UNKNOWN:
		return "is not known to count nanoseconds of one clock for every CPU";
	case CA_CLOCK_UNNAMED:
		return "is not in report text: nanoseconds of one clock for every CPU are assumed";
	case CA_CLOCK_GLOBAL_NS:
		break;
	}
	return "";
}
