/*
 * owed.h - the automaton of the checks that judge an idle CPU beside work
 * the core-wide selection owed it (inversion.h, unjust.h): each check gives
 * the rule that finds such a CPU on a core; this file keeps, per core, how
 * long it lasts from the moment a selection is known to have been made.
 *
 *   clear -> waiting   the rule finds a CPU Y idle with queued work W it owed
 *                      Y (every state and cookie it reads known)
 *   waiting -> decided a core-wide selection is known to have been made with
 *                      W queued: Y switches to idle (leaving W, or another
 *                      task), or goes back to an idle state after W came and
 *                      after something told it to select (W's wakeup or
 *                      migration onto it, a reschedule IPI, a switch on the
 *                      core); with a rule that says so, a sibling switches to
 *                      a task with a cookie (such a pick compares every
 *                      sibling's)
 *   any -> clear       the rule no longer finds Y and W: a decided stretch
 *                      past max_ns after the decision is a finding, unless
 *                      the rule excuses it (see history.h) or it ends in
 *                      the core's transition to another cookie (a sibling
 *                      told to reschedule, or running another cookie than
 *                      H's: the kernel had chosen another; when that
 *                      transition began with a reschedule IPI after the
 *                      decision, the stretch is judged up to that IPI); it
 *                      is judged once every CPU of the core has shown past
 *                      its end, and not at all (unknown) where one was
 *                      unobserved, or W was queued before a gap in Y's events
 * Without ipi events in the trace a transition cannot be told, nor without
 * sched_wakeup events a local wakeup that changed the pick: the audit does
 * not run these checks then.
 * Not a decision: an event of Y's in the interrupt that queued W (Y
 * reschedules when it leaves it), a sibling's pick of a task without a
 * cookie on a core without one (pick_next_task()'s unconstrained fast path
 * looks at its own CPU only), anything before W came, anything while a
 * sibling has a reschedule request pending (an IPI sent after its task, or
 * idle, came, another sibling's switch to a task of another cookie beside
 * it, which need-resched already set leaves without an IPI, or a wakeup onto
 * it of a task of another cookie, which may preempt there and win the pick,
 * a local one with no IPI; within the
 * longest a pending request explains, CA_TICK_WINDOW_MAX_NS): a selection
 * told it to change, and what the core runs is not what the kernel chose (a
 * stalled vCPU takes milliseconds to obey).
 */
#ifndef COREAUDIT_OWED_H
#define COREAUDIT_OWED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks/check.h"
#include "checks/history.h"
#include "checks/suspects.h"

#define CA_OWED_LIST 64	/* findings kept with detail, longest first */

/* A CPU idle beside work the selection owed it, and the task its sibling ran. */
struct ca_owed_finding {
	int core;
	struct ca_parties who;	/* Y, idle, and W; H: a sibling's task the rule names */
	uint64_t start_ns;	/* the rule first found Y and W */
	uint64_t decided_ns;	/* a selection is known to have been made with W queued */
	uint64_t end_ns;
};

struct ca_state;

struct ca_owed_rule {
	const char *name;
	/* Whether a CPU of @core is idle beside work owed it now: @f, zeroed but for core. */
	bool (*find)(const struct ca_state *state, int core, struct ca_owed_finding *f);
	/* Whether what the trace does not show (history.h) may explain @f at @ts. */
	bool (*is_excused)(const struct ca_history *history, const struct ca_state *state,
			   const struct ca_owed_finding *f, uint64_t ts);
	bool is_decided_by_sibling;	/* a sibling's switch to a cookied task decides */
};

enum ca_owed_phase {
	CA_OWED_CLEAR,
	CA_OWED_WAITING,
	CA_OWED_DECIDED,
};

struct ca_owed_core {
	enum ca_owed_phase phase;
	bool is_excused;	/* decided where the rule's excuse held */
	bool is_prompted;	/* Y was told to select since W came (a wakeup, IPI or switch) */
	uint64_t first_kick_ns;	/* the first reschedule IPI to a sibling after the decision */
	struct ca_owed_finding now;
};

struct ca_owed {
	struct ca_check base;
	const struct ca_owed_rule *rule;
	bool is_checked;		/* added to the state: the trace has reschedule IPIs */
	uint64_t max_ns;
	struct ca_history history;
	uint64_t *last_resched;		/* [cpu_count]: when each CPU was last told to reschedule
					 * (an IPI, or a sibling's switch to another cookie) */
	size_t cpu_count;
	struct ca_owed_core *cores;	/* [core_count] */
	size_t core_count;
	uint64_t longest_ns;		/* the longest decided stretch after its decision */
	uint64_t excused_count;		/* past max_ns, but excused */
	uint64_t finding_count;
	uint64_t finding_ns;
	uint64_t unknown_count;		/* would-be findings over a CPU's unobserved time */
	struct ca_owed_finding list[CA_OWED_LIST];	/* longest first */
	size_t listed;
	struct ca_suspects suspects;	/* would-be findings, until their core settles */
};

/** ca_owed_init() - @max_ns: how long after the decision a stretch may last */
void ca_owed_init(struct ca_owed *s, const struct ca_owed_rule *rule, uint64_t max_ns);
void ca_owed_free(struct ca_owed *s);

#endif
