/*
 * common.h - private to report/: ordering findings for display.
 */
#ifndef CA_REPORT_COMMON_H
#define CA_REPORT_COMMON_H

#include <stddef.h>

#include "pipeline.h"

/**
 * ca_report_sorted_windows() - the kept windows, longest first (caller frees)
 * Return: an array of @audit->pipeline->isolation.list_count pointers, or NULL.
 */
const struct ca_window **ca_report_sorted_windows(const struct ca_audit *audit);

/**
 * ca_report_sorted_tasks() - forced-idle task records by kernel figure, then
 *                            starvation, largest first (caller frees)
 */
const struct ca_fi_task **ca_report_sorted_tasks(const struct ca_audit *audit);

/**
 * ca_report_sorted_identities() - the fairness check's cookies (or tags), the
 *                                 most short of a fair share first, then by
 *                                 contended time (caller frees)
 */
const struct ca_fair_identity **ca_report_sorted_identities(const struct ca_audit *audit);

/** ca_report_sorted_pairs() - (waiting, running) pairs, the longest waited first (caller frees) */
const struct ca_fair_pair **ca_report_sorted_pairs(const struct ca_audit *audit);

/** ca_report_sorted_exposure() - exposure pairs, the longest total first (caller frees) */
const struct ca_exposure_pair **ca_report_sorted_exposure(const struct ca_audit *audit);

/** ca_report_kernel_what() - "syscall", "irq" or "softirq" */
const char *ca_report_kernel_what(enum ca_kernel_what what);

/** ca_report_identity() - a cookie as "0x...", or a tag id as its name ("(none)" for 0) */
void ca_report_identity(const struct ca_audit *audit, uint64_t value, char *buf, size_t len);

/**
 * ca_report_clean() - make @text safe to carry as text in XML and JSON, in place:
 *                     control characters other than tab and newline become '?',
 *                     and so does every byte past ASCII when @text is not UTF-8
 *                     (a task's comm is bytes, not text)
 */
void ca_report_clean(char *text);

#endif
