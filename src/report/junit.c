/*
 * junit.c - the findings as JUnit XML, the report CI systems show (Jenkins,
 * GitLab, GitHub test reporters): one testsuite per audited trace, one
 * testcase per check it ran (outcomes.h), written with libxml2's xmlwriter.
 *
 * A check that failed carries a <failure> with its worst findings (the text
 * report's section: timestamps, CPUs, tasks); one the trace cannot decide an
 * <error type="inconclusive">, so that CI shows it as not passed; a trace
 * that could not be read one testcase "read" with an <error type="bad-input">.
 * The whole text report of a trace is its suite's <system-out>.  Attributes
 * follow the JUnit schema of Jenkins' xunit plugin (junit-10.xsd); the tests
 * validate with tests/e2e/junit.xsd, a restriction of it.
 *
 * Totals go on <testsuites> before the suites, so each suite is written to
 * memory as it comes and the file at ca_junit_close().
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libxml/encoding.h>
#include <libxml/xmlwriter.h>

#include "coreaudit/report.h"
#include "report/common.h"
#include "report/outcomes.h"
#include "report/sections.h"

struct ca_junit {
	char *path;
	char **suites;		/* each one <testsuite> element, as XML text */
	size_t count;
	unsigned long tests, failures, errors;
	double seconds;
};

struct suite {
	xmlTextWriterPtr w;
	unsigned long tests, failures, errors;
};

/* @text as XML may carry it (ca_report_clean()); the caller frees. */
static char *xml_safe(const char *text)
{
	char *copy = strdup(text ? text : "");

	if (copy)
		ca_report_clean(copy);
	return copy;
}

static void attribute(xmlTextWriterPtr w, const char *name, const char *value)
{
	char *safe = xml_safe(value);

	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST (safe ? safe : ""));
	free(safe);
}

static void attribute_count(xmlTextWriterPtr w, const char *name, unsigned long value)
{
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%lu", value);
}

static void text(xmlTextWriterPtr w, const char *value)
{
	char *safe = xml_safe(value);

	xmlTextWriterWriteString(w, BAD_CAST (safe ? safe : ""));
	free(safe);
}

/* What @write puts to a stream, as a string the caller frees (NULL: none). */
static char *capture(void (*write)(FILE *out, const struct ca_audit *audit, int top,
				   const struct ca_outcome *o),
		     const struct ca_audit *audit, int top, const struct ca_outcome *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		return NULL;
	write(out, audit, top, o);
	fclose(out);
	return buf;
}

/* The worst findings of a failed check: the text report's section of it. */
static void write_findings(FILE *out, const struct ca_audit *audit, int top,
			   const struct ca_outcome *o)
{
	const struct ca_audit_pipeline *p = audit->pipeline;

	switch (o->check) {
	case CA_CHECK_ISOLATION:
		ca_text_violations(out, audit, top);
		break;
	case CA_CHECK_RULE:
		ca_text_rule_relation(out, audit, o->relation, top);
		break;
	case CA_CHECK_FORCED_IDLE:
	case CA_CHECK_STARVATION:
		ca_text_forced_idle(out, audit, top);
		break;
	case CA_CHECK_RESELECT:
		ca_text_reselect(out, audit, top);
		break;
	case CA_CHECK_INVERSION:
		ca_text_owed(out, audit, &p->inversion, "priority inversion", top);
		break;
	case CA_CHECK_UNJUSTIFIED:
		ca_text_owed(out, audit, &p->unjust, "unjustified forced idle", top);
		break;
	case CA_CHECK_ACCOUNTING:
		ca_text_accounting(out, audit, top);
		break;
	case CA_CHECK_FAIRNESS:
		ca_text_fairness(out, audit, top);
		break;
	case CA_CHECK_BASELINE:
		ca_text_baseline(out, audit);
		break;
	case CA_CHECK_OBSERVED:
		break;
	}
}

/* Every reason of the verdict that @o owns, one a line. */
static void write_reasons(FILE *out, const struct ca_audit *audit, int top,
			  const struct ca_outcome *o)
{
	(void)top;
	for (int i = 0; i < audit->reason_count; i++)
		if (o->reasons & (1u << i))
			fprintf(out, "%s\n", audit->reasons[i]);
	if (o->check == CA_CHECK_OBSERVED && audit->reasons_dropped)
		fprintf(out, "(%d more reasons, not listed)\n", audit->reasons_dropped);
}

/* The first reason @o owns, as the one-line message of its failure or error. */
static const char *first_reason(const struct ca_audit *audit, const struct ca_outcome *o)
{
	for (int i = 0; i < audit->reason_count; i++)
		if (o->reasons & (1u << i))
			return audit->reasons[i];
	return o->status == CA_OUTCOME_UNKNOWN ? "the verdict is inconclusive (reasons not listed)"
					       : "failed";
}

/* A check's <failure> or <error>: its reasons, then its worst findings. */
static void write_verdict(struct suite *s, const struct ca_audit *audit, int top,
			  const struct ca_outcome *o)
{
	bool is_failure = o->status == CA_OUTCOME_FAILED;
	char *reasons = capture(write_reasons, audit, top, o);
	char *findings = is_failure ? capture(write_findings, audit, top, o) : NULL;

	xmlTextWriterStartElement(s->w, BAD_CAST (is_failure ? "failure" : "error"));
	attribute(s->w, "type", is_failure ? o->name : "inconclusive");
	attribute(s->w, "message", first_reason(audit, o));
	text(s->w, reasons);
	if (findings && *findings) {
		text(s->w, "\nworst findings:\n");
		text(s->w, findings);
	}
	xmlTextWriterEndElement(s->w);
	free(reasons);
	free(findings);
}

static void write_testcase(struct suite *s, const char *classname, const struct ca_audit *audit,
			   int top, const struct ca_outcome *o)
{
	xmlTextWriterStartElement(s->w, BAD_CAST "testcase");
	attribute(s->w, "name", o->name);
	attribute(s->w, "classname", classname);
	if (o->status != CA_OUTCOME_HELD)
		write_verdict(s, audit, top, o);
	xmlTextWriterEndElement(s->w);
}

static void property(struct suite *s, const char *name, const char *value)
{
	xmlTextWriterStartElement(s->w, BAD_CAST "property");
	attribute(s->w, "name", name);
	attribute(s->w, "value", value);
	xmlTextWriterEndElement(s->w);
}

static void write_properties(struct suite *s, const struct ca_audit *audit, enum ca_result result)
{
	char events[32];

	xmlTextWriterStartElement(s->w, BAD_CAST "properties");
	property(s, "result", ca_result_name(result));
	if (audit->pipeline && (result == CA_RESULT_PASS || result == CA_RESULT_FAIL ||
				result == CA_RESULT_INCONCLUSIVE)) {
		snprintf(events, sizeof(events), "%llu", (unsigned long long)audit->events);
		property(s, "verdict", ca_verdict_name(audit->verdict));
		property(s, "format", audit->info.format);
		property(s, "clock", audit->info.clock);
		property(s, "events", events);
	}
	xmlTextWriterEndElement(s->w);
}

/* The whole text report, for capture(): a suite's system-out. */
static void write_report(FILE *out, const struct ca_audit *audit, int top,
			 const struct ca_outcome *o)
{
	(void)o;
	ca_report_text(out, audit, &(struct ca_report_options){ .top = top });
}

/* An audit that decided: a testcase per check, the text report as system-out. */
static void write_checks(struct suite *s, const struct ca_audit *audit,
			 const struct ca_report_options *opts, const struct ca_outcome *list,
			 int count)
{
	char *report = capture(write_report, audit, opts->top, NULL);

	for (int c = 0; c < count; c++)
		write_testcase(s, audit->opts.path, audit, opts->top, &list[c]);
	xmlTextWriterStartElement(s->w, BAD_CAST "system-out");
	text(s->w, report);
	xmlTextWriterEndElement(s->w);
	free(report);
}

/* An audit that could not run: one testcase, "read" or "options", in error. */
static void write_unread(struct suite *s, const struct ca_audit *audit, enum ca_result result)
{
	bool is_input = result == CA_RESULT_BAD_INPUT;

	xmlTextWriterStartElement(s->w, BAD_CAST "testcase");
	attribute(s->w, "name", is_input ? "read" : "options");
	attribute(s->w, "classname", audit->opts.path);
	xmlTextWriterStartElement(s->w, BAD_CAST "error");
	attribute(s->w, "type", ca_result_name(result));
	attribute(s->w, "message", audit->error);
	text(s->w, audit->error);
	xmlTextWriterEndElement(s->w);
	xmlTextWriterEndElement(s->w);
}

static void count_outcomes(struct suite *s, const struct ca_outcome *list, int count)
{
	s->tests = (unsigned long)count;
	for (int c = 0; c < count; c++) {
		s->failures += list[c].status == CA_OUTCOME_FAILED;
		s->errors += list[c].status == CA_OUTCOME_UNKNOWN;
	}
}

static void start_suite(struct suite *s, const struct ca_audit *audit, double seconds)
{
	char stamp[32], host[256] = "localhost";
	time_t now = time(NULL);
	struct tm tm;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
	gethostname(host, sizeof(host) - 1);
	xmlTextWriterStartElement(s->w, BAD_CAST "testsuite");
	attribute(s->w, "name", audit->opts.path);
	attribute_count(s->w, "tests", s->tests);
	attribute_count(s->w, "failures", s->failures);
	attribute_count(s->w, "errors", s->errors);
	attribute_count(s->w, "skipped", 0);
	xmlTextWriterWriteFormatAttribute(s->w, BAD_CAST "time", "%.3f", seconds);
	attribute(s->w, "timestamp", stamp);
	attribute(s->w, "hostname", host);
}

static bool is_decided(enum ca_result result)
{
	return result == CA_RESULT_PASS || result == CA_RESULT_FAIL ||
	       result == CA_RESULT_INCONCLUSIVE;
}

/* One <testsuite>; Return: 0, or -ENOMEM. */
static int write_suite(struct suite *s, const struct ca_audit *audit, enum ca_result result,
		       double seconds, const struct ca_report_options *opts)
{
	struct ca_outcome *list = NULL;
	int count = 0;

	if (is_decided(result) && !(list = ca_report_outcomes(audit, &count)))
		return -ENOMEM;
	if (list)
		count_outcomes(s, list, count);
	else
		s->tests = s->errors = 1;
	start_suite(s, audit, seconds);
	write_properties(s, audit, result);
	if (list)
		write_checks(s, audit, opts, list, count);
	else
		write_unread(s, audit, result);
	xmlTextWriterEndElement(s->w);
	free(list);
	return 0;
}

struct ca_junit *ca_junit_open(const char *path)
{
	struct ca_junit *junit = calloc(1, sizeof(*junit));

	if (junit && !(junit->path = strdup(path))) {
		free(junit);
		junit = NULL;
	}
	return junit;
}

int ca_junit_add(struct ca_junit *junit, const struct ca_audit *audit, enum ca_result result,
		 double seconds, const struct ca_report_options *opts)
{
	xmlBufferPtr buf = xmlBufferCreate();
	struct suite s = { .w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL };
	char **grown = realloc(junit->suites, (junit->count + 1) * sizeof(*grown));
	int ret = -ENOMEM;

	if (grown)
		junit->suites = grown;
	if (s.w && grown) {
		xmlTextWriterSetIndent(s.w, 1);
		ret = write_suite(&s, audit, result, seconds, opts);
		xmlFreeTextWriter(s.w);	/* flushes into buf */
		s.w = NULL;
	}
	if (!ret && !(junit->suites[junit->count] = strdup((const char *)xmlBufferContent(buf))))
		ret = -ENOMEM;
	if (!ret) {
		junit->count++;
		junit->tests += s.tests;
		junit->failures += s.failures;
		junit->errors += s.errors;
		junit->seconds += seconds;
	}
	if (s.w)
		xmlFreeTextWriter(s.w);
	if (buf)
		xmlBufferFree(buf);
	return ret;
}

static int write_file(const struct ca_junit *junit)
{
	xmlTextWriterPtr w = xmlNewTextWriterFilename(junit->path, 0);
	int ok;

	if (!w)
		return -EIO;
	xmlTextWriterSetIndent(w, 1);
	ok = xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) >= 0;
	ok &= xmlTextWriterStartElement(w, BAD_CAST "testsuites") >= 0;
	attribute(w, "name", "coreaudit");
	attribute_count(w, "tests", junit->tests);
	attribute_count(w, "failures", junit->failures);
	attribute_count(w, "errors", junit->errors);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "time", "%.3f", junit->seconds);
	for (size_t i = 0; i < junit->count; i++) {
		ok &= xmlTextWriterWriteRaw(w, BAD_CAST "\n") >= 0;
		ok &= xmlTextWriterWriteRaw(w, BAD_CAST junit->suites[i]) >= 0;
	}
	ok &= xmlTextWriterEndDocument(w) >= 0;	/* closes every element */
	xmlFreeTextWriter(w);	/* flushes and closes the file */
	return ok ? 0 : -EIO;
}

int ca_junit_close(struct ca_junit *junit)
{
	int ret;

	if (!junit)
		return 0;
	ret = write_file(junit);
	for (size_t i = 0; i < junit->count; i++)
		free(junit->suites[i]);
	free(junit->suites);
	free(junit->path);
	free(junit);
	return ret;
}
