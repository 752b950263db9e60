/*
 * number.h - numbers as users write them in options and rule files: counts
 * and percentages, parsed strictly (the whole text, no sign, no blanks, no
 * exponent, no nan or inf, range checked).  Durations are in duration.h.
 */
#ifndef COREAUDIT_NUMBER_H
#define COREAUDIT_NUMBER_H

#include <stdint.h>

/**
 * ca_parse_count() - parse decimal digits ("12") into @value, at most @max
 * Return: 0; -EINVAL when @text is not only decimal digits; -ERANGE over @max.
 */
int ca_parse_count(const char *text, uint64_t max, uint64_t *value);

/**
 * ca_parse_u64() - parse decimal digits or 0x and hex digits ("0xffff8880"),
 *                  any 64-bit value (kernel cookies, addresses)
 * Return: 0; -EINVAL for anything else; -ERANGE over 64 bits.
 */
int ca_parse_u64(const char *text, uint64_t *value);

/**
 * ca_parse_percent() - parse "20", "12.5" or "12.5%" into @pct, 0 to 100
 * Return: 0; -EINVAL for anything else (signs, exponents, nan, inf, blanks);
 *         -ERANGE over 100.
 */
int ca_parse_percent(const char *text, double *pct);

#endif
