/*
 * settle.c - a core's intervals held until their observed parts are known
 * (settle.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/settle.h"
#include "util/grow.h"

#define COMPACT_AFTER 1024	/* settled intervals kept before the queue moves down */

void ca_settle_init(struct ca_settle *q, size_t item_size)
{
	memset(q, 0, sizeof(*q));
	q->item_size = item_size;
}

void ca_settle_free(struct ca_settle *q)
{
	free(q->intervals);
	free(q->items);
	ca_settle_init(q, q->item_size);
}

int ca_settle_begin(struct ca_settle *q, uint64_t from, uint64_t to)
{
	if (ca_grow(&q->intervals, q->interval_count, &q->interval_room, sizeof(*q->intervals)))
		return -ENOMEM;
	q->intervals[q->interval_count++] = (struct ca_settle_interval){
		.from = from, .to = to, .first = q->item_count };
	return 0;
}

int ca_settle_add(struct ca_settle *q, const void *item)
{
	if (ca_grow(&q->items, q->item_count, &q->item_room, q->item_size))
		return -ENOMEM;
	memcpy(q->items + q->item_count * q->item_size, item, q->item_size);
	q->item_count++;
	q->intervals[q->interval_count - 1].count++;
	return 0;
}

void ca_settle_end(struct ca_settle *q)
{
	if (q->interval_count > q->head && !q->intervals[q->interval_count - 1].count)
		q->interval_count--;
}

/* The waiting intervals and their items, moved down over those settled. */
static void compact(struct ca_settle *q)
{
	size_t items_from = q->intervals[q->head].first;

	memmove(q->items, q->items + items_from * q->item_size,
		(q->item_count - items_from) * q->item_size);
	q->item_count -= items_from;
	memmove(q->intervals, q->intervals + q->head,
		(q->interval_count - q->head) * sizeof(*q->intervals));
	q->interval_count -= q->head;
	q->head = 0;
	for (size_t i = 0; i < q->interval_count; i++)
		q->intervals[i].first -= items_from;
}

/* Up to when every CPU of @core has shown events: no stretch found later starts before. */
static uint64_t settled_until(const struct ca_state *state, int core)
{
	uint64_t until = UINT64_MAX;

	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		const struct ca_cpu *c = &state->cpus[state->topo.siblings[core][i]];
		uint64_t last = c->has_events ? c->last_ts : 0;

		until = last < until ? last : until;
	}
	return until;
}

void ca_settle_run(struct ca_settle *q, const struct ca_state *state, int core, bool is_final,
		   ca_settle_apply_fn apply, void *ctx)
{
	while (q->head < q->interval_count) {
		const struct ca_settle_interval *in = &q->intervals[q->head];
		uint64_t observed, upto = in->to;

		if (!is_final && !ca_state_core_settled(state, core, in->to)) {
			if (q->interval_count - q->head <= CA_SETTLE_MAX_WAITING)
				break;
			/* Too many waiting: the part a CPU has not shown events past counts as not
			 * observed (a stretch found later would start at its last event). */
			upto = settled_until(state, core);
			upto = upto < in->from ? in->from : upto < in->to ? upto : in->to;
		}
		observed = ca_state_core_observed_ns(state, core, in->from, upto);
		for (size_t i = 0; i < in->count; i++)
			apply(ctx, q->items + (in->first + i) * q->item_size, observed,
			      in->to - in->from, in);
		q->head++;
	}
	if (q->head == q->interval_count)
		q->head = q->interval_count = q->item_count = 0;
	else if (q->head > COMPACT_AFTER && q->head > q->interval_count / 2)
		compact(q);
}

bool ca_settle_advance(struct ca_settle *q, const struct ca_state *state, int core, uint64_t ts,
		       ca_settle_apply_fn apply, void *ctx, uint64_t *from)
{
	bool is_new = q->has_last && ts > q->last_ts;

	ca_settle_run(q, state, core, false, apply, ctx);
	*from = q->last_ts;
	if (!q->has_last || ts > q->last_ts) {
		q->last_ts = ts;
		q->has_last = true;
	}
	return is_new;
}
