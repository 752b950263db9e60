/*
 * fuzz-text-audit.c - libFuzzer harness: the bytes as a report-text file,
 * read by the text source (both passes) and audited through the whole
 * pipeline (stream, state, checks), with and without a topology option.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/audit.h"
#include "sources/readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ca_audit_options opts;
	struct ca_source source;
	struct ca_audit *audit;
	char err[160];
	FILE *file;

	if (!size)
		return 0;
	file = fmemopen((void *)data, size, "r");
	if (!file)
		return 0;
	memset(&source, 0, sizeof(source));
	if (ca_text_open_file(&source, "fuzz.txt", file)) {
		ca_source_close(&source);
		return 0;
	}
	ca_audit_options_default(&opts);
	opts.path = "fuzz.txt";
	/* odd sizes: a topology option; even: the trace's marker or none */
	opts.has_topology = size % 2 && !ca_topology_parse("0,1 2,3", &opts.topology, err,
							   sizeof(err));
	audit = calloc(1, sizeof(*audit));
	if (audit && ca_audit_begin(audit, &opts) == CA_RESULT_PASS)
		ca_audit_feed(audit, &source);
	ca_source_close(&source);
	if (audit)
		ca_audit_free(audit);
	free(audit);
	ca_topology_free(&opts.topology);
	return 0;
}
