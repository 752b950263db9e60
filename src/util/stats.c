/*
 * stats.c - durations collected exactly, summarised with nearest-rank
 * percentiles.
 */
#include <errno.h>
#include <stdlib.h>

#include "coreaudit/stats.h"

int ca_durations_add(struct ca_durations *set, uint64_t value)
{
	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? set->capacity * 2 : 64;
		uint64_t *values = realloc(set->values, capacity * sizeof(*values));

		if (!values)
			return -ENOMEM;
		set->values = values;
		set->capacity = capacity;
	}
	set->values[set->count++] = value;
	set->total += value;
	return 0;
}

void ca_durations_free(struct ca_durations *set)
{
	free(set->values);
	set->values = NULL;
	set->count = 0;
	set->capacity = 0;
	set->total = 0;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least pct% of values at or below it. */
static uint64_t nearest_rank(const uint64_t *sorted, size_t count, unsigned int pct)
{
	size_t rank = (count * pct + 99) / 100;

	return sorted[rank ? rank - 1 : 0];
}

struct ca_summary ca_durations_summary(struct ca_durations *set)
{
	struct ca_summary summary = { .count = set->count, .total_ns = set->total };

	if (!set->count)
		return summary;
	qsort(set->values, set->count, sizeof(*set->values), compare_u64);
	summary.p50_ns = nearest_rank(set->values, set->count, 50);
	summary.p99_ns = nearest_rank(set->values, set->count, 99);
	summary.max_ns = set->values[set->count - 1];
	return summary;
}
