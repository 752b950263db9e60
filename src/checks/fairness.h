/*
 * fairness.h - fairness across cookies (--report fairness, --max-unfairness).
 *
 * An identity is a cookie (with --tags markers: a tag).  Between two changes
 * of a core whose CPUs are known and whose runnable tasks' identities are
 * known, the m distinct identities with a task runnable there compete for
 * the core; with m >= 2 each is owed 1/m of the interval (its fair share)
 * and receives the interval when a task of its identity runs on the core.
 * A runnable task that does not run while only other identities run on its
 * core waits: per identity the longest such stretch of one task, and per
 * ordered pair (waiting, running) the time.
 *
 * Contended time counts only while a task runs on the core (a core where
 * nothing runs favours no one).  A core's figures wait until every CPU of it
 * has shown an event past them (settle.h): the part a CPU later found
 * unobserved (lost events, a missed switch) covers is time not known, and
 * cuts the waits.
 * The automaton, per task: OTHER --queued, its identity not running, another
 * running--> WAITING (a stretch opens) --it runs, leaves, or its identity
 * runs--> OTHER (the stretch closes).  Per identity the check fails with
 * --max-unfairness PCT when it received less than (100 - PCT) % of a fair
 * share of at least CA_FAIRNESS_FLOOR_NS even if it had received all the
 * time not known (its doubt: any core's, as its tasks may have been anywhere
 * then); when it is short only over the known time, or would be had the time
 * not known gone against it, it is undecided (the audit inconclusive).
 */
#ifndef CA_CHECKS_FAIRNESS_H
#define CA_CHECKS_FAIRNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "checks/check.h"
#include "checks/settle.h"
#include "util/keymap.h"
#include "util/pidmap.h"

#define CA_FAIRNESS_FLOOR_NS 10000000ULL	/* fair shares below 10 ms are not judged */

struct ca_fair_identity {
	uint64_t value;			/* the cookie, or the tag's number */
	int example_pid;		/* the first task seen with it */
	double fair_ns;			/* its shares of contended core time */
	uint64_t competed_ns;		/* contended core time it had a task runnable in */
	uint64_t received_ns;		/* of that, time a task of it ran */
	uint64_t doubt_ns;		/* time not known (any core's): it may have been its */
	uint64_t longest_wait_ns;	/* the longest stretch one task of it waited */
	int longest_wait_pid;
	int longest_wait_cpu;
	uint64_t longest_wait_start;
};

struct ca_fair_pair {
	uint32_t waiting;		/* identity indexes */
	uint32_t running;
	uint64_t waited_ns;		/* runnable, not running, while that one ran */
};

struct ca_fair_task {			/* an open wait stretch */
	uint64_t start;
	uint64_t end;			/* where it was last extended */
	int cpu;
};

/* A figure an interval adds its observed length to (fairness.c). */
struct ca_fair_item {
	uint8_t kind;			/* a share, a pair's wait, or the unobserved part */
	bool runs;			/* a share's: a task of it ran */
	uint32_t identity;		/* a share's, a pair's waiting one */
	uint32_t other;			/* a share's m, a pair's running identity */
};

struct ca_fair_core {
	struct ca_settle waiting;	/* intervals not yet settled, of struct ca_fair_item */
	uint64_t unknown_ns;		/* its time not known, settled */
	uint64_t broken_to;		/* waits that began before this crossed a gap */
};

struct ca_fairness {
	struct ca_check base;
	double max_unfairness_pct;	/* < 0: judged against no threshold */
	struct ca_fair_core *cores;	/* [core_count] */
	int core_count;
	uint64_t unknown_ns;		/* core time a CPU was unobserved, or a runnable task's
					 * identity not known: not judged */
	struct ca_keymap identity_map;	/* value -> index into identities */
	struct ca_fair_identity *identities;
	size_t identity_count;
	size_t identity_room;
	struct ca_keymap pair_map;	/* ca_keymap_pair(waiting, running) -> index */
	struct ca_fair_pair *pairs;
	size_t pair_count;
	size_t pair_room;
	struct ca_pidmap task_map;	/* pid -> index into tasks */
	struct ca_fair_task *tasks;
	size_t task_count;
	size_t task_room;
	struct ca_fair_seen {		/* the identities runnable on a core: */
		uint32_t identity;
		bool runs;		/* a task of it runs there */
	} *scratch;
	size_t scratch_room;
	size_t finding_count;		/* identities past the threshold */
	size_t undecided_count;		/* past it over the known time only */
};

/** ca_fairness_init() - @max_unfairness_pct < 0: figures only */
void ca_fairness_init(struct ca_fairness *fair, double max_unfairness_pct);
void ca_fairness_free(struct ca_fairness *fair);

/** ca_fairness_unfairness() - Return: how far below its fair share @id's time was, in %. */
double ca_fairness_unfairness(const struct ca_fair_identity *id);

/** ca_fairness_unfairness_doubted() - the same, had @id received its doubt too */
double ca_fairness_unfairness_doubted(const struct ca_fair_identity *id);

/**
 * ca_fairness_unfairness_worst() - the same, had @id competed in its doubt
 * with one other identity and received none of it
 */
double ca_fairness_unfairness_worst(const struct ca_fair_identity *id);

/** ca_fairness_is_finding() - whether @id fails the threshold of @fair, doubt and all */
bool ca_fairness_is_finding(const struct ca_fairness *fair, const struct ca_fair_identity *id);

/**
 * ca_fairness_is_undecided() - whether @id, not a finding, fails it over the
 * known time, or could have had the time not known gone against it
 */
bool ca_fairness_is_undecided(const struct ca_fairness *fair, const struct ca_fair_identity *id);

/**
 * ca_fairness_unknown_undecided() - whether the time not known is enough for
 * a cookie never seen (its tasks' cookie unknown) to fall short of a share
 * that is judged
 */
bool ca_fairness_unknown_undecided(const struct ca_fairness *fair);

#endif
