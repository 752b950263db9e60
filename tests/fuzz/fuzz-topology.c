/*
 * fuzz-topology.c - libFuzzer harness: --topology and coreaudit-topology
 * markers through ca_topology_parse(); what parses must print and parse back
 * to the same topology, and every CPU must be in range and in one core.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct ca_topology *topo)
{
	int seen = 0;

	for (int core = 0; core < topo->core_count; core++) {
		if (topo->sibling_count[core] < 1 || topo->sibling_count[core] > CA_MAX_SIBLINGS)
			abort();
		for (int i = 0; i < topo->sibling_count[core]; i++) {
			int cpu = topo->siblings[core][i];

			if (cpu < 0 || cpu >= CA_MAX_CPUS || topo->core_of_cpu[cpu] != core)
				abort();
			seen++;
		}
	}
	if (!topo->core_count || topo->cpu_count < 1 || topo->cpu_count > CA_MAX_CPUS)
		abort();
	(void)seen;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[160], printed[4096];
	struct ca_topology topo, again;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!ca_topology_parse(text, &topo, err, sizeof(err))) {
		check(&topo);
		ca_topology_format(&topo, printed, sizeof(printed));
		if (ca_topology_parse(printed, &again, err, sizeof(err)) ||
		    memcmp(&topo, &again, sizeof(topo)))
			abort();
	} else if (!err[0]) {
		abort();
	}
	free(text);
	return 0;
}
