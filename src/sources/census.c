/*
 * census.c - every CPU made to show its state at the start of a live trace
 * (census.h).
 */
#define _GNU_SOURCE
#include <sched.h>

#include "sources/census.h"

int ca_live_census(int cpu_space)
{
	cpu_set_t *had = CPU_ALLOC(cpu_space), *one = CPU_ALLOC(cpu_space);
	size_t size = CPU_ALLOC_SIZE(cpu_space);
	int visited = 0;

	if (!had || !one || sched_getaffinity(0, size, had)) {
		CPU_FREE(had);
		CPU_FREE(one);
		return 0;
	}
	for (int cpu = 0; cpu < cpu_space; cpu++) {
		if (!CPU_ISSET_S(cpu, size, had))
			continue;
		CPU_ZERO_S(size, one);
		CPU_SET_S(cpu, size, one);
		visited += !sched_setaffinity(0, size, one);
	}
	if (sched_setaffinity(0, size, had))
		visited = 0;
	CPU_FREE(had);
	CPU_FREE(one);
	return visited;
}
