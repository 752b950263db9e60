/*
 * live.c - the running kernel as a source: a tracefs instance named
 * coreaudit-PID, per-CPU trace_pipe_raw pages parsed with kbuffer, merged in
 * timestamp order.  Events are emitted only up to a CLOCK_MONOTONIC reading
 * taken before each drain (the instance clock is mono), so a CPU read later
 * cannot hold an older event.  The instance is destroyed on every exit path;
 * one left by a killed monitor (its PID gone) is removed at the next start.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kbuffer.h>
#include <tracefs.h>

#include "coreaudit/live.h"
#include "coreaudit/number.h"
#include "sources/census.h"
#include "sources/decode.h"
#include "sources/livefit.h"
#include "sources/readers.h"
#include "util/tourney.h"

#define INSTANCE_PREFIX "coreaudit-"
/* The kernel's own cookie at every switch (6.10+ with BTF; coreaudit-record(1)). */
#define WITHOUT_PROBE "cookies come from prctl events and coreaudit-cookie markers"
#define PROBE_DEFINITION "t:coreaudit/cs_switch sched_switch prev_pid=prev->pid " \
	"prev_cookie=prev->core_cookie next_pid=next->pid next_cookie=next->core_cookie"
#define PROBE_REMOVAL "-:coreaudit/cs_switch"
#define PROBE_FORMAT "events/coreaudit/cs_switch/format"

struct page {
	struct page *next;
	char data[];
};

struct live_cpu {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	struct page *head, *tail;	/* pages read, not yet consumed */
	bool is_loaded;			/* kbuf holds head */
	void *event;			/* the next event, or NULL */
	unsigned long long ts;
	long long missed;
};

struct live {
	struct tracefs_instance *instance;
	char name[64];
	struct tep_handle *tep;
	struct ca_decoders decoders;
	int cpu_count;
	int page_size;
	bool has_probe;		/* we created the cs_switch probe: remove it */
	struct live_cpu *cpus;	/* [cpu_count] */
	struct ca_live_options opts;
};

static uint64_t mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* "coreaudit-PID": Return: the PID, or 0 for any other name. */
static int instance_pid(const char *name)
{
	const char *digits = name + strlen(INSTANCE_PREFIX);

	uint64_t pid;

	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) ||
	    ca_parse_count(digits, INT_MAX, &pid))
		return 0;
	return (int)pid;
}

/*
 * Instances named coreaudit-PID whose PID is gone: a killed monitor's.
 * (Listed unfiltered: libtracefs 1.6.4 leaks the regex tracefs_instances()
 * compiles.)
 */
static void remove_stale_instances(void)
{
	char **names = tracefs_instances(NULL);

	for (int i = 0; names && names[i]; i++) {
		int pid = instance_pid(names[i]);
		struct tracefs_instance *stale;

		if (pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		stale = tracefs_instance_alloc(NULL, names[i]);
		if (stale) {
			tracefs_instance_file_write(stale, "options/copy_trace_marker", "0");
			tracefs_event_disable(stale, NULL, NULL);
			tracefs_instance_destroy(stale);
			tracefs_instance_free(stale);
		}
	}
	tracefs_list_free(names);
}

/*
 * The cs_switch probe is global (dynamic_events): one left by a killed
 * coreaudit, with no coreaudit instance alive, is removed; then ours is
 * created when the kernel can (a core_cookie field and BTF arguments).
 */
static void create_probe(struct live *live, struct ca_source *source)
{
	char *format = tracefs_instance_file_read(NULL, PROBE_FORMAT, NULL);
	char **names = tracefs_instances(NULL);
	bool is_other_alive = false;

	for (int i = 0; names && names[i]; i++)
		is_other_alive |= instance_pid(names[i]) > 0 && strcmp(names[i], live->name);
	tracefs_list_free(names);
	if (format && !is_other_alive)
		tracefs_instance_file_append(NULL, "dynamic_events", PROBE_REMOVAL "\n");
	free(format);
	format = tracefs_instance_file_read(NULL, PROBE_FORMAT, NULL);
	if (!format && tracefs_instance_file_append(NULL, "dynamic_events",
						    PROBE_DEFINITION "\n") >= 0)
		live->has_probe = true;
	else if (!format)
		snprintf(source->warning, sizeof(source->warning),
			 "no cookie probe (%s): " WITHOUT_PROBE, strerror(errno));
	free(format);
}

/*
 * A system call event of this process's own would feed itself: every page it
 * reads and writes is system calls, which fill more pages.  Its source
 * reads on the process's main thread.
 */
static void filter_own_syscalls(struct live *live, const struct ca_event_name *e)
{
	char filter[32];

	if (strcmp(e->system, "raw_syscalls"))
		return;
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	if (tracefs_event_file_write(live->instance, e->system, e->event, "filter", filter) < 0)
		fprintf(stderr, "coreaudit: cannot filter this process out of %s:%s (%s): its own "
			"system calls are recorded too\n", e->system, e->event, strerror(errno));
}

static int enable_events(struct live *live, struct ca_source *source)
{
	bool has_switch = false;

	/* The probe when it exists, else the prctl events rebuild the cookies. */
	bool has_probe_event = !tracefs_event_enable(live->instance, "coreaudit", "cs_switch");

	if (!has_probe_event && live->has_probe)
		snprintf(source->warning, sizeof(source->warning),
			 "cannot enable the cookie probe in %s: " WITHOUT_PROBE, live->name);
	for (int i = 0; i < ca_event_desc_count; i++) {
		const struct ca_event_name *e = &ca_event_descs[i].id;
		int ret;

		if (!(ca_event_descs[i].is_traced ||
		      (ca_event_descs[i].is_kernel_entry && live->opts.with_kernel_entry)) ||
		    (has_probe_event && !strcmp(e->system, "syscalls")))
			continue;
		if (ca_event_descs[i].is_kernel_entry)
			filter_own_syscalls(live, e);
		ret = tracefs_event_enable(live->instance, e->system, e->event);
		has_switch |= !ret && !strcmp(e->event, "sched_switch");
	}
	if (!has_switch) {
		snprintf(source->error, sizeof(source->error),
			 "tracefs: cannot enable sched:sched_switch in instance %s", live->name);
		return -ENOENT;
	}
	return 0;
}

/* Whether the instance has a buffer for @cpu (per_cpu/cpuN: every possible CPU). */
static bool is_cpu_buffer(const struct live *live, int cpu)
{
	char name[32];

	snprintf(name, sizeof(name), "per_cpu/cpu%d", cpu);
	return tracefs_dir_exists(live->instance, name);
}

static int open_cpus(struct live *live, struct ca_source *source)
{
	live->cpus = calloc(live->cpu_count, sizeof(*live->cpus));
	if (!live->cpus) {
		live->cpu_count = 0;
		snprintf(source->error, sizeof(source->error), "out of memory");
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < live->cpu_count; cpu++) {
		struct live_cpu *c = &live->cpus[cpu];

		if (!is_cpu_buffer(live, cpu))
			continue;	/* a gap in sparse numbering: no such CPU */
		c->tcpu = tracefs_cpu_open(live->instance, cpu, true);
		c->kbuf = tep_kbuffer(live->tep);
		if (!c->tcpu || !c->kbuf) {
			snprintf(source->error, sizeof(source->error),
				 "tracefs: cannot open the buffer of CPU %d in instance %s", cpu,
				 live->name);
			return -EIO;
		}
		live->page_size = tracefs_cpu_read_size(c->tcpu);
	}
	source->info.cpu_count = live->cpu_count;
	return live->page_size > 0 ? 0 : -EIO;
}

/* Read every page the CPU has now (non-blocking), keeping copies in order. */
static int read_pages(struct live *live, struct live_cpu *c)
{
	while (c->tcpu) {
		struct page *page = malloc(sizeof(*page) + live->page_size);
		int ret;

		if (!page)
			return -ENOMEM;
		ret = tracefs_cpu_read(c->tcpu, page->data, true);
		if (ret <= 0) {
			free(page);
			return 0;
		}
		if (live->opts.on_page) {
			int err = live->opts.on_page(live->opts.user, (int)(c - live->cpus), page->data,
						     live->page_size);

			if (err) {
				free(page);
				return err;
			}
		}
		page->next = NULL;
		if (c->tail)
			c->tail->next = page;
		else
			c->head = page;
		c->tail = page;
	}
	return 0;
}

/* The next event of a CPU, loading its next page when the current one ends. */
static void peek(struct live_cpu *c)
{
	while (!c->event && c->head) {
		if (!c->is_loaded) {
			if (kbuffer_load_subbuffer(c->kbuf, c->head->data) < 0) {
				struct page *done = c->head;

				c->head = done->next;
				c->tail = c->head ? c->tail : NULL;
				free(done);
				continue;
			}
			c->is_loaded = true;
			c->missed = kbuffer_missed_events(c->kbuf);
			c->event = kbuffer_read_event(c->kbuf, &c->ts);
		}
		if (c->event)
			return;
		struct page *done = c->head;

		c->head = done->next;
		if (!c->head)
			c->tail = NULL;
		free(done);
		c->is_loaded = false;
	}
}

static int emit_next(struct live *live, int cpu, ca_event_fn fn, void *ctx)
{
	struct live_cpu *c = &live->cpus[cpu];
	struct tep_record rec = {
		.ts = c->ts, .cpu = cpu, .data = c->event, .size = kbuffer_event_size(c->kbuf),
		.missed_events = c->missed,
	};
	int ret = ca_decoders_emit(&live->decoders, &rec, fn, ctx);

	c->missed = 0;
	c->event = kbuffer_next_event(c->kbuf, &c->ts);
	return ret;
}

/*
 * Emit, in time order, every event read so far up to @watermark: a merge of
 * the CPUs' next events (the lowest CPU on a tie), O(log CPUs) an event.
 */
static int merge(struct live *live, uint64_t watermark, ca_event_fn fn, void *ctx)
{
	struct ca_tourney queue;
	struct ca_tourney_item top;
	int ret = 0;

	ca_tourney_init(&queue);
	for (int cpu = 0; cpu < live->cpu_count && !ret; cpu++) {
		peek(&live->cpus[cpu]);
		if (live->cpus[cpu].event)
			ret = ca_tourney_push(&queue, live->cpus[cpu].ts, cpu);
	}
	while (!ret && ca_tourney_top(&queue, &top) && top.key <= watermark) {
		struct live_cpu *c = &live->cpus[top.id];

		ret = emit_next(live, top.id, fn, ctx);
		peek(c);
		if (c->event)
			ca_tourney_replace_top(&queue, c->ts);
		else
			ca_tourney_pop(&queue);
	}
	ca_tourney_free(&queue);
	return ret;
}

static int drain(struct live *live, bool is_final, ca_event_fn fn, void *ctx)
{
	uint64_t watermark = is_final ? UINT64_MAX : mono_now();

	for (int cpu = 0; cpu < live->cpu_count; cpu++) {
		int ret = read_pages(live, &live->cpus[cpu]);

		if (ret)
			return ret;
	}
	return merge(live, watermark, fn, ctx);
}

static bool should_stop(const struct live *live, uint64_t start)
{
	if (live->opts.stop && *live->opts.stop)
		return true;
	return live->opts.duration_ns && mono_now() - start >= live->opts.duration_ns;
}

/*
 * Markers written to the top-level trace_marker reach the instance (kernels
 * 6.16+), only while it traces: a marker copied to an instance whose tracing
 * is off fails, for whoever wrote it (EBADF), so copying starts right before
 * tracing does and stops right before it ends.
 */
static int trace_with_markers(struct live *live, bool is_on)
{
	if (!is_on) {
		tracefs_instance_file_write(live->instance, "options/copy_trace_marker", "0");
		return tracefs_trace_off(live->instance);
	}
	tracefs_instance_file_write(live->instance, "options/copy_trace_marker", "1");
	return tracefs_trace_on(live->instance);
}

static int live_read(struct ca_source *source, ca_event_fn fn, void *ctx)
{
	struct live *live = source->priv;
	uint64_t start = mono_now(), next_interval = start + live->opts.interval_ns;
	int ret = 0;

	while (!ret && !should_stop(live, start)) {
		struct timespec nap = { 0, 50 * 1000 * 1000 };

		nanosleep(&nap, NULL);
		ret = drain(live, false, fn, ctx);
		bool is_interval = mono_now() >= next_interval;

		if (is_interval)
			next_interval += live->opts.interval_ns;
		if (!ret && live->opts.on_drain && live->opts.on_drain(live->opts.user, is_interval))
			break;
	}
	if (!ret && live->opts.on_end)
		live->opts.on_end(live->opts.user);
	trace_with_markers(live, false);
	if (!ret)
		ret = drain(live, true, fn, ctx);
	return ret;
}

static void live_close(struct ca_source *source)
{
	struct live *live = source->priv;

	if (!live)
		return;
	for (int cpu = 0; live->cpus && cpu < live->cpu_count; cpu++) {
		struct live_cpu *c = &live->cpus[cpu];

		while (c->head) {
			struct page *done = c->head;

			c->head = done->next;
			free(done);
		}
		if (c->tcpu)
			tracefs_cpu_close(c->tcpu);
		if (c->kbuf)
			kbuffer_free(c->kbuf);
	}
	free(live->cpus);
	live->cpus = NULL;
	if (live->instance) {
		trace_with_markers(live, false);
		tracefs_event_disable(live->instance, NULL, NULL);
		tracefs_instance_destroy(live->instance);
		tracefs_instance_free(live->instance);
	}
	if (live->has_probe)
		tracefs_instance_file_append(NULL, "dynamic_events", PROBE_REMOVAL "\n");
	ca_decoders_free(&live->decoders);
	if (live->tep)
		tep_free(live->tep);
	free(live);
	source->priv = NULL;
}

int ca_live_page_size(const struct ca_source *source)
{
	const struct live *live = source->priv;

	return live ? live->page_size : 0;
}

/*
 * When longer than a marker holds (CA_MARKER_LEN), "coreaudit-topology+ PART"
 * markers split between cores, the last one plain (stream.h).
 */
int ca_live_write_topology(struct ca_source *source, const struct ca_topology *topo)
{
	char *text = ca_topology_text(topo), marker[CA_MARKER_LEN];
	/* Shorter than a full event's marker, which the audit takes as cut. */
	const int room = CA_MARKER_LEN - 2 - (int)strlen("coreaudit-topology+ ");
	const char *part = text;

	if (!text)
		return -ENOMEM;
	while ((int)strlen(part) > room) {
		int len = room;

		while (len > 0 && part[len] != ' ')
			len--;		/* a core's CPUs stay in one marker */
		snprintf(marker, sizeof(marker), "coreaudit-topology+ %.*s", len, part);
		ca_live_write_marker(source, marker);
		part += len + 1;
	}
	snprintf(marker, sizeof(marker), "coreaudit-topology %s", part);
	ca_live_write_marker(source, marker);
	free(text);
	return 0;
}

int ca_live_write_marker(struct ca_source *source, const char *text)
{
	struct live *live = source->priv;

	return tracefs_instance_file_write(live->instance, "trace_marker", text) < 0 ? -EIO : 0;
}

char *ca_live_clock_text(const struct ca_source *source)
{
	const struct live *live = source->priv;

	return tracefs_instance_file_read(live->instance, "trace_clock", NULL);
}

const char *ca_live_instance_name(const struct ca_source *source)
{
	const struct live *live = source->priv;

	return live ? live->name : "";
}

static int create_instance(struct live *live, struct ca_source *source)
{
	/* The systems whose formats it reads; the last two with --kernel-entry only. */
	const char *systems[] = { "sched", "power", "ipi", "irq_vectors", "timer", "syscalls",
				  "ftrace", "coreaudit", "irq", "raw_syscalls", NULL };
	char kb[32];

	if (!live->opts.with_kernel_entry)
		systems[8] = NULL;

	if (geteuid() != 0) {
		snprintf(source->error, sizeof(source->error),
			 "tracefs: permission denied: coreaudit monitor needs root");
		return -EACCES;
	}
	if (!tracefs_tracing_dir()) {
		snprintf(source->error, sizeof(source->error),
			 "tracefs: not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return -ENOENT;
	}
	remove_stale_instances();
	snprintf(live->name, sizeof(live->name), INSTANCE_PREFIX "%d", (int)getpid());
	/* Before the instance: an instance made earlier may not show the new event. */
	create_probe(live, source);
	live->instance = tracefs_instance_create(live->name);
	if (!live->instance) {
		snprintf(source->error, sizeof(source->error),
			 "tracefs: cannot create instance %s: %s", live->name, strerror(errno));
		return -EIO;
	}
	/*
	 * A new instance traces at once: off until every event is enabled, or
	 * the first stretch would have switches without the ipi and timer
	 * events the window causes rest on (ca_live_open turns it on).
	 */
	tracefs_trace_off(live->instance);
	snprintf(kb, sizeof(kb), "%zu", live->opts.buffer_kb);
	tracefs_instance_file_write(live->instance, "buffer_size_kb", kb);
	tracefs_instance_file_write(live->instance, "trace_clock", "mono");
	live->tep = tracefs_local_events_system(NULL, systems);
	if (!live->tep) {
		snprintf(source->error, sizeof(source->error),
			 "tracefs: cannot read the event formats");
		return -EIO;
	}
	return 0;
}

/*
 * Every possible CPU (per-CPU tracefs buffers exist for those that never come
 * online), and what that many need: file descriptors and ring-buffer memory.
 */
static int fit_machine(struct live *live, struct ca_source *source, char *note, size_t len)
{
	live->cpu_count = ca_live_cpu_space();
	live->opts.buffer_kb = ca_live_fit_buffer_kb(live->opts.buffer_kb, live->cpu_count, note,
						     len);
	return ca_live_fit_files(live->cpu_count, note, len, source->error, sizeof(source->error));
}

int ca_live_open(struct ca_source *source, const struct ca_live_options *opts)
{
	struct live *live = calloc(1, sizeof(*live));
	char note[300] = "";
	int ret;

	memset(source, 0, sizeof(*source));
	source->path = "live";
	source->read = live_read;
	source->close = live_close;
	source->priv = live;
	source->info.format = "live";
	source->info.reader = "live";
	snprintf(source->info.clock, sizeof(source->info.clock), "mono");
	if (!live)
		return -ENOMEM;
	live->opts = *opts;
	ret = fit_machine(live, source, note, sizeof(note));
	if (!ret)
		ret = create_instance(live, source);
	if (!ret)
		ret = ca_decoders_build(&live->decoders, live->tep, &source->info);
	if (!ret)
		ret = enable_events(live, source);
	if (!ret)
		ret = open_cpus(live, source);
	if (!ret && trace_with_markers(live, true))
		ret = -EIO;
	if (!ret)	/* an idle CPU shows no event: each shows its state once */
		ca_live_census(live->cpu_count);
	if (note[0])	/* after the probe's warnings, which replace what was there */
		snprintf(source->warning + strlen(source->warning),
			 sizeof(source->warning) - strlen(source->warning), "%s%s",
			 source->warning[0] ? "; " : "", note);
	return ret;
}
