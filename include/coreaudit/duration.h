/*
 * duration.h - parse and print durations ("500us", "1.5ms", "2s").
 */
#ifndef COREAUDIT_DURATION_H
#define COREAUDIT_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* The longest duration accepted: what a signed 64-bit count of ns holds (292 years). */
#define CA_DURATION_MAX_NS INT64_MAX

/**
 * ca_parse_duration() - parse digits, an optional fraction and a unit (ns,
 *                       us, ms or s: "16ms", "1.5ms", "250ns") into nanoseconds
 *
 * The whole text, nothing else: no sign, blank, exponent, nan or inf; no
 * bare number ("5" is ambiguous).  Zero is rejected: no duration coreaudit
 * takes means anything at zero (the shortest is 1ns).
 *
 * Return: 0; -EINVAL for junk or a missing or unknown unit; -ERANGE for zero,
 *         a fraction finer than 1ns ("1.5ns"), or over CA_DURATION_MAX_NS.
 */
int ca_parse_duration(const char *text, uint64_t *ns);

/** ca_format_duration() - @ns as "61.2us", "1.503ms", "4.073s" in @buf. Return: @buf. */
char *ca_format_duration(uint64_t ns, char *buf, size_t len);

/**
 * ca_format_timestamp() - a trace timestamp @ts (ns) as seconds with all nine
 *                         decimals, "5612.345678901", in @buf (no unit)
 * Return: @buf.
 */
char *ca_format_timestamp(uint64_t ts, char *buf, size_t len);

#endif
