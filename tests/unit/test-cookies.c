/*
 * test-cookies.c - cookies rebuilt from prctl(PR_SCHED_CORE) calls and fork
 * inheritance, and from coreaudit-cookie markers.
 */
#include "scenario.h"

#define CREATE 1
#define SHARE_TO 2
#define SHARE_FROM 3
#define THREAD 0
#define THREAD_GROUP 1
#define PROCESS_GROUP 2

static const struct ca_task *task_of(const struct ca_audit *audit, int pid)
{
	const struct ca_task *task = ca_tasks_find((struct ca_tasks *)&audit->pipeline->state.tasks, pid);

	ck_assert_msg(task != NULL, "no task %d", pid);
	return task;
}

static void assert_cookie(const struct ca_audit *audit, int pid, uint64_t cookie)
{
	const struct ca_task *task = task_of(audit, pid);

	ck_assert_msg(task->is_cookie_known, "task %d: cookie unknown", pid);
	ck_assert_msg(task->cookie == cookie, "task %d: cookie %llu, expected %llu", pid,
		      (unsigned long long)task->cookie, (unsigned long long)cookie);
}

START_TEST(test_prctl_each_command_and_fork)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 300, false, 0, 0);
	sc_switch(&t, 1, T0 + 1 * US, 0, "R", 400, false, 0, 0);
	sc_prctl(&t, 0, T0 + 1 * MS, 300, CREATE, 0, THREAD, 0);	/* 300: cookie 1 */
	sc_fork(&t, 0, T0 + 2 * MS, 300, 301);				/* 301 inherits 1 */
	sc_prctl(&t, 0, T0 + 3 * MS, 300, SHARE_TO, 400, THREAD, 0);	/* 400: 1 */
	sc_switch(&t, 1, T0 + 4 * MS, 400, "S", 500, false, 0, 0);
	sc_prctl(&t, 1, T0 + 5 * MS, 500, SHARE_FROM, 300, THREAD, 0);	/* 500: 1 */
	sc_switch(&t, 1, T0 + 6 * MS, 500, "S", 600, false, 0, 0);
	sc_prctl(&t, 1, T0 + 7 * MS, 600, CREATE, 0, THREAD_GROUP, 0);	/* 600: 2 */
	sc_switch(&t, 1, T0 + 8 * MS, 600, "S", 700, false, 0, 0);
	sc_prctl(&t, 1, T0 + 9 * MS, 700, CREATE, 0, THREAD, -22);	/* fails: unknown */
	sc_prctl(&t, 0, T0 + 10 * MS, 300, CREATE, 301, THREAD, 0);	/* 301: 3 */
	sc_fork(&t, 0, T0 + 11 * MS, 300, 302);				/* 302: 1 */
	sc_prctl(&t, 0, T0 + 12 * MS, 300, CREATE, 0, PROCESS_GROUP, 0);	/* 300: 4 */
	sc_switch(&t, 0, T0 + 13 * MS, 300, "S", 0, false, 0, 0);
	sc_switch(&t, 1, T0 + 13 * MS, 700, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	audit_text(&audit, &t, &opts);
	ck_assert_str_eq(ca_cookie_source_name(audit.pipeline->state.cookie_source), "prctl");
	assert_cookie(&audit, 300, 4);
	assert_cookie(&audit, 301, 3);
	assert_cookie(&audit, 302, 1);
	assert_cookie(&audit, 400, 1);
	assert_cookie(&audit, 500, 1);
	assert_cookie(&audit, 600, 2);
	ck_assert(!task_of(&audit, 700)->is_cookie_known);
	ck_assert_uint_eq(audit.pipeline->state.prctl_group_scope_calls, 1);
	ck_assert_uint_eq(audit.pipeline->state.prctl_calls, 6);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Thread-group scope reaches tasks that share the target's tgid. */
START_TEST(test_prctl_thread_group_scope)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 300, false, 0, 0);
	sc_switch(&t, 1, T0 + 1 * US, 0, "R", 800, false, 0, 0);
	sc_prctl(&t, 0, T0 + 1 * MS, 300, SHARE_TO, 800, THREAD_GROUP, 0);	/* 300 unknown */
	sc_prctl(&t, 0, T0 + 2 * MS, 300, CREATE, 800, THREAD_GROUP, 0);
	sc_switch(&t, 0, T0 + 3 * MS, 300, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	audit_text(&audit, &t, &opts);
	assert_cookie(&audit, 800, 1);
	ck_assert(!task_of(&audit, 300)->is_cookie_known);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

START_TEST(test_cookie_markers)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_marker(&t, 0, T0, 1, "coreaudit-cookie pid=100 cookie=0x2a");
	sc_marker(&t, 0, T0, 1, "coreaudit-cookie pid=200 cookie=0");
	sc_marker(&t, 0, T0, 1, "coreaudit-cookie pid=300 cookie=junk");
	sc_switch(&t, 0, T0 + 1 * MS, 1, "S", 100, false, 0, 0);
	sc_switch(&t, 1, T0 + 2 * MS, 0, "R", 200, false, 0, 0);
	sc_switch(&t, 0, T0 + 5 * MS, 100, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	opts.grace_ns = 10 * MS;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_str_eq(ca_cookie_source_name(audit.pipeline->state.cookie_source), "markers");
	assert_cookie(&audit, 100, 42);
	assert_cookie(&audit, 200, 0);
	ck_assert(ca_tasks_find(&audit.pipeline->state.tasks, 300) == NULL ||
		  !task_of(&audit, 300)->is_cookie_known);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_SKEW].count, 1);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_SKEW].total_ns, 3 * MS);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Tags are inherited on fork, like cookies. */
START_TEST(test_tag_inherited_on_fork)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, false, 0, 0);
	sc_marker(&t, 0, T0 + 1 * US, 100, "coreaudit-tag pid=100 tag=vm-a");
	sc_fork(&t, 0, T0 + 2 * US, 100, 101);
	sc_wakeup(&t, 0, T0 + 3 * US, 100, 101, 1);
	sc_switch(&t, 1, T0 + 4 * US, 0, "R", 101, false, 0, 0);
	sc_switch(&t, 1, T0 + 10 * MS, 101, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	opts.identity = CA_IDENTITY_TAG;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_PASS);
	ck_assert_int_eq(task_of(&audit, 101)->tag, task_of(&audit, 100)->tag);
	ck_assert_str_eq(ca_tasks_tag_name(&audit.pipeline->state.tasks,
					   task_of(&audit, 101)->tag), "vm-a");
	ck_assert_uint_eq(audit.pipeline->isolation.summary_all.count, 0);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * A task's kernel cookie beside its tag (what tags are checked against): 100
 * runs with cookie 7 (from the probe, when there is one); 300 is only woken,
 * its cookie never told.  Unknown cookies are 0 only when assumed so, and
 * only when the trace has a cookie source at all.
 */
static const struct {
	bool has_probe;
	bool assume_zero;
	int pid;
	bool is_known;
	uint64_t cookie;
} kernel_cookie_rows[] = {
	{ true, false, 100, true, 7 },
	{ true, false, 300, false, 0 },
	{ true, true, 300, true, 0 },
	{ false, true, 100, false, 0 },
	{ false, false, 300, false, 0 },
};

START_TEST(test_kernel_cookie_beside_tag)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	uint64_t cookie = 99;

	sc_switch(&t, 0, T0, 0, "R", 100, kernel_cookie_rows[_i].has_probe, 0, 7);
	sc_marker(&t, 0, T0 + 1 * US, 100, "coreaudit-tag pid=100 tag=a");
	sc_wakeup(&t, 0, T0 + 1 * MS, 100, 300, 1);
	sc_switch(&t, 0, T0 + 2 * MS, 100, "S", 0, kernel_cookie_rows[_i].has_probe, 7, 0);
	test_options(&opts, NULL);
	opts.identity = CA_IDENTITY_TAG;
	opts.assume_unknown_cookie_zero = kernel_cookie_rows[_i].assume_zero;
	audit_text(&audit, &t, &opts);
	ck_assert_int_eq(ca_state_kernel_cookie(&audit.pipeline->state,
						task_of(&audit, kernel_cookie_rows[_i].pid), &cookie),
			 kernel_cookie_rows[_i].is_known);
	ck_assert_uint_eq(cookie, kernel_cookie_rows[_i].cookie);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/*
 * 100 runs on CPU0 from T0 with cookie 0 by its switch-in probe; 200 (cookie
 * 5) runs on CPU1 from 1 ms to 3 ms, no IPI to CPU0, no tick on CPU0 before
 * it and ticks every millisecond through it: an unexplained window of 2 ms.
 * 100's switch-out at 4 ms shows cookie @out: another than 0 means a prctl
 * set it while 100 ran, at an instant the trace does not show.
 */
static enum ca_result audit_run_change(struct ca_audit *audit, uint64_t out)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	enum ca_result result;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 0);
	sc_ipi(&t, 0, T0 + 10 * US, 100, 1);
	sc_wakeup(&t, 1, T0 + 500 * US, 0, 100, 0);	/* of a running task: wakeups are told */
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, 5);
	sc_tick(&t, 0, T0 + 1100 * US, 100);
	sc_tick(&t, 0, T0 + 2100 * US, 100);
	sc_switch(&t, 1, T0 + 3 * MS, 200, "S", 0, true, 5, 0);
	sc_tick(&t, 0, T0 + 3100 * US, 100);
	sc_switch(&t, 0, T0 + 4 * MS, 100, "S", 0, true, out, 0);
	test_options(&opts, "0,1");
	result = audit_text(audit, &t, &opts);
	trace_free(&t);
	return result;
}

/* A cookie the probe shows changed over a task's run leaves its windows unproven. */
START_TEST(test_cookie_changed_while_running)
{
	struct ca_audit audit;

	ck_assert_int_eq(audit_run_change(&audit, 0), CA_RESULT_FAIL);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 1);
	ca_audit_free(&audit);
	ck_assert_int_eq(audit_run_change(&audit, 5), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_VIOLATION].count, 0);
	ck_assert_uint_eq(audit.pipeline->isolation.summary[CA_WINDOW_UNKNOWN].count, 1);
	ca_audit_free(&audit);
}
END_TEST

Suite *cookies_suite(void)
{
	Suite *s = suite_create("cookies");
	TCase *tc = tcase_create("rebuild");

	tcase_add_test(tc, test_prctl_each_command_and_fork);
	tcase_add_test(tc, test_prctl_thread_group_scope);
	tcase_add_test(tc, test_cookie_markers);
	tcase_add_test(tc, test_tag_inherited_on_fork);
	tcase_add_test(tc, test_cookie_changed_while_running);
	tcase_add_loop_test(tc, test_kernel_cookie_beside_tag, 0,
			    sizeof(kernel_cookie_rows) / sizeof(kernel_cookie_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}
