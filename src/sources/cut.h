/*
 * cut.h - between the stream and the state: the part of the trace the user
 * asked to audit (--from, --to).  Each event is inside the span, before it
 * or after it; a bound given relative to the trace ("+2s") counts from the
 * first event.  What is before is not audited, but the cookies and tags set
 * there are still learned (ca_state_learn()): the audit of a span is the
 * audit of a trace recorded over that span, the cookies known from the start.
 *
 * The automaton: before (learning) -> inside (audited) -> after (dropped);
 * a trace whose first event is already inside starts there.
 */
#ifndef CA_SOURCES_CUT_H
#define CA_SOURCES_CUT_H

#include <stdbool.h>
#include <stdint.h>

#include "coreaudit/audit.h"	/* struct ca_time_bound */

enum ca_cut_place {
	CA_CUT_BEFORE,
	CA_CUT_INSIDE,
	CA_CUT_AFTER,
};

struct ca_cut {
	struct ca_time_bound from;
	struct ca_time_bound to;
	bool is_cut;		/* a bound was given */
	bool has_events;	/* the trace's own first and last timestamps are known */
	uint64_t first_ts;
	uint64_t last_ts;
	uint64_t from_ts;	/* the bounds resolved against first_ts */
	uint64_t to_ts;		/* UINT64_MAX: no end */
};

/** ca_cut_init() - a span from @from to @to (either may be unset: no bound) */
void ca_cut_init(struct ca_cut *span, const struct ca_time_bound *from,
		  const struct ca_time_bound *to);

/**
 * ca_cut_resolve() - @bound as a timestamp once the trace's first event
 *                    (@first_ts) is known; @unset when it is not set
 */
uint64_t ca_cut_resolve(const struct ca_time_bound *bound, uint64_t first_ts, uint64_t unset);

/** ca_cut_place() - where an event at @ts lies */
enum ca_cut_place ca_cut_place(struct ca_cut *span, uint64_t ts);

#endif
