/*
 * guard.h - faults of the trace-reading libraries as bad input (guard.c).
 */
#ifndef CA_CLI_GUARD_H
#define CA_CLI_GUARD_H

#include <setjmp.h>
#include <stdbool.h>

/**
 * ca_guard_arm() - until ca_guard_disarm(), a SIGSEGV or SIGBUS raised inside
 *                  libtracecmd or libtraceevent on this thread siglongjmp()s
 *                  to @env with the signal number (on another thread: the
 *                  handler that was there before, as any other fault)
 */
void ca_guard_arm(sigjmp_buf *env);

void ca_guard_disarm(void);

#endif
