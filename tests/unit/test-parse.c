/*
 * test-parse.c - durations, topologies and report-text lines: valid and
 * invalid rows side by side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coreaudit/duration.h"
#include "coreaudit/number.h"
#include "sources/readers.h"
#include "coreaudit/topology.h"
#include "helpers.h"

static const struct {
	const char *text;
	int ret;
	uint64_t ns;
} duration_rows[] = {
	{ "16ms", 0, 16000000 }, { "1.5ms", 0, 1500000 }, { "500us", 0, 500000 },
	{ "2s", 0, 2000000000 }, { "1ns", 0, 1 }, { "250ns", 0, 250 }, { ".5ms", 0, 500000 },
	{ "0.000000001s", 0, 1 }, { "1.000ns", 0, 1 }, { "007us", 0, 7000 },
	{ "9223372036854775807ns", 0, 9223372036854775807ull },
	{ "9223372036.854775807s", 0, 9223372036854775807ull },
	/* junk: no unit, a wrong one, signs, blanks, exponents, names */
	{ "5", -22, 0 }, { "5mS", -22, 0 }, { "-1ms", -22, 0 }, { "+1ms", -22, 0 },
	{ "ms", -22, 0 }, { "", -22, 0 }, { "1e30s", -22, 0 }, { "3 ms", -22, 0 },
	{ " 3ms", -22, 0 }, { "3ms ", -22, 0 }, { "nan ms", -22, 0 }, { "nanms", -22, 0 },
	{ "infs", -22, 0 }, { "1.ms", -22, 0 }, { "1..5ms", -22, 0 }, { "0x10ms", -22, 0 },
	{ "1,5ms", -22, 0 }, { "5msx", -22, 0 },
	/* out of range: zero, finer than 1ns, over INT64_MAX ns */
	{ "0ns", -34, 0 }, { "0s", -34, 0 }, { "0.0ms", -34, 0 }, { "1.5ns", -34, 0 },
	{ "0.0000000001s", -34, 0 }, { "99999999999999999999s", -34, 0 },
	{ "9223372036854775808ns", -34, 0 }, { "9223372036.854775808s", -34, 0 },
	{ "18446744073709551616ns", -34, 0 },
};

START_TEST(test_duration_rows)
{
	uint64_t ns = 12345;
	int ret = ca_parse_duration(duration_rows[_i].text, &ns);

	ck_assert_msg(ret == duration_rows[_i].ret, "\"%s\": ret %d", duration_rows[_i].text, ret);
	if (!ret)
		ck_assert_uint_eq(ns, duration_rows[_i].ns);
	else
		ck_assert_uint_eq(ns, 12345);	/* untouched on failure */
}
END_TEST

static const struct {
	const char *text;
	int ret;
	double pct;
} percent_rows[] = {
	{ "0", 0, 0 }, { "100", 0, 100 }, { "12.5", 0, 12.5 }, { "12.5%", 0, 12.5 },
	{ "0.001", 0, 0.001 }, { "100.0", 0, 100 }, { "007", 0, 7 }, { ".5", 0, 0.5 },
	{ "nan", -22, 0 }, { "inf", -22, 0 }, { "-1", -22, 0 }, { "-0", -22, 0 }, { "+5", -22, 0 },
	{ "1e1", -22, 0 }, { "", -22, 0 }, { "%", -22, 0 }, { "12.", -22, 0 }, { ".", -22, 0 },
	{ "12.5%%", -22, 0 }, { " 5", -22, 0 }, { "5 ", -22, 0 }, { "0x10", -22, 0 },
	{ "1,5", -22, 0 }, { "junk", -22, 0 },
	{ "101", -34, 0 }, { "100.0001", -34, 0 }, { "99999999999999999999999999", -34, 0 },
};

START_TEST(test_percent_rows)
{
	double pct = -7;
	int ret = ca_parse_percent(percent_rows[_i].text, &pct);

	ck_assert_msg(ret == percent_rows[_i].ret, "\"%s\": ret %d", percent_rows[_i].text, ret);
	if (!ret)
		ck_assert_double_eq(pct, percent_rows[_i].pct);
}
END_TEST

static const struct {
	const char *text;
	bool is_u64;		/* ca_parse_u64(), else ca_parse_count() up to 100 */
	int ret;
	uint64_t value;
} count_rows[] = {
	{ "1", false, 0, 1 }, { "100", false, 0, 100 }, { "0", false, 0, 0 },
	{ "007", false, 0, 7 },
	{ "101", false, -34, 0 }, { "99999999999999999999999", false, -34, 0 },
	{ "-1", false, -22, 0 }, { "+1", false, -22, 0 }, { "1x", false, -22, 0 },
	{ "", false, -22, 0 }, { " 1", false, -22, 0 }, { "0x1", false, -22, 0 },
	{ "99999999999999999999x", false, -22, 0 },
	{ "0xffffffffffffffff", true, 0, UINT64_MAX }, { "0XaB", true, 0, 0xab },
	{ "18446744073709551615", true, 0, UINT64_MAX },
	{ "18446744073709551616", true, -34, 0 }, { "0x10000000000000000", true, -34, 0 },
	{ "0x", true, -22, 0 }, { "0xg", true, -22, 0 }, { "-0x1", true, -22, 0 },
};

START_TEST(test_count_rows)
{
	uint64_t value = 12345;
	int ret = count_rows[_i].is_u64 ? ca_parse_u64(count_rows[_i].text, &value) :
		  ca_parse_count(count_rows[_i].text, 100, &value);

	ck_assert_msg(ret == count_rows[_i].ret, "\"%s\": ret %d", count_rows[_i].text, ret);
	ck_assert_uint_eq(value, ret ? 12345 : count_rows[_i].value);
}
END_TEST

Suite *duration_suite(void)
{
	Suite *s = suite_create("numbers");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_duration_rows, 0,
			    sizeof(duration_rows) / sizeof(duration_rows[0]));
	tcase_add_loop_test(tc, test_percent_rows, 0,
			    sizeof(percent_rows) / sizeof(percent_rows[0]));
	tcase_add_loop_test(tc, test_count_rows, 0, sizeof(count_rows) / sizeof(count_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}

static const struct {
	const char *text;
	const char *formatted;	/* NULL: invalid, with this message: */
	const char *error;
	int cores;
} topology_rows[] = {
	{ "0,1", "0,1", NULL, 1 },
	{ "0,1 2,3", "0,1 2,3", NULL, 2 },
	{ "0-3 4-7", "0,1,2,3 4,5,6,7", NULL, 2 },
	{ "0-7 8-15", "0,1,2,3,4,5,6,7 8,9,10,11,12,13,14,15", NULL, 2 },	/* SMT8 */
	{ "  0,4   1,5 ", "0,4 1,5", NULL, 2 },
	{ "0", "0", NULL, 1 },
	{ "63", "63", NULL, 1 },
	{ "64,65 8190-8191", "64,65 8190,8191", NULL, 2 },	/* sparse, past 64 CPUs */
	{ "0,256 1,257", "0,256 1,257", NULL, 2 },
	{ "0,0", NULL, "CPU 0 appears twice", 0 },
	{ "0,1 1,2", NULL, "CPU 1 appears twice", 0 },
	{ "0,x", NULL, "expected a CPU number at \"x\"", 0 },
	{ "", NULL, "no CPUs given", 0 },
	{ "3-1", NULL, "range 3-1 goes down (write 1-3)", 0 },
	{ "1-0", NULL, "range 1-0 goes down (write 0-1)", 0 },
	{ "0,1,", NULL, "expected a CPU number after \"0,1,\"", 0 },
	{ "0-", NULL, "expected a CPU number after \"0-\"", 0 },
	{ "0,8192", NULL, "CPU 8192 is out of range 0-8191", 0 },
	{ "4294967296", NULL, "CPU 4294967296 is out of range 0-8191", 0 },
	{ "0,99999999999999999999999", NULL,
	  "CPU 999999999999999999999... is out of range 0-8191", 0 },
	{ "0-8", NULL, "core 0 has more than 8 siblings", 0 },	/* over CA_MAX_SIBLINGS */
	{ "0;1", NULL, "unexpected \";1\" after core 0: cores are separated by blanks, CPUs by "
	  "commas", 0 },
	{ "-1", NULL, "expected a CPU number at \"-1\"", 0 },
	{ "+1", NULL, "expected a CPU number at \"+1\"", 0 },
};

START_TEST(test_topology_rows)
{
	struct ca_topology topo;
	char err[160] = "", text[64];
	int ret = ca_topology_parse(topology_rows[_i].text, &topo, err, sizeof(err));

	if (!topology_rows[_i].formatted) {
		ck_assert_msg(ret == -22, "\"%s\": ret %d", topology_rows[_i].text, ret);
		ck_assert_str_eq(err, topology_rows[_i].error);
		return;
	}
	ck_assert_msg(ret == 0, "\"%s\": %s", topology_rows[_i].text, err);
	ca_topology_format(&topo, text, sizeof(text));
	ck_assert_str_eq(text, topology_rows[_i].formatted);
	ck_assert_int_eq(topo.core_count, topology_rows[_i].cores);
	ca_topology_free(&topo);
}
END_TEST

/* 256 cores of siblings n and n+256, as x86 numbers a two-socket EPYC: text, copy, brief. */
START_TEST(test_topology_many_cpus)
{
	char spec[4096] = "", err[160], brief[64];
	struct ca_topology topo, copy;
	size_t used = 0;
	char *text;

	for (int core = 0; core < 256; core++)
		used += snprintf(spec + used, sizeof(spec) - used, "%s%d,%d", core ? " " : "", core,
				 core + 256);
	ck_assert_int_eq(ca_topology_parse(spec, &topo, err, sizeof(err)), 0);
	ck_assert_int_eq(topo.core_count, 256);
	ck_assert_int_eq(topo.cpu_count, 512);
	ck_assert_int_eq(ca_topology_core_of(&topo, 300), 44);
	ck_assert_int_eq(ca_topology_core_of(&topo, 512), -1);
	ck_assert_int_eq(ca_topology_core_of(&topo, -1), -1);
	ck_assert_int_eq(ca_topology_copy(&copy, &topo), 0);
	ca_topology_free(&topo);
	text = ca_topology_text(&copy);
	ck_assert_str_eq(text, spec);
	ck_assert_int_eq(ca_topology_format(&copy, brief, sizeof(brief)), (int)strlen(spec));
	ca_topology_brief(&copy, brief, sizeof(brief));
	ck_assert_str_eq(brief, "0,256 1,257 2,258 3,259 4,260 5,261 ... (256 cores, 512 CPUs)");
	free(text);
	ca_topology_free(&copy);
}
END_TEST

/* --cpu LIST against "0,4 1,5 2,6 3,7 8": the cores that hold a listed CPU, whole. */
static const struct {
	const char *list;
	const char *restricted;	/* NULL: refused, with this message: */
	const char *error;
} restrict_rows[] = {
	{ "0", "0,4", NULL },
	{ "5", "1,5", NULL },			/* a core is audited whole */
	{ "4,0", "0,4", NULL },			/* one core once */
	{ "6,1", "1,5 2,6", NULL },		/* in the topology's order */
	{ "3-5", "0,4 1,5 3,7", NULL },
	{ "0-8", "0,4 1,5 2,6 3,7 8", NULL },
	{ "8", "8", NULL },
	{ "9", NULL, "CPU 9 is in no core of the topology \"0,4 1,5 2,6 3,7 8\"" },
	{ "1,x", NULL, "expected a CPU number at \"x\"" },
	{ "1 2", NULL, "unexpected \" 2\": a CPU list is numbers and ranges separated by "
	  "commas, as \"0,1,4-7\"" },
	{ "5-3", NULL, "range 5-3 goes down (write 3-5)" },
	{ "", NULL, "expected a CPU number after \"\"" },
	{ "1,", NULL, "expected a CPU number after \"1,\"" },
	{ "8192", NULL, "CPU 8192 is out of range 0-8191" },
};

START_TEST(test_topology_restrict_rows)
{
	struct ca_topology topo, out;
	char err[192] = "", text[64];
	int ret;

	ck_assert_int_eq(ca_topology_parse("0,4 1,5 2,6 3,7 8", &topo, err, sizeof(err)), 0);
	ret = ca_topology_restrict(&topo, restrict_rows[_i].list, &out, err, sizeof(err));
	ca_topology_free(&topo);
	if (!restrict_rows[_i].restricted) {
		ck_assert_msg(ret == -22, "\"%s\": ret %d", restrict_rows[_i].list, ret);
		ck_assert_str_eq(err, restrict_rows[_i].error);
		ck_assert_int_eq(out.cpu_count, 0);
		return;
	}
	ck_assert_msg(ret == 0, "\"%s\": %s", restrict_rows[_i].list, err);
	ca_topology_format(&out, text, sizeof(text));
	ck_assert_str_eq(text, restrict_rows[_i].restricted);
	ck_assert_int_eq(ca_topology_core_of(&out, 9), -1);
	ca_topology_free(&out);
}
END_TEST

Suite *topology_suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_topology_rows, 0,
			    sizeof(topology_rows) / sizeof(topology_rows[0]));
	tcase_add_loop_test(tc, test_topology_restrict_rows, 0,
			    sizeof(restrict_rows) / sizeof(restrict_rows[0]));
	tcase_add_test(tc, test_topology_many_cpus);
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

/* trace-cmd report -R: raw fields, numbers where the plugins print letters and names. */
START_TEST(test_text_raw_fields)
{
	static const struct {
		const char *state;
		bool is_runnable;
	} states[] = { { "0", true }, { "256", true }, { "1", false }, { "2", false },
		       { "128", false }, { "257", false } };
	struct ca_event ev;
	char line[200];

	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		snprintf(line, sizeof(line), "a-1 [001] 1.5: sched_switch: prev_comm=a prev_pid=1 "
			 "prev_prio=120 prev_state=%s next_comm=b next_pid=2 next_prio=120",
			 states[i].state);
		ck_assert_int_eq(ca_text_parse_line(line, &ev), 1);
		ck_assert_msg(ev.sw.is_prev_runnable == states[i].is_runnable, "%s", states[i].state);
	}
	ck_assert_int_eq(ca_text_parse_line("w-63 [001] 3.6: print: ip=tracing_mark_write "
					    "buf=coreaudit-topology 0-1", &ev), 1);
	ck_assert_str_eq(ev.marker, "coreaudit-topology 0-1");
	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 4.0: sys_exit_prctl: __syscall_nr=157 "
					    "ret=-22", &ev), 1);
	ck_assert_int_eq(ev.prctl_ret, -22);
	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 4.0: sys_exit_prctl: __syscall_nr=157 "
					    "ret=0", &ev), 1);
	ck_assert_int_eq(ev.prctl_ret, 0);
	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 4.0: sys_exit_prctl: __syscall_nr=157 "
					    "ret=-", &ev), -22);
	ck_assert_int_eq(ca_text_parse_line("w-63 [001] 3.6: sched_process_fork: "
					    "parent_comm=w parent_pid=63 child_comm=w child_pid=64",
					    &ev), 1);
	ck_assert_int_eq(ev.fork.parent_pid, 63);
	ck_assert_int_eq(ev.fork.child_pid, 64);
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
	ck_assert_int_eq(ev.ipi.target_cpu, 0);
	ck_assert_int_eq(ev.ipi.target_count, 1);
	ck_assert(ev.ipi.is_resched);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.5: ipi_send_cpumask: cpumask=0-2,5 "
					    "callsite=x+0x1 callback=generic_smp+0x0", &ev), 1);
	/* the first CPU of the list, and how many: the source emits one event per CPU */
	ck_assert_int_eq(ev.ipi.target_cpu, 0);
	ck_assert_int_eq(ev.ipi.target_count, 4);
	ck_assert(!ev.ipi.is_resched);

	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.5: ipi_send_cpumask: cpumask=100,511-513 "
					    "callsite=x+0x1 callback=0x0", &ev), 1);
	ck_assert_int_eq(ev.ipi.target_cpu, 100);
	ck_assert_int_eq(ev.ipi.target_count, 4);
	ck_assert_int_eq(ca_text_parse_line("w-66 [001] 3.5: ipi_send_cpumask: cpumask=8192 "
					    "callsite=x+0x1 callback=0x0", &ev), -22);

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

/*
 * Every kind of line: events (1), lines to skip (0), bad lines (-22) and CPUs
 * over the limit (-34).  The first rows are the regressions of issue 12.
 */
#define SW "sched_switch: a:1 [120] R ==> b:2 [120]"
static const struct {
	const char *line;
	int ret;
	int cpu;		/* for ret 1 */
	int64_t lost;		/* for a CA_EV_LOST: its count */
} line_rows[] = {
	{ "[0]", -22, 0, 0 }, { "[0]\n", -22, 0, 0 }, { "[", -22, 0, 0 }, { "-[0]", -22, 0, 0 },
	{ "-1 [0]", -22, 0, 0 }, { "[4294967295]", -22, 0, 0 },
	{ "w-1 [4294967295] 1.0: " SW, -34, 0, 0 }, { "w-1 [4294967296] 1.0: " SW, -34, 0, 0 },
	{ "w-1 [8192] 1.0: " SW, -34, 0, 0 }, { "w-1 [063] 1.0: " SW, 1, 63, 0 },
	{ "w-1 [511] 1.0: " SW, 1, 511, 0 }, { "w-1 [8191] 1.0: " SW, 1, 8191, 0 },
	{ "w-1 [0x1] 1.0: " SW, -22, 0, 0 }, { "w-1 [1 ] 1.0: " SW, -22, 0, 0 },
	{ "w-99999999999 [000] 1.0: " SW, -22, 0, 0 },
	/* lost events, trace-cmd's and tracefs' */
	{ "CPU:1 [5 EVENTS DROPPED]", 1, 1, 5 }, { "CPU:1 [EVENTS DROPPED]\n", 1, 1, -1 },
	{ "CPU:63 [LOST 7 EVENTS]", 1, 63, 7 }, { "CPU:64 [EVENTS DROPPED]", 1, 64, -1 },
	{ "CPU:8192 [EVENTS DROPPED]", -34, 0, 0 },
	{ "CPU:4294967295 [EVENTS DROPPED]", -34, 0, 0 },
	{ "CPU:1 [0 EVENTS DROPPED]", -22, 0, 0 }, { "CPU:1 [EVENTS DROPPED] x", -22, 0, 0 },
	{ "CPU:1 [99999999999999999999 EVENTS DROPPED]", -22, 0, 0 }, { "CPU:", -22, 0, 0 },
	{ "CPU:-1 [EVENTS DROPPED]", -22, 0, 0 },
	/* fuzz-text-line, 5 s in: read_decimal(NULL) after "LOST " without digits */
	{ "CPU:1 [LOST x EVENTS]", -22, 0, 0 }, { "CPU:1 [LOST ", -22, 0, 0 },
	{ "CPU:1 [LOST 0 EVENTS]", -22, 0, 0 }, { "CPU:1 [LOST 3 EVENTS", -22, 0, 0 },
	/* headers, comments, blank lines, stack lines, other events */
	{ "cpus=2", 0, 0, 0 }, { "cpus=64\n", 0, 0, 0 }, { "version = 6", 0, 0, 0 },
	{ "", 0, 0, 0 }, { "CPU 1 is empty\r\n", 0, 0, 0 }, { "cpus=2\r\n", 0, 0, 0 },
	{ "w-1 [000] 1.0: " SW "\r\n", 1, 0, 0 }, { "CPU 1 is empty!", -22, 0, 0 },
	{ " \t\n", 0, 0, 0 }, { "# tracer: nop", 0, 0, 0 }, { "CPU 1 is empty", 0, 0, 0 },
	{ " => __schedule (ffffffff81000000)", 0, 0, 0 },
	{ "w-1 [000] 1.0: kmalloc: call_site=x", 0, 0, 0 },
	{ "w-1 [000] 1.0: hrtimer_expire_entry: function=hrtimer_wakeup/0x0", 0, 0, 0 },
	/* not report text */
	{ "hello", -22, 0, 0 }, { "cpus=x", -22, 0, 0 }, { "cpus=0", -22, 0, 0 },
	{ "cpus=2x", -22, 0, 0 }, { "version = x", -22, 0, 0 }, { "CPU 8192 is empty", -22, 0, 0 },
	{ "w-1 [000]", -22, 0, 0 }, { "w-1 [000] 1.0 " SW, -22, 0, 0 },
	{ "w-1 [000] 1.0: Sched-Switch: x", -22, 0, 0 },
	/* timestamps */
	{ "w-1 [000] 18446744072.999999999: " SW, 1, 0, 0 },
	{ "w-1 [000] 18446744073.0: " SW, -22, 0, 0 },
	{ "w-1 [000] 99999999999999999999.5: " SW, -22, 0, 0 },
	{ "w-1 [000] 1.0000000001: " SW, -22, 0, 0 }, { "w-1 [000] 1.: " SW, -22, 0, 0 },
	{ "w-1 [000] 1.x: " SW, -22, 0, 0 }, { "w-1 [000] 1500: " SW, 1, 0, 0 },
	/* fields: numbers whole and in range */
	{ "w-1 [000] 1.0: sched_switch: a:1 [12x] R ==> b:2 [120]", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_switch: a:1 [120] R ==> b:2 [120] junk", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_switch: a:1x [120] R ==> b:2 [120]", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_switch: a:1 [-1] R ==> b:2 [99]", 1, 0, 0 },
	{ "w-1 [000] 1.0: sched_switch: a:1 [120] ==> b:2 [120]", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> "
	  "next_comm=b next_pid=12x next_prio=120", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> "
	  "next_comm=b next_pid=99999999999 next_prio=120", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_wakeup: a:9 [120] CPU:8192", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_wakeup: a:9 [120] success=1 CPU:001", 1, 0, 0 },
	{ "w-1 [000] 1.0: sched_wakeup: comm=a pid=9 prio=120 target_cpu=4294967296", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_migrate_task: comm=a pid=9 prio=120 orig_cpu=0 dest_cpu=8192",
	  -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_migrate_task: comm=a pid=9 prio=120 orig_cpu=-1 dest_cpu=1",
	  -22, 0, 0 },
	{ "w-1 [000] 1.0: ipi_send_cpu: cpu=8192 callsite=x+0x1 callback=0x0", -22, 0, 0 },
	{ "w-1 [000] 1.0: ipi_send_cpumask: cpumask=0-8192 callsite=x+0x1 callback=0x0", -22, 0, 0 },
	{ "w-1 [000] 1.0: ipi_send_cpumask: cpumask=3-1 callsite=x+0x1 callback=0x0", -22, 0, 0 },
	{ "w-1 [000] 1.0: ipi_send_cpumask: cpumask=0,,1 callsite=x+0x1 callback=0x0", -22, 0, 0 },
	{ "w-1 [000] 1.0: cpu_idle: state=4294967296 cpu_id=0", -22, 0, 0 },
	{ "w-1 [000] 1.0: cpu_idle: state=1 cpu_id=4294967295", -22, 0, 0 },
	{ "w-1 [000] 1.0: sys_exit_prctl: 0x1g", -22, 0, 0 },
	{ "w-1 [000] 1.0: cs_switch: (x) prev_pid=1 prev_cookie=0 next_pid=2 "
	  "next_cookie=0x10000000000000000", -22, 0, 0 },
	{ "w-1 [000] 1.0: sched_process_fork: comm=a pid=1 child_comm=b child_pid=-2", -22, 0, 0 },
};

START_TEST(test_text_line_rows)
{
	struct ca_event ev = { .cpu = -5 };
	int ret = ca_text_parse_line(line_rows[_i].line, &ev);

	ck_assert_msg(ret == line_rows[_i].ret, "\"%s\": ret %d", line_rows[_i].line, ret);
	if (ret != 1)
		return;
	ck_assert_int_eq(ev.cpu, line_rows[_i].cpu);
	if (ev.kind == CA_EV_LOST)
		ck_assert_int_eq(ev.lost.count, line_rows[_i].lost);
}
END_TEST

/* Whole text sources ------------------------------------------------------------- */

#define GOOD_SWITCH(cpu, ts) "  w-1 [00" #cpu "] " ts ": sched_switch: a:1 [120] R ==> b:2 [120]\n"
/* CPU 0 runs b:2 then a:1 again; CPU 1 c:3 then d:4 (a task is current on one CPU at a time) */
#define FOUR_LINES GOOD_SWITCH(0, "1.0") \
	"  w-3 [001] 1.1: sched_switch: c:3 [120] R ==> d:4 [120]\n" \
	"  w-2 [000] 1.2: sched_switch: b:2 [120] R ==> a:1 [120]\n" \
	"  w-4 [001] 1.3: sched_switch: d:4 [120] R ==> c:3 [120]\n"

static const struct {
	const char *text;
	size_t len;		/* 0: strlen */
	enum ca_result code;
	const char *message;	/* in the error (exit 3) or the reasons (exit 4), after the path */
	uint64_t bad_lines;
	long first_bad_line;
} source_rows[] = {
	{ "[0]\n", 0, CA_RESULT_BAD_INPUT, ":1: not trace-cmd report text: \"[0]\" (1 of 1 lines "
	  "unreadable, this the first)", 0, 0 },
	/* item 11: a CPU of 2^32 - 1 was -1 through atoi, after a lost line of CPU 63 */
	{ GOOD_SWITCH(0, "1.0") "CPU:63 [EVENTS DROPPED]\n"
	  "  w-1 [4294967295] 1.5: sched_switch: a:1 [120] R ==> b:2 [120]\n", 0, CA_RESULT_BAD_INPUT,
	  ":3: a CPU over the kernel's limit of 8192: \"  w-1 [4294967295] 1.5: sched_switch", 0,
	  0 },
	{ "  w-1 [4294967296] 1.5: sched_switch: a:1 [120] R ==> b:2 [120]\n", 0, CA_RESULT_BAD_INPUT,
	  ":1: a CPU over the kernel's limit of 8192", 0, 0 },
	{ "cpus=8193\n" FOUR_LINES, 0, CA_RESULT_BAD_INPUT, ":1: more CPUs than the kernel's limit of "
	  "8192: \"cpus=8193\"", 0, 0 },
	/* item 15: one event and junk is not report text */
	{ GOOD_SWITCH(0, "1.0") "junk\nmore junk\n", 0, CA_RESULT_BAD_INPUT,
	  ":2: not trace-cmd report text: \"junk\" (2 of 3 lines unreadable, this the first)",
	  0, 0 },
	{ "# tracer: nop\n\njunk\n", 0, CA_RESULT_BAD_INPUT, ":3: not trace-cmd report text: \"junk\"",
	  0, 0 },
	/* damaged lines inside report text: counted, inconclusive */
	{ "cpus=2\n" FOUR_LINES "  w-1 [000] 1.4: sched_switch: garbage\n" GOOD_SWITCH(0, "1.5"),
	  0, CA_RESULT_INCONCLUSIVE, " could not be read (first: line 6): what they held is unknown",
	  1, 6 },
	/* a pid over PID_MAX_LIMIT (was "out of memory", exit 3: the task table refused it) */
	{ "cpus=2\n" FOUR_LINES "  w-1 [000] 1.4: sched_wakeup: bad:5000000 [120] CPU:001\n"
	  GOOD_SWITCH(0, "1.5"), 0, CA_RESULT_INCONCLUSIVE, "(first: line 6)", 1, 6 },
	{ "cpus=2\n" FOUR_LINES "  w-4194304 [000] 1.4: sched_switch: a:1 [120] R ==> b:2 [120]\n"
	  GOOD_SWITCH(0, "1.5"), 0, CA_RESULT_INCONCLUSIVE, "(first: line 6)", 1, 6 },
	{ "cpus=2\n" FOUR_LINES "  w-1 [000] 1.4: print: tracing_mark_write: coreaudit-cookie "
	  "pid=4194304 cookie=0x1\n" GOOD_SWITCH(0, "1.5"), 0, CA_RESULT_PASS, NULL, 0, 0 },
	{ FOUR_LINES "x\001\002\n" GOOD_SWITCH(0, "1.4"), 0, CA_RESULT_INCONCLUSIVE,
	  "1 line(s) of ", 1, 5 },
	/* a NUL inside a line (in the first 4 KB: not text at all); a last line cut short */
	{ FOUR_LINES "  w-1 [000] 1.4: sched_\0switch: a:1 [120] R ==> b:2 [120]\n",
	  sizeof(FOUR_LINES "  w-1 [000] 1.4: sched_\0switch: a:1 [120] R ==> b:2 [120]\n") - 1,
	  CA_RESULT_BAD_INPUT, ": unrecognised format: neither a trace-cmd trace.dat file nor trace-cmd "
	  "report text", 0, 0 },
	{ FOUR_LINES "  w-1 [000] 1.4: sched_switch: a:1 [120] R ==> b:2 [12", 0,
	  CA_RESULT_INCONCLUSIVE, "(first: line 5)", 1, 5 },
	{ FOUR_LINES "  w-1 [000] 1.4: sched_switch: a:1 [120] R ==> b:2", 0,
	  CA_RESULT_INCONCLUSIVE, "(first: line 5)", 1, 5 },
	{ FOUR_LINES "# no newline after a comment", 0, CA_RESULT_PASS, NULL, 0, 0 },
	/* lost events after a CPU's last event still count; tracefs' lost lines too */
	{ FOUR_LINES "CPU:1 [EVENTS DROPPED]\n", 0, CA_RESULT_INCONCLUSIVE,
	  "at least 1 events lost", 0, 0 },
	{ GOOD_SWITCH(0, "1.0") "CPU:1 [LOST 3 EVENTS]\n" GOOD_SWITCH(1, "1.1"), 0,
	  CA_RESULT_INCONCLUSIVE, "3 events lost", 0, 0 },
	{ "cpus=2\nversion = 6\nCPU 1 is empty\n# c\n\n" FOUR_LINES, 0, CA_RESULT_PASS, NULL, 0, 0 },
	/*
	 * fuzz-text-source: lines of events coreaudit does not use counted as its
	 * events (and their stale kind as a cookie probe, ipi, tick...): the first
	 * pass found events that the second never emitted
	 */
	{ "cpus=2\n  w-1 [000] 1.0: sched_6akeup: comm=a pid=18 prio=0 target_cpu=000\n"
	  "  w-1 [000] 1.1: kmalloc: x\n", 0, CA_RESULT_BAD_INPUT,
	  ": no scheduler events: not trace-cmd report text nor a trace.dat file", 0, 0 },
};

static bool has_reason(const struct ca_audit *audit, const char *text)
{
	for (int i = 0; i < audit->reason_count; i++)
		if (strstr(audit->reasons[i], text))
			return true;
	return false;
}

START_TEST(test_text_source_rows)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	size_t len = source_rows[_i].len ? source_rows[_i].len : strlen(source_rows[_i].text);
	enum ca_result code;

	t.text = malloc(len + 1);
	memcpy(t.text, source_rows[_i].text, len);
	t.len = len;
	test_options(&opts, NULL);
	opts.assume_unknown_cookie_zero = true;
	code = audit_text(&audit, &t, &opts);
	ck_assert_msg(code == source_rows[_i].code, "row %d: exit %d: %s", _i, code, audit.error);
	if (code == CA_RESULT_BAD_INPUT)
		ck_assert_msg(strstr(audit.error, source_rows[_i].message), "row %d: \"%s\"", _i,
			      audit.error);
	else if (source_rows[_i].message)
		ck_assert_msg(has_reason(&audit, source_rows[_i].message), "row %d: \"%s\"", _i,
			      audit.reason_count ? audit.reasons[0] : "no reason");
	if (code != CA_RESULT_BAD_INPUT) {
		ck_assert_uint_eq(audit.info.bad_lines, source_rows[_i].bad_lines);
		ck_assert_int_eq(audit.info.first_bad_line, source_rows[_i].first_bad_line);
	}
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A NUL byte past the first 4 KB (which tell text from binary): a bad line. */
START_TEST(test_text_nul_byte)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	char ts[32];

	for (int i = 0; i < 100; i++) {
		snprintf(ts, sizeof(ts), "1.%09d", i);
		trace_line(&t, i % 2, ts, 1, "sched_switch", "a:1 [120] R ==> b:2 [120]");
	}
	trace_raw(&t, "  w-1 [000] 2.0: sched_switch: a:1 [120] R ==> b:2 [120]");
	t.text[t.len - 20] = '\0';
	test_options(&opts, NULL);
	opts.assume_unknown_cookie_zero = true;
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	ck_assert_uint_eq(audit.info.bad_lines, 1);
	ck_assert_int_eq(audit.info.first_bad_line, 101);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* The exact reason, path and all. */
START_TEST(test_text_bad_line_reason)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct ca_audit audit;
	char expected[200];

	static const char *const switches[] = { "a:1 [120] R ==> b:2 [120]",
		"c:3 [120] R ==> d:4 [120]", "b:2 [120] R ==> a:1 [120]", "d:4 [120] R ==> c:3 [120]" };

	trace_raw(&t, "cpus=2");
	for (int i = 0; i < 4; i++) {
		char ts[32];

		snprintf(ts, sizeof(ts), "1.00000000%d", i);
		trace_line(&t, i % 2, ts, 1, "sched_switch", "%s", switches[i]);
	}
	trace_raw(&t, "d-1 [000] 1.5: sched_switch: a:1 [120] R ==> b:2 [120] ???");
	trace_raw(&t, "j\xffunk");
	test_options(&opts, NULL);
	opts.assume_unknown_cookie_zero = true;
	ck_assert_msg(audit_text(&audit, &t, &opts) == CA_RESULT_INCONCLUSIVE, "%s", audit.error);
	/* the path was the helper's temporary file: its prefix, then the rest exactly */
	snprintf(expected, sizeof(expected), "could not be read (first: line 6): what they held "
		 "is unknown");
	ck_assert_int_eq(audit.verdict, CA_VERDICT_INCONCLUSIVE);
	/* the bad line that names its CPU: what CPU 0 ran around it is unknown */
	ck_assert_msg(!strncmp(audit.reasons[0], "CPU 0: unreadable data at file offset", 37),
		      "reason \"%s\"", audit.reasons[0]);
	ck_assert_msg(!strncmp(audit.reasons[1], "2 line(s) of /tmp/coreaudit-test-", 33) &&
		      strstr(audit.reasons[1], expected), "reason \"%s\"", audit.reasons[1]);
	ca_audit_free(&audit);
	trace_free(&t);
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
	tcase_add_test(tc, test_text_raw_fields);
	tcase_add_test(tc, test_text_other_events);
	tcase_add_test(tc, test_text_skipped_and_malformed);
	tcase_add_loop_test(tc, test_text_line_rows, 0, sizeof(line_rows) / sizeof(line_rows[0]));
	tcase_add_loop_test(tc, test_text_source_rows, 0,
			    sizeof(source_rows) / sizeof(source_rows[0]));
	tcase_add_test(tc, test_text_nul_byte);
	tcase_add_test(tc, test_text_bad_line_reason);
	suite_add_tcase(s, tc);
	return s;
}
