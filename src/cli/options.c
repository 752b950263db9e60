/*
 * options.c - getopt_long driven by a mode's option table (options.h): the
 * short and long option lists and --help are built from the table, every
 * value is parsed by its kind's one parser, and each message names the
 * option and the value.  Knows nothing of what the options mean.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "coreaudit/number.h"
#include "cli.h"
#include "options.h"

#define MAX_OPTIONS 48
#define HELP_COLUMN 28

static bool has_short(const struct ca_option *opt)
{
	return opt->id > ' ' && opt->id < 127;
}

static bool has_value(const struct ca_option *opt)
{
	return opt->kind != CA_OPT_FLAG;
}

/* The getopt strings for @mode; --help is every mode's. */
static void build_getopt(const struct ca_cli_mode *mode, char *shorts, struct option *longs)
{
	char *s = shorts;

	if (mode->stops_at_operand)
		*s++ = '+';
	*s++ = ':';
	for (int i = 0; i < mode->option_count; i++) {
		const struct ca_option *opt = &mode->options[i];

		if (has_short(opt)) {
			*s++ = (char)opt->id;
			if (has_value(opt))
				*s++ = ':';
		}
		longs[i] = (struct option){ opt->name, has_value(opt) ? required_argument :
						       no_argument, NULL, opt->id };
	}
	*s = '\0';
	longs[mode->option_count] = (struct option){ NULL, 0, NULL, 0 };
}

static int find_option(const struct ca_cli_mode *mode, int id)
{
	for (int i = 0; i < mode->option_count; i++)
		if (mode->options[i].id == id)
			return i;
	return -1;
}

static int bad_value(const struct ca_option *opt, const char *text, const char *expected)
{
	ca_cli_error("--%s \"%s\": expected %s", opt->name, text, expected);
	return -EINVAL;
}

/* "records|pages" as "records or pages" */
static void list_choices(const char *choices, char *buf, size_t len)
{
	const char *last = strrchr(choices, '|');
	size_t used = 0;

	buf[0] = '\0';
	for (const char *word = choices; *word && used < len; ) {
		size_t word_len = strcspn(word, "|");

		used += snprintf(buf + used, len - used, "%s%.*s",
				 word == choices ? "" : word == last + 1 ? " or " : ", ",
				 (int)word_len, word);
		word += word_len + (word[word_len] == '|');
	}
}

static int parse_choice(const struct ca_option *opt, const char *text, int *choice)
{
	const char *word = opt->choices;
	char expected[160];

	for (int i = 0; *word; i++) {
		size_t len = strcspn(word, "|");

		if (strlen(text) == len && !strncmp(text, word, len)) {
			*choice = i;
			return 0;
		}
		word += len + (word[len] == '|');
	}
	list_choices(opt->choices, expected, sizeof(expected));
	return bad_value(opt, text, expected);
}

/* A bare number of seconds ("10", "5612.345678") or a duration with its unit. */
static int parse_seconds(const char *text, uint64_t *ns)
{
	char with_unit[64];

	if (!*text || text[strspn(text, "0123456789.")] != '\0')
		return ca_parse_duration(text, ns);
	if (strlen(text) > 60)
		return -ERANGE;
	snprintf(with_unit, sizeof(with_unit), "%.60ss", text);
	return ca_parse_duration(with_unit, ns);
}

/* A CPU list: checked here, read again once the topology is known. */
static int parse_cpus(const struct ca_option *opt, const char *text)
{
	char err[160];
	bool *cpus;
	int count;

	if (!ca_cpu_list_parse(text, &cpus, &count, err, sizeof(err))) {
		free(cpus);
		return 0;
	}
	ca_cli_error("--%s \"%s\": %s", opt->name, text, err);
	return -EINVAL;
}

static int parse_value(const struct ca_option *opt, const char *text, struct ca_opt_value *value)
{
	char err[160], expected[200];
	int ret;

	value->text = text;
	switch (opt->kind) {
	case CA_OPT_FLAG:
		return 0;
	case CA_OPT_TEXT:
	case CA_OPT_FILE_EACH:
		return *text ? 0 : bad_value(opt, text, "a non-empty value");
	case CA_OPT_CHOICE:
		return parse_choice(opt, text, &value->choice);
	case CA_OPT_TIME:
		value->is_relative = text[0] == '+';
		if (parse_seconds(text + value->is_relative, &value->ns))
			return bad_value(opt, text, "a trace timestamp in seconds (e.g. 5612.345678), "
					 "or + and a time after the first event (e.g. +2s, +1.5)");
		return 0;
	case CA_OPT_SECONDS:
		if (*text && text[strspn(text, "0123456789.")] == '\0') {
			ret = parse_seconds(text, &value->ns);
			return ret ? bad_value(opt, text, "a number of seconds, or a duration with a "
					       "unit: ns, us, ms or s (e.g. 10 or 500ms)") : 0;
		}
		__attribute__((fallthrough));	/* a duration with its unit */
	case CA_OPT_DURATION:
		ret = ca_parse_duration(text, &value->ns);
		if (ret == -ERANGE)
			return bad_value(opt, text, "a duration from 1ns to 9223372036s in whole "
					 "nanoseconds");
		if (ret)
			return bad_value(opt, text, "a number with a unit: ns, us, ms or s (e.g. 2ms)");
		return 0;
	case CA_OPT_PERCENT:
		return ca_parse_percent(text, &value->pct) ?
		       bad_value(opt, text, "a percentage from 0 to 100") : 0;
	case CA_OPT_COUNT:
	case CA_OPT_COUNT0:
		if (!ca_parse_count(text, opt->max, &value->count) &&
		    (value->count || opt->kind == CA_OPT_COUNT0))
			return 0;
		snprintf(expected, sizeof(expected), "a whole number from %d to %llu",
			 opt->kind == CA_OPT_COUNT, (unsigned long long)opt->max);
		return bad_value(opt, text, expected);
	case CA_OPT_CPUS:
		return parse_cpus(opt, text);
	case CA_OPT_TOPOLOGY:	/* "@FILE": sysfs-style lines (ca_topology_read_file()) */
		if (text[0] == '@' ? !ca_topology_read_file(text + 1, &value->topology, err, sizeof(err))
				   : !ca_topology_parse(text, &value->topology, err, sizeof(err)))
			return 0;
		ca_cli_error("--%s \"%s\": %s", opt->name, text, err);
		return -EINVAL;
	}
	return -EINVAL;
}

static void usage_error(const struct ca_cli_mode *mode, const char *what, const char *arg)
{
	ca_cli_error("%s: %s '%s'; see coreaudit %s --help", mode->name, what, arg, mode->name);
}

/* One option from getopt: -2 on a usage error (printed), else 0. */
static int take_option(const struct ca_cli_mode *mode, int id, const char **given,
		       ca_opt_apply_fn apply, void *ctx)
{
	int index = find_option(mode, id);
	const struct ca_option *opt = &mode->options[index];
	struct ca_opt_value value;

	if (has_value(opt) && given[index] && opt->kind != CA_OPT_FILE_EACH) {
		ca_cli_error("--%s \"%s\": given twice (first \"%s\"); give it once", opt->name,
			     optarg, given[index]);
		return -2;
	}
	given[index] = has_value(opt) ? optarg : "";
	if (parse_value(opt, has_value(opt) ? optarg : "", &value))
		return -2;
	return apply(ctx, id, &value) ? -2 : 0;
}

int ca_cli_parse(const struct ca_cli_mode *mode, int argc, char **argv, ca_opt_apply_fn apply,
		 void *ctx)
{
	char shorts[2 * MAX_OPTIONS + 3];
	struct option longs[MAX_OPTIONS + 1];
	const char *given[MAX_OPTIONS] = { NULL };
	int id;

	if (mode->option_count > MAX_OPTIONS)
		return -2;
	build_getopt(mode, shorts, longs);
	opterr = 0;
	optind = 1;
	while ((id = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (id == 'h') {
			ca_cli_usage(mode);
			return -1;
		}
		if (id == ':') {
			usage_error(mode, "missing value for", argv[optind - 1]);
			return -2;
		}
		if (id == '?' || find_option(mode, id) < 0) {
			usage_error(mode, "unknown option", argv[optind - 1]);
			return -2;
		}
		if (take_option(mode, id, given, apply, ctx))
			return -2;
	}
	return optind;
}

void ca_cli_usage(const struct ca_cli_mode *mode)
{
	printf("usage: coreaudit %s %s\n\n%s\noptions:\n", mode->name, mode->synopsis,
	       mode->description);
	for (int i = 0; i < mode->option_count; i++) {
		const struct ca_option *opt = &mode->options[i];
		const char *line = opt->help;
		int used;

		if (has_short(opt))
			used = printf("  -%c, ", opt->id);
		else
			used = printf("      ");
		used += printf("--%s%s%s", opt->name, opt->metavar ? " " : "",
			       opt->metavar ? opt->metavar : "");
		for (;;) {
			size_t len = strcspn(line, "\n");

			printf("%*s%.*s\n", used < HELP_COLUMN ? HELP_COLUMN - used : 1, "",
			       (int)len, line);
			if (!line[len])
				break;
			line += len + 1;
			used = 0;
		}
	}
	printf("\n%s", mode->epilogue);
}

int ca_cli_parse_reports(const char *mode, const char *text, unsigned int *reports)
{
	static const char *const names[] = { "capacity", "fairness", "exposure" };
	const char *word = text;

	do {
		size_t len = strcspn(word, ","), i;

		for (i = 0; i < 3 && (strlen(names[i]) != len || strncmp(word, names[i], len)); i++)
			;
		if (i == 3) {
			ca_cli_error("%s: --report \"%s\": no report \"%.*s\" (capacity, "
				     "fairness, exposure; comma-separated)", mode, text, (int)len, word);
			return -1;
		}
		*reports |= 1u << i;
		word += len;
	} while (*word++ == ',');
	return 0;
}

bool ca_cli_apply_audit_option(struct ca_audit_options *opts, int id,
			       const struct ca_opt_value *value)
{
	switch (id) {
	case 't':
		opts->topology = value->topology;
		opts->has_topology = true;
		return true;
	case CA_LONG_ONLY('r'):
		opts->rules_path = value->text;
		return true;
	case CA_LONG_ONLY('T'):
		opts->identity = CA_IDENTITY_TAG;
		return true;
	case 'g':
		opts->grace_ns = value->ns;
		opts->has_grace = true;
		return true;
	case CA_LONG_ONLY('M'):
		opts->max_transition_ns = value->ns;
		return true;
	case CA_LONG_ONLY('U'):
		opts->assume_unknown_cookie_zero = true;
		return true;
	case CA_LONG_ONLY('F'):
		opts->max_forced_idle_pct = value->pct;
		opts->has_max_forced_idle = true;
		return true;
	case CA_LONG_ONLY('S'):
		opts->max_starvation_ns = (int64_t)value->ns;
		opts->has_max_starvation = true;
		return true;
	case CA_LONG_ONLY('I'):
		opts->max_inversion_ns = value->ns;
		opts->has_max_inversion = true;
		return true;
	case CA_LONG_ONLY('A'):
		opts->max_accounting_pct = value->pct;
		opts->has_max_accounting = true;
		return true;
	case CA_LONG_ONLY('X'):
		opts->max_unjust_ns = value->ns;
		opts->has_max_unjust = true;
		return true;
	case CA_LONG_ONLY('K'):
		opts->max_reselect_ticks = (uint32_t)value->count;
		opts->has_max_reselect_ticks = true;
		return true;
	case CA_LONG_ONLY('R'):
		opts->use_record_reader = value->choice == 0;
		return true;
	case CA_LONG_ONLY('V'):
		opts->max_unfairness_pct = value->pct;
		opts->smt_reports |= CA_SMT_REPORT_FAIRNESS;
		return true;
	}
	return false;
}
