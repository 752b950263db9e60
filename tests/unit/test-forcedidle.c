/*
 * test-forcedidle.c - forced idle per CPU and per task, and starvation, on an
 * SMT4 core with hand-derived figures.
 */
#include "checks/schedlag.h"
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
	ck_assert_uint_eq(task->longest_starved_start, T0 + 2 * US);	/* its wakeup */
	ck_assert_int_eq(task->longest_starved_cpu, 2);
	task = fi_task_of(&audit, 103);
	ck_assert_uint_eq(task->starved_ns, 10 * MS + 2 * US);
	ck_assert_uint_eq(task->longest_starved_ns, 10 * MS + 1 * US);
	ck_assert_uint_eq(task->longest_starved_start, T0 + 3 * US);	/* not the 1 us at 12 ms */
	ck_assert_int_eq(task->longest_starved_cpu, 3);
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
	ck_assert_int_eq(audit.max_starved_pid, 102);
	ck_assert_int_eq(audit.max_starved_cpu, 2);
	ck_assert_uint_eq(audit.max_starved_start, T0 + 2 * US);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_str_eq(audit.reasons[0], "task 102 starved 10.002ms at a stretch (from "
			 "1.000002000 s, queued on CPU 2), over --max-starvation 10.000ms");
	ck_assert_int_eq(audit.reason_info[0].cpu, 2);
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

/*
 * No wakeup events: 200, preempted on CPU1 (R) while 100 of another cookie
 * runs on CPU0, is seen queued, but a woken task would not be.  Forced idle
 * under a limit is not proven under it; over it, it is.
 */
START_TEST(test_limits_without_wakeups)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 2);
	sc_switch(&t, 1, T0 + 1 * MS, 200, "R", 0, true, 2, 0);
	sc_switch(&t, 0, T0 + 1 * MS + 1 * US, 0, "R", 100, true, 0, 1);
	sc_switch(&t, 0, T0 + 5 * MS, 100, "S", 0, true, 1, 0);
	sc_switch(&t, 1, T0 + 5 * MS + 1 * US, 0, "R", 200, true, 0, 2);
	sc_switch(&t, 1, T0 + 6 * MS, 200, "S", 0, true, 2, 0);
	test_options(&opts, NULL);
	opts.has_grace = true;
	opts.max_forced_idle_pct = 99;
	opts.max_starvation_ns = 100 * MS;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert(audit.forced_idle_pct > 1);
	ck_assert_int_eq(audit.reason_count, 2);
	ck_assert_str_eq(audit.reasons[0], "forced idle cannot be held to --max-forced-idle "
			 "99.00%: no sched_wakeup events in the trace, so tasks woken onto a CPU "
			 "are unseen (record sched:sched_wakeup)");
	ck_assert_str_eq(audit.reasons[1], "starvation cannot be held to --max-starvation "
			 "100.000ms: no sched_wakeup events in the trace, so tasks woken onto a "
			 "CPU are unseen (record sched:sched_wakeup)");
	ca_audit_free(&audit);
	opts.max_forced_idle_pct = 1;
	opts.max_starvation_ns = -1;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ca_audit_free(&audit);
	/* One wakeup in the trace: wakeups were recorded, the limit holds. */
	sc_wakeup(&t, 0, T0 + 7 * MS, 0, 100, 0);
	sc_switch(&t, 0, T0 + 7 * MS + 1 * US, 0, "R", 100, true, 0, 1);
	opts.max_forced_idle_pct = 99;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
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
	ck_assert_uint_eq(task->longest_starved_start, T0 + 1 * US);	/* the first of two */
	ck_assert_int_eq(task->longest_starved_cpu, 1);
	task = fi_task_of(&audit, 100);
	ck_assert_uint_eq(task->kernel_ns, 6 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * What the kernel-terms model charged each of @count tasks (@pids) on the
 * core of CPUs 0 and 1, into @ns: 0 for a task it never charged.  Frees @t.
 */
static void kernel_charges(struct trace_text *t, const int *pids, uint64_t *ns, int count)
{
	struct ca_audit_options opts;
	struct ca_audit audit;

	test_options(&opts, "0,1");
	audit_text(&audit, t, &opts);
	for (int i = 0; i < count; i++) {
		const struct ca_fi_task *task = fi_task_of(&audit, pids[i]);

		ns[i] = task ? task->kernel_ns : 0;
	}
	ca_audit_free(&audit);
	trace_free(t);
}

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
	uint64_t ns[2];

	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 2);
	sc_wakeup(&t, 0, T0 + 1 * MS, 0, 100, 0);
	if (pick_time_rows[_i].has_ipi)
		sc_ipi(&t, 1, T0 + 5 * MS, 200, 0);
	if (pick_time_rows[_i].has_tick_between)
		sc_tick(&t, 1, T0 + 5 * MS + 100 * US, 200);
	sc_switch(&t, 1, T0 + 5 * MS + 800 * US, 200, "S", 0, true, 2, 0);
	sc_switch(&t, 0, T0 + 6 * MS, 0, "R", 100, true, 0, 1);
	kernel_charges(&t, (const int[]){ 200, 100 }, ns, 2);
	ck_assert_uint_eq(ns[0], pick_time_rows[_i].charged_200);	/* 200 */
	ck_assert_uint_eq(ns[1], 0);	/* 100 */
}
END_TEST

/*
 * The core's clock is its leader's (CPU0), and a wakeup onto the idle leader
 * asks its __schedule to keep the clock of the wakeup (RQCF_REQ_SKIP):
 * 200 (cookie 2) runs on CPU1; 100 (cookie 1), asleep since before, wakes on
 * idle CPU0 at 1 ms and
 * wins the core at CPU0's pick at 1.2 ms (its IPI kicks CPU1, which leaves
 * 200 runnable); the forced-idle period starts at the clock that pick read,
 * the wakeup's, and 100 is charged to its sleep at 3 ms: 2 ms.  A SCHED
 * softirq on CPU0 in between (sched_balance_update_blocked_averages()
 * updates the clock) starts it there (1.9 ms); in a trace without softirq
 * events the pick's own time stands (1.8 ms).
 */
static const struct {
	bool has_softirqs, has_sched_softirq;
	uint64_t charged_100;
} kept_clock_rows[] = {
	{ true, false, 2 * MS },
	{ true, true, 1900 * US },
	{ false, false, 1800 * US },
};

START_TEST(test_leader_pick_reads_kept_clock)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 0, T0 - 1 * MS, 100, "S", 0, true, 1, 0);
	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 2);
	if (kept_clock_rows[_i].has_softirqs)
		sc_kernel(&t, 1, T0 + 100 * US, 200, "softirq_exit", 3);
	sc_wakeup(&t, 1, T0 + 1 * MS, 200, 100, 0);
	if (kept_clock_rows[_i].has_sched_softirq)
		sc_kernel(&t, 0, T0 + 1100 * US, 0, "softirq_exit", 7);
	sc_ipi(&t, 0, T0 + 1200 * US, 0, 1);
	sc_switch(&t, 0, T0 + 1210 * US, 0, "R", 100, true, 0, 1);
	sc_switch(&t, 1, T0 + 1250 * US, 200, "R", 0, true, 2, 0);
	sc_switch(&t, 0, T0 + 3 * MS, 100, "S", 0, true, 1, 0);
	sc_switch(&t, 1, T0 + 3050 * US, 0, "R", 200, true, 0, 2);
	kernel_charges(&t, (const int[]){ 100, 200 }, ns, 2);
	ck_assert_uint_eq(ns[0], kept_clock_rows[_i].charged_100);	/* 100 */
	ck_assert_uint_eq(ns[1], 0);	/* 200 */
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
	uint64_t ns[2];

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 1);
	sc_wakeup(&t, 1, T0 + 1 * MS, 0, 300, 1);
	sc_switch(&t, 0, T0 + 3 * MS, 100, "R", 0, true, 1, 0);
	sc_switch(&t, 1, T0 + 3 * MS + 50 * US, 0, "R", 300, true, 0, 0);
	sc_switch(&t, 1, T0 + 5 * MS, 300, "S", 0, true, 0, 0);
	sc_switch(&t, 0, T0 + 5 * MS + 20 * US, 0, "R", 100, true, 0, 1);
	kernel_charges(&t, (const int[]){ 100, 300 }, ns, 2);
	ck_assert_uint_eq(ns[0], 2 * MS);	/* 100 */
	ck_assert_uint_eq(ns[1], 2 * MS);	/* 300 */
}
END_TEST

/*
 * A CPU that goes idle with a task of a cookie queued selected, whatever the
 * core cookie was: 72 and 73 (cookie 0) run while 71 (cookie 1) is queued
 * beside 72 on CPU0; at 2 ms 72 sleeps and CPU0 goes idle: its own pick was
 * 71, so it selected, 73 won (cookie 0) and CPU0 is forced idle with 71
 * queued, charged to 73 until it sleeps at 3 ms.  (Read as "no selection",
 * as the core had no cookie, it charged nothing.)
 */
START_TEST(test_idle_with_cookied_task_queued_selects)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 0, T0, 0, "R", 71, true, 0, 1);
	sc_switch(&t, 0, T0 + 100 * US, 71, "S", 72, true, 1, 0);
	sc_switch(&t, 1, T0 + 200 * US, 0, "R", 73, true, 0, 0);
	sc_wakeup(&t, 0, T0 + 1 * MS, 72, 71, 0);
	sc_switch(&t, 0, T0 + 2 * MS, 72, "S", 0, true, 0, 0);
	sc_switch(&t, 1, T0 + 3 * MS, 73, "S", 0, true, 0, 0);
	sc_switch(&t, 0, T0 + 3 * MS + 20 * US, 0, "R", 71, true, 0, 1);
	kernel_charges(&t, (const int[]){ 73, 71 }, ns, 2);
	ck_assert_uint_eq(ns[0], 1 * MS);	/* 73 */
	ck_assert_uint_eq(ns[1], 0);	/* 71 */
}
END_TEST

/*
 * A CPU left idle beside a core of cookie 0 with tasks queued stays idle at
 * the next selection of cookie 0: 301 and 300 (cookie 0) run; 100 (cookie 1)
 * is woken beside 301 on CPU0 at 1 ms, and at 1.05 ms CPU0 leaves 301
 * runnable and goes idle: its best task was 100 (a compatible best, 301, it
 * would have kept), so it is forced idle, charged to 300.  At 2 ms CPU1
 * switches from 300 to 302 (cookie 0) and selects again: CPU0's queue has not
 * changed, so its best is still 100 and it stays forced idle, charged to 302
 * until it sleeps at 4 ms.  (Taking 301 for CPU0's pick there, as any
 * compatible queued task stood for an idle sibling's best, ended the period:
 * untagged tasks on harness draws were charged 10-16% too little.)
 */
START_TEST(test_idle_sibling_best_stays_cookied)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 1);
	sc_switch(&t, 0, T0 + 100 * US, 100, "S", 301, true, 1, 0);
	sc_switch(&t, 1, T0 + 200 * US, 0, "R", 300, true, 0, 0);
	sc_wakeup(&t, 0, T0 + 1 * MS, 301, 100, 0);
	sc_switch(&t, 0, T0 + 1 * MS + 50 * US, 301, "R", 0, true, 0, 0);
	sc_switch(&t, 1, T0 + 2 * MS, 300, "S", 302, true, 0, 0);
	sc_switch(&t, 1, T0 + 4 * MS, 302, "S", 0, true, 0, 0);
	sc_switch(&t, 0, T0 + 4 * MS + 20 * US, 0, "R", 100, true, 0, 1);
	kernel_charges(&t, (const int[]){ 300, 302 }, ns, 2);
	ck_assert_uint_eq(ns[0], 950 * US);	/* 300 */
	ck_assert_uint_eq(ns[1], 2 * MS);	/* 302 */
}
END_TEST

/*
 * A CPU that goes idle at its own selection shows which cookie could not
 * have won: 71 (cookie 1) runs on CPU0 while CPU1, idle, has 77 (cookie 2)
 * and 74 (cookie 0) queued; 72 (cookie 2) is woken beside 71.  At 3 ms CPU0
 * leaves 71 runnable and goes idle.  Cookie 2 did not win (72 would have been
 * found for CPU0), so 74 did (cookie 0): CPU0 is forced idle from 3 ms,
 * charged to 74, which CPU1 (a stalled vCPU) shows running only at 3.5 ms,
 * until it sleeps at 5 ms.  (Taking CPU1's oldest queued task, 77, for the
 * winner gave CPU0 72 and no forced idle until CPU1's switch: 1.5 ms.)
 */
START_TEST(test_idle_selector_rules_out_its_cookies)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 1, T0, 0, "R", 77, true, 0, 2);
	sc_switch(&t, 1, T0 + 10 * US, 77, "S", 74, true, 2, 0);
	sc_switch(&t, 1, T0 + 20 * US, 74, "S", 0, true, 0, 0);
	sc_switch(&t, 0, T0 + 30 * US, 0, "R", 72, true, 0, 2);
	sc_switch(&t, 0, T0 + 40 * US, 72, "S", 71, true, 2, 1);
	sc_wakeup(&t, 0, T0 + 1 * MS, 71, 77, 1);
	sc_wakeup(&t, 0, T0 + 1 * MS + 10 * US, 71, 74, 1);
	sc_wakeup(&t, 0, T0 + 1 * MS + 20 * US, 71, 72, 0);
	sc_switch(&t, 0, T0 + 3 * MS, 71, "R", 0, true, 1, 0);
	sc_switch(&t, 1, T0 + 3 * MS + 500 * US, 0, "R", 74, true, 0, 0);
	sc_switch(&t, 1, T0 + 5 * MS, 74, "S", 0, true, 0, 0);
	kernel_charges(&t, (const int[]){ 74, 71 }, ns, 2);
	ck_assert_uint_eq(ns[0], 2 * MS);	/* 74 */
	ck_assert_uint_eq(ns[1], 2 * MS);	/* 71 */
}
END_TEST

/*
 * A sibling the selection would leave forced idle runs a task instead, with
 * nothing enqueued or dequeued since: the kernel's fast path took the pick
 * the selection made for it.  72 (cookie 2) runs on CPU1 with 71 (cookie 0)
 * queued behind it; CPU0 is idle.  74 (cookie 0) and 75 (cookie 2) are woken
 * on CPU0, which selects at 1.1 ms and runs 74: cookie 0 won, and CPU1, its
 * task 72 incompatible, would be idle unless its best was 71.  It switches to
 * 71 at 1.2 ms: it was, and nobody was forced idle from 1.1 ms; the tick at
 * 1.15 ms charges nothing, CPU1's pick still open.  (Read as a new selection
 * at 1.2 ms, 74 was charged the 100 us between; charged at the tick, 50 us.)  72 is charged
 * CPU0's forced idle from 74's wakeup to CPU0's selection (75's wakeup did
 * not select: the task CPU0 switches to was woken before it).
 */
START_TEST(test_sibling_shows_its_pick)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 0, T0, 0, "R", 75, true, 0, 2);
	sc_switch(&t, 0, T0 + 10 * US, 75, "S", 74, true, 2, 0);
	sc_switch(&t, 0, T0 + 20 * US, 74, "S", 0, true, 0, 0);
	sc_switch(&t, 1, T0 + 30 * US, 0, "R", 71, true, 0, 0);
	sc_switch(&t, 1, T0 + 40 * US, 71, "R", 72, true, 0, 2);
	sc_wakeup(&t, 1, T0 + 1 * MS, 72, 74, 0);
	sc_wakeup(&t, 1, T0 + 1 * MS + 10 * US, 72, 75, 0);
	sc_switch(&t, 0, T0 + 1 * MS + 100 * US, 0, "R", 74, true, 0, 0);
	sc_tick(&t, 0, T0 + 1 * MS + 150 * US, 74);
	sc_switch(&t, 1, T0 + 1 * MS + 200 * US, 72, "R", 71, true, 2, 0);
	sc_switch(&t, 0, T0 + 3 * MS, 74, "S", 75, true, 0, 2);
	kernel_charges(&t, (const int[]){ 74, 72 }, ns, 2);
	ck_assert_uint_eq(ns[0], 0);	/* 74 */
	ck_assert_uint_eq(ns[1], 100 * US);	/* 72 */
}
END_TEST

/*
 * An idle CPU in an idle state selects once it shows it: 67 (cookie 2) is
 * woken on CPU1, in idle state 1, at 1 ms, but CPU1 (a stalled vCPU) leaves
 * that state only at 4 ms, kicks CPU0 at 4 ms + 20 us and runs 67; 68 (cookie
 * 0), woken on CPU0 at 1.3 ms, ran from 1.34 ms without any selection (the
 * core had no cookie) and is forced off at 4.2 ms.  The kernel charged 67
 * from its pick (4.02 ms) until it sleeps at 6 ms; 68 nothing.  (Selected at
 * the wakeup, 68 was charged from 1.34 ms on.)
 */
START_TEST(test_idle_cpu_selects_when_it_shows_it)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 1, T0 - 3 * MS, 0, "R", 67, true, 0, 2);
	sc_switch(&t, 1, T0 - 2500 * US, 67, "S", 0, true, 2, 0);
	sc_idle(&t, 1, T0 - 2490 * US, 1);
	sc_switch(&t, 0, T0 - 2 * MS, 0, "R", 68, true, 0, 0);
	sc_switch(&t, 0, T0 - 500 * US, 68, "S", 0, true, 0, 0);
	sc_idle(&t, 0, T0 - 490 * US, 1);
	sc_wakeup(&t, 1, T0 + 1 * MS, 0, 67, 1);
	sc_wakeup(&t, 0, T0 + 1300 * US, 0, 68, 0);
	sc_idle(&t, 0, T0 + 1320 * US, -1);
	sc_switch(&t, 0, T0 + 1340 * US, 0, "R", 68, true, 0, 0);
	sc_idle(&t, 1, T0 + 4 * MS, -1);
	sc_ipi(&t, 1, T0 + 4 * MS + 20 * US, 0, 0);
	sc_switch(&t, 1, T0 + 4 * MS + 50 * US, 0, "R", 67, true, 0, 2);
	sc_switch(&t, 0, T0 + 4200 * US, 68, "R", 0, true, 0, 0);
	sc_switch(&t, 1, T0 + 6 * MS, 67, "S", 0, true, 2, 0);
	sc_switch(&t, 0, T0 + 6 * MS + 20 * US, 0, "R", 68, true, 0, 0);
	kernel_charges(&t, (const int[]){ 67, 68 }, ns, 2);
	ck_assert_uint_eq(ns[0], 6 * MS - (4 * MS + 20 * US));	/* 67 */
	ck_assert_uint_eq(ns[1], 0);	/* 68 */
}
END_TEST

/*
 * An idle sibling the selection did not kick stayed idle, where kicks show:
 * CPU0 sits in idle state 1 with 71 (cookie 1) queued and, woken at 3 ms,
 * 74 (cookie 0); a kick to CPU0 in that state showed as an IPI before.  At
 * 4 ms CPU1 switches from 73 to 72 (both cookie 0) and sends no IPI: CPU0's
 * own pick was 71, not compatible, and it stays forced idle, charged to 72
 * until CPU1 kicks it at 6 ms.  (Its compatible 74 taken for its pick, 72 was
 * charged nothing.)
 */
START_TEST(test_unkicked_idle_sibling_stays_idle)
{
	struct trace_text t = { 0 };
	uint64_t ns[1];

	sc_switch(&t, 0, T0, 0, "R", 71, true, 0, 1);
	sc_switch(&t, 0, T0 + 100 * US, 71, "S", 74, true, 1, 0);
	sc_switch(&t, 0, T0 + 200 * US, 74, "S", 0, true, 0, 0);
	sc_idle(&t, 0, T0 + 210 * US, 1);
	sc_ipi(&t, 1, T0 + 300 * US, 0, 0);		/* a kick shows in state 1 */
	sc_switch(&t, 1, T0 + 320 * US, 0, "R", 73, true, 0, 0);
	sc_idle(&t, 0, T0 + 330 * US, -1);
	sc_wakeup(&t, 0, T0 + 340 * US, 0, 71, 0);
	sc_idle(&t, 0, T0 + 350 * US, 1);
	sc_switch(&t, 1, T0 + 1 * MS, 73, "R", 0, true, 0, 0);
	sc_switch(&t, 1, T0 + 1 * MS + 10 * US, 0, "R", 73, true, 0, 0);
	sc_wakeup(&t, 0, T0 + 3 * MS, 0, 74, 0);
	sc_idle(&t, 0, T0 + 3 * MS + 10 * US, -1);
	sc_idle(&t, 0, T0 + 3 * MS + 20 * US, 1);
	sc_wakeup(&t, 1, T0 + 3500 * US, 73, 72, 1);
	sc_switch(&t, 1, T0 + 4 * MS, 73, "S", 72, true, 0, 0);
	sc_ipi(&t, 1, T0 + 6 * MS, 72, 0);
	sc_switch(&t, 1, T0 + 6 * MS + 10 * US, 72, "S", 0, true, 0, 0);
	kernel_charges(&t, (const int[]){ 72 }, ns, 1);
	ck_assert_uint_eq(ns[0], 2 * MS);	/* 72 */
}
END_TEST

/*
 * An idle sibling given a task that enters an idle state instead was left
 * idle: CPU1 ran 72 (cookie 2) and 73 (cookie 0), both still queued when 76
 * (cookie 1) runs there; 74 (cookie 1) runs on CPU0 with 77 (cookie 0)
 * queued.  At 1 ms 76 sleeps and CPU1 goes idle, forced idle (cookie 1 won:
 * nothing of it queued there), charged to 74.  At 2 ms 74 sleeps and CPU0
 * switches to 77: cookie 0 wins; CPU1's compatible 73 may have been its best,
 * but a tick at 2.1 ms takes CPU1 out of its idle state and back into it with
 * no switch: no kick reached it (the idle loop schedules before it enters a
 * state when one has), so its best was 72 and it stayed forced idle, charged
 * to 77 until 77 sleeps at 4 ms.  (Taking 73 for its pick, 77 was charged
 * nothing: untagged tasks on harness draws of three groups and more were
 * charged 2-4% too little.)  No idle event after the tick: 73 may yet run.
 * An IPI sent to CPU1 after the selection may be the kick, come as CPU1
 * entered its state: nothing is concluded then.
 */
static const struct {
	bool has_idle_entry, has_ipi;
	uint64_t charged_77;
} left_idle_rows[] = {
	{ true, false, 2 * MS },
	{ false, false, 0 },
	{ true, true, 0 },	/* an IPI to CPU1 after the selection: perhaps the kick */
};

START_TEST(test_idle_sibling_given_a_task_stays_idle)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 0, T0, 0, "R", 77, true, 0, 0);
	sc_switch(&t, 0, T0 + 20 * US, 77, "S", 0, true, 0, 0);
	sc_switch(&t, 1, T0 + 30 * US, 0, "R", 72, true, 0, 2);
	sc_switch(&t, 1, T0 + 50 * US, 72, "R", 73, true, 2, 0);
	sc_switch(&t, 1, T0 + 100 * US, 73, "R", 76, true, 0, 1);
	sc_switch(&t, 0, T0 + 150 * US, 0, "R", 74, true, 0, 1);
	sc_wakeup(&t, 0, T0 + 300 * US, 74, 77, 0);
	sc_switch(&t, 1, T0 + 1 * MS, 76, "S", 0, true, 1, 0);
	sc_idle(&t, 1, T0 + 1 * MS + 10 * US, 1);
	sc_switch(&t, 0, T0 + 2 * MS, 74, "S", 77, true, 1, 0);
	if (left_idle_rows[_i].has_ipi) {
		sc_ipi(&t, 0, T0 + 2 * MS + 50 * US, 77, 1);
		sc_tick(&t, 0, T0 + 2 * MS + 60 * US, 77);	/* no pick of CPU0's: a tick */
	}
	sc_idle(&t, 1, T0 + 2 * MS + 100 * US, -1);
	sc_tick(&t, 1, T0 + 2 * MS + 110 * US, 0);
	if (left_idle_rows[_i].has_idle_entry)
		sc_idle(&t, 1, T0 + 2 * MS + 120 * US, 1);
	sc_switch(&t, 0, T0 + 4 * MS, 77, "S", 0, true, 0, 0);
	kernel_charges(&t, (const int[]){ 74, 77 }, ns, 2);
	ck_assert_uint_eq(ns[0], 1 * MS);	/* 74 */
	ck_assert_uint_eq(ns[1], left_idle_rows[_i].charged_77);	/* 77 */
}
END_TEST

/*
 * A sibling given one task switches to another, nothing enqueued since: the
 * fast path, so the selection picked that one, and its cookie won.  72
 * (cookie 2) and 73 (cookie 1) wake on idle CPU1, 74 (cookie 2) on idle CPU0,
 * which selects as it leaves its idle state at 1.05 ms; the trace does not
 * say which of CPU1's tasks is its best, and the oldest, 72, stood for it
 * (cookie 2 won, no forced idle).  CPU0 goes back into its idle state and
 * CPU1 runs 73: cookie 1 had won, and CPU0, with only 74 queued, was forced
 * idle from 1.05 ms until CPU1's pick at 2 ms, charged to 73.  (Taken for a
 * new selection at 73's switch: from 1.11 ms.)
 */
START_TEST(test_sibling_shows_another_pick)
{
	struct trace_text t = { 0 };
	uint64_t ns[1];

	sc_switch(&t, 1, T0, 0, "R", 72, true, 0, 2);
	sc_switch(&t, 1, T0 + 10 * US, 72, "S", 73, true, 2, 1);
	sc_switch(&t, 1, T0 + 20 * US, 73, "S", 0, true, 1, 0);
	sc_switch(&t, 0, T0 + 30 * US, 0, "R", 74, true, 0, 2);
	sc_switch(&t, 0, T0 + 40 * US, 74, "S", 0, true, 2, 0);
	sc_idle(&t, 0, T0 + 100 * US, 1);
	sc_idle(&t, 1, T0 + 100 * US, 1);
	sc_wakeup(&t, 1, T0 + 1 * MS, 0, 72, 1);
	sc_wakeup(&t, 0, T0 + 1 * MS + 10 * US, 0, 74, 0);
	sc_wakeup(&t, 1, T0 + 1 * MS + 20 * US, 0, 73, 1);
	sc_idle(&t, 0, T0 + 1 * MS + 50 * US, -1);
	sc_idle(&t, 0, T0 + 1 * MS + 60 * US, 1);
	sc_idle(&t, 1, T0 + 1 * MS + 100 * US, -1);
	sc_switch(&t, 1, T0 + 1 * MS + 110 * US, 0, "R", 73, true, 0, 1);
	sc_switch(&t, 1, T0 + 2 * MS, 73, "S", 0, true, 1, 0);
	kernel_charges(&t, (const int[]){ 73 }, ns, 1);
	ck_assert_uint_eq(ns[0], 950 * US);	/* 73 */
}
END_TEST

/*
 * A tick charges no further than a sibling's pick in flight: 200 (cookie 2)
 * runs on CPU1 while 100 (cookie 1) waits on idle CPU0 from 1 ms; CPU1 picks
 * 300 (cookie 2) at 5 ms (its IPI kicks CPU0) and its vCPU stalls until the
 * switch at 5.8 ms; a tick on CPU0 at 5.3 ms comes in between.  The kernel
 * charged 200 up to its pick, 4 ms, and 300 from then until CPU0 runs 100
 * at 6 ms, 1 ms.  (Charged to the tick, the stall went to 200: 4.8 ms, and
 * 300 had 0.2 ms.)
 */
static const bool sibling_tick_rows[] = { false, true };

START_TEST(test_tick_stops_at_pick_in_flight)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 2);
	sc_switch(&t, 1, T0 + 10 * US, 200, "R", 300, true, 2, 2);
	sc_switch(&t, 1, T0 + 20 * US, 300, "S", 200, true, 2, 2);
	sc_wakeup(&t, 0, T0 + 1 * MS, 0, 100, 0);
	sc_wakeup(&t, 1, T0 + 2 * MS, 200, 300, 1);
	sc_tick(&t, 0, T0 + 3 * MS, 0);
	sc_ipi(&t, 1, T0 + 5 * MS, 200, 0);
	if (sibling_tick_rows[_i])
		sc_tick(&t, 0, T0 + 5 * MS + 300 * US, 0);
	sc_switch(&t, 1, T0 + 5 * MS + 800 * US, 200, "S", 300, true, 2, 2);
	sc_switch(&t, 0, T0 + 6 * MS, 0, "R", 100, true, 0, 1);
	kernel_charges(&t, (const int[]){ 200, 300 }, ns, 2);
	ck_assert_uint_eq(ns[0], 4 * MS);	/* 200 */
	ck_assert_uint_eq(ns[1], 1 * MS);	/* 300 */
}
END_TEST

/*
 * The kernel's clock reads lie behind the events that show them by the
 * machine's pace at __schedule(), which the trace shows as the time from a
 * CPU leaving an idle state to its switch from idle (schedlag.c): the median
 * of those gaps is the unit, once there are eight; a path's lag is a number
 * of half units, never before the CPU's last other event.
 */
START_TEST(test_schedlag_unit_and_lags)
{
	struct ca_schedlag lag = { 0 };
	uint64_t end, start;

	for (int i = 0; i < 7; i++)
		ca_schedlag_note(&lag, T0, T0 + 20 * US + 300);
	ca_schedlag_pick(&lag, true, CA_PICK_TASK_TO_TASK, T0, 0, &end, &start);
	ck_assert_uint_eq(end, T0);		/* seven gaps: no unit yet */
	ck_assert_uint_eq(start, T0);
	ca_schedlag_note(&lag, T0, T0 + 60 * US);
	ck_assert_uint_eq(lag.unit_ns, 20 * US + 500);	/* the median's microsecond, its middle */
	ca_schedlag_pick(&lag, true, CA_PICK_TASK_TO_TASK, T0, 0, &end, &start);
	ck_assert_uint_eq(end, T0 - 41 * US);	/* the first sibling, a task for a task: two units */
	ck_assert_uint_eq(start, end);
	ca_schedlag_pick(&lag, true, CA_PICK_KICKED, T0, 0, &end, &start);
	ck_assert_uint_eq(end, T0 - 20500);
	ca_schedlag_pick(&lag, false, CA_PICK_TASK_TO_IDLE, T0, 0, &end, &start);
	ck_assert_uint_eq(end, T0 - 20500);	/* another sibling: charged a unit back */
	ck_assert_uint_eq(start, T0);		/* its selection at the switch */
	ca_schedlag_pick(&lag, false, CA_PICK_IDLE_TO_TASK, T0, 0, &end, &start);
	ck_assert_uint_eq(end, T0 - 10250);
	ck_assert_uint_eq(start, T0 - 10250);
	ca_schedlag_pick(&lag, false, CA_PICK_TASK_TO_TASK, T0, T0 - 5 * US, &end, &start);
	ck_assert_uint_eq(end, T0 - 5 * US);	/* not before the CPU's last other event */
	ck_assert_uint_eq(start, T0 - 5 * US);
	for (int i = 0; i < 8; i++)
		ca_schedlag_note(&lag, T0, T0 + 40 * US);
	ck_assert_uint_eq(lag.unit_ns, 40 * US + 500);	/* 16 gaps: 7 of 20, 8 of 40, one of 60 */
	for (int i = 0; i < 20; i++)
		ca_schedlag_note(&lag, T0, T0 + 100 * US);
	ck_assert_uint_eq(lag.unit_ns, 60 * US + 500);	/* the median at 32 gaps, not yet at 36 */
}
END_TEST

/*
 * The same through the model: CPU1 shows eight switches from idle 20 us
 * after leaving its idle state (cookie-0 task 300: no selection), then runs
 * 200 (cookie 2); 100 (cookie 1) wakes on idle CPU0, which selects as it
 * leaves its idle state at 2.01 ms and is forced idle.  200 sleeps at 6 ms:
 * CPU1's pick charged the period a unit (20.5 us) before its switch; with
 * its __schedule IPI at 5.9 ms, half a unit before the IPI; with seven
 * gaps only, at the switch.
 */
static const struct {
	int gaps;
	bool has_ipi;
	uint64_t charged_200;
} lag_rows[] = {
	{ 8, false, 4 * MS - 10 * US - 20500 },
	{ 8, true, 3 * MS + 900 * US - 10 * US - 10250 },
	{ 7, false, 4 * MS - 10 * US },
};

START_TEST(test_pick_clock_behind_its_switch)
{
	struct trace_text t = { 0 };
	uint64_t ns[2];

	for (int i = 0; i < lag_rows[_i].gaps; i++) {
		uint64_t at = T0 + i * 100 * US;

		sc_idle(&t, 1, at, 1);
		sc_idle(&t, 1, at + 50 * US, -1);
		sc_switch(&t, 1, at + 70 * US, 0, "R", 300, true, 0, 0);
		sc_switch(&t, 1, at + 80 * US, 300, "S", 0, true, 0, 0);
	}
	sc_idle(&t, 0, T0 + 900 * US, 1);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 2);
	sc_wakeup(&t, 0, T0 + 2 * MS, 0, 100, 0);
	sc_idle(&t, 0, T0 + 2 * MS + 10 * US, -1);
	sc_idle(&t, 0, T0 + 2 * MS + 20 * US, 1);
	if (lag_rows[_i].has_ipi)
		sc_ipi(&t, 1, T0 + 5 * MS + 900 * US, 200, 0);
	sc_switch(&t, 1, T0 + 6 * MS, 200, "S", 0, true, 2, 0);
	sc_idle(&t, 0, T0 + 6 * MS + 50 * US, -1);
	sc_switch(&t, 0, T0 + 6 * MS + 60 * US, 0, "R", 100, true, 0, 1);
	kernel_charges(&t, (const int[]){ 200, 100 }, ns, 2);
	ck_assert_uint_eq(ns[0], lag_rows[_i].charged_200);	/* 200 */
	ck_assert_uint_eq(ns[1], 0);	/* 100 */
}
END_TEST

Suite *forcedidle_suite(void)
{
	Suite *s = suite_create("forced-idle");
	TCase *tc = tcase_create("smt");

	tcase_add_test(tc, test_smt4_charge_split);
	tcase_add_test(tc, test_thresholds_fail);
	tcase_add_test(tc, test_limits_without_wakeups);
	tcase_add_test(tc, test_starvation_stretches);
	tcase_add_loop_test(tc, test_leader_pick_reads_kept_clock, 0,
			    sizeof(kept_clock_rows) / sizeof(kept_clock_rows[0]));
	tcase_add_loop_test(tc, test_pick_time_from_schedule_ipi, 0,
			    sizeof(pick_time_rows) / sizeof(pick_time_rows[0]));
	tcase_add_test(tc, test_idle_sibling_keeps_cookie_zero_pick);
	tcase_add_test(tc, test_idle_with_cookied_task_queued_selects);
	tcase_add_test(tc, test_idle_sibling_best_stays_cookied);
	tcase_add_test(tc, test_idle_selector_rules_out_its_cookies);
	tcase_add_test(tc, test_sibling_shows_its_pick);
	tcase_add_test(tc, test_idle_cpu_selects_when_it_shows_it);
	tcase_add_test(tc, test_unkicked_idle_sibling_stays_idle);
	tcase_add_loop_test(tc, test_idle_sibling_given_a_task_stays_idle, 0,
			    sizeof(left_idle_rows) / sizeof(left_idle_rows[0]));
	tcase_add_test(tc, test_sibling_shows_another_pick);
	tcase_add_loop_test(tc, test_tick_stops_at_pick_in_flight, 0,
			    sizeof(sibling_tick_rows) / sizeof(sibling_tick_rows[0]));
	tcase_add_test(tc, test_schedlag_unit_and_lags);
	tcase_add_loop_test(tc, test_pick_clock_behind_its_switch, 0,
			    sizeof(lag_rows) / sizeof(lag_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}
