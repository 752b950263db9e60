/*
 * test-unjust.c - unjustified forced idle (checks/unjust.h): a CPU idle
 * while a task of the cookie its sibling runs waits on it, on hand-made SMT2
 * traces with known truth.
 */
#include <string.h>

#include "pipeline.h"
#include "scenario.h"

#define A 101		/* cookie 1, on CPU0 */
#define A2 201		/* cookie 1, on CPU1 */
#define B 301		/* cookie 2 */

enum ending {
	ENDS_Y_RUNS,		/* CPU0 runs A again */
	ENDS_OTHER_COOKIE,	/* CPU1 leaves A2 for B: the kernel had chosen cookie 2 */
	ENDS_AFTER_KICK,	/* CPU0's selection kicked CPU1 before it idled */
	HOLDER_TOLD,		/* CPU0 ran B beside A2 first: CPU1 was told to leave, unseen */
	HOLDER_WOKE,		/* CPU1 woke B onto itself: need-resched set, no IPI */
	NO_WAKEUPS,		/* as ENDS_Y_RUNS, in a trace without sched_wakeup events */
};

/*
 * CPU1 runs A2 from T0; CPU0 runs A from T0 + 10 us and leaves it for idle
 * at T0 + 5 ms, A still runnable there: the core's cookie is A's, and CPU0
 * idles beside it until T0 + 9 ms (@ending says how).
 */
static void idled(struct trace_text *t, enum ending ending)
{
	if (ending == HOLDER_WOKE)
		sc_switch(t, 1, T0 - 100 * US, 0, "R", B, true, 0, 2);
	sc_ipi(t, 1, T0, ending == HOLDER_WOKE ? B : 0, 0);	/* ipi events: the check runs */
	if (ending == HOLDER_WOKE)
		sc_switch(t, 1, T0, B, "S", A2, true, 2, 1);
	else
		sc_switch(t, 1, T0, 0, "R", A2, true, 0, 1);
	if (ending != NO_WAKEUPS)
		sc_wakeup(t, 1, T0 + 1 * US, A2, A2, 1);	/* of a running task: wakeups are told */
	if (ending == HOLDER_TOLD) {
		sc_switch(t, 0, T0 + 2 * US, 0, "R", B, true, 0, 2);
		sc_switch(t, 0, T0 + 5 * US, B, "S", 0, true, 2, 0);
	}
	sc_switch(t, 0, T0 + 10 * US, 0, "R", A, true, 0, 1);
	if (ending == ENDS_AFTER_KICK)
		sc_ipi(t, 0, T0 + 5 * MS - 10 * US, A, 1);
	if (ending == HOLDER_WOKE)
		sc_wakeup(t, 1, T0 + 5 * MS - 200 * US, A2, B, 1);
	sc_switch(t, 0, T0 + 5 * MS, A, "R", 0, true, 1, 0);
	if (ending == ENDS_OTHER_COOKIE) {
		sc_switch(t, 1, T0 + 9 * MS, A2, "R", B, true, 1, 2);
		sc_switch(t, 1, T0 + 9 * MS + 5 * US, B, "S", A2, true, 2, 1);
	}
	sc_switch(t, 0, T0 + 9 * MS + 10 * US, 0, "R", A, true, 0, 1);
	sc_switch(t, 0, T0 + 20 * MS, A, "S", 0, true, 1, 0);
	sc_switch(t, 1, T0 + 20 * MS + US, A2, "S", 0, true, 1, 0);
}

static enum ca_result audit_idled(struct ca_audit *audit, enum ending ending, uint64_t max_ns)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;

	idled(&t, ending);
	test_options(&opts, "0,1");
	opts.max_unjust_ns = max_ns;
	result = audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

/*
 * A pick pending that the trace does not show: no stretch beside the holder
 * is judged until it switches.  HOLDER_TOLD: a sibling switched to another
 * cookie beside it, with no IPI (need-resched was set already), as a stalled
 * vCPU does for milliseconds.  HOLDER_WOKE: the holder's CPU woke a task of
 * another cookie onto itself just before, which may preempt there and win the
 * core-wide pick, and a local wakeup sets need-resched with no IPI (a correct
 * 6.12 kernel under QEMU: 1.2 ms of such forced idle while the waker sat 4.6
 * ms in a softirq).
 */
static const enum ending pending_picks[] = { HOLDER_TOLD, HOLDER_WOKE };

START_TEST(test_unjust_not_beside_a_pending_pick)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_idled(&audit, pending_picks[_i], MS), CA_RESULT_PASS);
	ck_assert(audit.pipeline->unjust.is_checked);
	ck_assert_uint_eq(audit.pipeline->unjust.finding_count, 0);
	ca_audit_free(&audit);
}
END_TEST

/*
 * Without sched_wakeup events a local wakeup that changed the pick is unseen
 * (and so are the queued tasks): the check is not run, and a warning says so.
 */
START_TEST(test_unjust_not_judged_without_wakeups)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_idled(&audit, NO_WAKEUPS, MS), CA_RESULT_PASS);
	ck_assert(!audit.pipeline->unjust.is_checked);
	ck_assert_uint_eq(audit.pipeline->unjust.finding_count, 0);
	for (int i = 0; i <= audit.warning_count; i++) {
		ck_assert_msg(i < audit.warning_count, "no warning says the check was not run");
		if (strstr(audit.warnings[i], "no sched_wakeup events") &&
		    strstr(audit.warnings[i], "; nor are inversions and unjustified forced idle judged"))
			break;
	}
	ca_audit_free(&audit);
}
END_TEST

START_TEST(test_unjust_found)
{
	struct ca_audit audit;
	const struct ca_owed *u;
	const struct ca_owed_finding *f;

	ck_assert_int_eq(audit_idled(&audit, ENDS_Y_RUNS, MS), CA_RESULT_FAIL);
	u = &audit.pipeline->unjust;
	ck_assert_uint_eq(u->finding_count, 1);
	f = &u->list[0];
	ck_assert_int_eq(f->who.waiting_cpu, 0);
	ck_assert_int_eq(f->who.waiting_pid, A);
	ck_assert_uint_eq(f->who.waiting_cookie, 1);
	ck_assert_int_eq(f->who.holder_cpu, 1);
	ck_assert_int_eq(f->who.holder_pid, A2);
	ck_assert_uint_eq(f->who.holder_cookie, 1);
	ck_assert_uint_eq(f->start_ns, T0 + 5 * MS);
	ck_assert_uint_eq(f->decided_ns, T0 + 5 * MS);
	ck_assert_uint_eq(f->end_ns, T0 + 9 * MS + 10 * US);
	ck_assert_uint_eq(u->longest_ns, 4 * MS + 10 * US);
	ck_assert_uint_eq(audit.pipeline->inversion.finding_count, 0);
	ck_assert_str_eq(audit.reasons[0], "1 unjustified forced idle (a CPU idle beside a queued task "
			 "of the core's cookie past 1.000ms once the kernel chose): the longest, "
			 "task 101 (prio 120) on CPU 0 for 4.010ms while CPU 1 ran task 201 (prio "
			 "120)");
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_idled(&audit, ENDS_Y_RUNS, 5 * MS), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->unjust.finding_count, 0);
	ca_audit_free(&audit);
}
END_TEST

/*
 * The stretch ends with the sibling on another cookie, or began with the
 * sibling told to reschedule: the kernel had chosen another cookie than
 * what the core showed, and the idle CPU obeyed it.
 */
START_TEST(test_transition_no_finding)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_idled(&audit, ENDS_OTHER_COOKIE, MS), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->unjust.finding_count, 0);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_idled(&audit, ENDS_AFTER_KICK, MS), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->unjust.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->unjust.longest_ns, 0);
	ca_audit_free(&audit);
}
END_TEST

/* Cookie 0 is not in the core tree: an idle CPU beside an untagged task owes nothing. */
START_TEST(test_cookie_zero_owes_nothing)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_ipi(&t, 1, T0, 0, 0);		/* ipi and wakeup events: the check runs */
	sc_switch(&t, 1, T0, 0, "R", A2, true, 0, 0);
	sc_wakeup(&t, 1, T0 + 1 * US, A2, A2, 1);
	sc_switch(&t, 0, T0 + 10 * US, 0, "R", A, true, 0, 0);
	sc_switch(&t, 0, T0 + 5 * MS, A, "R", 0, true, 0, 0);
	sc_switch(&t, 0, T0 + 9 * MS, 0, "R", A, true, 0, 0);
	sc_switch(&t, 0, T0 + 20 * MS, A, "S", 0, true, 0, 0);
	test_options(&opts, "0,1");
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert(audit.pipeline->unjust.is_checked);
	ck_assert_uint_eq(audit.pipeline->unjust.finding_count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A rule file's max-unjustified, where the option is not given; the option wins. */
START_TEST(test_rule_file_max)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	idled(&t, ENDS_Y_RUNS);
	test_options(&opts, "0,1");
	ck_assert_int_eq(audit_text_with_rules(&audit, &t, &opts, "max-unjustified 5ms\n"),
			 CA_RESULT_PASS);
	ck_assert_uint_eq(audit.opts.max_unjust_ns, 5 * MS);
	ca_audit_free(&audit);
	opts.max_unjust_ns = 2 * MS;
	opts.has_max_unjust = true;
	ck_assert_int_eq(audit_text_with_rules(&audit, &t, &opts, "max-unjustified 5ms\n"),
			 CA_RESULT_FAIL);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

Suite *unjust_suite(void)
{
	Suite *s = suite_create("unjust");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_unjust_found);
	tcase_add_loop_test(tc, test_unjust_not_beside_a_pending_pick, 0,
			    sizeof(pending_picks) / sizeof(pending_picks[0]));
	tcase_add_test(tc, test_unjust_not_judged_without_wakeups);
	tcase_add_test(tc, test_transition_no_finding);
	tcase_add_test(tc, test_cookie_zero_owes_nothing);
	tcase_add_test(tc, test_rule_file_max);
	suite_add_tcase(s, tc);
	return s;
}
