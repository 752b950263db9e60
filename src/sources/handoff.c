/*
 * handoff.c - a source read on one thread while its events are decoded and
 * consumed on another, in the source's order (readers.h:
 * ca_source_read_handoff).
 *
 * The reading stays on the calling thread (libtracecmd runs where the
 * coreaudit program's fault guard is armed): pages checked and walked, CPUs
 * merged.  A trace.dat's records cross over undecoded, their bytes copied
 * into the batch (a sched_switch is about 70 bytes, its decoded event 264),
 * and the worker decodes them (ca_decoders_emit(): const decoders, the
 * decoding's one lazy table, libtraceevent's function map, built on that
 * thread alone) and passes each event to the consumer (stream, state,
 * checks), one at a time, in order.  So the findings are those of one
 * thread, event for event, and the work splits about evenly: the reading
 * on one core, decoding and the checks on the other.  Other events (damage,
 * report text) cross over decoded.  Not for the live source, whose drains
 * call back into the audit between reads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "sources/decode.h"
#include "sources/readers.h"
#include "util/event.h"

#define BATCH_ITEMS 1024
#define BATCH_BYTES (BATCH_ITEMS * 96)	/* records average well under 96 bytes */
#define BATCHES 8
#define ALIGN 8

/* One record or event of a batch; its bytes at @at in the batch's bytes. */
struct item {
	unsigned long long ts;
	int cpu;
	int size;		/* of the record's data; -1: a decoded struct ca_event */
	int missed;		/* the record's missed events */
	size_t at;
};

struct batch {
	struct item items[BATCH_ITEMS];
	size_t count;
	unsigned char *bytes;
	size_t used;
	size_t room;		/* grows for a record larger than BATCH_BYTES */
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
	const struct ca_decoders *decoders;	/* NULL: every item is an event */
	ca_event_fn fn;
	void *ctx;
	pthread_t worker;
	bool has_worker;		/* started with the first full batch */
	bool is_inline;			/* no thread to be had: the reader consumes */
};

/* One item through the consumer: a record decoded first. */
static int consume_item(struct handoff *h, struct batch *b, const struct item *it)
{
	struct tep_record rec;

	if (it->size < 0)
		return h->fn(h->ctx, (const struct ca_event *)(b->bytes + it->at));
	memset(&rec, 0, sizeof(rec));
	rec.ts = it->ts;
	rec.cpu = it->cpu;
	rec.size = it->size;
	rec.missed_events = it->missed;
	rec.data = b->bytes + it->at;
	return ca_decoders_emit(h->decoders, &rec, h->fn, h->ctx);
}

static int consume_batch(struct handoff *h, struct batch *b)
{
	int ret = 0;

	for (size_t i = 0; i < b->count && !ret; i++)
		ret = consume_item(h, b, &b->items[i]);
	b->count = 0;
	b->used = 0;
	return ret;
}

/* The worker: every batch, in order, through the consumer, until one stops it. */
static void *consume_batches(void *data)
{
	struct handoff *h = data;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		int ret;

		while (!h->filled && !h->is_read) {
			h->is_worker_waiting = true;
			pthread_cond_wait(&h->has_batch, &h->lock);
			h->is_worker_waiting = false;
		}
		if (!h->filled)
			break;
		pthread_mutex_unlock(&h->lock);
		ret = consume_batch(h, &h->batches[h->head]);
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
	return ret;
}

/*
 * The batch being filled is full: over to the worker, which starts with the
 * first full batch, not before (a reader that forks first, probe.c, forks a
 * process of one thread: a sanitizer's locks held by a second one would
 * hang the child).  Without a thread to be had, consumed here.
 */
static int pass_batch(struct handoff *h)
{
	if (h->is_inline)
		return consume_batch(h, &h->batches[h->tail]);
	if (!h->has_worker) {
		h->has_worker = !pthread_create(&h->worker, NULL, consume_batches, h);
		h->is_inline = !h->has_worker;
		if (h->is_inline)
			return consume_batch(h, &h->batches[h->tail]);
	}
	return hand_over(h);
}

/* Room for @size bytes in the batch being filled: a full one passed on first. */
static int make_room(struct handoff *h, size_t size, struct batch **out)
{
	struct batch *b = &h->batches[h->tail];
	int ret = 0;

	if (b->count == BATCH_ITEMS || (b->count && b->used + size > b->room))
		ret = pass_batch(h);
	b = &h->batches[h->tail];
	if (!ret && size > b->room) {
		unsigned char *bytes = realloc(b->bytes, size);

		if (!bytes)
			return -ENOMEM;
		b->bytes = bytes;
		b->room = size;
	}
	*out = b;
	return ret;
}

static struct item *add_item(struct batch *b, size_t size)
{
	struct item *it = &b->items[b->count++];

	it->at = b->used;
	b->used += (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	return it;
}

/* The reader's ca_event_fn: a decoded event into the batch being filled. */
static int take_event(void *data, const struct ca_event *ev)
{
	struct handoff *h = data;
	struct batch *b;
	struct item *it;
	int ret = make_room(h, sizeof(*ev), &b);

	if (ret)
		return ret;
	it = add_item(b, sizeof(*ev));
	it->size = -1;
	memcpy(b->bytes + it->at, ev, sizeof(*ev));
	return 0;
}

/* The reader's ca_record_fn: a record's bytes into the batch being filled. */
static int take_record(void *data, struct tep_record *rec)
{
	struct handoff *h = data;
	size_t size = rec->size > 0 ? (size_t)rec->size : 0;
	struct batch *b;
	struct item *it;
	int ret = make_room(h, size, &b);

	if (ret)
		return ret;
	it = add_item(b, size);
	it->ts = rec->ts;
	it->cpu = rec->cpu;
	it->size = (int)size;
	it->missed = rec->missed_events;
	memcpy(b->bytes + it->at, rec->data, size);
	return 0;
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
		consumer_ret = consume_batch(h, b);
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

static void free_handoff(struct handoff *h)
{
	for (int i = 0; h->batches && i < BATCHES; i++)
		free(h->batches[i].bytes);
	free(h->batches);
	free(h);
}

static struct handoff *new_handoff(ca_event_fn fn, void *ctx)
{
	struct handoff *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->batches = calloc(BATCHES, sizeof(*h->batches));
	for (int i = 0; h->batches && i < BATCHES; i++) {
		h->batches[i].bytes = malloc(BATCH_BYTES);
		h->batches[i].room = BATCH_BYTES;
		if (!h->batches[i].bytes) {
			free_handoff(h);
			return NULL;
		}
	}
	if (!h->batches) {
		free(h);
		return NULL;
	}
	h->fn = fn;
	h->ctx = ctx;
	return h;
}

/*
 * The hand-off lives on the heap, not on this frame: should the reading fault
 * and the program's guard jump out of it, the worker (waiting on it) is left
 * with memory that stays its own until the program exits.
 */
int ca_source_read_handoff(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	struct handoff *h = new_handoff(fn, ctx);
	int ret;

	if (!h)
		return -ENOMEM;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->has_batch, NULL);
	pthread_cond_init(&h->has_room, NULL);
	h->decoders = ca_source_decoders(source);
	ret = h->decoders ? ca_source_read_split(source, take_record, take_event, h) : -ENOTSUP;
	if (ret == -ENOTSUP)
		ret = ca_source_read(source, take_event, h);
	ret = finish(h, ret);
	pthread_cond_destroy(&h->has_batch);
	pthread_cond_destroy(&h->has_room);
	pthread_mutex_destroy(&h->lock);
	free_handoff(h);
	return ret;
}
