/*
 * probe.c - libtracecmd's parsing of a trace.dat, tried in a child process.
 *
 * libtracecmd and libtraceevent parse a trace.dat's headers (event formats,
 * their print fmt expressions, kallsyms, printk formats, options) without
 * bounds: a damaged print fmt makes tep_parse_event() fault (a SIGSEGV on a
 * cut field line, a SIGFPE on "__get_str%filename)"; tests/fuzz/README,
 * finding 5).  zchunks.c checks that the header sections are intact text in
 * the layout tracefs writes, but no check short of libtraceevent's own
 * parser can tell every expression it will fault on.  So the parse is done
 * once in a child: if the child dies, the file is refused as damaged and the
 * caller (the CLI, or any program linking libcoreaudit) never runs the parse
 * that would fault.  The parse is deterministic, so a file the child read is
 * one the caller reads.  The same for the CPU data of a file whose layout
 * coreaudit does not know (a page size it does not read, big endian, another
 * compression): libtracecmd reads those pages unchecked, so the child reads
 * them all first.  Not for files coreaudit lays out: their pages are checked
 * before kbuffer reads them (pages.c), which costs nothing extra.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "sources/probe.h"

#define CHILD_DONE 0
#define CHILD_REFUSED 10	/* libtracecmd said no (NULL, -1): the caller says why */
#define CHILD_ENDLESS 11	/* more records than the file can hold */
/* A record takes a 4-byte header at least; compressed data may pack 1024 in that space. */
#define MAX_RECORDS_PER_WORD 1024
#define CHILD_SECONDS 120	/* headers take well under a second; a whole read, seconds */

/* Exported by libtracecmd 1.3 but not declared in its public header. */
int tracecmd_cpus(struct tracecmd_input *handle);

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

/* In the child: default fault handling (not the caller's), quiet, bounded. */
static void enter_child(void)
{
	int null_fd = open("/dev/null", O_WRONLY);

	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		signal(fault_signals[i], SIG_DFL);
	if (null_fd >= 0) {
		dup2(null_fd, STDOUT_FILENO);
		dup2(null_fd, STDERR_FILENO);
	}
	alarm(CHILD_SECONDS);
	tracecmd_set_loglevel(TEP_LOG_NONE);
}

static int parse_headers(const char *path)
{
	return tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS) ? CHILD_DONE : CHILD_REFUSED;
}

/* Every record, no more than the file can hold (a damaged page can yield one forever). */
static int read_records(const char *path)
{
	struct tracecmd_input *handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	uint64_t count = 0, limit;
	struct stat st;

	if (!handle || stat(path, &st))
		return CHILD_REFUSED;
	limit = (uint64_t)st.st_size / 4 * MAX_RECORDS_PER_WORD + 1;
	for (int cpu = 0; cpu < tracecmd_cpus(handle); cpu++)
		for (struct tep_record *rec = tracecmd_read_cpu_first(handle, cpu); rec;
		     rec = tracecmd_read_data(handle, cpu)) {
			tracecmd_free_record(rec);
			if (++count > limit)
				return CHILD_ENDLESS;
		}
	return CHILD_DONE;
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* @job(@path) started in a child: its pid, or -1 when no child could be made. */
static pid_t start_child(const char *path, int (*job)(const char *path))
{
	pid_t pid = fork();	/* the child ends with _exit(): the caller's stdio buffers stay its own */

	if (pid == 0) {
		enter_child();
		_exit(job(path));
	}
	return pid < 0 ? -1 : pid;
}

/* The child @pid waited for; one that did not end by itself faulted @doing. */
static int end_child(pid_t pid, const char *doing, char *error, size_t error_len)
{
	char how[64];
	int status;

	if (pid < 0 || wait_child(pid, &status))
		return 0;
	if (WIFEXITED(status) &&
	    (WEXITSTATUS(status) == CHILD_DONE || WEXITSTATUS(status) == CHILD_REFUSED))
		return 0;
	/* A sanitizer in the child turns a fault into its own exit status. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_ENDLESS)
		snprintf(how, sizeof(how), "more records than the file can hold");
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(how, sizeof(how), "not done in %d s", CHILD_SECONDS);
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "%s", strsignal(WTERMSIG(status)));
	else
		snprintf(how, sizeof(how), "exit %d", WEXITSTATUS(status));
	snprintf(error, error_len, "libtracecmd faults reading %s (%s)", doing, how);
	return -EINVAL;
}

int ca_probe_headers_start(const char *path)
{
	return start_child(path, parse_headers);
}

int ca_probe_headers_end(int probe, char *error, size_t error_len)
{
	return end_child(probe, "its headers", error, error_len);
}

void ca_probe_cancel(int probe)
{
	int status;

	if (probe < 0)
		return;
	kill(probe, SIGKILL);
	wait_child(probe, &status);
}

int ca_probe_records(const char *path, char *error, size_t error_len)
{
	return end_child(start_child(path, read_records), "its CPU data", error, error_len);
}
