/*
 * coverage.c - the stretches in which a CPU was not observed (coverage.h).
 *
 * Pure bookkeeping per CPU: state.c says which event is whose, and turns a
 * stretch found here into unknown state for the checks.
 */
#include <stdlib.h>
#include <string.h>

#include "state/coverage.h"
#include "util/grow.h"

static const char *const why_names[CA_UNOBSERVED_WHY_COUNT] = {
	[CA_UNOBSERVED_NEVER_SEEN] = "never-seen",
	[CA_UNOBSERVED_SILENT] = "silent",
	[CA_UNOBSERVED_LOST] = "lost-events",
	[CA_UNOBSERVED_DAMAGE] = "damaged-data",
	[CA_UNOBSERVED_STREAM_END] = "stream-ends",
	[CA_UNOBSERVED_MISSED_SWITCH] = "missed-switch",
	[CA_UNOBSERVED_QUIET] = "quiet",
};

const char *ca_unobserved_why_name(enum ca_unobserved_why why)
{
	return (unsigned int)why < CA_UNOBSERVED_WHY_COUNT ? why_names[why] : "?";
}

void ca_coverage_demand(struct ca_cpu_coverage *cov, enum ca_demand kind, uint64_t ts)
{
	if (!cov->has_demand) {
		cov->has_demand = true;
		cov->demand_since = ts;
		memset(cov->demands, 0, sizeof(cov->demands));
	}
	cov->demands[kind]++;
}

static void keep_span(struct ca_cpu_coverage *cov, uint64_t from, uint64_t to)
{
	if (ca_grow(&cov->spans, cov->span_count, &cov->span_capacity, sizeof(*cov->spans))) {
		cov->has_lost_spans = true;
		return;
	}
	cov->spans[cov->span_count++] = (struct ca_span){ from, to };
}

size_t ca_coverage_first_after(const struct ca_cpu_coverage *cov, uint64_t from)
{
	size_t low = 0, high = cov->span_count;

	/* Stretches end at the CPU's own events, in time order: the first ending after @from. */
	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (cov->spans[mid].to > from)
			high = mid;
		else
			low = mid + 1;
	}
	return low;
}

bool ca_coverage_overlaps(const struct ca_cpu_coverage *cov, uint64_t from, uint64_t to)
{
	if (cov->has_lost_spans)
		return true;
	for (size_t i = ca_coverage_first_after(cov, from);
	     i < cov->span_count && cov->spans[i].from < to; i++)
		if (cov->spans[i].to > from)
			return true;
	return false;
}

void ca_coverage_free(struct ca_cpu_coverage *cov)
{
	free(cov->spans);
	cov->spans = NULL;
	cov->span_count = 0;
	cov->span_capacity = 0;
}

void ca_coverage_add(struct ca_cpu_coverage *cov, const struct ca_stretch *stretch)
{
	uint64_t length = stretch->to > stretch->from ? stretch->to - stretch->from : 0;

	struct ca_stretch *longest = &cov->longest[stretch->why];

	if (length)
		keep_span(cov, stretch->from, stretch->to);
	cov->unobserved_ns += length;
	cov->why_ns[stretch->why] += length;
	if (!cov->why_count[stretch->why]++ || length > longest->to - longest->from)
		*longest = *stretch;
}

/* The silence from @since to @to, unobserved: what went unanswered in it. */
static void add_silence(struct ca_cpu_coverage *cov, uint64_t since, uint64_t to, bool is_end)
{
	struct ca_stretch stretch = { .from = since, .to = to, .is_to_end = is_end,
				      .why = CA_UNOBSERVED_SILENT };

	memcpy(stretch.demands, cov->demands, sizeof(stretch.demands));
	ca_coverage_add(cov, &stretch);
}

static bool is_unanswered(const struct ca_cpu_coverage *cov, uint64_t ts)
{
	return cov->has_demand && ts > cov->demand_since &&
	       ts - cov->demand_since > CA_RESPONSE_NS;
}

bool ca_coverage_own_event(struct ca_cpu_coverage *cov, uint64_t since, uint64_t ts,
			   bool is_quiet)
{
	bool is_unobserved = is_unanswered(cov, ts);

	if (is_unobserved)
		add_silence(cov, since, ts, false);
	else if (is_quiet)
		ca_coverage_add(cov, &(struct ca_stretch){ .from = since, .to = ts,
							   .why = CA_UNOBSERVED_QUIET });
	cov->has_demand = false;
	return is_unobserved || is_quiet;
}

void ca_coverage_end_stream(struct ca_cpu_coverage *cov, uint64_t at, uint64_t offset,
			    uint64_t bytes)
{
	if (cov->is_ended)
		return;
	cov->is_ended = true;
	cov->ended_at = at;
	cov->ended_offset = offset;
	cov->ended_bytes = bytes;
}

bool ca_coverage_finish(struct ca_cpu_coverage *cov, bool has_events, uint64_t since,
			uint64_t end, uint64_t *from)
{
	struct ca_stretch stretch = { .to = end, .is_to_end = true };

	if (!has_events) {
		stretch.from = since;
		stretch.why = CA_UNOBSERVED_NEVER_SEEN;
	} else if (cov->is_ended) {
		stretch.from = cov->ended_at;
		stretch.why = CA_UNOBSERVED_STREAM_END;
		stretch.offset = cov->ended_offset;
		stretch.bytes = cov->ended_bytes;
	} else if (is_unanswered(cov, end)) {
		add_silence(cov, since, end, true);
		*from = since;
		return true;
	} else {
		return false;
	}
	ca_coverage_add(cov, &stretch);
	*from = stretch.from;
	return true;
}
