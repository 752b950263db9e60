/*
 * timeline.c - what every CPU did, kept for the pictures (timeline.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/forcedidle.h"
#include "checks/timeline.h"
#include "state/state.h"
#include "util/grow.h"

static struct ca_timeline *to_tl(struct ca_check *check)
{
	return (struct ca_timeline *)check;
}

/* 1 + the index of @value among the identities seen, added when new; 0 on -ENOMEM. */
static uint16_t ident_of(struct ca_timeline *tl, uint64_t value)
{
	for (size_t i = 0; i < tl->ident_count; i++)
		if (tl->idents[i] == value)
			return (uint16_t)(i + 1);
	if (tl->ident_count >= UINT16_MAX - 1 ||
	    ca_grow(&tl->idents, tl->ident_count, &tl->ident_capacity, sizeof(*tl->idents)))
		return 0;
	tl->idents[tl->ident_count++] = value;
	return (uint16_t)tl->ident_count;
}

/* What @cpu of @core does now, as a segment starting at @ts. */
static struct ca_tl_segment look(struct ca_timeline *tl, const struct ca_state *state,
				 int core, int cpu, uint64_t ts)
{
	struct ca_tl_segment seg = { .start = ts, .pid = 0, .ident = 0, .kind = CA_TL_UNKNOWN };
	const struct ca_task *task;
	uint64_t value;

	if (state->cpus[cpu].run == CA_CPU_IDLE)
		seg.kind = ca_forcedidle_is_forced(state, core, cpu) ? CA_TL_FORCED : CA_TL_IDLE;
	if (state->cpus[cpu].run != CA_CPU_TASK)
		return seg;
	task = ca_state_cpu_task(state, cpu);
	seg.kind = CA_TL_TASK;
	seg.pid = state->cpus[cpu].pid;
	if (task && ca_state_identity(state, task, &value))
		seg.ident = ident_of(tl, value);
	return seg;
}

static bool same_look(const struct ca_tl_segment *a, const struct ca_tl_segment *b)
{
	return a->kind == b->kind && a->pid == b->pid && a->ident == b->ident;
}

static void note(struct ca_timeline *tl, int cpu, const struct ca_tl_segment *seg)
{
	struct ca_tl_cpu *c = &tl->cpus[cpu];
	struct ca_tl_segment *last = c->count ? &c->segments[c->count - 1] : NULL;

	if (last && same_look(last, seg))
		return;
	if (last && last->start == seg->start) {	/* two changes at one instant: the last */
		*last = *seg;
		if (c->count >= 2 && same_look(&c->segments[c->count - 2], last))
			c->count--;	/* and back to what it was: one segment */
		return;
	}
	if (ca_grow(&c->segments, c->count, &c->capacity, sizeof(*c->segments))) {
		tl->base.error = -ENOMEM;
		return;
	}
	c->segments[c->count++] = *seg;
}

static void tl_update(struct ca_check *check, const struct ca_state *state, int core,
		      uint64_t ts, unsigned int changes)
{
	struct ca_timeline *tl = to_tl(check);

	(void)changes;
	for (int i = 0; i < state->topo.sibling_count[core]; i++) {
		int cpu = state->topo.siblings[core][i];
		struct ca_tl_segment seg = look(tl, state, core, cpu, ts);

		note(tl, cpu, &seg);
	}
}

static void add_instant(struct ca_timeline *tl, const struct ca_tl_instant *instant)
{
	if (ca_grow(&tl->instants, tl->instant_count, &tl->instant_capacity,
		    sizeof(*tl->instants))) {
		tl->base.error = -ENOMEM;
		return;
	}
	tl->instants[tl->instant_count++] = *instant;
}

static void tl_event(struct ca_check *check, const struct ca_state *state,
		     const struct ca_event *ev)
{
	struct ca_timeline *tl = to_tl(check);
	struct ca_tl_instant instant = { .ts = ev->ts, .pid = ev->pid, .cpu = ev->cpu };

	(void)state;
	if (!tl->has_events)
		tl->start_ts = ev->ts;
	tl->has_events = true;
	if (ev->kind == CA_EV_WAKEUP) {
		instant.kind = CA_TL_WAKEUP;
		instant.pid = ev->wakeup.pid;
		instant.target = ev->wakeup.target_cpu;
		add_instant(tl, &instant);
	} else if (ev->kind == CA_EV_IPI && ev->ipi.is_resched && ev->ipi.target_cpu >= 0) {
		instant.kind = CA_TL_RESCHED_IPI;
		instant.target = ev->ipi.target_cpu;
		add_instant(tl, &instant);
	}
}

static void tl_finish(struct ca_check *check, const struct ca_state *state, uint64_t end_ts)
{
	(void)state;
	to_tl(check)->end_ts = end_ts;
}

static int tl_setup(struct ca_check *check, const struct ca_state *state)
{
	struct ca_timeline *tl = to_tl(check);

	tl->cpus = calloc((size_t)state->topo.cpu_count, sizeof(*tl->cpus));
	if (!tl->cpus)
		return -ENOMEM;
	tl->cpu_count = state->topo.cpu_count;
	return 0;
}

void ca_timeline_init(struct ca_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->base.name = "timeline";
	tl->base.setup = tl_setup;
	tl->base.update = tl_update;
	tl->base.event = tl_event;
	tl->base.finish = tl_finish;
}

void ca_timeline_free(struct ca_timeline *tl)
{
	for (int cpu = 0; tl->cpus && cpu < tl->cpu_count; cpu++)
		free(tl->cpus[cpu].segments);
	free(tl->cpus);
	free(tl->idents);
	free(tl->instants);
	memset(tl, 0, sizeof(*tl));
}
