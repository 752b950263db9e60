/*
 * handoff.c - a source read on one thread while its events are consumed on
 * another, in the source's order (readers.h: ca_source_read_handoff).
 *
 * The reading stays on the calling thread (libtracecmd and kbuffer run where
 * the coreaudit program's fault guard is armed); a worker thread takes the
 * events in batches and passes each to the consumer (stream, state,
 * checks), one at a time, in order.  So the findings are those of one
 * thread, event for event; two cores share the work: decoding pages and
 * merging CPUs on one, the checks on the other.  Not for the live source,
 * whose drains call back into the audit between reads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sources/readers.h"
#include "util/event.h"

#define BATCH_EVENTS 1024
#define BATCHES 8

struct batch {
	struct ca_event events[BATCH_EVENTS];
	size_t count;
};

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t has_batch;	/* signalled to a waiting worker */
	pthread_cond_t has_room;	/* signalled to a waiting reader */
	bool is_worker_waiting;		/* a signal only then: no futex call per batch */
	bool is_reader_waiting;
	struct batch *batches;		/* a ring: [BATCHES] */
	size_t filled;			/* batches handed over, not yet consumed */
	size_t head;			/* the next to consume */
	size_t tail;			/* the one being filled */
	bool is_read;			/* the reader is done: the last batch is handed over */
	int consumer_ret;		/* what the consumer returned to stop; 0 */
	ca_event_fn fn;
	void *ctx;
	pthread_t worker;
	bool has_worker;		/* started with the first full batch */
	bool is_inline;			/* no thread to be had: the reader consumes */
};

/* The worker: every batch, in order, through the consumer, until one stops it. */
static void *consume_batches(void *data)
{
	struct handoff *h = data;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		struct batch *b;
		int ret = 0;

		while (!h->filled && !h->is_read) {
			h->is_worker_waiting = true;
			pthread_cond_wait(&h->has_batch, &h->lock);
			h->is_worker_waiting = false;
		}
		if (!h->filled)
			break;
		b = &h->batches[h->head];
		pthread_mutex_unlock(&h->lock);
		for (size_t i = 0; i < b->count && !ret; i++)
			ret = h->fn(h->ctx, &b->events[i]);
		pthread_mutex_lock(&h->lock);
		h->head = (h->head + 1) % BATCHES;
		h->filled--;
		h->consumer_ret = ret;
		if (h->is_reader_waiting)
			pthread_cond_signal(&h->has_room);
		if (ret)
			break;
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Hand the batch being filled over; wait for room.  Return: 0, or the consumer's stop. */
static int hand_over(struct handoff *h)
{
	int ret;

	pthread_mutex_lock(&h->lock);
	h->tail = (h->tail + 1) % BATCHES;
	h->filled++;
	if (h->is_worker_waiting)
		pthread_cond_signal(&h->has_batch);
	while (h->filled == BATCHES && !h->consumer_ret) {
		h->is_reader_waiting = true;
		pthread_cond_wait(&h->has_room, &h->lock);
		h->is_reader_waiting = false;
	}
	ret = h->consumer_ret;
	pthread_mutex_unlock(&h->lock);
	h->batches[h->tail].count = 0;
	return ret;
}

/*
 * The worker starts with the first full batch, not before: a reader that
 * forks first (probe.c tries libtracecmd in a child) forks a process of one
 * thread (a sanitizer's locks held by a second one would hang the child).
 */
static int start_worker(struct handoff *h)
{
	struct batch *b = &h->batches[h->tail];
	int ret = 0;

	h->has_worker = !pthread_create(&h->worker, NULL, consume_batches, h);
	if (h->has_worker)
		return 0;
	h->is_inline = true;	/* no thread to be had: one, as ca_source_read() */
	for (size_t i = 0; i < b->count && !ret; i++)
		ret = h->fn(h->ctx, &b->events[i]);
	b->count = 0;
	return ret;
}

/* The reader's ca_event_fn: into the batch being filled. */
static int take_event(void *data, const struct ca_event *ev)
{
	struct handoff *h = data;
	struct batch *b = &h->batches[h->tail];

	if (h->is_inline)
		return h->fn(h->ctx, ev);
	b->events[b->count++] = *ev;
	if (b->count < BATCH_EVENTS)
		return 0;
	if (!h->has_worker) {
		int ret = start_worker(h);

		if (ret || h->is_inline)
			return ret;
	}
	return hand_over(h);
}

/*
 * The reader is done (@ret): the last batch over (what was read before an
 * error is consumed, as on one thread), then wait for the worker; without one
 * (a trace shorter than a batch), the rest is consumed here.
 */
static int finish(struct handoff *h, int ret)
{
	struct batch *b = &h->batches[h->tail];
	int consumer_ret = 0;

	if (!h->has_worker) {
		for (size_t i = 0; i < b->count && !consumer_ret; i++)
			consumer_ret = h->fn(h->ctx, &b->events[i]);
		return consumer_ret ? consumer_ret : ret;
	}
	pthread_mutex_lock(&h->lock);
	if (!h->consumer_ret && b->count) {
		h->tail = (h->tail + 1) % BATCHES;
		h->filled++;
	}
	h->is_read = true;
	pthread_cond_signal(&h->has_batch);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->worker, NULL);
	return h->consumer_ret ? h->consumer_ret : ret;
}

/*
 * The hand-off lives on the heap, not on this frame: should the reading fault
 * and the program's guard jump out of it, the worker (waiting on it) is left
 * with memory that stays its own until the program exits.
 */
int ca_source_read_handoff(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	struct handoff *h = calloc(1, sizeof(*h));
	int ret;

	if (h)
		h->batches = calloc(BATCHES, sizeof(*h->batches));
	if (!h || !h->batches) {
		free(h);
		return -ENOMEM;
	}
	h->fn = fn;
	h->ctx = ctx;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->has_batch, NULL);
	pthread_cond_init(&h->has_room, NULL);
	ret = finish(h, ca_source_read(source, take_event, h));
	pthread_cond_destroy(&h->has_batch);
	pthread_cond_destroy(&h->has_room);
	pthread_mutex_destroy(&h->lock);
	free(h->batches);
	free(h);
	return ret;
}
