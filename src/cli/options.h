/*
 * options.h - one option table per mode: the getopt strings, the parsing of
 * every value and the --help text are all built from it, so every mode reads
 * a duration, a percentage or a count the same way and says the same thing
 * when it cannot.  Not the modes' meaning of their options: that stays in
 * cmd-<mode>.c.
 */
#ifndef CA_CLI_OPTIONS_H
#define CA_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "coreaudit/audit.h"
#include "coreaudit/topology.h"
#include "exit.h"

enum ca_opt_kind {
	CA_OPT_FLAG,		/* no value */
	CA_OPT_TEXT,		/* a file name or command: any non-empty text */
	CA_OPT_FILE_EACH,	/* a file name, the option given once per file (-i A -i B) */
	CA_OPT_CHOICE,		/* one word of .choices ("records|pages") */
	CA_OPT_DURATION,	/* ca_parse_duration(): 1ns and up, with a unit */
	CA_OPT_SECONDS,		/* the same, or a bare number of seconds (rtla's -d 10) */
	CA_OPT_TIME,		/* a trace timestamp in seconds ("5612.345678", as
				 * trace-cmd report prints it), or "+" and CA_OPT_SECONDS
				 * after the trace's first event ("+2s", "+1.5") */
	CA_OPT_PERCENT,		/* ca_parse_percent(): 0 to 100 */
	CA_OPT_COUNT,		/* ca_parse_count(): 1 to .max */
	CA_OPT_COUNT0,		/* ca_parse_count(): 0 (off) to .max */
	CA_OPT_TOPOLOGY,	/* ca_topology_parse() */
	CA_OPT_CPUS,		/* a CPU list, ca_cpu_list_parse(): kept as text */
};

struct ca_option {
	int id;			/* the short option's letter, or CA_LONG_ONLY(letter) */
	const char *name;	/* long name, without "--" */
	enum ca_opt_kind kind;
	const char *metavar;	/* "DUR", "FILE"; for a choice, what --help shows */
	const char *help;	/* --help text, lines separated by '\n' */
	const char *choices;	/* CA_OPT_CHOICE: the words, separated by '|' */
	uint64_t max;		/* CA_OPT_COUNT, CA_OPT_COUNT0: the largest value */
};

/* An option with no short form: an id out of getopt's letters. */
#define CA_LONG_ONLY(letter) ((letter) + 256)

/* Table rows: an option, a choice among words, a count up to a maximum. */
#define CA_OPTION(id, name, kind, metavar, help) { id, name, kind, metavar, help, NULL, 0 }
#define CA_OPTION_CHOICE(id, name, metavar, help, choices) \
	{ id, name, CA_OPT_CHOICE, metavar, help, choices, 0 }
#define CA_OPTION_COUNT(id, name, metavar, help, max) \
	{ id, name, CA_OPT_COUNT, metavar, help, NULL, max }
#define CA_OPTION_COUNT0(id, name, metavar, help, max) \
	{ id, name, CA_OPT_COUNT0, metavar, help, NULL, max }

/* A parsed value, by the option's kind. */
struct ca_opt_value {
	const char *text;	/* as given, for every kind */
	uint64_t ns;		/* CA_OPT_DURATION, CA_OPT_SECONDS, CA_OPT_TIME */
	bool is_relative;	/* CA_OPT_TIME: "+..." */
	double pct;		/* CA_OPT_PERCENT */
	uint64_t count;		/* CA_OPT_COUNT */
	int choice;		/* CA_OPT_CHOICE: index into .choices */
	struct ca_topology topology;	/* CA_OPT_TOPOLOGY */
};

struct ca_cli_mode {
	const char *name;		/* "audit" */
	const char *synopsis;		/* "[OPTIONS] FILE" */
	const char *description;	/* paragraphs before the options */
	const char *epilogue;		/* exit status and examples, after them */
	const struct ca_option *options;
	int option_count;
	bool stops_at_operand;		/* options end at the first operand (record's CMD) */
};

/* Store one parsed option of @mode.  Return: 0, or negative to stop (message printed). */
typedef int (*ca_opt_apply_fn)(void *ctx, int id, const struct ca_opt_value *value);

/**
 * ca_cli_parse() - parse @argv by @mode's table, calling @apply once per option
 *
 * A value that does not parse, an option with a value given twice, an
 * unknown option or a missing value is a usage error, printed as
 * "coreaudit: --NAME \"VALUE\": expected ...".  --help prints the usage.
 *
 * Return: the index of the first operand in @argv; -1 after --help; -2 on a
 *         usage error (printed).
 */
int ca_cli_parse(const struct ca_cli_mode *mode, int argc, char **argv, ca_opt_apply_fn apply,
		 void *ctx);

/**
 * ca_cli_apply_audit_option() - store an option that audit and monitor share
 *                               (topology, tags, rules, grace, thresholds...)
 * Return: true when @id was one of them.
 */
bool ca_cli_apply_audit_option(struct ca_audit_options *opts, int id,
			       const struct ca_opt_value *value);

/** ca_cli_usage() - print @mode's --help from its table */
void ca_cli_usage(const struct ca_cli_mode *mode);

/**
 * ca_cli_parse_reports() - --report's comma-separated words (capacity, fairness,
 *                          exposure) into CA_SMT_REPORT_* bits of *@reports
 * Return: 0, or -1 after a message naming @mode and the word that is none.
 */
int ca_cli_parse_reports(const char *mode, const char *text, unsigned int *reports);

#endif
