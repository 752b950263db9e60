/*
 * automata.c - the pair and window automata of the checks that judge
 * co-run windows (automata.h), as next-state tables: pair.dot and
 * window.dot draw them.  The checks decide which event happened; these
 * tables alone decide where it leads, and count what they do not allow.
 */
#include "checks/automata.h"

#define X CA_WIN_INVALID

const uint8_t ca_pair_next[CA_PAIR_STATE_COUNT][CA_PAIR_EVENT_COUNT] = {
	/*                   NOW_APART      NOW_SAME          NOW_OTHER */
	[CA_PAIR_APART] = { CA_PAIR_APART, CA_PAIR_INVALID, CA_PAIR_TOGETHER },
	[CA_PAIR_TOGETHER] = { CA_PAIR_APART, CA_PAIR_TOGETHER, CA_PAIR_TOGETHER },
};

const uint8_t ca_pair_actions[CA_PAIR_STATE_COUNT][CA_PAIR_EVENT_COUNT] = {
	[CA_PAIR_APART] = { CA_PAIR_KEEP, CA_PAIR_KEEP, CA_PAIR_OPEN },
	[CA_PAIR_TOGETHER] = { CA_PAIR_CLOSE, CA_PAIR_KEEP, CA_PAIR_CLOSE | CA_PAIR_OPEN },
};

const uint8_t ca_window_next[CA_WIN_STATE_COUNT][CA_WIN_EVENT_COUNT] = {
	/*                   END            DISCARD         SIDE_SEEN      SPLIT
	 *                   DEFER            SUSPECT         JUDGE */
	[CA_WIN_OPEN] = { CA_WIN_CLOSED, CA_WIN_DROPPED, X, X, X, X, X },
	[CA_WIN_CLOSED] = { X, X, CA_WIN_CLOSED, CA_WIN_CLOSED,
			    CA_WIN_DEFERRED, CA_WIN_SUSPECT, CA_WIN_RECORDED },
	[CA_WIN_DEFERRED] = { X, CA_WIN_DROPPED, X, X, X, X, CA_WIN_RECORDED },
	[CA_WIN_SUSPECT] = { X, X, X, X, X, X, CA_WIN_RECORDED },
	[CA_WIN_RECORDED] = { X, X, X, X, X, X, X },
	[CA_WIN_DROPPED] = { X, X, X, X, X, X, X },
};

static const char *const pair_states[CA_PAIR_STATE_COUNT] = { "apart", "together" };
static const char *const pair_events[CA_PAIR_EVENT_COUNT] = { "now_apart", "now_same",
							      "now_other" };
static const char *const window_states[CA_WIN_STATE_COUNT] = {
	"open", "closed", "deferred", "suspect", "recorded", "dropped",
};
static const char *const window_events[CA_WIN_EVENT_COUNT] = {
	"end", "discard", "side_seen", "split", "defer", "suspect", "judge",
};

enum ca_pair_state ca_pair_apply(enum ca_pair_state state, enum ca_pair_event event,
				 unsigned int *actions, uint64_t *invalid)
{
	uint8_t next = ca_pair_next[state][event];

	*actions = CA_PAIR_KEEP;
	if (next == CA_PAIR_INVALID) {
		(*invalid)++;
		return state;
	}
	*actions = ca_pair_actions[state][event];
	return next;
}

enum ca_window_state ca_window_apply(enum ca_window_state state, enum ca_window_event event,
				     uint64_t *invalid)
{
	uint8_t next = ca_window_next[state][event];

	if (next == CA_WIN_INVALID) {
		(*invalid)++;
		return state;
	}
	return next;
}

const char *ca_pair_state_name(enum ca_pair_state state)
{
	return (unsigned int)state < CA_PAIR_STATE_COUNT ? pair_states[state] : "?";
}

const char *ca_pair_event_name(enum ca_pair_event event)
{
	return (unsigned int)event < CA_PAIR_EVENT_COUNT ? pair_events[event] : "?";
}

const char *ca_window_state_name(enum ca_window_state state)
{
	return (unsigned int)state < CA_WIN_STATE_COUNT ? window_states[state] : "?";
}

const char *ca_window_event_name(enum ca_window_event event)
{
	return (unsigned int)event < CA_WIN_EVENT_COUNT ? window_events[event] : "?";
}
