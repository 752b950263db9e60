/*
 * tourney.c - the merge queue behind the per-CPU merges (tourney.h): a
 * tournament tree of losers.
 *
 * Each id is a leaf; each inner node keeps the loser of the match played
 * there, node 0 the overall winner.  When the winner's key changes (its
 * stream's next event) it plays again up its path to the root, one match a
 * level.  Unlike a binary heap's sift, the path is fixed before a match is
 * played (a leaf's ancestors) and a node holds its loser's whole rank, so a
 * level is one load whose address does not wait on the match below, and the
 * match is played without a branch (which side wins is a coin toss in a
 * merge of many CPUs).  On 512 CPUs the binary heap it replaced spent a
 * fifth of an audit in its sift, a chain of dependent loads and mispredicted
 * branches; this, under a tenth (bench/RESULTS.md).
 */
#include <errno.h>
#include <stdlib.h>

#include "util/tourney.h"

/* Rank of an id whose stream ended: after every live one, whatever its key. */
#define DONE_RANK 0x80000000u

/* (key, rank of the id) as one number: the tie goes to the lower id. */
static inline ca_tourney_rank rank_of(uint64_t key, uint32_t id_rank)
{
	return (ca_tourney_rank)key << 32 | id_rank;
}

static inline uint32_t id_of(ca_tourney_rank rank)
{
	return (uint32_t)rank & ~DONE_RANK;
}

/* Leaf @rank's id plays up its path to the root with @rank. */
static void replay(struct ca_tourney *tree, ca_tourney_rank rank)
{
	ca_tourney_rank *losers = tree->losers, best = rank;

	tree->leaf_ranks[id_of(rank)] = rank;	/* for a build after later pushes */
	for (size_t node = (id_of(rank) + tree->leaves) >> 1; node; node >>= 1) {
		ca_tourney_rank other = losers[node];
		bool is_other_first = other < best;

		losers[node] = is_other_first ? best : other;
		best = is_other_first ? other : best;
	}
	losers[0] = best;
}

/* Every match played again, from the leaves (after pushes). */
static void build(struct ca_tourney *tree)
{
	ca_tourney_rank *winners = tree->winners;

	for (size_t i = 0; i < tree->leaves; i++)
		winners[tree->leaves + i] = tree->leaf_ranks[i];
	for (size_t node = tree->leaves - 1; node >= 1; node--) {
		ca_tourney_rank a = winners[2 * node], b = winners[2 * node + 1];

		winners[node] = a < b ? a : b;
		tree->losers[node] = a < b ? b : a;
	}
	tree->losers[0] = tree->leaves > 1 ? winners[1] : tree->leaf_ranks[0];
	tree->is_built = true;
}

void ca_tourney_init(struct ca_tourney *tree)
{
	*tree = (struct ca_tourney){ 0 };
}

void ca_tourney_free(struct ca_tourney *tree)
{
	free(tree->leaf_ranks);
	free(tree->losers);
	free(tree->winners);
	ca_tourney_init(tree);
}

/* Leaves for ids up to @id: a power of two, the new ones ended streams. */
static int grow_leaves(struct ca_tourney *tree, uint32_t id)
{
	size_t leaves = tree->leaves ? tree->leaves : 1;
	ca_tourney_rank *leaf_ranks, *losers, *winners;

	while (leaves <= id)
		leaves *= 2;
	if (leaves == tree->leaves)
		return 0;
	leaf_ranks = realloc(tree->leaf_ranks, leaves * sizeof(*leaf_ranks));
	if (leaf_ranks)
		tree->leaf_ranks = leaf_ranks;
	losers = realloc(tree->losers, leaves * sizeof(*losers));
	if (losers)
		tree->losers = losers;
	winners = realloc(tree->winners, 2 * leaves * sizeof(*winners));
	if (winners)
		tree->winners = winners;
	if (!leaf_ranks || !losers || !winners)
		return -ENOMEM;
	for (size_t i = tree->leaves; i < leaves; i++)
		leaf_ranks[i] = rank_of(UINT64_MAX, DONE_RANK | (uint32_t)i);
	tree->leaves = leaves;
	return 0;
}

int ca_tourney_push(struct ca_tourney *tree, uint64_t key, uint32_t id)
{
	int ret;

	if (id >= DONE_RANK)
		return -EINVAL;
	ret = grow_leaves(tree, id);
	if (ret)
		return ret;
	tree->leaf_ranks[id] = rank_of(key, id);
	tree->count++;
	tree->is_built = false;
	return 0;
}

/* The winner's rank, the tree built first if pushes changed it; the tree is not empty. */
static ca_tourney_rank winner_of(struct ca_tourney *tree)
{
	if (!tree->is_built)
		build(tree);
	return tree->losers[0];
}

bool ca_tourney_top(struct ca_tourney *tree, struct ca_tourney_item *top)
{
	ca_tourney_rank winner;

	if (!tree->count)
		return false;
	winner = winner_of(tree);
	*top = (struct ca_tourney_item){ .key = (uint64_t)(winner >> 32), .id = id_of(winner) };
	return true;
}

void ca_tourney_pop(struct ca_tourney *tree)
{
	uint32_t id;

	if (!tree->count)
		return;
	id = id_of(winner_of(tree));
	tree->count--;
	replay(tree, rank_of(UINT64_MAX, DONE_RANK | id));
}

void ca_tourney_replace_top(struct ca_tourney *tree, uint64_t key)
{
	replay(tree, rank_of(key, id_of(winner_of(tree))));
}
