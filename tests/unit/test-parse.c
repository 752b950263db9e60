/*
 * test-parse.c - durations, topologies and report-text lines: valid and
 * invalid rows side by side.
 */
#include <stdio.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "coreaudit/source.h"
#include "coreaudit/topology.h"
#include "helpers.h"

static const struct {
	const char *text;
	int ret;
	uint64_t ns;
} duration_rows[] = {
	{ "16ms", 0, 16000000 }, { "1.5ms", 0, 1500000 }, { "500us", 0, 500000 },
	{ "2s", 0, 2000000000 }, { "0ns", 0, 0 }, { "250ns", 0, 250 },
	{ "5", -22, 0 }, { "5mS", -22, 0 }, { "-1ms", -22, 0 }, { "ms", -22, 0 },
	{ "", -22, 0 }, { "1e30s", -22, 0 }, { "3 ms", -22, 0 }, { "nan ms", -22, 0 },
};

START_TEST(test_duration_rows)
{
	uint64_t ns = 12345;
	int ret = ca_parse_duration(duration_rows[_i].text, &ns);

	ck_assert_msg(ret == duration_rows[_i].ret, "\"%s\": ret %d", duration_rows[_i].text, ret);
	if (!ret)
		ck_assert_uint_eq(ns, duration_rows[_i].ns);
}
END_TEST

Suite *duration_suite(void)
{
	Suite *s = suite_create("duration");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_duration_rows, 0,
			    sizeof(duration_rows) / sizeof(duration_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}

static const struct {
	const char *text;
	int ret;
	const char *formatted;
	int cores;
} topology_rows[] = {
	{ "0,1", 0, "0,1", 1 },
	{ "0,1 2,3", 0, "0,1 2,3", 2 },
	{ "0-3 4-7", 0, "0,1,2,3 4,5,6,7", 2 },
	{ "  0,4   1,5 ", 0, "0,4 1,5", 2 },
	{ "0", 0, "0", 1 },
	{ "0,0", -22, NULL, 0 },
	{ "0,1 1,2", -22, NULL, 0 },
	{ "0,x", -22, NULL, 0 },
	{ "", -22, NULL, 0 },
	{ "3-1", -22, NULL, 0 },
	{ "0,64", -22, NULL, 0 },
	{ "0-8", -22, NULL, 0 },	/* 9 siblings: over CA_MAX_SIBLINGS */
	{ "0;1", -22, NULL, 0 },
};

START_TEST(test_topology_rows)
{
	struct ca_topology topo;
	char err[160] = "", text[64];
	int ret = ca_topology_parse(topology_rows[_i].text, &topo, err, sizeof(err));

	ck_assert_msg(ret == topology_rows[_i].ret, "\"%s\": ret %d", topology_rows[_i].text, ret);
	if (ret) {
		ck_assert_msg(err[0], "no message for \"%s\"", topology_rows[_i].text);
		return;
	}
	ca_topology_format(&topo, text, sizeof(text));
	ck_assert_str_eq(text, topology_rows[_i].formatted);
	ck_assert_int_eq(topo.core_count, topology_rows[_i].cores);
}
END_TEST

Suite *topology_suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_topology_rows, 0,
			    sizeof(topology_rows) / sizeof(topology_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}

/* Report-text lines --------------------------------------------------------- */

START_TEST(test_text_switch_plugin)
{
	struct ca_event ev;

	ck_assert_int_eq(ca_text_parse_line("  trace-cmd-64    [000]     3.522981: sched_switch:"
					    "         trace-cmd:64 [120] R ==> my task:65 [120]",
					    &ev), 1);
	ck_assert_int_eq(ev.kind, CA_EV_SWITCH);
	ck_assert_int_eq(ev.cpu, 0);
	ck_assert_int_eq(ev.pid, 64);
	ck_assert_uint_eq(ev.ts, 3522981000ull);
	ck_assert_int_eq(ev.sw.prev_pid, 64);
	ck_assert_int_eq(ev.sw.next_pid, 65);
	ck_assert_str_eq(ev.sw.next_comm, "my task");
	ck_assert(ev.sw.is_prev_runnable);
}
END_TEST

static const struct {
	const char *state;
	bool is_runnable;
} state_rows[] = {
	/* W: trace-cmd's plugin letter for 0x80, an idle kernel thread asleep */
	{ "R", true }, { "R+", true }, { "W", false }, { "S", false }, { "D", false },
	{ "I", false }, { "X", false }, { "D|K", false },
};

START_TEST(test_text_switch_states)
{
	char line[200];
	struct ca_event ev;

	snprintf(line, sizeof(line), "a-1 [001] 1.000000001: sched_switch: a:1 [120] %s ==> "
		 "swapper/1:0 [120]", state_rows[_i].state);
	ck_assert_int_eq(ca_text_parse_line(line, &ev), 1);
	ck_assert_int_eq(ev.sw.is_prev_runnable, state_rows[_i].is_runnable);
	ck_assert_uint_eq(ev.ts, 1000000001ull);
}
END_TEST

START_TEST(test_text_switch_raw_format)
{
	struct ca_event ev;

	ck_assert_int_eq(ca_text_parse_line("<idle>-0 [002] d..2. 10.5: sched_switch: "
					    "prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
					    "prev_state=R ==> next_comm=stress prev=1 next_pid=77 "
					    "next_prio=120", &ev), 1);
	ck_assert_int_eq(ev.cpu, 2);
	ck_assert_uint_eq(ev.ts, 10500000000ull);
	ck_assert_int_eq(ev.sw.prev_pid, 0);
	ck_assert_int_eq(ev.sw.next_pid, 77);
	ck_assert_str_eq(ev.sw.next_comm, "stress");
}
END_TEST

START_TEST(test_text_other_events)
{
	struct ca_event ev;

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.524632: sched_wakeup: rcu_sched:15 "
					    "[120] CPU:001", &ev), 1);
	ck_assert_int_eq(ev.kind, CA_EV_WAKEUP);
	ck_assert_int_eq(ev.wakeup.pid, 15);
	ck_assert_int_eq(ev.wakeup.target_cpu, 1);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.5: sched_migrate_task: comm=rcu_sched "
					    "pid=15 prio=120 orig_cpu=0 dest_cpu=1", &ev), 1);
	ck_assert_int_eq(ev.migrate.pid, 15);
	ck_assert_int_eq(ev.migrate.orig_cpu, 0);
	ck_assert_int_eq(ev.migrate.dest_cpu, 1);

	ck_assert_int_eq(ca_text_parse_line("w-65 [000] 3.9: sched_process_fork: comm=workload "
					    "pid=65 child_comm=workload child_pid=66", &ev), 1);
	ck_assert_int_eq(ev.fork.parent_pid, 65);
	ck_assert_int_eq(ev.fork.child_pid, 66);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.995961: sys_enter_prctl: option: "
					    "0x0000003e, arg2: 0x00000001, arg3: 0x00000000, arg4: "
					    "0x00000001, arg5: 0x00000000", &ev), 1);
	ck_assert_int_eq(ev.kind, CA_EV_PRCTL_ENTER);
	ck_assert_int_eq(ev.prctl.option, 62);
	ck_assert_int_eq(ev.prctl.arg2, 1);
	ck_assert_int_eq(ev.prctl.arg4, 1);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 4.0: sys_exit_prctl: 0xffffffffffffffea",
					    &ev), 1);
	ck_assert_int_eq(ev.prctl_ret, -22);

	ck_assert_int_eq(ca_text_parse_line("w-68 [000] 3.5: print: tracing_mark_write: "
					    "coreaudit-tag pid=68 tag=B", &ev), 1);
	ck_assert_str_eq(ev.marker, "coreaudit-tag pid=68 tag=B");

	ck_assert_int_eq(ca_text_parse_line("t-64 [000] 3.523080: cs_switch: (ffffffff8106cbb7) "
					    "prev_pid=64 prev_cookie=0 next_pid=65 "
					    "next_cookie=18446612682077474128", &ev), 1);
	ck_assert_int_eq(ev.kind, CA_EV_COOKIE);
	ck_assert_uint_eq(ev.cookie.next_cookie, 18446612682077474128ull);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.525033: ipi_send_cpu: cpu=0 "
					    "callsite=__schedule+0x759 callback=0x0\n", &ev), 1);
	ck_assert_uint_eq(ev.ipi.target_mask, 1);
	ck_assert(ev.ipi.is_resched);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.5: ipi_send_cpumask: cpumask=0-2,5 "
					    "callsite=x+0x1 callback=generic_smp+0x0", &ev), 1);
	ck_assert_uint_eq(ev.ipi.target_mask, 0x27);
	ck_assert(!ev.ipi.is_resched);

	ck_assert_int_eq(ca_text_parse_line("<idle>-0 [001] 3.536313: cpu_idle: "
					    "state=4294967295 cpu_id=1", &ev), 1);
	ck_assert_uint_eq(ev.idle.state, 4294967295u);
}
END_TEST

START_TEST(test_text_skipped_and_malformed)
{
	struct ca_event ev;

	ck_assert_int_eq(ca_text_parse_line("cpus=2", &ev), 0);
	ck_assert_int_eq(ca_text_parse_line("", &ev), 0);
	ck_assert_int_eq(ca_text_parse_line("w-1 [000] 1.0: kmalloc: call_site=x", &ev), 0);
	ck_assert_int_eq(ca_text_parse_line("w-1 [000] 1.0: sched_switch: garbage", &ev), -22);
	ck_assert_int_eq(ca_text_parse_line("w-1 [000] 1.0: sched_wakeup: x:12 [120]", &ev), -22);
	ck_assert_int_eq(ca_text_parse_line("w-1 [000] 1.x: sched_switch: a:1 [1] R ==> b:2 [1]",
					    &ev), -22);
	ck_assert_int_eq(ca_text_parse_line("w-1 [000]", &ev), -22);
}
END_TEST

Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_text_switch_plugin);
	tcase_add_loop_test(tc, test_text_switch_states, 0,
			    sizeof(state_rows) / sizeof(state_rows[0]));
	tcase_add_test(tc, test_text_switch_raw_format);
	tcase_add_test(tc, test_text_other_events);
	tcase_add_test(tc, test_text_skipped_and_malformed);
	suite_add_tcase(s, tc);
	return s;
}
