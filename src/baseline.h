/*
 * baseline.h - private to the library: an audit held to an earlier run of the
 * same workload (--baseline OLD.json, the JSON report of `coreaudit audit
 * --json`): forced idle, co-run windows (count, time, p99, longest), the
 * unexplained ones, and the longest starvation may each grow by the margin
 * (a percentage of the old figure) and a floor of its own; past both, the
 * figure got worse and the audit fails.  A figure the old report lacks is not
 * compared.
 */
#ifndef CA_BASELINE_H
#define CA_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#define CA_BASELINE_FIGURES 7

struct ca_baseline_figure {
	const char *name;	/* "forced idle", "windows", ... */
	const char *unit;	/* "percent", "windows", "ns" */
	bool has_old;		/* the old report has it */
	double old_value;
	double new_value;
	double limit;		/* old + max(old * margin, floor) */
	bool is_worse;
};

struct ca_baseline {
	char path[512];
	double margin_pct;
	struct ca_baseline_figure figures[CA_BASELINE_FIGURES];
	int worse_count;
};

struct ca_audit;

/**
 * ca_baseline_load() - read the old figures from @path (a JSON report of one trace)
 * Return: 0, or -EINVAL with @err naming the file and what is wrong with it.
 */
int ca_baseline_load(struct ca_baseline *baseline, const char *path, double margin_pct,
		     char *err, size_t err_len);

/** ca_baseline_compare() - the decided @audit's figures against the old ones */
void ca_baseline_compare(struct ca_baseline *baseline, const struct ca_audit *audit);

#endif
