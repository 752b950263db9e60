/*
 * test-automata.c - the pair and window automata (src/checks/automata.c):
 * every row of their tables, invalid transitions counted and refused, and
 * the tables held to their drawings (src/checks/pair.dot, window.dot):
 * every edge drawn is in the table and every valid entry is drawn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/automata.h"
#include "helpers.h"

static const struct {
	enum ca_pair_state from;
	enum ca_pair_event event;
	enum ca_pair_state to;
	unsigned int actions;
	uint64_t invalid;
} pair_rows[] = {
	{ CA_PAIR_APART, CA_PAIR_NOW_APART, CA_PAIR_APART, CA_PAIR_KEEP, 0 },
	{ CA_PAIR_APART, CA_PAIR_NOW_SAME, CA_PAIR_APART, CA_PAIR_KEEP, 1 },
	{ CA_PAIR_APART, CA_PAIR_NOW_OTHER, CA_PAIR_TOGETHER, CA_PAIR_OPEN, 0 },
	{ CA_PAIR_TOGETHER, CA_PAIR_NOW_APART, CA_PAIR_APART, CA_PAIR_CLOSE, 0 },
	{ CA_PAIR_TOGETHER, CA_PAIR_NOW_SAME, CA_PAIR_TOGETHER, CA_PAIR_KEEP, 0 },
	{ CA_PAIR_TOGETHER, CA_PAIR_NOW_OTHER, CA_PAIR_TOGETHER, CA_PAIR_CLOSE | CA_PAIR_OPEN, 0 },
};

START_TEST(test_pair_rows)
{
	unsigned int actions = 99;
	uint64_t invalid = 0;

	ck_assert_int_eq(ca_pair_apply(pair_rows[_i].from, pair_rows[_i].event, &actions, &invalid),
			 pair_rows[_i].to);
	ck_assert_uint_eq(actions, pair_rows[_i].actions);
	ck_assert_uint_eq(invalid, pair_rows[_i].invalid);
}
END_TEST

/* The valid transitions of the window; every other (state, event) is refused. */
static const struct {
	enum ca_window_state from;
	enum ca_window_event event;
	enum ca_window_state to;
} window_rows[] = {
	{ CA_WIN_OPEN, CA_WIN_ON_END, CA_WIN_CLOSED },
	{ CA_WIN_OPEN, CA_WIN_ON_DISCARD, CA_WIN_DROPPED },
	{ CA_WIN_CLOSED, CA_WIN_ON_SIDE_SEEN, CA_WIN_CLOSED },
	{ CA_WIN_CLOSED, CA_WIN_ON_SPLIT, CA_WIN_CLOSED },
	{ CA_WIN_CLOSED, CA_WIN_ON_DEFER, CA_WIN_DEFERRED },
	{ CA_WIN_CLOSED, CA_WIN_ON_SUSPECT, CA_WIN_SUSPECT },
	{ CA_WIN_CLOSED, CA_WIN_ON_JUDGE, CA_WIN_RECORDED },
	{ CA_WIN_DEFERRED, CA_WIN_ON_DISCARD, CA_WIN_DROPPED },
	{ CA_WIN_DEFERRED, CA_WIN_ON_JUDGE, CA_WIN_RECORDED },
	{ CA_WIN_SUSPECT, CA_WIN_ON_JUDGE, CA_WIN_RECORDED },
};

#define WINDOW_ROWS (sizeof(window_rows) / sizeof(window_rows[0]))

static int window_row(enum ca_window_state from, enum ca_window_event event)
{
	for (size_t i = 0; i < WINDOW_ROWS; i++)
		if (window_rows[i].from == from && window_rows[i].event == event)
			return (int)i;
	return -1;
}

/* Every (state, event): a valid row leads where it says, any other is counted and refused. */
START_TEST(test_window_rows)
{
	enum ca_window_state from = _i / CA_WIN_EVENT_COUNT;
	enum ca_window_event event = _i % CA_WIN_EVENT_COUNT;
	int row = window_row(from, event);
	uint64_t invalid = 0;

	ck_assert_int_eq(ca_window_apply(from, event, &invalid),
			 row >= 0 ? window_rows[row].to : from);
	ck_assert_uint_eq(invalid, row >= 0 ? 0 : 1);
}
END_TEST

/* A window's whole life, the way the isolation check leads one to a violation. */
START_TEST(test_window_life)
{
	static const enum ca_window_event life[] = {
		CA_WIN_ON_END, CA_WIN_ON_SIDE_SEEN, CA_WIN_ON_SPLIT, CA_WIN_ON_SIDE_SEEN,
		CA_WIN_ON_SUSPECT, CA_WIN_ON_JUDGE,
	};
	enum ca_window_state state = CA_WIN_OPEN;
	uint64_t invalid = 0;

	for (size_t i = 0; i < sizeof(life) / sizeof(life[0]); i++)
		state = ca_window_apply(state, life[i], &invalid);
	ck_assert_int_eq(state, CA_WIN_RECORDED);
	ck_assert_uint_eq(invalid, 0);
	/* Final: judged once, never again. */
	ck_assert_int_eq(ca_window_apply(state, CA_WIN_ON_JUDGE, &invalid), CA_WIN_RECORDED);
	ck_assert_uint_eq(invalid, 1);
}
END_TEST

/* The edges of a .dot file: "from -> to [label=\"event\"]" or "event / actions". */
struct edge {
	char from[32], to[32], event[32], actions[32];
};

static int read_edges(const char *name, struct edge *edges, int max)
{
	const char *top = getenv("top_srcdir");
	char path[512], line[256];
	int count = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/src/checks/%s", top ? top : "..", name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		struct edge *e = &edges[count];
		char label[64] = "";

		if (sscanf(line, " %31s -> %31s [label=\"%63[^\"]\"];", e->from, e->to, label) != 3)
			continue;
		ck_assert_int_lt(count, max);
		e->actions[0] = 0;
		if (sscanf(label, "%31s / %31s", e->event, e->actions) < 1)
			ck_abort_msg("%s: a label without an event: %s", name, line);
		count++;
	}
	fclose(f);
	return count;
}

static const char *pair_actions_name(unsigned int actions)
{
	switch (actions) {
	case CA_PAIR_KEEP:
		return "keep";
	case CA_PAIR_OPEN:
		return "open";
	case CA_PAIR_CLOSE:
		return "close";
	default:
		return "close,open";
	}
}

/* An automaton as its drawing names it: the table read through these. */
struct drawing {
	const char *file;
	int states, events;
	int (*next)(int state, int event);	/* -1: no such transition */
	const char *(*state_name)(int state);
	const char *(*event_name)(int event);
	const char *(*actions)(int state, int event);	/* NULL: labels name none */
};

static int pair_next(int s, int e)
{
	return ca_pair_next[s][e] == CA_PAIR_INVALID ? -1 : ca_pair_next[s][e];
}

static const char *pair_state(int s) { return ca_pair_state_name(s); }
static const char *pair_event(int e) { return ca_pair_event_name(e); }
static const char *pair_actions(int s, int e) { return pair_actions_name(ca_pair_actions[s][e]); }

static int window_next(int s, int e)
{
	return ca_window_next[s][e] == CA_WIN_INVALID ? -1 : ca_window_next[s][e];
}

static const char *window_state(int s) { return ca_window_state_name(s); }
static const char *window_event(int e) { return ca_window_event_name(e); }

static const struct drawing drawings[] = {
	{ "pair.dot", CA_PAIR_STATE_COUNT, CA_PAIR_EVENT_COUNT, pair_next, pair_state, pair_event,
	  pair_actions },
	{ "window.dot", CA_WIN_STATE_COUNT, CA_WIN_EVENT_COUNT, window_next, window_state,
	  window_event, NULL },
};

/* Every valid transition drawn exactly once, with its actions; nothing drawn beside them. */
START_TEST(test_dot_agrees)
{
	const struct drawing *d = &drawings[_i];
	struct edge edges[64];
	int count = read_edges(d->file, edges, 64), valid = 0;

	for (int s = 0; s < d->states; s++)
		for (int e = 0; e < d->events; e++) {
			int to = d->next(s, e), found = 0;

			if (to < 0)
				continue;
			valid++;
			for (int i = 0; i < count; i++)
				found += !strcmp(edges[i].from, d->state_name(s)) &&
					 !strcmp(edges[i].event, d->event_name(e)) &&
					 !strcmp(edges[i].to, d->state_name(to)) &&
					 !strcmp(edges[i].actions, d->actions ? d->actions(s, e) : "");
			ck_assert_msg(found == 1, "%s: %s --%s--> drawn %d times", d->file,
				      d->state_name(s), d->event_name(e), found);
		}
	ck_assert_int_eq(count, valid);
}
END_TEST

/* The window rows above are its whole table. */
START_TEST(test_window_rows_are_the_table)
{
	int valid = 0;

	for (int s = 0; s < CA_WIN_STATE_COUNT; s++)
		for (int e = 0; e < CA_WIN_EVENT_COUNT; e++)
			valid += window_next(s, e) >= 0;
	ck_assert_int_eq(valid, (int)WINDOW_ROWS);
}
END_TEST

Suite *automata_suite(void)
{
	Suite *s = suite_create("automata");
	TCase *tc = tcase_create("tables");

	tcase_add_loop_test(tc, test_pair_rows, 0, sizeof(pair_rows) / sizeof(pair_rows[0]));
	tcase_add_loop_test(tc, test_window_rows, 0, CA_WIN_STATE_COUNT * CA_WIN_EVENT_COUNT);
	tcase_add_test(tc, test_window_life);
	tcase_add_loop_test(tc, test_dot_agrees, 0, sizeof(drawings) / sizeof(drawings[0]));
	tcase_add_test(tc, test_window_rows_are_the_table);
	suite_add_tcase(s, tc);
	return s;
}
