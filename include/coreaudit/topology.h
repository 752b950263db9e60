/*
 * topology.h - which CPUs are SMT siblings of one core.
 *
 * Parsed from "0,1 2,3" (option or coreaudit-topology marker) or from sysfs
 * lists ("0-1").  Any number of siblings per core.  Not a source of events.
 */
#ifndef COREAUDIT_TOPOLOGY_H
#define COREAUDIT_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * CPU numbers are below the kernel's largest NR_CPUS (x86 MAXSMP: 8192); a
 * number at or over it is damaged input.  Nothing is sized by it: tables are
 * as large as the highest CPU a topology or trace names.
 */
#define CA_CPU_LIMIT 8192
/* SMT8 (POWER) is the most hardware threads a core has. */
#define CA_MAX_SIBLINGS 8

/* Owns its tables: ca_topology_free(), and ca_topology_copy() to keep one. */
struct ca_topology {
	int core_count;
	int cpu_count;			/* highest CPU + 1 */
	int *core_of_cpu;		/* [cpu_count]; -1: CPU not in the topology */
	int *sibling_count;		/* [core_count] */
	int (*siblings)[CA_MAX_SIBLINGS];	/* [core_count] */
	size_t cpu_room;		/* allocated entries of core_of_cpu */
	int core_room;			/* of sibling_count and siblings */
};

/**
 * ca_topology_parse() - parse "0,1 2,3" or "0-1 2-3" (cores separated by
 *                       spaces, siblings by commas or ranges)
 * @text: the description
 * @topo: filled on success
 * @err: on failure, a message saying what is wrong (at least 128 bytes)
 *
 * Return: 0 on success (free @topo with ca_topology_free()), -EINVAL with
 *         @err set and nothing to free, -ENOMEM.
 */
int ca_topology_parse(const char *text, struct ca_topology *topo, char *err, int err_len);

/**
 * ca_topology_from_sysfs() - the running machine's topology, from
 *     /sys/devices/system/cpu/cpu*\/topology/thread_siblings_list
 * Return: 0, or -EINVAL / -ENOENT with @err set.
 */
int ca_topology_from_sysfs(struct ca_topology *topo, char *err, int err_len);

/**
 * ca_topology_read_file() - a topology from @path: one line per CPU, "CPU SIBLINGS"
 *     as sysfs has them ("1 0-1": CPU 1's thread_siblings_list); blank lines and
 *     lines starting with '#' are skipped
 * Return: 0, -EINVAL with @err set (naming the file and line), -ENOMEM.
 */
int ca_topology_read_file(const char *path, struct ca_topology *topo, char *err, int err_len);

/**
 * ca_topology_format() - print the topology as "0,1 2,3" into @buf
 * Return: the length of the whole text, as snprintf(): @buf holds all of it
 *         only when that is below @len.
 */
int ca_topology_format(const struct ca_topology *topo, char *buf, int len);

/**
 * ca_topology_brief() - as ca_topology_format(), but a topology longer than
 *                       @buf ends after a whole core with " ... (N cores, M
 *                       CPUs)": for messages and reports
 */
void ca_topology_brief(const struct ca_topology *topo, char *buf, int len);

/**
 * ca_topology_text() - the topology as "0,1 2,3", allocated
 * Return: the text (free() it), or NULL when out of memory.
 */
char *ca_topology_text(const struct ca_topology *topo);

/**
 * ca_topology_copy() - make @dst a copy of @src that owns its own tables
 * Return: 0, or -ENOMEM (and @dst empty).
 */
int ca_topology_copy(struct ca_topology *dst, const struct ca_topology *src);

/**
 * ca_cpu_list_parse() - a CPU list as trace-cmd's --cpu takes it: "0,1,4-7"
 * @cpus: set to a table of *@count entries, true for each CPU listed (free() it)
 * Return: 0; -EINVAL with @err set (what is wrong, quoting @text) and nothing
 *         to free; -ENOMEM.
 */
int ca_cpu_list_parse(const char *text, bool **cpus, int *count, char *err, int err_len);

/**
 * ca_topology_restrict() - the cores of @topo that hold a CPU of @list (a CPU
 *     list, as ca_cpu_list_parse()), each whole and in @topo's order, as @out
 *     (its cores numbered from 0; the other CPUs in no core)
 * Return: 0 (free @out with ca_topology_free()); -EINVAL with @err set when
 *         @list does not parse or names a CPU in no core of @topo; -ENOMEM.
 */
int ca_topology_restrict(const struct ca_topology *topo, const char *list,
			 struct ca_topology *out, char *err, int err_len);

/** ca_topology_free() - release the tables (safe on a zeroed or freed topology) */
void ca_topology_free(struct ca_topology *topo);

/** ca_topology_core_of() - Return: the core of @cpu, or -1 (any @cpu, even negative). */
static inline int ca_topology_core_of(const struct ca_topology *topo, int cpu)
{
	return cpu >= 0 && cpu < topo->cpu_count ? topo->core_of_cpu[cpu] : -1;
}

#endif
