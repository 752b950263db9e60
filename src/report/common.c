/*
 * common.c - what the reports share: orderings of findings, and text made safe
 * for XML and JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/common.h"

/* Pointers to the @count items of @size bytes at @items, in @compare's order (caller frees). */
static void *sorted_pointers(const void *items, size_t count, size_t size,
			     int (*compare)(const void *, const void *))
{
	const void **sorted = malloc((count + 1) * sizeof(*sorted));

	if (!sorted)
		return NULL;
	for (size_t i = 0; i < count; i++)
		sorted[i] = (const char *)items + i * size;
	qsort(sorted, count, sizeof(*sorted), compare);
	return sorted;
}

static int by_length_desc(const void *a, const void *b)
{
	const struct ca_window *x = *(const struct ca_window *const *)a;
	const struct ca_window *y = *(const struct ca_window *const *)b;
	uint64_t lx = x->end - x->start, ly = y->end - y->start;

	if (lx != ly)
		return lx < ly ? 1 : -1;
	return (x->start > y->start) - (x->start < y->start);
}

const struct ca_window **ca_report_sorted_windows(const struct ca_audit *audit)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;

	return sorted_pointers(iso->list, iso->list_count, sizeof(*iso->list), by_length_desc);
}

static int by_charge_desc(const void *a, const void *b)
{
	const struct ca_fi_task *x = *(const struct ca_fi_task *const *)a;
	const struct ca_fi_task *y = *(const struct ca_fi_task *const *)b;

	if (x->kernel_ns != y->kernel_ns)
		return x->kernel_ns < y->kernel_ns ? 1 : -1;
	if (x->starved_ns != y->starved_ns)
		return x->starved_ns < y->starved_ns ? 1 : -1;
	return x->pid - y->pid;
}

const struct ca_fi_task **ca_report_sorted_tasks(const struct ca_audit *audit)
{
	const struct ca_forcedidle *fi = &audit->pipeline->forcedidle;

	return sorted_pointers(fi->tasks, fi->task_count, sizeof(*fi->tasks), by_charge_desc);
}

static int by_shortfall_desc(const void *a, const void *b)
{
	const struct ca_fair_identity *x = *(const struct ca_fair_identity *const *)a;
	const struct ca_fair_identity *y = *(const struct ca_fair_identity *const *)b;
	double ux = ca_fairness_unfairness(x), uy = ca_fairness_unfairness(y);

	if (ux != uy)
		return ux < uy ? 1 : -1;
	if (x->competed_ns != y->competed_ns)
		return x->competed_ns < y->competed_ns ? 1 : -1;
	return (x->value > y->value) - (x->value < y->value);
}

const struct ca_fair_identity **ca_report_sorted_identities(const struct ca_audit *audit)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;

	return sorted_pointers(fair->identities, fair->identity_count, sizeof(*fair->identities),
			       by_shortfall_desc);
}

static int by_waited_desc(const void *a, const void *b)
{
	const struct ca_fair_pair *x = *(const struct ca_fair_pair *const *)a;
	const struct ca_fair_pair *y = *(const struct ca_fair_pair *const *)b;

	if (x->waited_ns != y->waited_ns)
		return x->waited_ns < y->waited_ns ? 1 : -1;
	if (x->waiting != y->waiting)
		return x->waiting < y->waiting ? -1 : 1;
	return (x->running > y->running) - (x->running < y->running);
}

const struct ca_fair_pair **ca_report_sorted_pairs(const struct ca_audit *audit)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;

	return sorted_pointers(fair->pairs, fair->pair_count, sizeof(*fair->pairs), by_waited_desc);
}

static int by_total_desc(const void *a, const void *b)
{
	const struct ca_exposure_pair *x = *(const struct ca_exposure_pair *const *)a;
	const struct ca_exposure_pair *y = *(const struct ca_exposure_pair *const *)b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	if (x->inside != y->inside)
		return x->inside < y->inside ? -1 : 1;
	return (x->beside > y->beside) - (x->beside < y->beside);
}

const struct ca_exposure_pair **ca_report_sorted_exposure(const struct ca_audit *audit)
{
	const struct ca_exposure *exp = &audit->pipeline->exposure;

	return sorted_pointers(exp->pairs, exp->pair_count, sizeof(*exp->pairs), by_total_desc);
}

const char *ca_report_kernel_what(enum ca_kernel_what what)
{
	static const char *const names[CA_KERNEL_WHAT_COUNT] = {
		[CA_KERNEL_SYSCALL] = "syscall", [CA_KERNEL_IRQ] = "irq",
		[CA_KERNEL_SOFTIRQ] = "softirq",
	};

	return (unsigned int)what < CA_KERNEL_WHAT_COUNT ? names[what] : "?";
}

/* The length of the UTF-8 sequence at @p as RFC 3629 allows it (no overlong form, surrogate or
 * code point over U+10FFFF), or 0. */
static int utf8_length(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static bool is_utf8(const char *text)
{
	int n;

	for (const unsigned char *p = (const unsigned char *)text; *p; p += n)
		if (!(n = utf8_length(p)))
			return false;
	return true;
}

void ca_report_clean(char *text)
{
	for (unsigned char *p = (unsigned char *)text; *p; p++)
		if (*p < 0x20 && *p != '\t' && *p != '\n')
			*p = '?';
	if (!is_utf8(text))
		for (unsigned char *p = (unsigned char *)text; *p; p++)
			if (*p >= 0x80)
				*p = '?';
}

void ca_report_identity(const struct ca_audit *audit, uint64_t value, char *buf, size_t len)
{
	if (audit->pipeline->state.identity == CA_IDENTITY_TAG)
		snprintf(buf, len, "%s", value ? ca_tasks_tag_name(&audit->pipeline->state.tasks,
								   (int)value) : "(none)");
	else
		snprintf(buf, len, "0x%" PRIx64, value);
}
