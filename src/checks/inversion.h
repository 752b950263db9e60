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
 * The automaton, per core (inversion.dot):
 *   clear -> waiting   a CPU Y idle with a queued RT task W, the best queued
 *                      there, that outranks every task running on the core
 *                      (kernel prio, lower is better) while one of them, H,
 *                      has another cookie; every CPU's state and cookie known
 *   waiting -> decided a core-wide selection is known to have been made with
 *                      W queued: Y switches to idle (leaving W), or goes back
 *                      to an idle state after W came; a sibling switches to
 *                      a task with a cookie (see inversion.c: a sibling's
 *                      pick without one may not look at Y at all)
 *   decided -> found   the stretch goes on past max_ns after the decision
 *   any -> clear       W runs, leaves, or no longer outranks them all; H
 *                      leaves; a state or cookie becomes unknown: a found
 *                      stretch is a finding then, unless excused
 * Excused (counted apart, never a finding): RT time on Y in the second
 * before the decision near the throttle (900 ms, sched_rt_runtime_us: W may
 * have been throttled), or a CFS holder whose CPU ran CFS less than 100 ms
 * in that second (6.12's fair server may have run it ahead of W); see
 * history.h.  Deadline tasks are not judged (their throttling is not in the
 * trace).
 */
#ifndef COREAUDIT_INVERSION_H
#define COREAUDIT_INVERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/check.h"
#include "checks/history.h"

#define CA_INVERSION_DEFAULT_NS 1000000ull
#define CA_INVERSION_LIST 64	/* findings kept with detail, longest first */

/* One stretch a realtime task waited on an idle CPU while a task it outranks held the core. */
struct ca_inversion_finding {
	int core;
	int waiting_cpu;	/* Y, idle */
	int waiting_pid;	/* W */
	int waiting_prio;
	uint64_t waiting_cookie;
	int holder_cpu;		/* H: a sibling's task of another cookie */
	int holder_pid;
	int holder_prio;
	uint64_t holder_cookie;
	uint64_t start_ns;	/* W queued on idle Y beside H */
	uint64_t decided_ns;	/* the kernel had chosen with W queued */
	uint64_t end_ns;
};

enum ca_inversion_phase {
	CA_INVERSION_CLEAR,
	CA_INVERSION_WAITING,
	CA_INVERSION_DECIDED,
};

struct ca_inversion_core {
	enum ca_inversion_phase phase;
	bool is_excused;	/* decided where throttling or the fair server could explain it */
	struct ca_inversion_finding now;
};

struct ca_inversion {
	struct ca_check base;
	uint64_t max_ns;
	struct ca_history history;
	struct ca_inversion_core *cores;	/* [core_count] */
	size_t core_count;
	uint64_t longest_ns;		/* the longest decided stretch, finding or not */
	uint64_t excused_count;		/* past max_ns, but throttling or the fair server may explain */
	uint64_t finding_count;
	uint64_t finding_ns;
	struct ca_inversion_finding list[CA_INVERSION_LIST];	/* longest first */
	size_t listed;
};

/** ca_inversion_init() - @max_ns: how long after the decision a stretch may last */
void ca_inversion_init(struct ca_inversion *inv, uint64_t max_ns);
void ca_inversion_free(struct ca_inversion *inv);

#endif
