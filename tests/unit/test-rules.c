/*
 * test-rules.c - the rule language: valid files, syntax errors and
 * conflicting rules with their FILE:LINE:COL messages; then each relation
 * held against hand-made traces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/rules.h"
#include "scenario.h"

static const struct {
	const char *text;
	const char *error;	/* NULL: valid */
	int tags, tag_rules, relations;
} rule_rows[] = {
	{ "# nothing\n\n", NULL, 0, 0, 0 },
	{ "tag vm-a comm qemu-a*\ntag vm-b cookie 0x2a\nisolate vm-a vm-b\n", NULL, 2, 2, 1 },
	{ "tag rt policy fifo   # realtime\nexclusive rt\ngrace 1ms\nmax-starvation 20ms\n",
	  NULL, 1, 1, 1 },
	{ "tag g marker avx\ntag g comm avx-*\ntogether g\nmax-forced-idle 12.5\n", NULL, 1, 2, 1 },
	{ "tag x pid 42\ntag y tgid 7\ntag z uid 1000\ntag w cgroup /vm\nisolate x y\n",
	  NULL, 4, 4, 1 },
	{ "tagg a comm x\n", "r.rules:1:1: unknown statement \"tagg\"", 0, 0, 0 },
	{ "tag a comm\n", "r.rules:1:11: missing words: expected \"tag NAME MATCH VALUE\"",
	  0, 0, 0 },
	{ "tag a colour red\n", "r.rules:1:7: unknown match \"colour\"", 0, 0, 0 },
	{ "tag a pid twelve\n", "r.rules:1:11: \"twelve\" is not a number", 0, 0, 0 },
	{ "tag a policy batch\n", "r.rules:1:14: unknown policy \"batch\"", 0, 0, 0 },
	{ "tag a$ comm x\n", "r.rules:1:6: '$' in tag name \"a$\"", 0, 0, 0 },
	{ "tag a comm x\nisolate a a\n", "r.rules:2:11: a tag cannot be isolated from itself",
	  0, 0, 0 },
	{ "tag a comm x\ntag b comm y\nisolate a b\nisolate b a\n",
	  "r.rules:4:1: repeats line 3", 0, 0, 0 },
	{ "tag t comm x\nexclusive t\ntogether t\n",
	  "r.rules:3:1: \"t\" cannot be both exclusive and together (line 2)", 0, 0, 0 },
	{ "tag a comm x\nexclusive a b\n", "r.rules:2:13: unexpected \"b\"", 0, 0, 0 },
	{ "grace 1ms\ngrace 2ms\n", "r.rules:2:1: grace is set twice", 0, 0, 0 },
	{ "grace 5\n", "r.rules:1:7: \"5\" is not a duration", 0, 0, 0 },
	{ "max-forced-idle 120\n", "r.rules:1:17: \"120\" is not a percentage", 0, 0, 0 },
	{ "tag a comm x\nisolate a ghost\n", "r.rules:2:1: tag \"ghost\" is assigned by no tag rule",
	  0, 0, 0 },
	/* numbers and thresholds: the options' parsers, strictly */
	{ "tag a cookie 0xffffffffffffffff\ntag b pid 2147483647\ntag c uid 4294967295\n"
	  "max-forced-idle 12.5%\nmax-starvation 1ns\n", NULL, 3, 3, 0 },
	{ "max-forced-idle nan\n", "r.rules:1:17: \"nan\" is not a percentage from 0 to 100",
	  0, 0, 0 },
	{ "max-forced-idle 1e1\n", "r.rules:1:17: \"1e1\" is not a percentage", 0, 0, 0 },
	{ "max-forced-idle -0\n", "r.rules:1:17: \"-0\" is not a percentage", 0, 0, 0 },
	{ "grace 0ns\n", "r.rules:1:7: \"0ns\" is not a duration from 1ns to 9223372036s in whole "
	  "nanoseconds", 0, 0, 0 },
	{ "max-starvation 99999999999999999999s\n", "r.rules:1:16: \"99999999999999999999s\" is "
	  "not a duration from 1ns", 0, 0, 0 },
	{ "grace inf\n", "r.rules:1:7: \"inf\" is not a duration with a unit", 0, 0, 0 },
	{ "tag a pid 2147483648\n", "r.rules:1:11: \"2147483648\" is not a number from 0 to "
	  "2147483647", 0, 0, 0 },
	{ "tag a pid -1\n", "r.rules:1:11: \"-1\" is not a number", 0, 0, 0 },
	{ "tag a pid 0x10\n", "r.rules:1:11: \"0x10\" is not a number", 0, 0, 0 },
	{ "tag a uid 4294967296\n", "r.rules:1:11: \"4294967296\" is not a number", 0, 0, 0 },
	{ "tag a cookie 0x10000000000000000\n", "r.rules:1:14: \"0x10000000000000000\" is not a "
	  "number from 0 to 18446744073709551615 (decimal or 0x hex)", 0, 0, 0 },
	{ "tag a cookie 0x\n", "r.rules:1:14: \"0x\" is not a number", 0, 0, 0 },
	{ "tag a cookie 12abc\n", "r.rules:1:14: \"12abc\" is not a number", 0, 0, 0 },
	{ "max-reselect-ticks 0\n", NULL, 0, 0, 0 },
	{ "max-reselect-ticks 1001\n", "r.rules:1:20: \"1001\" is not a whole number from 0 to "
	  "1000", 0, 0, 0 },
	{ "max-reselect-ticks 4\nmax-reselect-ticks 5\n",
	  "r.rules:2:1: max-reselect-ticks is set twice", 0, 0, 0 },
	{ "max-reselect-ticks\n", "r.rules:1:", 0, 0, 0 },
	{ "max-inversion 500us\n", NULL, 0, 0, 0 },
	{ "max-inversion 0ns\n", "r.rules:1:15: \"0ns\" is not a duration from 1ns", 0, 0, 0 },
	{ "max-inversion 2\n", "r.rules:1:15: \"2\" is not a duration with a unit", 0, 0, 0 },
	{ "max-inversion 1ms\nmax-inversion 2ms\n", "r.rules:2:1: max-inversion is set twice",
	  0, 0, 0 },
	{ "max-unjustified 3ms\n", NULL, 0, 0, 0 },
	{ "max-accounting-error 10\n", NULL, 0, 0, 0 },
	{ "max-accounting-error 101\n", "r.rules:1:22: \"101\" is not a percentage", 0, 0, 0 },
	{ "max-unjustified x\n", "r.rules:1:17: \"x\" is not a duration with a unit", 0, 0, 0 },
};

START_TEST(test_rule_rows)
{
	struct ca_rules rules;
	char err[256] = "";
	int ret = ca_rules_parse(&rules, "r.rules", rule_rows[_i].text, err, sizeof(err));

	if (rule_rows[_i].error) {
		ck_assert_int_eq(ret, -22);
		ck_assert_msg(!strncmp(err, rule_rows[_i].error, strlen(rule_rows[_i].error)),
			      "row %d: \"%s\"", _i, err);
	} else {
		ck_assert_msg(ret == 0, "row %d: %s", _i, err);
		ck_assert_int_eq(rules.name_count, rule_rows[_i].tags);
		ck_assert_int_eq(rules.tag_rule_count, rule_rows[_i].tag_rules);
		ck_assert_int_eq(rules.relation_count, rule_rows[_i].relations);
	}
	ca_rules_free(&rules);
}
END_TEST

/* A switch with priorities: "comm:pid [prio] STATE ==> comm:pid [prio]". */
static void switch_prio(struct trace_text *t, int cpu, uint64_t ts, int prev, int prev_prio,
			int next, int next_prio)
{
	char when[32], prev_comm[32], next_comm[32];

	snprintf(when, sizeof(when), "%llu.%09llu", (unsigned long long)(ts / 1000000000ull),
		 (unsigned long long)(ts % 1000000000ull));
	snprintf(prev_comm, sizeof(prev_comm), prev ? "t%d" : "swapper/%d", prev ? prev : cpu);
	snprintf(next_comm, sizeof(next_comm), next ? "t%d" : "swapper/%d", next ? next : cpu);
	trace_line(t, cpu, when, prev, "sched_switch", "%s:%d [%d] S ==> %s:%d [%d]", prev_comm,
		   prev, prev_prio, next_comm, next, next_prio);
}

/* Audit @t with @rules_text as the rule file and --max-transition @max_transition (0: none). */
static enum ca_result audit_with_rules_max(struct ca_audit *audit, struct trace_text *t,
					      const char *rules_text, uint64_t max_transition)
{
	struct ca_audit_options opts;

	test_options(&opts, NULL);
	opts.assume_unknown_cookie_zero = true;	/* the cookie checks stay quiet */
	opts.max_transition_ns = max_transition;
	return audit_text_with_rules(audit, t, &opts, rules_text);
}

static enum ca_result audit_with_rules(struct ca_audit *audit, struct trace_text *t,
					  const char *rules_text)
{
	return audit_with_rules_max(audit, t, rules_text, 0);
}

/* A (marker) on CPU0 beside B on CPU1 for 10 ms, then beside C for 2 ms. */
START_TEST(test_isolate)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	sc_marker(&t, 0, T0, 100, "coreaudit-tag pid=100 tag=A");
	sc_marker(&t, 1, T0, 200, "coreaudit-tag pid=200 tag=B");
	switch_prio(&t, 0, T0 + 1 * MS, 100, 120, 100, 120);	/* settles both */
	switch_prio(&t, 1, T0 + 1 * MS, 200, 120, 200, 120);
	switch_prio(&t, 1, T0 + 11 * MS, 200, 120, 300, 120);
	switch_prio(&t, 1, T0 + 13 * MS, 300, 120, 0, 120);
	switch_prio(&t, 0, T0 + 20 * MS, 100, 120, 0, 120);
	/* no ipi events: the rule file's own grace alone decides */
	ck_assert_int_eq(audit_with_rules(&audit, &t, "tag A marker A\ntag B marker B\n"
					  "isolate A B\ngrace 5ms\n"), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].summary.count, 1);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].summary.total_ns, 11 * MS);	/* from T0 */
	ck_assert_uint_eq(audit.pipeline->policy.results[0].violations, 1);
	ck_assert_int_eq(audit.pipeline->policy.results[0].worst[0].pids[0], 100);
	ck_assert_int_eq(audit.pipeline->policy.results[0].worst[0].pids[1], 200);
	ck_assert_ptr_nonnull(strstr(audit.reasons[0], ":3: isolate A B: 1 window at or over"));
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A SCHED_FIFO task (prio 89) with a busy sibling for 3 ms, then an idle one. */
START_TEST(test_exclusive_realtime)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	switch_prio(&t, 0, T0, 0, 120, 100, 89);
	switch_prio(&t, 1, T0 + 1 * MS, 0, 120, 200, 120);
	switch_prio(&t, 1, T0 + 4 * MS, 200, 120, 0, 120);
	switch_prio(&t, 0, T0 + 20 * MS, 100, 89, 0, 120);
	ck_assert_int_eq(audit_with_rules(&audit, &t, "tag rt policy fifo\nexclusive rt\n"
					  "grace 2ms\n"), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->policy.grace_ns, 2 * MS);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].summary.count, 1);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].summary.total_ns, 3 * MS);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].violations, 1);
	ca_audit_free(&audit);

	/* a grace of 5 ms from the rule file: the 3 ms is skew */
	ck_assert_int_eq(audit_with_rules(&audit, &t, "tag rt policy realtime\nexclusive rt\n"
					  "grace 5ms\n"), CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].violations, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Two avx tasks side by side for 10 ms, then one alone for 10 ms. */
/*
 * Rule windows by cause, when the trace has ipi events: 200 runs on CPU1 from
 * T0; rt task 100 arrives on CPU0 at 1 ms; CPU1 leaves at 7 ms.  With a
 * reschedule IPI to CPU1 (sent by CPU0's pick) the 6 ms window is the
 * kernel's transition: not a violation unless over --max-transition; with
 * none, it is unexplained, and 6 ms is over the 200 us grace.
 */
static const struct {
	bool has_kick;
	uint64_t max_transition;
	enum ca_window_cause cause;
	uint64_t violations;
} rule_cause_rows[] = {
	{ true, 0, CA_CAUSE_RESCHED_IPI, 0 },
	{ false, 0, CA_CAUSE_UNEXPLAINED, 1 },
	{ true, 5 * MS, CA_CAUSE_RESCHED_IPI, 1 },
};

START_TEST(test_exclusive_by_cause)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	switch_prio(&t, 1, T0, 0, 120, 200, 120);
	sc_ipi(&t, 0, T0 + 100 * US, 0, 0);	/* an ipi event: causes can be told */
	sc_tick(&t, 0, T0 + 100 * US, 0);	/* a tick event: so can ticks */
	sc_wakeup(&t, 0, T0 + 200 * US, 0, 200, 1);	/* of a running task: so can wakeups */
	if (rule_cause_rows[_i].has_kick)
		sc_ipi(&t, 0, T0 + 990 * US, 0, 1);
	switch_prio(&t, 0, T0 + 1 * MS, 0, 120, 100, 89);
	switch_prio(&t, 1, T0 + 7 * MS, 200, 120, 0, 120);
	switch_prio(&t, 0, T0 + 20 * MS, 100, 89, 0, 120);
	ck_assert_int_eq(audit_with_rules_max(&audit, &t, "tag rt policy fifo\nexclusive rt\n",
					      rule_cause_rows[_i].max_transition),
			 rule_cause_rows[_i].violations ? CA_RESULT_FAIL : CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->policy.grace_ns, 200 * US);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].summary.count, 1);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].summary.total_ns, 6 * MS);
	ck_assert_int_eq(audit.pipeline->policy.results[0].worst[0].cause, rule_cause_rows[_i].cause);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].violations, rule_cause_rows[_i].violations);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_together_share)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;

	switch_prio(&t, 0, T0, 0, 120, 100, 120);
	switch_prio(&t, 1, T0, 0, 120, 101, 120);
	switch_prio(&t, 1, T0 + 10 * MS, 101, 120, 0, 120);
	switch_prio(&t, 0, T0 + 20 * MS, 100, 120, 0, 120);
	ck_assert_int_eq(audit_with_rules(&audit, &t, "tag avx comm t10?\ntogether avx\n"),
			 CA_RESULT_PASS);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].runtime_ns, 30 * MS);
	ck_assert_uint_eq(audit.pipeline->policy.results[0].shared_ns, 20 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_rules_errors_are_usage_errors)
{
	struct trace_text t = { 0 };
	struct ca_audit audit;
	struct ca_audit_options opts;

	switch_prio(&t, 0, T0, 0, 120, 100, 120);
	ck_assert_int_eq(audit_with_rules(&audit, &t, "isolate\n"), CA_RESULT_BAD_OPTIONS);
	ck_assert_ptr_nonnull(strstr(audit.error, ":1:8: missing words"));
	ca_audit_free(&audit);
	test_options(&opts, NULL);
	opts.rules_path = "/nonexistent.rules";
	opts.path = "/nonexistent.dat";
	ck_assert_int_eq(ca_audit_run(&audit, &opts), CA_RESULT_BAD_OPTIONS);
	ck_assert_str_eq(audit.error, "/nonexistent.rules: No such file or directory");
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A NUL byte would hide every rule after it: the file is refused. */
START_TEST(test_rules_nul_byte)
{
	static const char text[] = "tag a comm x\n\0isolate a b\n";
	char path[] = "/tmp/coreaudit-rules-XXXXXX", err[256] = "", expected[300];
	struct ca_rules rules;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	ck_assert_int_eq(ca_rules_load(&rules, path, err, sizeof(err)), -22);
	snprintf(expected, sizeof(expected), "%s: a NUL byte at offset 13: not a rule file", path);
	ck_assert_str_eq(err, expected);
	ca_rules_free(&rules);
	unlink(path);
}
END_TEST

Suite *rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("language");

	tcase_add_loop_test(tc, test_rule_rows, 0, sizeof(rule_rows) / sizeof(rule_rows[0]));
	tcase_add_test(tc, test_isolate);
	tcase_add_test(tc, test_exclusive_realtime);
	tcase_add_loop_test(tc, test_exclusive_by_cause, 0,
			    sizeof(rule_cause_rows) / sizeof(rule_cause_rows[0]));
	tcase_add_test(tc, test_together_share);
	tcase_add_test(tc, test_rules_errors_are_usage_errors);
	tcase_add_test(tc, test_rules_nul_byte);
	suite_add_tcase(s, tc);
	return s;
}
