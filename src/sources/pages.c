/*
 * pages.c - the check every ring-buffer page of a trace.dat passes before
 * kbuffer (ours, or libtracecmd's) reads it.
 *
 * kbuffer trusts a page: it reads past the page when the commit size says
 * so, walks back or stands still on an event whose length field is
 * negative or zero (libtracecmd then yields the same unknown event
 * forever), and hands out events that run past the commit.  Here the page
 * is walked the way kbuffer walks it, every header checked against the
 * page and the commit; what fails is damage, which the readers skip and
 * report.  This file only judges pages; it reads no file.
 */
#include <errno.h>
#include <string.h>

#include "sources/pages.h"

#define COMMIT_MASK ((1u << 27) - 1)	/* kbuffer's: the size bits of a page's commit */
#define MISSING_EVENTS (1ull << 31)
#define MISSING_STORED (1ull << 30)
#define TS_MSB (0xf8ull << 56)		/* kbuffer's: kept by an absolute time stamp */
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define MIN_EVENT 8			/* common_type, flags, preempt count, pid */

void ca_page_rules_for(struct ca_page_rules *rules, struct tep_handle *tep, int page_size)
{
	rules->page_size = page_size;
	rules->long_size = tep_get_header_page_size(tep) == 8 ? 8 : 4;
	rules->is_big_endian = tep_is_file_bigendian(tep);
	rules->tep = tep;
	rules->is_defined = NULL;
	rules->id_count = 0;
	rules->is_plausible = NULL;
	rules->plausible_ctx = NULL;
}

/* A number of @bytes (2, 4 or 8) at @p, in the file's byte order: a load, swapped when not the host's. */
static inline uint64_t read_n(const struct ca_page_rules *rules, const unsigned char *p, int bytes)
{
	bool is_swapped = rules->is_big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (bytes) {
	case 2:
		memcpy(&u16, p, 2);
		return is_swapped ? __builtin_bswap16(u16) : u16;
	case 4:
		memcpy(&u32, p, 4);
		return is_swapped ? __builtin_bswap32(u32) : u32;
	default:
		memcpy(&u64, p, 8);
		return is_swapped ? __builtin_bswap64(u64) : u64;
	}
}

static bool is_defined(const struct ca_page_rules *rules, int type)
{
	if (rules->is_defined)
		return type < rules->id_count && rules->is_defined[type];
	return tep_find_event(rules->tep, type) != NULL;
}

/* One data event at @data of @length bytes: a known type at a time not before the last. */
static int check_data(const struct ca_page_rules *rules, const unsigned char *data, int length,
		      unsigned long long ts, unsigned long long last_ts,
		      struct ca_page_summary *sum)
{
	if (length < MIN_EVENT) {
		sum->why = "an event shorter than its common fields";
		return -EINVAL;
	}
	if (!is_defined(rules, (int)read_n(rules, data, 2))) {
		sum->why = "an event of a type the file does not define";
		return -EINVAL;
	}
	if (rules->is_plausible && !rules->is_plausible(rules->plausible_ctx, data, length)) {
		sum->why = "an event whose fields no kernel writes";
		return -EINVAL;
	}
	if (ts < last_ts) {
		sum->why = "a timestamp earlier than the one before it";
		sum->is_behind = true;
		return -EINVAL;
	}
	return 0;
}

/*
 * The event whose header is at @pos of the page's @size bytes of events at
 * @events: its data and length (0 for a time extend or stamp, -1 for
 * padding), the timestamp after it, and where the next one starts.
 */
static int step(const struct ca_page_rules *rules, const unsigned char *events, int pos, int size,
		unsigned long long *ts, int *length, int *next)
{
	uint32_t header = (uint32_t)read_n(rules, events + pos, 4);
	int type_len = rules->is_big_endian ? header >> 27 : header & 31;
	uint32_t delta = rules->is_big_endian ? header & ((1u << 27) - 1) : header >> 5;
	int64_t word = 0;

	if (type_len >= TYPE_PADDING || type_len == 0) {
		if (pos + 8 > size)
			return -EINVAL;
		word = (int64_t)read_n(rules, events + pos + 4, 4);
	}
	switch (type_len) {
	case TYPE_PADDING:
		if (word > INT32_MAX)
			return -EINVAL;	/* kbuffer would walk back: a negative length */
		/* A discarded event, or the page's tail: it ends where the events do, or
		 * before (only the null event, delta 0, stands for the rest of the page). */
		if (delta && word > size - pos - 4)
			return -EINVAL;
		*ts += delta;
		*length = -1;
		*next = word > size - pos - 4 ? size : pos + 4 + (int)word;
		return 0;
	case TYPE_TIME_STAMP:
		*ts = ((uint64_t)word << 27 | delta) | (*ts & TS_MSB);
		*length = 0;
		*next = pos + 8;
		return 0;
	case TYPE_TIME_EXTEND:
		*ts += (uint64_t)word << 27 | delta;
		*length = 0;
		*next = pos + 8;
		return 0;
	case 0:
		if (word < 4 || word - 4 > size - pos - 8)
			return -EINVAL;
		*length = (int)((word - 4 + 3) & ~3);
		*next = pos + 8 + *length;
		break;
	default:
		*length = type_len * 4;
		*next = pos + 4 + *length;
		break;
	}
	*ts += delta;
	return *next <= size ? 0 : -EINVAL;
}

int ca_page_check(const struct ca_page_rules *rules, const unsigned char *page,
		  unsigned long long min_ts, struct ca_page_summary *sum)
{
	int start = 8 + rules->long_size, room = rules->page_size - start;
	uint64_t commit = read_n(rules, page + 8, rules->long_size);
	const unsigned char *events = page + start;
	unsigned long long ts = read_n(rules, page, 8), last_ts = min_ts;
	int size = (int)(commit & COMMIT_MASK), pos, next, length;

	memset(sum, 0, sizeof(*sum));
	if (!size && !ts) {
		sum->why = "a page of zeros (its header too) where events were";
		return -EINVAL;
	}
	if (size > room || ((commit & MISSING_EVENTS) && (commit & MISSING_STORED) &&
			    size > room - rules->long_size)) {
		sum->why = "its commit size runs past the page";
		return -EINVAL;
	}
	for (pos = 0; pos < size; pos = next) {
		if (pos + 4 > size || step(rules, events, pos, size, &ts, &length, &next)) {
			sum->why = "an event header runs past the page's events";
			return -EINVAL;
		}
		if (length <= 0)
			continue;
		if (check_data(rules, events + next - length, length, ts, last_ts, sum))
			return -EINVAL;
		if (!sum->event_count++)
			sum->first_ts = ts;
		sum->last_ts = last_ts = ts;
		sum->last_event = start + pos;
	}
	return 0;
}

bool ca_page_is_time_split(const struct ca_page_rules *rules, const unsigned char *next,
			   unsigned long long last_ts)
{
	struct ca_page_summary sum;

	/* The page's time comes before its events': a page that starts later is no split. */
	if (read_n(rules, next, 8) >= last_ts)
		return false;
	return ca_page_check(rules, next, last_ts, &sum) && sum.is_behind &&
	       !ca_page_check(rules, next, 0, &sum);
}

/*
 * The page's walk once more, on a page that passed ca_page_check(): no
 * header needs checking, and kbuffer's (function pointers for every word it
 * reads, a second walk of what the check walked) is not needed.  The missed
 * events are kbuffer's: the count stored after the commit, -1 when the
 * kernel did not store it, on the first data event only when no time
 * extend came before it (kbuffer_missed_events() counts only at offset 0).
 */
void ca_page_start(const struct ca_page_rules *rules, const unsigned char *page,
		   struct ca_page_cursor *cur)
{
	uint64_t commit = read_n(rules, page + 8, rules->long_size);

	cur->events = page + 8 + rules->long_size;
	cur->size = (int)(commit & COMMIT_MASK);
	cur->pos = 0;
	cur->ts = read_n(rules, page, 8);
	cur->missed = 0;
	if (commit & MISSING_EVENTS)
		cur->missed = commit & MISSING_STORED ?
			      (int)read_n(rules, cur->events + cur->size, rules->long_size) : -1;
}

bool ca_page_next(const struct ca_page_rules *rules, struct ca_page_cursor *cur,
		  struct ca_page_event *ev)
{
	int length, next;

	while (cur->pos + 4 <= cur->size) {
		int at = cur->pos;

		if (step(rules, cur->events, at, cur->size, &cur->ts, &length, &next))
			return false;	/* not after ca_page_check() */
		cur->pos = next;
		if (length <= 0)
			continue;
		ev->data = (void *)(cur->events + next - length);
		ev->size = length;
		ev->ts = cur->ts;
		ev->missed = at == 0 ? cur->missed : 0;
		return true;
	}
	return false;
}
