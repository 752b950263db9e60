/*
 * exposure.h - kernel-entry exposure (--report exposure): the time a CPU ran
 * in the kernel on behalf of one cookie (or tag) while a sibling ran a task
 * of another, from irq, softirq and syscall events (record --kernel-entry).
 * Core scheduling isolates user tasks; it does not stop a sibling's kernel
 * entry (an interrupt, a system call) from sharing the core with another
 * cookie's task.  An accountant: it judges nothing.
 *
 * A CPU is in the kernel for an irq while an irq_handler_entry has no exit
 * yet, for a softirq likewise, and for a syscall while the task it runs has
 * entered one and not left it (per task: a task blocked in a syscall goes on
 * in it when it runs again).  A syscall is on behalf of its task's identity,
 * and exposed beside a task of another; an interrupt (irq or softirq, on a
 * busy or an idle CPU) is on behalf of no task (it may handle anyone's
 * data), and exposed beside every task a sibling runs.  Under core
 * scheduling siblings run one cookie, so syscall exposure is the co-run
 * windows' and interrupts are what is left.  A task's syscall entered before
 * the trace began is not seen: its first stretch is missed, not invented.
 */
#ifndef CA_CHECKS_EXPOSURE_H
#define CA_CHECKS_EXPOSURE_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/check.h"
#include "checks/settle.h"
#include "util/event.h"
#include "util/keymap.h"
#include "util/pidmap.h"

/* An ordered pair: @inside's task in the kernel while @beside's ran on a sibling. */
struct ca_exposure_pair {
	bool is_interrupt;		/* inside is an interrupt, of no identity */
	uint64_t inside;		/* identities: cookies, or tag numbers */
	uint64_t beside;
	uint64_t ns[CA_KERNEL_WHAT_COUNT];	/* by what it was in the kernel for */
	uint64_t total_ns;
};

/* One stretch of a CPU in the kernel beside another identity's task, unbroken. */
struct ca_exposure_window {
	int cpu;
	int pid;			/* the task in the kernel, or interrupted (0: idle) */
	bool is_interrupt;		/* inside: none */
	uint64_t inside;
	enum ca_kernel_what what;
	int64_t number;			/* its irq, vector or syscall */
	int beside_cpu;
	int beside_pid;
	uint64_t beside;
	uint64_t start;
	uint64_t end;
};

struct ca_exposure_cpu {
	int irq_depth;
	int softirq_depth;
	int64_t irq;			/* the innermost irq, and softirq vector */
	int64_t vec;
	int last_pid;			/* the task of its last event (0: none, or lost) */
	bool is_open;			/* a window is open: */
	struct ca_exposure_window open;
};

/* One figure an interval adds its observed length to (exposure.c). */
struct ca_exposure_item {
	uint8_t kind;			/* in the kernel, exposed, not attributed, a pair's */
	uint8_t what;			/* enum ca_kernel_what */
	bool is_interrupt;		/* a pair's: */
	uint64_t inside;
	uint64_t beside;
};

struct ca_exposure {
	struct ca_check base;
	struct ca_exposure_cpu *cpus;	/* [cpu_count] */
	size_t cpu_count;
	struct ca_settle *waiting;	/* [core_count]: intervals to settle, of items */
	int core_count;
	uint64_t events;		/* kernel entries and exits seen */
	uint64_t in_kernel_ns[CA_KERNEL_WHAT_COUNT];	/* CPU time in the kernel, a task's */
	uint64_t exposed_ns[CA_KERNEL_WHAT_COUNT];	/* of it, beside another identity */
	uint64_t unknown_ns;		/* of in_kernel_ns, beside a task (or for one) of an
					 * identity not known: not attributed */
	struct ca_pidmap syscall_map;	/* pid -> index into syscalls */
	struct ca_exposure_syscall {	/* per task: */
		bool is_in;		/* in a syscall (not seen entering one: no) */
		int64_t number;		/* which */
	} *syscalls;
	size_t syscall_count;
	size_t syscall_room;
	struct ca_keymap pair_map;	/* ca_keymap_pair(inside index, beside index) -> pair */
	struct ca_keymap identity_map;	/* identity -> a small index for pair keys */
	size_t identity_count;
	struct ca_exposure_pair *pairs;
	size_t pair_count;
	size_t pair_room;
	struct ca_exposure_window *list;	/* the longest windows, longest first */
	size_t listed;
	size_t list_capacity;
	uint64_t window_count;
};

#define CA_EXPOSURE_LISTED 64	/* windows kept, at most */

/** ca_exposure_init() - keep the @list_limit longest windows (64 at most). Return: 0, or -ENOMEM. */
int ca_exposure_init(struct ca_exposure *exp, size_t list_limit);
void ca_exposure_free(struct ca_exposure *exp);

#endif
