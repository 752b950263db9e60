/*
 * snapshot.h - what the kernel says of every existing thread, written into a
 * recording as markers (snapshot.c): its core-scheduling cookie
 * (coreaudit-cookie), and its forced idle so far (coreaudit-kfi: the
 * kernel's own per-task figure, which an audit compares with the trace's).
 */
#ifndef CA_CLI_SNAPSHOT_H
#define CA_CLI_SNAPSHOT_H

#include <stdbool.h>

#include "coreaudit/source.h"

/** ca_snapshot_cookies() - "coreaudit-cookie pid=TID cookie=0x..." for every thread */
void ca_snapshot_cookies(struct ca_source *source);

/**
 * ca_snapshot_forced_idle_on() - whether the kernel counts forced idle per
 * task: schedstats on (kernel.sched_schedstats); false on any other kernel
 */
bool ca_snapshot_forced_idle_on(void);

/**
 * ca_snapshot_forced_idle() - "coreaudit-kfi pid=TID forceidle_ns=N" for every
 * thread whose /proc/PID/task/TID/sched has core_forceidle_sum
 */
void ca_snapshot_forced_idle(struct ca_source *source);

#endif
