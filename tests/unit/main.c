/*
 * main.c - run every unit suite; TAP on stdout; fails when any test fails.
 */
#include <stdlib.h>

#include "helpers.h"

int main(void)
{
	SRunner *runner = srunner_create(duration_suite());
	int failed;

	srunner_add_suite(runner, topology_suite());
	srunner_add_suite(runner, text_suite());
	srunner_add_suite(runner, isolation_suite());
	srunner_add_suite(runner, forcedidle_suite());
	srunner_add_suite(runner, reselect_suite());
	srunner_add_suite(runner, inversion_suite());
	srunner_add_suite(runner, unjust_suite());
	srunner_add_suite(runner, smt_suite());
	srunner_add_suite(runner, accounting_suite());
	srunner_add_suite(runner, cookies_suite());
	srunner_add_suite(runner, audit_suite());
	srunner_add_suite(runner, causes_suite());
	srunner_add_suite(runner, rules_suite());
	srunner_add_suite(runner, stats_suite());
	srunner_add_suite(runner, coverage_suite());
	srunner_add_suite(runner, json_suite());
	srunner_add_suite(runner, tourney_suite());
	srunner_add_suite(runner, automata_suite());
	srunner_add_suite(runner, livefit_suite());
	srunner_add_suite(runner, corun_suite());
	srunner_add_suite(runner, decode_suite());
	srunner_set_tap(runner, "-");
	srunner_run_all(runner, CK_SILENT);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
