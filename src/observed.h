/*
 * observed.h - private to the library: how much of the trace each CPU was
 * observed over, summed for the verdict and said as reasons (observed.c).
 */
#ifndef CA_OBSERVED_H
#define CA_OBSERVED_H

#include "pipeline.h"

/**
 * ca_audit_add_reason() - one more reason for the verdict (audit.c)
 * Return: its data, to fill (a spare one past CA_MAX_REASONS).
 */
struct ca_reason *ca_audit_add_reason(struct ca_audit *audit, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** ca_reason_measure() - what @reason counts: @value in @unit, of check @check */
void ca_reason_measure(struct ca_reason *reason, const char *check, double value,
		       const char *unit);

/** ca_reason_limit() - the threshold @reason's value passed */
void ca_reason_limit(struct ca_reason *reason, double threshold, const char *unit);

/**
 * ca_observed_late_start_ns() - the head of the span that @cpu, first seen
 *                               running a task in a trace that records
 *                               ticks, stayed silent too long for a running
 *                               CPU: its recording began late
 * Return: that head (from the span's start to its first event), 0 when none.
 */
uint64_t ca_observed_late_start_ns(const struct ca_audit *audit, int cpu);

/**
 * ca_observed_early_end_ns() - the same at the span's end: @cpu, last seen
 *                              running a task, silent from its last event to
 *                              the end longer than a running CPU goes without
 *                              a tick: its recording stopped early
 * Return: that tail, 0 when none.
 */
uint64_t ca_observed_early_end_ns(const struct ca_audit *audit, int cpu);

/** ca_observed_edges_ns() - both of the above: unobserved beyond what @cpu's coverage counts */
uint64_t ca_observed_edges_ns(const struct ca_audit *audit, int cpu);

/** ca_observed_sum() - fill @audit's observed figures from the state's coverage */
void ca_observed_sum(struct ca_audit *audit);

/** ca_observed_judge() - a reason for each kind of unobserved stretch there was */
void ca_observed_judge(struct ca_audit *audit);

#endif
