/*
 * cmd-monitor.c - `coreaudit monitor`: the audit pipeline on the running
 * kernel.  Prints findings as they happen and a summary every interval;
 * stops on -d, SIGINT/SIGTERM or --stop-on violation; then the same report
 * and exit code as `coreaudit audit`.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/audit.h"
#include "coreaudit/duration.h"
#include "coreaudit/live.h"
#include "coreaudit/report.h"
#include "coreaudit/writer.h"
#include "cli.h"
#include "options.h"
#include "serve.h"

#define DEFAULT_TOP 10

static volatile sig_atomic_t stop_requested;

/* The one option table of this mode: getopt, parsing and --help come from it. */
static const struct ca_option options[] = {
	CA_OPTION('t', "topology", CA_OPT_TOPOLOGY, "SPEC",
	  "SMT siblings of each core (default: from sysfs)"),
	CA_OPTION_CHOICE(CA_LONG_ONLY('T'), "tags", "markers",
	  "judge isolation by coreaudit-tag markers",
	  "markers"),
	CA_OPTION(CA_LONG_ONLY('r'), "rules", CA_OPT_TEXT, "FILE",
	  "also hold a rule file (coreaudit-rules(5)); one\nrule file (given twice: usage error)"),
	CA_OPTION('g', "grace", CA_OPT_DURATION, "DUR",
	  "grace period of co-run windows (as for audit)"),
	CA_OPTION('d', "duration", CA_OPT_SECONDS, "DUR",
	  "stop after DUR, or after DUR seconds if it has no\nunit, as rtla's -d (default: at "
	  "SIGINT or SIGTERM)"),
	CA_OPTION('i', "interval", CA_OPT_DURATION, "DUR",
	  "print a summary every DUR (default 1s)"),
	CA_OPTION_CHOICE(CA_LONG_ONLY('s'), "stop-on", "violation", "stop at the first violation",
	  "violation"),
	CA_OPTION(CA_LONG_ONLY('F'), "max-forced-idle", CA_OPT_PERCENT, "PCT",
	  "stop and fail when forced idle exceeds PCT % of CPU\ntime (0 to 100; checked after "
	  "the first second)"),
	CA_OPTION(CA_LONG_ONLY('S'), "max-starvation", CA_OPT_DURATION, "DUR",
	  "stop and fail when a task starves longer than DUR"),
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
	  "share (as for\naudit; judged at the end)"),
	CA_OPTION(CA_LONG_ONLY('E'), "report", CA_OPT_TEXT, "LIST",
	  "also report what SMT with core scheduling gave at\nthe end: capacity, fairness, "
	  "exposure (as for\naudit; exposure needs --kernel-entry)"),
	CA_OPTION('k', "kernel-entry", CA_OPT_FLAG, NULL,
	  "also trace irq, softirq and system call entries\nand exits, for --report exposure "
	  "(many more\nevents: bench/RESULTS.md)"),
	CA_OPTION(CA_LONG_ONLY('w'), "save-trace", CA_OPT_TEXT, "FILE",
	  "when it ends failing, write the last seconds of raw\nevents to FILE (a trace.dat) for "
	  "an offline audit"),
	CA_OPTION(CA_LONG_ONLY('W'), "save-seconds", CA_OPT_DURATION, "DUR",
	  "how much --save-trace keeps (default 10s)"),
	CA_OPTION(CA_LONG_ONLY('m'), "metrics", CA_OPT_TEXT, "FILE",
	  "write the metrics every interval and at the end to\nFILE (Prometheus text, for "
	  "node_exporter's textfile\ncollector; written whole, then renamed)"),
	CA_OPTION(CA_LONG_ONLY('L'), "metrics-listen", CA_OPT_TEXT, "ADDR:PORT",
	  "serve the metrics at http://ADDR:PORT/metrics\n(OpenMetrics when asked, else "
	  "Prometheus text;\n:PORT for every address)"),
	CA_OPTION('q', "quiet", CA_OPT_FLAG, NULL, "print findings only, no summaries"),
	CA_OPTION('j', "json", CA_OPT_FLAG, NULL, "the final report as JSON"),
	CA_OPTION('h', "help", CA_OPT_FLAG, NULL, "this text"),
};

static const struct ca_cli_mode mode = {
	.name = "monitor",
	.synopsis = "[OPTIONS]",
	.description =
		"Audit the running kernel live, from a tracefs instance of coreaudit's own\n"
		"(coreaudit-PID, removed on exit), with the same checks and exit codes as\n"
		"coreaudit audit.  Needs root.\n",
	.epilogue =
		"DUR takes a unit: ns, us, ms or s (\"500us\", \"2ms\"), from 1ns (zero is\n"
		"refused).  "
		"Each option is given at most once.\n"
		"exit status: 0 pass, 1 fail, 2 usage error, 3 tracefs unusable (not root,\n"
		"not mounted), 4 inconclusive\n\n"
		"examples:\n"
		"  coreaudit monitor -d 10s\n"
		"  coreaudit monitor --topology 0,1 --tags markers --stop-on violation\n"
		"  coreaudit monitor --max-forced-idle 12.5 -d 90s\n"
		"  coreaudit monitor --max-reselect-ticks 4 --max-inversion 500us -d 60s\n"
		"  coreaudit monitor --max-unjustified 2ms -d 60s\n"
		"  coreaudit monitor --max-accounting-error 10 -d 60s\n"
		"  coreaudit monitor --report capacity,fairness -d 60s\n"
		"  coreaudit monitor --kernel-entry --report exposure -d 10s\n"
		"  coreaudit monitor --stop-on violation --save-trace evidence.dat\n"
		"  coreaudit monitor --metrics-listen 127.0.0.1:9465 -q\n"
		"  coreaudit monitor --metrics /var/lib/node_exporter/coreaudit.prom -q\n",
	.options = options,
	.option_count = sizeof(options) / sizeof(options[0]),
};

void ca_cmd_monitor_usage(void)
{
	ca_cli_usage(&mode);
}

/* A raw ring-buffer page kept for --save-trace. */
struct kept_page {
	struct kept_page *next;
	uint64_t ts;		/* the page's timestamp: its first event */
	int size;
	char data[];
};

struct kept_cpu {
	struct kept_page *head, *tail;
};

struct monitor {
	struct ca_audit *audit;
	const char *metrics_path;	/* --metrics */
	const char *metrics_listen;	/* --metrics-listen */
	struct ca_metrics_server *server;
	const char *save_path;
	uint64_t save_ns;
	struct kept_cpu *kept;	/* [kept_count]: --save-trace's pages per CPU */
	int kept_count;
	bool is_quiet;
	bool stop_on_violation;
	bool with_kernel_entry;	/* --kernel-entry: the evidence file carries those formats */
	size_t printed;		/* kept windows already looked at (ca_audit_next_violation) */
	uint64_t start_ts;
};

static void on_signal(int signal)
{
	(void)signal;
	stop_requested = 1;
}

struct parsed {
	struct ca_audit_options *opts;
	struct ca_live_options *live;
	struct monitor *mon;
	bool is_json;
};

static int apply_option(void *ctx, int id, const struct ca_opt_value *value)
{
	struct parsed *parsed = ctx;

	if (ca_cli_apply_audit_option(parsed->opts, id, value))
		return 0;
	switch (id) {
	case CA_LONG_ONLY('E'):
		return ca_cli_parse_reports("monitor", value->text, &parsed->opts->smt_reports);
	case 'k':
		parsed->live->with_kernel_entry = true;
		parsed->mon->with_kernel_entry = true;
		break;
	case 'd':
		parsed->live->duration_ns = value->ns;
		break;
	case 'i':
		parsed->live->interval_ns = value->ns;
		break;
	case CA_LONG_ONLY('s'):
		parsed->mon->stop_on_violation = true;
		break;
	case CA_LONG_ONLY('w'):
		parsed->mon->save_path = value->text;
		break;
	case CA_LONG_ONLY('W'):
		parsed->mon->save_ns = value->ns;
		break;
	case 'q':
		parsed->mon->is_quiet = true;
		break;
	case CA_LONG_ONLY('m'):
		parsed->mon->metrics_path = value->text;
		break;
	case CA_LONG_ONLY('L'):
		parsed->mon->metrics_listen = value->text;
		break;
	case 'j':
		parsed->is_json = true;
		break;
	}
	return 0;
}

/* Return: 0, 1 after --help, -1 on a usage error (printed). */
static int parse_args(int argc, char **argv, struct parsed *parsed)
{
	int first = ca_cli_parse(&mode, argc, argv, apply_option, parsed);

	if (first < 0)
		return first == -1 ? 1 : -1;
	if (first != argc) {
		ca_cli_error("monitor: unexpected argument '%s'; see coreaudit monitor --help",
			     argv[first]);
		return -1;
	}
	return 0;
}

/* Violations as they are found (windows are final once both CPUs confirmed them). */
static void print_findings(struct monitor *mon)
{
	struct ca_violation v;
	char length[32];

	while (ca_audit_next_violation(mon->audit, &mon->printed, &v))
		printf("violation at %.6f s: %s on core %d, %s:%d | %s:%d (%s)\n", v.start_ns / 1e9,
		       ca_format_duration(v.end_ns - v.start_ns, length, sizeof(length)), v.core,
		       v.comms[0], v.pids[0], v.comms[1], v.pids[1], v.cause);
}

static void print_summary(struct monitor *mon)
{
	const struct ca_audit *audit = mon->audit;
	struct ca_audit_progress so_far;
	char span[32];

	ca_audit_progress(audit, &so_far);
	if (!so_far.has_events)
		return;
	printf("[%8s] events %llu  windows %zu (skew %zu, violations %zu, unknown %zu)  "
	       "forced idle", ca_format_duration(so_far.last_ts - so_far.first_ts, span,
						  sizeof(span)),
	       (unsigned long long)audit->events, so_far.windows, so_far.skew_windows,
	       so_far.violation_windows, so_far.unknown_windows);
	for (int cpu = 0; cpu < so_far.cpu_count; cpu++)
		if (so_far.known_ns[cpu])
			printf(" cpu%d %.1f%%", cpu,
			       100.0 * so_far.forced_idle_ns[cpu] / so_far.known_ns[cpu]);
	/* What makes the verdict inconclusive, as it happens. */
	printf("  lost %llu  missed switches %llu\n", (unsigned long long)so_far.lost_events,
	       (unsigned long long)so_far.missed_switches);
}

/* Room in mon->kept for @cpu (any CPU number the live source gives). */
static int room_for_cpu(struct monitor *mon, int cpu)
{
	int count = mon->kept_count ? mon->kept_count : 64;
	struct kept_cpu *grown;

	if (cpu < mon->kept_count)
		return 0;
	while (count <= cpu)
		count *= 2;
	grown = realloc(mon->kept, count * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	memset(grown + mon->kept_count, 0, (count - mon->kept_count) * sizeof(*grown));
	mon->kept = grown;
	mon->kept_count = count;
	return 0;
}

/* Keep every page, and forget those older than --save-seconds before the newest. */
static int keep_page(void *user, int cpu, const void *page, int size)
{
	struct monitor *mon = user;
	struct kept_page *kept = malloc(sizeof(*kept) + size);
	struct kept_cpu *k;

	if (!kept || cpu < 0 || room_for_cpu(mon, cpu)) {
		free(kept);
		return -ENOMEM;
	}
	k = &mon->kept[cpu];
	memcpy(&kept->ts, page, sizeof(kept->ts));
	memcpy(kept->data, page, size);
	kept->size = size;
	kept->next = NULL;
	if (k->tail)
		k->tail->next = kept;
	else
		k->head = kept;
	k->tail = kept;
	while (k->head != kept && kept->ts - k->head->ts > mon->save_ns) {
		struct kept_page *old = k->head;

		k->head = old->next;
		free(old);
	}
	return 0;
}

static void forget_pages(struct monitor *mon)
{
	for (int cpu = 0; cpu < mon->kept_count; cpu++) {
		while (mon->kept[cpu].head) {
			struct kept_page *old = mon->kept[cpu].head;

			mon->kept[cpu].head = old->next;
			free(old);
		}
	}
	free(mon->kept);
	mon->kept = NULL;
	mon->kept_count = 0;
}

/* The kept pages as a trace.dat: the evidence, for an offline audit. */
static void save_trace(struct monitor *mon, int cpu_count, int page_size, const char *clock)
{
	struct ca_writer writer;
	char err[600];
	int ret = ca_writer_open(&writer, cpu_count, page_size, err, sizeof(err));

	writer.with_kernel_entry = mon->with_kernel_entry;
	for (int cpu = 0; !ret && cpu < cpu_count && cpu < mon->kept_count; cpu++)
		for (struct kept_page *p = mon->kept[cpu].head; p && !ret; p = p->next)
			ret = ca_writer_page(&writer, cpu, p->data, p->size);
	if (!ret)
		ret = ca_writer_finish(&writer, mon->save_path, clock ? clock : "[mono]", err,
				       sizeof(err));
	if (ret)
		ca_cli_error("monitor: --save-trace: %s", err);
	else
		fprintf(stderr, "coreaudit: the evidence is in %s (audit it with the same "
			"--topology)\n", mon->save_path);
	ca_writer_free(&writer);
}

/* --max-forced-idle and --max-starvation stop the monitor as soon as they are passed. */
static bool is_threshold_exceeded(const struct ca_audit *audit)
{
	struct ca_audit_progress so_far;
	uint64_t forced = 0, known = 0;

	ca_audit_progress(audit, &so_far);
	if (audit->opts.max_starvation_ns >= 0 &&
	    so_far.longest_starved_ns > (uint64_t)audit->opts.max_starvation_ns)
		return true;
	if (audit->opts.max_forced_idle_pct < 0)
		return false;
	for (int cpu = 0; cpu < so_far.cpu_count; cpu++) {
		forced += so_far.forced_idle_ns[cpu];
		known += so_far.known_ns[cpu];
	}
	/* after a second of data: a first instant of forced idle is not a share */
	return known > 1000000000ull && 100.0 * forced / known > audit->opts.max_forced_idle_pct;
}

/* --metrics and --metrics-listen: what the audit found so far (or in the end). */
static void publish_metrics(struct monitor *mon, bool is_decided)
{
	char err[600];

	if (mon->server)
		ca_metrics_publish(mon->server, mon->audit, is_decided);
	if (mon->metrics_path &&
	    ca_metrics_write_file(mon->metrics_path, mon->audit, is_decided, err, sizeof(err)))
		ca_cli_error("monitor: --metrics: %s", err);
}

static bool on_drain(void *user, bool is_interval)
{
	struct monitor *mon = user;

	if (is_interval)
		publish_metrics(mon, false);
	print_findings(mon);
	if (is_interval && !mon->is_quiet)
		print_summary(mon);
	fflush(stdout);
	if (mon->stop_on_violation) {
		struct ca_audit_progress so_far;

		ca_audit_progress(mon->audit, &so_far);
		if (so_far.violation_windows)
			return true;
	}
	return is_threshold_exceeded(mon->audit);
}

/* --metrics-listen: listening before tracefs is touched; the first figures at once. */
static int start_metrics(struct monitor *mon)
{
	char err[300];

	if (mon->metrics_listen && !(mon->server = ca_metrics_serve(mon->metrics_listen, err,
								     sizeof(err)))) {
		ca_cli_error("monitor: --metrics-listen %s: %s", mon->metrics_listen, err);
		return -1;
	}
	publish_metrics(mon, false);
	return 0;
}

static int topology_default(struct ca_audit_options *opts)
{
	char err[160];

	if (opts->has_topology)
		return 0;
	if (ca_topology_from_sysfs(&opts->topology, err, sizeof(err))) {
		ca_cli_error("monitor: no topology: %s; give --topology", err);
		return -1;
	}
	opts->has_topology = true;
	return 0;
}

/* --save-trace: the pages kept, as a trace.dat, when the monitor failed; then forget them. */
static void save_evidence(struct monitor *mon, struct ca_source *source, enum ca_result result)
{
	if (mon->save_path && result == CA_RESULT_FAIL) {
		char *clock = ca_live_clock_text(source);

		save_trace(mon, source->info.cpu_count, ca_live_page_size(source), clock);
		free(clock);
	}
	forget_pages(mon);
}

/* Trace the running kernel until it stops, then report; Return: the audit's result. */
static enum ca_result watch(struct monitor *mon, struct ca_live_options *live, bool is_json)
{
	struct ca_report_options report = { .top = DEFAULT_TOP };
	struct ca_source source;
	enum ca_result result;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	live->on_drain = on_drain;
	live->on_page = mon->save_path ? keep_page : NULL;
	live->user = mon;
	if (ca_live_open(&source, live)) {
		ca_cli_error("monitor: %s", source.error);
		ca_source_close(&source);
		return CA_RESULT_BAD_INPUT;
	}
	if (!ca_cli_topology_fits("monitor", &mon->audit->opts.topology, source.info.cpu_count)) {
		ca_source_close(&source);
		return CA_RESULT_BAD_OPTIONS;
	}
	if (source.warning[0])
		fprintf(stderr, "coreaudit: %s\n", source.warning);
	if (!mon->is_quiet)
		fprintf(stderr, "coreaudit: monitoring in tracefs instance %s; SIGINT to stop\n",
			ca_live_instance_name(&source));
	result = ca_audit_feed(mon->audit, &source);
	save_evidence(mon, &source, result);
	ca_source_close(&source);
	if (result == CA_RESULT_BAD_INPUT || result == CA_RESULT_BAD_OPTIONS) {
		ca_cli_error("%s", mon->audit->error);
		return result;
	}
	ca_report_find(is_json ? "json" : "text")->write(stdout, mon->audit, &report);
	ca_report_lttng(NULL, mon->audit, &report);
	publish_metrics(mon, true);
	return result;
}

int ca_cmd_monitor(int argc, char **argv)
{
	struct ca_audit_options opts;
	struct ca_live_options live = { .interval_ns = 1000000000ull, .buffer_kb = 8192,
					.stop = &stop_requested };
	struct monitor mon = { .save_ns = 10000000000ull };
	struct parsed parsed = { .opts = &opts, .live = &live, .mon = &mon };
	enum ca_result result = CA_RESULT_BAD_INPUT;
	int ret;

	ca_audit_options_default(&opts);
	opts.path = "live";
	ret = parse_args(argc, argv, &parsed);
	if (!ret && topology_default(&opts))
		ret = -1;
	mon.audit = ret ? NULL : calloc(1, sizeof(*mon.audit));
	if (mon.audit)
		result = ca_audit_begin(mon.audit, &opts);
	ca_topology_free(&opts.topology);	/* the audit keeps a copy */
	if (ret)
		return ret > 0 ? CA_EXIT_PASS : CA_EXIT_USAGE;
	if (!mon.audit)
		return CA_EXIT_INPUT;
	if (result != CA_RESULT_PASS)
		ca_cli_error("%s", mon.audit->error);
	else if (start_metrics(&mon))
		result = CA_RESULT_BAD_OPTIONS;
	else
		result = watch(&mon, &live, parsed.is_json);
	ca_metrics_stop(mon.server);
	ca_audit_free(mon.audit);
	free(mon.audit);
	return ca_exit_for(result);
}
