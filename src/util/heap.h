/*
 * heap.h - a min-priority queue of (key, id) pairs for the k-way merge of
 * per-CPU streams in time order, at O(log n) per event whatever the CPU count
 * (a tournament tree: heap.c).  Ties
 * in the key go to the lower id, so a merge by CPU number gives the order
 * libtracecmd gives (the lowest CPU first on equal timestamps).  Not a
 * priority queue of arbitrary records: ids are small integers (CPUs,
 * streams) and each appears at most once.
 */
#ifndef CA_UTIL_HEAP_H
#define CA_UTIL_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ca_heap_item {
	uint64_t key;
	uint32_t id;
};

struct ca_heap {
	struct ca_heap_item *items;	/* as pushed: never moved */
	bool *is_gone;			/* popped */
	size_t gone_capacity;
	size_t count;			/* pushed */
	size_t capacity;
	size_t live;			/* pushed and not popped */
	int32_t *tree;			/* [2 * leaves]: node n's winner, leaves at leaves + i */
	size_t leaves;			/* a power of two, at least count */
};

/** ca_heap_init() - an empty heap. */
void ca_heap_init(struct ca_heap *heap);
void ca_heap_free(struct ca_heap *heap);

/**
 * ca_heap_push() - add @id with @key
 * Return: 0, or -ENOMEM.
 */
int ca_heap_push(struct ca_heap *heap, uint64_t key, uint32_t id);

/**
 * ca_heap_top() - the item with the least key (the lowest id among equals)
 * Return: true and *@top set, or false when the heap is empty.
 */
bool ca_heap_top(const struct ca_heap *heap, struct ca_heap_item *top);

/** ca_heap_pop() - remove the top item; nothing when empty. */
void ca_heap_pop(struct ca_heap *heap);

/**
 * ca_heap_replace_top() - give the top item a new @key (a stream's next
 *                         event) and restore the order: one replay up the
 *                         tree, not a pop and a push.  The heap must not be
 *                         empty.
 */
void ca_heap_replace_top(struct ca_heap *heap, uint64_t key);

#endif
