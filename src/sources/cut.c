/*
 * cut.c - the span of the trace to audit (span.h).
 */
#include "sources/cut.h"

void ca_cut_init(struct ca_cut *span, const struct ca_time_bound *from,
		  const struct ca_time_bound *to)
{
	*span = (struct ca_cut){ .from = *from, .to = *to, .to_ts = UINT64_MAX };
	span->is_cut = from->is_set || to->is_set;
}

uint64_t ca_cut_resolve(const struct ca_time_bound *bound, uint64_t first_ts, uint64_t unset)
{
	if (!bound->is_set)
		return unset;
	if (!bound->is_relative)
		return bound->ns;
	return bound->ns > UINT64_MAX - first_ts ? UINT64_MAX : first_ts + bound->ns;
}

enum ca_cut_place ca_cut_place(struct ca_cut *span, uint64_t ts)
{
	if (!span->has_events) {
		span->has_events = true;
		span->first_ts = ts;
		span->from_ts = ca_cut_resolve(&span->from, ts, 0);
		span->to_ts = ca_cut_resolve(&span->to, ts, UINT64_MAX);
	}
	if (ts > span->last_ts)
		span->last_ts = ts;
	if (ts < span->from_ts)
		return CA_CUT_BEFORE;
	return ts > span->to_ts ? CA_CUT_AFTER : CA_CUT_INSIDE;
}
