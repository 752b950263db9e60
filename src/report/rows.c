/*
 * rows.c - the longest co-run windows, one row per co-run (rows.h).
 */
#include <stdlib.h>

#include "report/common.h"
#include "report/rows.h"

/* How bad a kind is: a violation, then unknown, then skew. */
static int severity(enum ca_window_kind kind)
{
	return kind == CA_WINDOW_VIOLATION ? 2 : kind == CA_WINDOW_UNKNOWN ? 1 : 0;
}

static void add_cpu(struct ca_window_row *row, int cpu, const struct ca_window_task *task)
{
	int at = 0;

	while (at < row->cpu_count && row->cpus[at] < cpu)
		at++;
	if ((at < row->cpu_count && row->cpus[at] == cpu) || row->cpu_count == CA_ROW_CPUS)
		return;
	for (int i = row->cpu_count; i > at; i--) {
		row->cpus[i] = row->cpus[i - 1];
		row->tasks[i] = row->tasks[i - 1];
	}
	row->cpus[at] = cpu;
	row->tasks[at] = task;
	row->cpu_count++;
}

/* @from's span, kind, CPUs and windows into @row (same core, overlapping). */
static void fold(struct ca_window_row *row, const struct ca_window_row *from)
{
	row->start = from->start < row->start ? from->start : row->start;
	row->end = from->end > row->end ? from->end : row->end;
	if (severity(from->kind) > severity(row->kind)) {
		row->kind = from->kind;
		row->cause = from->cause;
	}
	row->is_open_at_end |= from->is_open_at_end;
	row->windows += from->windows;
	for (int i = 0; i < from->cpu_count; i++)
		add_cpu(row, from->cpus[i], from->tasks[i]);
}

static struct ca_window_row row_of(const struct ca_window *w)
{
	struct ca_window_row row = { .core = w->core, .start = w->start,
				     .end = w->end, .kind = w->kind, .cause = w->cause,
				     .is_open_at_end = w->is_open_at_end, .windows = 1 };

	for (int side = 0; side < 2; side++)
		add_cpu(&row, w->cpus[side], &w->tasks[side]);
	return row;
}

static bool is_overlapping(const struct ca_window_row *a, const struct ca_window_row *b)
{
	return a->core == b->core && a->start < b->end && b->start < a->end;
}

/* Rows that @row now reaches are one co-run with it (merging is transitive). */
static void absorb(struct ca_window_row *rows, size_t *count, size_t at)
{
	for (size_t i = 0; i < *count; i++) {
		if (i == at || !is_overlapping(&rows[at], &rows[i]))
			continue;
		fold(&rows[at], &rows[i]);
		rows[i] = rows[--*count];
		if (at == *count)
			at = i;
		i = (size_t)-1;	/* the grown row may reach one already passed */
	}
}

static long overlapped(const struct ca_window_row *rows, size_t count,
		       const struct ca_window_row *row)
{
	for (size_t i = 0; i < count; i++)
		if (is_overlapping(&rows[i], row))
			return (long)i;
	return -1;
}

static int by_length_desc(const void *a, const void *b)
{
	const struct ca_window_row *x = a, *y = b;
	uint64_t lx = x->end - x->start, ly = y->end - y->start;

	if (lx != ly)
		return lx < ly ? 1 : -1;
	return (x->start > y->start) - (x->start < y->start);
}

long ca_report_window_rows(const struct ca_audit *audit, struct ca_window_row *rows, size_t top)
{
	const struct ca_window **sorted = ca_report_sorted_windows(audit);
	size_t count = 0;

	if (!sorted)
		return -1;
	for (size_t i = 0; i < audit->pipeline->isolation.list_count; i++) {
		struct ca_window_row row = row_of(sorted[i]);
		/* One pair to a core (SMT2): its windows never overlap. */
		long at = audit->pipeline->state.topo.sibling_count[row.core] < 3 ? -1 :
			  overlapped(rows, count, &row);

		if (at < 0 && count == top)
			continue;
		if (at < 0) {
			rows[count++] = row;
			continue;
		}
		fold(&rows[at], &row);
		absorb(rows, &count, (size_t)at);
	}
	free(sorted);
	qsort(rows, count, sizeof(*rows), by_length_desc);
	return (long)count;
}
