/*
 * fuzz-topology.c - libFuzzer harness: --topology and coreaudit-topology
 * markers through ca_topology_parse(); what parses must print and parse back
 * to the same topology, and every CPU must be in range and in one core.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/topology.h"

/* The same cores, CPUs and siblings, in the same order. */
static bool is_same(const struct ca_topology *a, const struct ca_topology *b)
{
	return a->core_count == b->core_count && a->cpu_count == b->cpu_count &&
	       !memcmp(a->core_of_cpu, b->core_of_cpu, a->cpu_count * sizeof(int)) &&
	       !memcmp(a->sibling_count, b->sibling_count, a->core_count * sizeof(int)) &&
	       !memcmp(a->siblings, b->siblings, a->core_count * sizeof(*a->siblings));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct ca_topology *topo)
{
	int seen = 0;

	for (int core = 0; core < topo->core_count; core++) {
		if (topo->sibling_count[core] < 1 || topo->sibling_count[core] > CA_MAX_SIBLINGS)
			abort();
		for (int i = 0; i < topo->sibling_count[core]; i++) {
			int cpu = topo->siblings[core][i];

			if (cpu < 0 || cpu >= CA_CPU_LIMIT || topo->core_of_cpu[cpu] != core)
				abort();
			seen++;
		}
	}
	if (!topo->core_count || topo->cpu_count < 1 || topo->cpu_count > CA_CPU_LIMIT)
		abort();
	(void)seen;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[160], *printed;
	struct ca_topology topo, again;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!ca_topology_parse(text, &topo, err, sizeof(err))) {
		check(&topo);
		printed = ca_topology_text(&topo);
		if (!printed || ca_topology_parse(printed, &again, err, sizeof(err)) ||
		    !is_same(&topo, &again))
			abort();
		free(printed);
		ca_topology_free(&topo);
		ca_topology_free(&again);
	} else if (!err[0]) {
		abort();
	}
	free(text);
	return 0;
}
