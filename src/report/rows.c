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

static void merge(struct ca_window_row *row, const struct ca_window *w)
{
	if (!row->windows++) {
		*row = (struct ca_window_row){ .longest = w, .core = w->core, .start = w->start,
					       .end = w->end, .kind = w->kind, .windows = 1 };
	}
	row->start = w->start < row->start ? w->start : row->start;
	row->end = w->end > row->end ? w->end : row->end;
	if (severity(w->kind) > severity(row->kind))
		row->kind = w->kind;
	row->is_open_at_end |= w->is_open_at_end;
	for (int side = 0; side < 2; side++)
		add_cpu(row, w->cpus[side], &w->tasks[side]);
}

static struct ca_window_row *overlapped(struct ca_window_row *rows, size_t count,
					const struct ca_window *w)
{
	for (size_t i = 0; i < count; i++)
		if (rows[i].core == w->core && w->start < rows[i].end && rows[i].start < w->end)
			return &rows[i];
	return NULL;
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
		const struct ca_window *w = sorted[i];
		/* One pair to a core (SMT2): its windows never overlap. */
		struct ca_window_row *row =
			audit->pipeline->state.topo.sibling_count[w->core] < 3 ? NULL :
			overlapped(rows, count, w);

		if (!row && count == top)
			continue;
		if (!row) {
			row = &rows[count++];
			row->windows = 0;
		}
		merge(row, w);
	}
	free(sorted);
	qsort(rows, count, sizeof(*rows), by_length_desc);
	return (long)count;
}
