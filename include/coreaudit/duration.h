/*
 * duration.h - parse and print durations ("500us", "1.5ms", "2s").
 */
#ifndef COREAUDIT_DURATION_H
#define COREAUDIT_DURATION_H

#include <stddef.h>
#include <stdint.h>

/**
 * ca_parse_duration() - parse a number with unit ns, us, ms or s (no unit:
 *                       rejected) into nanoseconds
 * Return: 0, or -EINVAL for junk, a missing or unknown unit, or overflow.
 */
int ca_parse_duration(const char *text, uint64_t *ns);

/** ca_format_duration() - "61.2us", "1.503ms", "4.073s" */
char *ca_format_duration(uint64_t ns, char *buf, size_t len);

#endif
