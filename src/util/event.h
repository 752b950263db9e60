/*
 * event.h - the normalised scheduler event every source produces.
 *
 * Sources turn trace.dat records or trace-cmd report text into struct
 * ca_event, in global timestamp order.  Nothing downstream knows which source
 * an event came from.  This header describes data only; it does no parsing.
 */
#ifndef COREAUDIT_EVENT_H
#define COREAUDIT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CA_COMM_LEN 16
#define CA_MARKER_LEN 240

enum ca_event_kind {
	CA_EV_SWITCH,		/* sched:sched_switch (with cookies when paired) */
	CA_EV_WAKEUP,		/* sched:sched_wakeup and sched_wakeup_new */
	CA_EV_MIGRATE,		/* sched:sched_migrate_task */
	CA_EV_FORK,		/* sched:sched_process_fork */
	CA_EV_EXIT,		/* sched:sched_process_exit */
	CA_EV_EXEC,		/* sched:sched_process_exec */
	CA_EV_IDLE,		/* power:cpu_idle */
	CA_EV_PRCTL_ENTER,	/* syscalls:sys_enter_prctl */
	CA_EV_PRCTL_EXIT,	/* syscalls:sys_exit_prctl */
	CA_EV_MARKER,		/* ftrace:print (trace_marker) */
	CA_EV_COOKIE,		/* the cs_switch probe, before pairing */
	CA_EV_IPI,		/* ipi:ipi_send_cpu / ipi_send_cpumask */
	CA_EV_TICK,		/* local_timer_entry / hrtimer_expire_entry */
	CA_EV_KERNEL,		/* irq, softirq and syscall entries and exits */
	CA_EV_LOST,		/* events were lost on this CPU before this point */
	CA_EV_KIND_COUNT,
};

struct ca_switch {
	int prev_pid;
	int next_pid;
	int prev_prio;		/* the kernel's prio: < 0 deadline, < 100 realtime */
	int next_prio;
	bool is_prev_runnable;	/* prev_state R or R+: still queued */
	bool has_cookies;	/* filled from the paired cs_switch probe */
	uint64_t prev_cookie;
	uint64_t next_cookie;
	char prev_comm[CA_COMM_LEN];
	char next_comm[CA_COMM_LEN];
};

struct ca_wakeup {
	int pid;
	int target_cpu;
	bool is_new;
	char comm[CA_COMM_LEN];
};

struct ca_migrate {
	int pid;
	int orig_cpu;
	int dest_cpu;
};

struct ca_fork {
	int parent_pid;
	int child_pid;
	char child_comm[CA_COMM_LEN];
};

struct ca_task_ref {
	int pid;
	char comm[CA_COMM_LEN];
};

struct ca_idle {
	uint32_t state;		/* 4294967295 (UINT32_MAX) leaves idle */
	int cpu_id;
};

struct ca_prctl {
	int64_t option;
	int64_t arg2;
	int64_t arg3;
	int64_t arg4;
	int64_t arg5;
};

struct ca_cookie_probe {
	int prev_pid;
	int next_pid;
	uint64_t prev_cookie;
	uint64_t next_cookie;
};

/*
 * A gap in one CPU's stream, before the event's timestamp: events the kernel
 * lost (its ring buffer overran), or data the reader could not read and
 * skipped (a damaged page or chunk).  What ran on the CPU from its last event
 * before the gap up to this timestamp is unknown.
 */
struct ca_lost {
	int64_t count;		/* events lost; < 0: count unknown (always for damage) */
	bool is_damage;		/* unreadable input skipped, not a kernel overrun */
	bool is_stream_end;	/* nothing readable follows on this CPU: unknown to the end */
	uint64_t offset;	/* is_damage: file offset of the unreadable data */
	uint64_t bytes;		/* is_damage: how many bytes were skipped (0: not known) */
};

/*
 * One IPI to one CPU.  An ipi_send_cpumask of any width becomes one event per
 * CPU of its mask, in CPU order, all with its timestamp; count sends by
 * is_first_target.  A send aimed at no CPU (or at none below CA_CPU_LIMIT) is
 * one event with target_cpu -1.
 */
struct ca_ipi {
	int target_cpu;		/* -1: none */
	int target_count;	/* CPUs the send was aimed at */
	bool is_first_target;	/* the first (or only) event of its send */
	bool is_resched;	/* callback 0: a reschedule request */
	bool is_from_schedule;	/* sent from __schedule: its sender is picking now */
	bool is_callsite_known;	/* a reschedule IPI whose callsite the trace names */
};

/* A timer interrupt (local_timer_entry), or the tick's own hrtimer (tick_*). */
struct ca_tick {
	bool is_tick_timer;	/* hrtimer_expire_entry of tick_*: the tick itself */
};

/* Where a CPU is in the kernel (irq:irq_handler_*, irq:softirq_*, raw_syscalls:sys_*). */
enum ca_kernel_what {
	CA_KERNEL_SYSCALL,
	CA_KERNEL_IRQ,
	CA_KERNEL_SOFTIRQ,
	CA_KERNEL_WHAT_COUNT,
};

struct ca_kernel_entry {
	enum ca_kernel_what what;
	bool is_entry;		/* else the exit */
	int64_t number;		/* the irq, the softirq vector, the syscall number */
};

struct ca_event {
	uint64_t ts;		/* nanoseconds, the trace's own clock */
	int cpu;
	int pid;		/* common_pid: the task current on cpu */
	enum ca_event_kind kind;
	union {
		struct ca_switch sw;
		struct ca_wakeup wakeup;
		struct ca_migrate migrate;
		struct ca_fork fork;
		struct ca_task_ref task;	/* exit, exec */
		struct ca_idle idle;
		struct ca_prctl prctl;
		int64_t prctl_ret;
		struct ca_cookie_probe cookie;
		struct ca_ipi ipi;
		struct ca_tick tick;
		struct ca_kernel_entry kernel;
		struct ca_lost lost;
		char marker[CA_MARKER_LEN];	/* NUL-terminated */
	};
};

/* A tracefs event by system and name. */
struct ca_event_name {
	const char *system;
	const char *event;
};

/*
 * Every kernel event coreaudit reads, listed once: the trace.dat decoder,
 * the report-text reader and the live source look events up here, and
 * monitor and record enable the traced ones.
 */
struct ca_event_desc {
	struct ca_event_name id;	/* system NULL: any (cs_switch, a dynamic probe) */
	enum ca_event_kind kind;
	bool is_new_task;	/* sched_wakeup_new */
	bool is_hrtimer;	/* hrtimer_expire_entry: the tick only when its function is tick_* */
	bool is_traced;		/* enabled live (not the marker, always on; nor the probe) */
	bool is_kernel_entry;	/* enabled live with --kernel-entry only (CA_EV_KERNEL) */
	enum ca_kernel_what what;	/* CA_EV_KERNEL: of which, */
	bool is_entry;		/* and whether the entry */
};

extern const struct ca_event_desc ca_event_descs[];
extern const int ca_event_desc_count;

/**
 * ca_event_desc_find() - the event named @name (of any system: report text
 *                        names no system)
 * Return: its descriptor, or NULL for an event coreaudit does not read.
 */
const struct ca_event_desc *ca_event_desc_find(const char *name);

/**
 * ca_event_size() - the bytes of @ev its kind uses: the common fields and its
 *                   member of the union (all of it for a marker)
 *
 * What a copy of @ev must take; the rest of the union is another kind's.
 */
size_t ca_event_size(const struct ca_event *ev);

/**
 * ca_event_kind_name() - short name of an event kind, for messages
 * Return: a static string.
 */
const char *ca_event_kind_name(enum ca_event_kind kind);

/**
 * ca_copy_comm() - copy a comm that may lack its NUL terminator
 */
void ca_copy_comm(char dst[CA_COMM_LEN], const char *src, int src_len);

#endif
