/*
 * cli.h - the coreaudit program's modes, registered in main.c's table.
 */
#ifndef CA_CLI_H
#define CA_CLI_H

#include <stdbool.h>

struct ca_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(void);
};

int ca_cmd_audit(int argc, char **argv);
void ca_cmd_audit_usage(void);
int ca_cmd_monitor(int argc, char **argv);
void ca_cmd_monitor_usage(void);
int ca_cmd_record(int argc, char **argv);
void ca_cmd_record_usage(void);

/** ca_cli_error() - print "coreaudit: MESSAGE" to stderr */
void ca_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct ca_topology;

/**
 * ca_cli_topology_fits() - whether @topo names only CPUs 0 to @cpu_count - 1
 *                          of the machine; else says so, for @mode
 */
bool ca_cli_topology_fits(const char *mode, const struct ca_topology *topo, int cpu_count);

#endif
