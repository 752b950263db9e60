/*
 * pages.c - read a trace.dat's events in place from the pages libtracecmd
 * loads, with kbuffer, merged across CPUs in timestamp order.
 *
 * libtracecmd still parses the file, maps or decompresses every page and
 * hands over each page's first event as a record; the rest of the page is
 * walked with libtracecmd's own kbuffer, without the allocation, reference
 * counting and peek of a record per event (bench/RESULTS.md: that per-record
 * work cost as much as the whole audit).  In-place timestamps are the raw
 * ones of the page: when libtracecmd converts them (a TSC clock turned into
 * ns, a timestamp offset, guest/host sync), the first event of every CPU
 * shows it and the whole file is read one record per event instead; a page
 * later in the file that disagrees stops the read with an error rather than
 * mix the two.  The record reader (tracedat.c, --reader records) stays the
 * reference: tests compare the two on every bundled trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>
#include <trace-cmd.h>

#include "pages.h"

/* Exported by libtracecmd 1.3 but not declared in its public header. */
struct kbuffer *tracecmd_record_kbuf(struct tracecmd_input *handle, struct tep_record *record);
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);

struct cursor {
	int cpu;
	struct tep_record *page_rec;	/* the page's first event: holds the page */
	struct kbuffer *kbuf;		/* libtracecmd's: after page_rec, then at the event */
	bool is_at_page_rec;		/* kbuf is past page_rec, on nothing read yet */
	bool has_event;
	struct tep_record event;	/* the current event (a view, or page_rec) */
};

struct ca_pages {
	struct tracecmd_input *handle;
	struct kbuffer *probe;		/* ours: reads a page's raw first timestamp */
	bool is_record_mode;		/* timestamps not raw: one record per event */
	bool has_disagreed;		/* a later page's timestamps were converted */
	unsigned long long disagreed_ts;
	int disagreed_cpu;
	int cursor_count;
	struct cursor cursors[];
};

struct kbuffer *ca_kbuffer_for(struct tep_handle *tep)
{
	enum kbuffer_long_size long_size = tep_get_header_page_size(tep) == 8 ?
					   KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	enum kbuffer_endian endian = tep_is_file_bigendian(tep) ? KBUFFER_ENDIAN_BIG :
				     KBUFFER_ENDIAN_LITTLE;

	return kbuffer_alloc(long_size, endian);
}

/* True when @rec is its page's first event, in place, with its raw timestamp. */
static bool is_raw_first_event(struct ca_pages *pages, struct tep_record *rec)
{
	void *page = tracecmd_record_page(pages->handle, rec);
	unsigned long long raw_ts;
	void *data;

	if (!page || kbuffer_load_subbuffer(pages->probe, page))
		return false;
	data = kbuffer_read_event(pages->probe, &raw_ts);
	return data == rec->data && raw_ts == rec->ts;
}

static void set_record_event(struct cursor *c, struct tep_record *rec)
{
	c->has_event = rec != NULL;
	if (rec)
		c->event = *rec;
}

/* Take @rec, just read by libtracecmd, as the cursor's current event. */
static void adopt(struct ca_pages *pages, struct cursor *c, struct tep_record *rec)
{
	c->page_rec = rec;
	c->kbuf = NULL;
	set_record_event(c, rec);
	if (!rec || pages->is_record_mode)
		return;
	if (!is_raw_first_event(pages, rec)) {
		pages->has_disagreed = true;
		pages->disagreed_ts = rec->ts;
		pages->disagreed_cpu = c->cpu;
		return;
	}
	c->kbuf = tracecmd_record_kbuf(pages->handle, rec);
	c->is_at_page_rec = true;
}

/* libtracecmd's reader is past the cursor's event: take the record it reads next. */
static void next_page(struct ca_pages *pages, struct cursor *c)
{
	tracecmd_free_record(c->page_rec);
	adopt(pages, c, tracecmd_read_data(pages->handle, c->cpu));
}

static void advance(struct ca_pages *pages, struct cursor *c)
{
	unsigned long long ts;
	void *data;

	if (pages->is_record_mode) {
		next_page(pages, c);	/* each record is a "page" of its own */
		return;
	}
	/* After page_rec, the next event is read where it is; then each call moves on. */
	if (c->is_at_page_rec)
		data = kbuffer_read_event(c->kbuf, &ts);
	else
		data = kbuffer_next_event(c->kbuf, &ts);
	c->is_at_page_rec = false;
	if (!data) {
		next_page(pages, c);
		return;
	}
	c->event.ts = ts;
	c->event.data = data;
	c->event.size = kbuffer_event_size(c->kbuf);
	c->event.missed_events = 0;
}

struct ca_pages *ca_pages_open(struct tracecmd_input *handle, int cpu_count)
{
	struct ca_pages *pages = calloc(1, sizeof(*pages) + cpu_count * sizeof(struct cursor));
	int cpu;

	if (!pages)
		return NULL;
	pages->handle = handle;
	pages->probe = ca_kbuffer_for(tracecmd_get_tep(handle));
	if (!pages->probe) {
		free(pages);
		return NULL;
	}
	pages->cursor_count = cpu_count;
	for (cpu = 0; cpu < cpu_count; cpu++) {
		pages->cursors[cpu].cpu = cpu;
		adopt(pages, &pages->cursors[cpu], tracecmd_read_cpu_first(handle, cpu));
	}
	if (pages->has_disagreed) {
		pages->is_record_mode = true;
		pages->has_disagreed = false;
	}
	return pages;
}

/* The earliest current event; the lowest CPU on a tie, as libtracecmd merges. */
static struct cursor *earliest(struct ca_pages *pages)
{
	struct cursor *best = NULL;
	int i;

	for (i = 0; i < pages->cursor_count; i++) {
		struct cursor *c = &pages->cursors[i];

		if (c->has_event && (!best || c->event.ts < best->event.ts))
			best = c;
	}
	return best;
}

int ca_pages_read(struct ca_pages *pages, ca_pages_fn fn, void *ctx)
{
	struct cursor *c;
	int ret = 0;

	while (!ret && (c = earliest(pages))) {
		ret = fn(ctx, &c->event);
		advance(pages, c);
		if (pages->has_disagreed && !ret)
			ret = -EPROTO;
	}
	return ret;
}

bool ca_pages_is_record_mode(const struct ca_pages *pages)
{
	return pages->is_record_mode;
}

bool ca_pages_disagreement(const struct ca_pages *pages, int *cpu, unsigned long long *ts)
{
	*cpu = pages->disagreed_cpu;
	*ts = pages->disagreed_ts;
	return pages->has_disagreed;
}

void ca_pages_close(struct ca_pages *pages)
{
	int i;

	if (!pages)
		return;
	for (i = 0; i < pages->cursor_count; i++)
		if (pages->cursors[i].page_rec)
			tracecmd_free_record(pages->cursors[i].page_rec);
	kbuffer_free(pages->probe);
	free(pages);
}
