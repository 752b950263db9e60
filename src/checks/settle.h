/*
 * settle.h - a core's intervals held until it is known which parts of them
 * were observed, for the accountants (exposure, fairness).
 *
 * A CPU found unobserved later (lost events, a missed switch) was so from
 * its last event on, so an interval that ends before every CPU of its core
 * has shown an event past it may yet turn out partly unobserved.  An
 * accountant queues each interval with its items (fixed-size records, each
 * a figure the interval adds to, in proportion to its length); once the core
 * has settled past an interval, ca_settle_run() hands each item the
 * interval's observed length and the length it had.  The queue is bounded:
 * past CA_SETTLE_MAX_WAITING intervals on a core, the oldest settles on what
 * is known then, the part past some CPU's last event counted as not observed.
 */
#ifndef CA_CHECKS_SETTLE_H
#define CA_CHECKS_SETTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "state/state.h"

#define CA_SETTLE_MAX_WAITING 65536

struct ca_settle_interval {
	uint64_t from, to;
	size_t first;			/* its items */
	size_t count;
};

struct ca_settle {
	uint64_t last_ts;		/* the core's last change: where its next interval starts */
	bool has_last;
	size_t item_size;
	struct ca_settle_interval *intervals;	/* [head, interval_count): waiting */
	size_t head;
	size_t interval_count;
	size_t interval_room;
	unsigned char *items;
	size_t item_count;
	size_t item_room;
};

/* An item settled: @observed of the interval's @length ns were observed. */
typedef void (*ca_settle_apply_fn)(void *ctx, const void *item, uint64_t observed,
				   uint64_t length, const struct ca_settle_interval *in);

void ca_settle_init(struct ca_settle *q, size_t item_size);
void ca_settle_free(struct ca_settle *q);

/** ca_settle_begin() - a new interval [@from, @to). Return: 0 or -ENOMEM. */
int ca_settle_begin(struct ca_settle *q, uint64_t from, uint64_t to);

/** ca_settle_add() - an item of the interval begun last. Return: 0 or -ENOMEM. */
int ca_settle_add(struct ca_settle *q, const void *item);

/** ca_settle_end() - the interval begun last is complete (one without items is dropped) */
void ca_settle_end(struct ca_settle *q);

/**
 * ca_settle_run() - hand the items of @core's intervals that every CPU of it
 * has shown an event past (all of them, @is_final) to @apply
 */
void ca_settle_run(struct ca_settle *q, const struct ca_state *state, int core, bool is_final,
		   ca_settle_apply_fn apply, void *ctx);

/**
 * ca_settle_advance() - @core changes at @ts: what has settled goes to
 * @apply, and @ts is the core's last change from now on
 * Return: true with *@from the change before, when [*@from, @ts) is a new
 * interval for the caller to account (ca_settle_begin() ... ca_settle_end())
 */
bool ca_settle_advance(struct ca_settle *q, const struct ca_state *state, int core, uint64_t ts,
		       ca_settle_apply_fn apply, void *ctx, uint64_t *from);

#endif
