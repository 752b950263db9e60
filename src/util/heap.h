/*
 * heap.h - a binary min-heap of (key, id) pairs: the k-way merge of per-CPU
 * streams in time order, at O(log n) per event whatever the CPU count.  Ties
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
	struct ca_heap_item *items;
	size_t count;
	size_t capacity;
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
 *                         event) and restore the order: one sift, not a pop
 *                         and a push.  The heap must not be empty.
 */
void ca_heap_replace_top(struct ca_heap *heap, uint64_t key);

#endif
