/*
 * heap.c - the binary min-heap behind the per-CPU merges (heap.h).
 */
#include <stdlib.h>

#include "util/grow.h"
#include "util/heap.h"

static bool is_before(const struct ca_heap_item *a, const struct ca_heap_item *b)
{
	return a->key < b->key || (a->key == b->key && a->id < b->id);
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

/* The item at @at moves down to its place: children move up into the hole it leaves. */
static void sift_down(struct ca_heap *heap, size_t at)
{
	struct ca_heap_item *items = heap->items, held = items[at];
	size_t count = heap->count;

	for (;;) {
		size_t child = 2 * at + 1;

		if (child >= count)
			break;
		if (child + 1 < count && is_before(&items[child + 1], &items[child]))
			child++;
		if (!is_before(&items[child], &held))
			break;
		items[at] = items[child];
		at = child;
	}
	items[at] = held;
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
