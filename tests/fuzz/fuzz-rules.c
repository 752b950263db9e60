/*
 * fuzz-rules.c - libFuzzer harness: the bytes as a rule file through
 * ca_rules_parse(); a failure must say where (FILE:LINE:COL) and leave
 * nothing allocated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256] = "";
	struct ca_rules rules;
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = ca_rules_parse(&rules, "fuzz.rules", text, err, sizeof(err));
	if (ret && (strncmp(err, "fuzz.rules:", 11) || rules.tag_rules || rules.relations))
		abort();
	if (!ret && rules.has_max_forced_idle &&
	    !(rules.max_forced_idle_pct >= 0 && rules.max_forced_idle_pct <= 100))
		abort();
	ca_rules_free(&rules);
	free(text);
	return 0;
}
