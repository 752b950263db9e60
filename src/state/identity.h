/*
 * identity.h - private to the state stage: how tasks get their cookies and
 * tags (probe, prctl, fork inheritance, markers).
 */
#ifndef CA_STATE_IDENTITY_H
#define CA_STATE_IDENTITY_H

#include "state/state.h"

#define CA_PR_SCHED_CORE 62
#define CA_PR_SCHED_CORE_GET 0
#define CA_PR_SCHED_CORE_CREATE 1
#define CA_PR_SCHED_CORE_SHARE_TO 2
#define CA_PR_SCHED_CORE_SHARE_FROM 3
#define CA_SCOPE_THREAD 0
#define CA_SCOPE_THREAD_GROUP 1
#define CA_SCOPE_PROCESS_GROUP 2

/*
 * ca_identity_apply_probe() - the cookies a switch's probe reports; @prev_pid
 * ran from @ran_from (0: not known) up to @ts: a cookie other than the one
 * the probe showed when it came was set while it ran (a prctl on a running
 * task), at an instant the trace does not show.
 */
void ca_identity_apply_probe(struct ca_state *state, int prev_pid, uint64_t prev_cookie,
			     int next_pid, uint64_t next_cookie, uint64_t ran_from, uint64_t ts);
/*
 * An identity change an event asks for (a tag or cookie marker, a prctl that
 * returned, a probe whose switch was not seen), prepared apart from its
 * commit so that the state can tell the checks around it: this file never
 * calls back into state.c.
 */
enum ca_identity_change_kind {
	CA_IDENTITY_CHANGE_TAG,
	CA_IDENTITY_CHANGE_COOKIE,
	CA_IDENTITY_CHANGE_PRCTL,
	CA_IDENTITY_CHANGE_PROBE,
};

struct ca_identity_change {
	enum ca_identity_change_kind kind;
	uint64_t ts;
	int pid;			/* the task marked, or the prctl's caller */
	int target_pid;			/* prctl */
	int tag;			/* tag marker */
	uint64_t cookie;		/* cookie marker */
	struct ca_prctl call;		/* prctl: its arguments, entered at .from */
	uint64_t from;
	struct ca_cookie_probe probe;	/* unpaired probe */
};

/**
 * ca_identity_prepare() - what @ev would change: tasks it names are added,
 *                         a prctl's pending entry consumed, the cookie source
 *                         raised; nothing the checks see changes yet
 * Return: 1 with *@change to commit, 0 when @ev changes nothing, or -ENOMEM.
 */
int ca_identity_prepare(struct ca_state *state, const struct ca_event *ev,
			struct ca_identity_change *change);

/** ca_identity_commit() - apply a change ca_identity_prepare() returned */
void ca_identity_commit(struct ca_state *state, const struct ca_identity_change *change);

void ca_identity_inherit(struct ca_state *state, const struct ca_task *parent,
			 struct ca_task *child);
void ca_identity_prctl_enter(struct ca_state *state, const struct ca_event *ev);

/**
 * ca_marker_field() - find "key=value" in a marker text
 * Return: length of the value copied into @value (NUL-terminated), or -1.
 */
int ca_marker_field(const char *text, const char *key, char *value, int len);

#endif
