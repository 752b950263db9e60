/*
 * guard.c - a fault inside libtracecmd or libtraceevent while they read a
 * trace becomes a bad-input exit, not a crash.
 *
 * Neither library checks the pages it loads: a corrupt page (a damaged
 * zstd chunk in a version 7 file, a commit size past the page in a version 6
 * one) makes kbuffer read out of bounds, and `trace-cmd report` crashes on
 * the same file.  While armed, a SIGSEGV or SIGBUS whose faulting
 * instruction lies in one of those two libraries (or in libc, called from
 * them: a free() of a pointer a damaged header made) jumps back to the
 * caller, as do a SIGFPE (a division by a size read as zero) and a SIGABRT
 * (malloc's own checks) raised there; any other fault (a bug of coreaudit's
 * own) goes to the handler that was there before (the default, or a
 * sanitizer's), so it is never hidden.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdbool.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "guard.h"

static sigjmp_buf *volatile guard_env;
/*
 * The thread that armed the guard: the only one whose stack the jump may
 * return to.  A fault on another thread (a worker decoding, a reader of a
 * part of the CPUs) is not jumped out of: that would resume this thread's
 * frames on that thread's stack.  It goes to the previous handler, as a
 * fault of coreaudit's own does.
 */
static _Thread_local volatile sig_atomic_t is_armed_here;
#define GUARDED_SIGNALS 4
static struct sigaction previous[GUARDED_SIGNALS];
static const int guarded_signals[GUARDED_SIGNALS] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT };

/* The shared object @pc lies in: "libtracecmd.so.1", ...; "" when not known. */
static const char *object_of(const void *pc)
{
	Dl_info info;

	if (!dladdr(pc, &info) || !info.dli_fname)
		return "";
	return info.dli_fname;
}

static bool is_trace_library(const char *object)
{
	return strstr(object, "libtracecmd") || strstr(object, "libtraceevent");
}

static bool is_libc(const char *object)
{
	return strstr(object, "/libc.so") || strstr(object, "/libc-");
}

/*
 * A fault in libc (free() of a pointer a damaged header made, abort() from
 * malloc's checks) is the trace libraries' when libc was called from them:
 * past the signal frame and the libc frames, the first caller decides.
 */
static bool is_called_from_trace_libraries(void)
{
	void *frames[64];
	int count = backtrace(frames, 64), i = 0;

	while (i < count && !is_libc(object_of(frames[i])))
		i++;	/* this handler's frames, up to the signal trampoline */
	while (i < count && is_libc(object_of(frames[i])))
		i++;
	return i < count && is_trace_library(object_of(frames[i]));
}

/* True when the fault is libtracecmd's or libtraceevent's (directly, or through libc). */
static bool is_in_trace_libraries(const void *context)
{
#if defined(__x86_64__)
	const ucontext_t *uc = context;
	const char *object = object_of((void *)uc->uc_mcontext.gregs[REG_RIP]);

	if (is_trace_library(object))
		return true;
	return is_libc(object) && is_called_from_trace_libraries();
#else
	(void)context;
	return false;	/* the faulting instruction is not known here: never jump */
#endif
}

static int signal_index(int sig)
{
	for (int i = 0; i < GUARDED_SIGNALS; i++)
		if (guarded_signals[i] == sig)
			return i;
	return 0;
}

static void on_fault(int sig, siginfo_t *info, void *context)
{
	int i = signal_index(sig);

	(void)info;
	if (guard_env && is_armed_here && is_in_trace_libraries(context))
		siglongjmp(*guard_env, sig);
	/* Not ours to handle: put the previous handler back; the fault repeats into it. */
	sigaction(guarded_signals[i], &previous[i], NULL);
	if (sig == SIGABRT || sig == SIGFPE)
		raise(sig);
}

void ca_guard_arm(sigjmp_buf *env)
{
	struct sigaction action;
	void *warm_up[1];

	backtrace(warm_up, 1);	/* loads the unwinder now, not inside a handler */
	memset(&action, 0, sizeof(action));
	action.sa_sigaction = on_fault;
	action.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&action.sa_mask);
	guard_env = env;
	is_armed_here = true;
	for (int i = 0; i < GUARDED_SIGNALS; i++)
		sigaction(guarded_signals[i], &action, &previous[i]);
}

void ca_guard_disarm(void)
{
	guard_env = NULL;
	is_armed_here = false;
	for (int i = 0; i < GUARDED_SIGNALS; i++)
		sigaction(guarded_signals[i], &previous[i], NULL);
}
