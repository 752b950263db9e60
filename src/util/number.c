/*
 * number.c - counts and percentages from options and rule files.  Each
 * accepts exactly the characters its grammar names and checks its range
 * before converting, so "nan", "1e3", " 5", "+5", "5x" and 2^64 are all
 * rejected (strtoul alone accepts the first four in some form).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/number.h"

/* Digits of @base from @text to its end, accumulated without overflow. */
static int parse_digits(const char *text, int base, uint64_t max, uint64_t *value)
{
	uint64_t total = 0;

	if (!*text)
		return -EINVAL;
	for (const char *p = text; *p; p++) {
		int digit;

		if (isdigit((unsigned char)*p))
			digit = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			digit = tolower((unsigned char)*p) - 'a' + 10;
		else
			return -EINVAL;
		if (total > (UINT64_MAX - digit) / base) {
			/* the rest must still be digits for this to be a range error */
			return strspn(p, base == 16 ? "0123456789abcdefABCDEF" : "0123456789") ==
			       strlen(p) ? -ERANGE : -EINVAL;
		}
		total = total * base + digit;
	}
	if (total > max)
		return -ERANGE;
	*value = total;
	return 0;
}

int ca_parse_count(const char *text, uint64_t max, uint64_t *value)
{
	return parse_digits(text, 10, max, value);
}

int ca_parse_u64(const char *text, uint64_t *value)
{
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		return parse_digits(text + 2, 16, UINT64_MAX, value);
	return parse_digits(text, 10, UINT64_MAX, value);
}

int ca_parse_percent(const char *text, double *pct)
{
	size_t whole = strspn(text, "0123456789"), len = strlen(text), fraction = 0;
	char *end;

	if (len && text[len - 1] == '%')
		len--;
	if (whole < len && text[whole] == '.') {
		fraction = strspn(text + whole + 1, "0123456789");
		if (!fraction)
			return -EINVAL;
		fraction++;
	}
	if (!whole && !fraction)
		return -EINVAL;
	if (whole + fraction != len)
		return -EINVAL;
	/* only digits and one point from here: strtod sees no sign, exponent or name */
	*pct = strtod(text, &end);
	if (end != text + len)
		return -EINVAL;
	return *pct > 100 ? -ERANGE : 0;
}
