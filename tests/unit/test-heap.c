/*
 * test-heap.c - the merge heap: order by key then id, against a sort of the
 * same items; a stream that advances with replace_top; empty heaps.
 */
#include <stdlib.h>

#include "helpers.h"
#include "util/heap.h"

START_TEST(test_empty)
{
	struct ca_heap heap;
	struct ca_heap_item top;

	ca_heap_init(&heap);
	ck_assert(!ca_heap_top(&heap, &top));
	ca_heap_pop(&heap);	/* nothing to pop: no harm */
	ck_assert_uint_eq(heap.count, 0);
	ca_heap_free(&heap);
}
END_TEST

/* Ties in the key come out by id: the lowest CPU first, as libtracecmd merges. */
START_TEST(test_ties_by_id)
{
	static const struct ca_heap_item pushed[] = {
		{ 5, 3 }, { 5, 1 }, { 2, 9 }, { 5, 0 }, { 7, 2 }, { 2, 4 },
	};
	static const struct ca_heap_item expected[] = {
		{ 2, 4 }, { 2, 9 }, { 5, 0 }, { 5, 1 }, { 5, 3 }, { 7, 2 },
	};
	struct ca_heap heap;
	struct ca_heap_item top;

	ca_heap_init(&heap);
	for (size_t i = 0; i < sizeof(pushed) / sizeof(pushed[0]); i++)
		ck_assert_int_eq(ca_heap_push(&heap, pushed[i].key, pushed[i].id), 0);
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		ck_assert(ca_heap_top(&heap, &top));
		ck_assert_uint_eq(top.key, expected[i].key);
		ck_assert_uint_eq(top.id, expected[i].id);
		ca_heap_pop(&heap);
	}
	ck_assert(!ca_heap_top(&heap, &top));
	ca_heap_free(&heap);
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
	struct ca_heap heap;
	struct ca_heap_item top;

	ca_heap_init(&heap);
	for (int s = 0; s < STREAMS; s++) {
		uint64_t key = rand_r(&seed) % 100;

		for (int i = 0; i < PER_STREAM; i++)
			keys[s][i] = key += rand_r(&seed) % 50;	/* repeats: ties */
		ck_assert_int_eq(ca_heap_push(&heap, keys[s][0], s), 0);
	}
	while (ca_heap_top(&heap, &top)) {
		/* never before the last one taken, by key, then by stream */
		ck_assert(merged == 0 || top.key > last_key ||
			  (top.key == last_key && top.id >= last_id));
		last_key = top.key;
		last_id = top.id;
		merged++;
		if (++next[top.id] < PER_STREAM)
			ca_heap_replace_top(&heap, keys[top.id][next[top.id]]);
		else
			ca_heap_pop(&heap);
	}
	ck_assert_uint_eq(merged, STREAMS * PER_STREAM);
	ca_heap_free(&heap);
}
END_TEST

Suite *heap_suite(void)
{
	Suite *s = suite_create("heap");
	TCase *tc = tcase_create("heap");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_ties_by_id);
	tcase_add_test(tc, test_merge_streams);
	suite_add_tcase(s, tc);
	return s;
}
