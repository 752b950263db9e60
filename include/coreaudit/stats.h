/*
 * stats.h - count, total and percentiles of a set of durations.
 */
#ifndef COREAUDIT_STATS_H
#define COREAUDIT_STATS_H

#include <stddef.h>
#include <stdint.h>

struct ca_durations {
	uint64_t *values;
	size_t count;
	size_t capacity;
	uint64_t total;
};

struct ca_summary {
	uint64_t count;
	uint64_t total_ns;
	uint64_t p50_ns;
	uint64_t p99_ns;
	uint64_t max_ns;
};

/** ca_durations_add() - Return: 0, or -ENOMEM. */
int ca_durations_add(struct ca_durations *set, uint64_t value);
void ca_durations_free(struct ca_durations *set);

/**
 * ca_durations_summary() - nearest-rank p50 and p99 (sorts @set in place)
 */
struct ca_summary ca_durations_summary(struct ca_durations *set);

#endif
