/*
 * tracedat.c - trace-cmd trace.dat files: libtracecmd parses the headers and
 * event formats; the CPU data are read by coreaudit (zchunks.c: pages in
 * place, or zstd chunks) or, for the reference (--reader records) and for
 * files whose timestamps libtracecmd converts, one libtracecmd record per
 * event, merged here.  decode.c turns each into coreaudit events.
 *
 * Damaged input is never read as if clean.  Both ways skip a page or chunk
 * that fails its checks (pages.c) and emit, on its CPU, a lost-events event
 * that says where (struct ca_lost, is_damage); data the file declares but
 * does not hold end the CPU's stream the same way.  libtracecmd is kept off
 * damaged pages: its kbuffer walks them without bounds (a fault, or the
 * same record forever), and a handle whose tracecmd_init_data() failed can
 * be neither used nor closed; so it loads only pages checked first, and
 * tracecmd_init_data() runs only on files whose CPU data are all there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "sources/readers.h"
#include "sources/decode.h"
#include "sources/probe.h"
#include "sources/pages.h"
#include "sources/zchunks.h"
#include "util/tourney.h"

/* Exported by libtracecmd 1.3 but not declared in its public header. */
int tracecmd_cpus(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
off_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
int tracecmd_page_size(struct tracecmd_input *handle);
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
int tracecmd_set_cursor(struct tracecmd_input *handle, int cpu, unsigned long long offset);

struct tracedat {
	struct tracecmd_input *handle;
	struct ca_decoders decoders;
	struct ca_layout layout;
	int layout_ret;		/* 0, or -ENOTSUP: libtracecmd alone knows the layout */
	struct ca_page_rules rules;
};

/* One CPU as the record reader follows libtracecmd through it. */
struct rcpu {
	int cpu;
	int32_t *table;		/* per page: last event, CA_PAGE_EMPTY, CA_PAGE_BAD; or NULL */
	size_t pages;
	uint64_t offset;	/* of its first page */
	uint64_t max_records;	/* more than its data can hold is damage */
	uint64_t records;
	uint64_t last_offset;
	unsigned long long last_ts;
	bool has_read;
	bool is_done;
	bool has_damage;
	struct ca_lost damage;
};

struct emit_ctx {
	struct ca_source *source;
	struct tracedat *td;
	ca_event_fn fn;
	ca_record_fn record_fn;	/* the own reader's records, undecoded; NULL: decode them */
	void *ctx;
	struct rcpu *rcpus;
	int page_size;
	unsigned long long last_ts;
	bool has_read;
};

static int emit_record(void *data, struct tep_record *rec)
{
	struct emit_ctx *emit = data;

	if (rec->cpu >= emit->source->info.cpu_count) {
		snprintf(emit->source->error, sizeof(emit->source->error),
			 "%s: record on CPU %d: the trace has CPUs 0-%d", emit->source->path,
			 rec->cpu, emit->source->info.cpu_count - 1);
		return -ERANGE;
	}
	if (emit->record_fn)
		return emit->record_fn(emit->ctx, rec);
	return ca_decoders_emit(&emit->td->decoders, rec, emit->fn, emit->ctx);
}

static bool emit_pairs(void *data, const struct tep_record *rec, const struct tep_record *next)
{
	const struct emit_ctx *emit = data;

	return ca_decoders_pairs(&emit->td->decoders, rec, next);
}

/* A switch and its probe, as one event (decoded here: a switch has no tick memo to keep). */
static int emit_paired(void *data, struct tep_record *rec, struct tep_record *next)
{
	struct emit_ctx *emit = data;

	if (rec->cpu >= emit->source->info.cpu_count)
		return emit_record(data, rec);	/* (says what is wrong) */
	return ca_decoders_emit_paired(&emit->td->decoders, rec, next, emit->fn, emit->ctx);
}

static int emit_damage(void *data, const struct ca_damage *damage)
{
	struct emit_ctx *emit = data;
	struct ca_event ev = { .ts = damage->ts, .cpu = damage->cpu, .pid = -1,
			       .kind = CA_EV_LOST };

	ev.lost = damage->lost;
	return emit->fn(emit->ctx, &ev);
}

static int fail_with(struct ca_source *source, const char *why)
{
	snprintf(source->error, sizeof(source->error), "%s: %s", source->path, why);
	return -EINVAL;
}

/* No event could be read although CPU data were declared: say where it went wrong. */
static int no_events(struct ca_source *source, const struct ca_damage *first, bool has_damage)
{
	if (!has_damage)
		return fail_with(source, "no event can be read from its CPU data");
	snprintf(source->error, sizeof(source->error),
		 "%s: no event can be read: the CPU data are damaged (first on CPU %d at file "
		 "offset %llu)", source->path, first->cpu, (unsigned long long)first->lost.offset);
	return -EINVAL;
}

/* @ret of reading @z: -ENODATA (nothing readable) said with where it went wrong. */
static int explain_no_events(struct ca_source *source, const struct ca_zchunks *z, int ret)
{
	struct ca_damage first;

	if (ret != -ENODATA)
		return ret;
	return no_events(source, &first, ca_zchunks_damage(z, &first));
}

/* The own reader on @source's CPU data, named in its info. */
static int open_own(struct ca_source *source, const struct tracedat *td, struct ca_zchunks **z)
{
	int ret = ca_zchunks_open(z, source->path, &td->layout, &td->rules);

	if (!ret)
		source->info.reader = td->layout.is_compressed ? "chunks" : "pages";
	return ret;
}

/*
 * What the own reader hands out, to @emit: with a cookie probe in the trace,
 * a switch and the probe right after it in its page as one (decode.c).
 */
static struct ca_read_fns own_fns(struct emit_ctx *emit)
{
	bool has_probe = emit->source->info.has_cookie_probe;

	return (struct ca_read_fns){ .record = emit_record, .damage = emit_damage, .ctx = emit,
				     .pairs = has_probe ? emit_pairs : NULL,
				     .record_paired = emit_paired };
}

/* Pages in place or zstd chunks, read by coreaudit itself. */
static int read_own(struct emit_ctx *emit)
{
	struct ca_source *source = emit->source;
	struct ca_read_fns fns = own_fns(emit);
	struct ca_zchunks *z;
	int ret = open_own(source, emit->td, &z);

	if (ret)
		return ret;
	ret = explain_no_events(source, z, ca_zchunks_read(z, &fns));
	ca_zchunks_close(z);
	return ret;
}

static void note_damage(struct rcpu *rc, uint64_t offset, uint64_t bytes)
{
	if (!rc->has_damage)
		rc->damage = (struct ca_lost){ .count = -1, .is_damage = true, .offset = offset };
	rc->has_damage = true;
	rc->damage.bytes += bytes;
}

static int report_damage(struct emit_ctx *emit, struct rcpu *rc, unsigned long long ts,
			 bool is_stream_end)
{
	struct ca_damage damage = { rc->cpu, ts, rc->damage };

	damage.lost.is_stream_end = is_stream_end;
	rc->has_damage = false;
	return emit_damage(emit, &damage);
}

/*
 * libtracecmd is done with page @from of @rc: before it loads the next one,
 * move it past the damaged pages ahead (it would walk them unchecked) to
 * the next page with events; with @is_forced, move on even when none is.
 */
static void hop(struct emit_ctx *emit, struct rcpu *rc, size_t from, bool is_forced)
{
	uint64_t ps = (uint64_t)emit->page_size;
	bool has_crossed = false;
	size_t k;

	if (!rc->table) {
		rc->is_done |= is_forced;	/* no page table: stop this CPU here */
		return;
	}
	for (k = from + 1; k < rc->pages && rc->table[k] < 0; k++) {
		if (rc->table[k] == CA_PAGE_BAD) {
			note_damage(rc, rc->offset + k * ps, ps);
			has_crossed = true;
		}
	}
	if (!has_crossed && !is_forced)
		return;
	if (k == rc->pages) {
		rc->is_done = true;
		return;
	}
	if (tracecmd_set_cursor(emit->td->handle, rc->cpu, rc->offset + k * ps)) {
		note_damage(rc, rc->offset + k * ps, 0);
		rc->is_done = true;
	}
}

/* @rec lies in its page, after the CPU's last record, on a page that passed the checks. */
static bool is_sound(struct emit_ctx *emit, struct rcpu *rc, struct tep_record *rec, size_t *page)
{
	const char *start = tracecmd_record_page(emit->td->handle, rec);
	const char *data = rec->data;
	uint64_t ps = (uint64_t)emit->page_size, at = rec->offset - rc->offset;

	*page = (size_t)(at / ps);
	if (!start || data < start + 8 || rec->size <= 0 || data + rec->size > start + ps)
		return false;
	if ((rc->has_read && rec->offset <= rc->last_offset) || ++rc->records > rc->max_records)
		return false;
	return !rc->table || (rec->offset >= rc->offset && *page < rc->pages &&
			      rc->table[*page] >= 0 && at % ps <= (uint64_t)rc->table[*page]);
}

static int take_record(struct emit_ctx *emit, struct rcpu *rc, struct tep_record *rec)
{
	uint64_t ps = (uint64_t)emit->page_size;
	size_t page;
	int ret = 0;

	if (!is_sound(emit, rc, rec, &page)) {
		note_damage(rc, rec->offset, 0);
		hop(emit, rc, page, true);
	} else {
		if (rc->has_damage)
			ret = report_damage(emit, rc, rec->ts, false);
		if (!ret)
			ret = emit_record(emit, rec);
		rc->has_read = emit->has_read = true;
		rc->last_ts = emit->last_ts = rec->ts;
		rc->last_offset = rec->offset;
		if (!ret && rc->table &&
		    rec->offset - rc->offset - page * ps == (uint64_t)rc->table[page])
			hop(emit, rc, page, false);	/* the page's last event */
	}
	if (!ret && rc->is_done && rc->has_damage && emit->has_read)
		ret = report_damage(emit, rc, emit->last_ts, true);
	return ret;
}

/* libtracecmd has no more records of @rc: had the pages ahead any events? */
static int end_cpu(struct emit_ctx *emit, struct rcpu *rc)
{
	uint64_t ps = (uint64_t)emit->page_size;
	size_t k = rc->has_read ? (size_t)((rc->last_offset - rc->offset) / ps) + 1 : 0;

	rc->is_done = true;
	for (; rc->table && k < rc->pages; k++) {
		if (rc->table[k] >= 0) {
			/* libtracecmd stopped early */
			note_damage(rc, rc->offset + k * ps, 0);
			break;
		}
	}
	return rc->has_damage && emit->has_read ? report_damage(emit, rc, emit->last_ts, true) : 0;
}

/* CPUs that ended before any record was read: unobserved from the first one on. */
static int report_early_ends(struct emit_ctx *emit, int cpus, unsigned long long ts)
{
	int ret = 0;

	for (int cpu = 0; !ret && !emit->has_read && cpu < cpus; cpu++)
		if (emit->rcpus[cpu].is_done && emit->rcpus[cpu].has_damage)
			ret = report_damage(emit, &emit->rcpus[cpu], ts, true);
	return ret;
}

/*
 * @cpu's next record into @queue (by its time; the lowest CPU on a tie), or
 * its end noted.  @is_top: @cpu is the queue's top, to be replaced or removed.
 */
static int queue_cpu(struct emit_ctx *emit, struct ca_tourney *queue, int cpu, bool is_top)
{
	struct tep_record *rec;

	if (emit->rcpus[cpu].is_done) {	/* damage ended it (hop): libtracecmd reads no further */
		if (is_top)
			ca_tourney_pop(queue);
		return 0;
	}
	rec = tracecmd_peek_data(emit->td->handle, cpu);
	if (rec && is_top) {
		ca_tourney_replace_top(queue, rec->ts);
		return 0;
	}
	if (is_top)
		ca_tourney_pop(queue);
	return rec ? ca_tourney_push(queue, rec->ts, cpu) : end_cpu(emit, &emit->rcpus[cpu]);
}

/* One libtracecmd record per event, merged by a tournament tree: O(log CPUs) an event. */
static int read_merged(struct emit_ctx *emit, int cpus)
{
	struct tracecmd_input *handle = emit->td->handle;
	struct ca_tourney queue;
	struct ca_tourney_item top;
	int ret = 0;

	ca_tourney_init(&queue);
	for (int cpu = 0; !ret && cpu < cpus; cpu++)
		if (!emit->rcpus[cpu].is_done)
			ret = queue_cpu(emit, &queue, cpu, false);
	while (!ret && ca_tourney_top(&queue, &top)) {
		struct tep_record *rec;

		ret = report_early_ends(emit, cpus, top.key);
		rec = ret ? NULL : tracecmd_read_data(handle, (int)top.id);
		ret = rec ? take_record(emit, &emit->rcpus[top.id], rec) : ret;
		tracecmd_free_record(rec);
		if (!ret)
			ret = queue_cpu(emit, &queue, (int)top.id, true);
	}
	ca_tourney_free(&queue);
	for (int cpu = 0; !ret && cpu < cpus; cpu++)
		if (emit->rcpus[cpu].has_damage)
			ret = report_damage(emit, &emit->rcpus[cpu], emit->last_ts, true);
	return ret;
}

/* Every CPU's declared data in the file: tracecmd_init_data() fails otherwise. */
static int check_extents(struct ca_source *source, const struct ca_layout *layout)
{
	for (int i = 0; i < layout->cpu_count; i++) {
		const struct ca_layout_cpu *c = &layout->cpus[i];
		uint64_t end = c->offset + c->size + (layout->is_compressed ? 4 : 0);

		if (end <= layout->file_size)
			continue;
		snprintf(source->error, sizeof(source->error),
			 "%s: cut short: CPU %d's data end at byte %llu, the file at %llu; "
			 "--reader records needs the whole file (the default reader reads what is "
			 "there)", source->path, c->cpu, (unsigned long long)end,
			 (unsigned long long)layout->file_size);
		return -EINVAL;
	}
	return 0;
}

static int refuse(struct ca_source *source, int cpu, uint64_t offset, const char *what)
{
	snprintf(source->error, sizeof(source->error),
		 "%s: %s (CPU %d, file offset %llu): --reader records cannot read it; the default "
		 "reader skips it", source->path, what, cpu, (unsigned long long)offset);
	return -EINVAL;
}

/*
 * The page table of each CPU, at the offsets libtracecmd gives its records:
 * file offsets in place; for zstd chunks, positions in the uncompressed data
 * of all CPUs, one after the other from one page in, each CPU's rounded up
 * to a page.  Its first page must be sound: tracecmd_init_data() loads it.
 */
static int check_pages(struct emit_ctx *emit)
{
	const struct ca_layout *layout = &emit->td->layout;
	uint64_t ps = (uint64_t)layout->page_size, next = ps;

	for (int i = 0; i < layout->cpu_count; i++) {
		const struct ca_layout_cpu *lc = &layout->cpus[i];
		struct rcpu *rc = &emit->rcpus[lc->cpu];
		int ret = ca_layout_page_table(layout, i, emit->source->path, &emit->td->rules,
					       &rc->table, &rc->pages);

		if (ret == -EPROTO)
			return refuse(emit->source, lc->cpu, lc->offset, "damaged chunk headers");
		if (ret)
			return ret;
		rc->offset = layout->is_compressed ? next : lc->offset;
		next += (rc->pages * ps + ps - 1) / ps * ps;
		if (!rc->pages || rc->table[0] == CA_PAGE_BAD)
			return refuse(emit->source, lc->cpu, lc->offset,
				      "its first page is damaged");
	}
	return 0;
}

/* Load the CPU data into libtracecmd, only when it can neither fail nor hang on them. */
static int load_data(struct emit_ctx *emit)
{
	struct tracedat *td = emit->td;
	char why[200];
	int ret = 0;

	if (!td->layout_ret)
		ret = check_extents(emit->source, &td->layout);
	if (!ret && !td->layout_ret)
		ret = check_pages(emit);
	/* A layout coreaudit does not read: no page was checked, libtracecmd reads them. */
	if (!ret && td->layout_ret && ca_probe_records(emit->source->path, why, sizeof(why)))
		ret = fail_with(emit->source, why);
	if (ret)
		return ret;
	if (tracecmd_init_data(td->handle) < 0) {
		/*
		 * Not expected after the checks above (only on files whose layout
		 * coreaudit does not read).  libtracecmd 1.3.1 faults in
		 * tracecmd_close() on a handle whose tracecmd_init_data() failed:
		 * leave it unclosed, the one leak left.
		 */
		td->handle = NULL;
		return fail_with(emit->source, "truncated or corrupt: the CPU data the header "
				 "announces are not in the file");
	}
	return 0;
}

static int read_records(struct emit_ctx *emit)
{
	struct tracedat *td = emit->td;
	bool is_packed = td->layout_ret || td->layout.is_compressed;
	int cpus, ret, room = emit->source->info.cpu_count;

	emit->record_fn = NULL;	/* libtracecmd's records: decoded here */
	emit->rcpus = calloc(room, sizeof(*emit->rcpus));
	if (!emit->rcpus)
		return -ENOMEM;
	for (int cpu = 0; cpu < room; cpu++)
		emit->rcpus[cpu].cpu = cpu;
	emit->page_size = tracecmd_page_size(td->handle);
	emit->source->info.reader = "records";
	ret = load_data(emit);
	cpus = ret ? 0 : tracecmd_cpus(td->handle);
	if (cpus > room)
		cpus = room;
	for (int cpu = 0; cpu < cpus; cpu++) {
		struct rcpu *rc = &emit->rcpus[cpu];
		uint64_t size = (uint64_t)tracecmd_get_cpu_file_size(td->handle, cpu);

		rc->max_records = size / 8 * (is_packed ? 1024 : 1) + 1;
		if (rc->table && rc->pages && rc->table[0] == CA_PAGE_EMPTY)
			hop(emit, rc, 0, false);
	}
	if (!ret)
		ret = read_merged(emit, cpus);
	if (!ret && !emit->has_read && (td->layout_ret || td->layout.cpu_count))
		ret = fail_with(emit->source, "no event can be read from its CPU data");
	for (int cpu = 0; cpu < room; cpu++)
		free(emit->rcpus[cpu].table);
	free(emit->rcpus);
	return ret;
}

/* The own reader reads the file as libtracecmd would. */
static bool is_own_read(const struct ca_source *source, const struct tracedat *td)
{
	return !source->use_records && !td->layout_ret && !td->layout.has_converted_ts;
}

/* The own reader when it reads the file as libtracecmd would, else libtracecmd's records. */
static int read_either(struct emit_ctx *emit)
{
	const struct tracedat *td = emit->td;

	if (is_own_read(emit->source, td))
		return read_own(emit);
	return read_records(emit);
}

static int tracedat_read(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	struct emit_ctx emit = { .source = source, .td = source->priv, .fn = fn, .ctx = ctx };

	return read_either(&emit);
}

/* The own reader's CPUs, started whole, cut in parts that merge on threads of their own. */
struct ca_source_parts {
	struct ca_source *source;
	struct ca_zchunks *whole;
	int count;			/* parts cut; 0: the whole is the one part */
	struct ca_zchunks **parts;	/* [count] */
	struct emit_ctx *emits;		/* [count], or [1] for the whole */
};

void ca_source_parts_close(struct ca_source_parts *parts)
{
	if (!parts)
		return;
	for (int i = 0; i < parts->count; i++)
		ca_zchunks_close(parts->parts[i]);
	ca_zchunks_close(parts->whole);
	free(parts->parts);
	free(parts->emits);
	free(parts);
}

int ca_source_parts_open(struct ca_source *source, struct ca_source_parts **out)
{
	struct tracedat *td = source->priv;
	struct ca_source_parts *parts;
	int ret;

	*out = NULL;
	if (source->read != tracedat_read || !is_own_read(source, td) || td->layout.cpu_count < 2)
		return 0;
	parts = calloc(1, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	parts->source = source;
	ret = open_own(source, td, &parts->whole);
	if (ret) {
		ca_source_parts_close(parts);
		return ret;
	}
	*out = parts;
	return 0;
}

int ca_source_parts_start(struct ca_source_parts *parts, ca_event_fn fn, void *ctx)
{
	struct emit_ctx emit = { .source = parts->source, .td = parts->source->priv, .fn = fn,
				 .ctx = ctx };
	struct ca_read_fns fns = own_fns(&emit);

	return explain_no_events(parts->source, parts->whole, ca_zchunks_start(parts->whole, &fns));
}

int ca_source_parts_most(const struct ca_source_parts *parts)
{
	return ((const struct tracedat *)parts->source->priv)->layout.cpu_count;
}

int ca_source_parts_cut(struct ca_source_parts *parts, int count)
{
	int ret = 0;

	parts->emits = calloc(count, sizeof(*parts->emits));
	if (!parts->emits)
		return -ENOMEM;
	if (count < 2)
		return 0;
	parts->parts = calloc(count, sizeof(*parts->parts));
	if (!parts->parts)
		return -ENOMEM;
	for (; !ret && parts->count < count; parts->count++)
		ret = ca_zchunks_part(parts->whole, parts->count, count,
				      &parts->parts[parts->count]);
	return ret;
}

int ca_source_parts_read(struct ca_source_parts *parts, int index, ca_record_fn record,
			 ca_event_fn fn, void *ctx)
{
	struct emit_ctx *emit = &parts->emits[index];
	struct ca_read_fns fns;

	*emit = (struct emit_ctx){ .source = parts->source, .td = parts->source->priv, .fn = fn,
				   .record_fn = record, .ctx = ctx };
	fns = own_fns(emit);
	return ca_zchunks_merge(parts->count ? parts->parts[index] : parts->whole, &fns);
}

const struct ca_decoders *ca_source_decoders(const struct ca_source *source)
{
	return source->read == tracedat_read ? &((const struct tracedat *)source->priv)->decoders :
	       NULL;
}

static void tracedat_close(struct ca_source *source)
{
	struct tracedat *td = source->priv;

	if (!td)
		return;
	if (td->handle)
		tracecmd_close(td->handle);
	ca_decoders_free(&td->decoders);
	ca_layout_free(&td->layout);
	free(td);
	source->priv = NULL;
}

int ca_tracedat_open(struct ca_source *source, const char *path)
{
	struct tracedat *td = calloc(1, sizeof(*td));
	const char *clock;
	char why[200] = "";
	int probe;

	source->path = path;
	source->read = tracedat_read;
	source->close = tracedat_close;
	source->priv = td;
	source->info.format = "trace.dat";
	source->info.reader = "records";
	if (!td)
		return -ENOMEM;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	/*
	 * Headers parsed in a child (libtracecmd may fault on them) while they are
	 * checked here; damage found here is the answer, and the child is not waited for.
	 */
	probe = ca_probe_headers_start(path);
	td->layout_ret = ca_layout_read(&td->layout, path, why, sizeof(why));
	if (td->layout_ret == -EINVAL)
		ca_probe_cancel(probe);
	if (td->layout_ret == -EINVAL || ca_probe_headers_end(probe, why, sizeof(why))) {
		snprintf(source->error, sizeof(source->error), "%s: damaged headers: %s", path,
			 why);
		return -EINVAL;
	}
	if (td->layout_ret && td->layout_ret != -ENOTSUP)
		return td->layout_ret;
	td->handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!td->handle)
		return fail_with(source, "cannot read as a trace-cmd trace.dat file (truncated or "
				 "corrupt headers)");
	clock = tracecmd_get_trace_clock(td->handle);
	snprintf(source->info.clock, sizeof(source->info.clock), "%s", clock ? clock : "local");
	source->info.is_tsc_in_ns = td->layout.has_tsc2nsec;
	source->info.instance_count = td->layout.instance_count;
	snprintf(source->info.instance, sizeof(source->info.instance), "%s", td->layout.instance);
	source->info.cpu_count = tracecmd_cpus(td->handle);
	for (int i = 0; i < td->layout.cpu_count; i++)
		if (td->layout.cpus[i].cpu >= source->info.cpu_count)
			source->info.cpu_count = td->layout.cpus[i].cpu + 1;
	if (source->info.cpu_count > CA_CPU_LIMIT || source->info.cpu_count < 1) {
		snprintf(source->error, sizeof(source->error),
			 "%s: the trace has %d CPUs: damaged headers (a kernel has 1 to %d)", path,
			 source->info.cpu_count, CA_CPU_LIMIT);
		return -ERANGE;
	}
	ca_page_rules_for(&td->rules, tracecmd_get_tep(td->handle), td->layout.page_size);
	td->rules.is_plausible = ca_decoders_plausible;
	td->rules.plausible_ctx = &td->decoders;
	if (ca_decoders_build(&td->decoders, tracecmd_get_tep(td->handle), &source->info))
		return -ENOMEM;
	td->rules.is_defined = td->decoders.is_defined;
	td->rules.id_count = td->decoders.id_count;
	return 0;
}
