/*
 * guard.c - a fault inside libtracecmd or libtraceevent while they read a
 * trace becomes a bad-input exit, not a crash.
 *
 * Neither library checks the pages it loads: a corrupt page (a damaged
 * zstd chunk in a version 7 file, a commit size past the page in a version 6
 * one) makes kbuffer read out of bounds, and `trace-cmd report` crashes on
 * the same file.  While armed, a SIGSEGV or SIGBUS whose faulting
 * instruction lies in one of those two libraries jumps back to the caller;
 * any other fault (a bug of coreaudit's own) goes to the handler that was
 * there before (the default, or a sanitizer's), so it is never hidden.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "guard.h"

static sigjmp_buf *volatile guard_env;
static struct sigaction previous[2];
static const int guarded_signals[2] = { SIGSEGV, SIGBUS };

/* True when the instruction that faulted is in libtracecmd or libtraceevent. */
static bool is_in_trace_libraries(const void *context)
{
#if defined(__x86_64__)
	const ucontext_t *uc = context;
	void *pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
	Dl_info info;

	if (!dladdr(pc, &info) || !info.dli_fname)
		return false;
	return strstr(info.dli_fname, "libtracecmd") || strstr(info.dli_fname, "libtraceevent");
#else
	(void)context;
	return false;	/* the faulting instruction is not known here: never jump */
#endif
}

static void on_fault(int sig, siginfo_t *info, void *context)
{
	int i = sig == SIGSEGV ? 0 : 1;

	(void)info;
	if (guard_env && is_in_trace_libraries(context))
		siglongjmp(*guard_env, sig);
	/* Not ours to handle: put the previous handler back; the fault repeats into it. */
	sigaction(guarded_signals[i], &previous[i], NULL);
}

void ca_guard_arm(sigjmp_buf *env)
{
	struct sigaction action;

	memset(&action, 0, sizeof(action));
	action.sa_sigaction = on_fault;
	action.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&action.sa_mask);
	guard_env = env;
	for (int i = 0; i < 2; i++)
		sigaction(guarded_signals[i], &action, &previous[i]);
}

void ca_guard_disarm(void)
{
	guard_env = NULL;
	for (int i = 0; i < 2; i++)
		sigaction(guarded_signals[i], &previous[i], NULL);
}
