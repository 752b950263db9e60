/*
 * cli.h - the coreaudit program's modes, registered in main.c's table.
 */
#ifndef CA_CLI_H
#define CA_CLI_H

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

#endif
