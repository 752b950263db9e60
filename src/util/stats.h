/*
 * stats.h - count, total and percentiles of a set of durations.
 */
#ifndef COREAUDIT_STATS_H
#define COREAUDIT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exact percentiles up to this many values, then a histogram (stats.c). */
#define CA_DURATIONS_EXACT 65536

struct ca_durations {
	uint64_t *values;	/* exact, until CA_DURATIONS_EXACT of them */
	uint64_t *buckets;	/* then: counts per log-linear bucket */
	size_t count;
	size_t capacity;
	uint64_t total;
	uint64_t max;
};

struct ca_summary {
	uint64_t count;
	uint64_t total_ns;
	uint64_t p50_ns;
	uint64_t p99_ns;
	uint64_t max_ns;
	bool is_approximate;	/* p50/p99 from the histogram: at most 0.4% high */
};

/** ca_durations_add() - Return: 0, or -ENOMEM. */
int ca_durations_add(struct ca_durations *set, uint64_t value);
void ca_durations_free(struct ca_durations *set);

/**
 * ca_durations_summary() - nearest-rank p50 and p99 (sorts @set in place);
 *                          count, total and max are always exact
 */
struct ca_summary ca_durations_summary(struct ca_durations *set);

#define CA_LOG2_BINS 64

/** ca_log2_bin() - the bin of @value in a power-of-two histogram: floor(log2), 0 for 0 and 1 */
int ca_log2_bin(uint64_t value);

/**
 * ca_durations_log2() - how many of @set fall in each power of two: @bins[i]
 *                       counts the values from 2^i to 2^(i+1) - 1 (bin 0 also
 *                       holds 0); exact, from the histogram too
 */
void ca_durations_log2(const struct ca_durations *set, uint64_t bins[CA_LOG2_BINS]);

#endif
