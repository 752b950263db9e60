/*
 * check.h - the interface every check implements.
 *
 * A check consumes state transitions and keeps its own findings.  The state
 * stage calls advance() before it changes anything on a core (so a check can
 * account the interval that just ended under the old state) and update()
 * after (so it can open what starts now).  event() sees every event, for
 * checks that need evidence the state does not keep (IPIs, ticks).
 * setup() sizes the check's tables per CPU and per core once the topology is
 * known, when the check is added to the state.
 * Any hook may be NULL.  Checks never print; report/ formats what they found.
 */
#ifndef COREAUDIT_CHECK_H
#define COREAUDIT_CHECK_H

#include <stdint.h>

#include "util/event.h"

struct ca_state;

/* What changed on a core, for update(): a check may ignore what it does not read. */
enum ca_change {
	CA_CHANGE_RUN = 1 << 0,		/* what a CPU runs */
	CA_CHANGE_QUEUE = 1 << 1,	/* a runqueue */
	CA_CHANGE_IDENTITY = 1 << 2,	/* a task's cookie or tag */
};

/* Whom a finding on the kernel's decisions names: the CPU kept waiting, and a sibling's task. */
struct ca_parties {
	int waiting_cpu;
	int waiting_pid;
	int waiting_prio;
	uint64_t waiting_cookie;
	int holder_cpu;
	int holder_pid;
	int holder_prio;
	uint64_t holder_cookie;
};

struct ca_check {
	const char *name;
	int (*setup)(struct ca_check *check, const struct ca_state *state);	/* 0, -ENOMEM */
	void (*advance)(struct ca_check *check, const struct ca_state *state, int core,
			uint64_t ts);
	void (*update)(struct ca_check *check, const struct ca_state *state, int core,
		       uint64_t ts, unsigned int changes);
	void (*event)(struct ca_check *check, const struct ca_state *state,
		      const struct ca_event *ev);
	void (*finish)(struct ca_check *check, const struct ca_state *state, uint64_t end_ts);
	int error;		/* -ENOMEM once an allocation failed */
};

#endif
