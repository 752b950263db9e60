/*
 * stream.c - the stage between a source and the state.
 *
 * 1. Pairs each cs_switch probe with its sched_switch: a switch on a CPU waits
 *    in a short queue until the next event of that CPU; if that is the probe
 *    (same pids), the switch takes its cookies.  Events of other CPUs queued
 *    behind the switch wait too, so the order stays the trace's.  A switch
 *    that comes paired (coreaudit's own trace.dat reader pairs a switch with
 *    the probe right after it in its page: decode.c) waits for nothing.
 * 2. Holds events until the topology is known (option, or a
 *    coreaudit-topology marker near the start of the trace).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/stream.h"
#include "util/grow.h"

#define TOPOLOGY_MARKER "coreaudit-topology "
#define TOPOLOGY_PART_MARKER "coreaudit-topology+ "

int ca_stream_init(struct ca_stream *stream, const struct ca_topology *topo,
		   bool expects_probe, ca_event_fn sink, void *sink_ctx,
		   int (*on_topology)(void *ctx, const struct ca_topology *topo))
{
	memset(stream, 0, sizeof(*stream));
	stream->expects_probe = expects_probe;
	stream->sink = sink;
	stream->sink_ctx = sink_ctx;
	stream->on_topology = on_topology;
	if (!topo)
		return 0;
	stream->has_topology = true;
	return ca_topology_copy(&stream->topo, topo);
}

void ca_stream_free(struct ca_stream *stream)
{
	free(stream->queue);
	free(stream->waiting_on_cpu);
	free(stream->marker_parts);
	ca_topology_free(&stream->topo);
	stream->queue = NULL;
	stream->waiting_on_cpu = NULL;
	stream->marker_parts = NULL;
}


static struct ca_event *queue_at(struct ca_stream *stream, size_t index)
{
	return &stream->queue[(stream->head + index) % stream->capacity];
}

static int queue_grow(struct ca_stream *stream)
{
	size_t capacity = stream->capacity ? stream->capacity * 2 : 256;
	struct ca_event *queue = malloc(capacity * sizeof(*queue));

	if (!queue)
		return -ENOMEM;
	for (size_t i = 0; i < stream->count; i++)
		queue[i] = *queue_at(stream, i);
	free(stream->queue);
	stream->queue = queue;
	stream->capacity = capacity;
	stream->head = 0;
	return 0;
}

static bool is_waiting(const struct ca_stream *stream, unsigned long long position, int cpu)
{
	return (size_t)cpu < stream->cpu_room && stream->waiting_on_cpu[cpu] >= 0 &&
	       (unsigned long long)stream->waiting_on_cpu[cpu] == position;
}

/* Send on every event at the head that waits for nothing. */
static int drain(struct ca_stream *stream, bool is_final)
{
	while (stream->count) {
		struct ca_event *ev = queue_at(stream, 0);
		unsigned long long position = stream->position - stream->count;
		int ret;

		if (!stream->has_topology)
			return 0;
		if (!is_final && ev->kind == CA_EV_SWITCH && is_waiting(stream, position, ev->cpu))
			return 0;
		if (is_waiting(stream, position, ev->cpu))
			stream->waiting_on_cpu[ev->cpu] = -1;
		ret = stream->sink(stream->sink_ctx, ev);
		stream->head = (stream->head + 1) % stream->capacity;
		stream->count--;
		if (ret)
			return ret;
	}
	return 0;
}

/* Whether @a and @b group the same CPUs into cores, whatever the order. */
static bool is_same_topology(const struct ca_topology *a, const struct ca_topology *b)
{
	if (a->core_count != b->core_count || a->cpu_count != b->cpu_count)
		return false;
	for (int core = 0; core < a->core_count; core++) {
		int other = b->core_of_cpu[a->siblings[core][0]];

		if (other < 0 || b->sibling_count[other] != a->sibling_count[core])
			return false;
		for (int i = 1; i < a->sibling_count[core]; i++)
			if (b->core_of_cpu[a->siblings[core][i]] != other)
				return false;
	}
	return true;
}

/* A marker in a trace audited with --topology: note whether the two disagree. */
static void compare_marker(struct ca_stream *stream, const char *text)
{
	struct ca_topology marked;
	char err[160];
	size_t len = strlen(text);

	if (stream->has_marker)
		return;
	stream->has_marker = true;
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	snprintf(stream->marker, sizeof(stream->marker), "%.*s%s",
		 len < sizeof(stream->marker) ? (int)len : (int)sizeof(stream->marker) - 4, text,
		 len < sizeof(stream->marker) ? "" : "...");
	stream->is_marker_different = ca_topology_parse(text, &marked, err, sizeof(err)) ||
				      !is_same_topology(&stream->topo, &marked);
	ca_topology_free(&marked);
}

/* Append a marker's part of the topology to those before it. */
static int join_part(struct ca_stream *stream, const char *part)
{
	size_t used = stream->marker_parts ? strlen(stream->marker_parts) : 0;
	char *joined = realloc(stream->marker_parts, used + strlen(part) + 2);

	if (!joined)
		return -ENOMEM;
	snprintf(joined + used, strlen(part) + 2, "%s%s", used ? " " : "", part);
	stream->marker_parts = joined;
	return 0;
}

static int take_topology(struct ca_stream *stream, const struct ca_event *ev)
{
	bool is_part = !strncmp(ev->marker, TOPOLOGY_PART_MARKER, strlen(TOPOLOGY_PART_MARKER));
	char err[160];
	int ret;

	/* A marker that filled the event was cut: its topology is not all there. */
	if (strlen(ev->marker) >= CA_MARKER_LEN - 1 && stream->has_topology) {
		compare_marker(stream, ev->marker);	/* (it cannot parse as the option) */
		stream->is_marker_different = true;
		return 0;
	}
	if (strlen(ev->marker) >= CA_MARKER_LEN - 1) {
		snprintf(stream->error, sizeof(stream->error),
			 "a coreaudit-topology marker of %d characters or more (\"%.40s...\"): "
			 "write a long topology as \"coreaudit-topology+ PART\" markers and a "
			 "last \"coreaudit-topology PART\", each shorter", CA_MARKER_LEN - 1,
			 ev->marker);
		return -EINVAL;
	}
	ret = join_part(stream, ev->marker + strlen(is_part ? TOPOLOGY_PART_MARKER :
						       TOPOLOGY_MARKER));
	if (ret || is_part)
		return ret;
	if (stream->has_topology) {
		compare_marker(stream, stream->marker_parts);
	} else if ((ret = ca_topology_parse(stream->marker_parts, &stream->topo, err, sizeof(err)))) {
		snprintf(stream->error, sizeof(stream->error),
			 "bad coreaudit-topology marker \"%.80s\": %s", stream->marker_parts, err);
		return ret == -ENOMEM ? ret : -EINVAL;
	} else {
		stream->has_topology = true;
		ret = stream->on_topology ? stream->on_topology(stream->sink_ctx, &stream->topo) : 0;
	}
	free(stream->marker_parts);
	stream->marker_parts = NULL;
	return ret;
}

static bool is_topology_marker(const struct ca_event *ev)
{
	return ev->kind == CA_EV_MARKER &&
	       (!strncmp(ev->marker, TOPOLOGY_MARKER, strlen(TOPOLOGY_MARKER)) ||
		!strncmp(ev->marker, TOPOLOGY_PART_MARKER, strlen(TOPOLOGY_PART_MARKER)));
}

/* The probe event of @cpu: give its cookies to the waiting switch. */
static bool pair_probe(struct ca_stream *stream, const struct ca_event *probe)
{
	long waiting = stream->waiting_on_cpu[probe->cpu];
	struct ca_event *sw;

	if (waiting < 0)	/* (room for probe->cpu was made before) */
		return false;
	sw = queue_at(stream, waiting - (long)(stream->position - stream->count));
	stream->waiting_on_cpu[probe->cpu] = -1;
	if (sw->sw.prev_pid != probe->cookie.prev_pid || sw->sw.next_pid != probe->cookie.next_pid)
		return false;
	sw->sw.has_cookies = true;
	sw->sw.prev_cookie = probe->cookie.prev_cookie;
	sw->sw.next_cookie = probe->cookie.next_cookie;
	return true;
}

/* A switch that waits for its probe: not one the source paired already (decode.c). */
static bool is_waiting_for_probe(const struct ca_stream *stream, const struct ca_event *ev)
{
	return ev->kind == CA_EV_SWITCH && stream->expects_probe && !ev->sw.has_cookies;
}

int ca_stream_push(void *ctx, const struct ca_event *ev)
{
	struct ca_stream *stream = ctx;
	int ret;

	if (ev->cpu < 0 || ev->cpu >= CA_CPU_LIMIT)
		return -ERANGE;
	if (ca_grow_filled(&stream->waiting_on_cpu, ev->cpu, &stream->cpu_room,
			   sizeof(*stream->waiting_on_cpu), 0xff))
		return -ENOMEM;	/* new entries -1: no switch waits */
	if (is_topology_marker(ev)) {
		ret = take_topology(stream, ev);
		if (ret)
			return ret;
	}
	if (ev->kind == CA_EV_COOKIE && pair_probe(stream, ev))
		return drain(stream, false);
	/* Any other event of that CPU: its switch will get no probe. */
	stream->waiting_on_cpu[ev->cpu] = -1;
	/* Nothing held and nothing to wait for: no copy through the queue. */
	if (!stream->count && stream->has_topology && !is_waiting_for_probe(stream, ev)) {
		stream->position++;
		return stream->sink(stream->sink_ctx, ev);
	}
	/* (the targets of one IPI to a CPU mask count as one event) */
	if (!stream->has_topology && stream->count >= CA_STREAM_HOLD_LIMIT &&
	    (ev->kind != CA_EV_IPI || ev->ipi.is_first_target))
		return -ENOENT;
	if (stream->count == stream->capacity) {
		ret = queue_grow(stream);
		if (ret)
			return ret;
	}
	memcpy(queue_at(stream, stream->count), ev, ca_event_size(ev));	/* its kind's bytes */
	stream->count++;
	if (is_waiting_for_probe(stream, ev))
		stream->waiting_on_cpu[ev->cpu] = (long)stream->position;
	stream->position++;
	return drain(stream, false);
}

int ca_stream_flush(struct ca_stream *stream)
{
	if (!stream->has_topology)
		return stream->count ? -ENOENT : 0;
	return drain(stream, true);
}
