/*
 * heap.c - the binary min-heap behind the per-CPU merges (heap.h).
 */
#include <stdlib.h>

#include "util/grow.h"
#include "util/heap.h"

/* (key, id) as one number: compared without a branch on the tie. */
static inline unsigned __int128 rank(const struct ca_heap_item *a)
{
	return (unsigned __int128)a->key << 32 | a->id;
}

static inline bool is_before(const struct ca_heap_item *a, const struct ca_heap_item *b)
{
	return rank(a) < rank(b);
}

static void swap_items(struct ca_heap_item *a, struct ca_heap_item *b)
{
	struct ca_heap_item held = *a;

	*a = *b;
	*b = held;
}

static void sift_up(struct ca_heap *heap, size_t at)
{
	while (at > 0 && is_before(&heap->items[at], &heap->items[(at - 1) / 2])) {
		swap_items(&heap->items[at], &heap->items[(at - 1) / 2]);
		at = (at - 1) / 2;
	}
}

/*
 * The item at @at moves down to its place.  A merge's next key mostly sinks
 * far (the CPU that just gave an event comes after most others), so the hole
 * goes down to a leaf along the earlier children, one comparison a level, and
 * the item climbs back from there (Floyd's bottom-up heap): half the
 * comparisons of the usual sift.  One that stays on top leaves at once.
 */
static void sift_down(struct ca_heap *heap, size_t at)
{
	struct ca_heap_item *items = heap->items, held = items[at];
	size_t count = heap->count, hole = at, child;

	child = 2 * at + 1;
	if (child >= count || (is_before(&held, &items[child]) &&
			       (child + 1 >= count || is_before(&held, &items[child + 1]))))
		return;
	for (child = 2 * hole + 1; child < count; child = 2 * hole + 1) {
		if (child + 1 < count && is_before(&items[child + 1], &items[child]))
			child++;
		items[hole] = items[child];
		hole = child;
	}
	while (hole > at && is_before(&held, &items[(hole - 1) / 2])) {
		items[hole] = items[(hole - 1) / 2];
		hole = (hole - 1) / 2;
	}
	items[hole] = held;
}

void ca_heap_init(struct ca_heap *heap)
{
	heap->items = NULL;
	heap->count = 0;
	heap->capacity = 0;
}

void ca_heap_free(struct ca_heap *heap)
{
	free(heap->items);
	ca_heap_init(heap);
}

int ca_heap_push(struct ca_heap *heap, uint64_t key, uint32_t id)
{
	int ret = ca_grow(&heap->items, heap->count, &heap->capacity, sizeof(*heap->items));

	if (ret)
		return ret;
	heap->items[heap->count] = (struct ca_heap_item){ .key = key, .id = id };
	sift_up(heap, heap->count++);
	return 0;
}

bool ca_heap_top(const struct ca_heap *heap, struct ca_heap_item *top)
{
	if (!heap->count)
		return false;
	*top = heap->items[0];
	return true;
}

void ca_heap_pop(struct ca_heap *heap)
{
	if (!heap->count)
		return;
	heap->items[0] = heap->items[--heap->count];
	sift_down(heap, 0);
}

void ca_heap_replace_top(struct ca_heap *heap, uint64_t key)
{
	heap->items[0].key = key;
	sift_down(heap, 0);
}
