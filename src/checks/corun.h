/*
 * corun.h - a core's co-run time counted once (corun.c): the union of its
 * pair windows.  Three SMT4 threads of two cookies are two pair windows at
 * once (A beside B, A beside B'), four threads of two cookies four; their sum
 * counts that time twice or four times, the union once.  Windows reach it as
 * they are judged, not in time order (a violation waits until its core has
 * shown past it, a window of an unknown side until the trace ends), so the
 * merged spans are kept until no window still to come can reach them: those
 * that end before the earliest start of any window of the core not yet
 * judged (the caller's mark) are final and only their length is kept.
 */
#ifndef CA_CHECKS_CORUN_H
#define CA_CHECKS_CORUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ca_corun_span {
	uint64_t start;
	uint64_t end;
};

struct ca_corun {
	struct ca_corun_span *spans;	/* disjoint, by start */
	size_t count;
	size_t room;
	size_t settle_at;	/* count at which to ask for the mark again */
	uint64_t settled_ns;	/* the length of the spans let go */
	bool is_upper_bound;	/* spans let go before the mark (CA_CORUN_MAX_SPANS) */
};

/*
 * Spans kept at most: a window whose side stays unknown until the trace ends
 * holds the mark back (and a monitor runs for days).  Past this the oldest
 * half is let go anyway, and a window judged later that reaches them counts
 * its overlap twice: the total is then an upper bound, and says so.
 */
#define CA_CORUN_MAX_SPANS 65536

/** ca_corun_add() - merge [@start, @end) in; Return: 0, or -ENOMEM. */
int ca_corun_add(struct ca_corun *corun, uint64_t start, uint64_t end);

/** ca_corun_wants_mark() - whether enough spans are kept to settle some */
bool ca_corun_wants_mark(const struct ca_corun *corun);

/** ca_corun_settle() - let go of the spans that end at or before @mark */
void ca_corun_settle(struct ca_corun *corun, uint64_t mark);

/** ca_corun_total() - Return: the union's length so far. */
uint64_t ca_corun_total(const struct ca_corun *corun);

void ca_corun_free(struct ca_corun *corun);

#endif
