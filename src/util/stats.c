/*
 * stats.c - durations summarised with nearest-rank percentiles: exact for the
 * first CA_DURATIONS_EXACT values, then in a log-linear histogram whose
 * buckets are at most 1/256 of their value wide, so that memory stays flat
 * on traces of any length and in a monitor that runs for days.  Count, total
 * and max stay exact; a percentile from the histogram is its bucket's upper
 * bound (never below the true value, at most 0.4% above it).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/stats.h"

#define MANTISSA_BITS 8
#define LINEAR_LIMIT (1u << MANTISSA_BITS)	/* values below it have their own bucket */
#define BUCKET_COUNT (LINEAR_LIMIT + (64 - MANTISSA_BITS) * LINEAR_LIMIT)

static int highest_bit(uint64_t value)
{
	return 63 - __builtin_clzll(value);
}

static size_t bucket_of(uint64_t value)
{
	int exponent;

	if (value < LINEAR_LIMIT)
		return (size_t)value;
	exponent = highest_bit(value);
	return LINEAR_LIMIT + (size_t)(exponent - MANTISSA_BITS) * LINEAR_LIMIT +
	       ((value >> (exponent - MANTISSA_BITS)) & (LINEAR_LIMIT - 1));
}

/* The largest value that falls in @bucket. */
static uint64_t bucket_upper(size_t bucket)
{
	size_t index = bucket - LINEAR_LIMIT;
	int shift;

	if (bucket < LINEAR_LIMIT)
		return bucket;
	shift = (int)(index / LINEAR_LIMIT);
	return ((((uint64_t)LINEAR_LIMIT + index % LINEAR_LIMIT) + 1) << shift) - 1;
}

/* Move the exact values into a histogram, for good. */
static int fold_into_histogram(struct ca_durations *set)
{
	set->buckets = calloc(BUCKET_COUNT, sizeof(*set->buckets));
	if (!set->buckets)
		return -ENOMEM;
	for (size_t i = 0; i < set->count; i++)
		set->buckets[bucket_of(set->values[i])]++;
	free(set->values);
	set->values = NULL;
	set->capacity = 0;
	return 0;
}

static int add_exact(struct ca_durations *set, uint64_t value)
{
	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? set->capacity * 2 : 64;
		uint64_t *values = realloc(set->values, capacity * sizeof(*values));

		if (!values)
			return -ENOMEM;
		set->values = values;
		set->capacity = capacity;
	}
	set->values[set->count] = value;
	return 0;
}

int ca_durations_add(struct ca_durations *set, uint64_t value)
{
	int ret = 0;

	if (!set->buckets && set->count == CA_DURATIONS_EXACT)
		ret = fold_into_histogram(set);
	if (!ret && set->buckets)
		set->buckets[bucket_of(value)]++;
	else if (!ret)
		ret = add_exact(set, value);
	if (ret)
		return ret;
	set->count++;
	set->total += value;
	if (value > set->max)
		set->max = value;
	return 0;
}

void ca_durations_free(struct ca_durations *set)
{
	free(set->values);
	free(set->buckets);
	*set = (struct ca_durations){ 0 };
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the 1-based rank of the pct-th percentile among @count values. */
static size_t nearest_rank(size_t count, unsigned int pct)
{
	size_t rank = (count * pct + 99) / 100;

	return rank ? rank : 1;
}

static uint64_t histogram_rank(const struct ca_durations *set, size_t rank)
{
	size_t seen = 0;

	for (size_t bucket = 0; bucket < BUCKET_COUNT; bucket++) {
		seen += set->buckets[bucket];
		if (seen >= rank) {
			uint64_t upper = bucket_upper(bucket);

			return upper < set->max ? upper : set->max;
		}
	}
	return set->max;
}

struct ca_summary ca_durations_summary(struct ca_durations *set)
{
	struct ca_summary summary = { .count = set->count, .total_ns = set->total,
				      .max_ns = set->max };

	if (!set->count)
		return summary;
	summary.is_approximate = set->buckets != NULL;
	if (set->buckets) {
		summary.p50_ns = histogram_rank(set, nearest_rank(set->count, 50));
		summary.p99_ns = histogram_rank(set, nearest_rank(set->count, 99));
		return summary;
	}
	qsort(set->values, set->count, sizeof(*set->values), compare_u64);
	summary.p50_ns = set->values[nearest_rank(set->count, 50) - 1];
	summary.p99_ns = set->values[nearest_rank(set->count, 99) - 1];
	return summary;
}

int ca_log2_bin(uint64_t value)
{
	return value > 1 ? highest_bit(value) : 0;
}

void ca_durations_log2(const struct ca_durations *set, uint64_t bins[CA_LOG2_BINS])
{
	for (int i = 0; i < CA_LOG2_BINS; i++)
		bins[i] = 0;
	if (!set->buckets) {
		for (size_t i = 0; i < set->count; i++)
			bins[ca_log2_bin(set->values[i])]++;
		return;
	}
	/* A log-linear bucket never straddles a power of two: its upper bound's bin is its own. */
	for (size_t bucket = 0; bucket < BUCKET_COUNT; bucket++)
		bins[ca_log2_bin(bucket_upper(bucket))] += set->buckets[bucket];
}
