/*
 * scenario.c - event lines for the unit scenarios.
 */
#include <stdio.h>
#include <string.h>

#include "scenario.h"

static const char *ts_text(uint64_t ts, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%09llu", (unsigned long long)(ts / 1000000000ull),
		 (unsigned long long)(ts % 1000000000ull));
	return buf;
}

static const char *comm_of(int pid, int cpu, char *buf, size_t len)
{
	if (pid)
		snprintf(buf, len, "t%d", pid);
	else
		snprintf(buf, len, "swapper/%d", cpu);
	return buf;
}

void sc_switch(struct trace_text *t, int cpu, uint64_t ts, int prev, const char *prev_state,
	       int next, bool probe, uint64_t prev_cookie, uint64_t next_cookie)
{
	char when[32], a[32], b[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), prev, "sched_switch",
		   "%s:%d [120] %s ==> %s:%d [120]", comm_of(prev, cpu, a, sizeof(a)), prev,
		   prev_state, comm_of(next, cpu, b, sizeof(b)), next);
	if (probe)
		trace_line(t, cpu, ts_text(ts + 200, when, sizeof(when)), next, "cs_switch",
			   "(ffffffff8106cbb7) prev_pid=%d prev_cookie=%llu next_pid=%d "
			   "next_cookie=%llu", prev, (unsigned long long)prev_cookie, next,
			   (unsigned long long)next_cookie);
}

void sc_wakeup(struct trace_text *t, int cpu, uint64_t ts, int waker, int pid, int target)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), waker, "sched_wakeup",
		   "t%d:%d [120] CPU:%03d", pid, pid, target);
}

void sc_marker(struct trace_text *t, int cpu, uint64_t ts, int pid, const char *text)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, "print",
		   "tracing_mark_write: %s", text);
}

void sc_fork(struct trace_text *t, int cpu, uint64_t ts, int parent, int child)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), parent, "sched_process_fork",
		   "comm=t%d pid=%d child_comm=t%d child_pid=%d", parent, parent, parent, child);
}

void sc_prctl(struct trace_text *t, int cpu, uint64_t ts, int pid, int cmd, int target,
	      int scope, long ret)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, "sys_enter_prctl",
		   "option: 0x0000003e, arg2: 0x%08x, arg3: 0x%08x, arg4: 0x%08x, arg5: 0x0",
		   cmd, target, scope);
	trace_line(t, cpu, ts_text(ts + 1000, when, sizeof(when)), pid, "sys_exit_prctl",
		   "0x%lx", ret);
}

void sc_ipi(struct trace_text *t, int cpu, uint64_t ts, int pid, int target)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, "ipi_send_cpu",
		   "cpu=%d callsite=__schedule+0x759 callback=0x0", target);
}

void sc_tick(struct trace_text *t, int cpu, uint64_t ts, int pid)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, "local_timer_entry",
		   "vector=236");
}

void sc_tick_timer(struct trace_text *t, int cpu, uint64_t ts, int pid)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, "hrtimer_expire_entry",
		   "hrtimer=0xffff88803e920458 now=%llu function=tick_nohz_handler/0x0",
		   (unsigned long long)ts);
}

void sc_idle(struct trace_text *t, int cpu, uint64_t ts, int state)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), 0, "cpu_idle", "state=%u cpu_id=%d",
		   (unsigned int)state, cpu);
}

void sc_migrate(struct trace_text *t, int cpu, uint64_t ts, int pid, int orig, int dest)
{
	char when[32];

	trace_line(t, cpu, ts_text(ts, when, sizeof(when)), 0, "sched_migrate_task",
		   "comm=t%d pid=%d prio=120 orig_cpu=%d dest_cpu=%d", pid, pid, orig, dest);
}

void sc_kernel(struct trace_text *t, int cpu, uint64_t ts, int pid, const char *event, long number)
{
	char when[32];
	bool is_entry = strstr(event, "entry") || !strcmp(event, "sys_enter");

	if (!strncmp(event, "irq_", 4))
		trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, event,
			   is_entry ? "irq=%ld name=eth0" : "irq=%ld ret=handled", number);
	else if (!strncmp(event, "softirq", 7))
		trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, event,
			   "vec=%ld [action=NET_RX]", number);
	else
		trace_line(t, cpu, ts_text(ts, when, sizeof(when)), pid, event,
			   is_entry ? "NR %ld (3, 0, 0, 0, 0, 0)" : "NR %ld = 0", number);
}
