/*
 * fuzz-text-source.c - libFuzzer harness: the bytes as a report-text file
 * through the text source alone (both passes, no audit: fast enough for
 * millions of runs), with what it emits checked: CPUs in range, timestamps
 * in order, lost events with a count, bad lines counted only when some
 * line was read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	uint64_t last_ts;
	uint64_t events;
};

static int on_event(void *ctx, const struct ca_event *ev)
{
	struct seen *seen = ctx;

	if (ev->cpu < 0 || ev->cpu >= CA_CPU_LIMIT || ev->ts < seen->last_ts)
		abort();
	if (ev->kind == CA_EV_LOST && ev->lost.count == 0)
		abort();
	seen->last_ts = ev->ts;
	seen->events++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen seen = { 0 };
	struct ca_source source;
	FILE *file;

	if (!size)
		return 0;
	file = fmemopen((void *)data, size, "r");
	if (!file)
		return 0;
	memset(&source, 0, sizeof(source));
	if (!ca_text_open_file(&source, "fuzz.txt", file)) {
		if (source.info.cpu_count < 1 || source.info.cpu_count > CA_CPU_LIMIT ||
		    (source.info.bad_lines && source.info.first_bad_line < 1))
			abort();
		ca_source_read(&source, on_event, &seen);
		if (!seen.events)
			abort();	/* the first pass found events: the second must emit them */
	}
	ca_source_close(&source);
	return 0;
}
