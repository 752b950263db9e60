/*
 * handoff.c - a source read and decoded on one thread (or several) while its
 * events are consumed on another, in the source's order (readers.h:
 * ca_source_read_handoff).
 *
 * The calling thread reads (libtracecmd runs where the coreaudit program's
 * fault guard is armed): pages checked and walked, CPUs merged, a
 * trace.dat's records decoded (ca_decoders_emit_with(): const decoders made
 * safe to share first, a memo of tick functions a reading thread).  Each
 * event crosses over with its kind's bytes only, copied into a batch (a
 * sched_switch's 92 of struct ca_event's 264 bytes: its record is about 70),
 * and the worker passes each to the consumer (stream, state, checks), one at
 * a time, in order.  So the findings are those of one thread, event for
 * event, and the worker, the slower side, does nothing else.  Not for the
 * live source, whose drains call back into the audit between reads.
 *
 * On many CPUs the merge of their streams is much of the reading (a pass up
 * a tournament tree per event, bench/RESULTS.md).  A trace.dat that
 * coreaudit's own reader reads (pages, zstd chunks: its own code, read with
 * pread(), no library to guard) is then cut into parts by CPU (ca_source_parts_cut()):
 * this thread and more reader threads each merge a part into a lane (a ring
 * of batches), and the worker merges the lanes by (timestamp, CPU, part),
 * the order of the one merge of all CPUs (the events of one record share
 * its place and stay together).  What came
 * before every part (damage of CPUs with nothing readable) is marked to go
 * first.
 */
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "sources/decode.h"
#include "sources/readers.h"
#include "util/event.h"

/*
 * A lane's batches start small, so the worker starts early, and double with
 * every batch handed over up to the most: each hand-over costs lock round
 * trips and, when a side waits, a wake-up (a futex call, on a VM an IPI):
 * with batches of 16384 events -J 2 read a 256-CPU tiling 8% faster than
 * with 1024 (bench/RESULTS.md, session 21).
 */
#define BATCH_ITEMS_FIRST 1024
#define BATCH_ITEMS_MOST 16384
#define ITEM_BYTES 96		/* events of the kinds most frequent: up to 92 bytes */
#define BATCHES 8
#define ALIGN 8
#define CACHE_LINE 64
#define BATCH_SLACK sizeof(struct ca_event)	/* past the room: the last item read whole */

_Static_assert(alignof(struct ca_event) <= ALIGN, "a batch's items are read where they lie");

/* One event of a batch: its kind's bytes (ca_event_size()) at @at in the batch's bytes. */
struct item {
	unsigned long long ts;
	int cpu;
	bool is_first;		/* read before every part's events: merged first */
	int lane;		/* whose: a CPU number twice in a damaged layout ties */
	size_t at;
};

struct batch {
	struct item *items;
	size_t item_room;
	size_t count;
	unsigned char *bytes;
	size_t used;
	size_t room;		/* grows with the lane's limit (and for a marker, were it larger) */
};

struct handoff;

/*
 * The batches of one reader: a ring it fills and the worker empties.  What
 * each side touches per event sits on cache lines of its own: a line both
 * write would cross between the cores on every event.
 */
struct lane {
	/* The reader's. */
	struct handoff *h;
	struct batch *batches;		/* [BATCHES] */
	size_t tail;			/* the one being filled */
	size_t limit;			/* of items in a batch, from BATCH_ITEMS_FIRST up */
	struct ca_tick_memo *memo;	/* this reader's, for decoding */
	bool is_prologue;		/* items taken now are marked is_first */
	int index;			/* the part it reads */
	pthread_t reader;		/* lanes 1..: a thread of their own */
	int read_ret;
	/* Both sides', under the lock. */
	alignas(CACHE_LINE) size_t filled;	/* batches handed over, not yet consumed */
	size_t head;			/* the next to consume */
	bool is_read;			/* its reader is done: the last batch is handed over */
	bool is_reader_waiting;		/* a signal only then: no futex call per batch */
	pthread_cond_t has_room;	/* signalled to its waiting reader */
	/* The worker's. */
	alignas(CACHE_LINE) bool has_head;	/* the worker holds batches[head] */
	size_t next;			/* the worker's next item there */
	bool is_drained;		/* read and consumed: not looked at again */
};

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t has_batch;	/* signalled to a waiting worker */
	pthread_cond_t has_go;		/* signalled as is_go or is_started is set */
	bool is_go;			/* the lanes are known: the worker may merge them */
	bool is_started;		/* every CPU's first event is found: readers may read */
	int start_ret;			/* how that went: 0, or why nothing more is read */
	bool is_worker_waiting;
	int consumer_ret;		/* what the consumer returned to stop; 0 */
	int read_ret;			/* the first reader's error: the others stop too */
	const struct ca_decoders *decoders;	/* a trace.dat's: its records decoded by the readers */
	ca_event_fn fn;
	void *ctx;
	pthread_t worker;
	bool has_worker;		/* started with the first full batch, or the parts */
	bool is_inline;			/* no thread to be had: the reader consumes */
	struct ca_source_parts *parts;
	int lane_count;			/* in use */
	int lane_room;
	struct lane lanes[];
};

/*
 * One item through the consumer, read where it lies: a consumer may copy a
 * whole struct ca_event, and the bytes past a short item (the next items,
 * then BATCH_SLACK) are the batch's own.
 */
static int consume_item(struct handoff *h, struct batch *b, const struct item *it)
{
	return h->fn(h->ctx, (const struct ca_event *)(b->bytes + it->at));
}

static void empty_batch(struct batch *b)
{
	b->count = 0;
	b->used = 0;
}

static int consume_batch(struct handoff *h, struct batch *b)
{
	int ret = 0;

	for (size_t i = 0; i < b->count && !ret; i++)
		ret = consume_item(h, b, &b->items[i]);
	empty_batch(b);
	return ret;
}

/*
 * The order of the merge of all CPUs: what came first, then (timestamp, CPU),
 * then the part (the merge's tie-break is the place in the CPU table, and
 * parts are runs of it: one CPU number twice, in two parts, still has an order).
 */
static bool is_before(const struct item *a, const struct item *b)
{
	if (a->is_first != b->is_first)
		return a->is_first;
	if (a->ts != b->ts)
		return a->ts < b->ts;
	return a->cpu != b->cpu ? a->cpu < b->cpu : a->lane < b->lane;
}

/*
 * @lane's next item for the worker: a consumed batch given back to the
 * reader, the next one waited for.  NULL: the lane is done (or the consumer
 * stopped).
 */
static const struct item *head_item(struct handoff *h, struct lane *lane)
{
	struct batch *b = &lane->batches[lane->head];

	if (lane->has_head && lane->next < b->count)
		return &b->items[lane->next];
	if (lane->is_drained)
		return NULL;
	pthread_mutex_lock(&h->lock);
	if (lane->has_head) {
		empty_batch(b);
		lane->head = (lane->head + 1) % BATCHES;
		lane->filled--;
		lane->has_head = false;
		if (lane->is_reader_waiting && lane->filled <= BATCHES / 2)
			pthread_cond_signal(&lane->has_room);	/* room for half: a wake-up per half */
	}
	while (!lane->filled && !lane->is_read) {
		h->is_worker_waiting = true;
		pthread_cond_wait(&h->has_batch, &h->lock);
		h->is_worker_waiting = false;
	}
	lane->has_head = lane->filled > 0;
	lane->is_drained = !lane->has_head;
	lane->next = 0;
	pthread_mutex_unlock(&h->lock);
	return lane->has_head ? &lane->batches[lane->head].items[0] : NULL;
}

/*
 * The lane whose next item comes first; *@bound the first of the others'
 * (NULL: none), up to which that lane's items go before the merge looks again.
 */
static struct lane *earliest_lane(struct handoff *h, const struct item **bound)
{
	static const struct item after_first = { .cpu = -1 };
	const struct item *first = head_item(h, &h->lanes[0]);
	struct lane *earliest = NULL;

	if (first && first->is_first) {	/* before every part: the others need not be there */
		*bound = &after_first;
		return &h->lanes[0];
	}
	first = NULL;
	*bound = NULL;
	for (int i = 0; i < h->lane_count; i++) {
		const struct item *it = head_item(h, &h->lanes[i]);

		if (it && (!first || is_before(it, first))) {
			*bound = first;
			first = it;
			earliest = &h->lanes[i];
		} else if (it && (!*bound || is_before(it, *bound))) {
			*bound = it;
		}
	}
	return earliest;
}

/* @lane's items in order, as long as they come before @bound. */
static int consume_run(struct handoff *h, struct lane *lane, const struct item *bound)
{
	struct batch *b = &lane->batches[lane->head];
	int ret = 0;

	while (!ret && lane->next < b->count && (!bound || is_before(&b->items[lane->next], bound)))
		ret = consume_item(h, b, &b->items[lane->next++]);
	return ret;
}

/* Every reader waiting for room is told to look again (the reading stops). Lock held. */
static void wake_readers(struct handoff *h)
{
	for (int i = 0; i < h->lane_count; i++)
		pthread_cond_signal(&h->lanes[i].has_room);
}

/* The worker: every lane's items, merged, through the consumer, until one stops it. */
static void *consume_lanes(void *data)
{
	struct handoff *h = data;
	const struct item *bound;
	struct lane *lane;
	int ret = 0;

	pthread_mutex_lock(&h->lock);
	while (!h->is_go)
		pthread_cond_wait(&h->has_go, &h->lock);
	pthread_mutex_unlock(&h->lock);
	while (!ret && (lane = earliest_lane(h, &bound)))
		ret = consume_run(h, lane, bound);
	pthread_mutex_lock(&h->lock);
	h->consumer_ret = ret;
	wake_readers(h);
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Hand @lane's batch being filled over; wait for room.  Return: 0, or the consumer's stop. */
static int hand_over(struct lane *lane)
{
	struct handoff *h = lane->h;
	int ret;

	pthread_mutex_lock(&h->lock);
	lane->tail = (lane->tail + 1) % BATCHES;
	lane->filled++;
	if (h->is_worker_waiting)
		pthread_cond_signal(&h->has_batch);
	while (lane->filled == BATCHES && !h->consumer_ret && !h->read_ret) {
		lane->is_reader_waiting = true;
		pthread_cond_wait(&lane->has_room, &h->lock);
		lane->is_reader_waiting = false;
	}
	ret = h->consumer_ret ? h->consumer_ret : h->read_ret;
	pthread_mutex_unlock(&h->lock);
	return ret;
}

static bool start_worker(struct handoff *h)
{
	h->has_worker = !pthread_create(&h->worker, NULL, consume_lanes, h);
	h->is_inline = !h->has_worker;
	return h->has_worker;
}

/*
 * The batch being filled is full: over to the worker, which starts with the
 * first full batch, not before (a reader that forks first, probe.c, forks a
 * process of one thread: a sanitizer's locks held by a second one would
 * hang the child).  Without a thread to be had, consumed here (one lane).
 */
static int pass_batch(struct lane *lane)
{
	struct handoff *h = lane->h;

	if (!h->is_inline && (h->has_worker || start_worker(h)))
		return hand_over(lane);
	return consume_batch(h, &lane->batches[lane->tail]);
}

/* The batch being filled, @b, made to hold the lane's limit of items and @size bytes. */
static int fit_batch(const struct lane *lane, struct batch *b, size_t size)
{
	size_t room = lane->limit * ITEM_BYTES > size ? lane->limit * ITEM_BYTES : size;

	if (b->item_room < lane->limit) {
		struct item *items = realloc(b->items, lane->limit * sizeof(*items));

		if (!items)
			return -ENOMEM;
		b->items = items;
		b->item_room = lane->limit;
	}
	if (b->room < room) {
		unsigned char *bytes = realloc(b->bytes, room + BATCH_SLACK);

		if (!bytes)
			return -ENOMEM;
		b->bytes = bytes;
		b->room = room;
	}
	return 0;
}

/*
 * Room for @size bytes in the batch being filled: a full one passed on first
 * (and the next ones allowed twice as many items, up to the most).
 */
static int make_room(struct lane *lane, size_t size, struct batch **out)
{
	struct batch *b = &lane->batches[lane->tail];
	int ret = 0;

	if (b->count == lane->limit || (b->count && b->used + size > b->room)) {
		ret = pass_batch(lane);
		if (lane->limit < BATCH_ITEMS_MOST)
			lane->limit *= 2;
	}
	b = &lane->batches[lane->tail];
	ret = ret ? ret : fit_batch(lane, b, size);
	*out = b;
	return ret;
}

static struct item *add_item(struct lane *lane, struct batch *b, size_t size)
{
	struct item *it = &b->items[b->count++];

	it->at = b->used;
	it->is_first = lane->is_prologue;
	it->lane = lane->index;
	b->used += (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	return it;
}

/* The reader's ca_event_fn: an event's bytes into the batch being filled. */
static int take_event(void *data, const struct ca_event *ev)
{
	struct lane *lane = data;
	size_t size = ca_event_size(ev);
	struct batch *b;
	struct item *it;
	int ret = make_room(lane, size, &b);

	if (ret)
		return ret;
	it = add_item(lane, b, size);
	it->ts = ev->ts;
	it->cpu = ev->cpu;
	memcpy(b->bytes + it->at, ev, size);
	return 0;
}

/* The reader's ca_record_fn: a record decoded here, its events into the batch. */
static int take_record(void *data, struct tep_record *rec)
{
	struct lane *lane = data;

	return ca_decoders_emit_with(lane->h->decoders, lane->memo, rec, take_event, lane);
}

/*
 * @lane's reader is done (@ret): its last batch over (what was read before an
 * error is consumed); an error stops the other readers at their next batch.
 */
static void end_lane(struct lane *lane, int ret)
{
	struct handoff *h = lane->h;
	struct batch *b = &lane->batches[lane->tail];

	pthread_mutex_lock(&h->lock);
	if (ret && !h->read_ret) {
		h->read_ret = ret;
		wake_readers(h);
	}
	if (!h->consumer_ret && lane->filled < BATCHES && b->count) {	/* (full: stopped) */
		lane->tail = (lane->tail + 1) % BATCHES;
		lane->filled++;
	}
	lane->is_read = true;
	pthread_cond_signal(&h->has_batch);
	pthread_mutex_unlock(&h->lock);
}

/*
 * The reading is done (@ret): without a worker (a trace shorter than a
 * batch, or no thread to be had) the rest is consumed here; else lane 0
 * ends, the other readers and the worker are waited for.  An error of the
 * reading wins over a lane's, the consumer's stop over both.
 */
static int finish(struct handoff *h, int ret)
{
	if (!h->has_worker) {
		int consumer_ret = consume_batch(h, &h->lanes[0].batches[h->lanes[0].tail]);

		return consumer_ret ? consumer_ret : ret;
	}
	end_lane(&h->lanes[0], ret);
	for (int i = 1; i < h->lane_count; i++) {
		pthread_join(h->lanes[i].reader, NULL);
		ret = ret ? ret : h->lanes[i].read_ret;
	}
	pthread_join(h->worker, NULL);
	return h->consumer_ret ? h->consumer_ret : ret;
}

/* A part's reader thread: once every CPU's first event is found, its part into its lane. */
static void *read_part(void *data)
{
	struct lane *lane = data;
	struct handoff *h = lane->h;
	int start_ret;

	pthread_mutex_lock(&h->lock);
	while (!h->is_started)
		pthread_cond_wait(&h->has_go, &h->lock);
	start_ret = h->start_ret;
	pthread_mutex_unlock(&h->lock);
	if (!start_ret)
		lane->read_ret = ca_source_parts_read(h->parts, lane->index, take_record, take_event,
						      lane);
	end_lane(lane, lane->read_ret);
	return NULL;
}

static void free_lane(struct lane *lane)
{
	for (int i = 0; lane->batches && i < BATCHES; i++) {
		free(lane->batches[i].items);
		free(lane->batches[i].bytes);
	}
	ca_tick_memo_free(lane->memo);
	free(lane->batches);
	pthread_cond_destroy(&lane->has_room);
}

static int new_lane(struct handoff *h, int index)
{
	struct lane *lane = &h->lanes[index];

	lane->h = h;
	lane->index = index;
	pthread_cond_init(&lane->has_room, NULL);
	lane->limit = BATCH_ITEMS_FIRST;
	lane->memo = ca_tick_memo_new();
	lane->batches = calloc(BATCHES, sizeof(*lane->batches));
	return lane->batches && lane->memo ? fit_batch(lane, &lane->batches[0], 0) : -ENOMEM;
}

static void free_handoff(struct handoff *h)
{
	for (int i = 0; i < h->lane_room; i++)
		if (h->lanes[i].h)
			free_lane(&h->lanes[i]);
	pthread_cond_destroy(&h->has_batch);
	pthread_cond_destroy(&h->has_go);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

static struct handoff *new_handoff(int lane_room, ca_event_fn fn, void *ctx)
{
	size_t size = sizeof(struct handoff) + lane_room * sizeof(struct lane);
	struct handoff *h = aligned_alloc(CACHE_LINE, (size + CACHE_LINE - 1) / CACHE_LINE *
					  CACHE_LINE);

	if (!h)
		return NULL;
	memset(h, 0, size);
	h->lane_room = lane_room;
	h->lane_count = 1;
	h->fn = fn;
	h->ctx = ctx;
	h->is_go = true;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->has_batch, NULL);
	pthread_cond_init(&h->has_go, NULL);
	if (new_lane(h, 0)) {
		free_handoff(h);
		return NULL;
	}
	return h;
}

/* Lanes 1 .. @wanted - 1, each with its reader thread, as many as can be had. */
static void start_readers(struct handoff *h, int wanted)
{
	while (h->lane_count < wanted) {
		struct lane *lane = &h->lanes[h->lane_count];

		if (new_lane(h, h->lane_count) ||
		    pthread_create(&lane->reader, NULL, read_part, lane)) {
			free_lane(lane);
			lane->h = NULL;
			return;
		}
		h->lane_count++;
	}
}

/* Let the worker merge the lanes, or the readers read (@ret: how the start went). */
static void set_go(struct handoff *h, bool is_started, int ret)
{
	pthread_mutex_lock(&h->lock);
	h->is_go = true;
	h->is_started = is_started;
	h->start_ret = ret;
	pthread_cond_broadcast(&h->has_go);
	pthread_mutex_unlock(&h->lock);
}

/*
 * The CPUs in parts, read by this thread and the lanes' readers, merged by
 * the worker: the readers and the worker started first (the worker waits
 * until the lanes are known), the parts cut, every CPU's first event found
 * (what that emits goes first), then every reader on its part.  Without a
 * worker, this thread reads the whole.
 */
static int read_parts(struct handoff *h, int wanted)
{
	int most = ca_source_parts_most(h->parts), ret;

	ca_decoders_share(h->decoders);	/* each reader decodes its part */
	h->is_go = false;
	if (start_worker(h))
		start_readers(h, wanted < most ? wanted : most);
	ret = ca_source_parts_cut(h->parts, h->lane_count);
	set_go(h, false, 0);
	h->lanes[0].is_prologue = true;
	ret = ret ? ret : ca_source_parts_start(h->parts, take_event, &h->lanes[0]);
	h->lanes[0].is_prologue = false;
	set_go(h, true, ret);
	if (!ret)
		ret = ca_source_parts_read(h->parts, 0, take_record, take_event, &h->lanes[0]);
	return ret;
}

/*
 * The hand-off lives on the heap, not on this frame: should the reading fault
 * and the program's guard jump out of it, the worker (waiting on it) is left
 * with memory that stays its own until the program exits.
 */
int ca_source_read_handoff(struct ca_source *source, int readers, ca_event_fn fn, void *ctx)
{
	struct handoff *h = new_handoff(readers > 1 ? readers : 1, fn, ctx);
	int ret;

	if (!h)
		return -ENOMEM;
	h->decoders = ca_source_decoders(source);
	ret = h->decoders && readers > 1 ? ca_source_parts_open(source, &h->parts) : 0;
	if (!ret && h->parts)
		ret = read_parts(h, readers);
	else if (!ret)
		ret = ca_source_read(source, take_event, &h->lanes[0]);
	ret = finish(h, ret);
	ca_source_parts_close(h->parts);
	free_handoff(h);
	return ret;
}
