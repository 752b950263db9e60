/*
 * test-audit.c - whole audits: lost events, topology sources, and every kind
 * of bad input with its exit code and message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "scenario.h"

static void two_task_trace(struct trace_text *t)
{
	sc_switch(t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(t, 1, T0 + 10 * MS, 200, "S", 0, true, 7, 0);
}

/* A check whose finish meets an error (an allocation failed while closing its windows). */
static void finish_out_of_memory(struct ca_check *check, const struct ca_state *state,
				 uint64_t end_ts)
{
	(void)state;
	(void)end_ts;
	check->error = -ENOMEM;
}

/*
 * Any check's error reaches the caller, whichever check it is and whenever
 * it happens (during the trace or in finish); a check may leave any hook
 * NULL, finish included.
 */
START_TEST(test_check_errors_reach_the_caller)
{
	struct ca_check quiet = { .name = "quiet" };
	struct ca_check failing = { .name = "failing", .finish = finish_out_of_memory };
	struct ca_check early = { .name = "early", .error = -ERANGE };
	struct ca_topology topo;
	struct ca_state state;
	char err[100];

	ck_assert_int_eq(ca_topology_parse("0,1", &topo, err, sizeof(err)), 0);
	ck_assert_int_eq(ca_state_init(&state, &topo, 0, CA_IDENTITY_COOKIE), 0);
	ck_assert_int_eq(ca_state_add_check(&state, &quiet), 0);
	ck_assert_int_eq(ca_state_add_check(&state, &failing), 0);
	ck_assert_int_eq(ca_state_check_error(&state), 0);
	ck_assert_int_eq(ca_state_finish(&state), -ENOMEM);
	ck_assert_int_eq(ca_state_add_check(&state, &early), 0);
	ck_assert_int_eq(ca_state_check_error(&state), -ENOMEM);	/* the first one added */
	ca_state_free(&state);
	ca_topology_free(&topo);
}
END_TEST

/*
 * An IPI to a CPU mask is one event per target (CPUs 0 and 1 here), but one
 * send: counted once among the events and the reschedule IPIs; the target
 * past 64 of a wide mask is not lost.
 */
START_TEST(test_cpumask_ipi_counted_once)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	trace_line(&t, 0, "1.002000000", 100, "ipi_send_cpumask",
		   "cpumask=0-1 callsite=__schedule+0x759 callback=0x0");
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 10 * MS, 200, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	audit_text(&audit, &t, &opts);
	ck_assert_uint_eq(audit.resched_ipis, 1);
	ck_assert_uint_eq(audit.events, 5);	/* four switches and one send */
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_lost_events_inconclusive)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	trace_raw(&t, "CPU:0 [5 EVENTS DROPPED]");
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 10 * MS, 200, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.lost_events, 5);
	/* from CPU0's last event before the gap (its switch: paired probes are consumed) */
	ck_assert_uint_eq(audit.pipeline->state.cpus[0].lost_ns, 9 * MS);
	ck_assert_ptr_nonnull(strstr(audit.reasons[0], "5 events lost"));
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* CPU1's switch from idle to 200 is missing: 200's switch-out contradicts idle. */
START_TEST(test_missing_switch_inconclusive)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(&t, 1, T0 + 2 * MS, 200, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 5 * MS, 200, "S", 0, true, 7, 0);	/* believed idle */
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.missed_switches, 1);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].missed_switches, 1);
	ck_assert_ptr_nonnull(strstr(audit.reasons[0], "(CPU 1): sched_switch events are missing"));
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * 100 runs on CPU0 from T0 and is switched in on CPU1 at 2 ms: its switch out
 * of CPU0 is not in the trace.  What CPU0 ran from its last event (T0) to its
 * next (9 ms) is not known: a missed switch, that time unobserved (it was
 * unknown and counted as observed: a clean verdict was possible).
 */
START_TEST(test_task_taken_elsewhere_is_a_missed_switch)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(&t, 1, T0 + 2 * MS, 200, "S", 100, true, 7, 7);
	sc_switch(&t, 0, T0 + 9 * MS, 0, "R", 300, true, 0, 7);
	sc_switch(&t, 1, T0 + 10 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 0, T0 + 11 * MS, 300, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_msg(audit_text(&audit, &t, &opts) == CA_RESULT_INCONCLUSIVE, "%s", audit.error);
	ck_assert_uint_eq(audit.pipeline->state.cpus[0].missed_switches, 1);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].missed_switches, 0);
	ck_assert_uint_eq(audit.unobserved_ns, 9 * MS);
	ck_assert_ptr_nonnull(strstr(audit.reasons[0], "(CPU 0): sched_switch events are missing"));
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * CPU0's switch out of 100 comes after 100's switch in on CPU1 (clocks a
 * little apart, or the trace reordered): counted once, on CPU0, and 100 stays
 * on CPU1 (it is not taken back, so CPU1 counts nothing).
 */
START_TEST(test_late_switch_out_counts_once)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(&t, 1, T0 + 2 * MS, 200, "S", 100, true, 7, 7);
	sc_switch(&t, 0, T0 + 3 * MS, 100, "R", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 10 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_msg(audit_text(&audit, &t, &opts) == CA_RESULT_INCONCLUSIVE, "%s", audit.error);
	ck_assert_uint_eq(audit.pipeline->state.cpus[0].missed_switches, 1);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].missed_switches, 0);
	ck_assert_uint_eq(audit.unobserved_ns, 3 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * A coarse clock: 100's switch out of CPU1 and its switch in on CPU0 at the
 * same instant, merged by CPU number (in before out).  The trace is
 * consistent: nothing missed, 100 runs on CPU0 after.
 */
START_TEST(test_switch_in_and_out_at_one_instant)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 1, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 0, T0 + 1 * MS, 0, "R", 100, false, 0, 0);
	sc_switch(&t, 1, T0 + 1 * MS, 100, "R", 0, false, 0, 0);
	trace_line(&t, 0, "1.001000200", 100, "cs_switch",
		   "(ffffffff8106cbb7) prev_pid=0 prev_cookie=0 next_pid=100 next_cookie=7");
	trace_line(&t, 1, "1.001000200", 0, "cs_switch",
		   "(ffffffff8106cbb7) prev_pid=100 prev_cookie=7 next_pid=0 next_cookie=0");
	sc_switch(&t, 0, T0 + 5 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_msg(audit_text(&audit, &t, &opts) == CA_RESULT_PASS, "%s", audit.error);
	ck_assert_uint_eq(audit.pipeline->state.cpus[0].missed_switches, 0);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].missed_switches, 0);
	ck_assert_uint_eq(audit.unobserved_ns, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * A contradiction on CPU1 at 9 ms: what ran there after its last consistent
 * event (2 ms) is unknown.  The window 100|200 [1, 5] ms, closed before the
 * contradiction came, keeps [1, 2] as a violation; [2, 5] and 101|200 [5, 9]
 * become unknown.
 */
/* Events of the leaving task right after its switch come from inside __schedule. */
START_TEST(test_switch_tail_is_no_contradiction)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	sc_switch(&t, 1, T0 + 2 * MS, 200, "R", 0, false, 0, 0);
	sc_ipi(&t, 1, T0 + 2 * MS + 100, 200, 1);	/* irq_work in the tail: still 200 */
	sc_wakeup(&t, 1, T0 + 3 * MS, 0, 200, 1);	/* the idle task shows: tail over */
	sc_ipi(&t, 1, T0 + 4 * MS, 200, 0);		/* 200 again, but believed idle */
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.missed_switches, 1);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * A switch into idle missing (200 ==> swapper on CPU1 at 5 ms): CPU1's idle
 * task shows at 6 ms, long after 200's switch in, beside 100 of another
 * cookie on CPU0.  That is no tail of the switch in (microseconds): a switch
 * is missing, the window over it is not judged; it was a violation.
 */
START_TEST(test_idle_after_a_missing_switch_is_no_tail)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 1, T0, 0, "R", 300, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 300, "S", 200, true, 7, 7);
	sc_ipi(&t, 0, T0 + 2 * MS, 0, 0);
	sc_wakeup(&t, 0, T0 + 3 * MS, 0, 0, 1);
	sc_switch(&t, 0, T0 + 5 * MS + 100 * US, 0, "R", 100, true, 0, 9);
	sc_tick(&t, 1, T0 + 6 * MS, 0);		/* the idle task: 200 left unseen */
	sc_wakeup(&t, 1, T0 + 7 * MS, 0, 300, 1);
	sc_switch(&t, 1, T0 + 7 * MS + 50 * US, 0, "R", 300, true, 0, 7);
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 9, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.missed_switches, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.by_kind[CA_WINDOW_VIOLATION].count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A line that cannot be read hides what its CPU did between its neighbours. */
START_TEST(test_bad_line_is_damage_on_its_cpu)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 7);
	trace_raw(&t, "          task-200 [001] 1.004000000: sched_switch: garbled ==>");
	sc_switch(&t, 1, T0 + 8 * MS, 200, "S", 0, true, 7, 0);
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.info.bad_lines, 1);
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].coverage.why_ns[CA_UNOBSERVED_DAMAGE],
			  7 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* test_contradiction_splits_windows's findings as a watching program reads them. */
static void check_progress(const struct ca_audit *audit)
{
	struct ca_audit_progress so_far;
	struct ca_violation violation;
	size_t cursor = 0;

	ca_audit_progress(audit, &so_far);
	ck_assert(so_far.has_events);
	ck_assert_uint_eq(so_far.last_ts - so_far.first_ts, 12 * MS);
	ck_assert_int_eq(so_far.cpu_count, 2);
	ck_assert_uint_eq(so_far.violation_windows, 2);
	ck_assert_uint_eq(so_far.unknown_windows, 2);
	ck_assert_uint_eq(so_far.missed_switches, 1);
	ck_assert(ca_audit_next_violation(audit, &cursor, &violation));
	ck_assert_uint_eq(violation.end_ns - violation.start_ns, 1 * MS);
	ck_assert_int_eq(violation.core, 0);
	ck_assert_int_eq(violation.pids[0] + violation.pids[1], 100 + 200);
	ck_assert_str_eq(violation.cause, "unknown");
	ck_assert(ca_audit_next_violation(audit, &cursor, &violation));
	ck_assert_int_eq(violation.pids[0] + violation.pids[1], 101 + 300);
	ck_assert(!ca_audit_next_violation(audit, &cursor, &violation));
	ck_assert_uint_eq(cursor, audit->pipeline->isolation.list_count);
}

START_TEST(test_contradiction_splits_windows)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 9);
	sc_wakeup(&t, 1, T0 + 2 * MS, 200, 500, 1);
	sc_switch(&t, 0, T0 + 5 * MS, 100, "R", 101, true, 7, 7);
	sc_wakeup(&t, 1, T0 + 9 * MS, 300, 500, 1);	/* 300 is current: contradiction */
	sc_switch(&t, 1, T0 + 10 * MS, 300, "S", 0, true, 9, 0);
	sc_switch(&t, 0, T0 + 12 * MS, 101, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	opts.grace_ns = 500 * US;
	opts.has_grace = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.missed_switches, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 2);
	/* [1, 2] ms 100|200, and 101|300 [9, 10] ms after the contradiction */
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].total_ns, 2 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_UNKNOWN].count, 2);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_UNKNOWN].total_ns, 7 * MS);
	check_progress(&audit);
	ca_audit_free(&audit);
	ca_audit_free(&audit);	/* twice: nothing left to free */
	trace_free(&t);
}
END_TEST

/* What a program watching an audit reads (ca_audit_progress), before it begins too. */
START_TEST(test_progress_before_begin)
{
	struct ca_audit audit = { 0 };
	struct ca_audit_progress so_far;
	struct ca_violation violation;
	size_t cursor = 0;

	ca_audit_progress(&audit, &so_far);
	ck_assert(!so_far.has_events);
	ck_assert_uint_eq(so_far.windows, 0);
	ck_assert(!ca_audit_next_violation(&audit, &cursor, &violation));
	ck_assert_uint_eq(cursor, 0);
	ca_audit_free(&audit);
}
END_TEST

START_TEST(test_topology_from_marker)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_marker(&t, 0, T0 - 1 * MS, 0, "coreaudit-topology 0,1");
	two_task_trace(&t);
	ca_audit_options_default(&opts);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_int_eq(audit.pipeline->state.topo.core_count, 1);
	ck_assert_int_eq(audit.pipeline->state.topo.sibling_count[0], 2);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

static const struct {
	const char *name;
	const char *first_line;	/* prepended to a good trace */
	bool has_topology;
	enum ca_result code;
	const char *message;
} bad_rows[] = {
	{ "no topology", NULL, false, CA_RESULT_BAD_INPUT, "no CPU topology" },
	{ "bad topology marker", "  t-1 [000] 0.5: print: tracing_mark_write: coreaudit-topology 0,,1",
	  false, CA_RESULT_BAD_INPUT, "bad coreaudit-topology marker" },
	{ "CPU outside topology", "  t-1 [002] 0.5: sched_wakeup: a:9 [120] CPU:002", true,
	  CA_RESULT_BAD_OPTIONS, "events on CPU 2, which the topology \"0,1\" does not name" },
	{ "backwards", "  t-1 [000] 9.5: sched_wakeup: a:9 [120] CPU:000", true, CA_RESULT_BAD_INPUT,
	  "timestamp goes backwards" },
};

START_TEST(test_bad_input_rows)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	if (bad_rows[_i].first_line)
		trace_raw(&t, bad_rows[_i].first_line);
	two_task_trace(&t);
	test_options(&opts, NULL);
	opts.has_topology = bad_rows[_i].has_topology;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), bad_rows[_i].code);
	ck_assert_msg(strstr(audit.error, bad_rows[_i].message), "%s: error \"%s\"",
		      bad_rows[_i].name, audit.error);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

static enum ca_result audit_bytes(struct ca_audit *audit, const void *bytes, size_t len)
{
	char path[] = "/tmp/coreaudit-test-XXXXXX";
	int fd = mkstemp(path);
	struct ca_audit_options opts;
	enum ca_result code;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, bytes, len), (ssize_t)len);
	close(fd);
	test_options(&opts, NULL);
	opts.path = path;
	code = ca_audit_run(audit, &opts);
	unlink(path);
	return code;
}

START_TEST(test_wrong_files)
{
	static const unsigned char binary[] = { 0x7f, 'E', 'L', 'F', 0, 1, 2, 3 };
	static const char words[] = "hello\nthis is not a trace\n";
	static const char magic_only[] = "\027\010\104tracing6\0";
	struct ca_audit_options opts;
	struct ca_audit audit;

	ck_assert_int_eq(audit_bytes(&audit, binary, sizeof(binary)), CA_RESULT_BAD_INPUT);
	ck_assert_ptr_nonnull(strstr(audit.error, "unrecognised format"));
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_bytes(&audit, "", 0), CA_RESULT_BAD_INPUT);
	ck_assert_ptr_nonnull(strstr(audit.error, "empty file"));
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_bytes(&audit, words, strlen(words)), CA_RESULT_BAD_INPUT);
	ck_assert_ptr_nonnull(strstr(audit.error, ":1: not trace-cmd report text: \"hello\""));
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_bytes(&audit, magic_only, sizeof(magic_only)), CA_RESULT_BAD_INPUT);
	ck_assert_ptr_nonnull(strstr(audit.error, "trace.dat"));
	ca_audit_free(&audit);

	test_options(&opts, NULL);
	opts.path = "/nonexistent/trace.dat";
	ck_assert_int_eq(ca_audit_run(&audit, &opts), CA_RESULT_BAD_INPUT);
	ck_assert_str_eq(audit.error, "/nonexistent/trace.dat: No such file or directory");
	ca_audit_free(&audit);
}
END_TEST

/* Trace clocks by what they count (clock.c); tsc2nsec is ns only with its conversion. */
START_TEST(test_clock_kinds)
{
	static const struct {
		const char *clock;
		bool is_tsc_in_ns;
		enum ca_clock_kind kind;
	} rows[] = {
		{ "mono", false, CA_CLOCK_GLOBAL_NS }, { "mono_raw", false, CA_CLOCK_GLOBAL_NS },
		{ "boot", false, CA_CLOCK_GLOBAL_NS }, { "global", false, CA_CLOCK_GLOBAL_NS },
		{ "tai", false, CA_CLOCK_GLOBAL_NS }, { "local", false, CA_CLOCK_PER_CPU },
		{ "perf", false, CA_CLOCK_PER_CPU }, { "counter", false, CA_CLOCK_NOT_NS },
		{ "uptime", false, CA_CLOCK_NOT_NS }, { "x86-tsc", false, CA_CLOCK_NOT_NS },
		{ "x86-tsc", true, CA_CLOCK_GLOBAL_NS }, { "tsc2nsec", true, CA_CLOCK_GLOBAL_NS },
		{ "tsc2nsec", false, CA_CLOCK_NOT_NS }, { "unknown", false, CA_CLOCK_UNNAMED },
		{ "ppc-tb", false, CA_CLOCK_UNKNOWN }, { "", false, CA_CLOCK_UNKNOWN },
	};
	struct ca_source_info info;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&info, 0, sizeof(info));
		snprintf(info.clock, sizeof(info.clock), "%s", rows[i].clock);
		info.is_tsc_in_ns = rows[i].is_tsc_in_ns;
		ck_assert_msg(ca_clock_kind(&info) == rows[i].kind, "%s", rows[i].clock);
	}
}
END_TEST

Suite *audit_suite(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("inputs");

	tcase_add_test(tc, test_check_errors_reach_the_caller);
	tcase_add_test(tc, test_clock_kinds);
	tcase_add_test(tc, test_lost_events_inconclusive);
	tcase_add_test(tc, test_cpumask_ipi_counted_once);
	tcase_add_test(tc, test_missing_switch_inconclusive);
	tcase_add_test(tc, test_task_taken_elsewhere_is_a_missed_switch);
	tcase_add_test(tc, test_late_switch_out_counts_once);
	tcase_add_test(tc, test_switch_in_and_out_at_one_instant);
	tcase_add_test(tc, test_switch_tail_is_no_contradiction);
	tcase_add_test(tc, test_idle_after_a_missing_switch_is_no_tail);
	tcase_add_test(tc, test_bad_line_is_damage_on_its_cpu);
	tcase_add_test(tc, test_contradiction_splits_windows);
	tcase_add_test(tc, test_progress_before_begin);
	tcase_add_test(tc, test_topology_from_marker);
	tcase_add_loop_test(tc, test_bad_input_rows, 0, sizeof(bad_rows) / sizeof(bad_rows[0]));
	tcase_add_test(tc, test_wrong_files);
	suite_add_tcase(s, tc);
	return s;
}
