/*
 * report.h - format an audit's findings.  Reports compute nothing.
 */
#ifndef COREAUDIT_REPORT_H
#define COREAUDIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "result.h"

#include "audit.h"

struct ca_report_options {
	int top;		/* rows in the worst-of tables */
	bool is_colour;		/* text: the verdict and its reasons in ANSI colours */
};

struct ca_report {
	const char *name;
	void (*write)(FILE *out, const struct ca_audit *audit,
		      const struct ca_report_options *opts);
};

/** ca_report_text() - the findings of a decided @audit as text for people, to @out */
void ca_report_text(FILE *out, const struct ca_audit *audit,
		    const struct ca_report_options *opts);

/** ca_report_json() - the findings of a decided @audit as one JSON object, to @out */
void ca_report_json(FILE *out, const struct ca_audit *audit,
		    const struct ca_report_options *opts);

/**
 * ca_report_json_unread() - what an audit that could not run (@result
 *                           CA_RESULT_BAD_INPUT or _BAD_OPTIONS) says, as a JSON
 *                           object: the file, the result and @audit->error
 */
void ca_report_json_unread(FILE *out, const struct ca_audit *audit, enum ca_result result);

/**
 * ca_report_lttng() - the findings as LTTng-UST events (built --with-lttng-ust;
 *                     else it does nothing).  @out is unused.
 */
void ca_report_lttng(FILE *out, const struct ca_audit *audit,
		     const struct ca_report_options *opts);

/**
 * ca_report_perfetto() - the trace and the findings as Chrome trace-event JSON (what
 *                        ui.perfetto.dev opens) to @path; @audit was run with
 *                        opts.keep_timeline
 * Return: 0, -EINVAL without a timeline, or a negative errno of the file.
 */
int ca_report_perfetto(const char *path, const struct ca_audit *audit);

/**
 * ca_report_html() - one self-contained page to look at @audit (run with
 *                    opts.keep_timeline): a timeline per core, the windows, their
 *                    evidence on click, the histograms; to @path
 * Return: 0, -EINVAL without a timeline, or a negative errno of the file.
 */
int ca_report_html(const char *path, const struct ca_audit *audit);

/**
 * ca_report_histograms() - windows.svg (co-run window length by cause) and
 *                          forced-idle.svg (forced-idle stretch length; from the
 *                          timeline) into the directory @dir
 * Return: 0, or -EIO when a file could not be written.
 */
int ca_report_histograms(const char *dir, const struct ca_audit *audit);

/**
 * ca_report_metrics() - what @audit found so far (during ca_audit_feed(), from a
 *                       live source's on_drain; or once decided, @is_decided) as
 *                       metrics: the Prometheus text format 0.0.4 (node_exporter's
 *                       textfile collector), or OpenMetrics 1.0 (@is_openmetrics)
 */
void ca_report_metrics(FILE *out, const struct ca_audit *audit, bool is_decided,
		       bool is_openmetrics);

/* JUnit XML of one or more audits (a testsuite each, a testcase per check). */
struct ca_junit;

/** ca_junit_open() - start a JUnit report to be written to @path at ca_junit_close() */
struct ca_junit *ca_junit_open(const char *path);

/**
 * ca_junit_add() - add @audit's testsuite: its checks if @result is a verdict, else one
 *                  testcase in error (the file could not be read: @audit->error)
 * @seconds: how long the audit took
 * Return: 0, or -ENOMEM.
 */
int ca_junit_add(struct ca_junit *junit, const struct ca_audit *audit, enum ca_result result,
		 double seconds, const struct ca_report_options *opts);

/**
 * ca_junit_close() - write the file and free @junit (NULL: nothing)
 * Return: 0, or -EIO when the file could not be written.
 */
int ca_junit_close(struct ca_junit *junit);

/** ca_report_find() - Return: the report called @name ("text", "json"), or NULL. */
const struct ca_report *ca_report_find(const char *name);

#endif
