/*
 * zchunks.c - the CPU data of a version 7, zstd-compressed trace.dat, read
 * one chunk at a time with libzstd and walked in place with kbuffer.
 *
 * Why not libtracecmd: on these files it keeps every chunk it decompresses
 * (bench/RESULTS.md: memory grows with the trace for every libtracecmd
 * reader), and its page machinery costs more than the decompression.  Only
 * the layout of the CPU data is read here (trace-cmd.dat.v7(5): the BUFFER
 * option of the options sections, then per CPU a chunk count and chunks of
 * compressed size, uncompressed size, data); libtracecmd still parses the
 * headers and event formats, and stays the reference: every CPU's first
 * event must be the one libtracecmd reads, else the caller falls back to it.
 * Every size read from the file is checked before it is used; a page whose
 * commit size or events overrun it is corrupt input, not a fault.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>
#include <trace-cmd.h>
#include <zstd.h>

#include "coreaudit/topology.h"
#include "zchunks.h"

#define MAX_SECTION (256u << 20)	/* options sections are kilobytes */
#define MAX_CHUNK (64u << 20)		/* trace-cmd writes chunks of tens of pages */
#define COMMIT_MASK ((1u << 27) - 1)	/* kbuffer's: the size bits of a page's commit */
#define OPTION_DONE 0
#define OPTION_BUFFER 3

struct zcpu {
	int cpu;
	uint64_t next;			/* file offset of the next chunk header */
	uint64_t end;			/* of this CPU's data */
	uint32_t chunks_left;
	unsigned char *chunk;		/* the decompressed chunk */
	size_t chunk_size;
	size_t chunk_capacity;
	size_t page;			/* offset of the current page in the chunk */
	struct kbuffer *kbuf;		/* walks the current page */
	bool has_event;
	bool is_page_start;		/* the event is its page's first */
	struct tep_record event;
};

struct ca_zchunks {
	int fd;
	int page_size;
	int long_size;			/* the kernel's, as its page headers hold it */
	struct tep_handle *tep;
	ZSTD_DCtx *dctx;
	unsigned char *zbuf;		/* compressed bytes of one chunk */
	size_t zbuf_size;
	int cpu_count;
	char *error;
	size_t error_len;
	struct zcpu cpus[];
};

static int fail(struct ca_zchunks *z, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ca_zchunks *z, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(z->error, z->error_len, fmt, args);
	va_end(args);
	return -EINVAL;
}

static int read_at(struct ca_zchunks *z, uint64_t offset, void *buf, size_t len)
{
	ssize_t got = pread(z->fd, buf, len, (off_t)offset);

	return got == (ssize_t)len ? 0 : -EINVAL;
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

/*
 * The file header: "\x17\x08Dtracing" "7\0", endian, long size, page size,
 * compression, options offset.
 */
static int read_header(struct ca_zchunks *z, uint64_t *options)
{
	unsigned char head[64];
	size_t at;

	if (read_at(z, 0, head, sizeof(head)) || memcmp(head + 3, "tracing", 7) ||
	    memcmp(head + 10, "7", 2))
		return -ENOTSUP;
	if (head[12] != 0)
		return -ENOTSUP;	/* big endian: libtracecmd swaps for us */
	z->page_size = (int)le32(head + 14);
	at = 18;
	if (memcmp(head + at, "zstd", 5))
		return -ENOTSUP;	/* not compressed, or not with zstd */
	at += 5;
	while (at < sizeof(head) - 8 && head[at])
		at++;			/* the compression version */
	if (at >= sizeof(head) - 8 || z->page_size < 64 || z->page_size > (1 << 20))
		return -ENOTSUP;
	*options = le64(head + at + 1);
	return 0;
}

/* One options section, decompressed if need be, into a fresh buffer. */
static int read_section(struct ca_zchunks *z, uint64_t offset, unsigned char **data, size_t *len)
{
	unsigned char head[24];
	uint64_t size;
	uint32_t csize, usize;
	void *packed;
	size_t got;

	*data = NULL;
	*len = 0;
	if (read_at(z, offset, head, 16))
		return fail(z, "options section at %llu is beyond the end", (unsigned long long)offset);
	size = le64(head + 8);
	if (head[0] != 0 || head[1] != 0 || size > MAX_SECTION)
		return fail(z, "bad options section at %llu", (unsigned long long)offset);
	if (!(head[2] & 1)) {		/* not compressed */
		*data = malloc(size ? size : 1);
		*len = size;
		return *data && !read_at(z, offset + 16, *data, size) ? 0 :
		       fail(z, "options section at %llu is truncated", (unsigned long long)offset);
	}
	if (read_at(z, offset + 16, head + 16, 8))
		return fail(z, "options section at %llu is truncated", (unsigned long long)offset);
	csize = le32(head + 16);
	usize = le32(head + 20);
	if (csize > MAX_SECTION || usize > MAX_SECTION)
		return fail(z, "bad options section at %llu", (unsigned long long)offset);
	packed = malloc(csize ? csize : 1);
	*data = malloc(usize ? usize : 1);
	if (!packed || !*data || read_at(z, offset + 24, packed, csize)) {
		free(packed);
		return fail(z, "options section at %llu is truncated", (unsigned long long)offset);
	}
	got = ZSTD_decompressDCtx(z->dctx, *data, usize, packed, csize);
	free(packed);
	if (ZSTD_isError(got) || got != usize)
		return fail(z, "options section at %llu does not decompress",
			    (unsigned long long)offset);
	*len = usize;
	return 0;
}

/* A BUFFER option of the top instance: its CPUs' data offsets and sizes. */
static int take_buffer(struct ca_zchunks *z, const unsigned char *p, size_t len)
{
	size_t at = 8, name_len;
	uint32_t cpus;

	name_len = strnlen((const char *)p + at, len - at);
	if (at + name_len >= len || name_len)
		return 0;		/* an instance's, not the top buffer's */
	at += name_len + 1;
	at += strnlen((const char *)p + at, len - at) + 1;	/* clock */
	if (at + 8 > len)
		return fail(z, "bad BUFFER option");
	cpus = le32(p + at + 4);
	at += 8;
	if (cpus > CA_MAX_CPUS || at + (size_t)cpus * 20 > len)
		return fail(z, "bad BUFFER option: %u CPUs", cpus);
	for (uint32_t i = 0; i < cpus; i++, at += 20) {
		struct zcpu *c = &z->cpus[z->cpu_count];
		uint64_t offset = le64(p + at + 4), size = le64(p + at + 12);

		c->cpu = (int)le32(p + at);
		if (c->cpu < 0 || c->cpu >= CA_MAX_CPUS || offset + size < offset)
			return fail(z, "bad BUFFER option: CPU %d", c->cpu);
		if (!size)
			continue;
		c->next = offset;
		c->end = offset + 4 + size;	/* the size leaves out the chunk count */
		z->cpu_count++;
	}
	return 1;
}

static int find_buffer(struct ca_zchunks *z, uint64_t offset)
{
	for (int sections = 0; offset && sections < 64; sections++) {
		unsigned char *data = NULL;
		size_t len = 0, at = 0;
		uint64_t next = 0;
		int ret = read_section(z, offset, &data, &len);

		if (ret) {
			free(data);
			return ret;
		}
		while (!ret && at + 6 <= len) {
			uint16_t id = (uint16_t)(data[at] | data[at + 1] << 8);
			uint32_t size = le32(data + at + 2);

			if (size > len - at - 6) {
				ret = fail(z, "bad option %u in the section at %llu", id,
					   (unsigned long long)offset);
				break;
			}
			if (id == OPTION_BUFFER && size >= 8)
				ret = take_buffer(z, data + at + 6, size);
			else if (id == OPTION_DONE && size == 8)
				next = le64(data + at + 6);
			at += 6 + size;
		}
		free(data);
		if (ret < 0)
			return ret;
		if (ret > 0)
			return 0;
		offset = next;
	}
	return -ENOTSUP;		/* no top buffer: a latency trace */
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

/* Decompress @c's next chunk; *@has_chunk false at the end of its data. */
static int next_chunk(struct ca_zchunks *z, struct zcpu *c, bool *has_chunk)
{
	unsigned char head[8];
	uint32_t csize, usize;
	size_t got;

	*has_chunk = false;
	if (!c->chunks_left)
		return 0;
	if (c->next + 8 > c->end || read_at(z, c->next, head, 8))
		return fail(z, "CPU %d: chunk header at %llu is beyond its data", c->cpu,
			    (unsigned long long)c->next);
	csize = le32(head);
	usize = le32(head + 4);
	if (csize > MAX_CHUNK || usize > MAX_CHUNK || !usize || usize % z->page_size ||
	    c->next + 8 + csize > c->end)
		return fail(z, "CPU %d: bad chunk at %llu", c->cpu, (unsigned long long)c->next);
	if (reserve(&z->zbuf, &z->zbuf_size, csize) || reserve(&c->chunk, &c->chunk_capacity, usize))
		return -ENOMEM;
	if (read_at(z, c->next + 8, z->zbuf, csize))
		return fail(z, "CPU %d: chunk at %llu is truncated", c->cpu,
			    (unsigned long long)c->next);
	got = ZSTD_decompressDCtx(z->dctx, c->chunk, usize, z->zbuf, csize);
	if (ZSTD_isError(got) || got != usize)
		return fail(z, "CPU %d: chunk at %llu does not decompress", c->cpu,
			    (unsigned long long)c->next);
	c->chunk_size = usize;
	c->page = 0;
	c->next += 8 + csize;
	c->chunks_left--;
	*has_chunk = true;
	return 0;
}

/* Load the page at @c->page into the kbuffer, its commit size checked first. */
static int load_page(struct ca_zchunks *z, struct zcpu *c)
{
	unsigned char *page = c->chunk + c->page;
	uint64_t commit = z->long_size == 8 ? le64(page + 8) : le32(page + 8);

	if ((commit & COMMIT_MASK) > (uint64_t)z->page_size - 8 - z->long_size)
		return fail(z, "CPU %d: a page claims %llu bytes of events in %d", c->cpu,
			    (unsigned long long)(commit & COMMIT_MASK), z->page_size);
	kbuffer_load_subbuffer(c->kbuf, page);
	return 0;
}

static int set_event(struct ca_zchunks *z, struct zcpu *c, void *data, unsigned long long ts)
{
	unsigned char *page_end = c->chunk + c->page + z->page_size;

	c->event.data = data;
	c->event.ts = ts;
	c->event.size = kbuffer_event_size(c->kbuf);
	c->event.cpu = c->cpu;
	c->event.missed_events = c->is_page_start ? kbuffer_missed_events(c->kbuf) : 0;
	if (c->event.size < 0 || (unsigned char *)data + c->event.size > page_end)
		return fail(z, "CPU %d: an event runs past the end of its page", c->cpu);
	c->has_event = true;
	return 0;
}

/* The first event at or after the cursor's page, moving through pages and chunks. */
static int first_from_page(struct ca_zchunks *z, struct zcpu *c)
{
	for (;;) {
		unsigned long long ts;
		bool has_chunk;
		void *data;
		int ret;

		if (c->page + z->page_size > c->chunk_size) {
			ret = next_chunk(z, c, &has_chunk);
			if (ret || !has_chunk) {
				c->has_event = false;
				return ret;
			}
		}
		ret = load_page(z, c);
		if (ret)
			return ret;
		data = kbuffer_read_event(c->kbuf, &ts);
		if (data) {
			c->is_page_start = true;
			return set_event(z, c, data, ts);
		}
		c->page += z->page_size;
	}
}

static int advance(struct ca_zchunks *z, struct zcpu *c)
{
	unsigned long long ts;
	void *data = kbuffer_next_event(c->kbuf, &ts);

	if (data) {
		c->is_page_start = false;
		return set_event(z, c, data, ts);
	}
	c->page += z->page_size;
	return first_from_page(z, c);
}

static int start_cpu(struct ca_zchunks *z, struct zcpu *c)
{
	unsigned char count[4];

	c->kbuf = ca_kbuffer_for(z->tep);
	if (!c->kbuf)
		return -ENOMEM;
	if (c->next + 4 > c->end || read_at(z, c->next, count, 4))
		return fail(z, "CPU %d: its data is beyond the end of the file", c->cpu);
	c->chunks_left = le32(count);
	c->next += 4;
	c->page = 0;
	c->chunk_size = 0;
	return first_from_page(z, c);
}

/* libtracecmd, the reference, must read the same first event on every CPU. */
static bool agrees_with_libtracecmd(struct ca_zchunks *z, struct tracecmd_input *handle)
{
	for (int i = 0; i < z->cpu_count; i++) {
		struct zcpu *c = &z->cpus[i];
		struct tep_record *rec = tracecmd_read_cpu_first(handle, c->cpu);
		bool is_same = rec && c->has_event && rec->ts == c->event.ts &&
			       rec->size == c->event.size &&
			       !memcmp(rec->data, c->event.data, rec->size);

		tracecmd_free_record(rec);
		if (!is_same)
			return false;
	}
	return true;
}

int ca_zchunks_open(struct ca_zchunks **out, const char *path, struct tracecmd_input *handle,
		    char *error, size_t error_len)
{
	struct ca_zchunks *z = calloc(1, sizeof(*z) + CA_MAX_CPUS * sizeof(struct zcpu));
	uint64_t options;
	int ret;

	*out = NULL;
	if (!z)
		return -ENOMEM;
	z->error = error;
	z->error_len = error_len;
	z->fd = open(path, O_RDONLY);
	z->dctx = ZSTD_createDCtx();
	if (z->fd < 0 || !z->dctx) {
		ca_zchunks_close(z);
		return -ENOTSUP;
	}
	z->tep = tracecmd_get_tep(handle);
	z->long_size = tep_get_header_page_size(z->tep) == 8 ? 8 : 4;
	ret = read_header(z, &options);
	if (!ret)
		ret = find_buffer(z, options);
	for (int i = 0; !ret && i < z->cpu_count; i++)
		ret = start_cpu(z, &z->cpus[i]);
	if (!ret && !agrees_with_libtracecmd(z, handle))
		ret = -ENOTSUP;
	if (ret) {
		ca_zchunks_close(z);
		return ret;
	}
	*out = z;
	return 0;
}

/* The earliest current event; the lowest CPU on a tie, as libtracecmd merges. */
static struct zcpu *earliest(struct ca_zchunks *z)
{
	struct zcpu *best = NULL;

	for (int i = 0; i < z->cpu_count; i++) {
		struct zcpu *c = &z->cpus[i];

		if (c->has_event && (!best || c->event.ts < best->event.ts ||
				     (c->event.ts == best->event.ts && c->cpu < best->cpu)))
			best = c;
	}
	return best;
}

int ca_zchunks_read(struct ca_zchunks *z, ca_pages_fn fn, void *ctx)
{
	struct zcpu *c;
	int ret = 0;

	while (!ret && (c = earliest(z))) {
		ret = fn(ctx, &c->event);
		if (!ret)
			ret = advance(z, c);
	}
	return ret;
}

void ca_zchunks_close(struct ca_zchunks *z)
{
	if (!z)
		return;
	for (int i = 0; i < CA_MAX_CPUS; i++) {
		free(z->cpus[i].chunk);
		if (z->cpus[i].kbuf)
			kbuffer_free(z->cpus[i].kbuf);
	}
	if (z->dctx)
		ZSTD_freeDCtx(z->dctx);
	if (z->fd >= 0)
		close(z->fd);
	free(z->zbuf);
	free(z);
}
