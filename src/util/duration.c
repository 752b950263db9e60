/*
 * duration.c - durations with explicit units, as options and reports use them.
 * A bare number is rejected: "--grace 5" is ambiguous.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/duration.h"

static const struct {
	const char *suffix;
	double ns;
} units[] = {
	{ "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
};

int ca_parse_duration(const char *text, uint64_t *ns)
{
	char *end;
	double value;

	if (!text || !*text || *text == '-' || *text == '+')
		return -EINVAL;
	errno = 0;
	value = strtod(text, &end);
	if (errno || end == text || !isfinite(value) || value < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		double total = value * units[i].ns;

		if (total > 1.8e19)
			return -EINVAL;
		*ns = (uint64_t)llround(total);
		return 0;
	}
	return -EINVAL;
}

char *ca_format_duration(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3fms", ns / 1e6);
	else
		snprintf(buf, len, "%.3fs", ns / 1e9);
	return buf;
}
