/*
 * snapshot.c - what the kernel says of every existing thread, written into a
 * recording as markers (snapshot.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "coreaudit/live.h"
#include "coreaudit/number.h"
#include "snapshot.h"

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE 62
#endif
#define PR_SCHED_CORE_GET 0

typedef void (*thread_fn)(struct ca_source *source, int pid, int tid);

/* @fn for every thread of every process in /proc. */
static void for_each_thread(struct ca_source *source, thread_fn fn)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;

	while (proc && (p = readdir(proc))) {
		char path[300];
		DIR *tasks;
		struct dirent *t;
		uint64_t pid, tid;

		if (ca_parse_count(p->d_name, INT_MAX, &pid) || !pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		tasks = opendir(path);
		while (tasks && (t = readdir(tasks)))
			if (!ca_parse_count(t->d_name, INT_MAX, &tid) && tid)
				fn(source, (int)pid, (int)tid);
		if (tasks)
			closedir(tasks);
	}
	if (proc)
		closedir(proc);
}

/* The kernel's cookie of one thread (PR_SCHED_CORE_GET, thread scope). */
static void cookie_marker(struct ca_source *source, int pid, int tid)
{
	unsigned long cookie = 0;
	char marker[96];

	(void)pid;
	if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, (pid_t)tid, 0, (unsigned long)&cookie))
		return;
	snprintf(marker, sizeof(marker), "coreaudit-cookie pid=%d cookie=%#lx", tid, cookie);
	ca_live_write_marker(source, marker);
}

void ca_snapshot_cookies(struct ca_source *source)
{
	for_each_thread(source, cookie_marker);
}

bool ca_snapshot_forced_idle_on(void)
{
	FILE *file = fopen("/proc/sys/kernel/sched_schedstats", "r");
	int on = 0;

	if (!file)
		return false;
	if (fscanf(file, "%d", &on) != 1)
		on = 0;
	fclose(file);
	return on == 1;
}

/*
 * core_forceidle_sum of /proc/PID/task/TID/sched, in ns: the kernel prints
 * milliseconds with six decimals ("core_forceidle_sum : 12.345678").
 */
static bool read_forced_idle(int pid, int tid, uint64_t *ns)
{
	char path[96], line[256];
	unsigned long long ms, frac;
	bool found = false;
	FILE *file;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	file = fopen(path, "r");
	while (file && !found && fgets(line, sizeof(line), file)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "core_forceidle_sum ", 19) || !colon ||
		    sscanf(colon + 1, " %llu.%6llu", &ms, &frac) != 2)
			continue;
		*ns = ms * 1000000ull + frac;
		found = true;
	}
	if (file)
		fclose(file);
	return found;
}

static void forced_idle_marker(struct ca_source *source, int pid, int tid)
{
	char marker[96];
	uint64_t ns;

	if (!read_forced_idle(pid, tid, &ns))
		return;
	snprintf(marker, sizeof(marker), "coreaudit-kfi pid=%d forceidle_ns=%llu", tid,
		 (unsigned long long)ns);
	ca_live_write_marker(source, marker);
}

void ca_snapshot_forced_idle(struct ca_source *source)
{
	for_each_thread(source, forced_idle_marker);
}
