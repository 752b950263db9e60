/*
 * test-isolation.c - co-run windows on hand-made traces with known truth.
 * Two CPUs 0,1 of one core unless a test says otherwise; the cs_switch probe
 * gives cookies.
 */
#include <stdio.h>
#include <string.h>
#include "scenario.h"

/* CPU0 runs A (cookie ca) and CPU1 runs B (cookie cb) from T0+a_start/b_start to +len. */
static void corun(struct trace_text *t, uint64_t ca, uint64_t cb, uint64_t overlap)
{
	sc_switch(t, 0, T0, 0, "R", 100, true, 0, ca);
	sc_switch(t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, cb);
	sc_switch(t, 0, T0 + 1 * MS + overlap, 100, "S", 0, true, ca, 0);
	sc_switch(t, 1, T0 + 50 * MS, 200, "S", 0, true, cb, 0);
}

START_TEST(test_same_cookie_no_window)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	corun(&t, 7, 7, 10 * MS);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->isolation.summary_all.count, 0);
	ck_assert_str_eq(ca_cookie_source_name(audit.pipeline->state.cookie_source), "probe");
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_different_cookies_long_is_violation)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	corun(&t, 7, 9, 10 * MS);
	test_options(&opts, NULL);
	opts.has_grace = true;	/* no ipi events: the user's 5 ms alone decides */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].total_ns, 10 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_SKEW].count, 0);
	ck_assert_uint_eq(audit.pipeline->isolation.list_count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].start, T0 + 1 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].end, T0 + 11 * MS);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].tasks[0].pid, 100);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].tasks[0].identity, 7);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].tasks[1].pid, 200);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].tasks[1].identity, 9);
	ck_assert_int_eq(audit.verdict, CA_VERDICT_FAIL);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_different_cookies_short_is_skew)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	corun(&t, 7, 9, 100 * US);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_SKEW].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_SKEW].total_ns, 100 * US);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_grace_option_moves_the_line)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	corun(&t, 7, 9, 100 * US);
	test_options(&opts, NULL);
	opts.grace_ns = 100 * US;	/* at the grace: a violation */
	opts.has_grace = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 1);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_idle_beside_anything)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 0, false, 0, 0);	/* CPU1 seen idle */
	sc_switch(&t, 0, T0 + 30 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 31 * MS, 0, "R", 200, true, 0, 9);
	sc_switch(&t, 1, T0 + 60 * MS, 200, "S", 0, true, 9, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->isolation.summary_all.count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Tags: an untagged task (like cookie 0) beside a tagged one is a violation. */
START_TEST(test_untagged_beside_tagged)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_marker(&t, 0, T0, 100, "coreaudit-tag pid=100 tag=tenant-a");
	sc_switch(&t, 0, T0 + 1 * MS, 100, "R", 101, false, 0, 0);
	sc_switch(&t, 1, T0 + 2 * MS, 0, "R", 200, false, 0, 0);
	sc_switch(&t, 0, T0 + 12 * MS, 101, "S", 100, false, 0, 0);
	sc_switch(&t, 1, T0 + 20 * MS, 200, "S", 0, false, 0, 0);
	sc_switch(&t, 0, T0 + 40 * MS, 100, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	opts.identity = CA_IDENTITY_TAG;
	opts.has_grace = true;	/* no ipi events: the user's 5 ms alone decides */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	/* 101 (untagged) beside 200 (untagged): same; 100 (tenant-a) beside 200: 12..20 ms */
	ck_assert_uint_eq(audit.pipeline->isolation.summary_all.count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].start, T0 + 12 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].end, T0 + 20 * MS);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].tasks[0].pid, 100);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].tasks[1].identity, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Tags asked for, none written: every task alike, nothing compared: inconclusive, not PASS. */
START_TEST(test_tags_without_markers)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0 + 1 * MS, 0, "R", 100, false, 0, 0);
	sc_switch(&t, 1, T0 + 2 * MS, 0, "R", 200, false, 0, 0);
	sc_switch(&t, 0, T0 + 12 * MS, 100, "S", 0, false, 0, 0);
	sc_switch(&t, 1, T0 + 20 * MS, 200, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	opts.identity = CA_IDENTITY_TAG;
	opts.has_grace = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_ptr_nonnull(strstr(audit.reasons[0], "holds no coreaudit-tag marker"));
	ca_audit_free(&audit);
	/* The same trace by cookies, all 0 (--unknown-cookie zero): a pass. */
	test_options(&opts, NULL);
	opts.has_grace = true;
	opts.assume_unknown_cookie_zero = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * Backfill: CPU0's first event (a wakeup sent by pid 100) shows 100 running;
 * it ran from there until its first switch.  Its cookie comes from the probe
 * at that switch, after the window closed on CPU1's side.
 */
START_TEST(test_backfill_first_task)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 9);
	sc_wakeup(&t, 0, T0 + 1 * MS, 100, 300, 1);
	sc_switch(&t, 1, T0 + 8 * MS, 200, "S", 0, true, 9, 0);
	sc_switch(&t, 0, T0 + 20 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	opts.has_grace = true;	/* no ipi events: the user's 5 ms alone decides */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_UNKNOWN].count, 0);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].start, T0 + 1 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].end, T0 + 8 * MS);
	/* tasks[] follow the core's sibling order: CPU0's task first */
	ck_assert_str_eq(audit.pipeline->isolation.list[0].tasks[0].comm, "t100");
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].tasks[0].identity, 7);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].tasks[1].identity, 9);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* The probe comes after events of the other CPU: the switch still gets its cookies. */
START_TEST(test_probe_paired_across_interleaving)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	char line[300];

	sc_switch(&t, 1, T0, 0, "R", 200, true, 0, 9);
	sc_switch(&t, 0, T0 + 1 * MS, 0, "R", 100, false, 0, 0);
	sc_wakeup(&t, 1, T0 + 1 * MS + 50, 200, 300, 1);
	snprintf(line, sizeof(line), "  t-100 [000] 1.001000100: cs_switch: (ffff) prev_pid=0 "
		 "prev_cookie=0 next_pid=100 next_cookie=7");
	trace_raw(&t, line);
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, false, 0, 0);
	/* a probe whose switch was released before it came: its common_pid is the
	 * previous task (it fires inside __schedule), which is no contradiction */
	snprintf(line, sizeof(line), "  t-200 [001] 1.009500000: sched_wakeup: t9:9 [120] CPU:001");
	trace_raw(&t, line);
	sc_switch(&t, 1, T0 + 10 * MS, 200, "S", 0, false, 0, 0);
	snprintf(line, sizeof(line), "  t-0 [000] 1.010100000: sched_wakeup: t8:8 [120] CPU:000");
	trace_raw(&t, line);
	snprintf(line, sizeof(line), "  t-200 [001] 1.010200000: cs_switch: (ffff) prev_pid=200 "
		 "prev_cookie=9 next_pid=0 next_cookie=0");
	trace_raw(&t, line);
	test_options(&opts, NULL);
	opts.has_grace = true;	/* no ipi events: the user's 5 ms alone decides */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.missed_switches, 0);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].total_ns, 8 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Without any cookie source, a co-run is unknown: inconclusive, never clean. */
START_TEST(test_unknown_cookies_inconclusive)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, false, 0, 0);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, false, 0, 0);
	sc_switch(&t, 0, T0 + 11 * MS, 100, "S", 0, false, 0, 0);
	sc_switch(&t, 1, T0 + 50 * MS, 200, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_UNKNOWN].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_UNKNOWN].total_ns, 10 * MS);
	ck_assert_int_eq(audit.verdict, CA_VERDICT_INCONCLUSIVE);
	ca_audit_free(&audit);

	opts.assume_unknown_cookie_zero = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->isolation.summary_all.count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* SMT4: a window per incompatible pair. */
START_TEST(test_smt4_pairs)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 1, T0 + 1 * US, 0, "R", 101, true, 0, 7);
	sc_switch(&t, 2, T0 + 2 * US, 0, "R", 102, true, 0, 9);
	sc_switch(&t, 3, T0 + 3 * US, 0, "R", 0, false, 0, 0);
	sc_switch(&t, 2, T0 + 5 * MS, 102, "S", 0, true, 9, 0);
	sc_switch(&t, 0, T0 + 6 * MS, 100, "S", 0, true, 7, 0);
	sc_switch(&t, 1, T0 + 6 * MS + 1 * US, 101, "S", 0, true, 7, 0);
	test_options(&opts, "0-3");
	opts.grace_ns = 1 * MS;
	opts.has_grace = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	/* 102 against 100 and against 101: from its switch-in to its switch-out, each */
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 2);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].total_ns,
			  2 * (5 * MS - 2 * US));
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_SKEW].count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * Tags against kernel cookies: 100 (tag a) runs on CPU0 from 10 us; 200 (tag
 * b) arrives on CPU1 at 1 ms, next to it for LENGTH.  Cookies come from the
 * probe (A and B), from prctl (100 creates one, then shares it with 200, or
 * creates one for 200), or nowhere.  With KICK, CPU1's pick sends CPU0 a
 * reschedule IPI (and the trace has ipi events: a 200 us grace, else 5 ms).
 * One kernel cookie: a violation whatever the length or the cause.
 */
enum cookies { PROBE, PRCTL_SHARED, PRCTL_APART, NO_SOURCE };

static const struct {
	enum cookies cookies;
	uint64_t cookie_a, cookie_b;
	bool has_kick;
	uint64_t length;
	enum ca_window_cause cause;
	enum ca_window_kind kind;
	enum ca_result code;
	const char *checked_against;
} tag_rows[] = {
	{ PROBE, 0, 0, false, 100 * US, CA_CAUSE_SAME_COOKIE, CA_WINDOW_VIOLATION, CA_RESULT_FAIL,
	  "probe" },
	{ PROBE, 5, 5, true, 100 * US, CA_CAUSE_SAME_COOKIE, CA_WINDOW_VIOLATION, CA_RESULT_FAIL,
	  "probe" },
	{ PROBE, 5, 9, false, 100 * US, CA_CAUSE_UNKNOWN, CA_WINDOW_SKEW, CA_RESULT_PASS, "probe" },
	{ PROBE, 5, 9, true, 3 * MS, CA_CAUSE_RESCHED_IPI, CA_WINDOW_SKEW, CA_RESULT_PASS, "probe" },
	/* no ipi events: a late IPI could explain up to 15 ms; longer fails */
	{ PROBE, 5, 9, false, 6 * MS, CA_CAUSE_UNKNOWN, CA_WINDOW_UNKNOWN, CA_RESULT_INCONCLUSIVE,
	  "probe" },
	{ PROBE, 5, 9, false, 16 * MS, CA_CAUSE_UNKNOWN, CA_WINDOW_VIOLATION, CA_RESULT_FAIL,
	  "probe" },
	{ PRCTL_SHARED, 0, 0, false, 1 * MS, CA_CAUSE_SAME_COOKIE, CA_WINDOW_VIOLATION,
	  CA_RESULT_FAIL, "prctl" },
	{ PRCTL_APART, 0, 0, false, 1 * MS, CA_CAUSE_UNKNOWN, CA_WINDOW_SKEW, CA_RESULT_PASS,
	  "prctl" },
	{ NO_SOURCE, 0, 0, false, 1 * MS, CA_CAUSE_UNKNOWN, CA_WINDOW_SKEW, CA_RESULT_PASS,
	  "none" },
};

static void tagged_pair(struct trace_text *t, enum cookies cookies, uint64_t a, uint64_t b,
			bool has_kick, uint64_t length)
{
	bool probe = cookies == PROBE;

	sc_switch(t, 0, T0 + 10 * US, 0, "R", 100, probe, 0, a);
	sc_marker(t, 0, T0 + 20 * US, 100, "coreaudit-tag pid=100 tag=a");
	sc_marker(t, 0, T0 + 30 * US, 100, "coreaudit-tag pid=200 tag=b");
	if (cookies == PRCTL_SHARED || cookies == PRCTL_APART)
		sc_prctl(t, 0, T0 + 100 * US, 100, 1, 0, 0, 0);		/* CREATE */
	if (cookies == PRCTL_SHARED)
		sc_prctl(t, 0, T0 + 200 * US, 100, 2, 200, 0, 0);	/* SHARE_TO 200 */
	if (cookies == PRCTL_APART)
		sc_prctl(t, 0, T0 + 200 * US, 100, 1, 200, 0, 0);	/* CREATE for 200 */
	if (has_kick)
		sc_ipi(t, 1, T0 + 1 * MS - 5 * US, 0, 0);
	sc_switch(t, 1, T0 + 1 * MS, 0, "R", 200, probe, 0, b);
	sc_switch(t, 0, T0 + 1 * MS + length, 100, "S", 0, probe, a, 0);
	sc_switch(t, 1, T0 + 30 * MS, 200, "S", 0, probe, b, 0);
}

START_TEST(test_tags_against_kernel_cookies)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	bool has_warning = false;

	tagged_pair(&t, tag_rows[_i].cookies, tag_rows[_i].cookie_a, tag_rows[_i].cookie_b,
		    tag_rows[_i].has_kick, tag_rows[_i].length);
	test_options(&opts, NULL);
	opts.identity = CA_IDENTITY_TAG;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), tag_rows[_i].code);
	ck_assert_str_eq(ca_cookie_source_name(audit.pipeline->state.cookie_source),
			 tag_rows[_i].checked_against);
	ck_assert_uint_eq(audit.pipeline->isolation.summary_all.count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.list[0].end - audit.pipeline->isolation.list[0].start,
			  tag_rows[_i].length);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].cause, tag_rows[_i].cause);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].kind, tag_rows[_i].kind);
	for (int i = 0; i < audit.warning_count; i++)
		has_warning |= !strcmp(audit.warnings[i], "tags could not be checked against "
				       "kernel cookies: the trace has none (no cs_switch probe, "
				       "prctl events or coreaudit-cookie markers); their windows "
				       "are judged by cause or grace alone");
	ck_assert_int_eq(has_warning, tag_rows[_i].cookies == NO_SOURCE);
	if (tag_rows[_i].cause == CA_CAUSE_SAME_COOKIE) {
		ck_assert_int_eq(audit.reason_count, 1);
		ck_assert_str_eq(audit.reasons[0], tag_rows[_i].cookies == PROBE ?
				 "1 co-run window (100.0us) of different tags between tasks of one "
				 "kernel cookie (cookies from probe): the kernel never kept them apart" :
				 "1 co-run window (1.000ms) of different tags between tasks of one "
				 "kernel cookie (cookies from prctl): the kernel never kept them apart");
	}
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * Without ipi events no window's cause is told: up to 15 ms (a late IPI or a
 * tick could explain it) a window over the default grace is undecided; longer
 * ones, and any at a grace the user gave, are violations.
 */
#define NO_IPI_REASON " of unknown cause: no ipi events in the trace, and a reschedule IPI " \
	"taken late could explain each (record ipi:ipi_send_cpu and ipi:ipi_send_cpumask)"
static const struct {
	uint64_t length;
	bool has_grace;
	enum ca_window_kind kind;
	enum ca_result code;
	const char *reason;
} no_ipi_rows[] = {
	{ 4 * MS, false, CA_WINDOW_SKEW, CA_RESULT_PASS, NULL },
	{ 5 * MS, false, CA_WINDOW_UNKNOWN, CA_RESULT_INCONCLUSIVE,
	  "1 co-run window (5.000ms)" NO_IPI_REASON },
	{ 15 * MS, false, CA_WINDOW_UNKNOWN, CA_RESULT_INCONCLUSIVE,
	  "1 co-run window (15.000ms)" NO_IPI_REASON },
	{ 15 * MS + 1, false, CA_WINDOW_VIOLATION, CA_RESULT_FAIL,
	  "1 co-run window of different cookies at or over the grace period (5.000ms)" },
	{ 5 * MS, true, CA_WINDOW_VIOLATION, CA_RESULT_FAIL,
	  "1 co-run window of different cookies at or over the grace period (5.000ms)" },
	{ 4 * MS, true, CA_WINDOW_SKEW, CA_RESULT_PASS, NULL },
};

START_TEST(test_no_ipi_events_bound)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	corun(&t, 7, 9, no_ipi_rows[_i].length);
	test_options(&opts, NULL);
	opts.has_grace = no_ipi_rows[_i].has_grace;	/* 5 ms either way */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), no_ipi_rows[_i].code);
	ck_assert_uint_eq(audit.pipeline->isolation.list_count, 1);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].kind, no_ipi_rows[_i].kind);
	ck_assert_int_eq(audit.pipeline->isolation.list[0].cause, CA_CAUSE_UNKNOWN);
	if (no_ipi_rows[_i].reason)
		ck_assert_str_eq(audit.reasons[0], no_ipi_rows[_i].reason);
	else
		ck_assert_int_eq(audit.reason_count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

Suite *isolation_suite(void)
{
	Suite *s = suite_create("isolation");
	TCase *tc = tcase_create("windows");

	tcase_add_test(tc, test_same_cookie_no_window);
	tcase_add_test(tc, test_tags_without_markers);
	tcase_add_test(tc, test_different_cookies_long_is_violation);
	tcase_add_loop_test(tc, test_no_ipi_events_bound, 0,
			    sizeof(no_ipi_rows) / sizeof(no_ipi_rows[0]));
	tcase_add_test(tc, test_different_cookies_short_is_skew);
	tcase_add_test(tc, test_grace_option_moves_the_line);
	tcase_add_test(tc, test_idle_beside_anything);
	tcase_add_test(tc, test_untagged_beside_tagged);
	tcase_add_test(tc, test_backfill_first_task);
	tcase_add_test(tc, test_probe_paired_across_interleaving);
	tcase_add_test(tc, test_unknown_cookies_inconclusive);
	tcase_add_test(tc, test_smt4_pairs);
	tcase_add_loop_test(tc, test_tags_against_kernel_cookies, 0,
			    sizeof(tag_rows) / sizeof(tag_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}
