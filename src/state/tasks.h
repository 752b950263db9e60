/*
 * tasks.h - what is known about every task seen in the trace.
 *
 * A task's comm, its kernel cookie (known or not), its declared tag, and
 * where it is: running or queued on a CPU, sleeping, or not known.  Checks
 * read this table; only the state stage writes it.
 */
#ifndef COREAUDIT_TASKS_H
#define COREAUDIT_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/event.h"
#include "util/pidmap.h"

enum ca_task_where {
	CA_TASK_UNSEEN,		/* no event has told where it is */
	CA_TASK_SLEEPING,
	CA_TASK_QUEUED,		/* runnable on cpu, not running */
	CA_TASK_RUNNING,	/* current on cpu */
	CA_TASK_DEAD,
};

struct ca_task {
	int pid;
	int tgid;		/* pid unless learned otherwise */
	char comm[CA_COMM_LEN];
	bool is_cookie_known;
	uint64_t cookie;
	/*
	 * The first cookie observed (probe, marker) before any prctl changed
	 * it: the cookie the task had since before the trace, which settles
	 * windows that closed before it was observed.
	 */
	bool has_first_cookie;
	bool is_prctl_touched;
	uint64_t first_cookie;
	/* The last prctl that changed it: the kernel set it somewhere in between. */
	uint64_t cookie_change_from;
	uint64_t cookie_change_to;
	/*
	 * The last run at whose end the probe showed another cookie than at its
	 * start: a prctl set it while the task ran, at an instant not traced.
	 */
	uint64_t run_change_from;
	uint64_t run_change_to;
	bool has_probe_in;	/* the probe showed its cookie at its last switch-in: */
	uint64_t probe_in;	/* this one */
	uint64_t queued_ts;	/* when it was last queued */
	int tag;		/* 0: untagged, else index+1 into the tag names */
	int prio;		/* last seen in a sched_switch; 120 until then */
	enum ca_task_where where;
	int cpu;		/* for QUEUED and RUNNING */
};

struct ca_tasks {
	struct ca_pidmap map;
	struct ca_task *items;
	uint32_t count;
	uint32_t capacity;
	char **tag_names;
	int tag_count;
};

int ca_tasks_init(struct ca_tasks *tasks);
void ca_tasks_free(struct ca_tasks *tasks);

/** ca_tasks_find() - Return: the task with @pid, or NULL. */
struct ca_task *ca_tasks_find(struct ca_tasks *tasks, int pid);

/** ca_tasks_lookup() - the same for readers of a table they may not change */
const struct ca_task *ca_tasks_lookup(const struct ca_tasks *tasks, int pid);

/**
 * ca_tasks_get() - the task with @pid, created (cookie unknown, untagged,
 *                  unseen) when new.
 * Return: the task, or NULL on allocation failure.
 */
struct ca_task *ca_tasks_get(struct ca_tasks *tasks, int pid);

/**
 * ca_tasks_tag_id() - the id of tag @name, interned on first use
 * Return: id >= 1, or -ENOMEM.
 */
int ca_tasks_tag_id(struct ca_tasks *tasks, const char *name);

/** ca_tasks_tag_name() - Return: the tag's name, "" for 0. */
const char *ca_tasks_tag_name(const struct ca_tasks *tasks, int tag);

#endif
