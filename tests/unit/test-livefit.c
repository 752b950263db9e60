/*
 * test-livefit.c - the live source's needs per CPU fitted to the machine
 * (sources/livefit.c): the open-file limit raised for 512 CPUs, or refused
 * with what to raise; ring buffers shrunk to 1/16 of the memory.  Check runs
 * each test in a child of its own: the limits changed here end with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sources/livefit.h"
#include "helpers.h"

START_TEST(test_files_raised_for_512_cpus)
{
	struct rlimit limit = { .rlim_cur = 1024, .rlim_max = 4096 };
	char note[300] = "", err[200] = "";

	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
	ck_assert_int_eq(ca_live_fit_files(512, note, sizeof(note), err, sizeof(err)), 0);
	ck_assert_str_eq(note, "the open-file limit raised from 1024 to 1600 (3 files for each "
			 "of 512 CPUs)");
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &limit), 0);
	ck_assert_uint_eq(limit.rlim_cur, 1600);
	note[0] = '\0';		/* enough already: nothing said */
	ck_assert_int_eq(ca_live_fit_files(2, note, sizeof(note), err, sizeof(err)), 0);
	ck_assert_str_eq(note, "");
}
END_TEST

START_TEST(test_files_refused_past_the_hard_limit)
{
	struct rlimit limit = { .rlim_cur = 256, .rlim_max = 512 };
	char note[300] = "", err[200] = "";

	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
	ck_assert_int_eq(ca_live_fit_files(512, note, sizeof(note), err, sizeof(err)), -EMFILE);
	ck_assert_str_eq(err, "512 CPUs need 1600 open files (3 each), and the hard limit is 512: "
			 "raise it (ulimit -Hn, or LimitNOFILE= in a systemd unit)");
	ck_assert_str_eq(note, "");
}
END_TEST

START_TEST(test_buffers_fit_the_memory)
{
	unsigned long long memory_kb = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
				       (sysconf(_SC_PAGE_SIZE) / 1024);
	unsigned long long room_kb = memory_kb / 16 / 8192;
	char note[300] = "", want[300];

	/* 8 MiB for 2 CPUs fits any machine that runs this: asked, kept, nothing said */
	ck_assert_uint_eq(ca_live_fit_buffer_kb(8192, 2, note, sizeof(note)), 8192);
	ck_assert_str_eq(note, "");
	/* 8192 CPUs of 8 MiB would want 64 GiB: 1/16 of the memory, at least 256 KiB */
	if (room_kb < 256)
		room_kb = 256;
	if (room_kb >= 8192)
		return;		/* a machine of 1 TiB or more: they fit */
	ck_assert_uint_eq(ca_live_fit_buffer_kb(8192, 8192, note, sizeof(note)), room_kb);
	snprintf(want, sizeof(want), "ring buffers of %llu KiB a CPU, not 8192: 8192 CPUs share "
		 "1/16 of the machine's %llu MiB", room_kb, memory_kb / 1024);
	ck_assert_str_eq(note, want);
	/* never more than asked, whatever the room */
	ck_assert_uint_eq(ca_live_fit_buffer_kb(128, 8192, note, sizeof(note)), 128);
}
END_TEST

Suite *livefit_suite(void)
{
	Suite *s = suite_create("livefit");
	TCase *tc = tcase_create("livefit");

	tcase_add_test(tc, test_files_raised_for_512_cpus);
	tcase_add_test(tc, test_files_refused_past_the_hard_limit);
	tcase_add_test(tc, test_buffers_fit_the_memory);
	suite_add_tcase(s, tc);
	return s;
}
