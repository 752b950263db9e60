/*
 * outcomes.c - an audit's verdict check by check (outcomes.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/outcomes.h"

static const char *const check_keys[] = {
	[CA_CHECK_OBSERVED] = "observed",
	[CA_CHECK_ISOLATION] = "isolation",
	[CA_CHECK_RULE] = "rules",
	[CA_CHECK_FORCED_IDLE] = "max-forced-idle",
	[CA_CHECK_STARVATION] = "max-starvation",
	[CA_CHECK_RESELECT] = "reselect",
	[CA_CHECK_INVERSION] = "inversion",
	[CA_CHECK_UNJUSTIFIED] = "unjustified",
	[CA_CHECK_ACCOUNTING] = "accounting",
	[CA_CHECK_FAIRNESS] = "fairness",
	[CA_CHECK_BASELINE] = "baseline",
};

static struct ca_outcome *add(struct ca_outcome *list, int *count, enum ca_outcome_check check,
			      uint64_t findings)
{
	struct ca_outcome *o = &list[(*count)++];

	o->check = check;
	o->relation = -1;
	snprintf(o->name, sizeof(o->name), "%s", check_keys[check]);
	o->findings = findings;
	return o;
}

static void add_rules(const struct ca_audit *audit, struct ca_outcome *list, int *count)
{
	const struct ca_rules *rules = &audit->pipeline->rules;

	for (int r = 0; audit->pipeline->has_rules && r < rules->relation_count; r++) {
		const struct ca_relation *rel = &rules->relations[r];
		struct ca_outcome *o = add(list, count, CA_CHECK_RULE,
					   rel->kind == CA_RELATION_TOGETHER ? 0 :
					   audit->pipeline->policy.results[r].violations);

		o->relation = r;
		snprintf(o->name, sizeof(o->name), "rules:%s:%d: %s %s%s%s", rules->path, rel->line,
			 ca_relation_kind_name(rel->kind), rules->names[rel->tags[0]],
			 rel->tags[1] >= 0 ? " " : "", rel->tags[1] >= 0 ? rules->names[rel->tags[1]] : "");
	}
}

/* Every check the audit ran, with the findings that fail it. */
static int list_checks(const struct ca_audit *audit, struct ca_outcome *list)
{
	const struct ca_audit_pipeline *p = audit->pipeline;
	int count = 0;

	add(list, &count, CA_CHECK_OBSERVED, 0);
	add(list, &count, CA_CHECK_ISOLATION, p->isolation.summary[CA_WINDOW_VIOLATION].count);
	add_rules(audit, list, &count);
	/* The thresholds in effect: the command line's, else the rule file's. */
	if (audit->opts.max_forced_idle_pct >= 0)
		add(list, &count, CA_CHECK_FORCED_IDLE, 0);
	if (audit->opts.max_starvation_ns >= 0)
		add(list, &count, CA_CHECK_STARVATION, 0);
	if (audit->opts.max_reselect_ticks && p->reselect.has_ticks)
		add(list, &count, CA_CHECK_RESELECT, p->reselect.finding_count);
	if (p->inversion.is_checked)
		add(list, &count, CA_CHECK_INVERSION, p->inversion.finding_count);
	if (p->unjust.is_checked)
		add(list, &count, CA_CHECK_UNJUSTIFIED, p->unjust.finding_count);
	if (p->accounting.markers)
		add(list, &count, CA_CHECK_ACCOUNTING, p->accounting.finding_count);
	if (p->fairness.max_unfairness_pct >= 0 && p->has_fairness)
		add(list, &count, CA_CHECK_FAIRNESS, p->fairness.finding_count);
	if (p->has_baseline)
		add(list, &count, CA_CHECK_BASELINE, (uint64_t)p->baseline.worse_count);
	return count;
}

/* The listed check reason @i of the verdict is about; "observed" when none is. */
static struct ca_outcome *owner(const struct ca_audit *audit, int i, struct ca_outcome *list,
				int count)
{
	const struct ca_reason *r = &audit->reason_info[i];
	const char *key = r->check ? r->check : "";

	if (!strcmp(key, "causes"))
		key = "isolation";
	for (int c = 1; c < count; c++) {
		if (strcmp(key, check_keys[list[c].check]))
			continue;
		if (list[c].check != CA_CHECK_RULE ||
		    audit->pipeline->rules.relations[list[c].relation].line == r->line)
			return &list[c];
	}
	return &list[0];
}

static void judge(struct ca_outcome *o, bool is_failure, int reason)
{
	o->reasons |= 1u << reason;
	if (is_failure)
		o->status = CA_OUTCOME_FAILED;
	else if (o->status == CA_OUTCOME_HELD)
		o->status = CA_OUTCOME_UNKNOWN;
}

struct ca_outcome *ca_report_outcomes(const struct ca_audit *audit, int *count)
{
	int rules = audit->pipeline->has_rules ? audit->pipeline->rules.relation_count : 0;
	struct ca_outcome *list = calloc((size_t)(CA_CHECK_BASELINE + 1 + rules), sizeof(*list));
	bool is_unknown = false;

	*count = 0;
	if (!list)
		return NULL;
	*count = list_checks(audit, list);
	for (int c = 0; c < *count; c++)
		if (list[c].findings)
			list[c].status = CA_OUTCOME_FAILED;
	for (int i = 0; i < audit->reason_count; i++)
		judge(owner(audit, i, list, *count), i < audit->failure_count, i);
	for (int c = 0; c < *count; c++)
		is_unknown |= list[c].status == CA_OUTCOME_UNKNOWN;
	/* Reasons past CA_MAX_REASONS are not listed: the verdict stands for them. */
	if (audit->verdict == CA_VERDICT_INCONCLUSIVE && !is_unknown)
		list[0].status = CA_OUTCOME_UNKNOWN;
	return list;
}
