/*
 * outcomes.h - private to report/: an audit's verdict check by check, for the
 * reports that show one entry per check (JUnit: one testcase each).
 *
 * The checks listed are those the audit ran: the trace itself ("observed":
 * every CPU seen over the span, nothing lost, a topology and a clock that
 * serve), isolation, each relation of the rule file, the thresholds given
 * (max-forced-idle, max-starvation), the kernel-decision checks the trace
 * allowed (reselect with ticks, inversion and unjustified with reschedule
 * IPIs, accounting with coreaudit-kfi markers) and the baseline when given.  A check fails on its own
 * findings, is unknown when a reason of the verdict names it, and holds
 * otherwise.  A reason no check owns belongs to "observed".
 */
#ifndef CA_REPORT_OUTCOMES_H
#define CA_REPORT_OUTCOMES_H

#include <stdint.h>

#include "pipeline.h"

enum ca_outcome_status {
	CA_OUTCOME_HELD,
	CA_OUTCOME_FAILED,
	CA_OUTCOME_UNKNOWN,	/* the trace cannot tell: the verdict is inconclusive */
};

enum ca_outcome_check {
	CA_CHECK_OBSERVED,
	CA_CHECK_ISOLATION,
	CA_CHECK_RULE,		/* one relation of the rule file: .relation */
	CA_CHECK_FORCED_IDLE,
	CA_CHECK_STARVATION,
	CA_CHECK_RESELECT,
	CA_CHECK_INVERSION,
	CA_CHECK_UNJUSTIFIED,
	CA_CHECK_ACCOUNTING,
	CA_CHECK_FAIRNESS,
	CA_CHECK_BASELINE,
};

struct ca_outcome {
	enum ca_outcome_check check;
	int relation;			/* CA_CHECK_RULE: the relation's index; else -1 */
	char name[128];			/* "isolation", "rules:FILE:LINE: isolate a b" */
	enum ca_outcome_status status;
	uint64_t findings;		/* what failed it: windows, stretches, tasks */
	unsigned reasons;		/* the reasons of the verdict it owns: bit i for
					 * audit->reasons[i] */
};

/**
 * ca_report_outcomes() - the checks @audit ran, in the order above
 * @count: set to their number
 * Return: an array the caller frees, or NULL (out of memory).
 */
struct ca_outcome *ca_report_outcomes(const struct ca_audit *audit, int *count);

#endif
