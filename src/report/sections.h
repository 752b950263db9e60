/*
 * sections.h - private to report/: sections of the text report that other
 * reports carry as they are (JUnit failure bodies).  Each writes to @out and
 * shows at most @top rows; a section with nothing to show writes nothing
 * (ca_text_forced_idle() always writes its per-CPU table).
 */
#ifndef CA_REPORT_SECTIONS_H
#define CA_REPORT_SECTIONS_H

#include <stdio.h>

#include "pipeline.h"

/** ca_text_violations() - violation windows, longest first, with their evidence */
void ca_text_violations(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_forced_idle() - forced idle per CPU, then per task with starvation */
void ca_text_forced_idle(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_reselect() - forced idle past the reselection owed */
void ca_text_reselect(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_owed() - stretches of a CPU idle beside work @owed finds the kernel owed it */
void ca_text_owed(FILE *out, const struct ca_audit *audit, const struct ca_owed *owed,
		  const char *title, int top);

/** ca_text_accounting() - the kernel's forced idle per task against the trace's */
void ca_text_accounting(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_rule_relation() - relation @r of the rule file: its windows and worst ones */
void ca_text_rule_relation(FILE *out, const struct ca_audit *audit, int r, int top);

/** ca_text_capacity() - --report capacity: time by busy siblings, against SMT off */
void ca_text_capacity(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_fairness() - --report fairness: each cookie's core time against a fair share */
void ca_text_fairness(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_exposure() - --report exposure: kernel entry beside another cookie's task */
void ca_text_exposure(FILE *out, const struct ca_audit *audit, int top);

/** ca_text_baseline() - the figures against the earlier run's (--baseline) */
void ca_text_baseline(FILE *out, const struct ca_audit *audit);

#endif
