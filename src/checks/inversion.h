/*
 * inversion.h - priority inversion: a realtime task kept off an idle CPU by
 * a lower-priority task of another cookie on its core.
 *
 * Linux 6.12 (kernel/sched/core.c, pick_next_task(), since 7afbba11 in
 * 5.14): the core-wide selection takes the highest-priority pick of every
 * sibling (class first: stop, deadline, RT, fair; then RT priority) and
 * makes its cookie the core's; the others run a task of that cookie or idle.
 * A realtime task queued on a CPU therefore never waits there idle while a
 * sibling runs a task it outranks of another cookie: the selection would
 * have given it the core and forced the other sibling idle instead.  Before
 * 7afbba11 a selection made without need_sync looked at its own CPU only,
 * and an untagged RT task sat idle beside a tagged CFS task (seen on
 * ChromeOS).
 *
 * The rule, for the automaton of owed.h (inversion.dot draws it): a CPU
 * Y idle with a queued RT task W, the best queued there and its cookie
 * known, that outranks (kernel prio, lower is better) every task running or
 * queued on the other CPUs of the core while one running there, H, has
 * another cookie; every state and cookie known.  A sibling's switch to a task with a cookie decides (that pick saw
 * W and would have forced the sibling idle instead).  Excused (counted
 * apart, never a finding): RT time on Y in the second before the decision
 * near the throttle (900 ms, sched_rt_runtime_us: W may have been
 * throttled), or a CFS task on a sibling whose CPU ran CFS less than 100 ms
 * in that second (6.12's fair server may have run it ahead of W); see
 * history.h.  Deadline tasks are not judged (their throttling is not in the
 * trace).
 */
#ifndef COREAUDIT_INVERSION_H
#define COREAUDIT_INVERSION_H

#include "checks/owed.h"

#define CA_INVERSION_DEFAULT_NS 1000000ull

extern const struct ca_owed_rule ca_inversion_rule;

#endif
