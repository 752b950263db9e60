/*
 * test-corun.c - a core's co-run time counted once (checks/corun.h): the
 * union of spans given out of order, merged, settled below a mark; and on an
 * SMT4 core where one task shares it with two of another cookie at once.
 */
#include "checks/corun.h"
#include "scenario.h"

START_TEST(test_spans_merge_in_any_order)
{
	struct ca_corun corun = { 0 };

	ck_assert_int_eq(ca_corun_add(&corun, 30, 40), 0);
	ck_assert_int_eq(ca_corun_add(&corun, 10, 20), 0);
	ck_assert_int_eq(ca_corun_add(&corun, 50, 60), 0);
	ck_assert_uint_eq(corun.count, 3);
	ck_assert_uint_eq(ca_corun_total(&corun), 30);
	ck_assert_int_eq(ca_corun_add(&corun, 15, 35), 0);	/* joins the first two */
	ck_assert_uint_eq(corun.count, 2);
	ck_assert_uint_eq(corun.spans[0].start, 10);
	ck_assert_uint_eq(corun.spans[0].end, 40);
	ck_assert_int_eq(ca_corun_add(&corun, 5, 70), 0);	/* covers them all */
	ck_assert_uint_eq(corun.count, 1);
	ck_assert_uint_eq(ca_corun_total(&corun), 65);
	ck_assert_int_eq(ca_corun_add(&corun, 70, 80), 0);	/* touching: one span */
	ck_assert_int_eq(ca_corun_add(&corun, 90, 90), 0);	/* empty: nothing */
	ck_assert_uint_eq(corun.count, 1);
	ck_assert_uint_eq(ca_corun_total(&corun), 75);
	ca_corun_free(&corun);
}
END_TEST

/* Spans that end by the mark are let go, their length kept; the mark asked for ever less often. */
START_TEST(test_settle_keeps_the_total)
{
	struct ca_corun corun = { 0 };
	uint64_t want = 0;

	for (uint64_t i = 0; i < 1000; i++) {
		ck_assert_int_eq(ca_corun_add(&corun, i * 100, i * 100 + 50), 0);
		want += 50;
		if (ca_corun_wants_mark(&corun))
			ca_corun_settle(&corun, i * 100 - 200);	/* the last two still open */
		ck_assert_uint_eq(ca_corun_total(&corun), want);
	}
	ck_assert_uint_le(corun.count, 64);
	ck_assert_uint_gt(corun.settled_ns, 0);
	ca_corun_free(&corun);
}
END_TEST

/*
 * One three-way co-run from @at: CPU0 runs 100 (cookie 1), CPU1 200 and CPU2
 * 300 (cookie 2), switched in and out at @at plus @off: CPU0, CPU1, CPU2 in,
 * then CPU1, CPU2, CPU0 out.
 */
static void three_way(struct trace_text *t, uint64_t at, const uint64_t off[6])
{
	sc_switch(t, 0, at + off[0], 0, "R", 100, true, 0, 1);
	sc_switch(t, 1, at + off[1], 0, "R", 200, true, 0, 2);
	sc_switch(t, 2, at + off[2], 0, "R", 300, true, 0, 2);
	sc_switch(t, 1, at + off[3], 200, "S", 0, true, 2, 0);
	sc_switch(t, 2, at + off[4], 300, "S", 0, true, 2, 0);
	sc_switch(t, 0, at + off[5], 100, "S", 0, true, 1, 0);
}

/* The audit of @t on SMT4 core 0-3, CPU3 seen idle up to @end (grace 5 ms: all skew). */
static void audit_smt4(struct trace_text *t, uint64_t end, struct ca_audit *audit)
{
	struct ca_audit_options opts;

	sc_switch(t, 3, end, 0, "R", 0, true, 0, 0);
	test_options(&opts, "0-3");
	opts.grace_ns = 5 * MS;
	ck_assert_int_eq(audit_text(audit, t, &opts), CA_RESULT_PASS);
}

/*
 * SMT4: CPU0 runs 100 (cookie 1) from 1 ms to 9 ms; CPU1 runs 200 and CPU2
 * 300 (cookie 2) from 2 to 6 ms and from 4 to 8 ms.  Two pair windows of
 * 4 ms (8 ms summed) over 6 ms of the core's time.
 */
START_TEST(test_three_way_counted_once)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	sc_switch(&t, 3, T0, 0, "R", 0, true, 0, 0);
	three_way(&t, T0, (const uint64_t[6]){ 1 * MS, 2 * MS, 4 * MS, 6 * MS, 8 * MS, 9 * MS });
	audit_smt4(&t, T0 + 10 * MS, &audit);
	ck_assert_uint_eq(audit.pipeline->isolation.per_core_all[0].count, 2);
	ck_assert_uint_eq(audit.pipeline->isolation.per_core_all[0].total, 8 * MS);
	ck_assert_uint_eq(audit.pipeline->isolation.per_core_corun_ns[0], 6 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * 70 three-way co-runs, each 50 us of the core's time as two pair windows
 * (CPU1 from 10 to 50 us, CPU2 from 20 to 60 us beside CPU0's task from 0 to
 * 100 us) that CPU0's next event confirms together: the spans kept pass 64,
 * so they are let go while such a batch is judged; none may be counted twice.
 */
START_TEST(test_batch_confirmed_counted_once)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	sc_switch(&t, 3, T0, 0, "R", 0, true, 0, 0);
	for (uint64_t i = 0; i < 70; i++)
		three_way(&t, T0 + 1 * MS + i * MS,
			  (const uint64_t[6]){ 0, 10 * US, 20 * US, 50 * US, 60 * US, 100 * US });
	audit_smt4(&t, T0 + 80 * MS, &audit);
	ck_assert_uint_eq(audit.pipeline->isolation.per_core_all[0].count, 140);
	ck_assert_uint_eq(audit.pipeline->isolation.per_core_all[0].total, 70 * 80 * US);
	ck_assert_uint_eq(audit.pipeline->isolation.per_core_corun_ns[0], 70 * 50 * US);
	ck_assert_uint_gt(audit.pipeline->isolation.per_core_corun[0].settled_ns, 0);
	ck_assert(!audit.pipeline->isolation.per_core_corun[0].is_upper_bound);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

Suite *corun_suite(void)
{
	Suite *s = suite_create("corun");
	TCase *tc = tcase_create("corun");

	tcase_add_test(tc, test_spans_merge_in_any_order);
	tcase_add_test(tc, test_settle_keeps_the_total);
	tcase_add_test(tc, test_three_way_counted_once);
	tcase_add_test(tc, test_batch_confirmed_counted_once);
	suite_add_tcase(s, tc);
	return s;
}
