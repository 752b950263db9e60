/*
 * automata.h - private to checks/: the two automata every check that judges
 * co-run windows runs (isolation.c for kernel cookies and tags, policy.c for
 * a rule file's isolate and exclusive relations), as Linux RV writes its
 * monitors: a next-state table over states and events, and one function
 * that applies an event and tells a valid transition from an invalid one.
 * Drawn in pair.dot and window.dot beside this file (a unit test holds the
 * tables and the drawings to each other).
 *
 * The pair: two siblings of a core, apart (not running two tasks the check
 * keeps apart) or together (they are: a window is open).  The window: what
 * happens to one window from its opening to its verdict.
 */
#ifndef CA_CHECKS_AUTOMATA_H
#define CA_CHECKS_AUTOMATA_H

#include <stdint.h>

/* ---- The pair ---- */

enum ca_pair_state {
	CA_PAIR_APART,
	CA_PAIR_TOGETHER,	/* a window is open */
	CA_PAIR_STATE_COUNT,
};

/* What the core now shows of the pair, after a change on it. */
enum ca_pair_event {
	CA_PAIR_NOW_APART,	/* an idle or unknown side, or nothing to keep apart */
	CA_PAIR_NOW_SAME,	/* together, the same two tasks as the open window */
	CA_PAIR_NOW_OTHER,	/* together, two tasks the open window does not hold */
	CA_PAIR_EVENT_COUNT,
};

/* What a transition does to the windows, beside the state it leads to. */
enum ca_pair_action {
	CA_PAIR_KEEP = 0,
	CA_PAIR_CLOSE = 1 << 0,	/* close the open window */
	CA_PAIR_OPEN = 1 << 1,	/* open one for the two tasks now together */
};

/* ---- The window ---- */

enum ca_window_state {
	CA_WIN_OPEN,		/* the two tasks co-run */
	CA_WIN_CLOSED,	/* ended; a CPU of it has not yet shown past its end */
	CA_WIN_DEFERRED,	/* confirmed; a side's identity is known only at the end */
	CA_WIN_SUSPECT,	/* would be a violation; its core has not shown past it */
	CA_WIN_RECORDED,	/* judged and counted: final */
	CA_WIN_DROPPED,	/* no window after all (empty; one identity): final */
	CA_WIN_STATE_COUNT,
};

enum ca_window_event {
	CA_WIN_ON_END,		/* the pair changed, or the trace ended, while open */
	CA_WIN_ON_DISCARD,	/* empty, or both sides turned out of one identity */
	CA_WIN_ON_SIDE_SEEN,	/* one of its CPUs showed past its end */
	CA_WIN_ON_SPLIT,	/* a CPU contradicted it: its tail became a window of its own */
	CA_WIN_ON_DEFER,	/* confirmed by both CPUs, a side's identity unknown */
	CA_WIN_ON_SUSPECT,	/* confirmed, a violation if its core was observed */
	CA_WIN_ON_JUDGE,	/* confirmed (or settled, or the trace ended): judged now */
	CA_WIN_EVENT_COUNT,
};

/**
 * ca_pair_apply() - @event on a pair in @state
 * Return: the state it leads to, with what it does to the windows in
 *         *@actions; for a transition the table does not have (now_same
 *         while apart) @state itself, no action, and *@invalid counts it.
 */
enum ca_pair_state ca_pair_apply(enum ca_pair_state state, enum ca_pair_event event,
				 unsigned int *actions, uint64_t *invalid);

/**
 * ca_window_apply() - @event on a window in @state
 * Return: the state it leads to; for a transition the table does not have,
 *         @state itself, and *@invalid counts it.
 */
enum ca_window_state ca_window_apply(enum ca_window_state state, enum ca_window_event event,
				     uint64_t *invalid);

/* Names as pair.dot and window.dot write them. */
const char *ca_pair_state_name(enum ca_pair_state state);
const char *ca_pair_event_name(enum ca_pair_event event);
const char *ca_window_state_name(enum ca_window_state state);
const char *ca_window_event_name(enum ca_window_event event);

/* The tables, for the unit test that holds them to the drawings. */
#define CA_PAIR_INVALID CA_PAIR_STATE_COUNT
extern const uint8_t ca_pair_next[CA_PAIR_STATE_COUNT][CA_PAIR_EVENT_COUNT];
extern const uint8_t ca_pair_actions[CA_PAIR_STATE_COUNT][CA_PAIR_EVENT_COUNT];
extern const uint8_t ca_window_next[CA_WIN_STATE_COUNT][CA_WIN_EVENT_COUNT];
#define CA_WIN_INVALID CA_WIN_STATE_COUNT

#endif
