/*
 * cmd-audit.c - `coreaudit audit`: parse options, run the audit, print a report,
 * exit with the verdict's code.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/audit.h"
#include "coreaudit/duration.h"
#include "coreaudit/report.h"
#include "cli.h"
#include "guard.h"

#define DEFAULT_TOP 10

/* The getopt strings sit next to the usage text they implement. */
static const char short_options[] = "t:g:jh";
static const struct option long_options[] = {
	{ "topology", required_argument, NULL, 't' },
	{ "tags", required_argument, NULL, 'T' },
	{ "rules", required_argument, NULL, 'r' },
	{ "grace", required_argument, NULL, 'g' },
	{ "max-transition", required_argument, NULL, 'M' },
	{ "unknown-cookie", required_argument, NULL, 'U' },
	{ "max-forced-idle", required_argument, NULL, 'F' },
	{ "max-starvation", required_argument, NULL, 'S' },
	{ "json", no_argument, NULL, 'j' },
	{ "top", required_argument, NULL, 'n' },
	{ "reader", required_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void ca_cmd_audit_usage(void)
{
	printf("usage: coreaudit audit [OPTIONS] FILE\n\n"
	       "Audit a scheduler trace (trace-cmd trace.dat, or `trace-cmd report` text):\n"
	       "did tasks of different cookies share a core, and what did forced idle cost?\n\n"
	       "options:\n"
	       "  -t, --topology SPEC       SMT siblings of each core, cores separated by blanks:\n"
	       "                            \"0,1 2,3\" or \"0-3 4-7\" (else a coreaudit-topology\n"
	       "                            marker in the trace)\n"
	       "      --tags markers        judge isolation by coreaudit-tag markers instead of\n"
	       "                            kernel cookies (any kernel)\n"
	       "      --rules FILE          also hold the relations of a rule file\n"
	       "                            (coreaudit-rules(5)): isolate, exclusive, together\n"
	       "  -g, --grace DUR           co-run windows shorter than DUR are transition skew,\n"
	       "                            longer ones violations (default 5ms; with ipi\n"
	       "                            events it applies to unexplained windows: 200us)\n"
	       "      --max-transition DUR  fail when a window the kernel explained (a pending\n"
	       "                            reschedule) lasts longer than DUR (default: never)\n"
	       "      --unknown-cookie zero tasks whose cookie never shows in the trace had\n"
	       "                            cookie 0 (default: unknown, verdict inconclusive)\n"
	       "      --max-forced-idle PCT fail when forced idle exceeds PCT %% of CPU time\n"
	       "      --max-starvation DUR  fail when a task starves longer than DUR at a stretch\n"
	       "  -j, --json                print the findings as one JSON object\n"
	       "      --top N               rows in the longest-window and per-task tables\n"
	       "                            (default %d)\n"
	       "      --reader records      read a trace.dat one libtracecmd record per event,\n"
	       "                            the slower reference for the default readers (zstd\n"
	       "                            files chunk by chunk, others in place from pages)\n"
	       "  -h, --help                this text\n\n"
	       "DUR takes a unit: ns, us, ms or s (\"500us\", \"2ms\").\n"
	       "exit status: 0 pass, 1 fail, 2 usage error, 3 bad input, 4 inconclusive\n\n"
	       "examples:\n"
	       "  coreaudit audit --topology \"0,1 2,3\" trace.dat\n"
	       "  coreaudit audit -t 0,1 --tags markers --grace 1ms --json trace.dat\n"
	       "  coreaudit audit --max-forced-idle 20 --max-starvation 50ms trace.dat\n"
	       "  coreaudit audit -t 0,1 --max-transition 2ms trace.dat\n"
	       "  coreaudit audit --rules /usr/share/coreaudit/rules/realtime.rules trace.dat\n",
	       DEFAULT_TOP);
}

static int bad_value(const char *option, const char *value, const char *expected)
{
	ca_cli_error("audit: bad value '%s' for %s: %s", value, option, expected);
	return -EINVAL;
}

static int parse_percent(const char *text, double *pct)
{
	char *end;

	errno = 0;
	*pct = strtod(text, &end);
	return errno || end == text || *end || *pct < 0 || *pct > 100 ? -EINVAL : 0;
}

static int parse_option(int opt, const char *arg, struct ca_audit_options *opts, int *top)
{
	char err[160];
	uint64_t ns;
	char *end;

	switch (opt) {
	case 't':
		if (ca_topology_parse(arg, &opts->topology, err, sizeof(err)))
			return bad_value("--topology", arg, err);
		opts->has_topology = true;
		return 0;
	case 'r':
		opts->rules_path = arg;
		return 0;
	case 'T':
		if (strcmp(arg, "markers"))
			return bad_value("--tags", arg, "the only tag source is 'markers'");
		opts->identity = CA_IDENTITY_TAG;
		return 0;
	case 'g':
		if (ca_parse_duration(arg, &opts->grace_ns))
			return bad_value("--grace", arg, "a duration with a unit, e.g. 2ms");
		opts->has_grace = true;
		return 0;
	case 'M':
		if (ca_parse_duration(arg, &opts->max_transition_ns) || !opts->max_transition_ns)
			return bad_value("--max-transition", arg, "a duration with a unit, e.g. 2ms");
		return 0;
	case 'U':
		if (strcmp(arg, "zero"))
			return bad_value("--unknown-cookie", arg, "the only choice is 'zero'");
		opts->assume_unknown_cookie_zero = true;
		return 0;
	case 'F':
		if (parse_percent(arg, &opts->max_forced_idle_pct))
			return bad_value("--max-forced-idle", arg, "a percentage from 0 to 100");
		opts->has_max_forced_idle = true;
		return 0;
	case 'S':
		if (ca_parse_duration(arg, &ns) || ns > INT64_MAX)
			return bad_value("--max-starvation", arg, "a duration with a unit, e.g. 50ms");
		opts->max_starvation_ns = (int64_t)ns;
		opts->has_max_starvation = true;
		return 0;
	case 'R':
		if (!strcmp(arg, "records"))
			opts->use_record_reader = true;
		else if (!strcmp(arg, "pages"))
			opts->use_record_reader = false;
		else
			return bad_value("--reader", arg, "'records' (or 'pages': the default)");
		return 0;
	case 'n':
		*top = (int)strtol(arg, &end, 10);
		if (*end || *top < 1 || end == arg)
			return bad_value("--top", arg, "a positive number");
		return 0;
	default:
		return -EINVAL;
	}
}

static int parse_args(int argc, char **argv, struct ca_audit_options *opts, int *top,
		      bool *is_json)
{
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (opt == 'h') {
			ca_cmd_audit_usage();
			return 1;
		}
		if (opt == 'j') {
			*is_json = true;
			continue;
		}
		if (opt == '?' || opt == ':') {
			ca_cli_error("audit: %s option '%s'; see coreaudit audit --help",
				     optopt && strchr(short_options, optopt) ? "missing value for"
									     : "unknown",
				     argv[optind - 1]);
			return -EINVAL;
		}
		if (parse_option(opt, optarg, opts, top))
			return -EINVAL;
	}
	if (optind != argc - 1) {
		ca_cli_error("audit: %s; see coreaudit audit --help",
			     optind == argc ? "no trace file given" : "more than one trace file given");
		return -EINVAL;
	}
	opts->path = argv[optind];
	return 0;
}

/*
 * The audit, with a fault inside the trace-reading libraries taken as corrupt
 * input (guard.c).  After such a fault their state is undefined: @audit is
 * left as it is (not freed: the process exits) and only the error is set.
 */
static enum ca_exit_code run_guarded(struct ca_audit *audit, const struct ca_audit_options *opts)
{
	static sigjmp_buf env;
	enum ca_exit_code code;
	int sig = sigsetjmp(env, 1);

	if (sig) {
		ca_guard_disarm();
		snprintf(audit->error, sizeof(audit->error),
			 "%s: corrupt trace data: libtracecmd/libtraceevent faulted (%s) reading "
			 "its pages", opts->path, strsignal(sig));
		audit->is_abandoned = true;
		return CA_EXIT_INPUT;
	}
	ca_guard_arm(&env);
	code = ca_audit_run(audit, opts);
	ca_guard_disarm();
	return code;
}

int ca_cmd_audit(int argc, char **argv)
{
	struct ca_audit_options opts;
	struct ca_report_options report = { .top = DEFAULT_TOP };
	struct ca_audit *audit;
	enum ca_exit_code code;
	bool is_json = false;
	int ret;

	ca_audit_options_default(&opts);
	ret = parse_args(argc, argv, &opts, &report.top, &is_json);
	if (ret)
		return ret > 0 ? CA_EXIT_PASS : CA_EXIT_USAGE;
	audit = calloc(1, sizeof(*audit));
	if (!audit) {
		ca_cli_error("audit: out of memory");
		return CA_EXIT_INPUT;
	}
	code = run_guarded(audit, &opts);
	if (code == CA_EXIT_INPUT || code == CA_EXIT_USAGE)
		ca_cli_error("%s", audit->error);
	else
		ca_report_find(is_json ? "json" : "text")->write(stdout, audit, &report);
	if (code != CA_EXIT_INPUT && code != CA_EXIT_USAGE)
		ca_report_lttng(NULL, audit, &report);
	if (!audit->is_abandoned) {
		ca_audit_free(audit);
		free(audit);
	}
	return code;
}
