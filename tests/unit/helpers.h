/*
 * helpers.h - build small traces as `trace-cmd report` text and audit them.
 */
#ifndef CA_TEST_HELPERS_H
#define CA_TEST_HELPERS_H

#include <check.h>

#include "pipeline.h"	/* the unit tests look inside the checks */

struct trace_text {
	char *text;
	size_t len;
	size_t capacity;
};

/* One event line: "comm-PID [CPU] TS: EVENT: FIELDS" (TS in seconds, 9 digits). */
void trace_line(struct trace_text *t, int cpu, const char *ts, int pid, const char *event,
		const char *fields_fmt, ...) __attribute__((format(printf, 6, 7)));
/* A raw line, e.g. "CPU:0 [5 EVENTS DROPPED]". */
void trace_raw(struct trace_text *t, const char *line);
void trace_free(struct trace_text *t);

/* Audit @t with @opts (path replaced); the caller frees with ca_audit_free(). */
enum ca_result audit_text(struct ca_audit *audit, const struct trace_text *t,
			     struct ca_audit_options *opts);

/*
 * Audit @t with @rules_text written to a temporary rule file as
 * @opts->rules_path; the caller frees with ca_audit_free().
 */
enum ca_result audit_text_with_rules(struct ca_audit *audit, const struct trace_text *t,
					struct ca_audit_options *opts, const char *rules_text);

/* Options for a 2-sibling core "0,1" unless @topology says otherwise. */
void test_options(struct ca_audit_options *opts, const char *topology);

const struct ca_fi_task *fi_task_of(const struct ca_audit *audit, int pid);

Suite *duration_suite(void);
Suite *topology_suite(void);
Suite *text_suite(void);
Suite *isolation_suite(void);
Suite *forcedidle_suite(void);
Suite *reselect_suite(void);
Suite *inversion_suite(void);
Suite *unjust_suite(void);
Suite *smt_suite(void);
Suite *accounting_suite(void);
Suite *cookies_suite(void);
Suite *audit_suite(void);
Suite *causes_suite(void);
Suite *rules_suite(void);
Suite *stats_suite(void);
Suite *coverage_suite(void);
Suite *json_suite(void);
Suite *tourney_suite(void);
Suite *automata_suite(void);
Suite *livefit_suite(void);
Suite *corun_suite(void);
Suite *decode_suite(void);

#endif
