/*
 * topology.c - parse and print "0,1 2,3": cores separated by blanks,
 * siblings by commas, ranges allowed ("0-3 4-7").  Every CPU in one core only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/number.h"
#include "coreaudit/topology.h"

/* A CPU number at *@pos: digits only, below CA_MAX_CPUS; the message names the text. */
static int parse_cpu(const char **pos, const char *text, int *cpu, char *err, int err_len)
{
	size_t len = strspn(*pos, "0123456789");
	char digits[24];
	uint64_t value;

	if (!len) {
		if (**pos)
			snprintf(err, err_len, "expected a CPU number at \"%.20s\"", *pos);
		else
			snprintf(err, err_len, "expected a CPU number after \"%.40s\"", text);
		return -EINVAL;
	}
	snprintf(digits, sizeof(digits), "%.*s", (int)(len < 21 ? len : 21), *pos);
	if (len > 20 || ca_parse_count(digits, CA_MAX_CPUS - 1, &value)) {
		snprintf(err, err_len, "CPU %s%s is out of range 0-%d", digits,
			 len > 21 ? "..." : "", CA_MAX_CPUS - 1);
		return -ERANGE;
	}
	*cpu = (int)value;
	*pos += len;
	return 0;
}

static int add_cpu(struct ca_topology *topo, int core, int cpu, char *err, int err_len)
{
	if (topo->core_of_cpu[cpu] != -1) {
		snprintf(err, err_len, "CPU %d appears twice", cpu);
		return -EINVAL;
	}
	if (topo->sibling_count[core] == CA_MAX_SIBLINGS) {
		snprintf(err, err_len, "core %d has more than %d siblings", core, CA_MAX_SIBLINGS);
		return -EINVAL;
	}
	topo->core_of_cpu[cpu] = core;
	topo->siblings[core][topo->sibling_count[core]++] = cpu;
	if (cpu + 1 > topo->cpu_count)
		topo->cpu_count = cpu + 1;
	return 0;
}

/* One core: "0,1" or "0-3" or "0-1,4". */
static int parse_core(const char **pos, const char *text, struct ca_topology *topo, char *err,
		      int err_len)
{
	int core = topo->core_count;

	if (core == CA_MAX_CPUS) {
		snprintf(err, err_len, "more than %d cores", CA_MAX_CPUS);
		return -EINVAL;
	}
	for (;;) {
		int first, last;

		if (parse_cpu(pos, text, &first, err, err_len))
			return -EINVAL;
		last = first;
		if (**pos == '-') {
			(*pos)++;
			if (parse_cpu(pos, text, &last, err, err_len))
				return -EINVAL;
		}
		if (last < first) {
			snprintf(err, err_len, "range %d-%d goes down (write %d-%d)", first, last,
				 last, first);
			return -EINVAL;
		}
		for (int cpu = first; cpu <= last; cpu++)
			if (add_cpu(topo, core, cpu, err, err_len))
				return -EINVAL;
		if (**pos != ',')
			break;
		(*pos)++;
	}
	topo->core_count++;
	return 0;
}

int ca_topology_parse(const char *text, struct ca_topology *topo, char *err, int err_len)
{
	const char *pos = text;

	memset(topo, 0, sizeof(*topo));
	for (int cpu = 0; cpu < CA_MAX_CPUS; cpu++)
		topo->core_of_cpu[cpu] = -1;
	for (;;) {
		while (isspace((unsigned char)*pos))
			pos++;
		if (!*pos)
			break;
		if (parse_core(&pos, text, topo, err, err_len))
			return -EINVAL;
		if (*pos && !isspace((unsigned char)*pos)) {
			snprintf(err, err_len, "unexpected \"%.20s\" after core %d: cores are "
				 "separated by blanks, CPUs by commas", pos, topo->core_count - 1);
			return -EINVAL;
		}
	}
	if (!topo->core_count) {
		snprintf(err, err_len, "no CPUs given");
		return -EINVAL;
	}
	return 0;
}

void ca_topology_format(const struct ca_topology *topo, char *buf, int len)
{
	int used = 0;

	buf[0] = '\0';
	for (int core = 0; core < topo->core_count && used < len; core++) {
		for (int i = 0; i < topo->sibling_count[core] && used < len; i++)
			used += snprintf(buf + used, len - used, "%s%d",
					 i ? "," : (core ? " " : ""), topo->siblings[core][i]);
	}
}

/* The first CPU of a sysfs list ("0-1", "0,4"), or -1. */
static int first_cpu(const char *list)
{
	char digits[8];
	size_t len = strspn(list, "0123456789");
	uint64_t cpu;

	if (!len || len >= sizeof(digits))
		return -1;
	snprintf(digits, sizeof(digits), "%.*s", (int)len, list);
	return ca_parse_count(digits, CA_MAX_CPUS - 1, &cpu) ? -1 : (int)cpu;
}

int ca_topology_from_sysfs(struct ca_topology *topo, char *err, int err_len)
{
	char spec[1024] = "", list[128], path[128];
	int used = 0;

	for (int cpu = 0; cpu < CA_MAX_CPUS; cpu++) {
		FILE *file;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		file = fopen(path, "r");
		if (!file)
			continue;
		if (fgets(list, sizeof(list), file)) {
			list[strcspn(list, "\n")] = '\0';
			/* each core once: its list starts with its lowest CPU */
			if (first_cpu(list) == cpu && used < (int)sizeof(spec))
				used += snprintf(spec + used, sizeof(spec) - used, "%s%s",
						 used ? " " : "", list);
		}
		fclose(file);
	}
	if (!used) {
		snprintf(err, err_len, "no thread_siblings_list in /sys/devices/system/cpu");
		return -ENOENT;
	}
	return ca_topology_parse(spec, topo, err, err_len);
}
