/*
 * test-inversion.c - priority inversion (checks/inversion.h) and the run-time
 * history that excuses throttling and the fair server (checks/history.h), on
 * hand-made SMT2 traces with known truth.
 */
#include <stdio.h>

#include "pipeline.h"
#include "scenario.h"

#define W 300		/* the realtime task, cookie 0 */
#define H 200		/* the task of cookie 2 that holds the core */

/* A sched_switch with priorities, and the cookie probe 200 ns after it. */
static void sw(struct trace_text *t, int cpu, uint64_t ts, int prev, int prev_prio,
	       const char *state, int next, int next_prio, uint64_t prev_cookie,
	       uint64_t next_cookie)
{
	char when[32];

	snprintf(when, sizeof(when), "%llu.%09llu", (unsigned long long)(ts / 1000000000ull),
		 (unsigned long long)(ts % 1000000000ull));
	trace_line(t, cpu, when, prev, "sched_switch", "t%d:%d [%d] %s ==> t%d:%d [%d]", prev,
		   prev, prev_prio, state, next, next, next_prio);
	snprintf(when, sizeof(when), "%llu.%09llu", (unsigned long long)((ts + 200) / 1000000000ull),
		 (unsigned long long)((ts + 200) % 1000000000ull));
	trace_line(t, cpu, when, next, "cs_switch",
		   "(ffffffff8106cbb7) prev_pid=%d prev_cookie=%llu next_pid=%d next_cookie=%llu",
		   prev, (unsigned long long)prev_cookie, next, (unsigned long long)next_cookie);
}

/*
 * H (CFS, cookie 2) runs on CPU0 for @h_ran; idle until T0 + 300 ms, when it
 * sleeps and W (RT prio 89, cookie 0) runs on CPU1.  At T0 + 302 ms H wakes
 * and takes CPU0 (5 us later), and CPU1 leaves W for idle (20 us later): the
 * inversion, until H is preempted at T0 + 305 ms and W runs again.
 */
static void kicked(struct trace_text *t, uint64_t h_ran)
{
	sc_ipi(t, 0, T0, 0, 0);		/* ipi and tick events: every window's cause told */
	sw(t, 0, T0, 0, 120, "R", H, 120, 0, 2);
	/* H's ticks while it runs: a running CPU that shows none is missing its events */
	for (uint64_t at = T0 + 100 * US; at < T0 + h_ran; at += 4 * MS)
		sc_tick(t, 0, at, H);
	sw(t, 0, T0 + h_ran, H, 120, "S", 0, 120, 2, 0);
	sc_wakeup(t, 0, T0 + 300 * MS, 0, W, 1);
	sw(t, 1, T0 + 300 * MS + 10 * US, 0, 120, "R", W, 89, 0, 0);
	sc_wakeup(t, 0, T0 + 302 * MS, 0, H, 0);
	sw(t, 0, T0 + 302 * MS + 5 * US, 0, 120, "R", H, 120, 0, 2);
	sw(t, 1, T0 + 302 * MS + 20 * US, W, 89, "R", 0, 120, 0, 0);
	sw(t, 0, T0 + 305 * MS, H, 120, "R", 0, 120, 2, 0);
	sw(t, 1, T0 + 305 * MS + 10 * US, 0, 120, "R", W, 89, 0, 0);
	sw(t, 1, T0 + 310 * MS, W, 89, "S", 0, 120, 0, 0);
	sw(t, 0, T0 + 310 * MS + 10 * US, 0, 120, "R", H, 120, 0, 2);
	sw(t, 0, T0 + 320 * MS, H, 120, "S", 0, 120, 2, 0);
}

static enum ca_result audit_trace(struct ca_audit *audit, struct trace_text *t, uint64_t max_ns)
{
	struct ca_audit_options opts;
	enum ca_result result;

	test_options(&opts, "0,1");
	opts.max_inversion_ns = max_ns;
	result = audit_text(audit, t, &opts);
	trace_free(t);
	return result;
}

static enum ca_result audit_kicked(struct ca_audit *audit, uint64_t h_ran, uint64_t max_ns)
{
	struct trace_text t = { 0 };

	kicked(&t, h_ran);
	return audit_trace(audit, &t, max_ns);
}

START_TEST(test_inversion_found)
{
	struct ca_audit audit;
	const struct ca_owed *inv;
	const struct ca_owed_finding *f;

	ck_assert_int_eq(audit_kicked(&audit, 200 * MS, MS), CA_RESULT_FAIL);
	inv = &audit.pipeline->inversion;
	ck_assert_uint_eq(inv->finding_count, 1);
	ck_assert_uint_eq(inv->excused_count, 0);
	f = &inv->list[0];
	ck_assert_int_eq(f->who.waiting_cpu, 1);
	ck_assert_int_eq(f->who.waiting_pid, W);
	ck_assert_int_eq(f->who.waiting_prio, 89);
	ck_assert_uint_eq(f->who.waiting_cookie, 0);
	ck_assert_int_eq(f->who.holder_cpu, 0);
	ck_assert_int_eq(f->who.holder_pid, H);
	ck_assert_int_eq(f->who.holder_prio, 120);
	ck_assert_uint_eq(f->who.holder_cookie, 2);
	ck_assert_uint_eq(f->start_ns, T0 + 302 * MS + 20 * US);
	ck_assert_uint_eq(f->decided_ns, T0 + 302 * MS + 20 * US);
	ck_assert_uint_eq(f->end_ns, T0 + 305 * MS);
	ck_assert_uint_eq(inv->finding_ns, 3 * MS - 20 * US);
	ck_assert_uint_eq(inv->longest_ns, 3 * MS - 20 * US);
	ck_assert_str_eq(audit.reasons[0], "1 priority inversion (an RT task idle beside a lower task "
			 "of another cookie past 1.000ms once the kernel chose): the longest, task 300 "
			 "(prio 89) on CPU 1 for 2.980ms while CPU 0 ran task 200 (prio 120)");
	ca_audit_free(&audit);
}
END_TEST

/* No longer than allowed: measured, no finding. */
START_TEST(test_within_max)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_kicked(&audit, 200 * MS, 3 * MS), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->inversion.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->inversion.longest_ns, 3 * MS - 20 * US);
	ca_audit_free(&audit);
}
END_TEST

/* H's CPU ran CFS 50 ms in the second before: the fair server may have run it first. */
START_TEST(test_fair_server_excused)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_kicked(&audit, 50 * MS, MS), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->inversion.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->inversion.excused_count, 1);
	ca_audit_free(&audit);
}
END_TEST

/*
 * W runs on CPU1 from @w_from; at T0 + 955 ms an RT task of cookie 2 and
 * prio 95 takes CPU0 and W leaves CPU1 for idle until it ends at T0 + 960 ms.
 */
static enum ca_result audit_rt_holder(struct ca_audit *audit, uint64_t w_from)
{
	struct trace_text t = { 0 };

	sc_ipi(&t, 0, T0, 0, 0);
	sw(&t, 1, T0 + w_from, 0, 120, "R", W, 89, 0, 0);
	sc_wakeup(&t, 1, T0 + w_from + US, W, W, 1);	/* of a running task: wakeups are told */
	sw(&t, 0, T0 + 955 * MS, 0, 120, "R", H, 95, 0, 2);
	sw(&t, 1, T0 + 955 * MS + 20 * US, W, 89, "R", 0, 120, 0, 0);
	sw(&t, 0, T0 + 960 * MS, H, 95, "S", 0, 120, 2, 0);
	sw(&t, 1, T0 + 960 * MS + 10 * US, 0, 120, "R", W, 89, 0, 0);
	sw(&t, 1, T0 + 970 * MS, W, 89, "S", 0, 120, 0, 0);
	return audit_trace(audit, &t, MS);
}

/* W ran RT 955 ms of the second before: it may have been throttled; 455 ms: it was not. */
START_TEST(test_rt_throttle_excused)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_rt_holder(&audit, 0), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->inversion.excused_count, 1);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_rt_holder(&audit, 500 * MS), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->inversion.finding_count, 1);
	ck_assert_int_eq(audit.pipeline->inversion.list[0].who.holder_prio, 95);
	ca_audit_free(&audit);
}
END_TEST

/*
 * W (cookie @w_cookie) ran on CPU1 and sleeps at T0 + 2 ms; H (cookie
 * @h_cookie) runs on CPU0 from then (with @h_switch: until T0 + 250 ms, and
 * again from 50 us after W wakes onto CPU1 at T0 + 299 ms) until T0 + 302 ms,
 * when W runs.  With @enters, CPU1 goes back to an idle state 100 us after
 * the wakeup: it was awake and did not take W.
 */
static enum ca_result audit_woken(struct ca_audit *audit, uint64_t w_cookie, uint64_t h_cookie,
				  bool h_switch, bool enters)
{
	struct trace_text t = { 0 };

	sc_ipi(&t, 1, T0, 0, 0);		/* the trace has ipi events: the checks run */
	sw(&t, 1, T0, 0, 120, "R", W, 89, 0, w_cookie);
	sw(&t, 0, T0 + US, 77, 120, "S", 0, 120, h_cookie, 0);
	sw(&t, 1, T0 + 2 * MS, W, 89, "S", 0, 120, w_cookie, 0);
	sw(&t, 0, T0 + 2 * MS + 10 * US, 0, 120, "R", H, 120, 0, h_cookie);
	if (h_switch)
		sw(&t, 0, T0 + 250 * MS, H, 120, "S", 0, 120, h_cookie, 0);
	sc_wakeup(&t, 0, T0 + 299 * MS, h_switch ? 0 : H, W, 1);
	if (h_switch)
		sw(&t, 0, T0 + 299 * MS + 50 * US, 0, 120, "R", H, 120, 0, h_cookie);
	if (enters)
		trace_line(&t, 1, "1.299100000", 0, "cpu_idle", "state=1 cpu_id=1");
	sw(&t, 0, T0 + 302 * MS, H, 120, "R", 0, 120, h_cookie, 0);
	sw(&t, 1, T0 + 302 * MS + 10 * US, 0, 120, "R", W, 89, w_cookie, w_cookie);
	sw(&t, 1, T0 + 310 * MS, W, 89, "S", 0, 120, w_cookie, 0);
	sw(&t, 0, T0 + 310 * MS + 10 * US, 0, 120, "R", H, 120, 0, h_cookie);
	sw(&t, 0, T0 + 320 * MS, H, 120, "S", 0, 120, h_cookie, 0);
	return audit_trace(audit, &t, MS);
}

/* A wakeup the idle CPU has not acted on is no decision; going back to idle is. */
START_TEST(test_wakeup_decided_by_idle)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_woken(&audit, 0, 2, false, false), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->inversion.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->inversion.longest_ns, 0);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_woken(&audit, 0, 2, false, true), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->inversion.list[0].start_ns, T0 + 299 * MS);
	ck_assert_uint_eq(audit.pipeline->inversion.list[0].decided_ns, T0 + 299100 * US);
	ck_assert_uint_eq(audit.pipeline->inversion.list[0].end_ns, T0 + 302 * MS);
	ca_audit_free(&audit);
}
END_TEST

/*
 * A sibling's pick of a task with a cookie compares every sibling's: made
 * after W's wakeup, it saw W.  One without (the core has no cookie) looks at
 * its own CPU only: W's CPU selects when it reschedules (here, a stalled
 * vCPU, 3 ms later), as in the shared trace d-mixed.
 */
START_TEST(test_sibling_pick_decides_if_cookied)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_woken(&audit, 0, 2, true, false), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->inversion.list[0].start_ns, T0 + 299050 * US);
	ck_assert_uint_eq(audit.pipeline->inversion.list[0].decided_ns, T0 + 299050 * US);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_woken(&audit, 1, 0, true, false), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->inversion.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->inversion.longest_ns, 0);
	ca_audit_free(&audit);
}
END_TEST

/* A rule file's max-inversion, where the option is not given; the option wins. */
START_TEST(test_rule_file_max)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	kicked(&t, 200 * MS);
	test_options(&opts, "0,1");
	ck_assert_int_eq(audit_text_with_rules(&audit, &t, &opts, "max-inversion 3ms\n"),
			 CA_RESULT_PASS);
	ck_assert_uint_eq(audit.opts.max_inversion_ns, 3 * MS);
	ca_audit_free(&audit);
	opts.max_inversion_ns = 2 * MS;
	opts.has_max_inversion = true;
	ck_assert_int_eq(audit_text_with_rules(&audit, &t, &opts, "max-inversion 3ms\n"),
			 CA_RESULT_FAIL);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* The run-time history: bounds from below and above, buckets reused after a second. */
START_TEST(test_history_bounds)
{
	struct ca_history h;

	ck_assert_int_eq(ca_history_init(&h, 2), 0);
	ca_history_account(&h, 1, false, 0, T0);
	ca_history_account(&h, 1, true, 89, T0 + 500 * MS);
	ca_history_account(&h, 1, true, 120, T0 + 1010 * MS);
	ck_assert_uint_eq(ca_history_ran(&h, 1, CA_HISTORY_RT, T0 + 1010 * MS, true), 500 * MS);
	ck_assert_uint_eq(ca_history_ran(&h, 1, CA_HISTORY_RT, T0 + 1010 * MS, false), 450 * MS);
	ck_assert_uint_eq(ca_history_ran(&h, 1, CA_HISTORY_FAIR, T0 + 1010 * MS, false), 510 * MS);
	ck_assert_uint_eq(ca_history_ran(&h, 0, CA_HISTORY_FAIR, T0 + 1010 * MS, true), 0);
	ca_history_account(&h, 1, false, 0, T0 + 3000 * MS);
	ck_assert_uint_eq(ca_history_ran(&h, 1, CA_HISTORY_FAIR, T0 + 3000 * MS, true), 0);
	ck_assert_uint_eq(ca_history_ran(&h, 1, CA_HISTORY_RT, T0 + 3000 * MS, true), 0);
	ca_history_free(&h);
}
END_TEST

Suite *inversion_suite(void)
{
	Suite *s = suite_create("inversion");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_inversion_found);
	tcase_add_test(tc, test_within_max);
	tcase_add_test(tc, test_fair_server_excused);
	tcase_add_test(tc, test_rt_throttle_excused);
	tcase_add_test(tc, test_wakeup_decided_by_idle);
	tcase_add_test(tc, test_sibling_pick_decides_if_cookied);
	tcase_add_test(tc, test_rule_file_max);
	tcase_add_test(tc, test_history_bounds);
	suite_add_tcase(s, tc);
	return s;
}
