/*
 * test-forcedidle.c - forced idle per CPU and per task, and starvation, on an
 * SMT4 core with hand-derived figures.
 */
#include "scenario.h"

/*
 * CPUs 0 and 1 run 100 and 101 (cookie 1); 102 and 103 (cookie 2) wait on
 * idle CPUs 2 and 3.  Each wakeup on an idle CPU is a core-wide selection
 * that leaves it forced idle; each switch a new one.  Periods (from T0):
 *   [2us, 3us)          CPU2 forced, CPU3 not seen yet: count 1, occupation 2
 *   [3us, 10ms+3us)     count 2, occupation 2
 *   [10ms+3us, +4us)    CPU0 idle and empty: count 2, occupation 1
 *   [10ms+4us, 12ms)    nobody runs: nothing is forced idle
 *   [12ms, 12ms+1us)    CPU2 runs 102, CPU3 still waits: forced idle per CPU; in
 *                       kernel terms nothing: 101's switch at 10ms+4us selected
 *                       for the core, and idle siblings keep their own picks
 *                       (102 and 103, whose cookies the trace shows later), so
 *                       both run from that selection on: count 0
 */
static void smt4_scenario(struct trace_text *t)
{
	sc_switch(t, 0, T0, 0, "R", 100, true, 0, 1);
	sc_switch(t, 1, T0 + 1 * US, 0, "R", 101, true, 0, 1);
	sc_wakeup(t, 2, T0 + 2 * US, 0, 102, 2);
	sc_wakeup(t, 3, T0 + 3 * US, 0, 103, 3);
	sc_switch(t, 0, T0 + 10 * MS + 3 * US, 100, "S", 0, true, 1, 0);
	sc_switch(t, 1, T0 + 10 * MS + 4 * US, 101, "S", 0, true, 1, 0);
	sc_switch(t, 2, T0 + 12 * MS, 0, "R", 102, true, 0, 2);
	sc_switch(t, 3, T0 + 12 * MS + 1 * US, 0, "R", 103, true, 0, 2);
}

START_TEST(test_smt4_charge_split)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	const struct ca_fi_task *task;

	smt4_scenario(&t);
	test_options(&opts, "0-3");
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->forcedidle.per_cpu_ns[0], 0);
	ck_assert_uint_eq(audit.pipeline->forcedidle.per_cpu_ns[1], 0);
	ck_assert_uint_eq(audit.pipeline->forcedidle.per_cpu_ns[2], 10 * MS + 2 * US);
	ck_assert_uint_eq(audit.pipeline->forcedidle.per_cpu_ns[3], 10 * MS + 2 * US);
	task = fi_task_of(&audit, 100);
	ck_assert_ptr_nonnull(task);
	ck_assert_uint_eq(task->kernel_ns, 10 * MS + 500);
	task = fi_task_of(&audit, 101);
	ck_assert_uint_eq(task->kernel_ns, 10 * MS + 500 + 2 * US);
	task = fi_task_of(&audit, 102);
	ck_assert_uint_eq(task->kernel_ns, 0);
	ck_assert_uint_eq(task->starved_ns, 10 * MS + 2 * US);
	ck_assert_uint_eq(task->longest_starved_ns, 10 * MS + 2 * US);
	task = fi_task_of(&audit, 103);
	ck_assert_uint_eq(task->starved_ns, 10 * MS + 2 * US);
	ck_assert_uint_eq(task->longest_starved_ns, 10 * MS + 1 * US);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_thresholds_fail)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	smt4_scenario(&t);
	test_options(&opts, "0-3");
	opts.max_starvation_ns = 10 * MS;	/* 102 starved 10.002 ms at a stretch */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.max_starved_ns, 10 * MS + 2 * US);
	ck_assert_int_eq(audit.reason_count, 1);
	ca_audit_free(&audit);

	test_options(&opts, "0-3");
	opts.max_starvation_ns = 11 * MS;
	opts.max_forced_idle_pct = 99;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ca_audit_free(&audit);

	opts.max_forced_idle_pct = 1;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert(audit.forced_idle_pct > 1);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A preempted task stays queued: R at switch-out; starvation stretches restart. */
START_TEST(test_starvation_stretches)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	const struct ca_fi_task *task;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 1);
	sc_switch(&t, 1, T0 + 1 * US, 300, "R", 0, true, 2, 0);	/* 300 preempted: queued */
	sc_switch(&t, 1, T0 + 4 * MS + 1 * US, 0, "R", 300, true, 0, 2);
	sc_switch(&t, 1, T0 + 5 * MS + 1 * US, 300, "R", 0, true, 2, 0);
	sc_switch(&t, 1, T0 + 7 * MS + 1 * US, 0, "R", 300, true, 0, 2);
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 1, 0);
	test_options(&opts, NULL);
	opts.grace_ns = 5 * MS;
	audit_text(&audit, &t, &opts);
	task = fi_task_of(&audit, 300);
	ck_assert_ptr_nonnull(task);
	ck_assert_uint_eq(task->starved_ns, 6 * MS);
	ck_assert_uint_eq(task->longest_starved_ns, 4 * MS);
	task = fi_task_of(&audit, 100);
	ck_assert_uint_eq(task->kernel_ns, 6 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * The pick behind a switch happened at its __schedule IPI: 200 (cookie 2)
 * runs while 100 waits on idle CPU0 (forced idle from its wakeup at 1 ms);
 * CPU1 picks at 5 ms (the IPI that kicks CPU0 to run 100) but its switch
 * event comes 800 us later (a stalled vCPU).  The kernel charged 200 up to
 * its pick: 4 ms.  An event on CPU1 between the IPI and the switch means
 * that __schedule ended without switching: the switch's own time counts.
 */
static const struct {
	bool has_ipi, has_tick_between;
	uint64_t charged_200;
} pick_time_rows[] = {
	{ true, false, 4 * MS },
	{ false, false, 4 * MS + 800 * US },
	{ true, true, 4 * MS + 800 * US },
};

START_TEST(test_pick_time_from_schedule_ipi)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	const struct ca_fi_task *task;

	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 2);
	sc_wakeup(&t, 0, T0 + 1 * MS, 0, 100, 0);
	if (pick_time_rows[_i].has_ipi)
		sc_ipi(&t, 1, T0 + 5 * MS, 200, 0);
	if (pick_time_rows[_i].has_tick_between)
		sc_tick(&t, 1, T0 + 5 * MS + 100 * US, 200);
	sc_switch(&t, 1, T0 + 5 * MS + 800 * US, 200, "S", 0, true, 2, 0);
	sc_switch(&t, 0, T0 + 6 * MS, 0, "R", 100, true, 0, 1);
	test_options(&opts, "0,1");
	audit_text(&audit, &t, &opts);
	task = fi_task_of(&audit, 200);
	ck_assert_ptr_nonnull(task);
	ck_assert_uint_eq(task->kernel_ns, pick_time_rows[_i].charged_200);
	task = fi_task_of(&audit, 100);
	ck_assert(!task || task->kernel_ns == 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * An idle sibling keeps its own pick when it is compatible, cookie 0 too:
 * 100 (cookie 1) runs while 300 (cookie 0) waits on idle CPU1; at 3 ms CPU0
 * leaves 100 runnable and goes idle, so 300 won the core (cookie 0) and is
 * charged from then until it sleeps at 5 ms, while 100 waits.
 */
START_TEST(test_idle_sibling_keeps_cookie_zero_pick)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	const struct ca_fi_task *task;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 1);
	sc_wakeup(&t, 1, T0 + 1 * MS, 0, 300, 1);
	sc_switch(&t, 0, T0 + 3 * MS, 100, "R", 0, true, 1, 0);
	sc_switch(&t, 1, T0 + 3 * MS + 50 * US, 0, "R", 300, true, 0, 0);
	sc_switch(&t, 1, T0 + 5 * MS, 300, "S", 0, true, 0, 0);
	sc_switch(&t, 0, T0 + 5 * MS + 20 * US, 0, "R", 100, true, 0, 1);
	test_options(&opts, "0,1");
	audit_text(&audit, &t, &opts);
	task = fi_task_of(&audit, 100);
	ck_assert_ptr_nonnull(task);
	ck_assert_uint_eq(task->kernel_ns, 2 * MS);
	task = fi_task_of(&audit, 300);
	ck_assert_ptr_nonnull(task);
	ck_assert_uint_eq(task->kernel_ns, 2 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

Suite *forcedidle_suite(void)
{
	Suite *s = suite_create("forced-idle");
	TCase *tc = tcase_create("smt");

	tcase_add_test(tc, test_smt4_charge_split);
	tcase_add_test(tc, test_thresholds_fail);
	tcase_add_test(tc, test_starvation_stretches);
	tcase_add_loop_test(tc, test_pick_time_from_schedule_ipi, 0,
			    sizeof(pick_time_rows) / sizeof(pick_time_rows[0]));
	tcase_add_test(tc, test_idle_sibling_keeps_cookie_zero_pick);
	suite_add_tcase(s, tc);
	return s;
}
