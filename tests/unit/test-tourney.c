/*
 * test-tourney.c - the merge tree: order by key then id, against a sort of the
 * same items; a stream that advances with replace_top; empty heaps.
 */
#include <errno.h>
#include <stdlib.h>

#include "helpers.h"
#include "util/tourney.h"

START_TEST(test_empty)
{
	struct ca_tourney tree;
	struct ca_tourney_item top;

	ca_tourney_init(&tree);
	ck_assert(!ca_tourney_top(&tree, &top));
	ca_tourney_pop(&tree);	/* nothing to pop: no harm */
	ck_assert_uint_eq(tree.count, 0);
	ca_tourney_free(&tree);
}
END_TEST

/* Ties in the key come out by id: the lowest CPU first, as libtracecmd merges. */
START_TEST(test_ties_by_id)
{
	static const struct ca_tourney_item pushed[] = {
		{ 5, 3 }, { 5, 1 }, { 2, 9 }, { 5, 0 }, { 7, 2 }, { 2, 4 },
	};
	static const struct ca_tourney_item expected[] = {
		{ 2, 4 }, { 2, 9 }, { 5, 0 }, { 5, 1 }, { 5, 3 }, { 7, 2 },
	};
	struct ca_tourney tree;
	struct ca_tourney_item top;

	ca_tourney_init(&tree);
	for (size_t i = 0; i < sizeof(pushed) / sizeof(pushed[0]); i++)
		ck_assert_int_eq(ca_tourney_push(&tree, pushed[i].key, pushed[i].id), 0);
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		ck_assert(ca_tourney_top(&tree, &top));
		ck_assert_uint_eq(top.key, expected[i].key);
		ck_assert_uint_eq(top.id, expected[i].id);
		ca_tourney_pop(&tree);
	}
	ck_assert(!ca_tourney_top(&tree, &top));
	ca_tourney_free(&tree);
}
END_TEST

/*
 * 1024 streams of 40 increasing keys each, merged with replace_top: the
 * merge gives every key in order (ties by stream), exactly once.
 */
START_TEST(test_merge_streams)
{
	enum { STREAMS = 1024, PER_STREAM = 40 };
	unsigned int next[STREAMS] = { 0 }, seed = 7;
	uint64_t keys[STREAMS][PER_STREAM], last_key = 0;
	uint32_t last_id = 0, merged = 0;
	struct ca_tourney tree;
	struct ca_tourney_item top;

	ca_tourney_init(&tree);
	for (int s = 0; s < STREAMS; s++) {
		uint64_t key = rand_r(&seed) % 100;

		for (int i = 0; i < PER_STREAM; i++)
			keys[s][i] = key += rand_r(&seed) % 50;	/* repeats: ties */
		ck_assert_int_eq(ca_tourney_push(&tree, keys[s][0], s), 0);
	}
	while (ca_tourney_top(&tree, &top)) {
		/* never before the last one taken, by key, then by stream */
		ck_assert(merged == 0 || top.key > last_key ||
			  (top.key == last_key && top.id >= last_id));
		last_key = top.key;
		last_id = top.id;
		merged++;
		if (++next[top.id] < PER_STREAM)
			ca_tourney_replace_top(&tree, keys[top.id][next[top.id]]);
		else
			ca_tourney_pop(&tree);
	}
	ck_assert_uint_eq(merged, STREAMS * PER_STREAM);
	ca_tourney_free(&tree);
}
END_TEST

/*
 * A stream pushed after matches were played (the tree is built again, the
 * other streams where they were), a key of UINT64_MAX (a stream, not one that
 * ended: it comes out before the tree is empty), and sparse ids.
 */
START_TEST(test_push_after_play)
{
	static const struct ca_tourney_item expected[] = {
		{ 3, 40 }, { 4, 5 }, { 6, 17 }, { 9, 5 }, { UINT64_MAX, 2 }, { UINT64_MAX, 17 },
	};
	struct ca_tourney tree;
	struct ca_tourney_item top;

	ca_tourney_init(&tree);
	ck_assert_int_eq(ca_tourney_push(&tree, 4, 5), 0);
	ck_assert_int_eq(ca_tourney_push(&tree, UINT64_MAX, 2), 0);
	ck_assert_int_eq(ca_tourney_push(&tree, 3, 40), 0);
	ck_assert(ca_tourney_top(&tree, &top));
	ck_assert_uint_eq(top.id, 40);
	ca_tourney_pop(&tree);
	ck_assert_int_eq(ca_tourney_push(&tree, 6, 17), 0);	/* after a match */
	ck_assert_int_eq(ca_tourney_push(&tree, 1, 1u << 31), -EINVAL);
	for (size_t i = 1; i < sizeof(expected) / sizeof(expected[0]); i++) {
		ck_assert(ca_tourney_top(&tree, &top));
		ck_assert_uint_eq(top.key, expected[i].key);
		ck_assert_uint_eq(top.id, expected[i].id);
		if (i == 1)
			ca_tourney_replace_top(&tree, 9);	/* id 5 again, later */
		else if (i == 2)
			ca_tourney_replace_top(&tree, UINT64_MAX);	/* id 17 at the end */
		else
			ca_tourney_pop(&tree);
	}
	ck_assert(!ca_tourney_top(&tree, &top));
	ca_tourney_free(&tree);
}
END_TEST

Suite *tourney_suite(void)
{
	Suite *s = suite_create("tourney");
	TCase *tc = tcase_create("tourney");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_ties_by_id);
	tcase_add_test(tc, test_merge_streams);
	tcase_add_test(tc, test_push_after_play);
	suite_add_tcase(s, tc);
	return s;
}
