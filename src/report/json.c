/*
 * json.c - the findings as one JSON object, built with json-c.  Keys are
 * stable (coreaudit-audit(1), JSON OUTPUT); times are integer nanoseconds on
 * the trace's clock.  Schema 2: cookies are hex strings ("0x..."), since
 * kernel addresses above 2^53 do not survive jq or JavaScript as numbers;
 * reasons are objects; violations counts every check.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "coreaudit/report.h"
#include "observed.h"
#include "report/common.h"
#include "report/jsonlist.h"

#define SCHEMA_VERSION 2

typedef struct json_object json;

/*
 * @key is a string literal or a name from a static table (ca_*_name()): kept
 * by pointer, not copied (a 10,000-window list puts over 100,000 keys).
 */
static void put(json *obj, const char *key, json *value)
{
	json_object_object_add_ex(obj, key, value, JSON_C_OBJECT_KEY_IS_CONSTANT);
}

/* A number as the key ("0", "1", ...): copied. */
static void put_numbered(json *obj, int number, json *value)
{
	char key[16];

	snprintf(key, sizeof(key), "%d", number);
	json_object_object_add(obj, key, value);
}

static json *u64(uint64_t value)
{
	return json_object_new_uint64(value);
}

/* @text as a JSON string of valid UTF-8 (ca_report_clean(): a damaged comm's bytes are not). */
static json *str(const char *text)
{
	char *copy = strdup(text ? text : "");
	json *value;

	if (!copy)
		return NULL;
	ca_report_clean(copy);
	value = json_object_new_string(copy);
	free(copy);
	return value;
}

/* A real number printed with @decimals places (json-c's default is 17 digits). */
static json *real(double value, int decimals)
{
	char text[64];

	snprintf(text, sizeof(text), "%.*f", decimals, value);
	return json_object_new_double_s(value, text);
}

/* A cookie as "0x..." (a 64-bit kernel address). */
static json *cookie(uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%" PRIx64, value);
	return json_object_new_string(text);
}

static json *summary(const struct ca_summary *s)
{
	json *obj = json_object_new_object();

	put(obj, "count", u64(s->count));
	put(obj, "total_ns", u64(s->total_ns));
	put(obj, "p50_ns", u64(s->p50_ns));
	put(obj, "p99_ns", u64(s->p99_ns));
	put(obj, "max_ns", u64(s->max_ns));
	if (s->is_approximate)
		put(obj, "approximate", json_object_new_boolean(1));
	return obj;
}

static json *topology(const struct ca_topology *topo)
{
	json *cores = json_object_new_array();

	for (int core = 0; core < topo->core_count; core++) {
		json *cpus = json_object_new_array();

		for (int i = 0; i < topo->sibling_count[core]; i++)
			json_object_array_add(cpus, json_object_new_int(topo->siblings[core][i]));
		json_object_array_add(cores, cpus);
	}
	return cores;
}

/* A recording that began late, or stopped early, on a CPU (observed.c): one stretch. */
static void put_edge(json *by_why, const char *name, uint64_t from, uint64_t to)
{
	json *kind = json_object_new_object();

	put(kind, "count", u64(1));
	put(kind, "total_ns", u64(to - from));
	put(kind, "longest_from_ns", u64(from));
	put(kind, "longest_to_ns", u64(to));
	put(by_why, name, kind);
}

/* Each CPU with time unobserved: how much, and the longest stretch of each kind. */
static json *unobserved(const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	json *list = json_object_new_array();

	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++) {
		const struct ca_cpu_coverage *cov = &state->cpus[cpu].coverage;
		uint64_t late = ca_observed_late_start_ns(audit, cpu);
		uint64_t early = ca_observed_early_end_ns(audit, cpu);
		json *entry, *by_why;

		if (ca_topology_core_of(&state->topo, cpu) < 0 || !(cov->unobserved_ns + late + early))
			continue;
		entry = json_object_new_object();
		by_why = json_object_new_object();
		put(entry, "cpu", json_object_new_int(cpu));
		put(entry, "unobserved_ns", u64(cov->unobserved_ns + late + early));
		if (late)
			put_edge(by_why, "late-start", state->first_ts, state->first_ts + late);
		if (early)
			put_edge(by_why, "early-end", state->last_ts - early, state->last_ts);
		for (int why = 0; why < CA_UNOBSERVED_WHY_COUNT; why++) {
			const struct ca_stretch *s = &cov->longest[why];
			json *kind;

			if (!cov->why_count[why])
				continue;
			kind = json_object_new_object();
			put(kind, "count", u64(cov->why_count[why]));
			put(kind, "total_ns", u64(cov->why_ns[why]));
			put(kind, "longest_from_ns", u64(s->from));
			put(kind, "longest_to_ns", u64(s->to));
			if (why == CA_UNOBSERVED_DAMAGE || why == CA_UNOBSERVED_STREAM_END)
				put(kind, "offset", u64(s->offset));
			put(by_why, ca_unobserved_why_name(why), kind);
		}
		put(entry, "by_cause", by_why);
		json_object_array_add(list, entry);
	}
	return list;
}

/* --from, --to: the audited span's first and last events, and the events left out. */
static json *cut(const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	json *obj = json_object_new_object();

	put(obj, "first_ts", u64(state->first_ts));
	put(obj, "last_ts", u64(state->last_ts));
	put(obj, "trace_first_ts", u64(audit->trace_first_ts));
	put(obj, "trace_last_ts", u64(audit->trace_last_ts));
	put(obj, "events_before", u64(audit->events_before));
	put(obj, "events_after", u64(audit->events_after));
	return obj;
}

static json *trace(const struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	json *obj = json_object_new_object();
	int cpus = 0;

	for (int core = 0; core < state->topo.core_count; core++)
		cpus += state->topo.sibling_count[core];
	put(obj, "file", str(audit->opts.path));
	put(obj, "format", str(audit->info.format));
	put(obj, "reader", str(audit->info.reader ? audit->info.reader : audit->info.format));
	put(obj, "clock", str(audit->info.clock));
	put(obj, "span_ns", u64(state->last_ts - state->first_ts));
	put(obj, "events", u64(audit->events));
	if (audit->is_cut)
		put(obj, "cut", cut(audit));
	put(obj, "cpus", json_object_new_int(cpus));
	put(obj, "topology", topology(&state->topo));
	put(obj, "topology_source", str(audit->is_topology_from_option ? "option" : "marker"));
	if (audit->topology_marker[0])
		put(obj, "topology_marker", str(audit->topology_marker));
	if (audit->opts.cpus)	/* --cpu: the topology above is the cores audited */
		put(obj, "cpu_filter", str(audit->opts.cpus));
	put(obj, "identity", str(state->identity == CA_IDENTITY_TAG ? "tags" : "cookies"));
	put(obj, "cookie_source", str(ca_cookie_source_name(state->cookie_source)));
	/* What tags and rule relations were held against: the kernel's cookies. */
	put(obj, "tags_checked_against",
	    state->identity == CA_IDENTITY_TAG || audit->pipeline->has_rules ?
	    str(ca_cookie_source_name(state->cookie_source)) : NULL);
	put(obj, "has_tick_events", json_object_new_boolean(audit->info.has_tick_events));
	put(obj, "lost_events", u64(audit->lost_events));
	put(obj, "missed_switches", u64(audit->missed_switches));
	put(obj, "resched_ipis", u64(audit->resched_ipis));
	put(obj, "unnamed_resched_ipis", u64(audit->unnamed_resched_ipis));
	put(obj, "observed_pct", real(audit->observed_pct, 4));
	put(obj, "unobserved_ns", u64(audit->unobserved_ns));
	put(obj, "unobserved", unobserved(audit));
	return obj;
}

static json *reason(const struct ca_audit *audit, int i)
{
	const struct ca_reason *r = &audit->reason_info[i];
	json *obj = json_object_new_object();

	put(obj, "text", str(audit->reasons[i]));
	put(obj, "verdict", str(i < audit->failure_count ? "fail" : "inconclusive"));
	put(obj, "check", str(r->check ? r->check : "other"));
	if (r->cpu >= 0)
		put(obj, "cpu", json_object_new_int(r->cpu));
	if (r->pid >= 0)
		put(obj, "pid", json_object_new_int(r->pid));
	if (r->line)
		put(obj, "line", json_object_new_int(r->line));
	if (r->has_value) {
		put(obj, "value", real(r->value, 4));
		put(obj, "unit", str(r->unit));
	}
	if (r->has_threshold) {
		put(obj, "threshold", real(r->threshold, 4));
		put(obj, "threshold_unit", str(r->threshold_unit));
	}
	return obj;
}

static json *lines(const char text[][CA_REASON_LEN], int count)
{
	json *list = json_object_new_array();

	for (int i = 0; i < count; i++)
		json_object_array_add(list, str(text[i]));
	return list;
}

static void put_verdict(json *root, const struct ca_audit *audit)
{
	json *reasons = json_object_new_array();

	put(root, "verdict", str(ca_verdict_name(audit->verdict)));
	for (int i = 0; i < audit->reason_count; i++)
		json_object_array_add(reasons, reason(audit, i));
	put(root, "reasons", reasons);
	put(root, "warnings", lines(audit->warnings, audit->warning_count));
	put(root, "grace_ns", u64(audit->opts.grace_ns));
}

/* violations: every check together; violations_by_check: each. */
static void put_violations(json *root, const struct ca_audit *audit)
{
	json *by_check = json_object_new_object();
	uint64_t isolation = audit->pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, rules = 0;
	uint64_t forced_idle = 0, starvation = 0;
	uint64_t reselect = audit->opts.max_reselect_ticks ?
			    audit->pipeline->reselect.finding_count : 0;
	uint64_t inversion = audit->pipeline->inversion.finding_count;
	uint64_t unjust = audit->pipeline->unjust.finding_count;
	uint64_t accounting = audit->pipeline->accounting.finding_count;
	uint64_t worse = audit->pipeline->has_baseline ?
			 (uint64_t)audit->pipeline->baseline.worse_count : 0;
	uint64_t unfair = audit->pipeline->fairness.finding_count;

	for (int r = 0; audit->pipeline->has_rules && r < audit->pipeline->rules.relation_count; r++)
		rules += audit->pipeline->policy.results[r].violations;
	for (int i = 0; i < audit->failure_count; i++) {
		const char *check = audit->reason_info[i].check;

		forced_idle += check && !strcmp(check, "max-forced-idle");
		starvation += check && !strcmp(check, "max-starvation");
	}
	put(by_check, "isolation", u64(isolation));
	put(by_check, "rules", u64(rules));
	put(by_check, "max-forced-idle", u64(forced_idle));
	put(by_check, "max-starvation", u64(starvation));
	put(by_check, "reselect", u64(reselect));
	put(by_check, "inversion", u64(inversion));
	put(by_check, "unjustified", u64(unjust));
	put(by_check, "accounting", u64(accounting));
	put(by_check, "baseline", u64(worse));
	if (audit->pipeline->has_fairness && audit->pipeline->fairness.max_unfairness_pct >= 0)
		put(by_check, "fairness", u64(unfair));
	put(root, "violations", u64(isolation + rules + forced_idle + starvation + reselect +
				    inversion + unjust + accounting + worse + unfair));
	put(root, "violations_by_check", by_check);
}

static json *evidence(const struct ca_evidence *e)
{
	json *list = json_object_new_array();

	for (int i = 0; i < e->count; i++) {
		const struct ca_trace_line *l = &e->lines[i];
		json *line = json_object_new_object();

		put(line, "ts_ns", u64(l->ts));
		put(line, "cpu", json_object_new_int(l->cpu));
		put(line, "event", str(ca_event_kind_name(l->kind)));
		put(line, "pid", json_object_new_int(l->pid));
		put(line, "a", json_object_new_int(l->a));
		put(line, "b", json_object_new_int(l->b));
		json_object_array_add(list, line);
	}
	return list;
}

static json *window_task(const struct ca_audit *audit, const struct ca_window_task *t)
{
	json *obj = json_object_new_object();

	put(obj, "pid", json_object_new_int(t->pid));
	put(obj, "comm", str(t->comm));
	if (!t->is_known)
		put(obj, "cookie", NULL);
	else if (audit->pipeline->state.identity == CA_IDENTITY_TAG)
		put(obj, "tag", str(ca_tasks_tag_name(&audit->pipeline->state.tasks, (int)t->identity)));
	else
		put(obj, "cookie", cookie(t->identity));
	return obj;
}

static json *window(const struct ca_audit *audit, const struct ca_window *w)
{
	json *obj = json_object_new_object(), *cpus = json_object_new_array();
	json *tasks = json_object_new_array();
	const struct ca_evidence *e = ca_isolation_evidence(&audit->pipeline->isolation, w);

	json_object_array_add(cpus, json_object_new_int(w->cpus[0]));
	json_object_array_add(cpus, json_object_new_int(w->cpus[1]));
	for (int i = 0; i < 2; i++)
		json_object_array_add(tasks, window_task(audit, &w->tasks[i]));
	put(obj, "core", json_object_new_int(w->core));
	put(obj, "cpus", cpus);
	put(obj, "start_ns", u64(w->start));
	put(obj, "end_ns", u64(w->end));
	put(obj, "kind", str(ca_window_kind_name(w->kind)));
	put(obj, "cause", str(ca_window_cause_name(w->cause)));
	put(obj, "leaving_cpu", json_object_new_int(w->leaving_cpu));
	put(obj, "open_at_end", json_object_new_boolean(w->is_open_at_end));
	put(obj, "tasks", tasks);
	if (e)
		put(obj, "evidence", evidence(e));
	return obj;
}

/* The listed windows, in the report's order: built one at a time as the list is printed. */
struct listed_windows {
	const struct ca_audit *audit;
	const struct ca_window **sorted;
};

static json *listed_window(void *ctx, size_t index)
{
	const struct listed_windows *listed = ctx;

	return window(listed->audit, listed->sorted[index]);
}

static void free_listed_windows(void *ctx)
{
	struct listed_windows *listed = ctx;

	free(listed->sorted);
	free(listed);
}

/* An empty list when out of memory, as for the sort. */
static json *window_list(const struct ca_audit *audit)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;
	struct listed_windows *listed = malloc(sizeof(*listed));
	json *list;

	if (listed)
		*listed = (struct listed_windows){ audit, ca_report_sorted_windows(audit) };
	if (!listed || !listed->sorted) {
		free(listed);
		return json_object_new_array();
	}
	list = ca_json_list(iso->list_count, listed_window, listed, free_listed_windows);
	return list ? list : json_object_new_array();
}

/* Each core's co-run time counted once (checks/corun.h): {"core": ns}. */
static json *corun_per_core(const struct ca_isolation *iso)
{
	json *obj = json_object_new_object();

	for (int core = 0; iso->per_core_corun_ns && core < iso->core_count; core++)
		put_numbered(obj, core, u64(iso->per_core_corun_ns[core]));
	return obj;
}

static json *windows(const struct ca_audit *audit)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;
	json *obj = summary(&iso->summary_all), *by_kind = json_object_new_object();
	json *by_cause = json_object_new_object();

	for (int kind = 0; kind < CA_WINDOW_KIND_COUNT; kind++)
		put(by_kind, ca_window_kind_name(kind), summary(&iso->summary[kind]));
	for (int cause = 0; cause < CA_CAUSE_COUNT; cause++)
		put(by_cause, ca_window_cause_name(cause), summary(&iso->cause_summary[cause]));
	put(obj, "by_kind", by_kind);
	put(obj, "by_cause", by_cause);
	put(obj, "undecided", summary(&iso->undecided_summary));	/* of unknown cause */
	put(obj, "corun_ns_per_core", corun_per_core(iso));
	if (iso->corun_upper_bounds)
		put(obj, "corun_upper_bound", json_object_new_boolean(true));
	put(obj, "listed", u64(iso->list_count));
	put(obj, "not_listed", u64(iso->list_dropped));
	put(obj, "list", window_list(audit));
	return obj;
}

static json *fi_task(const struct ca_audit *audit, const struct ca_fi_task *t)
{
	const struct ca_task *task = ca_tasks_lookup(&audit->pipeline->state.tasks, t->pid);
	json *obj = json_object_new_object();

	put(obj, "pid", json_object_new_int(t->pid));
	put(obj, "comm", str(t->comm));
	put(obj, "cookie", task && task->is_cookie_known ? cookie(task->cookie) : NULL);
	put(obj, "kernel_ns", u64(t->kernel_ns));
	put(obj, "starved_ns", u64(t->starved_ns));
	put(obj, "longest_starved_ns", u64(t->longest_starved_ns));
	if (t->longest_starved_ns) {
		put(obj, "longest_starved_start_ns", u64(t->longest_starved_start));
		put(obj, "longest_starved_cpu", json_object_new_int(t->longest_starved_cpu));
	}
	return obj;
}

static json *forced_idle(const struct ca_audit *audit)
{
	const struct ca_forcedidle *fi = &audit->pipeline->forcedidle;
	const struct ca_fi_task **sorted = ca_report_sorted_tasks(audit);
	json *obj = json_object_new_object(), *per_cpu = json_object_new_object();
	json *per_task = json_object_new_array();

	for (int cpu = 0; cpu < audit->pipeline->state.topo.cpu_count; cpu++) {
		if (ca_topology_core_of(&audit->pipeline->state.topo, cpu) < 0)
			continue;
		put_numbered(per_cpu, cpu, u64(fi->per_cpu_ns[cpu]));
	}
	for (uint32_t i = 0; sorted && i < fi->task_count; i++)
		json_object_array_add(per_task, fi_task(audit, sorted[i]));
	free(sorted);
	put(obj, "percent", real(audit->forced_idle_pct, 4));
	put(obj, "per_cpu_ns", per_cpu);
	put(obj, "per_task", per_task);
	return obj;
}

/* The CPU kept waiting and the sibling's task, of a finding on the kernel's decisions. */
static void put_parties(json *obj, const struct ca_parties *who)
{
	put(obj, "waiting_cpu", json_object_new_int(who->waiting_cpu));
	put(obj, "waiting_pid", json_object_new_int(who->waiting_pid));
	put(obj, "waiting_prio", json_object_new_int(who->waiting_prio));
	put(obj, "waiting_cookie", cookie(who->waiting_cookie));
	put(obj, "holder_cpu", json_object_new_int(who->holder_cpu));
	put(obj, "holder_pid", json_object_new_int(who->holder_pid));
	put(obj, "holder_prio", json_object_new_int(who->holder_prio));
	put(obj, "holder_cookie", cookie(who->holder_cookie));
}

static json *reselect_finding(const struct ca_reselect_finding *f)
{
	json *obj = json_object_new_object();

	put(obj, "core", json_object_new_int(f->core));
	put_parties(obj, &f->who);
	put(obj, "start_ns", u64(f->start_ns));
	put(obj, "end_ns", u64(f->end_ns));
	put(obj, "ticks", u64(f->ticks));
	return obj;
}

static json *owed_finding(const struct ca_owed_finding *f)
{
	json *obj = json_object_new_object();

	put(obj, "core", json_object_new_int(f->core));
	put_parties(obj, &f->who);
	put(obj, "start_ns", u64(f->start_ns));
	put(obj, "decided_ns", u64(f->decided_ns));
	put(obj, "end_ns", u64(f->end_ns));
	return obj;
}

/* A CPU idle beside work the selection owed it (checks/owed.h: inversion, unjustified). */
static json *owed(const struct ca_owed *inv)
{
	json *obj = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < inv->listed; i++)
		json_object_array_add(list, owed_finding(&inv->list[i]));
	put(obj, "max_ns", u64(inv->max_ns));
	put(obj, "checked", json_object_new_boolean(inv->is_checked));
	put(obj, "longest_ns", u64(inv->longest_ns));
	put(obj, "excused", u64(inv->excused_count));
	put(obj, "unknown", u64(inv->unknown_count));
	put(obj, "count", u64(inv->finding_count));
	put(obj, "total_ns", u64(inv->finding_ns));
	put(obj, "list", list);
	return obj;
}

/* The kernel's forced idle per task against the trace's (checks/accounting.h). */
static json *accounting(const struct ca_accounting *acc)
{
	json *obj = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < acc->listed; i++) {
		const struct ca_account_result *r = &acc->list[i];
		json *task = json_object_new_object();

		put(task, "pid", json_object_new_int(r->pid));
		put(task, "from_ns", u64(r->from_ns));
		put(task, "to_ns", u64(r->to_ns));
		put(task, "kernel_ns", u64(r->kernel_ns));
		put(task, "trace_ns", u64(r->model_ns));
		put(task, "finding", json_object_new_boolean(r->is_finding));
		json_object_array_add(list, task);
	}
	put(obj, "max_error_pct", json_object_new_double(acc->max_error_pct));
	put(obj, "floor_ns", u64(CA_ACCOUNTING_FLOOR_NS));
	put(obj, "markers", u64(acc->markers));
	put(obj, "compared", u64(acc->compared));
	put(obj, "unknown", u64(acc->unknown));
	put(obj, "count", u64(acc->finding_count));
	put(obj, "list", list);
	return obj;
}

/* Forced idle past the reselection the kernel owed (checks/reselect.h). */
static json *reselect(const struct ca_audit *audit)
{
	const struct ca_reselect *rs = &audit->pipeline->reselect;
	json *obj = json_object_new_object(), *list = json_object_new_array();

	for (size_t i = 0; i < rs->listed; i++)
		json_object_array_add(list, reselect_finding(&rs->list[i]));
	put(obj, "max_ticks", u64(audit->opts.max_reselect_ticks));
	put(obj, "checked", json_object_new_boolean(audit->opts.max_reselect_ticks &&
						      rs->has_ticks));
	put(obj, "most_ticks", u64(rs->most_ticks));
	put(obj, "unknown", u64(rs->unknown_count));
	put(obj, "count", u64(rs->finding_count));
	put(obj, "total_ns", u64(rs->finding_ns));
	put(obj, "list", list);
	return obj;
}

static json *worst_windows(const struct ca_policy_result *res)
{
	json *list = json_object_new_array();

	for (int w = 0; w < res->worst_count; w++) {
		json *obj = json_object_new_object(), *pids = json_object_new_array();

		json_object_array_add(pids, json_object_new_int(res->worst[w].pids[0]));
		json_object_array_add(pids, json_object_new_int(res->worst[w].pids[1]));
		put(obj, "core", json_object_new_int(res->worst[w].core));
		put(obj, "start_ns", u64(res->worst[w].start));
		put(obj, "end_ns", u64(res->worst[w].end));
		put(obj, "pids", pids);
		put(obj, "cause", str(ca_window_cause_name(res->worst[w].cause)));
		json_object_array_add(list, obj);
	}
	return list;
}

static json *rule_result(const struct ca_audit *audit, int r)
{
	const struct ca_relation *rel = &audit->pipeline->rules.relations[r];
	const struct ca_policy_result *res = &audit->pipeline->policy.results[r];
	json *obj = json_object_new_object(), *tags = json_object_new_array();

	json_object_array_add(tags, str(audit->pipeline->rules.names[rel->tags[0]]));
	if (rel->tags[1] >= 0)
		json_object_array_add(tags, str(audit->pipeline->rules.names[rel->tags[1]]));
	put(obj, "kind", str(ca_relation_kind_name(rel->kind)));
	put(obj, "line", json_object_new_int(rel->line));
	put(obj, "tags", tags);
	if (rel->kind == CA_RELATION_TOGETHER) {
		put(obj, "runtime_ns", u64(res->runtime_ns));
		put(obj, "shared_ns", u64(res->shared_ns));
		return obj;
	}
	put(obj, "windows", summary(&res->summary));
	put(obj, "violations", u64(res->violations));
	put(obj, "same_cookie_violations", u64(res->same_cookie_violations));
	put(obj, "undecided", u64(res->undecided));
	put(obj, "unknown", u64(res->unknown));
	put(obj, "worst", worst_windows(res));
	return obj;
}

/* The figures held to an earlier run's (--baseline). */
static json *baseline(const struct ca_baseline *b)
{
	json *obj = json_object_new_object(), *figures = json_object_new_array();

	for (int i = 0; i < CA_BASELINE_FIGURES; i++) {
		const struct ca_baseline_figure *f = &b->figures[i];
		json *figure = json_object_new_object();

		put(figure, "name", str(f->name));
		put(figure, "unit", str(f->unit));
		put(figure, "compared", json_object_new_boolean(f->has_old));
		if (f->has_old) {
			put(figure, "old", real(f->old_value, 4));
			put(figure, "limit", real(f->limit, 4));
		}
		put(figure, "new", real(f->new_value, 4));
		put(figure, "worse", json_object_new_boolean(f->is_worse));
		json_object_array_add(figures, figure);
	}
	put(obj, "file", str(b->path));
	put(obj, "margin_pct", real(b->margin_pct, 4));
	put(obj, "worse", u64((uint64_t)b->worse_count));
	put(obj, "figures", figures);
	return obj;
}

static json *rules(const struct ca_audit *audit)
{
	json *obj = json_object_new_object(), *relations = json_object_new_array();

	for (int r = 0; r < audit->pipeline->rules.relation_count; r++)
		json_object_array_add(relations, rule_result(audit, r));
	put(obj, "file", str(audit->pipeline->rules.path));
	put(obj, "grace_ns", u64(audit->pipeline->policy.grace_ns));
	put(obj, "relations", relations);
	return obj;
}

static void print(FILE *out, json *root)
{
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), out);
	fputc('\n', out);
	json_object_put(root);
}

void ca_report_json_unread(FILE *out, const struct ca_audit *audit, enum ca_result result)
{
	json *root = json_object_new_object(), *file = json_object_new_object();

	put(root, "version", json_object_new_int(SCHEMA_VERSION));
	put(file, "file", str(audit->opts.path));
	put(root, "trace", file);
	put(root, "result", str(ca_result_name(result)));
	put(root, "error", str(audit->error));
	print(out, root);
}

/* --explain: one CPU as it stood at the instant. */
static json *explain_cpu(const struct ca_audit *audit, int cpu)
{
	static const char *const runs[] = { "unknown", "idle", "task" };
	const struct ca_explain_cpu *c = &audit->pipeline->explain.cpus[cpu];
	json *obj = json_object_new_object();

	put(obj, "cpu", json_object_new_int(cpu));
	put(obj, "core", json_object_new_int(ca_topology_core_of(&audit->pipeline->state.topo, cpu)));
	put(obj, "run", str(runs[c->run]));
	if (c->run != CA_CPU_UNKNOWN)
		put(obj, "since_ns", u64(c->since));
	if (c->run == CA_CPU_TASK)
		put(obj, "task", window_task(audit, &c->task));
	if (c->run == CA_CPU_IDLE)
		put(obj, "forced", json_object_new_boolean(c->is_forced));
	put(obj, "queued", json_object_new_int(c->queued));
	return obj;
}

/* --explain TS: every CPU then, and the co-run windows open then. */
static json *explain(const struct ca_audit *audit)
{
	const struct ca_explain *x = &audit->pipeline->explain;
	const struct ca_isolation *iso = &audit->pipeline->isolation;
	json *obj = json_object_new_object(), *cpus = json_object_new_array();
	json *open = json_object_new_array();

	put(obj, "ts_ns", u64(x->ts));
	put(obj, "in_span", json_object_new_boolean(x->is_in_span));
	for (int cpu = 0; x->is_taken && cpu < x->cpu_count; cpu++)
		if (ca_topology_core_of(&audit->pipeline->state.topo, cpu) >= 0)
			json_object_array_add(cpus, explain_cpu(audit, cpu));
	for (int i = 0; i < iso->explained_count; i++)
		json_object_array_add(open, window(audit, &iso->explained[i]));
	put(obj, "cpus", cpus);
	put(obj, "windows", open);
	put(obj, "windows_not_kept", u64(iso->explained_dropped));
	return obj;
}

/* A cookie ("cookie": "0x...") or a tag ("tag": "name") under @key's kind. */
static void put_identity(json *obj, const struct ca_audit *audit, uint64_t value)
{
	if (audit->pipeline->state.identity == CA_IDENTITY_TAG)
		put(obj, "tag", value ? str(ca_tasks_tag_name(&audit->pipeline->state.tasks,
							      (int)value)) : NULL);
	else
		put(obj, "cookie", cookie(value));
}

/* One core's capacity figures (checks/capacity.h); @ht_off_ns for its break-even. */
static json *capacity_figures(const struct ca_capacity_core *c, uint64_t ht_off_ns)
{
	json *obj = json_object_new_object(), *busy = json_object_new_array();
	uint64_t core = ca_capacity_busy_core_ns(c);
	double s;

	for (int k = 0; k <= c->cpus; k++)
		json_object_array_add(busy, u64(c->busy_ns[k]));
	put(obj, "known_ns", u64(c->known_ns));
	put(obj, "busy_ns", busy);
	put(obj, "compatible_corun_ns", u64(c->compatible_ns));
	put(obj, "mixed_corun_ns", u64(c->mixed_ns));
	put(obj, "forced_idle_ns", u64(c->forced_ns));
	put(obj, "demand_ns", u64(c->demand_ns));
	put(obj, "waiting_ns", u64(c->waiting_ns));
	put(obj, "busy_core_ns", u64(core));
	put(obj, "busy_thread_ns", u64(ca_capacity_busy_thread_ns(c)));
	put(obj, "smt_yield", core ? real((double)ca_capacity_busy_thread_ns(c) / core, 4) : NULL);
	put(obj, "break_even_speedup",
	    ca_capacity_break_even(c, ht_off_ns, &s) ? real(s, 4) : NULL);
	return obj;
}

/* --report capacity: per core, all of them, and SMT off machine-wide. */
static json *capacity(const struct ca_audit *audit)
{
	const struct ca_capacity *cap = &audit->pipeline->capacity;
	json *obj = json_object_new_object(), *cores = json_object_new_array();
	json *off = json_object_new_object();
	struct ca_capacity_core sum;

	for (int core = 0; core < cap->core_count; core++) {
		json *c = capacity_figures(&cap->cores[core], cap->cores[core].demand_ns);
		json *cpus = json_object_new_array();

		for (int i = 0; i < audit->pipeline->state.topo.sibling_count[core]; i++)
			json_object_array_add(cpus, json_object_new_int(
				audit->pipeline->state.topo.siblings[core][i]));
		put(c, "core", json_object_new_int(core));
		put(c, "cpus", cpus);
		json_object_array_add(cores, c);
	}
	ca_capacity_sum(cap, &sum);
	put(obj, "cores", cores);
	put(obj, "all", capacity_figures(&sum, cap->ht_off_busy_ns));
	put(off, "core_ns", u64(cap->core_ns));
	put(off, "busy_ns", u64(cap->ht_off_busy_ns));
	put(off, "waiting_ns", u64(cap->ht_off_waiting_ns));
	put(obj, "smt_off", off);
	return obj;
}

static json *fair_identity(const struct ca_audit *audit, const struct ca_fair_identity *id)
{
	const struct ca_task *t = ca_tasks_lookup(&audit->pipeline->state.tasks, id->example_pid);
	json *obj = json_object_new_object(), *wait = json_object_new_object();
	char comm[CA_COMM_LEN + 1];

	snprintf(comm, sizeof(comm), "%s", t ? t->comm : "");
	ca_report_clean(comm);
	put_identity(obj, audit, id->value);
	put(obj, "pid", json_object_new_int(id->example_pid));
	put(obj, "comm", str(comm));
	put(obj, "competed_ns", u64(id->competed_ns));
	put(obj, "received_ns", u64(id->received_ns));
	put(obj, "fair_ns", u64((uint64_t)(id->fair_ns + 0.5)));
	put(obj, "short_pct", real(ca_fairness_unfairness(id), 2));
	put(obj, "doubt_ns", u64(id->doubt_ns));
	put(obj, "finding", json_object_new_boolean(ca_fairness_is_finding(&audit->pipeline->fairness,
									   id)));
	put(obj, "undecided", json_object_new_boolean(
		ca_fairness_is_undecided(&audit->pipeline->fairness, id)));
	put(wait, "ns", u64(id->longest_wait_ns));
	put(wait, "pid", json_object_new_int(id->longest_wait_pid));
	put(wait, "cpu", json_object_new_int(id->longest_wait_cpu));
	put(wait, "start_ns", u64(id->longest_wait_start));
	put(obj, "longest_wait", id->longest_wait_ns ? wait : NULL);
	if (!id->longest_wait_ns)
		json_object_put(wait);
	return obj;
}

/* --report fairness: each cookie (or tag), the worst first, and the pairs. */
static json *fairness(const struct ca_audit *audit)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;
	const struct ca_fair_identity **ids = ca_report_sorted_identities(audit);
	const struct ca_fair_pair **pairs = ca_report_sorted_pairs(audit);
	json *obj = json_object_new_object(), *list = json_object_new_array();
	json *pair_list = json_object_new_array();

	put(obj, "unknown_ns", u64(fair->unknown_ns));
	put(obj, "max_unfairness_pct", fair->max_unfairness_pct >= 0 ?
	    real(fair->max_unfairness_pct, 2) : NULL);
	put(obj, "findings", u64(fair->finding_count));
	for (size_t i = 0; ids && i < fair->identity_count; i++)
		if (ids[i]->competed_ns)
			json_object_array_add(list, fair_identity(audit, ids[i]));
	for (size_t i = 0; pairs && i < fair->pair_count; i++) {
		json *p = json_object_new_object(), *w = json_object_new_object();
		json *r = json_object_new_object();

		put_identity(w, audit, fair->identities[pairs[i]->waiting].value);
		put_identity(r, audit, fair->identities[pairs[i]->running].value);
		put(p, "waiting", w);
		put(p, "running", r);
		put(p, "waited_ns", u64(pairs[i]->waited_ns));
		json_object_array_add(pair_list, p);
	}
	free(ids);
	free(pairs);
	put(obj, "identities", list);
	put(obj, "pairs", pair_list);
	return obj;
}

/* What the kernel ran for: {"interrupt": true}, or the syscall's task's identity. */
static void put_inside(json *obj, const struct ca_audit *audit, bool is_interrupt, uint64_t inside)
{
	if (is_interrupt)
		put(obj, "interrupt", json_object_new_boolean(1));
	else
		put_identity(obj, audit, inside);
}

/* Nanoseconds by what the kernel was entered for: {"syscall": .., "irq": .., "softirq": ..}. */
static json *by_kernel_what(const uint64_t *ns)
{
	json *obj = json_object_new_object();

	for (int what = 0; what < CA_KERNEL_WHAT_COUNT; what++)
		put(obj, ca_report_kernel_what(what), u64(ns[what]));
	return obj;
}

static json *exposure_window(const struct ca_audit *audit, const struct ca_exposure_window *w)
{
	json *obj = json_object_new_object(), *in = json_object_new_object();
	json *beside = json_object_new_object();

	put(in, "cpu", json_object_new_int(w->cpu));
	put(in, "pid", json_object_new_int(w->pid));
	put_inside(in, audit, w->is_interrupt, w->inside);
	put(beside, "cpu", json_object_new_int(w->beside_cpu));
	put(beside, "pid", json_object_new_int(w->beside_pid));
	put_identity(beside, audit, w->beside);
	put(obj, "start_ns", u64(w->start));
	put(obj, "length_ns", u64(w->end - w->start));
	put(obj, "in", str(ca_report_kernel_what(w->what)));
	put(obj, "number", json_object_new_int64(w->number));
	put(obj, "inside", in);
	put(obj, "beside", beside);
	return obj;
}

/* --report exposure: the kernel entered for one identity beside another's task. */
static json *exposure(const struct ca_audit *audit)
{
	const struct ca_exposure *exp = &audit->pipeline->exposure;
	const struct ca_exposure_pair **pairs = ca_report_sorted_exposure(audit);
	json *obj = json_object_new_object(), *list = json_object_new_array();
	json *windows = json_object_new_array();

	put(obj, "measured", json_object_new_boolean(audit->info.has_kernel_events));
	put(obj, "events", u64(exp->events));
	put(obj, "in_kernel_ns", by_kernel_what(exp->in_kernel_ns));
	put(obj, "exposed_ns", by_kernel_what(exp->exposed_ns));
	put(obj, "unknown_ns", u64(exp->unknown_ns));
	for (size_t i = 0; pairs && i < exp->pair_count; i++) {
		json *p = json_object_new_object(), *in = json_object_new_object();
		json *beside = json_object_new_object();

		put_inside(in, audit, pairs[i]->is_interrupt, pairs[i]->inside);
		put_identity(beside, audit, pairs[i]->beside);
		put(p, "inside", in);
		put(p, "beside", beside);
		put(p, "total_ns", u64(pairs[i]->total_ns));
		put(p, "by_kind_ns", by_kernel_what(pairs[i]->ns));
		json_object_array_add(list, p);
	}
	free(pairs);
	for (size_t i = 0; i < exp->listed; i++)
		json_object_array_add(windows, exposure_window(audit, &exp->list[i]));
	put(obj, "pairs", list);
	put(obj, "window_count", u64(exp->window_count));
	put(obj, "windows", windows);
	return obj;
}

void ca_report_json(FILE *out, const struct ca_audit *audit, const struct ca_report_options *opts)
{
	json *root = json_object_new_object();

	(void)opts;
	put(root, "version", json_object_new_int(SCHEMA_VERSION));
	put(root, "trace", trace(audit));
	put_verdict(root, audit);
	put_violations(root, audit);
	put(root, "windows", windows(audit));
	put(root, "forced_idle", forced_idle(audit));
	put(root, "reselect", reselect(audit));
	put(root, "inversion", owed(&audit->pipeline->inversion));
	put(root, "unjustified", owed(&audit->pipeline->unjust));
	put(root, "accounting", accounting(&audit->pipeline->accounting));
	if (audit->pipeline->has_capacity)
		put(root, "capacity", capacity(audit));
	if (audit->pipeline->has_fairness)
		put(root, "fairness", fairness(audit));
	if (audit->pipeline->has_exposure)
		put(root, "exposure", exposure(audit));
	if (audit->pipeline->has_rules)
		put(root, "rules", rules(audit));
	if (audit->pipeline->has_baseline)
		put(root, "baseline", baseline(&audit->pipeline->baseline));
	if (audit->pipeline->explain.is_asked)
		put(root, "explain", explain(audit));
	print(out, root);
}
