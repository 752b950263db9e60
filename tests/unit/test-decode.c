/*
 * test-decode.c - the plausibility of a raw record's fields (decode.c), as
 * the page checks ask it: comms with control characters anywhere in their
 * 16 bytes, before and after the NUL that ends them, against the byte rule
 * (a comm up to its NUL holds no byte below 0x20 and no DEL); and the page
 * check's rules for what no kernel writes (pages.c): a zeroed page, padding
 * that runs past the page's events; and a switch paired with its cookie probe
 * by the reader.
 */
#include <errno.h>
#include <event-parse.h>
#include <string.h>

#include "helpers.h"
#include "sources/decode.h"
#include "sources/pages.h"

#define SWITCH_ID 316

/* Every event's first fields, as tracefs prints them. */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

static const char switch_format[] =
	"name: sched_switch\n"
	"ID: 316\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s next_comm=%s\", REC->prev_comm, REC->next_comm\n";

#define PROBE_ID 2000

static const char probe_format[] =
	"name: cs_switch\n"
	"ID: 2000\n"
	"format:\n"
	COMMON_FIELDS
	"\n"
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 prev_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:s32 next_pid;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 prev_cookie;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 next_cookie;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx)\", REC->__probe_ip\n";

struct switch_fixture {
	struct tep_handle *tep;
	struct ca_decoders decoders;
	unsigned char record[64];
};

/* A tep with sched_switch (and @extra_format, a second event's, unless NULL), decoded. */
static void fixture_open_with(struct switch_fixture *f, const char *extra_format)
{
	struct ca_source_info info;
	int32_t pid = 42, prio = 120;
	uint16_t id = SWITCH_ID;

	memset(&info, 0, sizeof(info));
	f->tep = tep_alloc();
	ck_assert_ptr_nonnull(f->tep);
	tep_set_long_size(f->tep, 8);
	tep_set_file_bigendian(f->tep, tep_is_local_bigendian(f->tep));
	ck_assert_int_eq(tep_parse_event(f->tep, switch_format, sizeof(switch_format) - 1,
					 "sched"), 0);
	if (extra_format)
		ck_assert_int_eq(tep_parse_event(f->tep, extra_format, strlen(extra_format),
						 "kprobes"), 0);
	ck_assert_int_eq(ca_decoders_build(&f->decoders, f->tep, &info), 0);
	ck_assert(info.has_cookie_probe == (extra_format == probe_format));
	memset(f->record, 0, sizeof(f->record));
	memcpy(f->record, &id, 2);
	memcpy(f->record + 4, &pid, 4);
	memcpy(f->record + 24, &pid, 4);
	memcpy(f->record + 28, &prio, 4);
	memcpy(f->record + 40, "sh", 2);
	memcpy(f->record + 56, &pid, 4);
	memcpy(f->record + 60, &prio, 4);
}

static void fixture_open(struct switch_fixture *f)
{
	fixture_open_with(f, NULL);
}

static void fixture_close(struct switch_fixture *f)
{
	ca_decoders_free(&f->decoders);
	tep_free(f->tep);
}

/* Whether a switch whose prev_comm is these 16 bytes is plausible. */
static bool is_plausible_prev_comm(const unsigned char comm[16])
{
	struct switch_fixture f;
	bool is_plausible;

	fixture_open(&f);
	memcpy(f.record + 8, comm, 16);
	is_plausible = ca_decoders_plausible(&f.decoders, f.record, sizeof(f.record));
	fixture_close(&f);
	return is_plausible;
}

/* The byte rule, one byte at a time: what the word-wise check must agree with. */
static bool byte_rule(const unsigned char comm[16])
{
	for (int i = 0; i < 16 && comm[i]; i++)
		if (comm[i] < 0x20 || comm[i] == 0x7f)
			return false;
	return true;
}

START_TEST(test_comms_named)
{
	static const struct {
		const char *bytes;	/* 16 bytes */
		bool is_plausible;
	} cases[] = {
		{ "stress-ng-switch", true },		/* 16 printable bytes, no NUL */
		{ "sh\0\x01\x02\x7f\x1b garbage..", true },	/* anything after the NUL */
		{ "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", true },	/* empty */
		{ "kworker/0:1\x01\0\0\0\0", false },	/* a control character in the second word */
		{ "kworke\x1f\0\0\0\0\0\0\0\0\0", false },	/* at the first word's end */
		{ "kworker/\x0a\0\0\0\0\0\0\0", false },	/* at the second word's start */
		{ "abcdefghijklmno\x01", false },	/* the last byte */
		{ "ab\x7f" "cd\0\0\0\0\0\0\0\0\0\0\0", false },	/* DEL */
		{ "abcdefgh\x7f\0\0\0\0\0\0\0", false },	/* DEL in the second word */
		{ "abc\0\x7f\0\0\0\0\0\0\0\0\0\0\0", true },	/* DEL after the NUL */
		{ "abcdefgh\0\x01\0\0\0\0\0\0", true },	/* the NUL starts the second word */
		{ "caf\xc3\xa9\0\0\0\0\0\0\0\0\0\0\0", true },	/* UTF-8 */
		{ "\xff\xfe\x80\x81\x9f\xa0\0\0\0\0\0\0\0\0\0\0", true },	/* high bytes */
		{ " ~!\0\0\0\0\0\0\0\0\0\0\0\0\0", true },	/* the printable range's ends */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const unsigned char *comm = (const unsigned char *)cases[i].bytes;

		ck_assert_msg(byte_rule(comm) == cases[i].is_plausible, "case %zu: the rule", i);
		ck_assert_msg(is_plausible_prev_comm(comm) == cases[i].is_plausible, "case %zu", i);
	}
}
END_TEST

/* Every byte value at every position, the rest printable or cut by a NUL before or after. */
START_TEST(test_comms_every_byte)
{
	struct switch_fixture f;
	unsigned char comm[16];

	fixture_open(&f);
	for (int nul_at = -1; nul_at < 16; nul_at += 5) {
		for (int at = 0; at < 16; at++) {
			for (int value = 0; value < 256; value++) {
				memset(comm, 'a', sizeof(comm));
				if (nul_at >= 0)
					comm[nul_at] = 0;
				comm[at] = (unsigned char)value;
				memcpy(f.record + 8, comm, 16);
				ck_assert_msg(ca_decoders_plausible(&f.decoders, f.record,
								    sizeof(f.record)) ==
					      byte_rule(comm),
					      "byte 0x%02x at %d, NUL at %d", value, at, nul_at);
			}
		}
	}
	fixture_close(&f);
}
END_TEST

/* A page of one switch at 1000 + 5 ns, then @tail (its header word and length) when given. */
static void page_with(unsigned char page[4096], const struct switch_fixture *f,
		      const uint32_t *tail, uint64_t commit)
{
	uint64_t ts = 1000;
	uint32_t header = 5u << 5 | 16;	/* delta 5, 16 words of data */

	memset(page, 0, 4096);
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16, &header, 4);
	memcpy(page + 20, f->record, 64);
	if (tail)
		memcpy(page + 84, tail, 8);
}

static int check_page(const struct switch_fixture *f, const unsigned char *page,
		      struct ca_page_summary *sum)
{
	struct ca_page_rules rules;

	ca_page_rules_for(&rules, f->tep, 4096);
	rules.long_size = 8;
	return ca_page_check(&rules, page, 0, sum);
}

START_TEST(test_pages_kernels_write)
{
	const uint32_t discarded[2] = { 1u << 5 | 29, 8 };	/* padding of 8 bytes, to the commit */
	const uint32_t null_event[2] = { 29, 0x40000000 };	/* delta 0: the rest of the page */
	struct ca_page_summary sum;
	struct switch_fixture f;
	unsigned char page[4096];
	uint64_t ts = 7;

	fixture_open(&f);
	page_with(page, &f, NULL, 68);
	ck_assert_int_eq(check_page(&f, page, &sum), 0);
	ck_assert_int_eq(sum.event_count, 1);
	ck_assert_uint_eq(sum.last_ts, 1005);
	page_with(page, &f, discarded, 68 + 12);
	ck_assert_int_eq(check_page(&f, page, &sum), 0);
	ck_assert_int_eq(sum.event_count, 1);
	page_with(page, &f, null_event, 68 + 8);
	ck_assert_int_eq(check_page(&f, page, &sum), 0);
	ck_assert_int_eq(sum.event_count, 1);
	memset(page, 0, sizeof(page));
	memcpy(page, &ts, 8);		/* no events, a time: empty, not damage */
	ck_assert_int_eq(check_page(&f, page, &sum), 0);
	ck_assert_int_eq(sum.event_count, 0);
	fixture_close(&f);
}
END_TEST

START_TEST(test_pages_no_kernel_writes)
{
	const uint32_t past[2] = { 1u << 5 | 29, 0x40000000 };	/* delta 1, past the commit */
	const uint32_t short_by[2] = { 1u << 5 | 29, 12 };	/* 4 bytes past it */
	struct ca_page_summary sum;
	struct switch_fixture f;
	unsigned char page[4096];

	fixture_open(&f);
	memset(page, 0, sizeof(page));
	ck_assert_int_eq(check_page(&f, page, &sum), -EINVAL);
	ck_assert_str_eq(sum.why, "a page of zeros (its header too) where events were");
	page_with(page, &f, past, 68 + 12);
	ck_assert_int_eq(check_page(&f, page, &sum), -EINVAL);
	ck_assert_str_eq(sum.why, "an event header runs past the page's events");
	page_with(page, &f, short_by, 68 + 12);
	ck_assert_int_eq(check_page(&f, page, &sum), -EINVAL);
	fixture_close(&f);
}
END_TEST

/* A page that starts before the one before it ends: a split, when sound on its own. */
START_TEST(test_pages_time_split)
{
	const uint32_t behind_self[2] = { 1u << 5 | 16, 0 };	/* a second switch, its data zeros */
	struct ca_page_rules rules;
	struct switch_fixture f;
	unsigned char page[4096];

	fixture_open(&f);
	ca_page_rules_for(&rules, f.tep, 4096);
	rules.long_size = 8;
	page_with(page, &f, NULL, 68);			/* one switch at 1005 */
	ck_assert(ca_page_is_time_split(&rules, page, 1006));
	ck_assert(!ca_page_is_time_split(&rules, page, 1005));	/* a tie goes on */
	ck_assert(!ca_page_is_time_split(&rules, page, 900));
	page_with(page, &f, behind_self, 68 + 68);	/* not sound on its own: its own damage */
	ck_assert(!ca_page_is_time_split(&rules, page, 1006));
	fixture_close(&f);
}
END_TEST

/* A cs_switch probe record of these pids and cookies. */
static void probe_record(unsigned char record[40], int32_t prev_pid, int32_t next_pid)
{
	uint16_t id = PROBE_ID;
	uint64_t prev_cookie = 0xffff888000760d58ull, next_cookie = 0xffff888000760d50ull;

	memset(record, 0, 40);
	memcpy(record, &id, 2);
	memcpy(record + 16, &prev_pid, 4);
	memcpy(record + 20, &next_pid, 4);
	memcpy(record + 24, &prev_cookie, 8);
	memcpy(record + 32, &next_cookie, 8);
}

static int keep_event(void *ctx, const struct ca_event *ev)
{
	*(struct ca_event *)ctx = *ev;
	return 0;
}

/*
 * The stream's pairing done by the reader (decode.c): a switch and the probe
 * right after it, of the same pids, whole and with nothing lost, go out as one
 * switch with the probe's cookies; any other next record leaves the switch alone.
 */
START_TEST(test_switch_pairs_with_its_probe)
{
	struct switch_fixture f;
	unsigned char probe[40];
	struct tep_record sw = { .ts = 100, .cpu = 1, .size = 64 };
	struct tep_record next = { .ts = 101, .cpu = 1, .size = 40, .data = probe };
	struct ca_event ev;
	int32_t next_pid = 43;

	fixture_open_with(&f, probe_format);
	memcpy(f.record + 56, &next_pid, 4);
	sw.data = f.record;
	probe_record(probe, 42, 43);
	ck_assert(ca_decoders_pairs(&f.decoders, &sw, &next));
	ck_assert_int_eq(ca_decoders_emit_paired(&f.decoders, &sw, &next, keep_event, &ev), 0);
	ck_assert_int_eq(ev.kind, CA_EV_SWITCH);
	ck_assert_int_eq(ev.ts, 100);
	ck_assert_int_eq(ev.sw.prev_pid, 42);
	ck_assert_int_eq(ev.sw.next_pid, 43);
	ck_assert(ev.sw.has_cookies);
	ck_assert_uint_eq(ev.sw.prev_cookie, 0xffff888000760d58ull);
	ck_assert_uint_eq(ev.sw.next_cookie, 0xffff888000760d50ull);
	probe_record(probe, 42, 44);	/* another switch's probe */
	ck_assert(!ca_decoders_pairs(&f.decoders, &sw, &next));
	ck_assert_int_eq(ca_decoders_emit_paired(&f.decoders, &sw, &next, keep_event, &ev), -EINVAL);
	probe_record(probe, 42, 43);
	next.missed_events = 3;		/* events lost between them */
	ck_assert(!ca_decoders_pairs(&f.decoders, &sw, &next));
	next.missed_events = 0;
	next.size = 36;			/* a probe cut short */
	ck_assert(!ca_decoders_pairs(&f.decoders, &sw, &next));
	ck_assert(!ca_decoders_pairs(&f.decoders, &sw, &sw));	/* a switch after a switch */
	ck_assert(!ca_decoders_pairs(&f.decoders, &(struct tep_record){ .size = 40, .data = probe },
				     &next));			/* a probe first */
	fixture_close(&f);
}
END_TEST

Suite *decode_suite(void)
{
	Suite *s = suite_create("decode");
	TCase *tc = tcase_create("comms");

	tcase_add_test(tc, test_comms_named);
	tcase_add_test(tc, test_comms_every_byte);
	tcase_add_test(tc, test_switch_pairs_with_its_probe);
	suite_add_tcase(s, tc);
	tc = tcase_create("pages");
	tcase_add_test(tc, test_pages_kernels_write);
	tcase_add_test(tc, test_pages_no_kernel_writes);
	tcase_add_test(tc, test_pages_time_split);
	suite_add_tcase(s, tc);
	return s;
}
