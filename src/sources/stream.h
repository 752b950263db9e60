/*
 * stream.h - between a source and the state: pairs each cs_switch cookie
 * probe with the sched_switch it belongs to, and holds events back until the
 * topology is known.
 *
 * The probe fires right after its sched_switch on the same CPU, with a later
 * timestamp; events of other CPUs may come in between.  The stream keeps a
 * short queue so the switch leaves with its cookies and in time order.
 */
#ifndef COREAUDIT_STREAM_H
#define COREAUDIT_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "coreaudit/topology.h"
#include "sources/readers.h"
#include "util/event.h"

#define CA_STREAM_HOLD_LIMIT 16384	/* events held while looking for a topology */

struct ca_stream {
	bool expects_probe;	/* the trace defines the probe event */
	bool has_topology;
	struct ca_topology topo;
	bool has_marker;		/* a coreaudit-topology marker, under --topology */
	bool is_marker_different;	/* it groups the CPUs otherwise (or does not parse) */
	char marker[128];
	struct ca_event *queue;	/* ring */
	size_t head;
	size_t count;
	size_t capacity;
	long *waiting_on_cpu;	/* per CPU: queue position of the switch awaiting its probe, -1 none */
	size_t cpu_room;	/* entries of waiting_on_cpu: grows with the CPUs seen */
	char *marker_parts;	/* "coreaudit-topology+" markers so far: the start of one topology */
	unsigned long long position;		/* events ever queued */
	ca_event_fn sink;
	void *sink_ctx;
	int (*on_topology)(void *ctx, const struct ca_topology *topo);
	char error[400];
};

/**
 * ca_stream_init() - @topo: the --topology option (copied), or NULL to wait for a
 *                    coreaudit-topology marker
 *
 * A topology too long for one marker (CA_MARKER_LEN - 1 characters; one that
 * long was cut and is refused) is written as markers "coreaudit-topology+
 * PART" followed by "coreaudit-topology LAST": the parts are joined with blanks.
 * Return: 0, or -ENOMEM.
 */
int ca_stream_init(struct ca_stream *stream, const struct ca_topology *topo,
		   bool expects_probe, ca_event_fn sink, void *sink_ctx,
		   int (*on_topology)(void *ctx, const struct ca_topology *topo));
void ca_stream_free(struct ca_stream *stream);

/**
 * ca_stream_push() - one event from the source (a ca_event_fn)
 * Return: 0, or negative: -ENOENT no topology within the hold limit, -EINVAL a
 *         bad topology marker (@stream->error says which), -ENOMEM, or what
 *         the sink returned.
 */
int ca_stream_push(void *stream, const struct ca_event *ev);

/**
 * ca_stream_flush() - at the end of the input: release everything held
 * Return: as ca_stream_push(); -ENOENT when no topology was ever found.
 */
int ca_stream_flush(struct ca_stream *stream);

#endif
