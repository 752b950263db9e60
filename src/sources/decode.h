/*
 * decode.h - private to sources/: records to events (decode.c).
 */
#ifndef CA_SOURCES_DECODE_H
#define CA_SOURCES_DECODE_H

#include <event-parse.h>

#include "sources/readers.h"

struct decoder;
struct ca_tick_memo;

struct ca_decoders {
	struct tep_handle *tep;
	bool is_native;		/* read numbers in place, not through libtraceevent */
	int type_offset;	/* common_type: u16 */
	int pid_offset;		/* common_pid: s32 */
	struct decoder **by_id;	/* indexed by event id */
	unsigned char *is_defined;	/* indexed by event id: 1 for an event the file defines */
	int id_count;
	struct decoder *decoders;
	int decoder_count;
	struct ca_tick_memo *tick_memo;	/* hrtimer functions looked up: written while decoding */
};

/**
 * ca_decoders_build() - look up the events coreaudit uses in @tep, and note in
 *                       @info which kinds the trace can hold
 * Return: 0, or -ENOMEM.
 */
int ca_decoders_build(struct ca_decoders *td, struct tep_handle *tep,
		      struct ca_source_info *info);

/**
 * ca_decoders_emit() - decode @rec and pass it to @fn (a lost-events event
 *                      first when the record says events were dropped before it)
 * Return: what @fn returned, or 0 for a record coreaudit does not use.
 */
int ca_decoders_emit(const struct ca_decoders *td, struct tep_record *rec, ca_event_fn fn,
		     void *ctx);

/**
 * ca_decoders_emit_with() - ca_decoders_emit() with @memo for the hrtimer
 *                           functions looked up: one memo a thread, so that
 *                           several threads decode with the same @td (after
 *                           ca_decoders_share())
 * Return: as ca_decoders_emit().
 */
int ca_decoders_emit_with(const struct ca_decoders *td, struct ca_tick_memo *memo,
			  struct tep_record *rec, ca_event_fn fn, void *ctx);

/**
 * ca_decoders_pairs() - whether @rec is a sched_switch and @next, the record
 *                       after it on its CPU, the cs_switch probe of the same
 *                       pids, both whole and nothing lost between them: the
 *                       pair the stream (stream.c) would make of their events
 */
bool ca_decoders_pairs(const struct ca_decoders *td, const struct tep_record *rec,
		       const struct tep_record *next);

/**
 * ca_decoders_emit_paired() - the switch of such a pair to @fn, with the
 *                             probe's cookies (@next itself goes nowhere)
 * Return: what @fn returned; -EINVAL when the records do not pair.
 */
int ca_decoders_emit_paired(const struct ca_decoders *td, struct tep_record *rec,
			    struct tep_record *next, ca_event_fn fn, void *ctx);

/* A memo for ca_decoders_emit_with() (NULL: out of memory), and its end. */
struct ca_tick_memo *ca_tick_memo_new(void);
void ca_tick_memo_free(struct ca_tick_memo *memo);

/**
 * ca_decoders_share() - what libtraceevent builds at its first function
 *                       lookup or common-field read, built now: then @td is
 *                       only read while decoding or checking plausibility,
 *                       on any number of threads
 */
void ca_decoders_share(const struct ca_decoders *td);

/**
 * ca_decoders_plausible() - false when the record at @data of @size bytes
 *                           holds what no kernel writes: a pid, priority,
 *                           task state, CPU or cookie out of any range, a comm
 *                           with control characters, fewer bytes than its
 *                           format (damaged data that kept its headers);
 *                           @td is the struct ca_decoders
 */
bool ca_decoders_plausible(const void *td, const void *data, int size);

void ca_decoders_free(struct ca_decoders *td);

#endif
