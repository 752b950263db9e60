/*
 * cmd-record.c - `coreaudit record -o FILE [-- CMD ARGS]`: record exactly the
 * events an audit reads into a trace.dat (version 6, uncompressed) that
 * trace-cmd and `coreaudit audit` both read, with a global clock (mono), the
 * topology and the cookies of existing tasks as markers.  It records from the
 * same live pipeline as the monitor and ends with that pipeline's verdict,
 * which an audit of the file repeats.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coreaudit/audit.h"
#include "coreaudit/duration.h"
#include "coreaudit/live.h"
#include "coreaudit/writer.h"
#include "cli.h"
#include "options.h"
#include "snapshot.h"

static volatile sig_atomic_t stop_requested;

/* The one option table of this mode: getopt, parsing and --help come from it. */
static const struct ca_option options[] = {
	CA_OPTION('o', "output", CA_OPT_TEXT, "FILE", "the trace.dat to write"),
	CA_OPTION('t', "topology", CA_OPT_TOPOLOGY, "SPEC",
	  "SMT siblings to declare (default: from sysfs)"),
	CA_OPTION('d', "duration", CA_OPT_SECONDS, "DUR",
	  "stop after DUR, or after DUR seconds if it has no\nunit, as rtla's -d"),
	CA_OPTION('k', "kernel-entry", CA_OPT_FLAG, NULL,
	  "also record irq, softirq and system call entries\nand exits (for audit --report "
	  "exposure: the\nkernel entered for one cookie beside another's\ntask); more events: "
	  "see bench/RESULTS.md for the cost"),
	CA_OPTION('h', "help", CA_OPT_FLAG, NULL, "this text"),
};

static const struct ca_cli_mode mode = {
	.name = "record",
	.synopsis = "-o FILE [OPTIONS] [-- CMD [ARGS]]",
	.description =
		"Record the events coreaudit audits into FILE, a trace.dat (version 6) that\n"
		"trace-cmd and coreaudit audit read, from a tracefs instance of its own with\n"
		"clock mono; a coreaudit-topology marker and the cookies of existing tasks\n"
		"(coreaudit-cookie markers) are written first.  With schedstats on, every\n"
		"thread's forced idle as the kernel counts it (core_forceidle_sum) is written\n"
		"at the start, every second and at the end (coreaudit-kfi markers), for the\n"
		"audit to hold the kernel's accounting to the trace.  Records until CMD exits,\n"
		"for DUR, or until SIGINT.  Needs root.\n",
	.epilogue =
		"DUR takes a unit: ns, us, ms or s (\"500us\", \"10s\"), from 1ns (zero is\n"
		"refused).  "
		"Each option is given at most once.\n"
		"exit status: 0 recorded, 2 usage error, 3 tracefs unusable, FILE unwritable\n"
		"or CMD not started (nothing is written then)\n\n"
		"examples:\n"
		"  coreaudit record -o trace.dat -- ./workload\n"
		"  coreaudit record -o trace.dat -d 10s && coreaudit audit trace.dat\n"
		"  coreaudit record --kernel-entry -o trace.dat -- ./workload &&\n"
		"    coreaudit audit --report exposure trace.dat\n",
	.options = options,
	.option_count = sizeof(options) / sizeof(options[0]),
	.stops_at_operand = true,
};

void ca_cmd_record_usage(void)
{
	ca_cli_usage(&mode);
}

struct recording {
	struct ca_audit *audit;
	struct ca_source *source;
	bool has_forced_idle;		/* schedstats on: coreaudit-kfi markers are written */
	struct ca_writer writer;
	pid_t child;
	int child_status;
	bool is_writer_ready;
	int write_error;
};

static void on_signal(int signal)
{
	(void)signal;
	stop_requested = 1;
}

static int on_page(void *user, int cpu, const void *page, int size)
{
	struct recording *rec = user;

	if (!rec->is_writer_ready)
		return 0;
	rec->write_error = ca_writer_page(&rec->writer, cpu, page, size);
	return rec->write_error;
}

/* Stop when the recorded command exits. */
static bool on_drain(void *user, bool is_interval)
{
	struct recording *rec = user;

	if (is_interval && rec->has_forced_idle)
		ca_snapshot_forced_idle(rec->source);
	if (rec->child > 0 && waitpid(rec->child, &rec->child_status, WNOHANG) == rec->child) {
		rec->child = 0;
		return true;
	}
	return false;
}

/* The last figures, while tracing is still on: the final drain takes them. */
static void on_end(void *user)
{
	struct recording *rec = user;

	if (rec->has_forced_idle)
		ca_snapshot_forced_idle(rec->source);
}

/* The kernel's figures at the start: cookies, and forced idle when schedstats count it. */
static void write_snapshots(struct recording *rec)
{
	ca_snapshot_cookies(rec->source);
	rec->has_forced_idle = ca_snapshot_forced_idle_on();
	if (rec->has_forced_idle)
		ca_snapshot_forced_idle(rec->source);
	else
		fprintf(stderr, "coreaudit: record: schedstats are off (kernel.sched_schedstats): "
			"the kernel's forced idle per task is not recorded, nor its accounting "
			"checked\n");
}

/*
 * Fork and exec CMD.  A pipe closed on exec tells whether it started: the
 * child writes execvp()'s errno into it when it did not.
 * Return: the child's pid; -errno when CMD could not be started (the child
 *         is reaped) or no child could be made.
 */
static pid_t start_command(char **argv)
{
	int fds[2], child_errno = 0;
	ssize_t got;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		execvp(argv[0], argv);
		child_errno = errno;
		if (write(fds[1], &child_errno, sizeof(child_errno)) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		child_errno = errno;
		close(fds[0]);
		return -child_errno;
	}
	do
		got = read(fds[0], &child_errno, sizeof(child_errno));
	while (got < 0 && errno == EINTR);
	close(fds[0]);
	if (got == (ssize_t)sizeof(child_errno)) {
		waitpid(pid, NULL, 0);
		return -child_errno;
	}
	return pid;
}

struct parsed {
	struct ca_audit_options *opts;
	struct ca_live_options *live;
	const char *output;
};

static int apply_option(void *ctx, int id, const struct ca_opt_value *value)
{
	struct parsed *parsed = ctx;

	switch (id) {
	case 'o':
		parsed->output = value->text;
		break;
	case 't':
		parsed->opts->topology = value->topology;
		parsed->opts->has_topology = true;
		break;
	case 'd':
		parsed->live->duration_ns = value->ns;
		break;
	case 'k':
		parsed->live->with_kernel_entry = true;
		break;
	}
	return 0;
}

/* Return: the index of CMD in @argv (argc: none), 0 after --help, -1 on a usage error. */
static int parse_args(int argc, char **argv, struct parsed *parsed)
{
	int first = ca_cli_parse(&mode, argc, argv, apply_option, parsed);

	if (first < 0)
		return first == -1 ? 0 : -1;
	if (!parsed->output) {
		ca_cli_error("record: no output file: give -o FILE");
		return -1;
	}
	return first;
}

/*
 * The tracefs instance opened, the topology held to the machine, the writer
 * ready and the topology marker written.  Return: 0, or the exit status
 * (@source closed).
 */
static int prepare(struct recording *rec, struct ca_live_options *live, struct ca_source *source)
{
	char err[600];
	int ret = 0;

	if (ca_live_open(source, live)) {
		ca_cli_error("record: %s", source->error);
		ret = CA_EXIT_INPUT;
	} else if (!ca_cli_topology_fits("record", &rec->audit->opts.topology,
					 source->info.cpu_count)) {
		ret = CA_EXIT_USAGE;
	} else if (ca_writer_open(&rec->writer, source->info.cpu_count, ca_live_page_size(source),
				  err, sizeof(err))) {
		ca_cli_error("record: %s", err);
		ret = CA_EXIT_INPUT;
	}
	if (ret) {
		ca_source_close(source);
		return ret;
	}
	if (source->warning[0])
		fprintf(stderr, "coreaudit: %s\n", source->warning);
	rec->is_writer_ready = true;
	rec->writer.with_kernel_entry = live->with_kernel_entry;
	if (ca_live_write_topology(source, &rec->audit->opts.topology)) {
		ca_cli_error("record: out of memory");
		ca_source_close(source);
		return CA_EXIT_INPUT;
	}
	return 0;
}

static int record(struct recording *rec, struct ca_live_options *live, const char *output,
		  char **command)
{
	char err[600];
	struct ca_source source;
	char *clock = NULL;
	enum ca_result result;
	int ret = prepare(rec, live, &source);

	if (ret)
		return ret;
	rec->source = &source;
	write_snapshots(rec);
	if (command && command[0]) {
		rec->child = start_command(command);
		if (rec->child < 0) {
			ca_cli_error("record: cannot run %s: %s", command[0], strerror(-rec->child));
			ca_source_close(&source);
			return CA_EXIT_INPUT;
		}
	}
	result = ca_audit_feed(rec->audit, &source);
	if (rec->child > 0)
		waitpid(rec->child, &rec->child_status, 0);
	if (result == CA_RESULT_BAD_INPUT || result == CA_RESULT_BAD_OPTIONS || rec->write_error) {
		ca_cli_error("record: %s", rec->write_error ? "cannot write the pages" :
						 rec->audit->error);
		ca_source_close(&source);
		return CA_EXIT_INPUT;
	}
	/* Before the source closes: closing removes the probe, and with it its format. */
	clock = ca_live_clock_text(&source);
	ret = ca_writer_finish(&rec->writer, output, clock ? clock : "[mono]", err, sizeof(err));
	free(clock);
	ca_source_close(&source);
	if (ret) {
		ca_cli_error("record: %s", err);
		return CA_EXIT_INPUT;
	}
	fprintf(stderr, "coreaudit: recorded %llu events in %s; verdict while recording: %s\n",
		(unsigned long long)rec->audit->events, output,
		ca_verdict_name(rec->audit->verdict));
	return CA_EXIT_PASS;
}

int ca_cmd_record(int argc, char **argv)
{
	struct ca_audit_options opts;
	struct ca_live_options live = { .interval_ns = 1000000000ull, .buffer_kb = 8192,
					.stop = &stop_requested };
	struct parsed parsed = { .opts = &opts, .live = &live };
	struct recording rec = { 0 };
	char err[160];
	int first, ret;

	ca_audit_options_default(&opts);
	opts.path = "live";
	first = parse_args(argc, argv, &parsed);
	if (first <= 0) {
		ca_topology_free(&opts.topology);
		return first == 0 ? CA_EXIT_PASS : CA_EXIT_USAGE;
	}
	if (!opts.has_topology && ca_topology_from_sysfs(&opts.topology, err, sizeof(err))) {
		ca_cli_error("record: no topology: %s; give --topology", err);
		return CA_EXIT_USAGE;
	}
	opts.has_topology = true;
	rec.audit = calloc(1, sizeof(*rec.audit));
	if (!rec.audit || ca_audit_begin(rec.audit, &opts) != CA_RESULT_PASS) {
		ca_topology_free(&opts.topology);
		free(rec.audit);
		return CA_EXIT_INPUT;
	}
	ca_topology_free(&opts.topology);	/* the audit keeps a copy */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	live.on_page = on_page;
	live.on_drain = on_drain;
	live.on_end = on_end;
	live.user = &rec;
	ret = record(&rec, &live, parsed.output, argv + first);
	ca_writer_free(&rec.writer);
	ca_audit_free(rec.audit);
	free(rec.audit);
	return ret;
}
