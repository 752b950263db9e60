/*
 * test-stats.c - duration summaries: exact nearest-rank percentiles up to
 * CA_DURATIONS_EXACT values, then the histogram's bounded over-estimate;
 * count, total and max exact throughout.
 */
#include <stdlib.h>

#include "util/stats.h"
#include "helpers.h"

static const struct {
	uint64_t values[10];
	int count;
	uint64_t p50, p99, max;
} exact_rows[] = {
	{ { 7 }, 1, 7, 7, 7 },
	{ { 3, 1, 2 }, 3, 2, 3, 3 },
	{ { 10, 20, 30, 40 }, 4, 20, 40, 40 },
	{ { 5, 5, 5, 5, 5, 5, 5, 5, 5, 1000 }, 10, 5, 1000, 1000 },
};

START_TEST(test_exact_summary)
{
	struct ca_durations set = { 0 };
	struct ca_summary s;
	uint64_t total = 0;

	for (int i = 0; i < exact_rows[_i].count; i++) {
		ck_assert_int_eq(ca_durations_add(&set, exact_rows[_i].values[i]), 0);
		total += exact_rows[_i].values[i];
	}
	s = ca_durations_summary(&set);
	ck_assert_uint_eq(s.count, exact_rows[_i].count);
	ck_assert_uint_eq(s.total_ns, total);
	ck_assert_uint_eq(s.p50_ns, exact_rows[_i].p50);
	ck_assert_uint_eq(s.p99_ns, exact_rows[_i].p99);
	ck_assert_uint_eq(s.max_ns, exact_rows[_i].max);
	ck_assert(!s.is_approximate);
	ca_durations_free(&set);
}
END_TEST

START_TEST(test_empty_summary)
{
	struct ca_durations set = { 0 };
	struct ca_summary s = ca_durations_summary(&set);

	ck_assert_uint_eq(s.count, 0);
	ck_assert_uint_eq(s.p50_ns, 0);
	ck_assert_uint_eq(s.max_ns, 0);
}
END_TEST

/* 1..N us in a scrambled order: exact up to the limit, then the histogram. */
static struct ca_summary summary_of_range(struct ca_durations *set, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		ck_assert_int_eq(ca_durations_add(set, ((i * 7919) % n + 1) * 1000), 0);
	return ca_durations_summary(set);
}

START_TEST(test_exact_at_the_limit)
{
	struct ca_durations set = { 0 };
	struct ca_summary s = summary_of_range(&set, CA_DURATIONS_EXACT);

	ck_assert(!s.is_approximate);
	ck_assert_uint_eq(s.p50_ns, 32768000);
	ck_assert_uint_eq(s.p99_ns, 64881000);	/* rank ceil(0.99 * 65536) = 64881 */
	ck_assert_uint_eq(s.max_ns, 65536000);
	ca_durations_free(&set);
}
END_TEST

START_TEST(test_histogram_beyond_the_limit)
{
	const uint64_t n = 200000;	/* prime to 7919: every value once */
	struct ca_durations set = { 0 };
	struct ca_summary s = summary_of_range(&set, n);

	ck_assert(s.is_approximate);
	ck_assert_uint_eq(s.count, n);
	ck_assert_uint_eq(s.total_ns, n * (n + 1) / 2 * 1000);
	ck_assert_uint_eq(s.max_ns, n * 1000);
	/* True p50 100000 us and p99 198000 us: never below, at most 1/256 above. */
	ck_assert_uint_ge(s.p50_ns, 100000000);
	ck_assert_uint_le(s.p50_ns, 100000000 + 100000000 / 256);
	ck_assert_uint_ge(s.p99_ns, 198000000);
	ck_assert_uint_le(s.p99_ns, 198000000 + 198000000 / 256);
	ca_durations_free(&set);
	ck_assert_ptr_null(set.buckets);
	ck_assert_uint_eq(set.count, 0);
}
END_TEST

START_TEST(test_histogram_small_values_exact)
{
	struct ca_durations set = { 0 };
	struct ca_summary s;

	/* Below 256 ns every value has its own bucket: still exact. */
	for (int i = 0; i < CA_DURATIONS_EXACT + 1000; i++)
		ck_assert_int_eq(ca_durations_add(&set, i % 2 ? 9 : 200), 0);
	s = ca_durations_summary(&set);
	ck_assert(s.is_approximate);
	ck_assert_uint_eq(s.p50_ns, 9);
	ck_assert_uint_eq(s.p99_ns, 200);
	ck_assert_uint_eq(s.max_ns, 200);
	ca_durations_free(&set);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *suite = suite_create("stats");
	TCase *tc = tcase_create("durations");

	tcase_add_loop_test(tc, test_exact_summary, 0, sizeof(exact_rows) / sizeof(exact_rows[0]));
	tcase_add_test(tc, test_empty_summary);
	tcase_add_test(tc, test_exact_at_the_limit);
	tcase_add_test(tc, test_histogram_beyond_the_limit);
	tcase_add_test(tc, test_histogram_small_values_exact);
	suite_add_tcase(suite, tc);
	return suite;
}
