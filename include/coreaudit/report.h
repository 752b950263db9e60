/*
 * report.h - format an audit's findings.  Reports compute nothing.
 */
#ifndef COREAUDIT_REPORT_H
#define COREAUDIT_REPORT_H

#include <stdio.h>

#include "audit.h"

struct ca_report_options {
	int top;		/* rows in the worst-of tables */
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
 * ca_report_lttng() - the findings as LTTng-UST events (built --with-lttng-ust;
 *                     else it does nothing).  @out is unused.
 */
void ca_report_lttng(FILE *out, const struct ca_audit *audit,
		     const struct ca_report_options *opts);

/** ca_report_find() - Return: the report called @name ("text", "json"), or NULL. */
const struct ca_report *ca_report_find(const char *name);

#endif
