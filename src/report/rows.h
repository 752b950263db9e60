/*
 * rows.h - private to report/: the longest co-run windows as the text report
 * shows them (rows.c).  The isolation check judges pairs of CPUs; on a core of
 * three or more CPUs one co-run is several pair windows at once (three SMT4
 * threads of two cookies: two).  A row is such a co-run shown once: the pair
 * windows of one core that overlap, with every CPU they name and the task it
 * ran.
 */
#ifndef CA_REPORT_ROWS_H
#define CA_REPORT_ROWS_H

#include <stddef.h>

#include "pipeline.h"

#define CA_ROW_CPUS 8	/* SMT8 */

struct ca_window_row {
	int core;
	uint64_t start;
	uint64_t end;
	enum ca_window_kind kind;		/* the worst of its windows' */
	enum ca_window_cause cause;		/* of the window of that kind first met */
	bool is_open_at_end;
	int windows;				/* pair windows in it */
	int cpu_count;
	int cpus[CA_ROW_CPUS];			/* by CPU number */
	const struct ca_window_task *tasks[CA_ROW_CPUS];	/* what each ran */
};

/**
 * ca_report_window_rows() - up to @top rows, the longest first, from the
 *                           kept windows (every one of them merged into the
 *                           row it overlaps)
 * Return: the rows filled in @rows (room for @top), or -1 out of memory.
 */
long ca_report_window_rows(const struct ca_audit *audit, struct ca_window_row *rows, size_t top);

#endif
