/*
 * pages.h - private to sources/: what one ring-buffer page of a trace.dat
 * may hold, checked before kbuffer or libtracecmd reads it (pages.c).
 */
#ifndef CA_SOURCES_PAGES_H
#define CA_SOURCES_PAGES_H

#include <stdbool.h>
#include <stdint.h>

#include <event-parse.h>

/* What a page of one file must look like. */
struct ca_page_rules {
	int page_size;
	int long_size;		/* the kernel's, as the page header holds it */
	bool is_big_endian;	/* the file's */
	struct tep_handle *tep;	/* every data event's type must be one of its events */
	/* Optional: by event id, 1 for tep's events (a table, not tep's search). */
	const unsigned char *is_defined;
	int id_count;
	/* Optional: false for a data event whose fields no kernel writes. */
	bool (*is_plausible)(const void *ctx, const void *data, int size);
	const void *plausible_ctx;
};

/* What ca_page_check() found on a good page. */
struct ca_page_summary {
	int event_count;		/* data events */
	unsigned long long first_ts;	/* of the first data event */
	unsigned long long last_ts;	/* of the last data event */
	int last_event;			/* offset in the page of the last data event's header */
	const char *why;		/* a bad page: what is wrong with it */
	bool is_behind;			/* that: a timestamp earlier than the one before */
};

/**
 * ca_page_rules_for() - the rules for pages of @tep's file of @page_size bytes
 */
void ca_page_rules_for(struct ca_page_rules *rules, struct tep_handle *tep, int page_size);

/**
 * ca_page_check() - walk the page at @page as kbuffer would, checking every
 *                   header: the commit size within the page, each event's
 *                   type and length within the commit, each data event's
 *                   type a known event and its fields plausible, timestamps
 *                   never going back and none before @min_ts (the last of
 *                   the CPU's previous page)
 * Return: 0 with @sum filled (event_count 0: an empty page), or -EINVAL with
 *         @sum->why saying what is wrong.
 */
int ca_page_check(const struct ca_page_rules *rules, const unsigned char *page,
		  unsigned long long min_ts, struct ca_page_summary *sum);

/**
 * ca_page_is_time_split() - whether the page at @next, sound on its own,
 *                           starts before @last_ts, the last timestamp of the
 *                           page before it: one of the two has its times
 *                           wrong (a flipped time delta late in the first, or
 *                           the second's header time), and the data cannot
 *                           say which; both are damage
 */
bool ca_page_is_time_split(const struct ca_page_rules *rules, const unsigned char *next,
			   unsigned long long last_ts);

/* Walks the data events of a page that passed ca_page_check(), as kbuffer would. */
struct ca_page_cursor {
	const unsigned char *events;	/* the page's events */
	int size;			/* their bytes (the commit) */
	int pos;			/* the next header */
	unsigned long long ts;
	int missed;			/* events lost before the page: < 0 not known */
};

/* One data event of a page: what kbuffer_next_event() and kbuffer_event_size() give. */
struct ca_page_event {
	void *data;
	int size;
	unsigned long long ts;
	int missed;	/* the page's missed events, on its first event only (as kbuffer) */
};

/** ca_page_start() - a cursor at the start of @page (checked: ca_page_check() passed) */
void ca_page_start(const struct ca_page_rules *rules, const unsigned char *page,
		   struct ca_page_cursor *cur);

/** ca_page_next() - the next data event at @cur, if any. Return: true with @ev filled. */
bool ca_page_next(const struct ca_page_rules *rules, struct ca_page_cursor *cur,
		  struct ca_page_event *ev);

#endif
