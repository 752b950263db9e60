/*
 * heap.c - the merge of per-CPU streams behind heap.h: a tournament (winner)
 * tree.  Each inner node holds the better of its two children; a stream's
 * next event changes one leaf and the log2(n) nodes above it, one comparison
 * each (a binary heap's sift takes two a level).  Items are never moved: a
 * popped stream's leaf is marked gone and loses every match.
 */
#include <errno.h>
#include <stdlib.h>

#include "util/grow.h"
#include "util/heap.h"

/* Whether item @a goes before item @b: a gone item never does. */
static bool is_before(const struct ca_heap *heap, int32_t a, int32_t b)
{
	const struct ca_heap_item *x = &heap->items[a], *y = &heap->items[b];

	if (heap->is_gone[a] || heap->is_gone[b])
		return !heap->is_gone[a];
	return x->key < y->key || (x->key == y->key && x->id < y->id);
}

/* The better of two nodes' winners (-1: an empty leaf). */
static int32_t pick(const struct ca_heap *heap, int32_t a, int32_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return is_before(heap, b, a) ? b : a;
}

/* Leaf @item changed: replay its matches up to the root. */
static void replay(struct ca_heap *heap, size_t item)
{
	for (size_t node = (heap->leaves + item) / 2; node >= 1; node /= 2)
		heap->tree[node] = pick(heap, heap->tree[2 * node], heap->tree[2 * node + 1]);
}

/* Leaves for every item, a power of two: the whole tree built again. */
static int grow_tree(struct ca_heap *heap)
{
	size_t leaves = heap->leaves ? heap->leaves * 2 : 1;
	int32_t *tree;

	while (leaves < heap->count)
		leaves *= 2;
	tree = realloc(heap->tree, 2 * leaves * sizeof(*tree));
	if (!tree)
		return -ENOMEM;
	heap->tree = tree;
	heap->leaves = leaves;
	for (size_t i = 0; i < leaves; i++)
		tree[leaves + i] = i < heap->count ? (int32_t)i : -1;
	for (size_t node = leaves - 1; node >= 1; node--)
		tree[node] = pick(heap, tree[2 * node], tree[2 * node + 1]);
	return 0;
}

void ca_heap_init(struct ca_heap *heap)
{
	*heap = (struct ca_heap){ 0 };
}

void ca_heap_free(struct ca_heap *heap)
{
	free(heap->items);
	free(heap->is_gone);
	free(heap->tree);
	ca_heap_init(heap);
}

int ca_heap_push(struct ca_heap *heap, uint64_t key, uint32_t id)
{
	if (heap->count >= INT32_MAX ||
	    ca_grow(&heap->items, heap->count, &heap->capacity, sizeof(*heap->items)) ||
	    ca_grow(&heap->is_gone, heap->count, &heap->gone_capacity, sizeof(*heap->is_gone)))
		return -ENOMEM;
	heap->items[heap->count] = (struct ca_heap_item){ .key = key, .id = id };
	heap->is_gone[heap->count] = false;
	heap->count++;
	heap->live++;
	if (heap->count > heap->leaves)
		return grow_tree(heap);
	heap->tree[heap->leaves + heap->count - 1] = (int32_t)(heap->count - 1);
	replay(heap, heap->count - 1);
	return 0;
}

bool ca_heap_top(const struct ca_heap *heap, struct ca_heap_item *top)
{
	if (!heap->live)
		return false;
	*top = heap->items[heap->tree[1]];
	return true;
}

void ca_heap_pop(struct ca_heap *heap)
{
	int32_t winner;

	if (!heap->live)
		return;
	winner = heap->tree[1];
	heap->is_gone[winner] = true;
	heap->live--;
	replay(heap, (size_t)winner);
}

void ca_heap_replace_top(struct ca_heap *heap, uint64_t key)
{
	int32_t winner = heap->tree[1];

	heap->items[winner].key = key;
	replay(heap, (size_t)winner);
}
