/*
 * readers.h - private to the library: reading a source's events (the
 * pipeline's side of source.h), and the file readers ca_source_open() picks
 * from, named here for the tests.  Opening and closing a source is public
 * (coreaudit/source.h).
 */
#ifndef CA_SOURCES_READERS_H
#define CA_SOURCES_READERS_H

#include <stdio.h>

#include "coreaudit/source.h"
#include "util/event.h"

/**
 * ca_source_read() - emit every event, in time order, to @fn
 * Return: 0; a negative errno with @source->error set when the input is bad;
 *         or what @fn returned to stop.
 */
int ca_source_read(struct ca_source *source, ca_event_fn fn, void *ctx);

/**
 * ca_source_read_handoff() - ca_source_read() on this thread, @fn called on
 *                            a worker thread, every event in the same order
 *                            (a file source only: not the live one); a
 *                            trace.dat that coreaudit's own reader reads is
 *                            read by up to @readers threads, this one and
 *                            @readers - 1 more, each merging a part of the
 *                            CPUs, the worker merging theirs
 * Return: as ca_source_read().
 */
int ca_source_read_handoff(struct ca_source *source, int readers, ca_event_fn fn, void *ctx);

struct tep_record;
struct ca_decoders;

/*
 * A record of coreaudit's own trace.dat reader handed out undecoded
 * (ca_source_parts_read()): decode it with ca_decoders_emit_with() and a memo
 * of the calling thread's, after ca_decoders_share().
 */
typedef int (*ca_record_fn)(void *ctx, struct tep_record *rec);

struct ca_source_parts;

/**
 * ca_source_parts_open() - a trace.dat's CPU data, as coreaudit's own reader
 *                          reads them, for a read in parts
 *
 * ca_source_parts_cut() cuts the CPUs into parts, ca_source_parts_start()
 * finds every CPU's first event, then ca_source_parts_read() reads each
 * part, on a thread of its own if need be; what the start emitted, then the
 * parts' events merged by (timestamp, CPU), come in ca_source_read()'s
 * order, event for event.
 * Return: 0 with *@out set; 0 with *@out NULL when the source is not read so
 *         (not a trace.dat, libtracecmd's records, fewer than two CPUs): read
 *         it whole; -ENOMEM.
 */
int ca_source_parts_open(struct ca_source *source, struct ca_source_parts **out);

/**
 * ca_source_parts_start() - every CPU's first event found; what comes before
 *                           it (the damage of CPUs with nothing readable)
 *                           goes to @fn with @ctx now
 * Return: as ca_source_read().
 */
int ca_source_parts_start(struct ca_source_parts *parts, ca_event_fn fn, void *ctx);

/** ca_source_parts_most() - the most parts the CPUs can be cut into (one CPU a part) */
int ca_source_parts_most(const struct ca_source_parts *parts);

/**
 * ca_source_parts_cut() - cut the CPUs into @count parts (at most
 *                         ca_source_parts_most(); 1: the whole is the part)
 * Return: 0, or -ENOMEM.
 */
int ca_source_parts_cut(struct ca_source_parts *parts, int count);

/**
 * ca_source_parts_read() - part @index's events in time order: records
 *                          undecoded to @record, damage decoded to @fn, both
 *                          with @ctx; the parts on any threads, one each
 * Return: as ca_source_read().
 */
int ca_source_parts_read(struct ca_source_parts *parts, int index, ca_record_fn record,
			 ca_event_fn fn, void *ctx);

/** ca_source_parts_close() - free @parts (NULL: nothing), after every part's read has ended */
void ca_source_parts_close(struct ca_source_parts *parts);

/** ca_source_decoders() - what decodes a trace.dat source's records */
const struct ca_decoders *ca_source_decoders(const struct ca_source *source);

/** ca_tracedat_open() - open a trace-cmd trace.dat. Return: as ca_source_open(). */
int ca_tracedat_open(struct ca_source *source, const char *path);

/** ca_text_open() - open `trace-cmd report` text. Return: as ca_source_open(). */
int ca_text_open(struct ca_source *source, const char *path);

/**
 * ca_text_open_file() - read report text from @file (owned by the source from
 *                       now on, even on failure), named @path in messages
 * Return: as ca_source_open().
 */
int ca_text_open_file(struct ca_source *source, const char *path, FILE *file);

/**
 * ca_text_parse_line() - parse one line of `trace-cmd report` text
 *
 * A lost-events line ("CPU:1 [12 EVENTS DROPPED]") gives a CA_EV_LOST with
 * its CPU and count (< 0 unknown) but no timestamp: the gap ends at that
 * CPU's next event.
 *
 * Return: 1 with @ev filled; 0 for a line to skip (an event coreaudit does
 *         not use, a header such as "cpus=2", a comment, a blank line);
 *         -EINVAL for any other line (malformed, or not report text);
 *         -ERANGE for a CPU at or over CA_CPU_LIMIT; an ipi_send_cpumask line
 *         names the first CPU of its mask and their count (the text source
 *         emits one event per CPU).
 */
int ca_text_parse_line(const char *line, struct ca_event *ev);

#endif
