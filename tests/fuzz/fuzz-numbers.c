/*
 * fuzz-numbers.c - libFuzzer harness: the same text through every number
 * parser the options and rule files use (duration, percentage, count, u64),
 * each checked against what it promises and against a printed round trip.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "coreaudit/number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_duration(const char *text)
{
	uint64_t ns = 0, again;
	char printed[32];
	int ret = ca_parse_duration(text, &ns);

	if (ret && ret != -EINVAL && ret != -ERANGE)
		abort();
	if (ret)
		return;
	if (!ns || ns > CA_DURATION_MAX_NS)
		abort();
	snprintf(printed, sizeof(printed), "%" PRIu64 "ns", ns);
	if (ca_parse_duration(printed, &again) || again != ns)
		abort();
}

static void check_numbers(const char *text)
{
	uint64_t value, again;
	double pct;
	char printed[32];

	if (!ca_parse_percent(text, &pct) && !(pct >= 0 && pct <= 100))
		abort();
	if (!ca_parse_count(text, 1000, &value) && value > 1000)
		abort();
	if (!ca_parse_u64(text, &value)) {
		snprintf(printed, sizeof(printed), "%" PRIu64, value);
		if (ca_parse_u64(printed, &again) || again != value)
			abort();
		if (strspn(text, "0123456789") == strlen(text) &&
		    (ca_parse_count(text, UINT64_MAX, &again) || again != value))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	check_duration(text);
	check_numbers(text);
	free(text);
	return 0;
}
