/*
 * cmd-audit.c - `coreaudit audit`: parse options, run the audit, print a report,
 * exit with the verdict's code.
 */
#define _GNU_SOURCE	/* sched_getaffinity */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "coreaudit/audit.h"
#include "coreaudit/duration.h"
#include "coreaudit/report.h"
#include "cli.h"
#include "guard.h"
#include "meter.h"
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
	CA_OPTION(CA_LONG_ONLY('V'), "max-unfairness", CA_OPT_PERCENT, "PCT",
	  "fail when a cookie (or tag) received less of the\ncore than PCT % under its fair "
	  "share of the core\ntime it competed for (shares of 10ms and more;\nimplies "
	  "--report fairness)"),
	CA_OPTION(CA_LONG_ONLY('E'), "report", CA_OPT_TEXT, "LIST",
	  "also report what SMT with core scheduling gave,\ncomma-separated: capacity (time "
	  "by busy siblings,\nco-run, forced idle, SMT yield, against SMT off\nand the "
	  "break-even SMT speed-up), fairness (per\ncookie: core time against a fair share, "
	  "the\nlongest wait, the worst pairs), exposure (a CPU in\nthe kernel for one cookie "
	  "beside another's task:\nneeds record --kernel-entry); no verdict changes"),
	CA_OPTION(CA_LONG_ONLY('f'), "from", CA_OPT_TIME, "TIME",
	  "audit from TIME on: a timestamp in seconds as\ntrace-cmd report prints it "
	  "(5612.345678), or +DUR\nafter the first event (+2s, +1.5); cookies and tags\n"
	  "set before are still known"),
	CA_OPTION(CA_LONG_ONLY('t'), "to", CA_OPT_TIME, "TIME",
	  "audit up to TIME (as --from); events after it are\nnot read into the audit"),
	CA_OPTION(CA_LONG_ONLY('C'), "cpu", CA_OPT_CPUS, "LIST",
	  "audit only the cores that hold a CPU of LIST\n(\"0,1,4-7\", as trace-cmd report's "
	  "--cpu), each\ncore whole; the other CPUs' events still tell\nwhere tasks run, wake "
	  "and are sent"),
	CA_OPTION(CA_LONG_ONLY('x'), "explain", CA_OPT_TIME, "TIME",
	  "what the CPUs ran at TIME (as --from): of the\ncores with a co-run window open then "
	  "(none: every\ncore, up to --top); each such window, its kind,\ncause and both CPUs' "
	  "events"),
	CA_OPTION('i', "input", CA_OPT_FILE_EACH, "FILE",
	  "a trace to audit, as trace-cmd's -i (give it once\nper file; files may also follow "
	  "the options;\nnone: trace.dat; -: report text on stdin)"),
	CA_OPTION(CA_LONG_ONLY('B'), "baseline", CA_OPT_TEXT, "OLD.json",
	  "fail when forced idle, the windows (count, time,\np99, longest), the unexplained ones or "
	  "the longest\nstarvation got worse than in an earlier run's\n--json report by more than "
	  "the margin"),
	CA_OPTION(CA_LONG_ONLY('b'), "baseline-margin", CA_OPT_PERCENT, "PCT",
	  "how much worse than the baseline a figure may get,\nas a share of the old figure, "
	  "beside a floor of\nits own (default 10)"),
	CA_OPTION('j', "json", CA_OPT_FLAG, NULL, "print the findings as one JSON object (an array\n"
	  "of them for several traces)"),
	CA_OPTION(CA_LONG_ONLY('H'), "html", CA_OPT_TEXT, "FILE",
	  "also write one self-contained page to look at: a\ntimeline per core (zoom, pan), "
	  "the windows by\ncause, their evidence on click, the histograms"),
	CA_OPTION(CA_LONG_ONLY('P'), "perfetto", CA_OPT_TEXT, "FILE",
	  "also write the trace and the findings as Chrome\ntrace-event JSON, for "
	  "ui.perfetto.dev"),
	CA_OPTION(CA_LONG_ONLY('G'), "svg-histograms", CA_OPT_TEXT, "DIR",
	  "also write windows.svg (length by cause) and\nforced-idle.svg (stretch length) "
	  "into DIR"),
	CA_OPTION(CA_LONG_ONLY('u'), "junit", CA_OPT_TEXT, "FILE",
	  "also write the verdicts as JUnit XML for CI: a\ntestsuite per trace, a testcase per "
	  "check, the\nworst findings in each failure"),
	CA_OPTION_CHOICE(CA_LONG_ONLY('c'), "color", "WHEN",
	  "colour the verdict and its reasons: auto (on a\nterminal, unless NO_COLOR is set; "
	  "the default),\nalways or never", "auto|always|never"),
	CA_OPTION_CHOICE(CA_LONG_ONLY('p'), "progress", "WHEN",
	  "how far the read is, on stderr: auto (on a\nterminal, for reads over a second; the "
	  "default),\nalways or never", "auto|always|never"),
	CA_OPTION_COUNT(CA_LONG_ONLY('n'), "top", "N",
	  "rows in the longest-window and per-task tables\n(1 to 1000000, default 10)",
	  MAX_TOP),
	CA_OPTION_CHOICE(CA_LONG_ONLY('R'), "reader", "records",
	  "read a trace.dat one libtracecmd record per event,\nthe slower reference for the "
	  "default readers (zstd\nfiles chunk by chunk, others in place from pages)",
	  "records|pages"),
	CA_OPTION_COUNT('J', "jobs", "N",
	  "reading threads (default: the CPUs this process may\nuse); 2 or more: a trace.dat's "
	  "CPUs are read in\nN parts at once while one more thread runs the\nchecks, with the "
	  "same findings", MAX_JOBS),
	CA_OPTION('h', "help", CA_OPT_FLAG, NULL, "this text"),
};

static const struct ca_cli_mode mode = {
	.name = "audit",
	.synopsis = "[OPTIONS] [FILE...]",
	.description =
		"Audit a scheduler trace (trace-cmd trace.dat, or `trace-cmd report` text):\n"
		"did tasks of different cookies share a core, and what did forced idle cost?\n"
		"Several traces are audited one after the other with the same options, each\n"
		"reported, then summed up; the exit status is the worst of theirs.\n",
	.epilogue =
		"DUR takes a unit: ns, us, ms or s (\"500us\", \"2ms\"), from 1ns (zero is\n"
		"refused).  "
		"Each option is given at most once.\n"
		"exit status: 0 pass, 1 fail, 2 usage error, 3 bad input, 4 inconclusive;\n"
		"of several traces the worst: 1, then 3, 2, 4, 0\n\n"
		"examples:\n"
		"  coreaudit audit --topology \"0,1 2,3\" trace.dat\n"
		"  coreaudit audit -t 0,1    (trace.dat in this directory)\n"
		"  trace-cmd report | coreaudit audit -t 0,1 -\n"
		"  coreaudit audit -t 0,1 --junit report.xml runs/*.dat\n"
		"  coreaudit audit --baseline last.json --baseline-margin 20 trace.dat\n"
		"  coreaudit audit -t 0,1 --tags markers --grace 1ms --json trace.dat\n"
		"  coreaudit audit --max-forced-idle 20 --max-starvation 50ms trace.dat\n"
		"  coreaudit audit --max-reselect-ticks 4 --max-inversion 500us trace.dat\n"
		"  coreaudit audit --max-unjustified 2ms trace.dat\n"
		"  coreaudit audit --max-accounting-error 10 trace.dat\n"
		"  coreaudit audit -t 0,1 --max-transition 2ms trace.dat\n"
		"  coreaudit audit --jobs 1 big.dat    (one thread)\n"
		"  coreaudit audit --from +2s --to +4s trace.dat\n"
		"  coreaudit audit --color always trace.dat | less -R\n"
		"  coreaudit audit --progress always big.dat 2> progress.log\n"
		"  coreaudit audit --from 5612.3 --to 5613.3 trace.dat\n"
		"  coreaudit audit --cpu 4-7 trace.dat    (the cores of CPUs 4 to 7)\n"
		"  coreaudit audit --explain 5612.345678901 trace.dat\n"
		"  coreaudit audit --report capacity,fairness,exposure trace.dat\n"
		"  coreaudit audit --max-unfairness 30 trace.dat    (CI: fairness across cookies)\n"
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
	const char *junit_path;
	const char *html_path;
	const char *perfetto_path;
	const char *svg_dir;
	int colour;		/* --color: 0 auto, 1 always, 2 never */
	int progress;		/* --progress: likewise */
	const char **files;	/* -i FILE and the operands, in order */
	int file_count;
};

/* --from, --to, --explain: a timestamp, or "+DUR" after the first event. */
static struct ca_time_bound time_bound(const struct ca_opt_value *value)
{
	return (struct ca_time_bound){ .is_set = true, .is_relative = value->is_relative,
				       .ns = value->ns };
}

static int apply_option(void *ctx, int id, const struct ca_opt_value *value)
{
	struct parsed *parsed = ctx;

	if (ca_cli_apply_audit_option(parsed->opts, id, value))
		return 0;
	if (id == CA_LONG_ONLY('E'))
		return ca_cli_parse_reports("audit", value->text, &parsed->opts->smt_reports);
	if (id == CA_LONG_ONLY('n'))
		parsed->report->top = (int)value->count;
	else if (id == 'J')
		parsed->opts->threads = (int)value->count;
	else if (id == 'j')
		parsed->is_json = true;
	else if (id == 'i')
		parsed->files[parsed->file_count++] = value->text;
	else if (id == CA_LONG_ONLY('u'))
		parsed->junit_path = value->text;
	else if (id == CA_LONG_ONLY('B'))
		parsed->opts->baseline_path = value->text;
	else if (id == CA_LONG_ONLY('b'))
		parsed->opts->baseline_margin_pct = value->pct;
	else if (id == CA_LONG_ONLY('H'))
		parsed->html_path = value->text;
	else if (id == CA_LONG_ONLY('P'))
		parsed->perfetto_path = value->text;
	else if (id == CA_LONG_ONLY('G'))
		parsed->svg_dir = value->text;
	else if (id == CA_LONG_ONLY('c'))
		parsed->colour = value->choice;
	else if (id == CA_LONG_ONLY('p'))
		parsed->progress = value->choice;
	else if (id == CA_LONG_ONLY('x'))
		parsed->opts->explain = time_bound(value);
	else if (id == CA_LONG_ONLY('f'))
		parsed->opts->from = time_bound(value);
	else if (id == CA_LONG_ONLY('C'))
		parsed->opts->cpus = value->text;
	else if (id == CA_LONG_ONLY('t'))
		parsed->opts->to = time_bound(value);
	return 0;
}

/* The CPUs this process may run on (its affinity): the default of --jobs. */
static int usable_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}

/* @path names one of the traces to audit (the same file, by device and inode). */
static bool is_input(const struct parsed *parsed, const char *path)
{
	struct stat out, in;

	if (stat(path, &out))
		return false;
	for (int i = 0; i < parsed->file_count; i++)
		if (!stat(parsed->files[i], &in) && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return true;
	return false;
}

/*
 * An output file can be written (checked before the audits, which may take
 * long), without emptying it yet, and is not one of the traces.
 */
static int check_output(const struct parsed *parsed, const char *option, const char *path)
{
	int fd = path ? open(path, O_WRONLY | O_CREAT, 0666) : -1;

	if (path && fd < 0) {
		ca_cli_error("audit: --%s %s: cannot write it: %s", option, path, strerror(errno));
		return -1;
	}
	if (fd >= 0)
		close(fd);
	if (path && is_input(parsed, path)) {
		ca_cli_error("audit: --%s %s: that is a trace to audit; name another file", option,
			     path);
		return -1;
	}
	return 0;
}

/* The pictures: of one trace, kept whole (every window listed). */
static int check_pictures(struct parsed *parsed)
{
	char probe[4096];

	if (!parsed->html_path && !parsed->perfetto_path && !parsed->svg_dir)
		return 0;
	if (parsed->file_count > 1) {
		ca_cli_error("audit: --html, --perfetto and --svg-histograms picture one trace "
			     "(%d given); audit them one at a time", parsed->file_count);
		return -1;
	}
	snprintf(probe, sizeof(probe), "%s/windows.svg", parsed->svg_dir ? parsed->svg_dir : ".");
	if (check_output(parsed, "html", parsed->html_path) ||
	    check_output(parsed, "perfetto", parsed->perfetto_path) ||
	    check_output(parsed, "svg-histograms", parsed->svg_dir ? probe : NULL))
		return -1;
	parsed->opts->keep_timeline = true;
	parsed->opts->list_limit = SIZE_MAX;
	return 0;
}

/* --from before --to, when both count from the same origin. */
static int check_span(const struct ca_audit_options *opts)
{
	if (!opts->from.is_set || !opts->to.is_set ||
	    opts->from.is_relative != opts->to.is_relative || opts->from.ns < opts->to.ns)
		return 0;
	char from[32], to[32];

	ca_cli_error("audit: --from %s%s s is not before --to %s%s s",
		     opts->from.is_relative ? "+" : "", ca_format_timestamp(opts->from.ns, from,
									 sizeof(from)),
		     opts->to.is_relative ? "+" : "", ca_format_timestamp(opts->to.ns, to, sizeof(to)));
	return -1;
}

/* --color auto: on a terminal that is not dumb, unless NO_COLOR is set (no-color.org). */
static bool wants_colour(int colour)
{
	const char *no_colour = getenv("NO_COLOR"), *term = getenv("TERM");

	if (colour != 0)
		return colour == 1;
	return isatty(STDOUT_FILENO) && !(no_colour && *no_colour) &&
	       !(term && !strcmp(term, "dumb"));
}

/* Return: 0, 1 after --help, -1 on a usage error (printed). */
static int parse_args(int argc, char **argv, struct parsed *parsed)
{
	double default_margin = parsed->opts->baseline_margin_pct;
	int first = ca_cli_parse(&mode, argc, argv, apply_option, parsed);

	if (first < 0)
		return first == -1 ? 1 : -1;
	for (int i = first; i < argc; i++)
		parsed->files[parsed->file_count++] = argv[i];
	if (!parsed->file_count)
		parsed->files[parsed->file_count++] = "trace.dat";	/* as trace-cmd report */
	if (check_output(parsed, "junit", parsed->junit_path))
		return -1;
	if (check_span(parsed->opts))
		return -1;
	parsed->report->is_colour = wants_colour(parsed->colour) && !parsed->is_json;
	if (parsed->opts->baseline_margin_pct != default_margin && !parsed->opts->baseline_path) {
		ca_cli_error("audit: --baseline-margin without --baseline; see coreaudit audit --help");
		return -1;
	}
	return check_pictures(parsed);
}

/*
 * The audit, with a fault inside the trace-reading libraries taken as corrupt
 * input (guard.c).  After such a fault their state is undefined: @audit is
 * left as it is (not freed) and only the error is set.
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

/* Of several traces' results, the one the exit status says: a failure first. */
static int severity(enum ca_result result)
{
	static const int rank[] = {
		[CA_RESULT_PASS] = 0, [CA_RESULT_INCONCLUSIVE] = 1, [CA_RESULT_BAD_OPTIONS] = 2,
		[CA_RESULT_BAD_INPUT] = 3, [CA_RESULT_FAIL] = 4,
	};

	return rank[result];
}

struct outputs {
	const struct parsed *parsed;
	struct ca_junit *junit;
	enum ca_result *results;	/* per file */
	char **errors;			/* per file, of those not read */
	bool is_abandoned;		/* a library faulted: its state, the heap's too, is lost */
};

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* JSON: the audit's object; of several traces an array of them, a trace not read included. */
static void write_json(const struct ca_audit *audit, enum ca_result result, int index,
		       const struct parsed *parsed)
{
	bool is_bad = result == CA_RESULT_BAD_INPUT || result == CA_RESULT_BAD_OPTIONS;

	if (parsed->file_count == 1) {
		if (!is_bad)
			ca_report_json(stdout, audit, parsed->report);
		return;
	}
	fputs(index ? ",\n" : "[\n", stdout);
	if (is_bad)
		ca_report_json_unread(stdout, audit, result);
	else
		ca_report_json(stdout, audit, parsed->report);
	if (index == parsed->file_count - 1)
		fputs("]\n", stdout);
}

static int picture(const char *option, const char *path, int ret)
{
	if (ret)
		ca_cli_error("audit: --%s %s: cannot write it: %s", option, path, strerror(-ret));
	return ret;
}

/* The pictures asked for; Return: 0, or -1 when one could not be written (said). */
static int write_pictures(const struct parsed *parsed, const struct ca_audit *audit)
{
	int bad = 0;

	if (parsed->html_path)
		bad |= picture("html", parsed->html_path, ca_report_html(parsed->html_path, audit));
	if (parsed->perfetto_path)
		bad |= picture("perfetto", parsed->perfetto_path,
			       ca_report_perfetto(parsed->perfetto_path, audit));
	if (parsed->svg_dir)
		bad |= picture("svg-histograms", parsed->svg_dir,
			       ca_report_histograms(parsed->svg_dir, audit));
	return bad ? -1 : 0;
}

/*
 * The audit with a progress line when one is wanted (--progress).  The meter
 * is on the heap: after a fault in the reading libraries the thread that runs
 * the checks may still be at work on the abandoned audit (handoff.c), so the
 * meter is left to it, as the audit is.
 */
static enum ca_result run_metered(const struct parsed *parsed, struct ca_audit *audit, int index)
{
	struct ca_meter *meter = NULL;
	enum ca_result result;

	if (parsed->progress == 1 || (parsed->progress == 0 && ca_meter_wanted()))
		meter = malloc(sizeof(*meter));
	if (meter) {
		ca_meter_start(meter, parsed->files[index], parsed->progress == 1);
		parsed->opts->on_progress = ca_meter_update;
		parsed->opts->progress_ctx = meter;
	}
	result = run_guarded(audit, parsed->opts);
	parsed->opts->on_progress = NULL;	/* the meter is this call's */
	if (meter && !audit->is_abandoned) {
		ca_meter_erase(meter);
		free(meter);
	}
	return result;
}

/* Audit the @index-th file and report it; Return: its result. */
static enum ca_result audit_one(struct outputs *out, int index)
{
	const struct parsed *parsed = out->parsed;
	struct ca_audit *audit = calloc(1, sizeof(*audit));
	enum ca_result result;
	struct timespec start;
	bool is_bad;

	if (!audit) {
		ca_cli_error("audit: out of memory");
		return CA_RESULT_BAD_INPUT;
	}
	parsed->opts->path = parsed->files[index];
	clock_gettime(CLOCK_MONOTONIC, &start);
	result = run_metered(parsed, audit, index);
	is_bad = result == CA_RESULT_BAD_INPUT || result == CA_RESULT_BAD_OPTIONS;
	if (is_bad) {
		ca_cli_error("%s", audit->error);
		out->errors[index] = strdup(audit->error);
	}
	if (parsed->file_count > 1 && !parsed->is_json)
		printf("%s==> %s <==\n", index ? "\n" : "", parsed->files[index]);
	if (parsed->is_json)
		write_json(audit, result, index, parsed);
	else if (!is_bad)
		ca_report_text(stdout, audit, parsed->report);
	if (out->junit && ca_junit_add(out->junit, audit, result, seconds_since(&start),
				       parsed->report))
		ca_cli_error("audit: --junit %s: out of memory", parsed->junit_path);
	if (!is_bad)
		ca_report_lttng(NULL, audit, parsed->report);
	if (!is_bad && write_pictures(parsed, audit) && severity(result) < severity(CA_RESULT_BAD_INPUT))
		result = CA_RESULT_BAD_INPUT;
	out->is_abandoned = audit->is_abandoned;
	if (!audit->is_abandoned) {
		ca_audit_free(audit);
		free(audit);
	}
	return result;
}

/* Several traces: each one's result, then the exit status of them all. */
static void write_summary(const struct outputs *out, enum ca_result worst)
{
	const struct parsed *parsed = out->parsed;

	printf("\nsummary: %d traces, exit %d (%s)\n  %-14s %s\n", parsed->file_count,
	       ca_exit_for(worst), ca_result_name(worst), "result", "trace");
	for (int i = 0; i < parsed->file_count; i++)
		printf("  %-14s %s\n", ca_result_name(out->results[i]),
		       out->errors[i] ? out->errors[i] : parsed->files[i]);
}

static enum ca_result audit_all(struct outputs *out)
{
	const struct parsed *parsed = out->parsed;
	enum ca_result worst = CA_RESULT_PASS;

	for (int i = 0; i < parsed->file_count; i++) {
		/* After a fault inside libtracecmd nothing more is read with it. */
		out->results[i] = out->is_abandoned ? CA_RESULT_BAD_INPUT : audit_one(out, i);
		if (out->is_abandoned && !out->errors[i])
			out->errors[i] = strdup("not audited: reading an earlier trace faulted "
						"inside libtracecmd; audit this one on its own");
		if (severity(out->results[i]) > severity(worst))
			worst = out->results[i];
	}
	if (parsed->file_count > 1 && !parsed->is_json)
		write_summary(out, worst);
	if (out->junit && ca_junit_close(out->junit)) {
		ca_cli_error("audit: --junit %s: could not be written", parsed->junit_path);
		worst = severity(worst) > severity(CA_RESULT_BAD_INPUT) ? worst : CA_RESULT_BAD_INPUT;
	}
	return worst;
}

int ca_cmd_audit(int argc, char **argv)
{
	struct ca_audit_options opts;
	struct ca_report_options report = { .top = DEFAULT_TOP };
	struct parsed parsed = { .opts = &opts, .report = &report };
	struct outputs out = { .parsed = &parsed };
	enum ca_result worst = CA_RESULT_BAD_INPUT;
	int ret;

	ca_audit_options_default(&opts);
	opts.threads = usable_cpus();
	parsed.files = calloc((size_t)argc + 1, sizeof(*parsed.files));
	if (!parsed.files) {
		ca_cli_error("audit: out of memory");
		return CA_EXIT_INPUT;
	}
	ret = parse_args(argc, argv, &parsed);
	if (!ret) {
		out.results = calloc((size_t)parsed.file_count, sizeof(*out.results));
		out.errors = calloc((size_t)parsed.file_count, sizeof(*out.errors));
		out.junit = parsed.junit_path ? ca_junit_open(parsed.junit_path) : NULL;
		if (out.results && out.errors && (out.junit || !parsed.junit_path))
			worst = audit_all(&out);
		else
			ca_cli_error("audit: out of memory");
	}
	for (int i = 0; out.errors && i < parsed.file_count; i++)
		free(out.errors[i]);
	free(out.errors);
	free(out.results);
	free(parsed.files);
	ca_topology_free(&opts.topology);
	if (ret)
		return ret > 0 ? CA_EXIT_PASS : CA_EXIT_USAGE;
	return ca_exit_for(worst);
}
