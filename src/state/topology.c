/*
 * topology.c - parse and print "0,1 2,3": cores separated by blanks,
 * siblings by commas, ranges allowed ("0-3 4-7").  Every CPU in one core only.
 * The tables grow with the CPUs and cores named: any count below CA_CPU_LIMIT.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/number.h"
#include "coreaudit/topology.h"
#include "util/grow.h"

/* A CPU number at *@pos: digits only, below CA_CPU_LIMIT; the message names the text. */
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
	if (len > 20 || ca_parse_count(digits, CA_CPU_LIMIT - 1, &value)) {
		snprintf(err, err_len, "CPU %s%s is out of range 0-%d", digits,
			 len > 21 ? "..." : "", CA_CPU_LIMIT - 1);
		return -ERANGE;
	}
	*cpu = (int)value;
	*pos += len;
	return 0;
}


/* Room for core @core in sibling_count and siblings, new entries empty. */
static int room_for_core(struct ca_topology *topo, int core)
{
	int room = topo->core_room ? topo->core_room * 2 : 32;
	int *counts;
	int (*siblings)[CA_MAX_SIBLINGS];

	if (core < topo->core_room)
		return 0;
	counts = realloc(topo->sibling_count, room * sizeof(*counts));
	if (counts)
		topo->sibling_count = counts;
	siblings = counts ? realloc(topo->siblings, room * sizeof(*siblings)) : NULL;
	if (!siblings)
		return -ENOMEM;
	topo->siblings = siblings;
	memset(counts + topo->core_room, 0, (room - topo->core_room) * sizeof(*counts));
	topo->core_room = room;
	return 0;
}

static int add_cpu(struct ca_topology *topo, int core, int cpu, char *err, int err_len)
{
	/* new entries -1: not in the topology */
	if (ca_grow_filled(&topo->core_of_cpu, cpu, &topo->cpu_room, sizeof(int), 0xff)) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
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

/* "4" or "4-7" at *@pos: *@first to *@last, not going down. */
static int parse_range(const char **pos, const char *text, int *first, int *last, char *err,
		       int err_len)
{
	int ret;

	if ((ret = parse_cpu(pos, text, first, err, err_len)))
		return ret;
	*last = *first;
	if (**pos == '-') {
		(*pos)++;
		if ((ret = parse_cpu(pos, text, last, err, err_len)))
			return ret;
	}
	if (*last < *first) {
		snprintf(err, err_len, "range %d-%d goes down (write %d-%d)", *first, *last, *last,
			 *first);
		return -EINVAL;
	}
	return 0;
}

/* One core: "0,1" or "0-3" or "0-1,4". */
static int parse_core(const char **pos, const char *text, struct ca_topology *topo, char *err,
		      int err_len)
{
	int core = topo->core_count;
	int ret;

	if (room_for_core(topo, core)) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	for (;;) {
		int first, last;

		if ((ret = parse_range(pos, text, &first, &last, err, err_len)))
			return ret;
		for (int cpu = first; cpu <= last; cpu++)
			if ((ret = add_cpu(topo, core, cpu, err, err_len)))
				return ret;
		if (**pos != ',')
			break;
		(*pos)++;
	}
	topo->core_count++;
	return 0;
}

static int parse_cores(const char *text, struct ca_topology *topo, char *err, int err_len)
{
	const char *pos = text;
	int ret;

	for (;;) {
		while (isspace((unsigned char)*pos))
			pos++;
		if (!*pos)
			break;
		if ((ret = parse_core(&pos, text, topo, err, err_len)))
			return ret;
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

int ca_topology_parse(const char *text, struct ca_topology *topo, char *err, int err_len)
{
	int ret;

	memset(topo, 0, sizeof(*topo));
	ret = parse_cores(text, topo, err, err_len);
	if (ret)
		ca_topology_free(topo);
	return ret && ret != -ENOMEM ? -EINVAL : ret;
}

/* One item of a CPU list, "4" or "4-7", marked in *@cpus (grown as CPU tables are). */
static int parse_list_item(const char **pos, const char *text, bool **cpus, size_t *room,
			   int *count, char *err, int err_len)
{
	int first, last, ret;

	if ((ret = parse_range(pos, text, &first, &last, err, err_len)))
		return ret;
	if (ca_grow_zeroed(cpus, (size_t)last, room, sizeof(**cpus))) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	for (int cpu = first; cpu <= last; cpu++)
		(*cpus)[cpu] = true;
	if (last + 1 > *count)
		*count = last + 1;
	return 0;
}

int ca_cpu_list_parse(const char *text, bool **cpus, int *count, char *err, int err_len)
{
	const char *pos = text;
	size_t room = 0;
	int ret;

	*cpus = NULL;
	*count = 0;
	for (;;) {
		if ((ret = parse_list_item(&pos, text, cpus, &room, count, err, err_len)))
			break;
		if (!*pos)
			return 0;
		if (*pos != ',') {
			snprintf(err, err_len, "unexpected \"%.20s\": a CPU list is numbers and "
				 "ranges separated by commas, as \"0,1,4-7\"", pos);
			ret = -EINVAL;
			break;
		}
		pos++;
	}
	free(*cpus);
	*cpus = NULL;
	*count = 0;
	return ret == -ENOMEM ? ret : -EINVAL;
}

/* Add core @core of @topo, whole, to @out as its next core. */
static int add_whole_core(struct ca_topology *out, const struct ca_topology *topo, int core,
			  char *err, int err_len)
{
	int ret;

	if (room_for_core(out, out->core_count)) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < topo->sibling_count[core]; i++)
		if ((ret = add_cpu(out, out->core_count, topo->siblings[core][i], err, err_len)))
			return ret;
	out->core_count++;
	return 0;
}

/* The cores of @topo with a CPU set in @cpus, whole, into @out; a CPU of no core is an error. */
static int restrict_to(const struct ca_topology *topo, const bool *cpus, int count,
		       struct ca_topology *out, char *err, int err_len)
{
	char text[128];
	int ret;

	for (int cpu = 0; cpu < count; cpu++) {
		if (!cpus[cpu] || ca_topology_core_of(topo, cpu) >= 0)
			continue;
		ca_topology_brief(topo, text, sizeof(text));
		snprintf(err, err_len, "CPU %d is in no core of the topology \"%s\"", cpu, text);
		return -EINVAL;
	}
	for (int core = 0; core < topo->core_count; core++) {
		bool is_listed = false;

		for (int i = 0; i < topo->sibling_count[core]; i++) {
			int cpu = topo->siblings[core][i];

			is_listed |= cpu < count && cpus[cpu];
		}
		if (is_listed && (ret = add_whole_core(out, topo, core, err, err_len)))
			return ret;
	}
	return 0;
}

int ca_topology_restrict(const struct ca_topology *topo, const char *list,
			 struct ca_topology *out, char *err, int err_len)
{
	bool *cpus;
	int count, ret;

	memset(out, 0, sizeof(*out));
	ret = ca_cpu_list_parse(list, &cpus, &count, err, err_len);
	if (!ret)
		ret = restrict_to(topo, cpus, count, out, err, err_len);
	free(cpus);
	if (ret)
		ca_topology_free(out);
	return ret;
}

void ca_topology_free(struct ca_topology *topo)
{
	free(topo->core_of_cpu);
	free(topo->sibling_count);
	free(topo->siblings);
	memset(topo, 0, sizeof(*topo));
}

int ca_topology_copy(struct ca_topology *dst, const struct ca_topology *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->cpu_count)
		return 0;
	dst->core_of_cpu = malloc(src->cpu_count * sizeof(*dst->core_of_cpu));
	dst->sibling_count = malloc((src->core_count + 1) * sizeof(*dst->sibling_count));
	dst->siblings = malloc((src->core_count + 1) * sizeof(*dst->siblings));
	if (!dst->core_of_cpu || !dst->sibling_count || !dst->siblings) {
		ca_topology_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->core_of_cpu, src->core_of_cpu, src->cpu_count * sizeof(*dst->core_of_cpu));
	memcpy(dst->sibling_count, src->sibling_count,
	       src->core_count * sizeof(*dst->sibling_count));
	memcpy(dst->siblings, src->siblings, src->core_count * sizeof(*dst->siblings));
	dst->core_count = src->core_count;
	dst->cpu_count = src->cpu_count;
	dst->cpu_room = (size_t)src->cpu_count;
	dst->core_room = src->core_count + 1;
	return 0;
}

int ca_topology_format(const struct ca_topology *topo, char *buf, int len)
{
	int used = 0;

	if (len > 0)
		buf[0] = '\0';
	for (int core = 0; core < topo->core_count; core++) {
		for (int i = 0; i < topo->sibling_count[core]; i++) {
			int room = used < len ? len - used : 0;

			used += snprintf(room ? buf + used : NULL, room, "%s%d",
					 i ? "," : (core ? " " : ""), topo->siblings[core][i]);
		}
	}
	return used;
}

void ca_topology_brief(const struct ca_topology *topo, char *buf, int len)
{
	char tail[64];
	int tail_len, cpus = 0;

	if (ca_topology_format(topo, buf, len) < len)
		return;
	for (int core = 0; core < topo->core_count; core++)
		cpus += topo->sibling_count[core];
	tail_len = snprintf(tail, sizeof(tail), " ... (%d cores, %d CPUs)", topo->core_count, cpus);
	if (len <= tail_len + 1)
		return;
	/* cut after a whole core, and say how many there are */
	buf[len - tail_len - 1] = '\0';
	if (strrchr(buf, ' '))
		*strrchr(buf, ' ') = '\0';
	strncat(buf, tail, len - strlen(buf) - 1);
}

char *ca_topology_text(const struct ca_topology *topo)
{
	int len = ca_topology_format(topo, NULL, 0) + 1;
	char *text = malloc(len);

	if (text)
		ca_topology_format(topo, text, len);
	return text;
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
	return ca_parse_count(digits, CA_CPU_LIMIT - 1, &cpu) ? -1 : (int)cpu;
}

/* The core @list ("0-1") appended to the spec *@spec of *@used of *@room bytes. */
static int append_core(const char *list, char **spec, size_t *used, size_t *room)
{
	size_t len = strlen(list) + 2;

	while (*used + len >= *room) {
		char *grown = realloc(*spec, *room * 2);

		if (!grown)
			return -ENOMEM;
		*spec = grown;
		*room *= 2;
	}
	*used += snprintf(*spec + *used, *room - *used, "%s%s", *used ? " " : "", list);
	return 0;
}

/* cpu@cpu's thread_siblings_list appended to @spec when @cpu is the first CPU of its core. */
static int add_core_of(int cpu, char **spec, size_t *used, size_t *room)
{
	char path[128], list[4096];
	FILE *file;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 cpu);
	file = fopen(path, "r");
	if (!file)
		return 0;	/* offline, or possible but never present */
	list[0] = '\0';
	if (!fgets(list, sizeof(list), file))
		list[0] = '\0';
	fclose(file);
	list[strcspn(list, "\n")] = '\0';
	if (first_cpu(list) != cpu)	/* each core once: its list starts with its lowest CPU */
		return 0;
	return append_core(list, spec, used, room);
}

static int compare_ints(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The numbers of the cpuN entries of /sys/devices/system/cpu, ascending. */
static int list_sysfs_cpus(int **cpus, int *count, char *err, int err_len)
{
	DIR *dir = opendir("/sys/devices/system/cpu");
	struct dirent *entry;
	size_t room = 0;

	*cpus = NULL;
	*count = 0;
	if (!dir) {
		snprintf(err, err_len, "cannot read /sys/devices/system/cpu: %s", strerror(errno));
		return -ENOENT;
	}
	while ((entry = readdir(dir))) {
		const char *digits = entry->d_name + 3;
		int cpu = strncmp(entry->d_name, "cpu", 3) ? -1 : first_cpu(digits);

		if (cpu < 0 || digits[strspn(digits, "0123456789")] != '\0')
			continue;
		if (ca_grow(cpus, *count, &room, sizeof(**cpus))) {
			closedir(dir);
			snprintf(err, err_len, "out of memory");
			return -ENOMEM;
		}
		(*cpus)[(*count)++] = cpu;
	}
	closedir(dir);
	if (*count)
		qsort(*cpus, *count, sizeof(**cpus), compare_ints);
	return 0;
}

/* "0-1 2-3": every core once, in the order of its lowest CPU. */
static int read_sysfs_cores(char **spec, char *err, int err_len)
{
	size_t used = 0, room = 256;
	int *cpus, count, ret = list_sysfs_cpus(&cpus, &count, err, err_len);

	*spec = ret ? NULL : calloc(room, 1);
	if (!ret && !*spec) {
		snprintf(err, err_len, "out of memory");
		ret = -ENOMEM;
	}
	for (int i = 0; !ret && i < count; i++)
		ret = add_core_of(cpus[i], spec, &used, &room);
	free(cpus);
	if (!ret && !used) {
		snprintf(err, err_len, "no thread_siblings_list in /sys/devices/system/cpu");
		ret = -ENOENT;
	}
	return ret;
}

int ca_topology_from_sysfs(struct ca_topology *topo, char *err, int err_len)
{
	char *spec = NULL;
	int ret = read_sysfs_cores(&spec, err, err_len);

	memset(topo, 0, sizeof(*topo));
	if (!ret)
		ret = ca_topology_parse(spec, topo, err, err_len);
	free(spec);
	return ret;
}

/* One "CPU SIBLINGS" line of @path (its @line_no-th): @spec grows by the core @cpu starts. */
static int add_file_line(const char *path, int line_no, char *line, char **spec, size_t *used,
			 size_t *room, char *err, int err_len)
{
	char *list = line + strspn(line, " \t"), *cpu_text = list;
	uint64_t cpu;

	list += strcspn(list, " \t");
	if (*list)
		*list++ = '\0';
	list += strspn(list, " \t");
	list[strcspn(list, " \t")] = '\0';
	if (ca_parse_count(cpu_text, CA_CPU_LIMIT - 1, &cpu) || !*list || first_cpu(list) < 0) {
		snprintf(err, err_len, "%s:%d: expected \"CPU SIBLINGS\" as sysfs has them (\"1 0-1\")",
			 path, line_no);
		return -EINVAL;
	}
	if (first_cpu(list) != (int)cpu)	/* each core once: on the line of its lowest CPU */
		return 0;
	return append_core(list, spec, used, room);
}

int ca_topology_read_file(const char *path, struct ca_topology *topo, char *err, int err_len)
{
	FILE *file = fopen(path, "r");
	size_t used = 0, room = 256;
	char *spec = calloc(room, 1), line[4096];
	int line_no = 0, ret = 0;

	memset(topo, 0, sizeof(*topo));
	if (!file || !spec) {
		snprintf(err, err_len, "%s: %s", path, strerror(file ? ENOMEM : errno));
		ret = file ? -ENOMEM : -EINVAL;
	}
	while (!ret && fgets(line, sizeof(line), file)) {
		line_no++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[strspn(line, " \t")] && line[strspn(line, " \t")] != '#')
			ret = add_file_line(path, line_no, line, &spec, &used, &room, err, err_len);
	}
	if (!ret && !used) {
		snprintf(err, err_len, "%s: no \"CPU SIBLINGS\" line", path);
		ret = -EINVAL;
	}
	if (!ret && (ret = ca_topology_parse(spec, topo, err, err_len)) == -EINVAL) {
		char why[160];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, err_len, "%s: %s", path, why);
	}
	if (file)
		fclose(file);
	free(spec);
	return ret;
}
