/*
 * identity.h - private to the state stage: how tasks get their cookies and
 * tags (probe, prctl, fork inheritance, markers).
 */
#ifndef CA_STATE_IDENTITY_H
#define CA_STATE_IDENTITY_H

#include "coreaudit/state.h"

#define CA_PR_SCHED_CORE 62
#define CA_PR_SCHED_CORE_GET 0
#define CA_PR_SCHED_CORE_CREATE 1
#define CA_PR_SCHED_CORE_SHARE_TO 2
#define CA_PR_SCHED_CORE_SHARE_FROM 3
#define CA_SCOPE_THREAD 0
#define CA_SCOPE_THREAD_GROUP 1
#define CA_SCOPE_PROCESS_GROUP 2

void ca_identity_apply_probe(struct ca_state *state, int prev_pid, uint64_t prev_cookie,
			     int next_pid, uint64_t next_cookie);
int ca_identity_unpaired_probe(struct ca_state *state, const struct ca_event *ev);
void ca_identity_inherit(struct ca_state *state, const struct ca_task *parent,
			 struct ca_task *child);
void ca_identity_prctl_enter(struct ca_state *state, const struct ca_event *ev);
int ca_identity_prctl_exit(struct ca_state *state, const struct ca_event *ev);
int ca_identity_marker(struct ca_state *state, const struct ca_event *ev);

/* Hooks around a change that may touch any core (state.c). */
void ca_state_begin_core(struct ca_state *state, int core, uint64_t ts);
void ca_state_end_core(struct ca_state *state, int core, uint64_t ts, unsigned int changes);
void ca_state_begin_all(struct ca_state *state, uint64_t ts);
void ca_state_end_all(struct ca_state *state, uint64_t ts);	/* identity changes */

/**
 * ca_marker_field() - find "key=value" in a marker text
 * Return: length of the value copied into @value (NUL-terminated), or -1.
 */
int ca_marker_field(const char *text, const char *key, char *value, int len);

#endif
