/*
 * audit.c - one offline audit: source -> stream -> state -> checks, then the
 * verdict from the checks' findings.  It formats nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "clock.h"
#include "observed.h"
#include "pipeline.h"
#include "sources/cut.h"
#include "sources/stream.h"

#define DEFAULT_GRACE_NS 5000000ull	/* 5 ms: see coreaudit-audit(1), GRACE PERIOD */
#define DEFAULT_CAUSE_GRACE_NS 200000ull	/* 200 us for unexplained windows: likewise */
#define DEFAULT_LIST_LIMIT 10000
#define DEFAULT_BASELINE_MARGIN 10.0	/* percent of the old figure */

struct run {
	struct ca_audit *audit;
	struct ca_stream stream;
	bool is_ready;			/* state and checks set up */
	bool is_topology_from_option;
	int bad_cpu;			/* an event's CPU outside the topology */
	struct ca_cut span;		/* the part of the trace audited (--from, --to) */
	uint64_t events_read;		/* every event, audited or not: for on_progress */
	struct ca_topology all;		/* with --cpu: the whole topology, which events'
					 * CPUs must be in (the state has the audited cores) */
	char cpus_error[192];		/* --cpu names a CPU in no core */
};

/* The topology the trace's CPUs must be in: with --cpu, more than the audited cores. */
static const struct ca_topology *whole_topology(const struct run *run)
{
	return run->audit->opts.cpus ? &run->all : &run->audit->pipeline->state.topo;
}

void ca_audit_options_default(struct ca_audit_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->identity = CA_IDENTITY_COOKIE;
	opts->grace_ns = DEFAULT_GRACE_NS;
	opts->max_forced_idle_pct = -1;
	opts->max_starvation_ns = -1;
	opts->max_reselect_ticks = CA_RESELECT_DEFAULT_TICKS;
	opts->max_inversion_ns = CA_INVERSION_DEFAULT_NS;
	opts->max_unjust_ns = CA_UNJUST_DEFAULT_NS;
	opts->max_accounting_pct = CA_ACCOUNTING_DEFAULT_PCT;
	opts->max_unfairness_pct = -1;
	opts->list_limit = DEFAULT_LIST_LIMIT;
	opts->baseline_margin_pct = DEFAULT_BASELINE_MARGIN;
	opts->threads = 1;
}

const char *ca_verdict_name(enum ca_verdict verdict)
{
	switch (verdict) {
	case CA_VERDICT_PASS:
		return "pass";
	case CA_VERDICT_FAIL:
		return "fail";
	case CA_VERDICT_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

static struct ca_reason *add_reason_v(struct ca_audit *audit, const char *fmt, va_list args)
{
	struct ca_reason *reason = &audit->reason_spare;

	if (audit->reason_count == CA_MAX_REASONS) {
		audit->reasons_dropped++;
	} else {
		vsnprintf(audit->reasons[audit->reason_count], sizeof(audit->reasons[0]), fmt,
			  args);
		reason = &audit->reason_info[audit->reason_count++];
	}
	*reason = (struct ca_reason){ .cpu = -1, .pid = -1 };
	return reason;
}

struct ca_reason *ca_audit_add_reason(struct ca_audit *audit, const char *fmt, ...)
{
	struct ca_reason *reason;
	va_list args;

	va_start(args, fmt);
	reason = add_reason_v(audit, fmt, args);
	va_end(args);
	return reason;
}

void ca_reason_measure(struct ca_reason *reason, const char *check, double value,
		       const char *unit)
{
	reason->check = check;
	reason->has_value = unit != NULL;
	reason->value = value;
	reason->unit = unit;
}

void ca_reason_limit(struct ca_reason *reason, double threshold, const char *unit)
{
	reason->has_threshold = true;
	reason->threshold = threshold;
	reason->threshold_unit = unit;
}

#define add_reason ca_audit_add_reason
#define S(count) ((count) == 1 ? "" : "s")

static void add_warning(struct ca_audit *audit, const char *fmt, ...)
{
	va_list args;

	if (audit->warning_count == CA_MAX_REASONS)
		return;
	va_start(args, fmt);
	vsnprintf(audit->warnings[audit->warning_count++], sizeof(audit->warnings[0]), fmt, args);
	va_end(args);
}

/*
 * The rule file's grace, else the audit's (--grace, or the default: 200 us
 * for unexplained windows when the trace tells causes, else 5 ms).
 */
static uint64_t policy_grace(const struct ca_audit *audit)
{
	return audit->pipeline->rules.has_grace ? audit->pipeline->rules.grace_ns : audit->opts.grace_ns;
}

/* The rule file's thresholds, where the command line set none. */
static void take_rule_thresholds(struct ca_audit *audit)
{
	if (!audit->opts.has_max_forced_idle && audit->pipeline->rules.has_max_forced_idle)
		audit->opts.max_forced_idle_pct = audit->pipeline->rules.max_forced_idle_pct;
	if (!audit->opts.has_max_starvation && audit->pipeline->rules.has_max_starvation)
		audit->opts.max_starvation_ns = (int64_t)audit->pipeline->rules.max_starvation_ns;
	if (!audit->opts.has_max_reselect_ticks && audit->pipeline->rules.has_max_reselect_ticks)
		audit->opts.max_reselect_ticks = audit->pipeline->rules.max_reselect_ticks;
	if (!audit->opts.has_max_inversion && audit->pipeline->rules.has_max_inversion)
		audit->opts.max_inversion_ns = audit->pipeline->rules.max_inversion_ns;
	if (!audit->opts.has_max_unjust && audit->pipeline->rules.has_max_unjust)
		audit->opts.max_unjust_ns = audit->pipeline->rules.max_unjust_ns;
	if (!audit->opts.has_max_accounting && audit->pipeline->rules.has_max_accounting)
		audit->opts.max_accounting_pct = audit->pipeline->rules.max_accounting_pct;
}

/* The events behind window causes that the trace has. */
static struct ca_cause_events cause_events(const struct ca_audit *audit)
{
	return (struct ca_cause_events){ .has_tick_events = audit->info.has_tick_events,
					 .has_wakeup_events = audit->info.has_wakeup_events };
}

/*
 * Without ipi events no window's cause is told, and a reschedule IPI that a
 * stopped vCPU took late explains windows of many milliseconds (up to 12.7 ms
 * on the overcommitted d-smt4, 17 of them over the 5 ms grace): those from
 * the default grace up to the longest a pending request explains (the tick's
 * bound, CA_TICK_WINDOW_MAX_NS) are undecided, longer ones violations.  A
 * grace the user gave (--grace, the rule file's) is the user's own bound.
 */
static void bound_unknown_causes(struct ca_audit *audit)
{
	if (!audit->opts.has_grace)
		audit->pipeline->isolation.unknown_until_ns = CA_TICK_WINDOW_MAX_NS;
	if (audit->pipeline->has_rules && !audit->opts.has_grace && !audit->pipeline->rules.has_grace)
		audit->pipeline->policy.unknown_until_ns = CA_TICK_WINDOW_MAX_NS;
}

/*
 * The checks of an idle CPU beside owed work (checks/owed.h) need the trace's
 * IPIs and its wakeups: a wakeup onto a sibling, local ones with no IPI, may
 * have changed the core-wide pick (and without wakeups the queued tasks are
 * not known).
 */
static bool is_owed_judged(const struct ca_audit *audit)
{
	return audit->info.has_ipi_events && audit->info.has_wakeup_events;
}

/* A check of an idle CPU beside owed work (checks/owed.h). */
static int add_owed(struct ca_audit *audit, struct ca_owed *owed)
{
	owed->is_checked = true;
	return ca_state_add_check(&audit->pipeline->state, &owed->base);
}

/*
 * --cpu: the state gets the cores that hold a listed CPU; @topo, kept in
 * run->all, still says which CPUs the trace may have events on.
 */
static int init_state(struct run *run, const struct ca_topology *topo)
{
	struct ca_audit *audit = run->audit;
	struct ca_topology audited;
	int ret;

	if (!audit->opts.cpus)
		return ca_state_init(&audit->pipeline->state, topo, audit->info.cpu_count,
				     audit->opts.identity);
	ret = ca_topology_restrict(topo, audit->opts.cpus, &audited, run->cpus_error,
				   sizeof(run->cpus_error));
	if (ret)
		return ret;
	ret = ca_topology_copy(&run->all, topo);
	if (!ret)
		ret = ca_state_init(&audit->pipeline->state, &audited, audit->info.cpu_count,
				    audit->opts.identity);
	ca_topology_free(&audited);
	return ret;
}

/* --report capacity,fairness,exposure and --max-unfairness: what SMT with core scheduling gave. */
static int add_smt_reports(struct ca_audit *audit)
{
	struct ca_audit_pipeline *p = audit->pipeline;
	int ret = 0;

	p->has_capacity = audit->opts.smt_reports & CA_SMT_REPORT_CAPACITY;
	p->has_fairness = (audit->opts.smt_reports & CA_SMT_REPORT_FAIRNESS) ||
			  audit->opts.max_unfairness_pct >= 0;
	p->has_exposure = audit->opts.smt_reports & CA_SMT_REPORT_EXPOSURE;
	ca_capacity_init(&p->capacity);
	ca_fairness_init(&p->fairness, audit->opts.max_unfairness_pct);
	ret = ca_exposure_init(&p->exposure, audit->opts.list_limit);
	if (!ret && p->has_capacity)
		ret = ca_state_add_check(&p->state, &p->capacity.base);
	if (!ret && p->has_fairness)
		ret = ca_state_add_check(&p->state, &p->fairness.base);
	if (!ret && p->has_exposure)
		ret = ca_state_add_check(&p->state, &p->exposure.base);
	return ret;
}

static int setup_pipeline(void *ctx, const struct ca_topology *topo)
{
	struct run *run = ctx;
	struct ca_audit *audit = run->audit;
	int ret;

	ret = init_state(run, topo);
	if (ret)
		return ret;
	audit->pipeline->state.assume_unknown_cookie_zero = audit->opts.assume_unknown_cookie_zero;
	audit->pipeline->state.has_tick_events = audit->info.has_tick_events;
	if (audit->info.has_ipi_events && !audit->opts.has_grace)
		audit->opts.grace_ns = DEFAULT_CAUSE_GRACE_NS;
	ca_isolation_init(&audit->pipeline->isolation, audit->opts.grace_ns, audit->opts.list_limit);
	if (audit->info.has_ipi_events)
		ca_isolation_use_causes(&audit->pipeline->isolation, audit->opts.max_transition_ns,
					cause_events(audit));
	ret = ca_forcedidle_init(&audit->pipeline->forcedidle);
	if (!ret)
		ret = ca_state_add_check(&audit->pipeline->state, &audit->pipeline->isolation.base);
	if (!ret)
		ret = ca_state_add_check(&audit->pipeline->state, &audit->pipeline->forcedidle.base);
	ca_reselect_init(&audit->pipeline->reselect, audit->opts.max_reselect_ticks);
	if (!ret && audit->opts.max_reselect_ticks)
		ret = ca_state_add_check(&audit->pipeline->state, &audit->pipeline->reselect.base);
	ca_owed_init(&audit->pipeline->inversion, &ca_inversion_rule, audit->opts.max_inversion_ns);
	ca_owed_init(&audit->pipeline->unjust, &ca_unjust_rule, audit->opts.max_unjust_ns);
	if (!ret && is_owed_judged(audit))
		ret = add_owed(audit, &audit->pipeline->inversion);
	if (!ret && is_owed_judged(audit))
		ret = add_owed(audit, &audit->pipeline->unjust);
	ca_accounting_init(&audit->pipeline->accounting, &audit->pipeline->forcedidle,
			   audit->opts.max_accounting_pct);
	/* The kernel's per-task figure counts every core: not comparable with --cpu. */
	if (!ret && !audit->opts.cpus)
		ret = ca_state_add_check(&audit->pipeline->state, &audit->pipeline->accounting.base);
	if (!ret)
		ret = add_smt_reports(audit);
	audit->pipeline->has_timeline = audit->opts.keep_timeline;
	ca_timeline_init(&audit->pipeline->timeline);
	if (!ret && audit->opts.keep_timeline)
		ret = ca_state_add_check(&audit->pipeline->state, &audit->pipeline->timeline.base);
	if (!ret && audit->pipeline->has_rules)
		ret = ca_policy_init(&audit->pipeline->policy, &audit->pipeline->rules, policy_grace(audit));
	if (!ret && audit->pipeline->has_rules && audit->info.has_ipi_events)
		ca_policy_use_causes(&audit->pipeline->policy, audit->opts.max_transition_ns,
				     cause_events(audit));
	if (!ret && !audit->info.has_ipi_events)
		bound_unknown_causes(audit);
	if (!ret && audit->pipeline->has_rules)
		ret = ca_state_add_check(&audit->pipeline->state, &audit->pipeline->policy.base);
	run->is_ready = true;
	return ret;
}

/*
 * --explain: at the first event the instant is resolved (it may be "+DUR")
 * and the isolation check told; before the first event past it, the state is
 * what ran at it.
 */
static int explain_at(struct run *run, uint64_t ts)
{
	struct ca_audit_pipeline *pipeline = run->audit->pipeline;
	struct ca_explain *explain = &pipeline->explain;
	const struct ca_time_bound *bound = &run->audit->opts.explain;

	if (!explain->is_asked) {
		explain->is_asked = true;
		explain->ts = ca_cut_resolve(bound, ts, UINT64_MAX);	/* ts: the first event's */
		ca_isolation_explain(&pipeline->isolation, explain->ts);
	}
	if (explain->is_taken || ts <= explain->ts)
		return 0;
	return ca_explain_take(explain, &pipeline->state);
}

/*
 * --explain at the end of the read: an instant at or after the last audited
 * event is what the state is now; within the audited events' span or not.
 */
static int finish_explain(struct ca_audit *audit)
{
	struct ca_explain *explain = &audit->pipeline->explain;
	const struct ca_state *state = &audit->pipeline->state;
	int ret = 0;

	if (!explain->is_asked)
		return 0;
	if (!explain->is_taken && explain->ts <= state->last_ts)
		ret = ca_explain_take(explain, state);
	explain->is_in_span = explain->is_taken && explain->ts >= state->first_ts &&
			      explain->ts <= state->last_ts;
	return ret;
}

static int consume(void *ctx, const struct ca_event *ev)
{
	struct run *run = ctx;
	struct ca_audit *audit = run->audit;

	const struct ca_topology *audited = &audit->pipeline->state.topo;
	/* An IPI to a CPU mask is one event per target: counted once, as a send;
	 * with --cpu, the events of the audited CPUs only. */
	bool is_counted = (ev->kind != CA_EV_IPI || ev->ipi.is_first_target) &&
			  ca_topology_core_of(audited, ev->cpu) >= 0;

	if (ca_topology_core_of(whole_topology(run), ev->cpu) < 0) {
		run->bad_cpu = ev->cpu;
		return -EDOM;
	}
	if (audit->opts.explain.is_set) {
		int ret = explain_at(run, ev->ts);

		if (ret)
			return ret;
	}
	if (audit->opts.on_progress && !(++run->events_read % CA_PROGRESS_EVENTS))
		audit->opts.on_progress(audit->opts.progress_ctx, run->events_read,
					ev->ts > run->span.first_ts ? ev->ts - run->span.first_ts : 0);
	switch (ca_cut_place(&run->span, ev->ts)) {
	case CA_CUT_BEFORE:
		audit->events_before += is_counted;
		return ca_state_learn(&audit->pipeline->state, ev);
	case CA_CUT_AFTER:
		audit->events_after += is_counted;
		return 0;
	case CA_CUT_INSIDE:
		break;
	}
	/* Whether the trace records them, told by any CPU's. */
	audit->wakeups += ev->kind == CA_EV_WAKEUP && !ev->wakeup.is_new;
	if (!is_counted)
		return ca_state_consume(&audit->pipeline->state, ev);
	audit->events++;
	if (ev->kind == CA_EV_IPI && ev->ipi.is_resched) {
		audit->resched_ipis++;
		audit->unnamed_resched_ipis += !ev->ipi.is_callsite_known;
	}
	return ca_state_consume(&audit->pipeline->state, ev);
}

static enum ca_result fail_input(struct ca_audit *audit, enum ca_result code,
				    const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(audit->error, sizeof(audit->error), fmt, args);
	va_end(args);
	return code;
}

static enum ca_result explain_read_error(struct run *run, struct ca_source *source, int ret)
{
	struct ca_audit *audit = run->audit;
	char topo[256];

	if (run->cpus_error[0])
		return fail_input(audit, CA_RESULT_BAD_OPTIONS, "%s: --cpu %s: %s", audit->opts.path,
				  audit->opts.cpus, run->cpus_error);
	if (ret == -EDOM) {
		ca_topology_brief(whole_topology(run), topo, sizeof(topo));
		return fail_input(audit, run->is_topology_from_option ? CA_RESULT_BAD_OPTIONS
								      : CA_RESULT_BAD_INPUT,
				  "%s: events on CPU %d, which the topology \"%s\" does not name",
				  audit->opts.path, run->bad_cpu, topo);
	}
	if (ret == -ENOENT)
		return fail_input(audit, CA_RESULT_BAD_INPUT,
				  "%s: no CPU topology: give --topology \"0,1 2,3\" (the SMT "
				  "siblings of each core) or record a \"coreaudit-topology 0,1 2,3\" "
				  "marker at the start of the trace", audit->opts.path);
	if (ret == -ENOMEM)
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: out of memory", audit->opts.path);
	if (run->stream.error[0])
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: %s", audit->opts.path,
				  run->stream.error);
	if (source->error[0])
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s", source->error);
	return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: cannot read: %s", audit->opts.path,
			  strerror(-ret));
}

static void summarise(struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	uint64_t fi_total = 0, known_total = 0;

	for (size_t cpu = 0; cpu < audit->pipeline->forcedidle.cpu_count; cpu++) {
		fi_total += audit->pipeline->forcedidle.per_cpu_ns[cpu];
		known_total += audit->pipeline->forcedidle.per_cpu_known_ns[cpu];
	}
	for (size_t cpu = 0; cpu < state->cpu_count; cpu++) {
		audit->missed_switches += state->cpus[cpu].missed_switches;
		audit->lost_events += state->cpus[cpu].lost_events;
		audit->has_unknown_loss |= state->cpus[cpu].has_unknown_loss;
	}
	audit->forced_idle_pct = known_total ? 100.0 * fi_total / known_total : 0;
	ca_observed_sum(audit);
	for (uint32_t i = 0; i < audit->pipeline->forcedidle.task_count; i++) {
		const struct ca_fi_task *t = &audit->pipeline->forcedidle.tasks[i];

		if (t->longest_starved_ns <= audit->max_starved_ns)
			continue;
		audit->max_starved_ns = t->longest_starved_ns;
		audit->max_starved_pid = t->pid;
		audit->max_starved_cpu = t->longest_starved_cpu;
		audit->max_starved_start = t->longest_starved_start;
	}
}

/* Tags declared apart, one kernel cookie: the kernel never kept them apart. */
static void judge_same_cookie(struct ca_audit *audit)
{
	const struct ca_summary *same = &audit->pipeline->isolation.cause_summary[CA_CAUSE_SAME_COOKIE];
	struct ca_reason *reason;
	char a[32];

	if (!same->count)
		return;
	reason = add_reason(audit, "%llu co-run window%s (%s) of different tags between tasks of "
			    "one kernel cookie (cookies from %s): the kernel never kept them apart",
			    (unsigned long long)same->count, S(same->count),
			    ca_format_duration(same->total_ns, a, sizeof(a)),
			    ca_cookie_source_name(audit->pipeline->state.cookie_source));
	ca_reason_measure(reason, "isolation", (double)same->count, "windows");
}

static void judge_isolation(struct ca_audit *audit)
{
	const struct ca_audit_options *opts = &audit->opts;
	uint64_t violations = audit->pipeline->isolation.by_kind[CA_WINDOW_VIOLATION].count -
			      audit->pipeline->isolation.cause_summary[CA_CAUSE_SAME_COOKIE].count;
	bool has_causes = audit->pipeline->isolation.has_causes;
	struct ca_reason *reason;
	char a[32];

	judge_same_cookie(audit);
	if (!violations)
		return;
	reason = add_reason(audit, "%llu co-run window%s of different %s%s at or over the grace "
			    "period (%s)%s", (unsigned long long)violations, S(violations),
			    opts->identity == CA_IDENTITY_TAG ? "tags" : "cookies",
			    has_causes ? ": unexplained" : "",
			    ca_format_duration(opts->grace_ns, a, sizeof(a)),
			    has_causes && opts->max_transition_ns ?
			    ", or explained over --max-transition" : "");
	ca_reason_measure(reason, "isolation", (double)violations, "windows");
	ca_reason_limit(reason, (double)opts->grace_ns, "ns");
}

/* A rule's windows of one kernel cookie fail whatever their length; the others by the grace. */
static struct ca_reason *add_rule_reason(struct ca_audit *audit, int r)
{
	const struct ca_policy *policy = &audit->pipeline->policy;
	const struct ca_relation *rel = &audit->pipeline->rules.relations[r];
	uint64_t same = policy->results[r].same_cookie_violations;
	uint64_t other = policy->results[r].violations - same;
	char name[CA_REASON_LEN], grace[32], others[120];

	snprintf(name, sizeof(name), "%s:%d: %s %s%s%s", audit->pipeline->rules.path, rel->line,
		 ca_relation_kind_name(rel->kind), audit->pipeline->rules.names[rel->tags[0]],
		 rel->tags[1] >= 0 ? " " : "",
		 rel->tags[1] >= 0 ? audit->pipeline->rules.names[rel->tags[1]] : "");
	snprintf(others, sizeof(others), "%llu window%s %sat or over %s%s",
		 (unsigned long long)other, S(other), policy->has_causes ? "unexplained " : "",
		 ca_format_duration(policy->grace_ns, grace, sizeof(grace)),
		 policy->has_causes && audit->opts.max_transition_ns ?
		 ", or explained over --max-transition" : "");
	if (!same)
		return add_reason(audit, "%s: %s", name, others);
	return add_reason(audit, "%s: %llu window%s of one kernel cookie (never kept apart)%s%s",
			  name, (unsigned long long)same, S(same), other ? ", " : "",
			  other ? others : "");
}

static void judge_rules(struct ca_audit *audit)
{
	const struct ca_policy *policy = &audit->pipeline->policy;
	struct ca_reason *reason;

	for (int r = 0; audit->pipeline->has_rules && r < audit->pipeline->rules.relation_count; r++) {
		const struct ca_relation *rel = &audit->pipeline->rules.relations[r];
		uint64_t count = policy->results[r].violations;

		if (!count || rel->kind == CA_RELATION_TOGETHER)
			continue;
		reason = add_rule_reason(audit, r);
		ca_reason_measure(reason, "rules", (double)count, "windows");
		ca_reason_limit(reason, (double)policy->grace_ns, "ns");
		reason->line = rel->line;
	}
}

/* Queued tasks come from wakeups: without them forced idle and starvation read too low. */
static bool lacks_wakeups(const struct ca_audit *audit)
{
	return !audit->info.has_wakeup_events || !audit->wakeups;
}

/* A limit on forced idle or starvation that a trace without wakeups cannot prove held. */
static void judge_unmeasured_limits(struct ca_audit *audit)
{
	const struct ca_audit_options *opts = &audit->opts;
	char limit[32];

	if (!lacks_wakeups(audit))
		return;
	if (opts->max_forced_idle_pct >= 0 && audit->forced_idle_pct <= opts->max_forced_idle_pct)
		ca_reason_measure(add_reason(audit, "forced idle cannot be held to --max-forced-idle "
					     "%.2f%%: no sched_wakeup events in the trace, so tasks "
					     "woken onto a CPU are unseen (record sched:sched_wakeup)",
					     opts->max_forced_idle_pct),
				  "max-forced-idle", audit->forced_idle_pct, "percent");
	if (opts->max_starvation_ns >= 0 &&
	    audit->max_starved_ns <= (uint64_t)opts->max_starvation_ns)
		ca_reason_measure(add_reason(audit, "starvation cannot be held to --max-starvation %s: "
					     "no sched_wakeup events in the trace, so tasks woken onto "
					     "a CPU are unseen (record sched:sched_wakeup)",
					     ca_format_duration(opts->max_starvation_ns, limit,
								sizeof(limit))),
				  "max-starvation", (double)audit->max_starved_ns, "ns");
	if (audit->pipeline->accounting.finding_count)
		ca_reason_measure(add_reason(audit, "%zu task%s whose forced idle the kernel accounted "
					     "otherwise than the trace implies, not judged: no "
					     "sched_wakeup events in the trace, so its figure reads low "
					     "(record sched:sched_wakeup)",
					     (size_t)audit->pipeline->accounting.finding_count,
					     audit->pipeline->accounting.finding_count == 1 ? "" : "s"),
				  "accounting", (double)audit->pipeline->accounting.finding_count,
				  "tasks");
}

static void judge_thresholds(struct ca_audit *audit)
{
	const struct ca_audit_options *opts = &audit->opts;
	struct ca_reason *reason;
	char a[32], b[32], ts[32];

	if (opts->max_forced_idle_pct >= 0 && audit->forced_idle_pct > opts->max_forced_idle_pct) {
		reason = add_reason(audit, "forced idle %.2f%% of CPU time exceeds --max-forced-idle "
				    "%.2f%%", audit->forced_idle_pct, opts->max_forced_idle_pct);
		ca_reason_measure(reason, "max-forced-idle", audit->forced_idle_pct, "percent");
		ca_reason_limit(reason, opts->max_forced_idle_pct, "percent");
	}
	if (opts->max_starvation_ns >= 0 &&
	    audit->max_starved_ns > (uint64_t)opts->max_starvation_ns) {
		reason = add_reason(audit, "task %d starved %s at a stretch (from %s s, queued on "
				    "CPU %d), over --max-starvation %s", audit->max_starved_pid,
				    ca_format_duration(audit->max_starved_ns, a, sizeof(a)),
				    ca_format_timestamp(audit->max_starved_start, ts, sizeof(ts)),
				    audit->max_starved_cpu,
				    ca_format_duration(opts->max_starvation_ns, b, sizeof(b)));
		ca_reason_measure(reason, "max-starvation", (double)audit->max_starved_ns, "ns");
		ca_reason_limit(reason, (double)opts->max_starvation_ns, "ns");
		reason->pid = audit->max_starved_pid;
		reason->cpu = audit->max_starved_cpu;
	}
}

/* Forced idle past the reselection the kernel owed (checks/reselect.h). */
static void judge_reselect(struct ca_audit *audit)
{
	const struct ca_reselect *rs = &audit->pipeline->reselect;
	const struct ca_reselect_finding *f = &rs->list[0];
	struct ca_reason *reason;
	char d[32];

	if (!audit->opts.max_reselect_ticks || !rs->finding_count)
		return;
	reason = add_reason(audit, "%llu forced-idle stretch%s outlived the reselection the kernel "
			    "owed (over %u ticks of the running sibling): the longest, CPU %d for %s "
			    "while CPU %d ran task %d through %u ticks",
			    (unsigned long long)rs->finding_count, rs->finding_count == 1 ? "" : "es",
			    audit->opts.max_reselect_ticks, f->who.waiting_cpu,
			    ca_format_duration(f->end_ns - f->start_ns, d, sizeof(d)), f->who.holder_cpu,
			    f->who.holder_pid, f->ticks);
	ca_reason_measure(reason, "reselect", (double)rs->finding_count, "stretches");
	ca_reason_limit(reason, (double)audit->opts.max_reselect_ticks, "ticks");
	reason->cpu = f->who.waiting_cpu;
	reason->pid = f->who.waiting_pid;
}

/*
 * Stretches of a CPU idle beside work the selection owed it (checks/owed.h):
 * @what names one and @whats more, @why says what was owed.
 */
static void judge_owed(struct ca_audit *audit, const struct ca_owed *owed, const char *what,
		       const char *whats, const char *why)
{
	const struct ca_owed_finding *f = &owed->list[0];
	struct ca_reason *reason;
	char d[32], m[32];

	if (!owed->finding_count)
		return;
	reason = add_reason(audit, "%llu %s (%s past %s once the kernel chose): the longest, task %d "
			    "(prio %d) on CPU %d for %s while CPU %d ran task %d (prio %d)",
			    (unsigned long long)owed->finding_count,
			    owed->finding_count == 1 ? what : whats, why,
			    ca_format_duration(owed->max_ns, m, sizeof(m)), f->who.waiting_pid,
			    f->who.waiting_prio, f->who.waiting_cpu,
			    ca_format_duration(f->end_ns - f->start_ns, d, sizeof(d)), f->who.holder_cpu,
			    f->who.holder_pid, f->who.holder_prio);
	ca_reason_measure(reason, owed->rule->name, (double)owed->finding_count, "stretches");
	ca_reason_limit(reason, (double)owed->max_ns, "ns");
	reason->cpu = f->who.waiting_cpu;
	reason->pid = f->who.waiting_pid;
}

/* The kernel's forced idle per task against the trace's (checks/accounting.h). */
static void judge_accounting(struct ca_audit *audit)
{
	const struct ca_accounting *acc = &audit->pipeline->accounting;
	const struct ca_account_result *r = acc->list;
	struct ca_reason *reason;
	char k[32], m[32];

	if (!acc->finding_count || lacks_wakeups(audit))
		return;		/* without wakeups the trace's figure reads low: judge_unmeasured_limits */
	while (r < acc->list + acc->listed - 1 && !r->is_finding)
		r++;		/* the largest difference that is a finding */
	reason = add_reason(audit, "%llu task%s whose forced idle the kernel accounted otherwise "
			    "than the trace implies (beyond %g%% and 20ms): the most, task %d: "
			    "kernel %s, trace %s (the model is within 2%% of the kernel with one "
			    "vCPU per host core, 12%% overcommitted)",
			    (unsigned long long)acc->finding_count, acc->finding_count == 1 ? "" : "s",
			    acc->max_error_pct, r->pid, ca_format_duration(r->kernel_ns, k, sizeof(k)),
			    ca_format_duration(r->model_ns, m, sizeof(m)));
	ca_reason_measure(reason, "accounting", (double)acc->finding_count, "tasks");
	ca_reason_limit(reason, acc->max_error_pct, "percent");
	reason->pid = r->pid;
}

/* "cookie 0x..." or "tag NAME", for a reason. */
static void name_identity(const struct ca_audit *audit, uint64_t value, char *name, size_t len)
{
	const struct ca_tasks *tasks = &audit->pipeline->state.tasks;

	if (audit->opts.identity == CA_IDENTITY_TAG)
		snprintf(name, len, "tag %s", value ? ca_tasks_tag_name(tasks, (int)value) : "(none)");
	else
		snprintf(name, len, "cookie 0x%" PRIx64, value);
}

/* The identity @is_one() says is one of them, the most short of its fair share by @shortfall. */
static const struct ca_fair_identity *most_short(
	const struct ca_fairness *fair,
	bool (*is_one)(const struct ca_fairness *fair, const struct ca_fair_identity *id),
	double (*shortfall)(const struct ca_fair_identity *id))
{
	const struct ca_fair_identity *worst = NULL;

	for (size_t i = 0; i < fair->identity_count; i++)
		if (is_one(fair, &fair->identities[i]) &&
		    (!worst || shortfall(&fair->identities[i]) > shortfall(worst)))
			worst = &fair->identities[i];
	return worst;
}

/* Cookies (or tags) that received less of the core than their fair share allows. */
static void judge_fairness(struct ca_audit *audit)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;
	const struct ca_fair_identity *worst;
	struct ca_reason *reason;
	char f[32], r[32], name[96];

	if (!fair->finding_count)
		return;
	worst = most_short(fair, ca_fairness_is_finding, ca_fairness_unfairness);
	name_identity(audit, worst->value, name, sizeof(name));
	reason = add_reason(audit, "%zu %s%s received less of the core than %g%% under a fair "
			    "share: the worst, %s (task %d), %s of a fair %s (%.1f%% short)",
			    fair->finding_count,
			    audit->opts.identity == CA_IDENTITY_TAG ? "tag" : "cookie",
			    fair->finding_count == 1 ? "" : "s", fair->max_unfairness_pct, name,
			    worst->example_pid, ca_format_duration(worst->received_ns, r, sizeof(r)),
			    ca_format_duration((uint64_t)worst->fair_ns, f, sizeof(f)),
			    ca_fairness_unfairness(worst));
	ca_reason_measure(reason, "fairness", ca_fairness_unfairness(worst), "percent");
	ca_reason_limit(reason, fair->max_unfairness_pct, "percent");
	reason->pid = worst->example_pid;
}

/*
 * Cookies (or tags) short of their fair share over the known time, or that
 * could be had the time not known gone against them; or enough time not known
 * for a cookie never seen to be short.
 */
static void judge_fairness_undecided(struct ca_audit *audit)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;
	const char *kind = audit->opts.identity == CA_IDENTITY_TAG ? "tag" : "cookie";
	const struct ca_fair_identity *worst;
	char d[32], name[96];

	if (!fair->undecided_count && ca_fairness_unknown_undecided(fair)) {
		ca_format_duration(fair->unknown_ns, d, sizeof(d));
		ca_reason_measure(add_reason(audit, "fairness: %s of core time not known (a CPU "
					     "unobserved, a task's %s unknown): a %s there may "
					     "have fallen short of %g%% under its fair share", d,
					     kind, kind, fair->max_unfairness_pct),
				  "fairness", (double)fair->unknown_ns, "ns");
	}
	if (!fair->undecided_count)
		return;
	worst = most_short(fair, ca_fairness_is_undecided, ca_fairness_unfairness_worst);
	name_identity(audit, worst->value, name, sizeof(name));
	ca_reason_measure(add_reason(audit, "%zu %s%s may be more than %g%% short of a fair "
				     "share, as the %s of core time not known went: the worst, %s "
				     "(task %d), %.1f%% short over the known time, from %.1f%% to "
				     "%.1f%% with it", fair->undecided_count, kind,
				     fair->undecided_count == 1 ? "" : "s",
				     fair->max_unfairness_pct,
				     ca_format_duration(worst->doubt_ns, d, sizeof(d)), name,
				     worst->example_pid, ca_fairness_unfairness(worst),
				     ca_fairness_unfairness_doubted(worst),
				     ca_fairness_unfairness_worst(worst)),
			  "fairness", ca_fairness_unfairness(worst), "percent");
}

/* Figures worse than the earlier run's by more than the margin (baseline.h). */
static void judge_baseline(struct ca_audit *audit)
{
	struct ca_baseline *b = &audit->pipeline->baseline;

	if (!audit->pipeline->has_baseline)
		return;
	ca_baseline_compare(b, audit);
	for (int i = 0; i < CA_BASELINE_FIGURES; i++) {
		const struct ca_baseline_figure *f = &b->figures[i];
		struct ca_reason *reason;

		if (!f->is_worse)
			continue;
		reason = add_reason(audit, "%s got worse than in %s: %.4g against %.4g %s (the "
				    "margin, %g%% and a floor, allows %.4g)", f->name, b->path,
				    f->new_value, f->old_value, f->unit, b->margin_pct, f->limit);
		ca_reason_measure(reason, "baseline", f->new_value, f->unit);
		ca_reason_limit(reason, f->limit, f->unit);
	}
}

static void judge_failures(struct ca_audit *audit)
{
	judge_isolation(audit);
	judge_rules(audit);
	judge_thresholds(audit);
	judge_reselect(audit);
	judge_owed(audit, &audit->pipeline->inversion, "priority inversion", "priority inversions",
		   "an RT task idle beside a lower task of another cookie");
	judge_owed(audit, &audit->pipeline->unjust, "unjustified forced idle",
		   "unjustified forced idles", "a CPU idle beside a queued task of the core's cookie");
	judge_accounting(audit);
	judge_fairness(audit);
	judge_baseline(audit);
}

/* The CPUs with missed switches: "1" or "0,1". */
static const char *describe_missed_cpus(const struct ca_audit *audit, char *text, size_t len)
{
	size_t used = 0;

	text[0] = '\0';
	for (int cpu = 0; cpu < (int)audit->pipeline->state.cpu_count && used < len; cpu++)
		if (audit->pipeline->state.cpus[cpu].missed_switches)
			used += snprintf(text + used, len - used, "%s%d", used ? "," : "", cpu);
	return text;
}

/* A topology without any core of two CPUs leaves nothing to compare. */
static void judge_topology(struct ca_audit *audit)
{
	const struct ca_topology *topo = &audit->pipeline->state.topo;
	char text[128];

	for (int core = 0; core < topo->core_count; core++)
		if (topo->sibling_count[core] > 1)
			return;
	ca_topology_brief(topo, text, sizeof(text));
	ca_reason_measure(add_reason(audit, "the topology \"%s\" puts every CPU in a core of its "
				     "own: no SMT siblings to compare (give the siblings of each "
				     "core, e.g. \"0,1 2,3\")", text), "topology", 0, NULL);
}

static uint64_t lost_ns_of(const struct ca_cpu *c)
{
	return c->lost_ns;
}

static uint64_t missed_switches_of(const struct ca_cpu *c)
{
	return c->missed_switches;
}

/* The CPU with the most of @measure, for a reason about all of them. */
static int worst_cpu(const struct ca_state *state, uint64_t (*measure)(const struct ca_cpu *c))
{
	uint64_t most = 0;
	int worst = -1;

	for (int cpu = 0; cpu < (int)state->cpu_count; cpu++) {
		if (measure(&state->cpus[cpu]) > most) {
			most = measure(&state->cpus[cpu]);
			worst = cpu;
		}
	}
	return worst;
}

static void judge_gaps(struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	struct ca_reason *reason;
	char cpus[128];

	if (audit->lost_events) {
		reason = add_reason(audit, "%s%llu events lost: what ran meanwhile is unknown (a "
				    "larger buffer keeps up: trace-cmd record -b KB, or fewer events)",
				    audit->has_unknown_loss ? "at least " : "",
				    (unsigned long long)audit->lost_events);
		ca_reason_measure(reason, "lost-events", (double)audit->lost_events, "events");
		reason->cpu = worst_cpu(state, lost_ns_of);
	}
	if (audit->missed_switches) {
		reason = add_reason(audit, "%llu event%s contradict the task believed current (CPU "
				    "%s): sched_switch events are missing from the trace",
				    (unsigned long long)audit->missed_switches,
				    S(audit->missed_switches),
				    describe_missed_cpus(audit, cpus, sizeof(cpus)));
		ca_reason_measure(reason, "missed-switches", (double)audit->missed_switches,
				  "events");
		reason->cpu = worst_cpu(state, missed_switches_of);
	}
}

/*
 * Windows a tick could explain, in a trace without tick events, or one that
 * had set need-resched on a CPU in kernel code.
 */
static void judge_undecided(struct ca_audit *audit)
{
	const struct ca_summary *iso = &audit->pipeline->isolation.undecided_summary;
	uint64_t rules = 0;
	const char *why;
	struct ca_reason *reason;
	char total[32], more[48] = "";

	for (int r = 0; audit->pipeline->has_rules && r < audit->pipeline->rules.relation_count; r++)
		rules += audit->pipeline->policy.results[r].undecided;
	if (!iso->count && !rules)
		return;
	if (rules)
		snprintf(more, sizeof(more), " and %llu rule window%s", (unsigned long long)rules,
			 S(rules));
	if (!audit->info.has_ipi_events)
		why = "no ipi events in the trace, and a reschedule IPI taken late could explain "
		      "each (record ipi:ipi_send_cpu and ipi:ipi_send_cpumask)";
	else if (lacks_wakeups(audit))
		why = "no sched_wakeup events in the trace, and a local wakeup (need-resched set, no "
		      "IPI due) could explain each (record sched:sched_wakeup)";
	else if (!audit->info.has_tick_events || !audit->pipeline->isolation.causes.has_seen_tick)
		why = "no tick events in the trace, and a tick could explain each (record "
		      "irq_vectors:local_timer_entry or timer:hrtimer_expire_entry)";
	else
		why = "the leaving CPU's tick may have set need-resched (no IPI due) in kernel code "
		      "not preempted; a lost kick looks the same in these events";
	reason = add_reason(audit, "%llu co-run window%s (%s)%s of unknown cause: %s",
			    (unsigned long long)iso->count, S(iso->count),
			    ca_format_duration(iso->total_ns, total, sizeof(total)), more, why);
	ca_reason_measure(reason, "causes", (double)(iso->count + rules), "windows");
}

static void judge_unjudged_windows(struct ca_audit *audit)
{
	const struct ca_durations *unknown_kind = &audit->pipeline->isolation.by_kind[CA_WINDOW_UNKNOWN];
	uint64_t unknown = unknown_kind->count - audit->pipeline->isolation.undecided_summary.count;
	struct ca_reason *reason;
	char a[32];

	if (unknown) {
		reason = add_reason(audit, "%llu co-run window%s (%s) could not be judged: a task's "
				    "%s is unknown or changing, a switch is missing, or a CPU was "
				    "unobserved", (unsigned long long)unknown, S(unknown),
				    ca_format_duration(unknown_kind->total -
						       audit->pipeline->isolation.undecided_summary.total_ns,
						       a, sizeof(a)),
				    audit->opts.identity == CA_IDENTITY_TAG ? "tag" : "cookie");
		ca_reason_measure(reason, "isolation", (double)unknown, "windows");
	}
	judge_undecided(audit);
	for (int r = 0; audit->pipeline->has_rules && r < audit->pipeline->rules.relation_count; r++) {
		const struct ca_relation *rel = &audit->pipeline->rules.relations[r];
		uint64_t count = audit->pipeline->policy.results[r].unknown;

		if (!count)
			continue;
		reason = add_reason(audit, "%s:%d: %s: %llu window%s over the grace could not be "
				    "judged: a CPU of the core was unobserved around %s",
				    audit->pipeline->rules.path, rel->line, ca_relation_kind_name(rel->kind),
				    (unsigned long long)count, S(count), count == 1 ? "it" : "them");
		ca_reason_measure(reason, "rules", (double)count, "windows");
		reason->line = rel->line;
	}
}

/* Nanoseconds of one clock for every CPU, or report text, which does not say. */
static bool is_clock_trusted(const struct ca_audit *audit)
{
	enum ca_clock_kind kind = ca_clock_kind(&audit->info);

	return kind == CA_CLOCK_GLOBAL_NS || kind == CA_CLOCK_UNNAMED;
}

/* A clock that is per CPU or counts no nanoseconds: no verdict stands on its timestamps. */
static void judge_clock(struct ca_audit *audit)
{
	enum ca_clock_kind kind = ca_clock_kind(&audit->info);

	if (is_clock_trusted(audit))
		return;
	ca_reason_measure(add_reason(audit, "trace clock \"%s\" %s (record with -C mono)",
				     audit->info.clock, ca_clock_why(kind)),
			  "clock", 0, NULL);
}

/* --tags markers, and no task has a tag: every task is alike, nothing was compared. */
static void judge_tagless(struct ca_audit *audit)
{
	if (audit->opts.identity != CA_IDENTITY_TAG || audit->pipeline->state.tasks.tag_count)
		return;
	ca_reason_measure(add_reason(audit, "--tags markers: the trace holds no coreaudit-tag "
				     "marker, so no task has a tag and isolation was not judged "
				     "(each task writes \"coreaudit-tag pid=P tag=NAME\" to trace_marker, "
				     "or a rule file's tag lines name them)"),
			  "tags", 0, NULL);
}

static void judge_unknowns(struct ca_audit *audit)
{
	ca_observed_judge(audit);
	judge_topology(audit);
	judge_gaps(audit);
	judge_unjudged_windows(audit);
	judge_fairness_undecided(audit);
	if (audit->info.bad_lines)
		ca_reason_measure(add_reason(audit, "%llu line(s) of %s could not be read (first: "
					     "line %ld): what they held is unknown",
					     (unsigned long long)audit->info.bad_lines,
					     audit->opts.path, audit->info.first_bad_line),
				  "input", (double)audit->info.bad_lines, "lines");
	judge_clock(audit);
	judge_tagless(audit);
	judge_unmeasured_limits(audit);
}

/* What the no-ipi and no-wakeup warnings add: the owed checks did not run. */
static const char *owed_unjudged(const struct ca_audit *audit)
{
	return !audit->pipeline->inversion.is_checked ?
	       "; nor are inversions and unjustified forced idle judged" : "";
}

/* Forced idle was seen, but no tick to hold it to the reselection owed (reselect.h). */

static bool is_reselect_unheld(const struct ca_audit *audit)
{
	return audit->opts.max_reselect_ticks && !audit->pipeline->reselect.has_ticks &&
	       audit->forced_idle_pct > 0;
}

/* What missing ipi or tick events leave unjudged. */
static void collect_cause_warnings(struct ca_audit *audit)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;
	char tick[32], stall[32], plus[64] = "";

	if (iso->causes.longest_stall_ns)
		snprintf(plus, sizeof(plus), " (plus the longest vCPU stall, %s)",
			 ca_format_duration(iso->causes.longest_stall_ns, stall, sizeof(stall)));
	if (!iso->has_causes && iso->unknown_until_ns)
		add_warning(audit, "no ipi events: windows from the grace up to %s%s are of "
			    "unknown cause, longer ones fail%s (record ipi:ipi_send_cpu, "
			    "ipi:ipi_send_cpumask)",
			    ca_format_duration(iso->unknown_until_ns, tick, sizeof(tick)), plus,
			    owed_unjudged(audit));
	else if (!iso->has_causes)
		add_warning(audit, "no ipi events: the causes of co-run windows are unknown, "
			    "judged by the --grace given alone%s (record ipi:ipi_send_cpu, "
			    "ipi:ipi_send_cpumask)", owed_unjudged(audit));
	if (audit->pipeline->isolation.has_causes &&
	    (!audit->info.has_tick_events || !audit->pipeline->isolation.causes.has_seen_tick))
		add_warning(audit, "no tick events in the trace: windows with no reschedule IPI or "
			    "local wakeup are of unknown cause up to %s, the longest a tick explains%s "
			    "(record irq_vectors:local_timer_entry)",
			    ca_format_duration(CA_TICK_WINDOW_MAX_NS, tick, sizeof(tick)),
			    is_reselect_unheld(audit) ? "; nor is forced idle held to the "
			    "reselection owed" : "");
	if (lacks_wakeups(audit))
		add_warning(audit, "no sched_wakeup events in the trace: woken tasks are unseen, so "
			    "forced idle and starvation read low, and a window with no reschedule "
			    "IPI is of unknown cause%s (record sched:sched_wakeup)",
			    iso->has_causes ? owed_unjudged(audit) : "");
}

static void collect_warnings(struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;

	if (audit->info.instance_count)
		add_warning(audit, "the trace's %d tracefs instance buffer%s (\"%s\"%s, trace-cmd "
			    "record -B) %s not read: the top-level buffer alone is audited",
			    audit->info.instance_count, audit->info.instance_count == 1 ? "" : "s",
			    audit->info.instance, audit->info.instance_count > 1 ? " first" : "",
			    audit->info.instance_count == 1 ? "is" : "are");
	if (ca_clock_kind(&audit->info) == CA_CLOCK_UNNAMED)
		add_warning(audit, "the trace clock %s; audit the trace.dat to have it judged",
			    ca_clock_why(CA_CLOCK_UNNAMED));
	if (audit->is_marker_different) {
		char topo[128];

		ca_topology_brief(&state->topo, topo, sizeof(topo));
		add_warning(audit, "--topology \"%s\" differs from the trace's coreaudit-topology "
			    "marker \"%s\": the option is used (without it, the marker would be)",
			    topo, audit->topology_marker);
	}
	if (audit->opts.cpus) {
		char topo[128];

		ca_topology_brief(&state->topo, topo, sizeof(topo));
		add_warning(audit, "--cpu %s: only the cores \"%s\" were audited; forced idle and "
			    "starvation per task count time on them alone, and the kernel's own "
			    "figures per task (coreaudit-kfi markers) were not compared",
			    audit->opts.cpus, topo);
	}
	if (audit->pipeline->has_rules && audit->pipeline->rules.needs_uid_or_cgroup)
		add_warning(audit, "%s: uid and cgroup rules match no task: scheduler traces "
			    "carry neither", audit->pipeline->rules.path);
	collect_cause_warnings(audit);
	if ((audit->opts.identity == CA_IDENTITY_TAG || audit->pipeline->has_rules) &&
	    state->cookie_source == CA_COOKIES_NONE)
		add_warning(audit, "tags could not be checked against kernel cookies: the trace has "
			    "none (no cs_switch probe, prctl events or coreaudit-cookie markers); "
			    "their windows are judged by cause or grace alone");
	if (audit->resched_ipis && audit->unnamed_resched_ipis == audit->resched_ipis)
		add_warning(audit, "the trace names no function for the callsites of its %llu "
			    "reschedule IPIs (no kallsyms): core-wide picks are timed by their "
			    "sched_switch, which comes later, so forced idle is less exact",
			    (unsigned long long)audit->resched_ipis);
	if (audit->opts.identity == CA_IDENTITY_COOKIE && state->cookie_source == CA_COOKIES_NONE)
		add_warning(audit, "no cookie source in the trace (no cs_switch probe, no "
			    "prctl events, no coreaudit-cookie markers): cookies are unknown");
	if (state->prctl_group_scope_calls)
		add_warning(audit, "%llu prctl call(s) with process-group scope: members outside "
			    "the caller's thread group are not visible in the trace",
			    (unsigned long long)state->prctl_group_scope_calls);
	if (!audit->pipeline->isolation.has_causes && is_reselect_unheld(audit))
		add_warning(audit, "no tick events in the trace: forced idle was not held to the "
			    "reselection the kernel owes (record irq_vectors:local_timer_entry)");
	if (audit->pipeline->isolation.list_dropped)
		add_warning(audit, "%llu windows counted but not listed (list limit %zu)",
			    (unsigned long long)audit->pipeline->isolation.list_dropped,
			    audit->opts.list_limit);
}

static enum ca_result decide(struct ca_audit *audit)
{
	summarise(audit);
	collect_warnings(audit);
	judge_failures(audit);
	audit->failure_count = audit->reason_count;
	/* On a clock that is per CPU or counts no ns, no failure is proven: listed, not a fail. */
	if (!is_clock_trusted(audit))
		audit->failure_count = 0;
	/* Listed after the failures, even when the verdict is fail. */
	judge_unknowns(audit);
	if (audit->failure_count) {
		audit->verdict = CA_VERDICT_FAIL;
		return CA_RESULT_FAIL;
	}
	if (audit->reason_count) {
		audit->verdict = CA_VERDICT_INCONCLUSIVE;
		return CA_RESULT_INCONCLUSIVE;
	}
	audit->verdict = CA_VERDICT_PASS;
	return CA_RESULT_PASS;
}

/*
 * Threads for a file: reading on this one (and, for a trace.dat, on more,
 * each reading a part of the CPUs), the pipeline on a worker (the findings
 * are the same, event for event).  A live source calls back into the audit
 * between its drains: one thread.
 */
static bool is_handed_off(const struct ca_audit *audit, const struct ca_source *source)
{
	return audit->opts.threads > 1 && strcmp(source->info.format, "live");
}

static void note_span(struct ca_audit *audit, const struct ca_cut *span)
{
	audit->is_cut = span->is_cut;
	audit->cut_from_ts = span->from_ts;
	audit->cut_to_ts = span->to_ts;
	audit->trace_first_ts = span->first_ts;
	audit->trace_last_ts = span->last_ts;
}

/* --from/--to leave no event of the trace: the options do not fit the file. */
static enum ca_result outside_span(struct ca_audit *audit)
{
	char from[40] = "the start", to[40] = "the end", first[32], last[32];

	if (audit->opts.from.is_set)
		strcat(ca_format_timestamp(audit->cut_from_ts, from, sizeof(from) - 2), " s");
	if (audit->opts.to.is_set)
		strcat(ca_format_timestamp(audit->cut_to_ts, to, sizeof(to) - 2), " s");
	return fail_input(audit, CA_RESULT_BAD_OPTIONS, "%s: no event lies in the span asked for "
			  "(--from, --to), %s to %s: the trace runs from %s s to %s s",
			  audit->opts.path, from, to,
			  ca_format_timestamp(audit->trace_first_ts, first, sizeof(first)),
			  ca_format_timestamp(audit->trace_last_ts, last, sizeof(last)));
}

/* --cpu named cores whose CPUs show no event (in the span audited). */
static enum ca_result no_audited_events(struct ca_audit *audit)
{
	char topo[128];

	ca_topology_brief(&audit->pipeline->state.topo, topo, sizeof(topo));
	return fail_input(audit, CA_RESULT_BAD_OPTIONS, "%s: --cpu %s: no event on the CPUs of "
			  "the cores it names (\"%s\")", audit->opts.path, audit->opts.cpus, topo);
}

static enum ca_result run_pipeline(struct run *run, struct ca_source *source)
{
	struct ca_audit *audit = run->audit;
	const struct ca_topology *topo = audit->opts.has_topology ? &audit->opts.topology : NULL;
	int ret;

	ret = ca_stream_init(&run->stream, topo, source->info.has_cookie_probe, consume, run,
			     setup_pipeline);
	if (!ret && topo)
		ret = setup_pipeline(run, topo);
	if (!ret)
		ret = is_handed_off(audit, source) ?
		      ca_source_read_handoff(source, audit->opts.threads, ca_stream_push,
					       &run->stream) :
		      ca_source_read(source, ca_stream_push, &run->stream);
	if (!ret)
		ret = ca_stream_flush(&run->stream);
	if (!ret && run->is_ready)
		ret = ca_state_check_error(&audit->pipeline->state);
	audit->is_topology_from_option = run->is_topology_from_option;
	audit->is_marker_different = run->stream.has_marker && run->stream.is_marker_different;
	snprintf(audit->topology_marker, sizeof(audit->topology_marker), "%s",
		 run->stream.has_marker ? run->stream.marker : "");
	ca_stream_free(&run->stream);
	if (ret)
		return explain_read_error(run, source, ret);
	note_span(audit, &run->span);
	if (!audit->events && run->span.is_cut && run->span.has_events)
		return outside_span(audit);
	if (!audit->events && audit->opts.cpus && audit->pipeline->state.has_events)
		return no_audited_events(audit);
	if (!audit->events && audit->info.instance_count)
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: its top-level buffer holds no "
				  "scheduler events; it has %d instance buffer%s (\"%s\"%s, trace-cmd "
				  "record -B), which coreaudit does not read: record without -B",
				  audit->opts.path, audit->info.instance_count,
				  audit->info.instance_count == 1 ? "" : "s", audit->info.instance,
				  audit->info.instance_count > 1 ? " first" : "");
	if (!audit->events)
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: the trace holds no scheduler events",
				  audit->opts.path);
	ret = finish_explain(audit);
	if (!ret)
		ret = ca_state_finish(&audit->pipeline->state);
	if (ret == -ENOMEM)
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: out of memory", audit->opts.path);
	if (ret)
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: audit stopped: %s", audit->opts.path,
				  strerror(-ret));
	return decide(audit);
}

enum ca_result ca_audit_begin(struct ca_audit *audit, const struct ca_audit_options *opts)
{
	struct ca_audit_pipeline *pipeline;

	memset(audit, 0, sizeof(*audit));
	audit->opts = *opts;
	if (opts->has_topology && ca_topology_copy(&audit->opts.topology, &opts->topology)) {
		audit->opts.has_topology = false;
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: out of memory",
				  opts->path ? opts->path : "audit");
	}
	pipeline = calloc(1, sizeof(*pipeline));
	if (!pipeline)
		return fail_input(audit, CA_RESULT_BAD_INPUT, "%s: out of memory",
				  opts->path ? opts->path : "audit");
	audit->pipeline = pipeline;
	if (opts->baseline_path) {
		if (ca_baseline_load(&pipeline->baseline, opts->baseline_path,
				     opts->baseline_margin_pct, audit->error, sizeof(audit->error)))
			return CA_RESULT_BAD_OPTIONS;
		pipeline->has_baseline = true;
	}
	if (!opts->rules_path)
		return CA_RESULT_PASS;
	if (ca_rules_load(&pipeline->rules, opts->rules_path, audit->error, sizeof(audit->error)))
		return CA_RESULT_BAD_OPTIONS;
	pipeline->has_rules = true;
	take_rule_thresholds(audit);
	return CA_RESULT_PASS;
}

enum ca_result ca_audit_feed(struct ca_audit *audit, struct ca_source *source)
{
	struct run run = { .audit = audit, .is_topology_from_option = audit->opts.has_topology };
	enum ca_result code;

	ca_cut_init(&run.span, &audit->opts.from, &audit->opts.to);
	if (!audit->pipeline)
		return fail_input(audit, CA_RESULT_BAD_OPTIONS, "%s: ca_audit_begin() did not succeed",
				  source->path);
	audit->info = source->info;
	code = run_pipeline(&run, source);
	ca_topology_free(&run.all);
	audit->info.reader = source->info.reader;	/* known once reading began */
	if (!run.is_ready)
		memset(&audit->pipeline->state, 0, sizeof(audit->pipeline->state));
	return code;
}

enum ca_result ca_audit_run(struct ca_audit *audit, const struct ca_audit_options *opts)
{
	struct ca_source source;
	enum ca_result code = ca_audit_begin(audit, opts);

	if (code != CA_RESULT_PASS)
		return code;
	if (ca_source_open(&source, opts->path)) {
		code = fail_input(audit, CA_RESULT_BAD_INPUT, "%s", source.error);
		ca_source_close(&source);
		return code;
	}
	source.use_records = opts->use_record_reader;
	code = ca_audit_feed(audit, &source);
	ca_source_close(&source);
	return code;
}

void ca_audit_free(struct ca_audit *audit)
{
	struct ca_audit_pipeline *pipeline = audit->pipeline;

	if (audit->opts.has_topology)
		ca_topology_free(&audit->opts.topology);
	audit->opts.has_topology = false;
	if (!pipeline)
		return;
	if (pipeline->has_rules && pipeline->policy.results)
		ca_policy_free(&pipeline->policy);
	ca_rules_free(&pipeline->rules);
	ca_isolation_free(&pipeline->isolation);
	ca_timeline_free(&pipeline->timeline);
	ca_forcedidle_free(&pipeline->forcedidle);
	ca_reselect_free(&pipeline->reselect);
	ca_owed_free(&pipeline->inversion);
	ca_owed_free(&pipeline->unjust);
	ca_accounting_free(&pipeline->accounting);
	ca_capacity_free(&pipeline->capacity);
	ca_fairness_free(&pipeline->fairness);
	ca_exposure_free(&pipeline->exposure);
	ca_explain_free(&pipeline->explain);
	ca_state_free(&pipeline->state);
	free(pipeline);
	audit->pipeline = NULL;
}

const char *ca_result_name(enum ca_result result)
{
	static const char *const names[] = {
		[CA_RESULT_PASS] = "pass", [CA_RESULT_FAIL] = "fail",
		[CA_RESULT_INCONCLUSIVE] = "inconclusive", [CA_RESULT_BAD_INPUT] = "bad-input",
		[CA_RESULT_BAD_OPTIONS] = "bad-options",
	};

	return (unsigned int)result < sizeof(names) / sizeof(names[0]) ? names[result] : "?";
}
