/*
 * duration.c - durations with explicit units, as options and rule files give
 * them.  Parsed in integers (no floating point): "1.5ms" is exactly 1500000 ns.
 * A bare number is rejected: "--grace 5" is ambiguous.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "coreaudit/duration.h"

static const struct {
	const char *suffix;
	uint64_t ns;
	int digits;		/* fraction digits a unit holds in whole ns */
} units[] = {
	{ "ns", 1, 0 }, { "us", 1000, 3 }, { "ms", 1000000, 6 }, { "s", 1000000000, 9 },
};

#define UNIT_COUNT (sizeof(units) / sizeof(units[0]))

/* The index of the unit @suffix names, or -1. */
static int find_unit(const char *suffix)
{
	for (size_t i = 0; i < UNIT_COUNT; i++)
		if (!strcmp(suffix, units[i].suffix))
			return (int)i;
	return -1;
}

/* @count decimal digits at @text, appended to @total; -ERANGE past the maximum. */
static int add_digits(const char *text, size_t count, uint64_t *total)
{
	for (size_t i = 0; i < count; i++) {
		uint64_t digit = text[i] - '0';

		if (*total > (CA_DURATION_MAX_NS - digit) / 10)
			return -ERANGE;
		*total = *total * 10 + digit;
	}
	return 0;
}

int ca_parse_duration(const char *text, uint64_t *ns)
{
	size_t whole = strspn(text, "0123456789"), fraction = 0;
	uint64_t total = 0;
	int unit, ret;

	if (text[whole] == '.') {
		fraction = strspn(text + whole + 1, "0123456789");
		if (!fraction)
			return -EINVAL;
	}
	if (!whole && !fraction)
		return -EINVAL;
	unit = find_unit(text + whole + (fraction ? fraction + 1 : 0));
	if (unit < 0)
		return -EINVAL;
	const char *frac = text + whole + (fraction ? 1 : 0);
	size_t digits = (size_t)units[unit].digits, kept = fraction < digits ? fraction : digits;

	/* digits below a nanosecond must be zeros */
	if (fraction > kept && strspn(frac + kept, "0") < fraction - kept)
		return -ERANGE;
	ret = add_digits(text, whole, &total);
	if (!ret)
		ret = add_digits(frac, kept, &total);
	for (int d = (int)kept; !ret && d < units[unit].digits; d++)
		ret = add_digits("0", 1, &total);
	if (ret || !total)
		return -ERANGE;
	*ns = total;
	return 0;
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

char *ca_format_timestamp(uint64_t ts, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%09llu", (unsigned long long)(ts / 1000000000u),
		 (unsigned long long)(ts % 1000000000u));
	return buf;
}
