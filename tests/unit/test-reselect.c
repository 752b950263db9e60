/*
 * test-reselect.c - forced idle held to the reselection the kernel owes
 * (checks/reselect.h), on hand-made SMT2 traces with known truth.
 */
#include "pipeline.h"
#include "scenario.h"

#define TICKS 12

/*
 * CPU0 preempts 100 (cookie 1) and idles with it queued at T0; CPU1 runs 200
 * (cookie 2) from T0 + 1us and takes @ticks ticks, every 4 ms from T0 + 2 ms,
 * then sleeps at T0 + 50 ms; CPU0 runs 100 at last.  @prio: 200's, in its
 * sched_switch; @tick_timer: each tick also as its tick hrtimer, 1 us later.
 */
static void starved(struct trace_text *t, int ticks, int prio, bool tick_timer)
{
	sc_switch(t, 0, T0, 100, "R", 0, true, 1, 0);
	trace_line(t, 1, "1.000001000", 0, "sched_switch",
		   "swapper/1:0 [120] R ==> w200:200 [%d]", prio);
	trace_line(t, 1, "1.000001200", 200, "cs_switch",
		   "(ffffffff8106cbb7) prev_pid=0 prev_cookie=0 next_pid=200 next_cookie=2");
	for (int i = 0; i < ticks; i++) {
		sc_tick(t, 1, T0 + 2 * MS + (uint64_t)i * 4 * MS, 200);
		if (tick_timer)
			sc_tick_timer(t, 1, T0 + 2 * MS + (uint64_t)i * 4 * MS + US, 200);
	}
	sc_switch(t, 1, T0 + 50 * MS, 200, "S", 0, true, 2, 0);
	sc_switch(t, 0, T0 + 50 * MS + 10 * US, 0, "R", 100, true, 0, 1);
	sc_switch(t, 0, T0 + 60 * MS, 100, "S", 0, true, 1, 0);
}

static enum ca_result audit_starved(struct ca_audit *audit, int ticks, int prio,
				    bool tick_timer, uint32_t max_ticks)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;

	starved(&t, ticks, prio, tick_timer);
	test_options(&opts, "0,1");
	opts.max_reselect_ticks = max_ticks;
	result = audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

START_TEST(test_starved_past_the_ticks)
{
	struct ca_audit audit;
	const struct ca_reselect *rs;
	const struct ca_reselect_finding *f;

	ck_assert_int_eq(audit_starved(&audit, TICKS, 120, false, 8), CA_RESULT_FAIL);
	rs = &audit.pipeline->reselect;
	ck_assert_uint_eq(rs->finding_count, 1);
	ck_assert_uint_eq(rs->listed, 1);
	f = &rs->list[0];
	ck_assert_int_eq(f->who.waiting_cpu, 0);
	ck_assert_int_eq(f->who.waiting_pid, 100);
	ck_assert_int_eq(f->who.holder_cpu, 1);
	ck_assert_int_eq(f->who.holder_pid, 200);
	ck_assert_uint_eq(f->who.waiting_cookie, 1);
	ck_assert_uint_eq(f->who.holder_cookie, 2);
	ck_assert_uint_eq(f->start_ns, T0 + US);
	ck_assert_uint_eq(f->end_ns, T0 + 50 * MS);
	ck_assert_uint_eq(f->ticks, TICKS);
	ck_assert_uint_eq(rs->finding_ns, 50 * MS - US);
	ck_assert_str_eq(audit.reasons[0], "1 forced-idle stretch outlived the reselection the "
			 "kernel owed (over 8 ticks of the running sibling): the longest, CPU 0 "
			 "for 49.999ms while CPU 1 ran task 200 through 12 ticks");
	ca_audit_free(&audit);
}
END_TEST

/* As many ticks as allowed, or the check off: no finding, the verdict passes. */
START_TEST(test_within_the_ticks)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_starved(&audit, TICKS, 120, false, TICKS), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->reselect.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->reselect.most_ticks, TICKS);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_starved(&audit, TICKS, 120, false, 0), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->reselect.most_ticks, 0);
	ca_audit_free(&audit);
}
END_TEST

/* An RT holder (prio 89) or a CFS one of better nice (prio 100) owes nothing. */
START_TEST(test_holder_outranks)
{
	struct ca_audit audit;
	int prios[] = { 89, 100 };

	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(audit_starved(&audit, TICKS, prios[i], false, 8), CA_RESULT_PASS);
		ck_assert_uint_eq(audit.pipeline->reselect.finding_count, 0);
		ca_audit_free(&audit);
	}
}
END_TEST

/* A timer interrupt and its tick hrtimer 1 us later are one tick; so are the ticks counted. */
START_TEST(test_tick_counted_once)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_starved(&audit, TICKS, 120, true, 8), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->reselect.list[0].ticks, TICKS);
	ca_audit_free(&audit);
}
END_TEST

/* A rule file's max-reselect-ticks, where the option is not given. */
START_TEST(test_rule_file_ticks)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	starved(&t, TICKS, 120, false);
	test_options(&opts, "0,1");
	ck_assert_int_eq(audit_text_with_rules(&audit, &t, &opts, "max-reselect-ticks 12\n"),
			 CA_RESULT_PASS);
	ck_assert_uint_eq(audit.opts.max_reselect_ticks, 12);
	ca_audit_free(&audit);
	opts.max_reselect_ticks = 11;
	opts.has_max_reselect_ticks = true;
	ck_assert_int_eq(audit_text_with_rules(&audit, &t, &opts, "max-reselect-ticks 12\n"),
			 CA_RESULT_FAIL);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

Suite *reselect_suite(void)
{
	Suite *s = suite_create("reselect");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_starved_past_the_ticks);
	tcase_add_test(tc, test_within_the_ticks);
	tcase_add_test(tc, test_holder_outranks);
	tcase_add_test(tc, test_tick_counted_once);
	tcase_add_test(tc, test_rule_file_ticks);
	suite_add_tcase(s, tc);
	return s;
}
