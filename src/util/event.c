/*
 * event.c - the events coreaudit reads, listed once (every reader looks
 * them up here), and small helpers around struct ca_event.
 */
#include <string.h>

#include "util/event.h"

/* A kind's name: its first event's (ipi_send_cpu for both IPI events, local_timer_entry for
 * ticks). */
const char *ca_event_kind_name(enum ca_event_kind kind)
{
	if (kind == CA_EV_LOST)
		return "lost events";
	for (int i = 0; i < ca_event_desc_count; i++)
		if (ca_event_descs[i].kind == kind)
			return ca_event_descs[i].id.event;
	return "unknown";
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

#define TRACED true

const struct ca_event_desc ca_event_descs[] = {
	{ { "sched", "sched_switch" }, CA_EV_SWITCH, false, false, TRACED },
	{ { "sched", "sched_wakeup" }, CA_EV_WAKEUP, false, false, TRACED },
	{ { "sched", "sched_wakeup_new" }, CA_EV_WAKEUP, true, false, TRACED },
	{ { "sched", "sched_migrate_task" }, CA_EV_MIGRATE, false, false, TRACED },
	{ { "sched", "sched_process_fork" }, CA_EV_FORK, false, false, TRACED },
	{ { "sched", "sched_process_exit" }, CA_EV_EXIT, false, false, TRACED },
	{ { "sched", "sched_process_exec" }, CA_EV_EXEC, false, false, TRACED },
	{ { "power", "cpu_idle" }, CA_EV_IDLE, false, false, TRACED },
	{ { "ipi", "ipi_send_cpu" }, CA_EV_IPI, false, false, TRACED },
	{ { "ipi", "ipi_send_cpumask" }, CA_EV_IPI, false, false, TRACED },
	{ { "irq_vectors", "local_timer_entry" }, CA_EV_TICK, false, false, TRACED },
	{ { "timer", "hrtimer_expire_entry" }, CA_EV_TICK, false, true, TRACED },
	{ { "syscalls", "sys_enter_prctl" }, CA_EV_PRCTL_ENTER, false, false, TRACED },
	{ { "syscalls", "sys_exit_prctl" }, CA_EV_PRCTL_EXIT, false, false, TRACED },
	{ { "ftrace", "print" }, CA_EV_MARKER, false, false, false },
	{ { NULL, "cs_switch" }, CA_EV_COOKIE, false, false, false },
};

const int ca_event_desc_count = sizeof(ca_event_descs) / sizeof(ca_event_descs[0]);

const struct ca_event_desc *ca_event_desc_find(const char *name)
{
	for (int i = 0; i < ca_event_desc_count; i++)
		if (!strcmp(ca_event_descs[i].id.event, name))
			return &ca_event_descs[i];
	return NULL;
}
