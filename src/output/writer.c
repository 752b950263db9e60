/*
 * writer.c - trace.dat version 6, as trace-cmd.dat.v6(5) describes it:
 * magic, version, endianness, long size, page size; header_page and
 * header_event; the ftrace print format; the formats of the event systems
 * coreaudit records; the kallsyms an audit needs (below); no printk
 * formats; saved_cmdlines; the CPU
 * count; the TRACECLOCK option; flyrecord offsets and sizes; then each CPU's
 * pages, page aligned, exactly as the ring buffer gave them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "util/event.h"
#include "coreaudit/writer.h"
#include "util/grow.h"

/* A ring-buffer page (sub-buffer) is at most 1 MiB (tracefs buffer_subbuf_size_kb). */
#define MAX_PAGE_SIZE (1 << 20)

#define OPTION_TRACECLOCK 4

/* The traced events, and the cookie probe when it could be created. */
static const struct ca_event_name probe = { "coreaudit", "cs_switch" };
#define MAX_RECORDED 32

/*
 * The @i-th event coreaudit record writes the format of: the traced ones (with
 * @with_kernel_entry, the kernel entries too), then the probe.
 */
static const struct ca_event_name *recorded(int i, bool with_kernel_entry)
{
	for (int d = 0; d < ca_event_desc_count; d++)
		if ((ca_event_descs[d].is_traced ||
		     (with_kernel_entry && ca_event_descs[d].is_kernel_entry)) && i-- == 0)
			return &ca_event_descs[d].id;
	return i == 0 ? &probe : NULL;
}

int ca_writer_open(struct ca_writer *writer, int cpu_count, int page_size, char *err,
		   int err_len)
{
	memset(writer, 0, sizeof(*writer));
	writer->page_size = page_size;
	writer->cpus = calloc(cpu_count, sizeof(*writer->cpus));
	if (!writer->cpus) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	writer->cpu_count = cpu_count;
	writer->pages = tmpfile();
	if (!writer->pages) {
		int ret = -errno;	/* before snprintf can change errno */

		snprintf(err, err_len, "cannot create a temporary file: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

int ca_writer_page(struct ca_writer *writer, int cpu, const void *page, int size)
{
	struct ca_writer_cpu *c;

	if (cpu < 0 || cpu >= writer->cpu_count || size < 0 || size > MAX_PAGE_SIZE)
		return -EIO;
	c = &writer->cpus[cpu];
	if (ca_grow(&c->pages, c->page_count, &c->page_room, sizeof(*c->pages)) ||
	    fwrite(page, 1, size, writer->pages) != (size_t)size)
		return -EIO;
	c->pages[c->page_count++] = (struct ca_writer_page){ writer->pages_size, size };
	writer->pages_size += size;
	c->bytes += size;
	return 0;
}

static void put(FILE *out, const void *data, size_t size)
{
	fwrite(data, 1, size, out);
}

static void put32(FILE *out, uint32_t value)
{
	put(out, &value, 4);	/* host order: the file says which */
}

static void put64(FILE *out, uint64_t value)
{
	put(out, &value, 8);
}

/* A tracefs file with a 64-bit size before it. */
static int put_file64(FILE *out, const char *relative)
{
	char *text = tracefs_instance_file_read(NULL, relative, NULL);
	size_t len = text ? strlen(text) : 0;

	put64(out, len);
	if (len)
		put(out, text, len);
	free(text);
	return text ? 0 : -ENOENT;
}

static char *event_format(const char *system, const char *event)
{
	char path[256];

	snprintf(path, sizeof(path), "events/%s/%s/format", system, event);
	return tracefs_instance_file_read(NULL, path, NULL);
}

/* The systems that have at least one recorded event, each with its formats. */
static void put_event_formats(FILE *out, bool with_kernel_entry)
{
	const char *systems[MAX_RECORDED];
	int system_count = 0;

	for (int i = 0; recorded(i, with_kernel_entry) && i < MAX_RECORDED; i++) {
		const struct ca_event_name *e = recorded(i, with_kernel_entry);
		char *format = event_format(e->system, e->event);
		bool is_known = false;

		for (int s = 0; s < system_count; s++)
			is_known |= !strcmp(systems[s], e->system);
		if (format && !is_known)
			systems[system_count++] = e->system;
		free(format);
	}
	put32(out, system_count);
	for (int s = 0; s < system_count; s++) {
		char *formats[MAX_RECORDED];
		int count = 0;

		for (int i = 0; recorded(i, with_kernel_entry) && i < MAX_RECORDED; i++)
			if (!strcmp(recorded(i, with_kernel_entry)->system, systems[s]) &&
			    (formats[count] = event_format(systems[s], recorded(i, with_kernel_entry)->event)))
				count++;
		put(out, systems[s], strlen(systems[s]) + 1);
		put32(out, count);
		for (int i = 0; i < count; i++) {
			put64(out, strlen(formats[i]));
			put(out, formats[i], strlen(formats[i]));
			free(formats[i]);
		}
	}
}

/*
 * An audit resolves two kinds of address: an hrtimer's function, to tell the
 * tick (tick_*) from other timers, and a reschedule IPI's callsite, to tell
 * the IPI of a core-wide pick (__schedule).  Those symbols and the symbol
 * after each are enough: an address resolves to the nearest symbol below it,
 * so one past a function's end meets the next symbol, not the function.
 * (The whole /proc/kallsyms would add about 5 MB to every file.)
 */
static bool is_resolved(const char *name)
{
	return !strncmp(name, "tick_", 5) || !strcmp(name, "__schedule");
}

static void put_kallsyms(FILE *out)
{
	FILE *in = fopen("/proc/kallsyms", "r");
	char *text = NULL, line[512];
	size_t len = 0;
	FILE *subset = open_memstream(&text, &len);
	bool is_after = false;

	while (in && subset && fgets(line, sizeof(line), in)) {
		char name[256];
		bool is_wanted = sscanf(line, "%*s %*s %255s", name) == 1 && is_resolved(name);

		if (is_wanted || is_after)
			fputs(line, subset);
		is_after = is_wanted;
	}
	if (in)
		fclose(in);
	if (subset)
		fclose(subset);
	put32(out, len);
	if (len)
		put(out, text, len);
	free(text);
}

static void put_header(FILE *out, const struct ca_writer *writer, const char *clock_text)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint16_t one = 1;
	char *print = event_format("ftrace", "print");

	put(out, magic, sizeof(magic));
	put(out, "6", 2);
	put(out, (char[]){ *(char *)&one ? 0 : 1 }, 1);	/* 0: little endian */
	put(out, (char[]){ (char)sizeof(long) }, 1);
	put32(out, writer->page_size);
	put(out, "header_page", 12);
	put_file64(out, "events/header_page");
	put(out, "header_event", 13);
	put_file64(out, "events/header_event");
	put32(out, print ? 1 : 0);		/* ftrace formats: print, for markers */
	if (print) {
		put64(out, strlen(print));
		put(out, print, strlen(print));
	}
	free(print);
	put_event_formats(out, writer->with_kernel_entry);
	put_kallsyms(out);
	put32(out, 0);				/* printk formats */
	put_file64(out, "saved_cmdlines");
	put32(out, writer->cpu_count);
	put(out, "options  ", 10);
	put(out, (uint16_t[]){ OPTION_TRACECLOCK }, 2);
	put32(out, strlen(clock_text) + 1);
	put(out, clock_text, strlen(clock_text) + 1);
	put(out, (uint16_t[]){ 0 }, 2);
	put(out, "flyrecord", 10);
}

/* @c's pages, in the order they came, from the temporary file into @out. */
static int copy_cpu(FILE *out, FILE *in, const struct ca_writer_cpu *c)
{
	char *buf = malloc(MAX_PAGE_SIZE);
	int ret = buf ? 0 : -ENOMEM;

	for (size_t i = 0; i < c->page_count && !ret; i++) {
		size_t size = c->pages[i].size;

		if (fseeko(in, (off_t)c->pages[i].offset, SEEK_SET) ||
		    fread(buf, 1, size, in) != size || fwrite(buf, 1, size, out) != size)
			ret = -EIO;
	}
	free(buf);
	return ret;
}

int ca_writer_finish(struct ca_writer *writer, const char *path, const char *clock_text,
		     char *err, int err_len)
{
	FILE *out = fopen(path, "wb");
	unsigned long long offset;
	long header;
	int ret = 0;

	if (!out) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	put_header(out, writer, clock_text);
	header = ftell(out) + 16L * writer->cpu_count;
	offset = (header + writer->page_size - 1) / writer->page_size * writer->page_size;
	for (int cpu = 0; cpu < writer->cpu_count; cpu++) {
		put64(out, writer->cpus[cpu].bytes ? offset : 0);
		put64(out, writer->cpus[cpu].bytes);
		offset += writer->cpus[cpu].bytes;
	}
	while (ftell(out) % writer->page_size)
		fputc(0, out);
	for (int cpu = 0; cpu < writer->cpu_count && !ret; cpu++)
		ret = copy_cpu(out, writer->pages, &writer->cpus[cpu]);
	if (fclose(out) || ret) {
		snprintf(err, err_len, "%s: cannot write: %s", path, strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

void ca_writer_free(struct ca_writer *writer)
{
	for (int cpu = 0; writer->cpus && cpu < writer->cpu_count; cpu++)
		free(writer->cpus[cpu].pages);
	free(writer->cpus);
	if (writer->pages)
		fclose(writer->pages);
	memset(writer, 0, sizeof(*writer));
}
