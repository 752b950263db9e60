/*
 * main.c - the coreaudit program: dispatch to a mode from the command table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "exit.h"
#include "cli.h"
#include "coreaudit/topology.h"

static const struct ca_command commands[] = {
	{ "audit", "audit a trace file: isolation, forced idle, starvation",
	  ca_cmd_audit, ca_cmd_audit_usage },
	{ "monitor", "the same checks live, on the running kernel",
	  ca_cmd_monitor, ca_cmd_monitor_usage },
	{ "record", "record the events an audit reads into a trace.dat",
	  ca_cmd_record, ca_cmd_record_usage },
};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

void ca_cli_error(const char *fmt, ...)
{
	va_list args;

	fputs("coreaudit: ", stderr);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}

bool ca_cli_topology_fits(const char *mode, const struct ca_topology *topo, int cpu_count)
{
	if (topo->cpu_count <= cpu_count)
		return true;
	ca_cli_error("%s: --topology names CPU %d, but this machine's CPUs are 0 to %d", mode,
		     topo->cpu_count - 1, cpu_count - 1);
	return false;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: coreaudit COMMAND [OPTIONS] [ARGS]\n\n"
		"Verify Linux core scheduling from scheduler traces.\n\ncommands:\n");
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n  coreaudit COMMAND --help   options of one command (or: coreaudit help "
		"COMMAND)\n  coreaudit -V, --version    the version\n  coreaudit -h, --help       "
		"this text\n\n"
		"exit status: 0 all checks held, 1 a check failed, 2 usage error,\n"
		"             3 bad or unreadable input, 4 inconclusive\n\n"
		"example:\n  coreaudit audit --topology \"0,1 2,3\" trace.dat\n");
}

static const struct ca_command *find_command(const char *name)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct ca_command *command;

	if (argc < 2) {
		usage(stderr);
		return CA_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return CA_EXIT_PASS;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("coreaudit %s\n", PACKAGE_VERSION);
		return CA_EXIT_PASS;
	}
	if (!strcmp(argv[1], "help") && argc == 3 && (command = find_command(argv[2]))) {
		command->usage();
		return CA_EXIT_PASS;
	}
	command = find_command(argv[1]);
	if (!command) {
		ca_cli_error("unknown command '%s'; see coreaudit --help", argv[1]);
		return CA_EXIT_USAGE;
	}
	return command->run(argc - 1, argv + 1);
}
