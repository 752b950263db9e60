/*
 * observed.c - the audit's word on coverage: how much of the span every CPU
 * of every audited core was observed over (coverage.h says what observed
 * means), and, for each way a CPU went unobserved, one reason naming the
 * CPU, the time and what to do.  A verdict over unobserved time is never a
 * pass.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "observed.h"

#define D(ns, buf) ca_format_duration((ns), (buf), sizeof(buf))
#define S(count) ((count) == 1 ? "" : "s")

/* Whether @cpu is one of the audited cores' CPUs. */
static bool is_audited(const struct ca_state *state, int cpu)
{
	return cpu < state->topo.cpu_count && state->topo.core_of_cpu[cpu] >= 0;
}

/*
 * The tick period, from the tick timer's own expiries (hrtimer_expire_entry
 * of tick_*), from as few as PERIOD_INTERVALS intervals (a short trace has
 * few); 0 when not known.  Not from timer interrupts: other timers make them
 * more frequent than the tick, and the bound below too short.
 */
#define PERIOD_INTERVALS 4

static uint64_t tick_period(const struct ca_audit *audit)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;

	return iso->has_causes ? ca_causes_tick_timer_period(&iso->causes, PERIOD_INTERVALS) : 0;
}

/*
 * The longest a running CPU goes without an event at the span's edges: two
 * tick periods and a quarter, 15 ms while the period is not known, and never
 * under EDGE_MIN_NS: a vCPU the host stops can stay silent longer than a tick
 * and resume without its tick first (15-17 ms in the real SMT4 trace, once
 * inside __schedule).
 */
#define EDGE_MIN_NS 30000000ull

static uint64_t tick_bound(const struct ca_audit *audit)
{
	uint64_t period = tick_period(audit);
	uint64_t bound = period ? 2 * period + period / 4 : CA_TICK_WINDOW_MAX_NS;

	return bound > EDGE_MIN_NS ? bound : EDGE_MIN_NS;
}

/*
 * A CPU whose first event shows a task running, nothing before it in the
 * span saying what ran: its run is taken back to the span's start.  A CPU
 * that runs a task takes its tick every period (but on nohz_full CPUs), so
 * where the trace records ticks a longer silence from the start means its
 * recording began late (trace-cmd record -m keeps only each CPU's last
 * pages; a ring buffer overwritten before trace-cmd extract).  Longer:
 * tick_bound().  Unless that first event is a tick
 * within CA_RESPONSE_NS: a vCPU the host stopped from the start (the real
 * SMT4 traces under an overcommitted QEMU: 16 ms) resumes with its overdue
 * tick, the task still its own.  A head already unobserved (lost events or
 * damage before the first event, a silence the demand rule counts) is not
 * counted again.
 */
uint64_t ca_observed_late_start_ns(const struct ca_audit *audit, int cpu)
{
	const struct ca_state *state = &audit->pipeline->state;
	uint64_t bound = tick_bound(audit);
	const struct ca_cpu *c;
	uint64_t head;

	if (cpu < 0 || (size_t)cpu >= state->cpu_count || !state->has_tick_events ||
	    !state->ticks)
		return 0;
	c = &state->cpus[cpu];
	head = c->first_ts > state->first_ts ? c->first_ts - state->first_ts : 0;
	if (!c->has_first || !c->is_first_unknown || c->is_head_covered || c->first_pid <= 0 ||
	    head <= bound || (c->first_kind == CA_EV_TICK && head <= CA_RESPONSE_NS))
		return 0;
	if (c->coverage.why_count[CA_UNOBSERVED_SILENT] &&
	    c->coverage.longest[CA_UNOBSERVED_SILENT].from <= state->first_ts)
		return 0;
	return head;
}

/* Whether one of @cov's unobserved stretches runs to the end. */
static bool is_tail_unobserved(const struct ca_cpu_coverage *cov)
{
	for (int why = 0; why < CA_UNOBSERVED_WHY_COUNT; why++)
		if (cov->why_count[why] && cov->longest[why].is_to_end)
			return true;
	return false;
}

/*
 * The same at the end: a CPU last seen running a task, whose own stream
 * stops longer before the span's end than a running CPU goes without its
 * tick, stopped being recorded (a ring buffer that filled and dropped what
 * came after, its data cut).  Not when the span ends before the trace does
 * (--to: its next events lie past it), nor when its end is already
 * unobserved.  No stopped vCPU is excused here: no overdue tick follows.
 */
uint64_t ca_observed_early_end_ns(const struct ca_audit *audit, int cpu)
{
	const struct ca_state *state = &audit->pipeline->state;
	const struct ca_cpu *c;

	if (cpu < 0 || (size_t)cpu >= state->cpu_count || !state->has_tick_events ||
	    !state->ticks || audit->events_after)
		return 0;
	c = &state->cpus[cpu];
	if (!c->has_events || c->run != CA_CPU_TASK || c->pid <= 0 ||
	    c->last_ts + tick_bound(audit) >= state->last_ts || is_tail_unobserved(&c->coverage))
		return 0;
	return state->last_ts - c->last_ts;
}

uint64_t ca_observed_edges_ns(const struct ca_audit *audit, int cpu)
{
	return ca_observed_late_start_ns(audit, cpu) + ca_observed_early_end_ns(audit, cpu);
}

void ca_observed_sum(struct ca_audit *audit)
{
	const struct ca_state *state = &audit->pipeline->state;
	uint64_t span = state->last_ts - state->first_ts;
	uint64_t total = 0, unobserved = 0;

	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++) {
		const struct ca_cpu_coverage *cov = &state->cpus[cpu].coverage;
		uint64_t cpu_unobserved;

		if (!is_audited(state, cpu))
			continue;
		cpu_unobserved = cov->unobserved_ns + ca_observed_edges_ns(audit, cpu);
		total += span;
		unobserved += cpu_unobserved < span ? cpu_unobserved : span;
		audit->unobserved_cpus += cpu_unobserved > 0;
	}
	audit->unobserved_ns = unobserved;
	audit->observed_pct = total ? 100.0 * (double)(total - unobserved) / (double)total : 0;
}

/* "5.612345678 s", or "the end" for a stretch open until the trace ended. */
static const char *when(uint64_t ts, bool is_end, char *buf, size_t len)
{
	if (is_end)
		snprintf(buf, len, "the end");
	else
		strcat(ca_format_timestamp(ts, buf, len - 2), " s");
	return buf;
}

/* A CPU list being written, "0,1,4-9": runs of three or more as ranges. */
struct cpu_list {
	char *text;
	size_t len;
	size_t used;
	int first;	/* the run being gathered; -1 none */
	int last;
};

static void list_start(struct cpu_list *l, char *text, size_t len)
{
	*l = (struct cpu_list){ .text = text, .len = len, .first = -1, .last = -1 };
	text[0] = '\0';
}

static void list_flush(struct cpu_list *l)
{
	const char *sep = l->used ? "," : "";

	if (l->first < 0 || l->used >= l->len)
		return;
	if (l->last - l->first >= 2)
		l->used += snprintf(l->text + l->used, l->len - l->used, "%s%d-%d", sep, l->first,
				    l->last);
	else if (l->last > l->first)
		l->used += snprintf(l->text + l->used, l->len - l->used, "%s%d,%d", sep, l->first,
				    l->last);
	else
		l->used += snprintf(l->text + l->used, l->len - l->used, "%s%d", sep, l->first);
	l->first = -1;
}

/* @cpu, above every CPU added before. */
static void list_add(struct cpu_list *l, int cpu)
{
	if (l->first >= 0 && cpu == l->last + 1) {
		l->last = cpu;
		return;
	}
	list_flush(l);
	l->first = l->last = cpu;
}

/* The CPUs with time unobserved for @why, "2,3"; the longest stretch of them in *@worst. */
static int cpus_with(const struct ca_state *state, enum ca_unobserved_why why, char *text,
		     size_t len, const struct ca_cpu_coverage **worst, int *worst_cpu)
{
	struct cpu_list list;
	int count = 0;

	list_start(&list, text, len);
	*worst = NULL;
	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++) {
		const struct ca_cpu_coverage *cov = &state->cpus[cpu].coverage;

		if (!is_audited(state, cpu) || !cov->why_count[why])
			continue;
		count++;
		list_add(&list, cpu);
		if (!*worst || cov->why_ns[why] > (*worst)->why_ns[why]) {
			*worst = cov;
			*worst_cpu = cpu;
		}
	}
	list_flush(&list);
	return count;
}

/* The CPUs that show events at all: "0,1"; their count. */
static int cpus_seen(const struct ca_state *state, char *text, size_t len)
{
	struct cpu_list list;
	int count = 0;

	list_start(&list, text, len);
	for (int cpu = 0; cpu < (int)state->cpu_count; cpu++) {
		if (!state->cpus[cpu].has_events)
			continue;
		count++;
		list_add(&list, cpu);
	}
	list_flush(&list);
	return count;
}

static void judge_never_seen(struct ca_audit *audit)
{
	const struct ca_cpu_coverage *worst;
	struct ca_reason *reason;
	char list[128], seen[128];
	int cpu, seen_count, count = cpus_with(&audit->pipeline->state, CA_UNOBSERVED_NEVER_SEEN,
					       list, sizeof(list), &worst, &cpu);

	if (!count)
		return;
	seen_count = cpus_seen(&audit->pipeline->state, seen, sizeof(seen));
	reason = ca_audit_add_reason(audit, "CPU%s %s, named by the topology, show%s no event: unobserved "
			    "over the whole span (the trace holds events of CPU%s %s only: check "
			    "the topology; an idle CPU shows none either: coreaudit record makes "
			    "each show its state at the start)", count == 1 ? "" : "s", list, count == 1 ? "s" : "",
			    seen_count == 1 ? "" : "s", seen);
	ca_reason_measure(reason, "coverage", (double)worst->why_ns[CA_UNOBSERVED_NEVER_SEEN], "ns");
	reason->cpu = cpu;
}

/* " (and 2 more CPUs: 1.2s unobserved in all)" when more than one CPU had it. */
static const char *more(const struct ca_state *state, enum ca_unobserved_why why, int count,
			char *buf, size_t len)
{
	uint64_t total = 0;
	char d[32];

	buf[0] = '\0';
	if (count < 2)
		return buf;
	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++)
		total += is_audited(state, cpu) ? state->cpus[cpu].coverage.why_ns[why] : 0;
	snprintf(buf, len, " (and %d more CPU%s: %s unobserved in all)", count - 1,
		 count == 2 ? "" : "s", D(total, d));
	return buf;
}

static void judge_silent(struct ca_audit *audit)
{
	const struct ca_cpu_coverage *worst;
	const struct ca_stretch *s;
	struct ca_reason *reason;
	char list[128], from[40], to[40], d[32], tail[80];
	int cpu, count = cpus_with(&audit->pipeline->state, CA_UNOBSERVED_SILENT, list, sizeof(list),
				   &worst, &cpu);

	if (!count)
		return;
	s = &worst->longest[CA_UNOBSERVED_SILENT];
	reason = ca_audit_add_reason(audit, "CPU %d shows no event from %s to %s (%s) while other CPUs "
			    "aimed %u IPI%s, %u wakeup%s and %u migration%s at it: its events are "
			    "missing (a cut or damaged trace), unobserved there%s", cpu,
			    when(s->from, false, from, sizeof(from)),
			    when(s->to, s->is_to_end, to, sizeof(to)), D(s->to - s->from, d),
			    s->demands[CA_DEMAND_IPI], S(s->demands[CA_DEMAND_IPI]),
			    s->demands[CA_DEMAND_WAKEUP], S(s->demands[CA_DEMAND_WAKEUP]),
			    s->demands[CA_DEMAND_MIGRATION], S(s->demands[CA_DEMAND_MIGRATION]),
			    more(&audit->pipeline->state, CA_UNOBSERVED_SILENT, count, tail, sizeof(tail)));
	ca_reason_measure(reason, "coverage", (double)worst->why_ns[CA_UNOBSERVED_SILENT], "ns");
	reason->cpu = cpu;
}

static void judge_quiet(struct ca_audit *audit)
{
	const struct ca_cpu_coverage *worst;
	const struct ca_stretch *s;
	struct ca_reason *reason;
	char list[128], from[40], to[40], d[32], tail[80];
	int cpu, count = cpus_with(&audit->pipeline->state, CA_UNOBSERVED_QUIET, list, sizeof(list),
				   &worst, &cpu);

	if (!count)
		return;
	s = &worst->longest[CA_UNOBSERVED_QUIET];
	reason = ca_audit_add_reason(audit, "CPU %d shows no event from %s to %s (%s) though it ran "
			    "a task and ticks are recorded: its events there are missing (%u "
			    "place%s)%s", cpu, when(s->from, false, from, sizeof(from)),
			    when(s->to, false, to, sizeof(to)), D(s->to - s->from, d),
			    worst->why_count[CA_UNOBSERVED_QUIET],
			    worst->why_count[CA_UNOBSERVED_QUIET] == 1 ? "" : "s",
			    more(&audit->pipeline->state, CA_UNOBSERVED_QUIET, count, tail, sizeof(tail)));
	ca_reason_measure(reason, "coverage", (double)worst->why_ns[CA_UNOBSERVED_QUIET], "ns");
	reason->cpu = cpu;
}

static void judge_damage(struct ca_audit *audit)
{
	const struct ca_cpu_coverage *worst;
	const struct ca_stretch *s;
	struct ca_reason *reason;
	char list[128], from[40], to[40], bytes[40] = "", tail[80];
	int cpu, count = cpus_with(&audit->pipeline->state, CA_UNOBSERVED_DAMAGE, list, sizeof(list),
				   &worst, &cpu);

	if (!count)
		return;
	s = &worst->longest[CA_UNOBSERVED_DAMAGE];
	if (s->bytes)
		snprintf(bytes, sizeof(bytes), " (%" PRIu64 " bytes)", s->bytes);
	reason = ca_audit_add_reason(audit, "CPU %d: unreadable data at file offset %" PRIu64 "%s skipped "
			    "(%u place%s on this CPU): what ran from %s to %s is unknown%s", cpu,
			    s->offset, bytes, worst->why_count[CA_UNOBSERVED_DAMAGE],
			    worst->why_count[CA_UNOBSERVED_DAMAGE] == 1 ? "" : "s",
			    when(s->from, false, from, sizeof(from)),
			    when(s->to, false, to, sizeof(to)),
			    more(&audit->pipeline->state, CA_UNOBSERVED_DAMAGE, count, tail, sizeof(tail)));
	ca_reason_measure(reason, "coverage", (double)worst->why_ns[CA_UNOBSERVED_DAMAGE], "ns");
	reason->cpu = cpu;
}

static void judge_stream_end(struct ca_audit *audit)
{
	const struct ca_cpu_coverage *worst;
	const struct ca_stretch *s;
	struct ca_reason *reason;
	char list[128], from[40], d[32], tail[80];
	int cpu, count = cpus_with(&audit->pipeline->state, CA_UNOBSERVED_STREAM_END, list, sizeof(list),
				   &worst, &cpu);

	if (!count)
		return;
	s = &worst->longest[CA_UNOBSERVED_STREAM_END];
	reason = ca_audit_add_reason(audit, "CPU %d: its data ends in unreadable data at file offset %"
			    PRIu64 ": unobserved from %s to the end (%s)%s", cpu, s->offset,
			    when(s->from, false, from, sizeof(from)), D(s->to - s->from, d),
			    more(&audit->pipeline->state, CA_UNOBSERVED_STREAM_END, count, tail,
				 sizeof(tail)));
	ca_reason_measure(reason, "coverage", (double)worst->why_ns[CA_UNOBSERVED_STREAM_END], "ns");
	reason->cpu = cpu;
}

/* An edge of the span (@edge_ns) unobserved on CPUs: the worst CPU, their count and total. */
struct edge {
	int worst;	/* -1: none */
	int count;
	uint64_t worst_ns;
	uint64_t total_ns;
	char period[40];	/* " (every 4.000ms)", when the period is known */
	char others[48];	/* " (and 2 more CPUs alike)" */
};

static void find_edge(const struct ca_audit *audit,
		      uint64_t (*edge_ns)(const struct ca_audit *audit, int cpu), struct edge *e)
{
	const struct ca_state *state = &audit->pipeline->state;
	char d[32];

	*e = (struct edge){ .worst = -1 };
	for (int cpu = 0; cpu < state->topo.cpu_count; cpu++) {
		uint64_t ns = is_audited(state, cpu) ? edge_ns(audit, cpu) : 0;

		e->count += ns > 0;
		e->total_ns += ns;
		if (ns > e->worst_ns) {
			e->worst_ns = ns;
			e->worst = cpu;
		}
	}
	if (tick_period(audit))
		snprintf(e->period, sizeof(e->period), " (every %s)", D(tick_period(audit), d));
	if (e->count > 1)
		snprintf(e->others, sizeof(e->others), " (and %d more CPU%s alike)", e->count - 1,
			 e->count == 2 ? "" : "s");
}

static void judge_late_start(struct ca_audit *audit)
{
	const struct ca_cpu *c;
	struct ca_reason *reason;
	char d[32], first[40];
	struct edge e;

	find_edge(audit, ca_observed_late_start_ns, &e);
	if (e.worst < 0)
		return;
	c = &audit->pipeline->state.cpus[e.worst];
	reason = ca_audit_add_reason(audit, "CPU %d silent until %s (%s into the span) though "
			    "running pid %d and ticks are recorded%s: its recording began late "
			    "(record -m, or an overwritten buffer)%s", e.worst,
			    when(c->first_ts, false, first, sizeof(first)), D(e.worst_ns, d),
			    c->first_pid, e.period, e.others);
	ca_reason_measure(reason, "coverage", (double)e.total_ns, "ns");
	reason->cpu = e.worst;
}

static void judge_early_end(struct ca_audit *audit)
{
	const struct ca_cpu *c;
	struct ca_reason *reason;
	char d[32], last[40];
	struct edge e;

	find_edge(audit, ca_observed_early_end_ns, &e);
	if (e.worst < 0)
		return;
	c = &audit->pipeline->state.cpus[e.worst];
	reason = ca_audit_add_reason(audit, "CPU %d silent from %s to the end (%s) though running "
			    "pid %d and ticks are recorded%s: its recording stopped early (a full "
			    "buffer, or its data cut)%s", e.worst,
			    when(c->last_ts, false, last, sizeof(last)), D(e.worst_ns, d), c->pid,
			    e.period, e.others);
	ca_reason_measure(reason, "coverage", (double)e.total_ns, "ns");
	reason->cpu = e.worst;
}

void ca_observed_judge(struct ca_audit *audit)
{
	judge_never_seen(audit);
	judge_late_start(audit);
	judge_early_end(audit);
	judge_stream_end(audit);
	judge_damage(audit);
	judge_silent(audit);
	judge_quiet(audit);
}
