/*
 * clock.h - private to the library: what a trace clock's timestamps are
 * (tracefs trace_clock, trace-cmd record -C), and so whether durations and
 * the order across CPUs can be trusted.
 */
#ifndef CA_CLOCK_H
#define CA_CLOCK_H

#include "coreaudit/source.h"

enum ca_clock_kind {
	CA_CLOCK_GLOBAL_NS,	/* ns, one clock for every CPU: mono, boot, global, ... */
	CA_CLOCK_UNNAMED,	/* report text: the clock is not in it */
	CA_CLOCK_PER_CPU,	/* ns, each CPU its own: local, perf */
	CA_CLOCK_NOT_NS,	/* counts something else: counter, uptime, x86-tsc cycles */
	CA_CLOCK_UNKNOWN,	/* a name coreaudit does not know */
};

/** ca_clock_kind() - what @info's clock is (x86-tsc counts ns once tsc2nsec converted it) */
enum ca_clock_kind ca_clock_kind(const struct ca_source_info *info);

/** ca_clock_why() - for a kind other than CA_CLOCK_GLOBAL_NS: why it cannot be trusted */
const char *ca_clock_why(enum ca_clock_kind kind);

#endif
