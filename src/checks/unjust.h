/*
 * unjust.h - unjustified forced idle: a CPU idle while a task it could run
 * beside its siblings waits on it.
 *
 * Linux 6.12 (kernel/sched/core.c, pick_next_task()): the core-wide
 * selection gives each sibling its own best task if it matches the winning
 * cookie, else a queued task of that cookie from its core tree
 * (sched_core_find(), for a cookie other than 0), and only then idle.  A
 * CPU is therefore never idle while a task of the cookie its siblings run
 * waits on it.  Two fixed bugs kept such a task out of the core tree, and
 * the sibling idle beside it: 91caa5ae (6.0: a task given a cookie while
 * queued or running was never inserted, and two tasks sharing a cookie
 * showed about 30% forced idle) and c662e2b1 (6.12: delayed-dequeue tasks
 * left in the tree, the reverse).
 *
 * The rule, for the automaton of owed.h: a CPU Y idle with a queued task W
 * whose cookie, not 0, is the one cookie every task running on the core has
 * (H: the first of them); every state and cookie known.  Only Y's own
 * switch to idle, or its return to an idle state, decides: a sibling that
 * selects Y's task tells Y with an IPI, which a stalled vCPU can take
 * milliseconds to take.  Excused: an RT W whose CPU ran RT near the
 * throttle (history.h).  Not in the trace, so not excused: a cgroup's CPU
 * bandwidth limit (cpu.max) holding a task that looks runnable.
 */
#ifndef COREAUDIT_UNJUST_H
#define COREAUDIT_UNJUST_H

#include "checks/owed.h"

#define CA_UNJUST_DEFAULT_NS 1000000ull

extern const struct ca_owed_rule ca_unjust_rule;

#endif
