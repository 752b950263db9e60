/*
 * test-smt.c - what SMT with core scheduling gave (checks/capacity.h,
 * checks/fairness.h), on hand-made traces whose figures are worked out
 * below by hand.
 */
#include <math.h>
#include <stdio.h>

#include "pipeline.h"
#include "scenario.h"

#define A 101		/* cookie 1 */
#define A2 102		/* cookie 1 */
#define B 201		/* cookie 2 */
#define S (T0 + 10 * US)	/* both CPUs known from here */

/* A and A2 have cookie 1, B cookie 2: markers at T0 on @cpu. */
static void cookies(struct trace_text *t, int cpu)
{
	sc_marker(t, cpu, T0, 0, "coreaudit-cookie pid=101 cookie=0x1");
	sc_marker(t, cpu, T0, 0, "coreaudit-cookie pid=102 cookie=0x1");
	sc_marker(t, cpu, T0, 0, "coreaudit-cookie pid=201 cookie=0x2");
}

/*
 * One core "0,1", in units of @u ns after S:
 *   0-2   CPU0 runs A, CPU1 idle                      k=1
 *   2-6   A2 beside A (one cookie)                    k=2, compatible
 *   6-7   A alone                                     k=1
 *   7-10  B (cookie 2) queued on idle CPU1: forced    k=1, forced, B waits
 *   10-12 A sleeps, CPU1 runs B                       k=1
 *   12-14 both idle                                   k=0
 * B runs on CPU1 before S (from T0); CPU0 shows first at S.  The cookies
 * come from coreaudit-cookie markers.
 */
static void shared_core(struct trace_text *t, uint64_t u)
{
	cookies(t, 1);
	sc_switch(t, 1, T0, 0, "R", B, false, 0, 0);
	sc_switch(t, 1, S, B, "S", 0, false, 0, 0);
	sc_switch(t, 0, S, 0, "R", A, false, 0, 0);
	sc_switch(t, 1, S + 2 * u, 0, "R", A2, false, 0, 0);
	sc_switch(t, 1, S + 6 * u, A2, "S", 0, false, 0, 0);
	sc_wakeup(t, 0, S + 7 * u, A, B, 1);
	sc_switch(t, 0, S + 10 * u, A, "S", 0, false, 0, 0);
	sc_switch(t, 1, S + 10 * u, 0, "R", B, false, 0, 0);
	sc_switch(t, 1, S + 12 * u, B, "S", 0, false, 0, 0);
	sc_switch(t, 0, S + 14 * u, 0, "R", A, false, 0, 0);
}

/* The audit of @t on "0,1" with @reports and --max-unfairness @pct; @t freed. */
static enum ca_result audit_one_core(struct ca_audit *audit, struct trace_text *t,
				     unsigned int reports, double pct)
{
	struct ca_audit_options opts;
	enum ca_result result;

	test_options(&opts, "0,1");
	opts.smt_reports = reports;
	opts.max_unfairness_pct = pct;
	result = audit_text(audit, t, &opts);
	if (result == CA_RESULT_BAD_INPUT)
		fprintf(stderr, "%s\n", audit->error);
	trace_free(t);
	return result;
}

static enum ca_result audit_shared(struct ca_audit *audit, uint64_t u, unsigned int reports,
				   double max_unfairness_pct)
{
	struct trace_text t = { 0 };

	shared_core(&t, u);
	return audit_one_core(audit, &t, reports, max_unfairness_pct);
}

START_TEST(test_capacity_core)
{
	struct ca_audit audit;
	const struct ca_capacity *cap;
	const struct ca_capacity_core *c;
	double s;

	ck_assert_int_eq(audit_shared(&audit, MS, CA_SMT_REPORT_CAPACITY, -1), CA_RESULT_PASS);
	cap = &audit.pipeline->capacity;
	c = &cap->cores[0];
	ck_assert_uint_eq(c->known_ns, 14 * MS);
	ck_assert_uint_eq(c->busy_ns[0], 2 * MS);
	ck_assert_uint_eq(c->busy_ns[1], 8 * MS);
	ck_assert_uint_eq(c->busy_ns[2], 4 * MS);
	ck_assert_uint_eq(c->compatible_ns, 4 * MS);
	ck_assert_uint_eq(c->mixed_ns, 0);
	ck_assert_uint_eq(c->forced_ns, 3 * MS);
	ck_assert_uint_eq(c->demand_ns, 12 * MS);
	ck_assert_uint_eq(c->waiting_ns, 3 * MS);
	ck_assert_uint_eq(ca_capacity_busy_core_ns(c), 12 * MS);
	ck_assert_uint_eq(ca_capacity_busy_thread_ns(c), 16 * MS);
	/* One core: SMT off runs min(R, 1); R = 2 over 2-6 and 7-10. */
	ck_assert_uint_eq(cap->ht_off_busy_ns, 12 * MS);
	ck_assert_uint_eq(cap->ht_off_waiting_ns, 7 * MS);
	ck_assert(ca_capacity_break_even(c, c->demand_ns, &s));
	ck_assert(fabs(s - 1.0) < 1e-9);
	ca_audit_free(&audit);
}
END_TEST

START_TEST(test_fairness_core)
{
	struct ca_audit audit;
	const struct ca_fairness *fair;
	const struct ca_fair_identity *one, *two;

	ck_assert_int_eq(audit_shared(&audit, MS, CA_SMT_REPORT_FAIRNESS, -1), CA_RESULT_PASS);
	fair = &audit.pipeline->fairness;
	ck_assert_uint_eq(fair->identity_count, 2);
	one = &fair->identities[fair->identities[0].value == 1 ? 0 : 1];
	two = &fair->identities[fair->identities[0].value == 2 ? 0 : 1];
	ck_assert_uint_eq(two->value, 2);
	/* Contended only over 7-10: B queued while A ran. */
	ck_assert_uint_eq(one->competed_ns, 3 * MS);
	ck_assert_uint_eq(one->received_ns, 3 * MS);
	ck_assert(fabs(one->fair_ns - 1.5 * MS) < 1);
	ck_assert_uint_eq(two->competed_ns, 3 * MS);
	ck_assert_uint_eq(two->received_ns, 0);
	ck_assert(fabs(ca_fairness_unfairness(two) - 100.0) < 1e-9);
	ck_assert(fabs(ca_fairness_unfairness(one)) < 1e-9);
	ck_assert_uint_eq(two->longest_wait_ns, 3 * MS);
	ck_assert_int_eq(two->longest_wait_pid, B);
	ck_assert_int_eq(two->longest_wait_cpu, 1);
	ck_assert_uint_eq(two->longest_wait_start, S + 7 * MS);
	ck_assert_uint_eq(one->longest_wait_ns, 0);
	ck_assert_uint_eq(fair->pair_count, 1);
	ck_assert_uint_eq(fair->identities[fair->pairs[0].waiting].value, 2);
	ck_assert_uint_eq(fair->identities[fair->pairs[0].running].value, 1);
	ck_assert_uint_eq(fair->pairs[0].waited_ns, 3 * MS);
	/* T0 to S: CPU0 not yet seen. */
	ck_assert_uint_eq(fair->unknown_ns, 10 * US);
	ck_assert_uint_eq(fair->finding_count, 0);
	ca_audit_free(&audit);
}
END_TEST

/* Ten times longer: cookie 2's fair share, 15 ms, is judged; it got none of it. */
START_TEST(test_max_unfairness)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_shared(&audit, 10 * MS, 0, 50), CA_RESULT_FAIL);
	ck_assert(audit.pipeline->has_fairness);
	ck_assert_uint_eq(audit.pipeline->fairness.finding_count, 1);
	ck_assert_str_eq(audit.reason_info[0].check, "fairness");
	ck_assert_int_eq(audit.reason_info[0].pid, 201);
	ca_audit_free(&audit);
	/* 100 % short is not more than 100. */
	ck_assert_int_eq(audit_shared(&audit, 10 * MS, 0, 100), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->fairness.finding_count, 0);
	ca_audit_free(&audit);
	/* Shares under 10 ms are not judged. */
	ck_assert_int_eq(audit_shared(&audit, MS, 0, 0), CA_RESULT_PASS);
	ca_audit_free(&audit);
}
END_TEST

/* The identity of cookie @value, or NULL. */
static const struct ca_fair_identity *fair_identity(const struct ca_audit *audit, uint64_t value)
{
	const struct ca_fairness *fair = &audit->pipeline->fairness;

	for (size_t i = 0; i < fair->identity_count; i++)
		if (fair->identities[i].value == value)
			return &fair->identities[i];
	return NULL;
}

/* CPU0 idle at S, then A; CPU1 idle at S (B ran before and sleeps); cookies on CPU1 at T0. */
static void a_beside_idle(struct trace_text *t)
{
	cookies(t, 1);
	sc_switch(t, 1, T0, 0, "R", B, false, 0, 0);
	sc_switch(t, 1, S, B, "S", 0, false, 0, 0);
	sc_switch(t, 0, S, 0, "R", A, false, 0, 0);
}

/*
 * B waits on idle CPU1 while A and A2 take turns on CPU0 for 40 ms; then
 * CPU1's next event says events were lost.  CPU1 was unobserved from its
 * last event at S: the 40 ms B seemed to wait is not known, and no finding
 * may come of it (before, cookie 2 failed at 100 % short of a 20 ms share).
 */
START_TEST(test_fairness_gap_found_later)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;
	const struct ca_fair_identity *two;

	a_beside_idle(&t);
	sc_wakeup(&t, 0, S + 1 * MS, A, B, 1);
	sc_wakeup(&t, 0, S + 2 * MS, A, A2, 0);
	for (int k = 1; k <= 7; k++)
		sc_switch(&t, 0, S + 5 * k * MS, k % 2 ? A : A2, "R", k % 2 ? A2 : A, false, 0, 0);
	sc_switch(&t, 0, S + 40 * MS + 500 * US, A2, "S", A, false, 0, 0);
	sc_switch(&t, 0, S + 40 * MS + 800 * US, A, "S", 0, false, 0, 0);
	trace_raw(&t, "CPU:1 [5 EVENTS DROPPED]");
	sc_switch(&t, 1, S + 41 * MS, 0, "R", B, false, 0, 0);
	sc_switch(&t, 1, S + 45 * MS, B, "S", 0, false, 0, 0);
	sc_switch(&t, 0, S + 46 * MS, 0, "R", A, false, 0, 0);
	ck_assert_int_eq(audit_one_core(&audit, &t, 0, 50), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.pipeline->fairness.finding_count, 0);
	ck_assert_ptr_nonnull(two = fair_identity(&audit, 2));
	ck_assert(two->fair_ns < 1.0);
	ck_assert_uint_eq(two->received_ns, 0);
	ck_assert_uint_eq(two->longest_wait_ns, 0);	/* it began after the gap's start */
	ca_audit_free(&audit);
}
END_TEST

/*
 * B waits 40 ms beside A (cookie 2: 20 ms owed, none received), runs briefly
 * and sleeps; CPU1 then shows nothing until lost events and B switching out
 * at 300 ms, while A and A2 (one cookie, no contention) take turns on CPU0.
 * B may have run all that time: the unobserved 259 ms is its doubt, so no
 * finding (it was 5 ms when uncontended intervals were not held to settle,
 * and cookie 2 failed at 75 % short).
 */
START_TEST(test_fairness_gap_in_uncontended_time)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;
	const struct ca_fair_identity *two;

	a_beside_idle(&t);
	sc_wakeup(&t, 0, S + 1 * MS, A, B, 1);
	sc_switch(&t, 0, S + 41 * MS, A, "S", 0, false, 0, 0);
	sc_switch(&t, 1, S + 41 * MS, 0, "R", B, false, 0, 0);
	sc_switch(&t, 1, S + 41 * MS + 100 * US, B, "S", 0, false, 0, 0);
	sc_switch(&t, 0, S + 45 * MS, 0, "R", A, false, 0, 0);
	sc_wakeup(&t, 0, S + 46 * MS, A, A2, 0);
	for (int k = 1; k <= 9; k++)
		sc_switch(&t, 0, S + (50 + 25 * k) * MS, k % 2 ? A : A2, "R", k % 2 ? A2 : A,
			  false, 0, 0);
	trace_raw(&t, "CPU:1 [5 EVENTS DROPPED]");
	sc_switch(&t, 1, S + 300 * MS, B, "S", 0, false, 0, 0);
	sc_switch(&t, 0, S + 301 * MS, A2, "S", 0, false, 0, 0);
	ck_assert_int_eq(audit_one_core(&audit, &t, 0, 50), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.pipeline->fairness.finding_count, 0);
	ck_assert_ptr_nonnull(two = fair_identity(&audit, 2));
	ck_assert(fabs(two->fair_ns - 20.0 * MS) < 1);
	ck_assert_uint_eq(two->received_ns, 0);
	ck_assert_uint_ge(two->doubt_ns, 258 * MS);
	ck_assert(ca_fairness_is_undecided(&audit.pipeline->fairness, two));
	ca_audit_free(&audit);
}
END_TEST

/*
 * Cores "0,1 2,3": B queued on idle CPU1 beside A for 40 ms, while CPU2, on
 * the other core, loses events at 10 ms.  CPU2 may have pulled B and run it
 * unseen (its migration lost with the rest): B is not owed a share from then.
 */
START_TEST(test_fairness_queued_before_other_gap)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_marker(&t, 2, T0, 0, "coreaudit-cookie pid=301 cookie=0x3");
	sc_marker(&t, 2, T0, 0, "coreaudit-cookie pid=302 cookie=0x3");
	a_beside_idle(&t);
	sc_switch(&t, 2, S, 0, "R", 301, false, 0, 0);
	sc_switch(&t, 3, S, 0, "R", 302, false, 0, 0);
	sc_wakeup(&t, 0, S + 1 * MS, A, B, 1);
	trace_raw(&t, "CPU:2 [5 EVENTS DROPPED]");
	sc_switch(&t, 2, S + 10 * MS, 301, "S", 0, false, 0, 0);
	sc_switch(&t, 0, S + 41 * MS, A, "S", 0, false, 0, 0);
	sc_switch(&t, 1, S + 41 * MS, 0, "R", B, false, 0, 0);
	sc_switch(&t, 1, S + 45 * MS, B, "S", 0, false, 0, 0);
	sc_switch(&t, 3, S + 45 * MS, 302, "S", 0, false, 0, 0);
	test_options(&opts, "0,1 2,3");
	opts.max_unfairness_pct = 40;	/* B owed 20 ms, 10 ms of doubt: 50 % short, were it owed */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.pipeline->fairness.finding_count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A wakeup of pid 0 (a damaged line) queues no idle task to be owed a share. */
START_TEST(test_fairness_no_ghost_idle_task)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	a_beside_idle(&t);
	sc_wakeup(&t, 0, S + 1 * MS, A, 0, 1);
	sc_switch(&t, 1, S + 30 * MS, 0, "R", A2, false, 0, 0);
	sc_switch(&t, 0, S + 40 * MS, A, "S", 0, false, 0, 0);
	sc_switch(&t, 1, S + 40 * MS, A2, "S", 0, false, 0, 0);
	ck_assert_int_eq(audit_one_core(&audit, &t, 0, 0), CA_RESULT_PASS);
	ck_assert_ptr_null(fair_identity(&audit, 0));
	ck_assert_uint_eq(audit.pipeline->state.cpus[1].queued_count, 0);
	ca_audit_free(&audit);
}
END_TEST

/*
 * B waits 30 ms beside A (cookie 2: a fair 15 ms, none received), then runs
 * 30 ms while task 301, of a cookie never seen, waits on idle CPU0.  Over
 * the known time cookie 2 is 100 % short; had the 30 ms not known been its,
 * not short at all: undecided, the audit inconclusive (before: a FAIL).
 */
START_TEST(test_fairness_unknown_is_doubt)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;
	const struct ca_fair_identity *two;

	a_beside_idle(&t);
	sc_wakeup(&t, 0, S, A, B, 1);
	sc_switch(&t, 0, S + 30 * MS, A, "S", 0, false, 0, 0);
	sc_wakeup(&t, 1, S + 30 * MS, 0, 301, 0);
	sc_switch(&t, 1, S + 30 * MS, 0, "R", B, false, 0, 0);
	sc_switch(&t, 1, S + 60 * MS, B, "S", 0, false, 0, 0);
	sc_switch(&t, 0, S + 60 * MS, 0, "R", 301, false, 0, 0);
	sc_switch(&t, 0, S + 61 * MS, 301, "S", 0, false, 0, 0);
	ck_assert_int_eq(audit_one_core(&audit, &t, 0, 50), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.pipeline->fairness.finding_count, 0);
	ck_assert_uint_eq(audit.pipeline->fairness.undecided_count, 1);
	ck_assert_ptr_nonnull(two = fair_identity(&audit, 2));
	ck_assert(fabs(two->fair_ns - 15.0 * MS) < 1);
	ck_assert_uint_eq(two->received_ns, 0);
	ck_assert_uint_eq(two->doubt_ns, 31 * MS + 10 * US);	/* and 301 alone, S+60-61 */
	ck_assert(fabs(ca_fairness_unfairness(two) - 100.0) < 1e-9);
	ck_assert(fabs(ca_fairness_unfairness_doubted(two)) < 1e-9);
	ck_assert_int_eq(audit.reason_count, 1);
	ck_assert_str_eq(audit.reason_info[0].check, "fairness");
	ca_audit_free(&audit);
}
END_TEST

/* A trace that starts at 0.000000: its first interval counts (it was taken for "none yet"). */
START_TEST(test_capacity_from_zero)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;
	const struct ca_capacity_core *c;

	sc_marker(&t, 1, 0, 0, "coreaudit-cookie pid=101 cookie=0x1");
	sc_marker(&t, 1, 0, 0, "coreaudit-cookie pid=102 cookie=0x1");
	sc_switch(&t, 0, 0, 0, "R", A, false, 0, 0);
	sc_switch(&t, 1, 0, 0, "R", A2, false, 0, 0);
	sc_switch(&t, 0, 10 * MS, A, "S", 0, false, 0, 0);
	sc_switch(&t, 1, 10 * MS, A2, "S", 0, false, 0, 0);
	ck_assert_int_eq(audit_one_core(&audit, &t, CA_SMT_REPORT_CAPACITY, -1), CA_RESULT_PASS);
	c = &audit.pipeline->capacity.cores[0];
	ck_assert_uint_eq(c->known_ns, 10 * MS);
	ck_assert_uint_eq(c->busy_ns[2], 10 * MS);
	ck_assert_uint_eq(c->compatible_ns, 10 * MS);
	ca_audit_free(&audit);
}
END_TEST

/*
 * Two cores "0,1 2,3": A and A2 (one cookie) co-run on core 0 for 10 ms
 * while core 1 idles.  On that core alone SMT off would queue one of them
 * (break-even 1.00); on the machine it would run them on two cores: SMT must
 * do twice one thread's work to win (2.00), which it cannot.
 */
START_TEST(test_capacity_machine)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	const struct ca_capacity *cap;
	struct ca_capacity_core sum;
	double s;

	cookies(&t, 2);
	sc_idle(&t, 2, T0, 1);
	sc_idle(&t, 3, T0, 1);
	sc_switch(&t, 0, T0, 0, "R", A, false, 0, 0);
	sc_switch(&t, 1, T0, 0, "R", A2, false, 0, 0);
	sc_switch(&t, 0, T0 + 10 * MS, A, "S", 0, false, 0, 0);
	sc_switch(&t, 1, T0 + 10 * MS, A2, "S", 0, false, 0, 0);
	sc_idle(&t, 2, T0 + 10 * MS, -1);
	sc_idle(&t, 3, T0 + 10 * MS, -1);
	test_options(&opts, "0,1 2,3");
	opts.smt_reports = CA_SMT_REPORT_CAPACITY;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	cap = &audit.pipeline->capacity;
	ck_assert_uint_eq(cap->cores[0].busy_ns[2], 10 * MS);
	ck_assert_uint_eq(cap->cores[1].busy_ns[0], 10 * MS);
	ck_assert(ca_capacity_break_even(&cap->cores[0], cap->cores[0].demand_ns, &s));
	ck_assert(fabs(s - 1.0) < 1e-9);
	ck_assert_uint_eq(cap->core_ns, 20 * MS);
	ck_assert_uint_eq(cap->ht_off_busy_ns, 20 * MS);
	ck_assert_uint_eq(cap->ht_off_waiting_ns, 0);
	ca_capacity_sum(cap, &sum);
	ck_assert(ca_capacity_break_even(&sum, cap->ht_off_busy_ns, &s));
	ck_assert(fabs(s - 2.0) < 1e-9);
	ck_assert(!ca_capacity_break_even(&cap->cores[1], cap->cores[1].demand_ns, &s));
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * One core "0,1", A and A2 of cookie 1, B of cookie 2, after T0 (ms):
 *   1-2      A in a syscall beside A2: its own cookie, not exposed
 *   4-4.5    CPU1 idle, in irq 24 beside A: exposed (interrupt, 1)
 *   5-5.3    CPU1 idle, in softirq 3 beside A: exposed (interrupt, 1)
 *   6-7      B runs on CPU1 beside A (a 1 ms co-run of two cookies);
 *   6.1-6.4  B in a syscall beside A: exposed (2, 1)
 *   6.5-6.6  CPU0 in irq 30 (A interrupted) beside B: exposed (interrupt, 2)
 */
static void kernel_entries(struct trace_text *t)
{
	cookies(t, 0);
	sc_switch(t, 0, T0, 0, "R", A, false, 0, 0);
	sc_switch(t, 1, T0, 0, "R", A2, false, 0, 0);
	sc_kernel(t, 0, T0 + MS, A, "sys_enter", 0);
	sc_kernel(t, 0, T0 + 2 * MS, A, "sys_exit", 0);
	sc_switch(t, 1, T0 + 3 * MS, A2, "S", 0, false, 0, 0);
	sc_kernel(t, 1, T0 + 4 * MS, 0, "irq_handler_entry", 24);
	sc_kernel(t, 1, T0 + 4 * MS + 500 * US, 0, "irq_handler_exit", 24);
	sc_kernel(t, 1, T0 + 5 * MS, 0, "softirq_entry", 3);
	sc_kernel(t, 1, T0 + 5 * MS + 300 * US, 0, "softirq_exit", 3);
	sc_switch(t, 1, T0 + 6 * MS, 0, "R", B, false, 0, 0);
	sc_kernel(t, 1, T0 + 6 * MS + 100 * US, B, "sys_enter", 7);
	sc_kernel(t, 1, T0 + 6 * MS + 400 * US, B, "sys_exit", 7);
	sc_kernel(t, 0, T0 + 6 * MS + 500 * US, A, "irq_handler_entry", 30);
	sc_kernel(t, 0, T0 + 6 * MS + 600 * US, A, "irq_handler_exit", 30);
	sc_switch(t, 1, T0 + 7 * MS, B, "S", 0, false, 0, 0);
	sc_switch(t, 0, T0 + 8 * MS, A, "S", 0, false, 0, 0);
}

static const struct ca_exposure_pair *exposure_pair(const struct ca_exposure *exp,
						    bool is_interrupt, uint64_t inside,
						    uint64_t beside)
{
	for (size_t i = 0; i < exp->pair_count; i++)
		if (exp->pairs[i].is_interrupt == is_interrupt && exp->pairs[i].beside == beside &&
		    (is_interrupt || exp->pairs[i].inside == inside))
			return &exp->pairs[i];
	return NULL;
}

START_TEST(test_exposure)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	const struct ca_exposure *exp;
	const struct ca_exposure_pair *p;

	kernel_entries(&t);
	test_options(&opts, "0,1");
	opts.smt_reports = CA_SMT_REPORT_EXPOSURE;
	ck_assert_int_ne(audit_text(&audit, &t, &opts), CA_RESULT_BAD_INPUT);
	ck_assert(audit.info.has_kernel_events);
	exp = &audit.pipeline->exposure;
	ck_assert_uint_eq(exp->events, 10);
	ck_assert_uint_eq(exp->in_kernel_ns[CA_KERNEL_SYSCALL], 1300 * US);
	ck_assert_uint_eq(exp->in_kernel_ns[CA_KERNEL_IRQ], 600 * US);
	ck_assert_uint_eq(exp->in_kernel_ns[CA_KERNEL_SOFTIRQ], 300 * US);
	ck_assert_uint_eq(exp->exposed_ns[CA_KERNEL_SYSCALL], 300 * US);
	ck_assert_uint_eq(exp->exposed_ns[CA_KERNEL_IRQ], 600 * US);
	ck_assert_uint_eq(exp->exposed_ns[CA_KERNEL_SOFTIRQ], 300 * US);
	ck_assert_uint_eq(exp->unknown_ns, 0);
	ck_assert_uint_eq(exp->pair_count, 3);
	ck_assert_ptr_nonnull(p = exposure_pair(exp, true, 0, 1));
	ck_assert_uint_eq(p->ns[CA_KERNEL_IRQ], 500 * US);
	ck_assert_uint_eq(p->ns[CA_KERNEL_SOFTIRQ], 300 * US);
	ck_assert_uint_eq(p->total_ns, 800 * US);
	ck_assert_ptr_nonnull(p = exposure_pair(exp, false, 2, 1));
	ck_assert_uint_eq(p->ns[CA_KERNEL_SYSCALL], 300 * US);
	ck_assert_uint_eq(p->total_ns, 300 * US);
	ck_assert_ptr_nonnull(p = exposure_pair(exp, true, 0, 2));
	ck_assert_uint_eq(p->ns[CA_KERNEL_IRQ], 100 * US);
	ck_assert_uint_eq(exp->window_count, 4);
	ck_assert_uint_eq(exp->list[0].start, T0 + 4 * MS);
	ck_assert_uint_eq(exp->list[0].end, T0 + 4 * MS + 500 * US);
	ck_assert_int_eq(exp->list[0].cpu, 1);
	ck_assert_int_eq(exp->list[0].pid, 0);
	ck_assert_int_eq(exp->list[0].what, CA_KERNEL_IRQ);
	ck_assert_int_eq(exp->list[0].number, 24);
	ck_assert_int_eq(exp->list[0].beside_pid, A);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

Suite *smt_suite(void)
{
	Suite *s = suite_create("smt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_capacity_core);
	tcase_add_test(tc, test_fairness_core);
	tcase_add_test(tc, test_max_unfairness);
	tcase_add_test(tc, test_fairness_gap_found_later);
	tcase_add_test(tc, test_fairness_gap_in_uncontended_time);
	tcase_add_test(tc, test_fairness_queued_before_other_gap);
	tcase_add_test(tc, test_fairness_no_ghost_idle_task);
	tcase_add_test(tc, test_fairness_unknown_is_doubt);
	tcase_add_test(tc, test_capacity_machine);
	tcase_add_test(tc, test_capacity_from_zero);
	tcase_add_test(tc, test_exposure);
	suite_add_tcase(s, tc);
	return s;
}
