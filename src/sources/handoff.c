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

#define BATCH_EVENTS 256
#define BATCHES 8

struct batch {
	struct ca_event events[BATCH_EVENTS];
	size_t count;
};

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct batch *batches;		/* a ring: [BATCHES] */
	size_t filled;			/* batches handed over, not yet consumed */
	size_t head;			/* the next to consume */
	size_t tail;			/* the one being filled */
	bool is_read;			/* the reader is done: the last batch is handed over */
	int consumer_ret;		/* what the consumer returned to stop; 0 */
	ca_event_fn fn;
	void *ctx;
};

/* The worker: every batch, in order, through the consumer, until one stops it. */
static void *consume_batches(void *data)
{
	struct handoff *h = data;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		struct batch *b;
		int ret = 0;

		while (!h->filled && !h->is_read)
			pthread_cond_wait(&h->changed, &h->lock);
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
		pthread_cond_broadcast(&h->changed);
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
	pthread_cond_broadcast(&h->changed);
	while (h->filled == BATCHES && !h->consumer_ret)
		pthread_cond_wait(&h->changed, &h->lock);
	ret = h->consumer_ret;
	pthread_mutex_unlock(&h->lock);
	h->batches[h->tail].count = 0;
	return ret;
}

/* The reader's ca_event_fn: into the batch being filled. */
static int take_event(void *data, const struct ca_event *ev)
{
	struct handoff *h = data;
	struct batch *b = &h->batches[h->tail];

	b->events[b->count++] = *ev;
	return b->count == BATCH_EVENTS ? hand_over(h) : 0;
}

/*
 * The reader is done (@ret): the last batch over (what was read before an
 * error is consumed, as on one thread), then wait for the worker.
 */
static int finish(struct handoff *h, pthread_t worker, int ret)
{
	pthread_mutex_lock(&h->lock);
	if (!h->consumer_ret && h->batches[h->tail].count) {
		h->tail = (h->tail + 1) % BATCHES;
		h->filled++;
	}
	h->is_read = true;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->lock);
	pthread_join(worker, NULL);
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
	pthread_t worker;
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
	pthread_cond_init(&h->changed, NULL);
	if (pthread_create(&worker, NULL, consume_batches, h)) {
		ret = ca_source_read(source, fn, ctx);	/* no thread to be had: one */
	} else {
		ret = ca_source_read(source, take_event, h);
		ret = finish(h, worker, ret);
	}
	pthread_cond_destroy(&h->changed);
	pthread_mutex_destroy(&h->lock);
	free(h->batches);
	free(h);
	return ret;
}
