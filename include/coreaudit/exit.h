/*
 * exit.h - the exit codes of every coreaudit mode, documented once.
 */
#ifndef COREAUDIT_EXIT_H
#define COREAUDIT_EXIT_H

enum ca_exit_code {
	CA_EXIT_PASS = 0,		/* every check held */
	CA_EXIT_FAIL = 1,		/* a violation, or a threshold exceeded */
	CA_EXIT_USAGE = 2,		/* bad command line */
	CA_EXIT_INPUT = 3,		/* bad or unreadable input */
	CA_EXIT_INCONCLUSIVE = 4,	/* lost events, unknown cookies, local clock */
};

#endif
