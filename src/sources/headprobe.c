/*
 * headprobe.c - libtracecmd's header parsing, tried in a child process.
 *
 * libtracecmd and libtraceevent parse a trace.dat's headers (event formats,
 * their print fmt expressions, kallsyms, printk formats, options) without
 * bounds: a damaged print fmt makes tep_parse_event() fault (a SIGSEGV on a
 * cut field line, a SIGFPE on "__get_str%(filename)"; tests/fuzz/README,
 * finding 5).  zchunks.c checks that the header sections are intact text in
 * the layout tracefs writes, but no check short of libtraceevent's own
 * parser can tell every expression it will fault on.  So the parse is done
 * once in a child: if the child dies, the file is refused as damaged and the
 * caller (the CLI, or any program linking libcoreaudit) never runs the parse
 * that would fault.  The parse is deterministic, so a file the child read is
 * one the caller reads.  Not for the CPU data: pages are checked before
 * kbuffer reads them (pages.c), which costs nothing extra.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "headprobe.h"

#define CHILD_OPENED 0
#define CHILD_REFUSED 10	/* tracecmd_open_head() returned NULL: the caller says why */
#define CHILD_SECONDS 120	/* header parsing of a real trace takes well under a second */

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

/* In the child: default fault handling (not the caller's), quiet, bounded. */
static void child_parse(const char *path)
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
	_exit(tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS) ? CHILD_OPENED :
	      CHILD_REFUSED);
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int ca_headers_probe(const char *path, char *error, size_t error_len)
{
	char how[64];
	pid_t pid;
	int status;

	pid = fork();	/* the child ends with _exit(): the caller's stdio buffers stay its own */
	if (pid < 0)
		return 0;
	if (pid == 0)
		child_parse(path);
	if (wait_child(pid, &status))
		return 0;
	if (WIFEXITED(status) &&
	    (WEXITSTATUS(status) == CHILD_OPENED || WEXITSTATUS(status) == CHILD_REFUSED))
		return 0;
	/* A sanitizer in the child turns a fault into its own exit status. */
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(how, sizeof(how), "not done in %d s", CHILD_SECONDS);
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "%s", strsignal(WTERMSIG(status)));
	else
		snprintf(how, sizeof(how), "exit %d", WEXITSTATUS(status));
	snprintf(error, error_len, "libtracecmd faults reading its headers (%s)", how);
	return -EINVAL;
}
