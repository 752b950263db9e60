/*
 * policy.h - the rules check: the relations of a rule file (rules.h) held
 * against what ran on every core.
 *
 * isolate A B and exclusive T are small automata per core (apart -> together
 * -> apart: checks/pair.dot) whose "together" intervals are windows, each
 * with the lifecycle of checks/window.dot.  With ipi events in the
 * trace each window gets a cause (causes.h) as the cookie windows do: an
 * unexplained one at or over the grace is a violation, an explained one only
 * over --max-transition; without them, every window at or over the grace.
 * Whatever the cause, a window between two tasks of one kernel cookie is a
 * violation: the kernel never kept them apart.
 * together G integrates how much of G's runtime shared a core with G.
 */
#ifndef COREAUDIT_POLICY_H
#define COREAUDIT_POLICY_H

#include "checks/causes.h"
#include "checks/check.h"
#include "util/pidmap.h"
#include "rules/rules.h"
#include "util/stats.h"
#include "coreaudit/topology.h"

#define CA_POLICY_WORST 8

struct ca_policy_window {
	int core;
	uint64_t start;
	uint64_t end;
	int pids[2];		/* the two tasks (exclusive: the T task, then the other) */
	enum ca_window_cause cause;
	uint8_t state;		/* its lifecycle: enum ca_window_state (checks/window.dot) */
};

struct ca_policy_result {
	/* isolate, exclusive: the automaton of each core; each table [core_count] */
	uint8_t *pair;		/* enum ca_pair_state (checks/pair.dot) */
	uint64_t *since;
	int (*pids)[2];
	struct ca_leaving *leaving;	/* of the open window */
	struct ca_durations windows;
	struct ca_summary summary;
	uint64_t violations;
	uint64_t same_cookie_violations;	/* of them: two tasks of one kernel cookie */
	uint64_t undecided;	/* of unknown cause (no tick events) at or over the grace */
	uint64_t unknown;	/* would be violations, but a CPU of the core was unobserved */
	struct ca_policy_window worst[CA_POLICY_WORST];	/* longest first */
	int worst_count;
	/* together: G's runtime, and the part of it beside another G task */
	uint64_t runtime_ns;
	uint64_t shared_ns;
};

struct ca_policy_task {
	int pid;
	uint64_t tags;		/* bit per rule tag */
	char comm[16];		/* the inputs the tags were computed from */
	int prio_class;
	bool is_cookie_known;
	uint64_t cookie;
	int marker_tag;
	int tgid;
};

/* A window that would be a violation, judged when the trace ends (coverage.h). */
struct ca_policy_suspect {
	struct ca_policy_result *res;
	struct ca_policy_window window;
};

struct ca_policy {
	struct ca_check base;
	const struct ca_rules *rules;
	uint64_t grace_ns;
	bool has_causes;		/* the trace has ipi events */
	uint64_t max_transition_ns;	/* 0: explained windows never fail */
	uint64_t unknown_until_ns;	/* no ipi events: see struct ca_judging */
	struct ca_causes causes;
	int core_count;			/* of the tables sized when the check is added */
	uint64_t *core_last_ts;		/* [core_count] */
	bool *has_core_last;		/* [core_count] */
	struct ca_policy_result *results;	/* one per relation */
	struct ca_pidmap map;
	struct ca_policy_task *tasks;
	uint32_t task_count;
	uint32_t task_capacity;
	uint64_t *per_core_violations;	/* [core_count]: every relation together */
	struct ca_policy_suspect *suspects;
	size_t suspect_count;
	size_t suspect_capacity;
	uint64_t invalid_transitions;	/* asked of the automata, not in their tables: 0 */
};

/** ca_policy_init() - Return: 0, or -ENOMEM. */
int ca_policy_init(struct ca_policy *policy, const struct ca_rules *rules, uint64_t grace_ns);
/**
 * ca_policy_use_causes() - judge windows by cause (the trace has ipi events);
 *                          without tick (wakeup) @events, those a tick (a
 *                          local wakeup) could explain are of unknown cause
 */
void ca_policy_use_causes(struct ca_policy *policy, uint64_t max_transition_ns,
			  struct ca_cause_events events);
void ca_policy_free(struct ca_policy *policy);

#endif
