/*
 * event.c - small helpers around struct ca_event.
 */
#include <string.h>

#include "coreaudit/event.h"

static const char *const kind_names[CA_EV_KIND_COUNT] = {
	[CA_EV_SWITCH] = "sched_switch",
	[CA_EV_WAKEUP] = "sched_wakeup",
	[CA_EV_MIGRATE] = "sched_migrate_task",
	[CA_EV_FORK] = "sched_process_fork",
	[CA_EV_EXIT] = "sched_process_exit",
	[CA_EV_EXEC] = "sched_process_exec",
	[CA_EV_IDLE] = "cpu_idle",
	[CA_EV_PRCTL_ENTER] = "sys_enter_prctl",
	[CA_EV_PRCTL_EXIT] = "sys_exit_prctl",
	[CA_EV_MARKER] = "print",
	[CA_EV_COOKIE] = "cs_switch",
	[CA_EV_IPI] = "ipi_send_cpu",
	[CA_EV_TICK] = "local_timer_entry",
	[CA_EV_LOST] = "lost events",
};

const char *ca_event_kind_name(enum ca_event_kind kind)
{
	if ((unsigned int)kind >= CA_EV_KIND_COUNT)
		return "unknown";
	return kind_names[kind];
}

void ca_copy_comm(char dst[CA_COMM_LEN], const char *src, int src_len)
{
	int len = src_len < CA_COMM_LEN - 1 ? src_len : CA_COMM_LEN - 1;
	const char *nul = memchr(src, '\0', len);

	if (nul)
		len = nul - src;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

const struct ca_event_name ca_traced_events[] = {
	{ "sched", "sched_switch" }, { "sched", "sched_wakeup" }, { "sched", "sched_wakeup_new" },
	{ "sched", "sched_migrate_task" }, { "sched", "sched_process_fork" },
	{ "sched", "sched_process_exit" }, { "sched", "sched_process_exec" },
	{ "power", "cpu_idle" }, { "ipi", "ipi_send_cpu" }, { "ipi", "ipi_send_cpumask" },
	{ "irq_vectors", "local_timer_entry" }, { "timer", "hrtimer_expire_entry" },
	{ "syscalls", "sys_enter_prctl" }, { "syscalls", "sys_exit_prctl" },
};

const int ca_traced_event_count = sizeof(ca_traced_events) / sizeof(ca_traced_events[0]);
