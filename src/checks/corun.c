/*
 * corun.c - a core's co-run time counted once (corun.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "checks/corun.h"
#include "util/grow.h"

#define SETTLE_FIRST 64		/* spans kept before the first mark is asked for */

/* The first span that ends at or after @start (spans are disjoint and sorted). */
static size_t first_reaching(const struct ca_corun *corun, uint64_t start)
{
	size_t low = 0, high = corun->count;

	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (corun->spans[mid].end < start)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

int ca_corun_add(struct ca_corun *corun, uint64_t start, uint64_t end)
{
	size_t at = first_reaching(corun, start), last = at;

	if (end <= start)
		return 0;
	/* The spans [at, last) touch [start, end): they become one. */
	while (last < corun->count && corun->spans[last].start <= end)
		last++;
	if (last > at) {
		struct ca_corun_span *merged = &corun->spans[at];

		merged->start = merged->start < start ? merged->start : start;
		merged->end = corun->spans[last - 1].end > end ? corun->spans[last - 1].end : end;
		memmove(merged + 1, &corun->spans[last],
			(corun->count - last) * sizeof(*corun->spans));
		corun->count -= last - at - 1;
		return 0;
	}
	if (ca_grow(&corun->spans, corun->count, &corun->room, sizeof(*corun->spans)))
		return -ENOMEM;
	memmove(&corun->spans[at + 1], &corun->spans[at], (corun->count - at) * sizeof(*corun->spans));
	corun->spans[at] = (struct ca_corun_span){ start, end };
	corun->count++;
	return 0;
}

bool ca_corun_wants_mark(const struct ca_corun *corun)
{
	return corun->count >= (corun->settle_at ? corun->settle_at : SETTLE_FIRST);
}

void ca_corun_settle(struct ca_corun *corun, uint64_t mark)
{
	size_t done = 0;

	if (corun->count > CA_CORUN_MAX_SPANS && corun->spans[corun->count / 2].end > mark) {
		mark = corun->spans[corun->count / 2].end;	/* the oldest half, anyway */
		corun->is_upper_bound = true;
	}
	while (done < corun->count && corun->spans[done].end <= mark) {
		corun->settled_ns += corun->spans[done].end - corun->spans[done].start;
		done++;
	}
	memmove(corun->spans, &corun->spans[done], (corun->count - done) * sizeof(*corun->spans));
	corun->count -= done;
	/* Asked again once as many again are kept: the cost stays linear. */
	corun->settle_at = corun->count * 2 > SETTLE_FIRST ? corun->count * 2 : SETTLE_FIRST;
}

uint64_t ca_corun_total(const struct ca_corun *corun)
{
	uint64_t total = corun->settled_ns;

	for (size_t i = 0; i < corun->count; i++)
		total += corun->spans[i].end - corun->spans[i].start;
	return total;
}

void ca_corun_free(struct ca_corun *corun)
{
	free(corun->spans);
	memset(corun, 0, sizeof(*corun));
}
