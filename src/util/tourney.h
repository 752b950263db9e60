/*
 * tourney.h - the k-way merge of per-CPU streams in time order: a tournament
 * tree of losers over (key, id) pairs, O(log n) per event whatever the CPU
 * count, one match a level without a branch (tourney.c).  Ties in the key go
 * to the lower id, so a merge by CPU number gives the order libtracecmd
 * gives (the lowest CPU first on equal timestamps).  Not a priority queue of
 * arbitrary records: ids are small integers (CPUs, streams), each pushed at
 * most once, below 2^31; memory is a few words per id up to the largest.
 */
#ifndef CA_UTIL_TOURNEY_H
#define CA_UTIL_TOURNEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ca_tourney_item {
	uint64_t key;
	uint32_t id;
};

/* An item as one number: its key, then its id (the tie-break), compared at once. */
typedef unsigned __int128 ca_tourney_rank;

struct ca_tourney {
	ca_tourney_rank *leaf_ranks;	/* [leaves] each id's rank */
	ca_tourney_rank *losers;	/* [leaves] the loser at each inner node; [0] the winner */
	ca_tourney_rank *winners;	/* [2 * leaves] room for the build */
	size_t leaves;			/* a power of two above every id pushed */
	size_t count;			/* ids in play */
	bool is_built;			/* the matches played since the last push */
};

/** ca_tourney_init() - an empty tree. */
void ca_tourney_init(struct ca_tourney *tree);
void ca_tourney_free(struct ca_tourney *tree);

/**
 * ca_tourney_push() - add @id with @key (the matches are played at the next
 *                     top, pop or replace: pushes come first, in any order)
 * Return: 0, -ENOMEM, or -EINVAL for an id of 2^31 or more.
 */
int ca_tourney_push(struct ca_tourney *tree, uint64_t key, uint32_t id);

/**
 * ca_tourney_top() - the item with the least key (the lowest id among equals)
 * Return: true and *@top set, or false when the tree is empty.
 */
bool ca_tourney_top(struct ca_tourney *tree, struct ca_tourney_item *top);

/** ca_tourney_pop() - remove the top item (its stream ended); nothing when empty. */
void ca_tourney_pop(struct ca_tourney *tree);

/**
 * ca_tourney_replace_top() - give the top item a new @key (its stream's next
 *                            event) and play its matches again: one pass up
 *                            the tree.  The tree must not be empty.
 */
void ca_tourney_replace_top(struct ca_tourney *tree, uint64_t key);

#endif
