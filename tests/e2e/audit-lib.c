/*
 * audit-lib.c - a long-running library user: audits every file named on the
 * command line in one process, with no fault guard (the CLI's guard.c is
 * not there), and says whether it kept file descriptors open.  Used by
 * test-damage.sh on damaged traces: the readers must not crash a program
 * that calls ca_audit_run(), nor leak per bad file.
 *
 * Usage: audit-lib TOPOLOGY [--records] FILE...; prints "RESULT EVENTS FILE"
 * per file, then "fds BEFORE AFTER".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/audit.h"

static int open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int count = 0;

	if (!dir)
		return -1;
	while (readdir(dir))
		count++;
	closedir(dir);
	return count;
}

int main(int argc, char **argv)
{
	struct ca_audit_options opts;
	struct ca_audit *audit = malloc(sizeof(*audit));
	bool use_records = argc > 2 && !strcmp(argv[2], "--records");
	int first = use_records ? 3 : 2, before = open_fds();
	char err[200];

	if (argc < 3 || !audit) {
		fprintf(stderr, "usage: audit-lib TOPOLOGY [--records] FILE...\n");
		return 2;
	}
	ca_audit_options_default(&opts);
	if (ca_topology_parse(argv[1], &opts.topology, err, sizeof(err))) {
		fprintf(stderr, "audit-lib: %s\n", err);
		return 2;
	}
	opts.has_topology = true;
	opts.use_record_reader = use_records;
	for (int i = first; i < argc; i++) {
		opts.path = argv[i];
		enum ca_result result = ca_audit_run(audit, &opts);

		printf("%s %llu %s\n", ca_result_name(result), (unsigned long long)audit->events,
		       argv[i]);
		ca_audit_free(audit);
	}
	printf("fds %d %d\n", before, open_fds());
	ca_topology_free(&opts.topology);
	free(audit);
	return 0;
}
