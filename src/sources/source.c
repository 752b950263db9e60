/*
 * source.c - pick the source for a file by its first bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sources/readers.h"

static const char tracedat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

enum file_kind { KIND_TRACEDAT, KIND_TEXT, KIND_BINARY, KIND_EMPTY };

static enum file_kind sniff(FILE *file)
{
	unsigned char head[4096];
	size_t len = fread(head, 1, sizeof(head), file);

	if (!len)
		return KIND_EMPTY;
	if (len >= sizeof(tracedat_magic) && !memcmp(head, tracedat_magic, sizeof(tracedat_magic)))
		return KIND_TRACEDAT;
	return memchr(head, '\0', len) ? KIND_BINARY : KIND_TEXT;
}

static int refuse(struct ca_source *source, enum file_kind kind)
{
	if (kind == KIND_EMPTY)
		snprintf(source->error, sizeof(source->error), "%s: empty file", source->path);
	else
		snprintf(source->error, sizeof(source->error),
			 "%s: unrecognised format: neither a trace-cmd trace.dat file nor "
			 "trace-cmd report text", source->path);
	return -EINVAL;
}

/* A copy of all of stdin (the text reader reads its file twice), or NULL with errno. */
static FILE *spool_stdin(void)
{
	FILE *spool = tmpfile();
	char buf[65536];
	size_t len;

	while (spool && (len = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, len, spool) != len) {
			fclose(spool);
			return NULL;
		}
	if (spool && ferror(stdin)) {
		fclose(spool);
		errno = EIO;
		return NULL;
	}
	return spool;
}

/* "-": `trace-cmd report` text on stdin; a trace.dat is read from its file. */
static int open_stdin(struct ca_source *source)
{
	FILE *spool = spool_stdin();
	enum file_kind kind;

	source->path = "stdin";
	if (!spool) {
		int err = errno;

		snprintf(source->error, sizeof(source->error), "stdin: %s", strerror(err));
		return -err;
	}
	rewind(spool);
	kind = sniff(spool);
	if (kind == KIND_TEXT) {
		rewind(spool);
		return ca_text_open_file(source, source->path, spool);
	}
	fclose(spool);
	if (kind != KIND_TRACEDAT)
		return refuse(source, kind);
	snprintf(source->error, sizeof(source->error), "stdin: a trace.dat is read from its "
		 "file (libtracecmd seeks in it): give its name instead of -");
	return -EINVAL;
}

int ca_source_open(struct ca_source *source, const char *path)
{
	FILE *file;
	enum file_kind kind;

	memset(source, 0, sizeof(*source));
	source->path = path;
	if (!strcmp(path, "-"))
		return open_stdin(source);
	file = fopen(path, "rb");
	if (!file) {
		int err = errno;

		snprintf(source->error, sizeof(source->error), "%s: %s", path, strerror(err));
		return -err;
	}
	kind = sniff(file);
	fclose(file);
	switch (kind) {
	case KIND_TRACEDAT:
		return ca_tracedat_open(source, path);
	case KIND_TEXT:
		return ca_text_open(source, path);
	case KIND_EMPTY:
	case KIND_BINARY:
		break;
	}
	return refuse(source, kind);
}

int ca_source_read(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	return source->read(source, fn, ctx);
}

void ca_source_close(struct ca_source *source)
{
	if (source->close)
		source->close(source);
}
