/*
 * meter.c - the progress line of a long read (meter.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "meter.h"

#define QUIET_NS 1000000000ll		/* a read shorter than this shows nothing */
#define EVERY_NS 250000000ll		/* at most four lines a second */

static long long ns_between(const struct timespec *from, const struct timespec *to)
{
	return (to->tv_sec - from->tv_sec) * 1000000000ll + (to->tv_nsec - from->tv_nsec);
}

bool ca_meter_wanted(void)
{
	const char *term = getenv("TERM");

	return isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
}

void ca_meter_start(struct ca_meter *meter, const char *path, bool is_asked)
{
	memset(meter, 0, sizeof(*meter));
	/* The file's name, not its path: a line that wraps cannot be rewritten in place. */
	meter->path = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	meter->is_terminal = ca_meter_wanted();
	clock_gettime(CLOCK_MONOTONIC, &meter->started);
	if (is_asked)	/* as if a second had passed already */
		meter->started.tv_sec--;
	meter->shown_at = meter->started;
}

void ca_meter_update(void *ctx, uint64_t events_read, uint64_t into_ns)
{
	struct ca_meter *meter = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (ns_between(&meter->started, &now) < QUIET_NS ||
	    (meter->is_shown && ns_between(&meter->shown_at, &now) < EVERY_NS))
		return;
	/* \r, and erase to the end of the line: the line is rewritten in place. */
	fprintf(stderr, "%scoreaudit: %s: %.2f M events read, %.3f s into the trace%s",
		meter->is_terminal ? "\r" : "", meter->path, events_read / 1e6, into_ns / 1e9,
		meter->is_terminal ? "\033[K" : "\n");
	fflush(stderr);
	meter->shown_at = now;
	meter->is_shown = true;
}

void ca_meter_erase(struct ca_meter *meter)
{
	if (!meter->is_shown || !meter->is_terminal)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	meter->is_shown = false;
}
