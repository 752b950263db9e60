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

int ca_source_open(struct ca_source *source, const char *path)
{
	FILE *file = fopen(path, "rb");
	enum file_kind kind;

	memset(source, 0, sizeof(*source));
	source->path = path;
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
		snprintf(source->error, sizeof(source->error), "%s: empty file", path);
		return -EINVAL;
	case KIND_BINARY:
		break;
	}
	snprintf(source->error, sizeof(source->error),
		 "%s: unrecognised format: neither a trace-cmd trace.dat file nor "
		 "trace-cmd report text", path);
	return -EINVAL;
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
