/*
 * topology.h - which CPUs are SMT siblings of one core.
 *
 * Parsed from "0,1 2,3" (option or coreaudit-topology marker) or from sysfs
 * lists ("0-1").  Any number of siblings per core.  Not a source of events.
 */
#ifndef COREAUDIT_TOPOLOGY_H
#define COREAUDIT_TOPOLOGY_H

#define CA_MAX_CPUS 64
#define CA_MAX_SIBLINGS 8

struct ca_topology {
	int core_count;
	int cpu_count;				/* highest CPU + 1 */
	int core_of_cpu[CA_MAX_CPUS];		/* -1: CPU not in the topology */
	int sibling_count[CA_MAX_CPUS];		/* per core */
	int siblings[CA_MAX_CPUS][CA_MAX_SIBLINGS];	/* per core */
};

/**
 * ca_topology_parse() - parse "0,1 2,3" or "0-1 2-3" (cores separated by
 *                       spaces, siblings by commas or ranges)
 * @text: the description
 * @topo: filled on success
 * @err: on failure, a message saying what is wrong (at least 128 bytes)
 *
 * Return: 0 on success, -EINVAL with @err set.
 */
int ca_topology_parse(const char *text, struct ca_topology *topo, char *err, int err_len);

/**
 * ca_topology_from_sysfs() - the running machine's topology, from
 *     /sys/devices/system/cpu/cpu*\/topology/thread_siblings_list
 * Return: 0, or -EINVAL / -ENOENT with @err set.
 */
int ca_topology_from_sysfs(struct ca_topology *topo, char *err, int err_len);

/**
 * ca_topology_format() - print the topology as "0,1 2,3"
 */
void ca_topology_format(const struct ca_topology *topo, char *buf, int len);

#endif
