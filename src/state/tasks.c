/*
 * tasks.c - the task table: dense array of struct ca_task found through a
 * pidmap, plus the interned tag names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "state/tasks.h"

int ca_tasks_init(struct ca_tasks *tasks)
{
	memset(tasks, 0, sizeof(*tasks));
	ca_pidmap_init(&tasks->map);
	return 0;
}

void ca_tasks_free(struct ca_tasks *tasks)
{
	ca_pidmap_free(&tasks->map);
	free(tasks->items);
	for (int i = 0; i < tasks->tag_count; i++)
		free(tasks->tag_names[i]);
	free(tasks->tag_names);
	memset(tasks, 0, sizeof(*tasks));
}

struct ca_task *ca_tasks_find(struct ca_tasks *tasks, int pid)
{
	return (struct ca_task *)ca_tasks_lookup(tasks, pid);	/* the caller owns the table */
}

const struct ca_task *ca_tasks_lookup(const struct ca_tasks *tasks, int pid)
{
	int64_t index = ca_pidmap_get(&tasks->map, pid);

	return index < 0 ? NULL : &tasks->items[index];
}

static int grow_items(struct ca_tasks *tasks)
{
	uint32_t capacity = tasks->capacity ? tasks->capacity * 2 : 256;
	struct ca_task *items = realloc(tasks->items, capacity * sizeof(*items));

	if (!items)
		return -ENOMEM;
	tasks->items = items;
	tasks->capacity = capacity;
	return 0;
}

struct ca_task *ca_tasks_get(struct ca_tasks *tasks, int pid)
{
	struct ca_task *task = ca_tasks_find(tasks, pid);

	if (task)
		return task;
	if (tasks->count == tasks->capacity && grow_items(tasks))
		return NULL;
	if (ca_pidmap_put(&tasks->map, pid, tasks->count))
		return NULL;
	task = &tasks->items[tasks->count++];
	memset(task, 0, sizeof(*task));
	task->pid = pid;
	task->tgid = pid;
	task->cpu = -1;
	task->prio = 120;
	task->where = CA_TASK_UNSEEN;
	/* The idle tasks (pid 0) are compatible with everything; give them cookie 0. */
	task->is_cookie_known = pid == 0;
	return task;
}

int ca_tasks_tag_id(struct ca_tasks *tasks, const char *name)
{
	char **names;

	for (int i = 0; i < tasks->tag_count; i++)
		if (!strcmp(tasks->tag_names[i], name))
			return i + 1;
	names = realloc(tasks->tag_names, (tasks->tag_count + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	tasks->tag_names = names;
	names[tasks->tag_count] = strdup(name);
	if (!names[tasks->tag_count])
		return -ENOMEM;
	return ++tasks->tag_count;
}

const char *ca_tasks_tag_name(const struct ca_tasks *tasks, int tag)
{
	if (tag <= 0 || tag > tasks->tag_count)
		return "";
	return tasks->tag_names[tag - 1];
}
