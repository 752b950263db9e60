/*
 * test-accounting.c - the kernel's own forced-idle figure per task
 * (coreaudit-kfi markers) against the trace's (checks/accounting.h), on a
 * hand-made SMT2 trace with known truth.
 */
#include <stdio.h>

#include "pipeline.h"
#include "scenario.h"

#define KERNEL_BASE 5000000000ull	/* the task's core_forceidle_sum before the trace */

/*
 * 100 (cookie 1) runs on CPU0 from T0 while 300 (cookie 2) waits on idle
 * CPU1 from T0 + 1 us (forced idle) until 100 sleeps at T0 + 100 ms: the
 * kernel charges 100 for it.  The kernel's figure for 100 is sampled at
 * T0 + 2 us (KERNEL_BASE) and at T0 + 105 ms (KERNEL_BASE + @charged).
 */
static enum ca_result audit_sampled_wakeups(struct ca_audit *audit, uint64_t charged,
					    const char *rules, bool has_wakeups)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;
	char text[96];

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 1);
	sc_switch(&t, 1, T0 + US, 300, "R", 0, true, 2, 0);
	snprintf(text, sizeof(text), "coreaudit-kfi pid=100 forceidle_ns=%llu", KERNEL_BASE);
	sc_marker(&t, 0, T0 + 2 * US, 100, text);
	if (has_wakeups)	/* of a running task, not local: the trace records wakeups */
		sc_wakeup(&t, 1, T0 + 3 * US, 0, 100, 0);
	sc_switch(&t, 0, T0 + 100 * MS, 100, "S", 0, true, 1, 0);
	sc_switch(&t, 1, T0 + 100 * MS + 10 * US, 0, "R", 300, true, 0, 2);
	snprintf(text, sizeof(text), "coreaudit-kfi pid=100 forceidle_ns=%llu",
		 KERNEL_BASE + charged);
	sc_marker(&t, 1, T0 + 105 * MS, 300, text);
	sc_switch(&t, 1, T0 + 110 * MS, 300, "S", 0, true, 2, 0);
	test_options(&opts, "0,1");
	result = rules ? audit_text_with_rules(audit, &t, &opts, rules) :
			 audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

static enum ca_result audit_sampled(struct ca_audit *audit, uint64_t charged, const char *rules)
{
	return audit_sampled_wakeups(audit, charged, rules, true);
}

/* The kernel charged what the trace implies: compared, no finding. */
START_TEST(test_accounting_agrees)
{
	struct ca_audit audit;
	const struct ca_accounting *acc;

	ck_assert_int_eq(audit_sampled(&audit, 100 * MS, NULL), CA_RESULT_PASS);
	acc = &audit.pipeline->accounting;
	ck_assert_uint_eq(acc->markers, 2);
	ck_assert_uint_eq(acc->compared, 1);
	ck_assert_uint_eq(acc->finding_count, 0);
	ck_assert_int_eq(acc->list[0].pid, 100);
	ck_assert_uint_eq(acc->list[0].kernel_ns, 100 * MS);
	ck_assert_uint_eq(acc->list[0].model_ns, 100 * MS - US);
	ck_assert_uint_eq(acc->list[0].from_ns, T0 + 2 * US);
	ck_assert_uint_eq(acc->list[0].to_ns, T0 + 105 * MS);
	ca_audit_free(&audit);
}
END_TEST

/* The kernel charged nothing (b171501f undone, for an untagged task): a finding. */
START_TEST(test_accounting_contradicted)
{
	struct ca_audit audit;
	const struct ca_accounting *acc;

	ck_assert_int_eq(audit_sampled(&audit, 0, NULL), CA_RESULT_FAIL);
	acc = &audit.pipeline->accounting;
	ck_assert_uint_eq(acc->finding_count, 1);
	ck_assert(acc->list[0].is_finding);
	ck_assert_str_eq(audit.reasons[0], "1 task whose forced idle the kernel accounted otherwise "
			 "than the trace implies (beyond 50% and 20ms): the most, task 100: kernel "
			 "0ns, trace 99.999ms (the model is within 2% of the kernel with one vCPU "
			 "per host core, 12% overcommitted)");
	ca_audit_free(&audit);
	/* 60 ms against 99.999: within 50%; 40 ms is not. */
	ck_assert_int_eq(audit_sampled(&audit, 60 * MS, NULL), CA_RESULT_PASS);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_sampled(&audit, 40 * MS, NULL), CA_RESULT_FAIL);
	ca_audit_free(&audit);
	/* No wakeups in the trace: its figure reads low, the difference is not judged. */
	ck_assert_int_eq(audit_sampled_wakeups(&audit, 0, NULL, false), CA_RESULT_INCONCLUSIVE);
	ck_assert_str_eq(audit.reasons[0], "1 task whose forced idle the kernel accounted "
			 "otherwise than the trace implies, not judged: no sched_wakeup events in the "
			 "trace, so its figure reads low (record sched:sched_wakeup)");
	ca_audit_free(&audit);
}
END_TEST

/* A rule file's max-accounting-error. */
START_TEST(test_accounting_rule_file)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_sampled(&audit, 40 * MS, "max-accounting-error 70\n"),
			 CA_RESULT_PASS);
	ck_assert(audit.opts.max_accounting_pct == 70.0);
	ca_audit_free(&audit);
}
END_TEST

Suite *accounting_suite(void)
{
	Suite *s = suite_create("accounting");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_accounting_agrees);
	tcase_add_test(tc, test_accounting_contradicted);
	tcase_add_test(tc, test_accounting_rule_file);
	suite_add_tcase(s, tc);
	return s;
}
