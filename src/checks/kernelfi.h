/*
 * kernelfi.h - private to the forced-idle check: forced idle charged per task
 * the way the kernel does (kernel/sched/core.c pick_next_task,
 * kernel/sched/core_sched.c __sched_core_account_forceidle), by following its
 * core-wide selections through the trace.
 */
#ifndef CA_CHECKS_KERNELFI_H
#define CA_CHECKS_KERNELFI_H

#include "coreaudit/forcedidle.h"

struct ca_state;

/** ca_kernelfi_event() - follow one event (after the state applied it). */
void ca_kernelfi_event(struct ca_forcedidle *fi, const struct ca_state *state,
		       const struct ca_event *ev);

/** ca_kernelfi_charge_task() - add @ns to @pid's kernel figure (forcedidle.c). */
void ca_kernelfi_charge_task(struct ca_forcedidle *fi, int pid, uint64_t ns);

#endif
