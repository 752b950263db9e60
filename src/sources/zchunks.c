/*
 * zchunks.c - the CPU data of a trace.dat read by coreaudit itself: pages in
 * place (version 6, and version 7 without compression), or one zstd chunk at
 * a time (version 7 as trace-cmd 3.1 writes it), each page checked
 * (pages.c) and then walked as kbuffer walks it (ca_page_next(): kbuffer
 * itself cost a fifth of the reading, bench/RESULTS.md; libtracecmd's
 * reader, --reader records, stays the reference).
 *
 * Why not libtracecmd: on zstd files it keeps every chunk it decompresses
 * (bench/RESULTS.md: memory grows with the trace), its page machinery costs
 * more than the decompression, and it stops a CPU's stream at the first page
 * it cannot load, without a word.  Here the layout of the CPU data is read
 * from the file (trace-cmd.dat.v6(5): the flyrecord table after the
 * headers; trace-cmd.dat.v7(5): the BUFFER option, then per CPU a chunk
 * count and chunks of compressed size, uncompressed size, data), every size
 * read from the file is checked before it is used, and a page or chunk that
 * fails is skipped and reported as damage on its CPU (struct ca_damage), as
 * is data the file declares but does not hold.  libtracecmd still parses
 * the headers and event formats; what is read here of them is only checked.
 */
#define _GNU_SOURCE		/* memmem */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <zstd.h>

#include "sources/zchunks.h"
#include "util/grow.h"
#include "util/tourney.h"

#define MAX_SECTION (256u << 20)	/* a header section, options: kilobytes to megabytes */
#define MAX_HEADERS (1u << 30)		/* version 6 headers, kallsyms included */
#define MAX_CHUNK (64u << 20)		/* trace-cmd writes chunks of tens of pages */
#define MAX_COUNT 100000u		/* event formats, systems, options */
#define RAW_RUN 32			/* pages read at once in place */
#define RAW_RUN_HEAD 2			/* of a CPU's first run, read before any reading starts */
#define OPTION_DONE 0
#define OPTION_BUFFER 3
#define SECTION_FIRST 16		/* header info, ftrace events, event formats, kallsyms */
#define SECTION_LAST 19

static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static int read_at(int fd, uint64_t offset, void *buf, size_t len)
{
	ssize_t got = pread(fd, buf, len, (off_t)offset);

	return got == (ssize_t)len ? 0 : -EINVAL;
}

/* ---- The headers: walked over bytes in memory, text checked. ---- */

struct walk {
	const unsigned char *p;
	size_t len;
	size_t at;
	bool is_short;		/* ran past the bytes at hand */
	const char *why;	/* damaged: what */
};

static const unsigned char *take(struct walk *w, uint64_t n)
{
	const unsigned char *at = w->p + w->at;

	if (w->is_short || w->why)
		return NULL;
	if (n > w->len - w->at) {
		w->is_short = true;
		return NULL;
	}
	w->at += n;
	return at;
}

static uint64_t take_number(struct walk *w, int bytes)
{
	const unsigned char *p = take(w, bytes);

	if (!p)
		return 0;
	return bytes == 8 ? le64(p) : bytes == 4 ? le32(p) : le16(p);
}

static void bad(struct walk *w, const char *why)
{
	if (!w->why)
		w->why = why;
}

static bool is_text(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') || p[i] > 0x7e)
			return false;
	return true;
}

/* @size bytes that must be text, or the headers are damaged (@why). */
static void take_text(struct walk *w, uint64_t size, const char *why)
{
	const unsigned char *p;

	if (size > MAX_SECTION) {
		bad(w, why);
		return;
	}
	p = take(w, size);
	if (p && !is_text(p, size))
		bad(w, why);
}

static void take_string(struct walk *w, const char *why)
{
	size_t n = w->is_short || w->why ? 0 : strnlen((const char *)w->p + w->at, w->len - w->at);

	if (w->at + n >= w->len) {
		w->is_short = true;
		return;
	}
	if (!is_text(w->p + w->at, n))
		bad(w, why);
	take(w, n + 1);
}

static void walk_header_info(struct walk *w)
{
	const unsigned char *label = take(w, 12);

	if (label && memcmp(label, "header_page", 12))
		bad(w, "the header page is damaged");
	take_text(w, take_number(w, 8), "the header page is damaged");
	label = take(w, 13);
	if (label && memcmp(label, "header_event", 13))
		bad(w, "the event header is damaged");
	take_text(w, take_number(w, 8), "the event header is damaged");
}

static bool has(const unsigned char *p, size_t n, const char *what)
{
	return memmem(p, n, what, strlen(what)) != NULL;
}

/* Each "\tfield:" line of an event format: "...;\toffset:N;\tsize:N;\tsigned:N;". */
static bool are_fields(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n, *line = memmem(p, n, "\tfield:", 7);

	for (; line; line = memmem(line + 1, end - line - 1, "\tfield:", 7)) {
		const unsigned char *eol = memchr(line, '\n', end - line);
		size_t len = (eol ? eol : end) - line;

		if (!has(line, len, ";\toffset:") || !has(line, len, ";\tsize:") ||
		    !has(line, len, ";\tsigned:") || line[len - 1] != ';')
			return false;
	}
	return true;
}

/* @size bytes of one event format: text in the layout tracefs writes. */
static void take_format(struct walk *w, uint64_t size, const char *why)
{
	const unsigned char *p = w->p + w->at;

	take_text(w, size, why);
	if (w->why || w->is_short)
		return;
	if (size < 6 || memcmp(p, "name: ", 6) || !has(p, size, "\nID: ") ||
	    !has(p, size, "\nformat:\n") || !has(p, size, "\nprint fmt: ") || !are_fields(p, size))
		bad(w, why);
}

static void walk_ftrace_formats(struct walk *w)
{
	uint32_t count = (uint32_t)take_number(w, 4);

	if (count > MAX_COUNT)
		bad(w, "the ftrace event formats are damaged");
	for (uint32_t i = 0; i < count && !w->why && !w->is_short; i++)
		take_format(w, take_number(w, 8), "an ftrace event format is damaged");
}

static void walk_event_formats(struct walk *w)
{
	uint32_t systems = (uint32_t)take_number(w, 4);

	if (systems > MAX_COUNT)
		bad(w, "the event formats are damaged");
	for (uint32_t s = 0; s < systems && !w->why && !w->is_short; s++) {
		uint32_t count;

		take_string(w, "an event system name is damaged");
		count = (uint32_t)take_number(w, 4);
		if (count > MAX_COUNT)
			bad(w, "the event formats are damaged");
		for (uint32_t i = 0; i < count && !w->why && !w->is_short; i++)
			take_format(w, take_number(w, 8), "an event format is damaged");
	}
}

/* One /proc/kallsyms line at @p: "ADDRESS TYPE NAME" then "\t[MODULE]" or not; its length. */
static size_t kallsyms_line(const char *p, size_t n, size_t *address_len)
{
	size_t at = 0, name;

	while (at < n && isxdigit((unsigned char)p[at]))
		at++;
	if (!*address_len)
		*address_len = at;
	if (!at || at != *address_len || at + 3 >= n || p[at] != ' ' ||
	    !isalpha((unsigned char)p[at + 1]) || p[at + 2] != ' ')
		return 0;
	at += 3;
	for (name = at; at < n && p[at] > ' '; at++)
		;
	if (at == name)
		return 0;
	if (at + 1 < n && p[at] == '\t' && p[at + 1] == '[') {
		while (at < n && p[at] != ']' && p[at] != '\n')
			at++;
		at += at < n && p[at] == ']';
	}
	return at == n || p[at] == '\n' ? at + 1 : 0;
}

static bool is_kallsyms(const unsigned char *p, size_t n)
{
	size_t address_len = 0, len;

	for (size_t at = 0; at < n; at += len) {
		len = kallsyms_line((const char *)p + at, n - at, &address_len);
		if (!len)
			return false;
	}
	return true;
}

static void walk_kallsyms(struct walk *w)
{
	const char *why = "the kernel symbols (kallsyms) are damaged";
	uint64_t size = take_number(w, 4);
	const unsigned char *p = w->p + w->at;

	take_text(w, size, why);
	if (!w->why && !w->is_short && !is_kallsyms(p, size))
		bad(w, why);
}

/* Options that make libtracecmd change the timestamps it hands out. */
static void note_option(struct ca_layout *layout, unsigned int id)
{
	enum { DATE = 1, OFFSET = 7, TIME_SHIFT = 12, TSC2NSEC = 14 };

	if (id == DATE || id == OFFSET || id == TIME_SHIFT || id == TSC2NSEC)
		layout->has_converted_ts = true;
	if (id == TSC2NSEC)
		layout->has_tsc2nsec = true;
}

/* A BUFFER option's (@p, @len: offset, then name): an instance's buffer, named. */
static void note_instance(struct ca_layout *layout, const unsigned char *p, size_t len)
{
	size_t name_len = len > 8 ? strnlen((const char *)p + 8, len - 8) : 0;

	if (!name_len || name_len == len - 8)
		return;		/* the top buffer, or a name that does not end */
	if (!layout->instance_count++)
		snprintf(layout->instance, sizeof(layout->instance), "%.*s", (int)name_len, p + 8);
}

static void walk_v6_options(struct walk *w, struct ca_layout *layout)
{
	for (unsigned int i = 0; i < MAX_COUNT && !w->why && !w->is_short; i++) {
		unsigned int id = (unsigned int)take_number(w, 2);
		uint64_t size;

		if (!id)
			return;
		size = take_number(w, 4);
		if (size > MAX_SECTION)
			bad(w, "an option is damaged");
		note_option(layout, id);
		if (id == OPTION_BUFFER && !w->is_short && w->at + size <= w->len)
			note_instance(layout, w->p + w->at, size);
		take(w, size);
	}
	bad(w, "the options are damaged");
}

/* One more CPU with data.  Return: 0, or -ENOMEM. */
static int add_layout_cpu(struct ca_layout *layout, int cpu, uint64_t offset, uint64_t size)
{
	if (ca_grow(&layout->cpus, layout->cpu_count, &layout->cpu_room, sizeof(*layout->cpus)))
		return -ENOMEM;
	layout->cpus[layout->cpu_count++] = (struct ca_layout_cpu){ cpu, offset, size };
	return 0;
}

void ca_layout_free(struct ca_layout *layout)
{
	free(layout->cpus);
	layout->cpus = NULL;
	layout->cpu_count = 0;
	layout->cpu_room = 0;
}

static void walk_v6_cpus(struct walk *w, struct ca_layout *layout, uint32_t cpus)
{
	if (cpus > CA_CPU_LIMIT) {
		bad(w, "the CPU count is damaged (or above the kernel's limit of 8192)");
		return;
	}
	for (uint32_t cpu = 0; cpu < cpus && !w->why && !w->is_short; cpu++) {
		uint64_t offset = take_number(w, 8), size = take_number(w, 8);

		if (!size || w->is_short)
			continue;
		if (offset % layout->page_size || offset < w->at || offset + size < offset) {
			bad(w, "the table of CPU data is damaged");
			return;
		}
		if (add_layout_cpu(layout, (int)cpu, offset, size))
			bad(w, "out of memory");
	}
}

/* @size bytes not checked (trace_printk formats, command lines). */
static void take_blob(struct walk *w, uint64_t size)
{
	if (size > MAX_SECTION)
		bad(w, "a header section's size is damaged");
	take(w, size);
}

/* Version 6: the headers one after the other, then options and the flyrecord table. */
static int walk_v6(struct walk *w, struct ca_layout *layout)
{
	const unsigned char *kind;
	uint32_t cpus;

	w->at = 18;
	walk_header_info(w);
	walk_ftrace_formats(w);
	walk_event_formats(w);
	walk_kallsyms(w);
	take_blob(w, take_number(w, 4));	/* trace_printk formats */
	take_blob(w, take_number(w, 8));	/* command lines */
	cpus = (uint32_t)take_number(w, 4);
	kind = take(w, 10);
	if (kind && !memcmp(kind, "options", 7)) {
		walk_v6_options(w, layout);
		kind = take(w, 10);
	}
	if (!kind)
		return 0;
	if (!memcmp(kind, "latency", 7))
		return -ENOTSUP;
	if (memcmp(kind, "flyrecord", 9))
		bad(w, "the options are damaged");
	walk_v6_cpus(w, layout, cpus);
	return 0;
}

/*
 * trace-cmd writes version 6 CPU data one CPU after the other, each from a
 * page boundary, the last up to the end of the file: a table whose extents
 * overlap or leave whole pages between them is damaged; so is one that stops
 * a page or more before the end of the file (trailing_bytes(): a size made
 * smaller would read as whole).
 */
static bool is_contiguous(const struct ca_layout *layout)
{
	uint64_t ps = (uint64_t)layout->page_size, end = 0;

	for (int i = 0; i < layout->cpu_count; i++) {
		const struct ca_layout_cpu *c = &layout->cpus[i];

		if (i && (c->offset < end || c->offset >= (end + ps - 1) / ps * ps + ps))
			return false;
		end = c->offset + c->size;
	}
	return true;
}

/* The bytes past the last CPU's data, when a page or more (0: none that matter). */
static uint64_t trailing_bytes(const struct ca_layout *layout)
{
	uint64_t end = 0;

	if (!layout->cpu_count)
		return 0;
	end = layout->cpus[layout->cpu_count - 1].offset + layout->cpus[layout->cpu_count - 1].size;
	return end + (uint64_t)layout->page_size <= layout->file_size ? layout->file_size - end : 0;
}

/* Read more of the file until the version 6 headers are walked. */
static int layout_v6(struct ca_layout *layout, int fd, const char **why)
{
	size_t want = 4u << 20;
	unsigned char *buf = NULL;
	struct walk w;
	int ret;

	for (;;) {
		size_t len = want < layout->file_size ? want : layout->file_size;
		unsigned char *grown = realloc(buf, len ? len : 1);

		if (!grown) {
			free(buf);
			return -ENOMEM;
		}
		buf = grown;
		w = (struct walk){ .p = buf, .len = len };
		ret = read_at(fd, 0, buf, len);
		if (!ret)
			ret = walk_v6(&w, layout);
		if (ret || !w.is_short || len == layout->file_size || want >= MAX_HEADERS)
			break;
		want *= 4;
	}
	free(buf);
	if (!ret && w.is_short)
		w.why = "the headers run past the end of the file";
	if (!ret && !w.why && !is_contiguous(layout))
		w.why = "the table of CPU data is damaged (its extents do not follow each other)";
	if (!ret && !w.why && trailing_bytes(layout))
		w.why = "the file goes on a page or more past the last CPU's data (a size in its "
			"table of CPU data made smaller, or bytes appended)";
	*why = w.why;
	return ret ? ret : w.why ? -EINVAL : 0;
}

/* ---- Version 7: sections found through the options. ---- */

struct sections {
	uint64_t offsets[SECTION_LAST + 1];	/* by section id, 0: not given */
	int fd;
	ZSTD_DCtx *dctx;
	const char *why;
};

static int section_fail(struct sections *s, const char *why)
{
	if (!s->why)
		s->why = why;
	return -EINVAL;
}

/* Section @id at @offset, decompressed if need be, into a fresh buffer. */
static int read_section(struct sections *s, uint64_t offset, unsigned int id,
			unsigned char **data, size_t *len)
{
	unsigned char head[24];
	uint32_t csize, usize;
	void *packed;
	size_t got;

	*data = NULL;
	*len = 0;
	if (read_at(s->fd, offset, head, 16) || le16(head) != id || le64(head + 8) > MAX_SECTION)
		return section_fail(s, "a section header is damaged or past the end of the file");
	if (!(le16(head + 2) & 1)) {		/* not compressed */
		*len = le64(head + 8);
		*data = malloc(*len ? *len : 1);
		if (!*data)
			return -ENOMEM;
		return read_at(s->fd, offset + 16, *data, *len) ?
		       section_fail(s, "a section runs past the end of the file") : 0;
	}
	if (read_at(s->fd, offset + 16, head + 16, 8))
		return section_fail(s, "a section runs past the end of the file");
	csize = le32(head + 16);
	usize = le32(head + 20);
	if (csize > MAX_SECTION || usize > MAX_SECTION)
		return section_fail(s, "a section header is damaged");
	packed = malloc(csize ? csize : 1);
	*data = malloc(usize ? usize : 1);
	if (!packed || !*data || read_at(s->fd, offset + 24, packed, csize)) {
		free(packed);
		if (!packed || !*data)
			return -ENOMEM;
		return section_fail(s, "a section runs past the end of the file");
	}
	got = ZSTD_decompressDCtx(s->dctx, *data, usize, packed, csize);
	free(packed);
	if (ZSTD_isError(got) || got != usize)
		return section_fail(s, "a compressed section does not decompress");
	*len = usize;
	return 0;
}

/* A BUFFER option of the top instance: its CPUs' data offsets and sizes. */
static int take_buffer(struct ca_layout *layout, struct sections *s, const unsigned char *p,
		       size_t len)
{
	size_t at = 8, name_len = strnlen((const char *)p + at, len - at);
	uint32_t cpus;

	if (at + name_len >= len || name_len)
		return 0;		/* an instance's, not the top buffer's */
	at += name_len + 1;
	at += strnlen((const char *)p + at, len - at) + 1;	/* clock */
	if (at + 8 > len)
		return section_fail(s, "the BUFFER option is damaged");
	cpus = le32(p + at + 4);
	at += 8;
	if (cpus > CA_CPU_LIMIT || at + (size_t)cpus * 20 > len)
		return section_fail(s, "the BUFFER option is damaged (or past 8192 CPUs)");
	for (uint32_t i = 0; i < cpus; i++, at += 20) {
		uint64_t offset = le64(p + at + 4), size = le64(p + at + 12);
		int cpu = (int)le32(p + at);

		if (cpu < 0 || cpu >= CA_CPU_LIMIT || offset + size < offset)
			return section_fail(s, "the BUFFER option is damaged");
		if (size && add_layout_cpu(layout, cpu, offset, size))
			return section_fail(s, "out of memory");
	}
	return 1;
}

/*
 * One options section's options: 1 when the top buffer was found (or
 * @has_buffer: it was, in a section before), with *@next the next section.
 * Past the top buffer, options are noted (instances' names, options that
 * change timestamps) but no buffer or section is taken.
 */
static int walk_options(struct ca_layout *layout, struct sections *s, const unsigned char *data,
			size_t len, uint64_t *next, bool has_buffer)
{
	int ret = has_buffer;

	for (size_t at = 0; ret >= 0 && at + 6 <= len; at += 6 + le32(data + at + 2)) {
		unsigned int id = le16(data + at);
		uint32_t size = le32(data + at + 2);

		if (size > len - at - 6)
			return ret ? ret : section_fail(s, "an option is damaged");
		note_option(layout, id);
		if (id == OPTION_BUFFER)
			note_instance(layout, data + at + 6, size);
		if (id == OPTION_DONE && size == 8)
			*next = le64(data + at + 6);
		if (ret)
			continue;
		if (id == OPTION_BUFFER && size >= 8)
			ret = take_buffer(layout, s, data + at + 6, size);
		else if (id >= SECTION_FIRST && id <= SECTION_LAST && size >= 8)
			s->offsets[id] = le64(data + at + 6);
	}
	return ret;
}

static int find_buffer(struct ca_layout *layout, struct sections *s, uint64_t offset)
{
	bool has_buffer = false;

	for (int sections = 0; offset && sections < 64; sections++) {
		const char *why = s->why;
		unsigned char *data = NULL;
		size_t len = 0;
		uint64_t next = 0;
		int ret = read_section(s, offset, OPTION_DONE, &data, &len);

		if (!ret)
			ret = walk_options(layout, s, data, len, &next, has_buffer);
		free(data);
		if (ret < 0 && has_buffer) {
			s->why = why;	/* past the top buffer: its damage is libtracecmd's to find */
			break;
		}
		if (ret < 0)
			return ret;
		has_buffer |= ret > 0;
		offset = next;
	}
	return has_buffer ? 0 : -ENOTSUP;	/* no top buffer: a latency trace */
}

/* The header sections libtracecmd parsed: intact text. */
static int check_sections(struct sections *s)
{
	static void (*const walkers[])(struct walk *) = {
		walk_header_info, walk_ftrace_formats, walk_event_formats, walk_kallsyms,
	};

	for (unsigned int id = SECTION_FIRST; id <= SECTION_LAST; id++) {
		unsigned char *data = NULL;
		size_t len = 0;
		int ret = s->offsets[id] ? read_section(s, s->offsets[id], id, &data, &len) : 0;
		struct walk w = { .p = data, .len = len };

		if (!ret && data)
			walkers[id - SECTION_FIRST](&w);
		free(data);
		if (ret)
			return ret;
		if (w.why || w.is_short)
			return section_fail(s, w.why ? w.why : "a header section is cut short");
	}
	return 0;
}

/*
 * The version 7 file header: "\x17\x08Dtracing" "7\0", endian, long size,
 * page size, compression name and version, options offset.
 */
static int layout_v7(struct ca_layout *layout, int fd, const char **why)
{
	struct sections s = { .fd = fd, .dctx = ZSTD_createDCtx() };
	unsigned char head[129] = { 0 };
	size_t at = 18, len = sizeof(head) - 1;
	int ret;

	if (!s.dctx)
		return -ENOMEM;
	if (layout->file_size < len)
		len = (size_t)layout->file_size;
	ret = read_at(fd, 0, head, len);
	at += ret ? 0 : strnlen((const char *)head + at, len - at) + 1;
	layout->is_compressed = !ret && !strcmp((const char *)head + 18, "zstd");
	if (!ret && !layout->is_compressed && strcmp((const char *)head + 18, "none"))
		ret = -ENOTSUP;		/* another compression: libtracecmd reads it */
	if (!ret && at < len)
		at += strnlen((const char *)head + at, len - at) + 1;
	if (!ret && at + 8 > len)
		ret = section_fail(&s, "the file header is damaged");
	if (!ret)
		ret = find_buffer(layout, &s, le64(head + at));
	if (!ret)
		ret = check_sections(&s);
	ZSTD_freeDCtx(s.dctx);
	*why = s.why;
	return ret;
}

static int compare_cpus(const void *a, const void *b)
{
	return ((const struct ca_layout_cpu *)a)->cpu - ((const struct ca_layout_cpu *)b)->cpu;
}

/*
 * The version and page size in the file header: trace-cmd writes versions 6
 * and 7 only (libtracecmd would read a lower number as 6, and allocate what
 * its damaged sizes say), and pages (ring-buffer sub-buffers) are a power of
 * two of 64 bytes or more.  Sub-buffers over 1 MiB, which coreaudit's reader
 * does not take, and big-endian files are left to libtracecmd (-ENOTSUP).
 */
static int check_file_header(const struct ca_layout *layout, const unsigned char *head,
			     const char **why)
{
	int ps = layout->page_size;

	if (head[11] || (layout->version != 6 && layout->version != 7)) {
		*why = "the file version is not 6 or 7 (the versions trace-cmd writes)";
		return -EINVAL;
	}
	if (head[12])
		return -ENOTSUP;
	if (ps < 64 || (ps & (ps - 1))) {
		*why = "the page size is no power of two of 64 bytes or more (no kernel writes such "
		       "pages)";
		return -EINVAL;
	}
	return ps > (1 << 20) ? -ENOTSUP : 0;
}

int ca_layout_read(struct ca_layout *layout, const char *path, char *error, size_t error_len)
{
	unsigned char head[18];
	const char *why = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY), ret;

	memset(layout, 0, sizeof(*layout));
	if (fd < 0 || fstat(fd, &st) || read_at(fd, 0, head, sizeof(head))) {
		if (fd >= 0)
			close(fd);
		return -ENOTSUP;
	}
	layout->file_size = (uint64_t)st.st_size;
	layout->version = head[10] - '0';
	layout->page_size = (int)le32(head + 14);
	ret = check_file_header(layout, head, &why);
	if (!ret)
		ret = layout->version == 6 ? layout_v6(layout, fd, &why) : layout_v7(layout, fd, &why);
	close(fd);
	if (ret == -EINVAL)
		snprintf(error, error_len, "%s", why ? why : "the headers are damaged");
	if (!ret && layout->cpu_count > 1)	/* merges break ties by CPU: keep them in order */
		qsort(layout->cpus, layout->cpu_count, sizeof(*layout->cpus), compare_cpus);
	return ret;
}

/* ---- The CPU data. ---- */

struct zcpu {
	int cpu;
	uint64_t next;			/* file offset of the next chunk header, or page run */
	uint64_t end;			/* of this CPU's data, as declared */
	uint64_t size;			/* of this CPU's data, as declared */
	uint32_t chunks_left;
	unsigned char *chunk;		/* the decompressed chunk, or a run of pages */
	size_t chunk_size;
	size_t loaded;			/* of those bytes, read so far (a first run's head) */
	size_t chunk_capacity;
	uint64_t chunk_offset;		/* file offset of the chunk, or of the run */
	size_t page;			/* offset of the current page in the chunk */
	unsigned long long min_ts;	/* the last timestamp of the previous good page */
	struct ca_page_cursor cursor;	/* walks the current page */
	bool has_event;
	struct tep_record event;
	bool has_read;			/* an event of this CPU was handed out */
	unsigned long long last_ts;	/* of that event */
	bool has_damage;		/* damage not yet reported */
	struct ca_lost damage;
};

struct ca_zchunks {
	int fd;
	struct ca_page_rules rules;
	bool is_compressed;
	uint64_t file_size;
	ZSTD_DCtx *dctx;
	unsigned char *zbuf;		/* compressed bytes of one chunk */
	size_t zbuf_size;
	bool has_first_damage;
	struct ca_damage first_damage;
	bool is_part;			/* a view of another's CPUs (ca_zchunks_part()) */
	int cpu_count;
	struct zcpu *cpus;		/* in CPU order; a part's point into the whole's */
};

/* Note @bytes of unreadable data at @offset on @c (0 bytes: not known). */
static void add_damage(struct ca_zchunks *z, struct zcpu *c, uint64_t offset, uint64_t bytes)
{
	if (!c->has_damage) {
		c->has_damage = true;
		c->damage = (struct ca_lost){ .count = -1, .is_damage = true, .offset = offset };
	}
	c->damage.bytes += bytes;
	if (!z->has_first_damage) {
		z->has_first_damage = true;
		z->first_damage = (struct ca_damage){ c->cpu, 0, c->damage };
	}
}

/* The rest of @c's declared data, from @offset, cannot be read. */
static void damage_to_end(struct ca_zchunks *z, struct zcpu *c, uint64_t offset)
{
	add_damage(z, c, offset, c->end > offset ? c->end - offset : 0);
	c->next = c->end;
	c->chunks_left = 0;
}

/* Grow *@buf to hold @need bytes. */
static int reserve(unsigned char **buf, size_t *capacity, size_t need)
{
	unsigned char *grown;

	if (need <= *capacity)
		return 0;
	grown = realloc(*buf, need);
	if (!grown)
		return -ENOMEM;
	*buf = grown;
	*capacity = need;
	return 0;
}

/*
 * The next run of pages in place; *@has_chunk false at the end of the data.
 * Of a CPU's first run only the head is read here (its first page, and the
 * next for is_split_from_next()): the first events of all CPUs are found
 * before the reading threads start, and the rest is theirs (load_rest()).
 */
static int next_run(struct ca_zchunks *z, struct zcpu *c, bool *has_chunk)
{
	uint64_t ps = (uint64_t)z->rules.page_size;
	uint64_t held = z->file_size < c->end ? z->file_size : c->end;
	uint64_t len = held > c->next ? (held - c->next) / ps * ps : 0;
	uint64_t head;

	*has_chunk = false;
	if (len > RAW_RUN * ps)
		len = RAW_RUN * ps;
	if (!len) {
		if (c->next < c->end)
			damage_to_end(z, c, c->next);	/* cut short, or a partial page */
		return 0;
	}
	/* no buffer yet: the CPU's first run */
	head = !c->chunk && len > RAW_RUN_HEAD * ps ? RAW_RUN_HEAD * ps : len;
	if (reserve(&c->chunk, &c->chunk_capacity, len))
		return -ENOMEM;
	if (read_at(z->fd, c->next, c->chunk, head)) {
		damage_to_end(z, c, c->next);
		return 0;
	}
	c->chunk_offset = c->next;
	c->chunk_size = len;
	c->loaded = head;
	c->page = 0;
	c->next += len;
	*has_chunk = true;
	return 0;
}

/* The rest of a run whose head alone was read; what does not read is damage, to the end. */
static void load_rest(struct ca_zchunks *z, struct zcpu *c)
{
	if (c->loaded >= c->chunk_size)
		return;
	if (read_at(z->fd, c->chunk_offset + c->loaded, c->chunk + c->loaded,
		    c->chunk_size - c->loaded)) {
		damage_to_end(z, c, c->chunk_offset + c->loaded);
		c->chunk_size = c->loaded;
		return;
	}
	c->loaded = c->chunk_size;
}

/* A plausible chunk header in @head (at @at): sizes in bounds, zstd's magic after it. */
static bool is_chunk_at(const struct ca_zchunks *z, const struct zcpu *c, uint64_t at,
			const unsigned char *head)
{
	uint32_t csize = le32(head), usize = le32(head + 4);

	return csize >= 4 && csize <= MAX_CHUNK && usize && usize <= MAX_CHUNK &&
	       !(usize % (uint32_t)z->rules.page_size) && at + 8 + csize <= c->end &&
	       !memcmp(head + 8, zstd_magic, sizeof(zstd_magic));
}

/* After a damaged chunk header at @from: the next plausible one, or the end of the data. */
static uint64_t resync(const struct ca_zchunks *z, const struct zcpu *c, uint64_t from)
{
	enum { STEP = 65536, HEAD = 12 };
	unsigned char *window = malloc(STEP + HEAD);
	uint64_t held = z->file_size < c->end ? z->file_size : c->end, found = c->end;

	for (uint64_t at = from + 1; window && found == c->end && at + HEAD <= held; at += STEP) {
		size_t len = held - at < STEP + HEAD ? (size_t)(held - at) : STEP + HEAD;

		if (read_at(z->fd, at, window, len))
			break;
		for (size_t i = 0; i + HEAD <= len && found == c->end; i++)
			if (window[i + 8] == zstd_magic[0] && is_chunk_at(z, c, at + i, window + i))
				found = at + i;
	}
	free(window);
	return found;
}

/*
 * Every page of a decompressed chunk passes its checks: zstd (as trace-cmd
 * uses it, without checksums) can turn damaged input into plausible output,
 * so one bad page makes the whole chunk suspect.
 */
static bool is_sound_chunk(const struct ca_zchunks *z, const struct zcpu *c, size_t size)
{
	unsigned long long min_ts = c->min_ts;
	struct ca_page_summary sum;

	for (size_t at = 0; at + (size_t)z->rules.page_size <= size; at += z->rules.page_size) {
		if (ca_page_check(&z->rules, c->chunk + at, min_ts, &sum))
			return false;
		if (sum.event_count)
			min_ts = sum.last_ts;
	}
	return true;
}

/* Decompress the chunk whose header @head is at @at; a chunk that does not is damage. */
static int decompress(struct ca_zchunks *z, struct zcpu *c, uint64_t at,
		      const unsigned char *head, bool *has_chunk)
{
	uint32_t csize = le32(head), usize = le32(head + 4);
	size_t got;

	if (reserve(&z->zbuf, &z->zbuf_size, csize) ||
	    reserve(&c->chunk, &c->chunk_capacity, usize))
		return -ENOMEM;
	if (read_at(z->fd, at + 8, z->zbuf, csize)) {
		damage_to_end(z, c, at);
		return 0;
	}
	got = ZSTD_decompressDCtx(z->dctx, c->chunk, usize, z->zbuf, csize);
	if (ZSTD_isError(got) || got != usize || !is_sound_chunk(z, c, usize)) {
		add_damage(z, c, at, 8 + (uint64_t)csize);
		return 0;
	}
	c->chunk_offset = at;
	c->chunk_size = usize;
	c->loaded = usize;
	c->page = 0;
	*has_chunk = true;
	return 0;
}

/* Decompress @c's next readable chunk; *@has_chunk false at the end of its data. */
static int next_chunk(struct ca_zchunks *z, struct zcpu *c, bool *has_chunk)
{
	unsigned char head[12];
	int ret = 0;

	*has_chunk = false;
	while (!ret && !*has_chunk && c->chunks_left && c->next < c->end) {
		uint64_t at = c->next, found;

		if (at + sizeof(head) > c->end || read_at(z->fd, at, head, sizeof(head))) {
			damage_to_end(z, c, at);
			break;
		}
		if (!is_chunk_at(z, c, at, head)) {
			found = resync(z, c, at);
			add_damage(z, c, at, found - at);
			c->next = found;
			continue;
		}
		ret = decompress(z, c, at, head, has_chunk);
		c->next = at + 8 + le32(head);
		c->chunks_left--;
	}
	if (!ret && !*has_chunk && c->next < c->end)
		damage_to_end(z, c, c->next);	/* the chunk count ends before the data */
	return ret;
}

/* @ev as @c's current event. */
static void set_event(struct zcpu *c, const struct ca_page_event *ev)
{
	c->event.data = ev->data;
	c->event.ts = ev->ts;
	c->event.size = ev->size;
	c->event.cpu = c->cpu;
	c->event.missed_events = ev->missed;
	c->has_event = true;
}

static void skip_page(struct ca_zchunks *z, struct zcpu *c, bool is_damaged)
{
	if (is_damaged && z->is_compressed)
		add_damage(z, c, c->chunk_offset, 0);	/* a page inside a compressed chunk */
	else if (is_damaged)
		add_damage(z, c, c->chunk_offset + c->page, (uint64_t)z->rules.page_size);
	c->page += (size_t)z->rules.page_size;
}

/*
 * The page after the one at @page of the run at @run (@size bytes) in the run
 * too, and its times split from this one's ending at @last_ts: both are
 * damage (ca_page_is_time_split(); a chunk's own pages were checked in order
 * already, so only a run of pages in place has any).
 */
static bool is_split_from_next(const struct ca_page_rules *rules, const unsigned char *run,
			       size_t size, size_t page, unsigned long long last_ts)
{
	size_t ps = (size_t)rules->page_size;

	return page + 2 * ps <= size && ca_page_is_time_split(rules, run + page + ps, last_ts);
}

/* The first event at or after the cursor's page, through pages and chunks, damage skipped. */
static int first_from_page(struct ca_zchunks *z, struct zcpu *c)
{
	for (;;) {
		struct ca_page_summary sum;
		struct ca_page_event ev;
		bool has_chunk;
		int ret;

		if (c->page + 2 * (size_t)z->rules.page_size > c->loaded)
			load_rest(z, c);
		if (c->page + (size_t)z->rules.page_size > c->chunk_size) {
			ret = z->is_compressed ? next_chunk(z, c, &has_chunk) :
			      next_run(z, c, &has_chunk);
			if (ret || !has_chunk) {
				c->has_event = false;
				return ret;
			}
		}
		if (ca_page_check(&z->rules, c->chunk + c->page, c->min_ts, &sum) ||
		    !sum.event_count) {
			skip_page(z, c, sum.why != NULL);
			continue;
		}
		if (is_split_from_next(&z->rules, c->chunk, c->chunk_size, c->page, sum.last_ts)) {
			skip_page(z, c, true);
			skip_page(z, c, true);
			continue;
		}
		c->min_ts = sum.last_ts;
		ca_page_start(&z->rules, c->chunk + c->page, &c->cursor);
		if (ca_page_next(&z->rules, &c->cursor, &ev)) {
			set_event(c, &ev);
			return 0;
		}
		skip_page(z, c, true);
	}
}

static int advance(struct ca_zchunks *z, struct zcpu *c)
{
	struct ca_page_event ev;

	if (ca_page_next(&z->rules, &c->cursor, &ev)) {
		set_event(c, &ev);
		return 0;
	}
	c->page += (size_t)z->rules.page_size;
	return first_from_page(z, c);
}

/* A compressed CPU's chunk count; -EPROTO when it is not in the file. */
static int start_count(struct ca_zchunks *z, struct zcpu *c)
{
	unsigned char count[4];

	if (c->next + 4 > c->end || read_at(z->fd, c->next, count, 4)) {
		damage_to_end(z, c, c->next);
		return -EPROTO;
	}
	c->chunks_left = le32(count);
	c->next += 4;
	return 0;
}

static int start_cpu(struct ca_zchunks *z, struct zcpu *c)
{
	if (z->is_compressed && start_count(z, c))
		return 0;
	return first_from_page(z, c);
}

int ca_zchunks_open(struct ca_zchunks **out, const char *path, const struct ca_layout *layout,
		    const struct ca_page_rules *rules)
{
	struct ca_zchunks *z = calloc(1, sizeof(*z) + layout->cpu_count * sizeof(struct zcpu));

	*out = NULL;
	if (!z)
		return -ENOMEM;
	z->cpus = (struct zcpu *)(z + 1);
	z->cpu_count = layout->cpu_count;
	z->is_compressed = layout->is_compressed;
	z->file_size = layout->file_size;
	z->rules = *rules;
	z->fd = open(path, O_RDONLY);
	z->dctx = layout->is_compressed ? ZSTD_createDCtx() : NULL;
	for (int i = 0; i < z->cpu_count; i++) {
		struct zcpu *c = &z->cpus[i];

		c->cpu = layout->cpus[i].cpu;
		c->next = layout->cpus[i].offset;
		c->end = c->next + layout->cpus[i].size + (layout->is_compressed ? 4 : 0);
		c->size = layout->cpus[i].size;
	}
	if (z->fd < 0 || (layout->is_compressed && !z->dctx)) {
		ca_zchunks_close(z);
		return -ENOMEM;
	}
	*out = z;
	return 0;
}

/*
 * The CPUs with a current event, by its time, the lowest CPU on a tie (as
 * libtracecmd merges): ids are indexes of z->cpus, which ca_zchunks_open()
 * keeps in CPU order.
 */
static int queue_of_events(struct ca_zchunks *z, struct ca_tourney *queue)
{
	int ret = 0;

	for (int i = 0; !ret && i < z->cpu_count; i++)
		if (z->cpus[i].has_event)
			ret = ca_tourney_push(queue, z->cpus[i].event.ts, i);
	return ret;
}

static struct zcpu *earliest(struct ca_zchunks *z, struct ca_tourney *queue)
{
	struct ca_tourney_item top;

	return ca_tourney_top(queue, &top) ? &z->cpus[top.id] : NULL;
}

static int report_damage(struct zcpu *c, const struct ca_read_fns *fns, uint64_t ts,
			 bool is_stream_end)
{
	struct ca_damage damage = { c->cpu, ts, c->damage };

	damage.lost.is_stream_end = is_stream_end;
	c->has_damage = false;
	return fns->damage(fns->ctx, &damage);
}

/* Damage left on CPUs whose streams ended without an event after it. */
static int report_stream_ends(struct ca_zchunks *z, const struct ca_read_fns *fns,
			      unsigned long long last_ts)
{
	int ret = 0;

	for (int i = 0; !ret && i < z->cpu_count; i++)
		if (z->cpus[i].has_damage)
			ret = report_damage(&z->cpus[i], fns, last_ts, true);
	return ret;
}

/*
 * CPUs with nothing readable at all: their damage goes before the first
 * event of the trace (at its time), so the state knows them unobserved from
 * the start, not from the end.
 */
static int report_empty_streams(struct ca_zchunks *z, const struct ca_read_fns *fns,
				const struct zcpu *first)
{
	int ret = 0;

	for (int i = 0; first && !ret && i < z->cpu_count; i++)
		if (!z->cpus[i].has_event && z->cpus[i].has_damage)
			ret = report_damage(&z->cpus[i], fns, first->event.ts, true);
	return ret;
}

/* The CPU whose first event comes first (the lowest on a tie); NULL: none has one. */
static const struct zcpu *first_event(const struct ca_zchunks *z)
{
	const struct zcpu *first = NULL;

	for (int i = 0; i < z->cpu_count; i++)
		if (z->cpus[i].has_event && (!first || z->cpus[i].event.ts < first->event.ts))
			first = &z->cpus[i];
	return first;
}

int ca_zchunks_start(struct ca_zchunks *z, const struct ca_read_fns *fns)
{
	const struct zcpu *first;
	int ret = 0;

	for (int i = 0; !ret && i < z->cpu_count; i++)
		ret = start_cpu(z, &z->cpus[i]);
	if (ret)
		return ret;
	first = first_event(z);
	if (first)
		return report_empty_streams(z, fns, first);
	ret = report_stream_ends(z, fns, 0);
	return ret ? ret : z->cpu_count ? -ENODATA : 0;
}

/* The bytes of the event that comes next, on their way to the cache. */
static void prefetch_earliest(struct ca_zchunks *z, struct ca_tourney *queue)
{
	const struct zcpu *c = earliest(z, queue);

	if (c) {
		__builtin_prefetch(c->event.data);
		__builtin_prefetch((const char *)c->event.data + 64);
		__builtin_prefetch((const char *)c->event.data + 128);	/* a switch's probe */
	}
}

/* @c, whose event went out, on to its next page (or its end). */
static int move_on(struct ca_zchunks *z, struct ca_tourney *queue, struct zcpu *c,
		   const struct ca_read_fns *fns)
{
	int ret = advance(z, c);

	if (!ret && c->has_event)
		ca_tourney_replace_top(queue, c->event.ts);
	else if (!ret)
		ca_tourney_pop(queue);
	if (!ret && !c->has_event && c->has_damage)
		ret = report_damage(c, fns, c->last_ts, true);
	return ret;
}

/*
 * @event out with @c's event, the next in the page (fns->pairs() said so):
 * @c moves past both, its next event's bytes fetched meanwhile when in the
 * same page; else both go out before the page is left.
 */
static int take_pair(struct ca_zchunks *z, struct ca_tourney *queue, struct zcpu *c,
		     const struct ca_read_fns *fns, struct tep_record *event)
{
	struct tep_record paired = c->event;
	struct ca_page_event next;
	int ret;

	c->last_ts = paired.ts;
	if (ca_page_next(&z->rules, &c->cursor, &next)) {
		set_event(c, &next);
		ca_tourney_replace_top(queue, c->event.ts);
		prefetch_earliest(z, queue);
		return fns->record_paired(fns->ctx, event, &paired);
	}
	ret = fns->record_paired(fns->ctx, event, &paired);
	return ret ? ret : move_on(z, queue, c, fns);
}

/*
 * Hand out @c's event, the earliest, and move @c on.  When its next event is
 * in the same page (the bytes of both stay where they are), @c moves first,
 * and the bytes of the event that comes after this one are fetched while
 * this one is used: on many CPUs a stream's page has left the cache since its
 * last event, a miss an event otherwise.
 */
static int take_event(struct ca_zchunks *z, struct ca_tourney *queue, struct zcpu *c,
		      const struct ca_read_fns *fns)
{
	struct tep_record event = c->event;
	struct ca_page_event next;
	int ret;

	if (ca_page_next(&z->rules, &c->cursor, &next)) {
		set_event(c, &next);
		if (fns->pairs && fns->pairs(fns->ctx, &event, &c->event))
			return take_pair(z, queue, c, fns, &event);
		ca_tourney_replace_top(queue, c->event.ts);
		prefetch_earliest(z, queue);
		return fns->record(fns->ctx, &event);
	}
	ret = fns->record(fns->ctx, &event);
	return ret ? ret : move_on(z, queue, c, fns);
}

int ca_zchunks_merge(struct ca_zchunks *z, const struct ca_read_fns *fns)
{
	unsigned long long last_ts = 0;
	struct ca_tourney queue;
	struct zcpu *c;
	int ret;

	ca_tourney_init(&queue);
	ret = queue_of_events(z, &queue);
	while (!ret && (c = earliest(z, &queue))) {
		if (c->has_damage)
			ret = report_damage(c, fns, c->event.ts, false);
		c->has_read = true;
		c->last_ts = c->event.ts;
		if (!ret)
			ret = take_event(z, &queue, c, fns);
		last_ts = c->last_ts;	/* (a paired event's, when two went out) */
	}
	ca_tourney_free(&queue);
	return ret ? ret : report_stream_ends(z, fns, last_ts);
}

int ca_zchunks_read(struct ca_zchunks *z, const struct ca_read_fns *fns)
{
	int ret = ca_zchunks_start(z, fns);

	return ret ? ret : ca_zchunks_merge(z, fns);
}

/*
 * Where part @index of @parts begins: the CPUs cut where their declared data
 * add up to that share of the whole, each part at least one CPU.
 */
static int part_start(const struct ca_zchunks *z, int index, int parts)
{
	unsigned __int128 total = 0, sum = 0;
	int start = 0, i = 0;

	for (int k = 0; k < z->cpu_count; k++)
		total += z->cpus[k].size;
	for (int part = 1; part <= index; part++) {
		while (i < z->cpu_count && sum * parts < total * part)
			sum += z->cpus[i++].size;
		start = i > start ? i : start + 1;
		if (start > z->cpu_count - (parts - part))
			start = z->cpu_count - (parts - part);
	}
	return start;
}

int ca_zchunks_part(struct ca_zchunks *z, int index, int parts, struct ca_zchunks **out)
{
	struct ca_zchunks *part;
	int from, to;

	*out = NULL;
	if (parts < 1 || parts > z->cpu_count || index < 0 || index >= parts)
		return -EINVAL;
	from = part_start(z, index, parts);
	to = index + 1 == parts ? z->cpu_count : part_start(z, index + 1, parts);
	part = calloc(1, sizeof(*part));
	if (!part)
		return -ENOMEM;
	*part = *z;
	part->is_part = true;
	part->cpus = z->cpus + from;
	part->cpu_count = to - from;
	part->zbuf = NULL;
	part->zbuf_size = 0;
	part->has_first_damage = false;
	part->dctx = z->is_compressed ? ZSTD_createDCtx() : NULL;
	if (z->is_compressed && !part->dctx) {
		free(part);
		return -ENOMEM;
	}
	*out = part;
	return 0;
}

bool ca_zchunks_damage(const struct ca_zchunks *z, struct ca_damage *first)
{
	*first = z->first_damage;
	return z->has_first_damage;
}

void ca_zchunks_close(struct ca_zchunks *z)
{
	if (!z)
		return;
	for (int i = 0; !z->is_part && i < z->cpu_count; i++)
		free(z->cpus[i].chunk);
	if (z->dctx)
		ZSTD_freeDCtx(z->dctx);
	if (z->fd >= 0 && !z->is_part)
		close(z->fd);
	free(z->zbuf);
	free(z);
}

/* Check @n pages at @pages into @out, the last timestamp of each good one the next's minimum. */
static void check_pages(const struct ca_page_rules *rules, const unsigned char *pages, size_t n,
			int32_t *out, unsigned long long *min_ts)
{
	for (size_t i = 0; i < n; i++, pages += rules->page_size) {
		struct ca_page_summary sum;

		if (ca_page_check(rules, pages, *min_ts, &sum)) {
			out[i] = CA_PAGE_BAD;
		} else if (sum.event_count &&
			   is_split_from_next(rules, pages, (n - i) * (size_t)rules->page_size, 0,
					      sum.last_ts)) {
			out[i] = out[i + 1] = CA_PAGE_BAD;	/* as the reader does */
			i++;
			pages += rules->page_size;
			continue;
		} else if (!sum.event_count)
			out[i] = CA_PAGE_EMPTY;
		else
			out[i] = sum.last_event;
		if (sum.event_count && !sum.why)
			*min_ts = sum.last_ts;
	}
}

/* The pages in place: those not in the file are bad. */
static int raw_table(struct ca_zchunks *z, struct zcpu *c, int32_t *table, size_t pages)
{
	size_t ps = (size_t)z->rules.page_size;
	unsigned long long min_ts = 0;

	for (size_t done = 0; done < pages;) {
		bool has_chunk;
		int ret = next_run(z, c, &has_chunk);

		if (ret)
			return ret;
		if (!has_chunk)
			break;
		load_rest(z, c);
		check_pages(&z->rules, c->chunk, c->chunk_size / ps, table + done, &min_ts);
		done += c->chunk_size / ps;
	}
	return 0;
}

/*
 * The pages of the chunks, in libtracecmd's order (its offsets for them are
 * positions in the uncompressed data); those of a chunk that does not
 * decompress are bad; a damaged chunk header: -EPROTO, libtracecmd's chunk
 * list would be wrong.
 */
static int chunk_table(struct ca_zchunks *z, struct zcpu *c, int32_t **table, size_t *count)
{
	size_t ps = (size_t)z->rules.page_size;
	unsigned long long min_ts = 0;
	unsigned char head[12];
	int ret = start_count(z, c);

	for (; !ret && c->chunks_left; c->chunks_left--) {
		bool has_chunk = false;
		int32_t *grown;
		size_t pages;

		if (read_at(z->fd, c->next, head, sizeof(head)) ||
		    !is_chunk_at(z, c, c->next, head))
			return -EPROTO;
		pages = le32(head + 4) / ps;
		grown = realloc(*table, (*count + pages) * sizeof(**table));
		if (!grown)
			return -ENOMEM;
		*table = grown;
		c->min_ts = min_ts;
		ret = decompress(z, c, c->next, head, &has_chunk);
		if (!has_chunk)
			for (size_t i = 0; i < pages; i++)
				(*table)[*count + i] = CA_PAGE_BAD;
		else
			check_pages(&z->rules, c->chunk, pages, *table + *count, &min_ts);
		*count += pages;
		c->next += 8 + le32(head);
	}
	return ret ? ret : c->next == c->end ? 0 : -EPROTO;
}

int ca_layout_page_table(const struct ca_layout *layout, int index, const char *path,
			 const struct ca_page_rules *rules, int32_t **table, size_t *count)
{
	struct ca_layout one = *layout;
	struct ca_layout_cpu cpu = layout->cpus[index];
	struct ca_zchunks *z;
	int ret;

	one.cpus = &cpu;
	one.cpu_count = 1;
	*table = NULL;
	*count = 0;
	ret = ca_zchunks_open(&z, path, &one, rules);
	if (ret)
		return ret;
	if (layout->is_compressed) {
		ret = chunk_table(z, &z->cpus[0], table, count);
	} else {
		*count = (size_t)(one.cpus[0].size / (uint64_t)layout->page_size);
		*table = malloc((*count ? *count : 1) * sizeof(**table));
		for (size_t i = 0; *table && i < *count; i++)
			(*table)[i] = CA_PAGE_BAD;
		ret = *table ? raw_table(z, &z->cpus[0], *table, *count) : -ENOMEM;
	}
	ca_zchunks_close(z);
	if (!ret)
		return 0;
	free(*table);
	*table = NULL;
	return ret;
}
