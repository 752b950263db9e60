/*
 * test-json.c - the JSON report, schema 2, read back with json-c: cookies as
 * hex strings, reasons as objects, violations of every check counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "coreaudit/report.h"
#include "report/jsonlist.h"
#include "scenario.h"

#define BIG_COOKIE_A 0xffff888000760d58ull	/* kernel addresses: above 2^53 */
#define BIG_COOKIE_B 0xffff888000760d50ull

/* The JSON report of @audit, parsed (the caller puts it). */
static struct json_object *report_of(const struct ca_audit *audit)
{
	struct ca_report_options opts = { .top = 10 };
	struct json_object *root;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	ca_report_json(out, audit, &opts);
	fclose(out);
	root = json_tokener_parse(text);
	free(text);
	ck_assert_ptr_nonnull(root);
	return root;
}

/* The value at a path of keys and array indexes: "windows", "list", "0", ... */
static struct json_object *at(struct json_object *obj, const char *path)
{
	char copy[200], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", path);
	for (char *key = strtok_r(copy, ".", &save); key && obj; key = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(obj, json_type_array))
			obj = json_object_array_get_idx(obj, (size_t)atoi(key));
		else if (!json_object_object_get_ex(obj, key, &obj))
			obj = NULL;
	}
	ck_assert_msg(obj != NULL, "no %s in the JSON report", path);
	return obj;
}

static const char *text_at(struct json_object *root, const char *path)
{
	return json_object_get_string(at(root, path));
}

static int64_t int_at(struct json_object *root, const char *path)
{
	return json_object_get_int64(at(root, path));
}

/* Two tasks of cookies that differ only below bit 4, sharing the core for 10 ms. */
START_TEST(test_cookies_are_hex_strings)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct json_object *root;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, BIG_COOKIE_A);
	sc_switch(&t, 1, T0 + 1 * MS, 0, "R", 200, true, 0, BIG_COOKIE_B);
	sc_switch(&t, 0, T0 + 11 * MS, 100, "S", 0, true, BIG_COOKIE_A, 0);
	sc_switch(&t, 1, T0 + 12 * MS, 200, "S", 0, true, BIG_COOKIE_B, 0);
	test_options(&opts, NULL);
	opts.has_grace = true;	/* no ipi events: the user's 5 ms alone decides */
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_FAIL);
	root = report_of(&audit);
	ck_assert_int_eq(int_at(root, "version"), 2);
	ck_assert_str_eq(text_at(root, "windows.list.0.tasks.0.cookie"), "0xffff888000760d58");
	ck_assert_str_eq(text_at(root, "windows.list.0.tasks.1.cookie"), "0xffff888000760d50");
	ck_assert_int_eq(int_at(root, "forced_idle.per_task.0.pid"), 200);
	ck_assert_str_eq(text_at(root, "forced_idle.per_task.0.cookie"), "0xffff888000760d50");
	ck_assert_int_eq(int_at(root, "violations"), 1);
	ck_assert_int_eq(int_at(root, "violations_by_check.isolation"), 1);
	ck_assert_str_eq(text_at(root, "reasons.0.check"), "isolation");
	ck_assert_str_eq(text_at(root, "reasons.0.verdict"), "fail");
	ck_assert_int_eq(int_at(root, "reasons.0.value"), 1);
	ck_assert_int_eq(int_at(root, "reasons.0.threshold"), 5 * MS);
	ck_assert_str_eq(text_at(root, "reasons.0.threshold_unit"), "ns");
	json_object_put(root);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A FAIL from a rule file alone counts in violations (it showed 0 in schema 1). */
START_TEST(test_rule_violations_counted)
{
	const char rules[] = "tag A marker A\ntag B marker B\nisolate A B\n";
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct json_object *root;
	struct ca_audit audit;

	sc_marker(&t, 0, T0, 100, "coreaudit-tag pid=100 tag=A");
	sc_marker(&t, 1, T0, 200, "coreaudit-tag pid=200 tag=B");
	sc_switch(&t, 0, T0 + 1 * MS, 100, "R", 100, false, 0, 0);
	sc_switch(&t, 1, T0 + 2 * MS, 200, "R", 200, false, 0, 0);
	sc_switch(&t, 0, T0 + 20 * MS, 100, "S", 0, false, 0, 0);
	sc_switch(&t, 1, T0 + 21 * MS, 200, "S", 0, false, 0, 0);
	test_options(&opts, NULL);
	opts.assume_unknown_cookie_zero = true;
	ck_assert_msg(audit_text_with_rules(&audit, &t, &opts, rules) == CA_RESULT_FAIL, "%s",
		      audit.error);
	root = report_of(&audit);
	ck_assert_int_eq(int_at(root, "violations"), 1);
	ck_assert_int_eq(int_at(root, "violations_by_check.isolation"), 0);
	ck_assert_int_eq(int_at(root, "violations_by_check.rules"), 1);
	ck_assert_str_eq(text_at(root, "reasons.0.check"), "rules");
	ck_assert_int_eq(int_at(root, "reasons.0.line"), 3);
	ck_assert_int_eq(int_at(root, "rules.relations.0.violations"), 1);
	ck_assert_int_eq(audit.pipeline->policy.per_core_violations[0], 1);
	json_object_put(root);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* A CPU never seen: a coverage reason naming it, and the unobserved list. */
START_TEST(test_coverage_reason_object)
{
	struct trace_text t = { 0 };
	struct ca_audit_options opts;
	struct json_object *root;
	struct ca_audit audit;

	sc_switch(&t, 0, T0, 0, "R", 100, true, 0, 7);
	sc_switch(&t, 0, T0 + 9 * MS, 100, "S", 0, true, 7, 0);
	test_options(&opts, NULL);
	ck_assert_int_eq(audit_text(&audit, &t, &opts), CA_RESULT_INCONCLUSIVE);
	root = report_of(&audit);
	ck_assert_str_eq(text_at(root, "reasons.0.check"), "coverage");
	ck_assert_str_eq(text_at(root, "reasons.0.verdict"), "inconclusive");
	ck_assert_int_eq(int_at(root, "reasons.0.cpu"), 1);
	ck_assert_int_eq(int_at(root, "reasons.0.value"), 9 * MS);
	ck_assert_double_eq(json_object_get_double(at(root, "trace.observed_pct")), 50.0);
	ck_assert_int_eq(int_at(root, "trace.unobserved.0.cpu"), 1);
	ck_assert_int_eq(int_at(root, "trace.unobserved.0.by_cause.never-seen.total_ns"), 9 * MS);
	json_object_put(root);
	ca_audit_free(&audit);
	trace_free(&t);
}
END_TEST

/* Item @index of the lists below: nested, escapes, and a null. */
static struct json_object *list_item(void *ctx, size_t index)
{
	struct json_object *obj, *inner;

	(void)ctx;
	if (index == 1)
		return NULL;
	obj = json_object_new_object();
	inner = json_object_new_array();
	json_object_array_add(inner, json_object_new_int((int)index));
	json_object_array_add(inner, json_object_new_object());
	json_object_object_add(obj, "comm", json_object_new_string("a/b\n\"c\""));
	json_object_object_add(obj, "nested", inner);
	json_object_object_add(obj, "empty", json_object_new_array());
	return obj;
}

static void count_free(void *ctx)
{
	++*(int *)ctx;
}

/* {"a": {"list": LIST}} printed with @flags; the caller frees the text. */
static char *printed_in(struct json_object *list, int flags)
{
	struct json_object *root = json_object_new_object(), *a = json_object_new_object();
	char *text;

	json_object_object_add(a, "list", list);
	json_object_object_add(root, "a", a);
	text = strdup(json_object_to_json_string_ext(root, flags));
	json_object_put(root);
	return text;
}

/* A list built as it prints reads as json-c's own array of the same items, byte for byte. */
START_TEST(test_list_prints_as_built)
{
	static const int flags[] = {
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE,
		JSON_C_TO_STRING_PLAIN, JSON_C_TO_STRING_SPACED,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_PRETTY_TAB,
	};
	static const size_t counts[] = { 0, 1, 3 };

	for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			struct json_object *built = json_object_new_array();
			int freed = 0;
			char *want, *got;

			for (size_t i = 0; i < counts[c]; i++)
				json_object_array_add(built, list_item(NULL, i));
			want = printed_in(built, flags[f]);
			got = printed_in(ca_json_list(counts[c], list_item, &freed, count_free),
					 flags[f]);
			ck_assert_str_eq(got, want);
			ck_assert_int_eq(freed, 1);
			free(want);
			free(got);
		}
	}
}
END_TEST

Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, test_cookies_are_hex_strings);
	tcase_add_test(tc, test_rule_violations_counted);
	tcase_add_test(tc, test_coverage_reason_object);
	tcase_add_test(tc, test_list_prints_as_built);
	suite_add_tcase(s, tc);
	return s;
}
