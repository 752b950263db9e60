/*
 * fuzz-tracedat.c - libFuzzer harness: the bytes as a trace file, audited
 * whole by ca_audit_run() (libtracecmd needs a path: one temporary file per
 * process, rewritten for every input), on one thread or with the CPUs read
 * in parts on three.  Faults inside libtracecmd and
 * libtraceevent on damaged pages show here as crashes in those libraries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coreaudit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_input(void)
{
	unlink(path);
}

static int write_input(const uint8_t *data, size_t size)
{
	FILE *file;

	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "%s/coreaudit-fuzz-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkstemp(path);
		if (fd < 0)
			return -1;
		close(fd);
		atexit(remove_input);
	}
	file = fopen(path, "wb");
	if (!file)
		return -1;
	fwrite(data, 1, size, file);
	return fclose(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ca_audit_options opts;
	struct ca_audit *audit;

	if (write_input(data, size))
		return 0;
	audit = calloc(1, sizeof(*audit));
	if (!audit)
		return 0;
	ca_audit_options_default(&opts);
	opts.path = path;
	/*
	 * The reader by size: the default (pages or zstd chunks) and the records
	 * reference; one thread, or the CPUs read in parts on three (handoff.c).
	 */
	opts.use_record_reader = size % 3 == 0;
	opts.threads = size % 2 ? 3 : 1;
	ca_audit_run(audit, &opts);
	ca_audit_free(audit);
	free(audit);
	return 0;
}
