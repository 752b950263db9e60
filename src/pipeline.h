/*
 * pipeline.h - private to the library: what struct ca_audit points at, the
 * state and the checks an audit runs (audit.c builds it, the reports and the
 * unit tests read it).  A program that links libcoreaudit sees the findings
 * (coreaudit/audit.h), not this.
 */
#ifndef CA_PIPELINE_H
#define CA_PIPELINE_H

#include <stdbool.h>

#include "baseline.h"
#include "checks/accounting.h"
#include "checks/capacity.h"
#include "checks/fairness.h"
#include "checks/exposure.h"
#include "checks/forcedidle.h"
#include "checks/inversion.h"
#include "checks/unjust.h"
#include "checks/isolation.h"
#include "checks/policy.h"
#include "checks/reselect.h"
#include "checks/timeline.h"
#include "coreaudit/audit.h"
#include "explain.h"
#include "rules/rules.h"
#include "state/state.h"

struct ca_audit_pipeline {
	struct ca_state state;
	struct ca_isolation isolation;
	struct ca_forcedidle forcedidle;
	struct ca_reselect reselect;	/* unless opts.max_reselect_ticks is 0 */
	struct ca_owed inversion;	/* checks/inversion.h */
	struct ca_owed unjust;		/* checks/unjust.h */
	struct ca_accounting accounting;	/* checks/accounting.h */
	bool has_capacity;	/* --report capacity */
	struct ca_capacity capacity;	/* checks/capacity.h */
	bool has_fairness;	/* --report fairness or --max-unfairness */
	struct ca_fairness fairness;	/* checks/fairness.h */
	bool has_exposure;	/* --report exposure */
	struct ca_exposure exposure;	/* checks/exposure.h */
	bool has_baseline;	/* opts.baseline_path was given and read */
	struct ca_baseline baseline;
	bool has_timeline;	/* opts.keep_timeline */
	struct ca_timeline timeline;	/* checks/timeline.h */
	bool has_rules;		/* opts.rules_path was given and parsed */
	struct ca_rules rules;
	struct ca_policy policy;	/* with has_rules */
	struct ca_explain explain;	/* opts.explain: the state at that instant */
};

#endif
