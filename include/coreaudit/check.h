/*
 * check.h - the interface every check implements.
 *
 * A check consumes state transitions and keeps its own findings.  The state
 * stage calls advance() before it changes anything on a core (so a check can
 * account the interval that just ended under the old state) and update()
 * after (so it can open what starts now).  event() sees every event, for
 * checks that need evidence the state does not keep (IPIs, ticks).
 * Any hook may be NULL.  Checks never print; report/ formats what they found.
 */
#ifndef COREAUDIT_CHECK_H
#define COREAUDIT_CHECK_H

#include <stdint.h>

#include "event.h"

struct ca_state;

struct ca_check {
	const char *name;
	void (*advance)(struct ca_check *check, const struct ca_state *state, int core,
			uint64_t ts);
	void (*update)(struct ca_check *check, const struct ca_state *state, int core,
		       uint64_t ts);
	void (*event)(struct ca_check *check, const struct ca_state *state,
		      const struct ca_event *ev);
	void (*finish)(struct ca_check *check, const struct ca_state *state, uint64_t end_ts);
	int error;		/* -ENOMEM once an allocation failed */
};

#endif
