/*
 * cmd-audit.c - `coreaudit audit`: parse options, run the audit, print a report,
 * exit with the verdict's code.
 */
#define _GNU_SOURCE	/* sched_getaffinity */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/audit.h"
#include "coreaudit/duration.h"
#include "coreaudit/report.h"
#include "cli.h"
#include "guard.h"
#include "options.h"

#define DEFAULT_TOP 10
#define MAX_TOP 1000000
#define MAX_JOBS 1024

/* The one option table of this mode: getopt, parsing and --help come from it. */
static const struct ca_option options[] = {
	CA_OPTION('t', "topology", CA_OPT_TOPOLOGY, "SPEC",
	  "SMT siblings of each core, cores separated by blanks:\n"
	  "\"0,1 2,3\" or \"0-3 4-7\" (else a coreaudit-topology\nmarker in the trace)"),
	CA_OPTION_CHOICE(CA_LONG_ONLY('T'), "tags", "markers",
	  "judge isolation by coreaudit-tag markers instead of\nkernel cookies (any kernel)",
	  "markers"),
	CA_OPTION(CA_LONG_ONLY('r'), "rules", CA_OPT_TEXT, "FILE",
	  "also hold the relations of a rule file\n(coreaudit-rules(5)): isolate, exclusive, "
	  "together;\none rule file per audit (given twice: usage error)"),
	CA_OPTION('g', "grace", CA_OPT_DURATION, "DUR",
	  "co-run windows shorter than DUR are transition skew,\nlonger ones violations "
	  "(default 5ms; with ipi\nevents it applies to unexplained windows: 200us)"),
	CA_OPTION(CA_LONG_ONLY('M'), "max-transition", CA_OPT_DURATION, "DUR",
	  "fail when a window the kernel explained (a pending\nreschedule) lasts longer than DUR "
	  "(default: never)"),
	CA_OPTION_CHOICE(CA_LONG_ONLY('U'), "unknown-cookie", "zero",
	  "tasks whose cookie never shows in the trace had\ncookie 0 (default: unknown, verdict "
	  "inconclusive)", "zero"),
	CA_OPTION(CA_LONG_ONLY('F'), "max-forced-idle", CA_OPT_PERCENT, "PCT",
	  "fail when forced idle exceeds PCT % of CPU time\n(0 to 100, e.g. 20 or 12.5)"),
	CA_OPTION(CA_LONG_ONLY('S'), "max-starvation", CA_OPT_DURATION, "DUR",
	  "fail when a task starves longer than DUR at a stretch"),
	CA_OPTION_COUNT0(CA_LONG_ONLY('K'), "max-reselect-ticks", "N",
	  "fail when a CPU stays forced idle with CFS work\nwhile its sibling's CFS task runs on "
	  "through more\nthan N ticks (the reselection Linux owes; default\n8, 0 to 1000; 0: off)",
	  1000),
	CA_OPTION(CA_LONG_ONLY('I'), "max-inversion", CA_OPT_DURATION, "DUR",
	  "fail when a realtime task waits on an idle CPU\nbeside a task it outranks, of another "
	  "cookie,\nlonger than DUR once the kernel chose (priority\ninversion; default 1ms)"),
	CA_OPTION(CA_LONG_ONLY('X'), "max-unjustified", CA_OPT_DURATION, "DUR",
	  "fail when a CPU idles beside a queued task of the\ncookie its siblings run longer than "
	  "DUR once the\nkernel chose (unjustified forced idle; default 1ms)"),
	CA_OPTION(CA_LONG_ONLY('A'), "max-accounting-error", CA_OPT_PERCENT, "PCT",
	  "fail when the kernel's forced idle of a task\n(coreaudit-kfi markers, written by "
	  "record) is off\nthe trace's by more than PCT % and 20ms (default 50)"),
	CA_OPTION('j', "json", CA_OPT_FLAG, NULL, "print the findings as one JSON object"),
	CA_OPTION_COUNT(CA_LONG_ONLY('n'), "top", "N",
	  "rows in the longest-window and per-task tables\n(1 to 1000000, default 10)",
	  MAX_TOP),
	CA_OPTION_CHOICE(CA_LONG_ONLY('R'), "reader", "records",
	  "read a trace.dat one libtracecmd record per event,\nthe slower reference for the "
	  "default readers (zstd\nfiles chunk by chunk, others in place from pages)",
	  "records|pages"),
	CA_OPTION_COUNT('J', "jobs", "N",
	  "threads (default: the CPUs this process may use);\n2 or more: the file is read on "
	  "one while the\nchecks run on another, with the same findings", MAX_JOBS),
	CA_OPTION('h', "help", CA_OPT_FLAG, NULL, "this text"),
};

static const struct ca_cli_mode mode = {
	.name = "audit",
	.synopsis = "[OPTIONS] FILE",
	.description =
		"Audit a scheduler trace (trace-cmd trace.dat, or `trace-cmd report` text):\n"
		"did tasks of different cookies share a core, and what did forced idle cost?\n",
	.epilogue =
		"DUR takes a unit: ns, us, ms or s (\"500us\", \"2ms\"), from 1ns (zero is\n"
		"refused).  "
		"Each option is given at most once.\n"
		"exit status: 0 pass, 1 fail, 2 usage error, 3 bad input, 4 inconclusive\n\n"
		"examples:\n"
		"  coreaudit audit --topology \"0,1 2,3\" trace.dat\n"
		"  coreaudit audit -t 0,1 --tags markers --grace 1ms --json trace.dat\n"
		"  coreaudit audit --max-forced-idle 20 --max-starvation 50ms trace.dat\n"
		"  coreaudit audit --max-reselect-ticks 4 --max-inversion 500us trace.dat\n"
		"  coreaudit audit --max-unjustified 2ms trace.dat\n"
		"  coreaudit audit --max-accounting-error 10 trace.dat\n"
		"  coreaudit audit -t 0,1 --max-transition 2ms trace.dat\n"
		"  coreaudit audit --jobs 1 big.dat    (one thread)\n"
		"  coreaudit audit --rules /usr/share/coreaudit/rules/realtime.rules trace.dat\n",
	.options = options,
	.option_count = sizeof(options) / sizeof(options[0]),
};

void ca_cmd_audit_usage(void)
{
	ca_cli_usage(&mode);
}

struct parsed {
	struct ca_audit_options *opts;
	struct ca_report_options *report;
	bool is_json;
};

static int apply_option(void *ctx, int id, const struct ca_opt_value *value)
{
	struct parsed *parsed = ctx;

	if (ca_cli_apply_audit_option(parsed->opts, id, value))
		return 0;
	if (id == CA_LONG_ONLY('n'))
		parsed->report->top = (int)value->count;
	else if (id == 'J')
		parsed->opts->threads = (int)value->count;
	else if (id == 'j')
		parsed->is_json = true;
	return 0;
}

/* The CPUs this process may run on (its affinity): the default of --jobs. */
static int usable_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

/* Return: 0, 1 after --help, -1 on a usage error (printed). */
static int parse_args(int argc, char **argv, struct parsed *parsed)
{
	int first = ca_cli_parse(&mode, argc, argv, apply_option, parsed);

	if (first < 0)
		return first == -1 ? 1 : -1;
	if (first != argc - 1) {
		ca_cli_error("audit: %s; see coreaudit audit --help", first == argc ?
			     "no trace file given" : "more than one trace file given");
		return -1;
	}
	parsed->opts->path = argv[first];
	return 0;
}

/*
 * The audit, with a fault inside the trace-reading libraries taken as corrupt
 * input (guard.c).  After such a fault their state is undefined: @audit is
 * left as it is (not freed: the process exits) and only the error is set.
 */
static enum ca_result run_guarded(struct ca_audit *audit, const struct ca_audit_options *opts)
{
	static sigjmp_buf env;
	enum ca_result result;
	int sig = sigsetjmp(env, 1);

	if (sig) {
		ca_guard_disarm();
		snprintf(audit->error, sizeof(audit->error),
			 "%s: corrupt trace data: libtracecmd/libtraceevent faulted (%s) reading "
			 "its pages", opts->path, strsignal(sig));
		audit->is_abandoned = true;
		return CA_RESULT_BAD_INPUT;
	}
	ca_guard_arm(&env);
	result = ca_audit_run(audit, opts);
	ca_guard_disarm();
	return result;
}

int ca_cmd_audit(int argc, char **argv)
{
	struct ca_audit_options opts;
	struct ca_report_options report = { .top = DEFAULT_TOP };
	struct parsed parsed = { .opts = &opts, .report = &report };
	struct ca_audit *audit;
	enum ca_result result;
	bool is_bad;
	int ret;

	ca_audit_options_default(&opts);
	opts.threads = usable_cpus();
	ret = parse_args(argc, argv, &parsed);
	audit = ret ? NULL : calloc(1, sizeof(*audit));
	if (!audit) {
		ca_topology_free(&opts.topology);
		if (ret)
			return ret > 0 ? CA_EXIT_PASS : CA_EXIT_USAGE;
		ca_cli_error("audit: out of memory");
		return CA_EXIT_INPUT;
	}
	result = run_guarded(audit, &opts);
	ca_topology_free(&opts.topology);
	is_bad = result == CA_RESULT_BAD_INPUT || result == CA_RESULT_BAD_OPTIONS;
	if (is_bad)
		ca_cli_error("%s", audit->error);
	else
		ca_report_find(parsed.is_json ? "json" : "text")->write(stdout, audit, &report);
	if (!is_bad)
		ca_report_lttng(NULL, audit, &report);
	if (!audit->is_abandoned) {
		ca_audit_free(audit);
		free(audit);
	}
	return ca_exit_for(result);
}
