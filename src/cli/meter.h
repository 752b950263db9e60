/*
 * meter.h - a progress line on stderr while a long trace is read (the file's
 * name, how many events, how far into the trace): on a
 * terminal rewritten in place at most four times a second, from the first
 * second on, and erased before the report is printed; asked for elsewhere
 * (--progress always), a line each time, from the start.
 */
#ifndef CA_CLI_METER_H
#define CA_CLI_METER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct ca_meter {
	const char *path;		/* the trace being read */
	struct timespec started;	/* nothing is shown for the first second */
	struct timespec shown_at;
	bool is_terminal;		/* rewrite one line; else print lines */
	bool is_shown;			/* a line is on the terminal, to erase */
};

/** ca_meter_wanted() - whether stderr is a terminal that can take the line */
bool ca_meter_wanted(void);

/**
 * ca_meter_start() - a meter for reading @path, from now; @is_asked: shown
 * from the start, and on stderr whatever it is
 */
void ca_meter_start(struct ca_meter *meter, const char *path, bool is_asked);

/**
 * ca_meter_update() - the audit's on_progress (struct ca_audit_options): show
 * @events_read and @into_ns of the trace when a quarter second has passed
 */
void ca_meter_update(void *meter, uint64_t events_read, uint64_t into_ns);

/** ca_meter_erase() - take the line off the terminal, if one was shown */
void ca_meter_erase(struct ca_meter *meter);

#endif
