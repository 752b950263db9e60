/*
 * exit.h - the exit codes of every coreaudit mode, documented once, and the
 * one mapping from the library's results to them.
 */
#ifndef CA_CLI_EXIT_H
#define CA_CLI_EXIT_H

#include "coreaudit/result.h"

enum ca_exit_code {
	CA_EXIT_PASS = 0,		/* every check held */
	CA_EXIT_FAIL = 1,		/* a violation, or a threshold exceeded */
	CA_EXIT_USAGE = 2,		/* bad command line */
	CA_EXIT_INPUT = 3,		/* bad or unreadable input */
	CA_EXIT_INCONCLUSIVE = 4,	/* lost events, unknown cookies, local clock */
};

/** ca_exit_for() - Return: the exit status that says @result. */
static inline enum ca_exit_code ca_exit_for(enum ca_result result)
{
	switch (result) {
	case CA_RESULT_PASS:
		return CA_EXIT_PASS;
	case CA_RESULT_FAIL:
		return CA_EXIT_FAIL;
	case CA_RESULT_INCONCLUSIVE:
		return CA_EXIT_INCONCLUSIVE;
	case CA_RESULT_BAD_OPTIONS:
		return CA_EXIT_USAGE;
	case CA_RESULT_BAD_INPUT:
		break;
	}
	return CA_EXIT_INPUT;
}

#endif
