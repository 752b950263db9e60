/*
 * workload.c - a scheduler workload with known groups, for coreaudit's
 * end-to-end tests and the real-kernel harness.
 *
 *   workload [-d SECONDS] [-m MARKER_FILE] [-s MS] GROUP...
 *   GROUP = NAME:TASKS:DUTY%:COOKIE:POLICY[:CPU[/CPU...]]
 *
 * Each group is one process.  With COOKIE 1 it creates a core-scheduling
 * cookie for its thread group (prctl PR_SCHED_CORE_CREATE) before forking
 * TASKS-1 children, which inherit it.  With COOKIE 2 the cookie comes late:
 * the group is a process group of its own, its children are forked without
 * a cookie, and 100 ms after the start the first task, running, creates one
 * for the whole process group: every task gets it while queued or running
 * (the case 91caa5ae fixed).  It writes "coreaudit-tag pid=P tag=NAME"
 * to the marker file.  Once every group is set up, every task spins in 2 ms
 * slices, sleeping to keep its duty cycle; POLICY f runs it SCHED_FIFO priority
 * 10, o SCHED_OTHER; CPU pins the group, CPU/CPU... pins its task i to the
 * i-th CPU of the list (modulo its length).  At exit each task prints its kernel
 * figures from /proc/self/sched:
 * "task pid=P group=G cookie=C forceidle_ns=N runtime_ns=N".
 * With -s MS every task also writes "coreaudit-kfi pid=P forceidle_ns=N" (its
 * core_forceidle_sum so far) to the marker file every MS milliseconds: the
 * kernel's charge over time, to find where a model of it goes wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE 62
#define PR_SCHED_CORE_GET 0
#define PR_SCHED_CORE_CREATE 1
#endif
#define SCOPE_THREAD_GROUP 1
#define SCOPE_PROCESS_GROUP 2
#define LATE_COOKIE_NS 100000000ull
#define MAX_CPUS 8
#define SLICE_NS 2000000ull
#define MAX_GROUPS 16

struct group {
	char name[32];
	int tasks;
	int duty;
	int cookie;
	char policy;
	int cpus[MAX_CPUS];	/* task i pinned to cpus[i % cpu_count] */
	int cpu_count;		/* 0: not pinned */
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* "0" or "0/1/...": the CPUs of @g; false on anything else. */
static bool parse_cpus(const char *text, struct group *g)
{
	char *end;

	for (g->cpu_count = 0; g->cpu_count < MAX_CPUS; text = end + 1) {
		long cpu = strtol(text, &end, 10);

		if (end == text || cpu < 0 || cpu >= CPU_SETSIZE || (*end && *end != '/'))
			return false;
		g->cpus[g->cpu_count++] = (int)cpu;
		if (!*end)
			return true;
	}
	return false;
}

static int parse_group(const char *text, struct group *g)
{
	char policy = 0, cpus[64] = "";
	int n;

	g->cpu_count = 0;
	n = sscanf(text, "%31[^:]:%d:%d:%d:%c:%63s", g->name, &g->tasks, &g->duty, &g->cookie,
		   &policy, cpus);
	g->policy = policy;
	if (n < 5 || g->tasks < 1 || g->duty < 1 || g->duty > 100 || g->cookie < 0 ||
	    g->cookie > 2 || (policy != 'f' && policy != 'o') || (n == 6 && !parse_cpus(cpus, g))) {
		fprintf(stderr, "workload: bad group \"%s\": want "
			"NAME:TASKS:DUTY%%:COOKIE:POLICY[:CPU[/CPU...]]\n", text);
		return -1;
	}
	return 0;
}

static void write_marker(const char *path, const char *text)
{
	int fd = path ? open(path, O_WRONLY) : -1;

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		perror("workload: marker");
	close(fd);
}

static void spin_until(unsigned long long end)
{
	while (now_ns() < end)
		;
}

static unsigned long long sched_field(const char *name);

static const char *marker_path;
static unsigned long long sample_ns;	/* 0: no forced-idle samples */

static void sample_forced_idle(unsigned long long *next_sample)
{
	char text[96];

	if (!sample_ns || now_ns() < *next_sample)
		return;
	snprintf(text, sizeof(text), "coreaudit-kfi pid=%d forceidle_ns=%llu\n", getpid(),
		 sched_field("core_forceidle_sum"));
	write_marker(marker_path, text);
	*next_sample = now_ns() + sample_ns;
}

/* COOKIE 2: the first task creates its process group's cookie, running, at @late. */
static void create_late_cookie(const struct group *g, unsigned long long *late)
{
	if (!*late || now_ns() < *late)
		return;
	*late = 0;
	if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, SCOPE_PROCESS_GROUP, 0))
		fprintf(stderr, "workload: %s: PR_SCHED_CORE_CREATE (late): %s\n", g->name,
			strerror(errno));
}

static void run_duty_cycle(const struct group *g, unsigned long long until,
			   unsigned long long late)
{
	unsigned long long sleep_ns = SLICE_NS * (100 - g->duty) / g->duty;
	unsigned long long next_sample = 0;

	while (now_ns() < until) {
		create_late_cookie(g, &late);
		sample_forced_idle(&next_sample);
		spin_until(now_ns() + SLICE_NS);
		if (sleep_ns) {
			struct timespec ts = { .tv_sec = sleep_ns / 1000000000ull,
					       .tv_nsec = sleep_ns % 1000000000ull };

			nanosleep(&ts, NULL);
		}
	}
}

static unsigned long long sched_field(const char *name)
{
	FILE *file = fopen("/proc/self/sched", "r");
	char line[256];
	unsigned long long value = 0;

	while (file && fgets(line, sizeof(line), file)) {
		char *colon = strchr(line, ':');
		double ms;

		if (!colon || strncmp(line, name, strlen(name)) || line[strlen(name)] != ' ')
			continue;
		/* Values are milliseconds with 6 decimals. */
		if (sscanf(colon + 1, "%lf", &ms) == 1)
			value = (unsigned long long)(ms * 1e6 + 0.5);
	}
	if (file)
		fclose(file);
	return value;
}

static void report_task(const struct group *g)
{
	unsigned long cookie = 0;

	prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, 0, (unsigned long)&cookie);
	printf("task pid=%d group=%s cookie=%lx forceidle_ns=%llu runtime_ns=%llu\n", getpid(),
	       g->name, cookie, sched_field("core_forceidle_sum"),
	       sched_field("se.sum_exec_runtime"));
	fflush(stdout);
}

static void set_policy(const struct group *g, int task)
{
	if (g->cpu_count) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(g->cpus[task % g->cpu_count], &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("workload: sched_setaffinity");
	}
	if (g->policy == 'f') {
		struct sched_param param = { .sched_priority = 10 };

		if (sched_setscheduler(0, SCHED_FIFO, &param))
			perror("workload: SCHED_FIFO");
	}
}

/*
 * Tell the parent this group is set up (policy, cookie, tag), then block until
 * every group is: no task spins while a cookie is still being created, so the
 * run starts from settled cookies (during PR_SCHED_CORE_CREATE the kernel
 * selects without leaving an event; README, The real-kernel harness).
 */
static void wait_for_start(int ready_fd, int go_fd)
{
	char byte = 1;

	if (write(ready_fd, &byte, 1) != 1)
		perror("workload: ready");
	close(ready_fd);
	while (read(go_fd, &byte, 1) < 0 && errno == EINTR)
		;
	close(go_fd);
}

static int run_group(const struct group *g, const char *marker, double seconds, int ready_fd,
		     int go_fd)
{
	unsigned long long until;
	char text[96];

	set_policy(g, 0);
	if (g->cookie == 1 && prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, SCOPE_THREAD_GROUP, 0))
		fprintf(stderr, "workload: %s: PR_SCHED_CORE_CREATE: %s\n", g->name,
			strerror(errno));
	if (g->cookie == 2 && setpgid(0, 0))
		perror("workload: setpgid");
	snprintf(text, sizeof(text), "coreaudit-tag pid=%d tag=%s\n", getpid(), g->name);
	write_marker(marker, text);
	wait_for_start(ready_fd, go_fd);
	until = now_ns() + (unsigned long long)(seconds * 1e9);
	for (int i = 1; i < g->tasks; i++) {
		if (fork() == 0) {
			if (g->cpu_count > 1)
				set_policy(g, i);
			run_duty_cycle(g, until, 0);
			report_task(g);
			_exit(0);
		}
	}
	run_duty_cycle(g, until, g->cookie == 2 ? now_ns() + LATE_COOKIE_NS : 0);
	report_task(g);
	while (wait(NULL) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	struct group groups[MAX_GROUPS];
	const char *marker = "/sys/kernel/tracing/trace_marker";
	double seconds = 4;
	int count = 0, opt, ready[2], go[2];
	char byte;

	while ((opt = getopt(argc, argv, "d:m:s:")) != -1) {
		if (opt == 'd')
			seconds = atof(optarg);
		else if (opt == 'm')
			marker = optarg;
		else if (opt == 's')
			sample_ns = (unsigned long long)(atof(optarg) * 1e6);
		else
			return 2;
	}
	for (; optind < argc && count < MAX_GROUPS; optind++, count++)
		if (parse_group(argv[optind], &groups[count]))
			return 2;
	if (!count || seconds <= 0) {
		fprintf(stderr, "usage: workload [-d SECONDS] [-m MARKER_FILE] [-s MS] "
			"NAME:TASKS:DUTY%%:COOKIE:POLICY[:CPU[/CPU...]]...\n");
		return 2;
	}
	marker_path = marker;
	if (pipe(ready) || pipe(go)) {
		perror("workload: pipe");
		return 1;
	}
	for (int i = 0; i < count; i++) {
		if (fork() == 0) {
			close(ready[0]);
			close(go[1]);
			_exit(run_group(&groups[i], marker, seconds, ready[1], go[0]));
		}
	}
	close(ready[1]);
	close(go[0]);
	for (int i = 0; i < count; i++)	/* every group set up */
		if (read(ready[0], &byte, 1) != 1)
			break;
	close(go[1]);			/* go */
	while (wait(NULL) > 0)
		;
	return 0;
}
