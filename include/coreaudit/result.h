/*
 * result.h - what an audit comes to, as the library says it.  The coreaudit
 * program maps it to its exit status (src/cli/exit.h); a program that links
 * libcoreaudit reads it as it likes.
 */
#ifndef COREAUDIT_RESULT_H
#define COREAUDIT_RESULT_H

enum ca_result {
	CA_RESULT_PASS,		/* every CPU observed over the span, every check held */
	CA_RESULT_FAIL,		/* the trace proves a violation, or a threshold was passed */
	CA_RESULT_INCONCLUSIVE,	/* neither: what is missing is in the audit's reasons */
	CA_RESULT_BAD_INPUT,	/* unreadable, damaged beyond use, or no trace: audit->error */
	CA_RESULT_BAD_OPTIONS,	/* options or a rule file that cannot be used: audit->error */
};

/** ca_result_name() - Return: "pass", "fail", "inconclusive", "bad-input" or "bad-options". */
const char *ca_result_name(enum ca_result result);

#endif
