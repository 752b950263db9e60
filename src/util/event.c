/*
 * event.c - the events coreaudit reads, listed once (every reader looks
 * them up here), and small helpers around struct ca_event.
 */
#include <stddef.h>
#include <string.h>

#include "util/event.h"

/* A kind's name: its first event's (ipi_send_cpu for both IPI events, local_timer_entry for
 * ticks). */
const char *ca_event_kind_name(enum ca_event_kind kind)
{
	if (kind == CA_EV_LOST)
		return "lost events";
	if (kind == CA_EV_KERNEL)
		return "kernel entry or exit";	/* irq, softirq, system call: one kind */
	for (int i = 0; i < ca_event_desc_count; i++)
		if (ca_event_descs[i].kind == kind)
			return ca_event_descs[i].id.event;
	return "unknown";
}

size_t ca_event_size(const struct ca_event *ev)
{
	size_t head = offsetof(struct ca_event, sw);

	switch (ev->kind) {
	case CA_EV_SWITCH: return head + sizeof(ev->sw);
	case CA_EV_WAKEUP: return head + sizeof(ev->wakeup);
	case CA_EV_MIGRATE: return head + sizeof(ev->migrate);
	case CA_EV_FORK: return head + sizeof(ev->fork);
	case CA_EV_EXIT:
	case CA_EV_EXEC: return head + sizeof(ev->task);
	case CA_EV_IDLE: return head + sizeof(ev->idle);
	case CA_EV_PRCTL_ENTER: return head + sizeof(ev->prctl);
	case CA_EV_PRCTL_EXIT: return head + sizeof(ev->prctl_ret);
	case CA_EV_COOKIE: return head + sizeof(ev->cookie);
	case CA_EV_IPI: return head + sizeof(ev->ipi);
	case CA_EV_TICK: return head + sizeof(ev->tick);
	case CA_EV_KERNEL: return head + sizeof(ev->kernel);
	case CA_EV_LOST: return head + sizeof(ev->lost);
	default: return sizeof(*ev);	/* a marker, and any kind added later: all of it */
	}
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

/* An event monitor and record enable, and one they leave alone (a marker, the probe). */
#define TRACED(system, name, event_kind) \
	{ .id = { system, name }, .kind = event_kind, .is_traced = true }
#define READ(system, name, event_kind) { .id = { system, name }, .kind = event_kind }
/* Entered or left the kernel: enabled by record --kernel-entry only. */
#define KERNEL(system, name, of, entry) \
	{ .id = { system, name }, .kind = CA_EV_KERNEL, .is_kernel_entry = true, .what = of, \
	  .is_entry = entry }

const struct ca_event_desc ca_event_descs[] = {
	TRACED("sched", "sched_switch", CA_EV_SWITCH),
	TRACED("sched", "sched_wakeup", CA_EV_WAKEUP),
	{ .id = { "sched", "sched_wakeup_new" }, .kind = CA_EV_WAKEUP, .is_new_task = true,
	  .is_traced = true },
	TRACED("sched", "sched_migrate_task", CA_EV_MIGRATE),
	TRACED("sched", "sched_process_fork", CA_EV_FORK),
	TRACED("sched", "sched_process_exit", CA_EV_EXIT),
	TRACED("sched", "sched_process_exec", CA_EV_EXEC),
	TRACED("power", "cpu_idle", CA_EV_IDLE),
	TRACED("ipi", "ipi_send_cpu", CA_EV_IPI),
	TRACED("ipi", "ipi_send_cpumask", CA_EV_IPI),
	TRACED("irq_vectors", "local_timer_entry", CA_EV_TICK),
	{ .id = { "timer", "hrtimer_expire_entry" }, .kind = CA_EV_TICK, .is_hrtimer = true,
	  .is_traced = true },
	TRACED("syscalls", "sys_enter_prctl", CA_EV_PRCTL_ENTER),
	TRACED("syscalls", "sys_exit_prctl", CA_EV_PRCTL_EXIT),
	KERNEL("irq", "irq_handler_entry", CA_KERNEL_IRQ, true),
	KERNEL("irq", "irq_handler_exit", CA_KERNEL_IRQ, false),
	KERNEL("irq", "softirq_entry", CA_KERNEL_SOFTIRQ, true),
	KERNEL("irq", "softirq_exit", CA_KERNEL_SOFTIRQ, false),
	KERNEL("raw_syscalls", "sys_enter", CA_KERNEL_SYSCALL, true),
	KERNEL("raw_syscalls", "sys_exit", CA_KERNEL_SYSCALL, false),
	READ("ftrace", "print", CA_EV_MARKER),
	READ(NULL, "cs_switch", CA_EV_COOKIE),
};

const int ca_event_desc_count = sizeof(ca_event_descs) / sizeof(ca_event_descs[0]);

const struct ca_event_desc *ca_event_desc_find(const char *name)
{
	for (int i = 0; i < ca_event_desc_count; i++)
		if (!strcmp(ca_event_descs[i].id.event, name))
			return &ca_event_descs[i];
	return NULL;
}
