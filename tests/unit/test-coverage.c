/*
 * test-coverage.c - where a CPU was observed: CPUs the trace never shows,
 * streams that go silent while other CPUs need them, gaps and unreadable
 * data; each with the exact verdict, reason and observed share.
 */
#include <stdio.h>
#include <string.h>

#include "sources/stream.h"
#include "scenario.h"

/* 100 and 200 share cookie 7 on CPUs 0 and 1 for 10 ms. */
static void two_task_trace(struct trace_text *t)
{
	sc_switch(t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(t, 1, T0 + 10 * MS, 200, "S", 0, true, 7, 0);
}

START_TEST(test_all_observed_passes)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	two_task_trace(&t);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_double_eq(audit.observed_pct, 100.0);
	ck_assert_uint_eq(audit.unobserved_ns, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* The topology names CPUs 2 and 3; the trace never shows them (README's -t on a 2-CPU trace). */
START_TEST(test_cpus_never_seen)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	two_task_trace(&t);
	test_options(&opts, "0,1 2,3");
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_str_eq(audit.reasons[0], "CPUs 2,3, named by the topology, show no event: "
			 "unobserved over the whole span (the trace holds events of CPUs 0,1 "
			 "only: check the topology; an idle CPU shows none either: coreaudit "
			 "record makes each show its state at the start)");
	ck_assert_double_eq(audit.observed_pct, 50.0);
	ck_assert_uint_eq(audit.unobserved_ns, 2 * 10 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* `trace-cmd report --cpu 0` of a two-CPU trace: CPU 1 never shows. */
START_TEST(test_one_cpu_of_two)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_wakeup(&t, 0, T0 + 1 * MS, 100, 200, 1);
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_str_eq(audit.reasons[0], "CPU 1, named by the topology, shows no event: "
			 "unobserved over the whole span (the trace holds events of CPU 0 only: "
			 "check the topology; an idle CPU shows none either: coreaudit record "
			 "makes each show its state at the start)");
	ck_assert_double_eq(audit.observed_pct, 50.0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * CPU 1's events stop at 1 ms while CPU 0 goes on, sending it reschedule
 * IPIs and waking a task onto it.  What CPU 1 was believed to run (200,
 * cookie 7) beside 300 (cookie 9) from 150 ms on is not known: the window is
 * unknown, not a violation, and the verdict inconclusive.
 */
START_TEST(test_cut_stream_is_unobserved)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_ipi(&t, 0, T0 + 20 * MS, 100, 1);
	sc_wakeup(&t, 0, T0 + 30 * MS, 100, 400, 1);
	sc_ipi(&t, 0, T0 + 40 * MS, 100, 1);
	sc_switch(&t, 0, T0 + 150 * MS, 100, "S", 300, true, 7, 9);
	sc_switch(&t, 0, T0 + 300 * MS, 300, "S", 0, true, 9, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_str_eq(audit.reasons[0], "CPU 1 shows no event from 1.001000000 s to the end "
			 "(299.000ms) while other CPUs aimed 2 IPIs, 1 wakeup and 0 migrations at "
			 "it: its events are missing (a cut or damaged trace), unobserved there");
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_VIOLATION].count, 0);
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_UNKNOWN].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_UNKNOWN].total, 150 * MS);
	ck_assert_uint_eq(audit.unobserved_ns, 299 * MS);
	ck_assert_double_eq_tol(audit.observed_pct, 50.1667, 0.0001);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* An idle CPU that answers its IPI 60 ms later was observed: within the response bound. */
START_TEST(test_slow_answer_within_bound)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 200, "S", 0, true, 7, 0);
	sc_ipi(&t, 0, T0 + 10 * MS, 100, 1);
	sc_switch(&t, 1, T0 + 70 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(&t, 0, T0 + 80 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 90 * MS, 200, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.unobserved_ns, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Silent 199 ms in the middle with a wakeup aimed at it: unobserved from its last event. */
START_TEST(test_silence_in_the_middle)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 200, "S", 0, true, 7, 0);
	sc_wakeup(&t, 0, T0 + 10 * MS, 100, 200, 1);
	sc_switch(&t, 1, T0 + 200 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(&t, 0, T0 + 210 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 220 * MS, 200, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_str_eq(audit.reasons[0], "CPU 1 shows no event from 1.001000000 s to "
			 "1.200000000 s (199.000ms) while other CPUs aimed 0 IPIs, 1 wakeup and 0 "
			 "migrations at it: its events are missing (a cut or damaged trace), "
			 "unobserved there");
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].coverage.why_ns[CA_UNOBSERVED_SILENT], 199 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * A window of different cookies across a lost-events gap on CPU 1: known up
 * to CPU 1's last event before the gap (a 1 ms violation), unknown after.
 */
START_TEST(test_window_across_lost_gap)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 8);
	sc_switch(&t, 1, T0 + 2 * MS, 200, "R", 200, false, 0, 0);
	trace_raw(&t, "CPU:1 [5 EVENTS DROPPED]");
	sc_switch(&t, 1, T0 + 20 * MS, 200, "S", 0, true, 8, 0);
	sc_switch(&t, 0, T0 + 30 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, "0,1");
	opts.grace_ns = 500 * US;
	opts.has_grace = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_VIOLATION].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_VIOLATION].total, 1 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_UNKNOWN].total, 18 * MS);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].coverage.why_ns[CA_UNOBSERVED_LOST], 18 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A source of hand-made events, for what report text cannot say (unreadable data). */
struct fake_source {
	const struct ca_event *events;
	int count;
};

static int fake_read(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	const struct fake_source *fake = source->priv;
	int ret = 0;

	for (int i = 0; i < fake->count && !ret; i++)
		ret = fn(ctx, &fake->events[i]);
	return ret;
}

static enum ca_result audit_events(struct ca_audit *audit, const struct ca_event *events,
				      int count)
{
	struct fake_source fake = { events, count };
	struct ca_source source = { .path = "fake", .read = fake_read, .priv = &fake,
				    .info = { .format = "trace.dat", .clock = "mono" } };
	struct ca_audit_options opts;

	test_options(&opts, NULL);
	opts.path = "fake";
	opts.assume_unknown_cookie_zero = true;
	ck_assert_int_eq(ca_audit_begin(audit, &opts), CA_RESULT_PASS);
	return ca_audit_feed(audit, &source);
}

static struct ca_event sw(int cpu, uint64_t ts, int prev, int next)
{
	return (struct ca_event){ .ts = ts, .cpu = cpu, .pid = prev, .kind = CA_EV_SWITCH,
				  .sw = { .prev_pid = prev, .next_pid = next } };
}

static struct ca_event damage(int cpu, uint64_t ts, uint64_t offset, bool is_end)
{
	return (struct ca_event){ .ts = ts, .cpu = cpu, .pid = -1, .kind = CA_EV_LOST,
				  .lost = { .count = -1, .is_damage = true, .is_stream_end = is_end,
					    .offset = offset, .bytes = 4096 } };
}

START_TEST(test_damaged_page_skipped)
{
	const struct ca_event events[] = {
		sw(0, T0, 0, 100), sw(1, T0 + 1 * MS, 0, 200),
		damage(1, T0 + 50 * MS, 81920, false), sw(1, T0 + 50 * MS, 200, 0),
		sw(0, T0 + 60 * MS, 100, 0),
	};
	struct ca_audit audit;

	ck_assert_int_eq(audit_events(&audit, events, 5), CA_RESULT_INCONCLUSIVE);
	ck_assert_str_eq(audit.reasons[0], "CPU 1: unreadable data at file offset 81920 (4096 "
			 "bytes) skipped (1 place on this CPU): what ran from 1.001000000 s to "
			 "1.050000000 s is unknown");
	ck_assert_uint_eq(audit.lost_events, 0);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].damaged_places, 1);
	ck_assert_uint_eq(audit.unobserved_ns, 49 * MS);
	ca_audit_free(&audit);
}
END_TEST

START_TEST(test_stream_ends_in_damage)
{
	const struct ca_event events[] = {
		sw(0, T0, 0, 100), sw(1, T0 + 1 * MS, 0, 200), damage(1, T0 + 1 * MS, 8192, true),
		sw(0, T0 + 60 * MS, 100, 0), sw(0, T0 + 101 * MS, 0, 100),
	};
	struct ca_audit audit;

	ck_assert_int_eq(audit_events(&audit, events, 5), CA_RESULT_INCONCLUSIVE);
	ck_assert_str_eq(audit.reasons[0], "CPU 1: its data ends in unreadable data at file "
			 "offset 8192: unobserved from 1.001000000 s to the end (100.000ms)");
	ck_assert_uint_eq(audit.unobserved_ns, 100 * MS);
	ca_audit_free(&audit);
}
END_TEST

/* --topology against the trace's marker: a warning when they differ, none when they agree. */
START_TEST(test_topology_option_against_marker)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_marker(&t, 0, T0 - 1 * MS, 0, "coreaudit-topology 0-1");
	two_task_trace(&t);
	test_options(&opts, "0 1");
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	/* and: text has no clock, no ipi events, no wakeup events */
	ck_assert_int_eq(audit.warning_count, 4);
	ck_assert_str_eq(audit.warnings[1], "--topology \"0 1\" differs from the trace's "
			 "coreaudit-topology marker \"0-1\": the option is used (without it, the "
			 "marker would be)");
	ck_assert_str_eq(audit.reasons[0], "the topology \"0 1\" puts every CPU in a core of its "
			 "own: no SMT siblings to compare (give the siblings of each core, e.g. "
			 "\"0,1 2,3\")");
	ck_assert(audit.is_topology_from_option);
	ca_audit_free(&audit);
	test_options(&opts, "1,0");
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_int_eq(audit.warning_count, 3);
	ck_assert_str_eq(audit.topology_marker, "0-1");
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* One late-start trace: how CPU1 first shows, and what the trace records. */
struct late_case {
	uint64_t lead;		/* CPU1's first event, after the start */
	int first_pid;		/* running before it; 0: idle */
	bool is_tick_first;	/* its first event is its tick */
	bool has_tick_timers;	/* the tick's hrtimer recorded too: the period is told */
	bool is_lost_first;	/* events lost on CPU1 before its first */
};

/*
 * CPU0 runs 100 and ticks every 4 ms; CPU1 first shows @c->lead into the
 * trace.  A CPU that runs a task ticks too: silent from the start longer
 * than two periods and a quarter (15 ms while the period is unknown), its
 * recording began late, and what it ran there is not known; unless its first
 * event is the overdue tick of a vCPU the host had stopped, or the head is
 * already unobserved for another reason.
 */
static enum ca_result audit_late_cpu(struct ca_audit *audit, const struct late_case *c)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;
	uint64_t tick = T0 + 2 * MS;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_ipi(&t, 0, T0 + 100 * US, 100, 0);	/* ipi events: causes, and a tick period, are told */
	sc_wakeup(&t, 0, T0 + 200 * US, 100, 100, 0);
	for (; tick < T0 + 40 * MS; tick += 4 * MS) {
		if (tick >= T0 + c->lead && tick - 4 * MS < T0 + c->lead) {
			if (c->is_lost_first)
				trace_raw(&t, "CPU:1 [5 EVENTS DROPPED]");
			if (c->first_pid && c->is_tick_first)
				sc_tick(&t, 1, T0 + c->lead, c->first_pid);
			sc_switch(&t, 1, T0 + c->lead + 10 * US, c->first_pid, c->first_pid ? "S" : "R",
				  c->first_pid ? 0 : 200, true, 7, 7);
		}
		sc_tick(&t, 0, tick, 100);
		if (c->has_tick_timers)
			sc_tick_timer(&t, 0, tick + 5 * US, 100);
	}
	sc_switch(&t, 0, T0 + 40 * MS, 100, "S", 0, true, 7, 0);
	if (!c->first_pid)
		sc_switch(&t, 1, T0 + 40 * MS + 1 * US, 200, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	result = audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

START_TEST(test_late_start_of_a_running_cpu)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_late_cpu(&audit, &(struct late_case){ 33 * MS, 200, false, true,
								    false }),
			 CA_RESULT_INCONCLUSIVE);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_str_eq(audit.reasons[0], "CPU 1 silent until 1.033010000 s (33.010ms into the "
			 "span) though running pid 200 and ticks are recorded (every 4.000ms): its "
			 "recording began late (record -m, or an overwritten buffer)");
	ck_assert_int_eq(audit.unobserved_cpus, 1);
	ck_assert_uint_eq(audit.unobserved_ns, 33 * MS + 10 * US);
	ca_audit_free(&audit);
}
END_TEST

/* What stays observed: a head a tick may explain, an idle CPU, a stopped vCPU's tick. */
static const struct {
	struct late_case c;
	enum ca_result result;
	uint64_t unobserved_ns;
	bool is_late_named;	/* a reason says its recording began late */
} late_rows[] = {
	/* within 30 ms, the least bound (a stopped vCPU may take 17 ms, and no tick first) */
	{ { 25 * MS, 200, false, true, false }, CA_RESULT_PASS, 0, false },
	/* timer interrupts alone: the period is not told; the bound is 30 ms all the same */
	{ { 33 * MS, 200, false, false, false }, CA_RESULT_INCONCLUSIVE, 33 * MS + 10 * US, true },
	/* first seen idle: an idle CPU takes no tick (nohz), its silence is its state */
	{ { 33 * MS, 0, false, true, false }, CA_RESULT_PASS, 0, false },
	/* first seen taking its tick, overdue: a stopped vCPU resuming, its task its own */
	{ { 33 * MS, 200, true, true, false }, CA_RESULT_PASS, 0, false },
	/* lost events before it: that reason covers the head, counted once */
	{ { 33 * MS, 200, false, true, true }, CA_RESULT_INCONCLUSIVE, 33 * MS + 10 * US, false },
};

START_TEST(test_late_start_rows)
{
	struct ca_audit audit;
	bool is_late_named = false;

	ck_assert_int_eq(audit_late_cpu(&audit, &late_rows[_i].c), late_rows[_i].result);
	ck_assert_uint_eq(audit.unobserved_ns, late_rows[_i].unobserved_ns);
	for (int r = 0; r < audit.reason_count; r++)
		is_late_named |= strstr(audit.reasons[r], "recording began late") != NULL;
	ck_assert_int_eq(is_late_named, late_rows[_i].is_late_named);
	ca_audit_free(&audit);
}
END_TEST

/*
 * CPU1 runs 200 (@is_busy; else goes idle) and its events stop @last into
 * the trace, while CPU0 runs 100 and ticks every 4 ms to 60 ms; the audit
 * ends @to_ms into it (0: the trace's end).  A running CPU's stream that
 * stops longer before the end than it goes without a tick stopped being
 * recorded; idle, or cut by --to, its silence is no loss.
 */
static enum ca_result audit_early_end(struct ca_audit *audit, uint64_t last, bool is_busy,
				      int to_ms)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * US, 0, "R", 200, true, 0, 7);
	sc_ipi(&t, 0, T0 + 100 * US, 100, 0);
	sc_wakeup(&t, 0, T0 + 200 * US, 100, 100, 0);
	for (uint64_t tick = T0 + 2 * MS; tick < T0 + 60 * MS; tick += 4 * MS) {
		sc_tick(&t, 0, tick, 100);
		if (tick < T0 + last)
			sc_tick_timer(&t, 1, tick + 1 * US, 200);
		if (tick < T0 + last && tick + 4 * MS >= T0 + last && !is_busy)
			sc_switch(&t, 1, tick + 2 * US, 200, "S", 0, true, 7, 0);
		sc_tick_timer(&t, 0, tick + 5 * US, 100);
	}
	sc_switch(&t, 0, T0 + 60 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	if (to_ms)
		opts.to = (struct ca_time_bound){ .is_set = true, .is_relative = true,
						  .ns = (uint64_t)to_ms * MS };
	result = audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

START_TEST(test_early_end_of_a_running_cpu)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_early_end(&audit, 20 * MS, true, 0), CA_RESULT_INCONCLUSIVE);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_str_eq(audit.reasons[0], "CPU 1 silent from 1.018001000 s to the end (41.999ms) "
			 "though running pid 200 and ticks are recorded (every 4.000ms): its "
			 "recording stopped early (a full buffer, or its data cut)");
	ck_assert_uint_eq(audit.unobserved_ns, 41999 * US);
	ca_audit_free(&audit);
	/* Idle at its last event: an idle CPU takes no tick (nohz), its silence is its state. */
	ck_assert_int_eq(audit_early_end(&audit, 20 * MS, false, 0), CA_RESULT_PASS);
	ca_audit_free(&audit);
	/* Within 30 ms of the end: a stopped vCPU may take that long. */
	ck_assert_int_eq(audit_early_end(&audit, 36 * MS, true, 0), CA_RESULT_PASS);
	ca_audit_free(&audit);
	/* --to before the trace's end: CPU1's silence runs on past it, not judged here. */
	ck_assert_int_eq(audit_early_end(&audit, 20 * MS, true, 55), CA_RESULT_PASS);
	ca_audit_free(&audit);
}
END_TEST

/*
 * CPU1 runs 200 and ticks every 4 ms, then shows nothing for @quiet and comes
 * back with a switch (or, @is_tick_back, its tick first: a stopped vCPU).
 * Running with ticks recorded, over 100 ms silent and not back by a tick: its
 * events there are missing.
 */
static enum ca_result audit_quiet(struct ca_audit *audit, uint64_t quiet, bool is_tick_back)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;
	uint64_t back = T0 + 10 * MS + quiet;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * US, 0, "R", 200, true, 0, 7);
	sc_ipi(&t, 0, T0 + 100 * US, 100, 0);
	sc_wakeup(&t, 0, T0 + 200 * US, 100, 100, 0);
	for (uint64_t tick = T0 + 2 * MS; tick < back; tick += 4 * MS) {
		sc_tick(&t, 0, tick, 100);
		if (tick < T0 + 10 * MS)
			sc_tick(&t, 1, tick + 1 * US, 200);
	}
	if (is_tick_back)
		sc_tick(&t, 1, back + 1 * MS, 200);
	sc_switch(&t, 1, back + 1 * MS + 10 * US, 200, "S", 0, true, 7, 0);
	sc_tick(&t, 0, back + 2 * MS, 100);
	sc_switch(&t, 0, back + 20 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	result = audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

START_TEST(test_quiet_while_running)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_quiet(&audit, 120 * MS, false), CA_RESULT_INCONCLUSIVE);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_ptr_nonnull(strstr(audit.reasons[0], "CPU 1 shows no event from 1.006001000 s to "
				     "1.131010000 s (125.009ms) though it ran a task and ticks are "
				     "recorded: its events there are missing (1 place)"));
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].coverage.why_ns[CA_UNOBSERVED_QUIET],
			  125009 * US);
	ca_audit_free(&audit);
	/* Back with its overdue tick: a stopped vCPU, its task its own. */
	ck_assert_int_eq(audit_quiet(&audit, 120 * MS, true), CA_RESULT_PASS);
	ca_audit_free(&audit);
	/* 80 ms: within what a stopped vCPU may take. */
	ck_assert_int_eq(audit_quiet(&audit, 80 * MS, false), CA_RESULT_PASS);
	ca_audit_free(&audit);
}
END_TEST

Suite *coverage_suite(void)
{
	Suite *s = suite_create("coverage");
	TCase *tc = tcase_create("coverage");

	tcase_add_test(tc, test_all_observed_passes);
	tcase_add_test(tc, test_cpus_never_seen);
	tcase_add_test(tc, test_one_cpu_of_two);
	tcase_add_test(tc, test_cut_stream_is_unobserved);
	tcase_add_test(tc, test_slow_answer_within_bound);
	tcase_add_test(tc, test_silence_in_the_middle);
	tcase_add_test(tc, test_window_across_lost_gap);
	tcase_add_test(tc, test_damaged_page_skipped);
	tcase_add_test(tc, test_stream_ends_in_damage);
	tcase_add_test(tc, test_topology_option_against_marker);
	tcase_add_test(tc, test_late_start_of_a_running_cpu);
	tcase_add_test(tc, test_early_end_of_a_running_cpu);
	tcase_add_test(tc, test_quiet_while_running);
	tcase_add_loop_test(tc, test_late_start_rows, 0, sizeof(late_rows) / sizeof(late_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}
