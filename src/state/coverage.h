/*
 * coverage.h - where each CPU was observed, and where it was not.
 *
 * A CPU is observed while its own events account for it.  It is not
 * observed where the trace shows it never (a CPU the topology names but the
 * trace does not hold), where its stream has a gap (events the kernel lost,
 * data the reader could not read, a switch missing), after its stream ends
 * early, and where other CPUs' events prove it was active (reschedule and
 * function-call IPIs, wakeups and migrations aimed at it) while its own
 * stream stayed silent for longer than any CPU takes to answer.  This file
 * keeps the per-CPU figures; state.c feeds it and tells the checks.  It
 * judges nothing.
 */
#ifndef COREAUDIT_COVERAGE_H
#define COREAUDIT_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How long a CPU may stay silent after another CPU's event demanded its
 * attention.  An IPI makes the target enter the kernel within microseconds
 * on hardware; the slowest answer in the real traces under QEMU TCG (vCPU
 * stalls on an overcommitted host) took 12.7 ms.  100 ms is eight times that.
 */
#define CA_RESPONSE_NS 100000000ull

/*
 * How long a CPU that runs a task may show nothing where the trace records
 * ticks.  Its tick comes every period, 10 ms at the kernel's lowest HZ; but
 * a vCPU the host stops can stay silent longer, and it need not resume with
 * its tick: the real SMT4 traces (four vCPUs on two host cores) hold three
 * silences of 15-17 ms in 4 s, one inside __schedule with interrupts off,
 * ended by its sched_switch and only then the overdue tick.  So the bound is
 * CA_RESPONSE_NS's: six times those.  A longer silence that a tick does not
 * end lost that CPU's events.
 */
#define CA_QUIET_NS CA_RESPONSE_NS

/*
 * How long before a co-run window its cause can lie: a reschedule request
 * from a sibling's pick, a wakeup, or a tick (one period at HZ=100).  A window
 * whose core had a CPU unobserved from that long before it until it ended
 * has a cause the trace may have lost: it is not judged.
 */
#define CA_CAUSE_HORIZON_NS 10000000ull

enum ca_unobserved_why {
	CA_UNOBSERVED_NEVER_SEEN,	/* the topology names it; the trace never shows it */
	CA_UNOBSERVED_SILENT,		/* silent while others' events demanded it */
	CA_UNOBSERVED_LOST,		/* events the kernel lost (ring buffer overrun) */
	CA_UNOBSERVED_DAMAGE,		/* data the reader could not read and skipped */
	CA_UNOBSERVED_STREAM_END,	/* its stream ends in unreadable data */
	CA_UNOBSERVED_MISSED_SWITCH,	/* an event contradicted what it ran: a switch is missing */
	CA_UNOBSERVED_QUIET,		/* running a task, no event for CA_QUIET_NS, ticks recorded */
	CA_UNOBSERVED_WHY_COUNT,
};

/* Events of other CPUs aimed at a CPU. */
enum ca_demand {
	CA_DEMAND_IPI,
	CA_DEMAND_WAKEUP,
	CA_DEMAND_MIGRATION,
	CA_DEMAND_COUNT,
};

/* One stretch in which a CPU was not observed. */
struct ca_stretch {
	uint64_t from;
	uint64_t to;
	bool is_to_end;		/* open until the trace ended */
	enum ca_unobserved_why why;
	uint64_t offset;	/* CA_UNOBSERVED_DAMAGE, _STREAM_END: file offset */
	uint64_t bytes;		/* likewise: bytes skipped, 0 when not known */
	uint32_t demands[CA_DEMAND_COUNT];	/* CA_UNOBSERVED_SILENT: what went unanswered */
};

/* A stretch's bounds, kept for every stretch in time order. */
struct ca_span {
	uint64_t from;
	uint64_t to;
};

struct ca_cpu_coverage {
	bool has_demand;	/* since this CPU's last own event */
	uint64_t demand_since;
	uint32_t demands[CA_DEMAND_COUNT];
	bool is_ended;		/* its stream ended in unreadable data */
	uint64_t ended_at;
	uint64_t ended_offset;
	uint64_t ended_bytes;
	uint64_t unobserved_ns;
	/* Per cause: time, stretches, and the longest stretch. */
	uint64_t why_ns[CA_UNOBSERVED_WHY_COUNT];
	uint32_t why_count[CA_UNOBSERVED_WHY_COUNT];
	struct ca_stretch longest[CA_UNOBSERVED_WHY_COUNT];
	struct ca_span *spans;	/* every stretch */
	size_t span_count;
	size_t span_capacity;
	bool has_lost_spans;	/* out of memory: assume unobserved anywhere */
};

/** ca_coverage_demand() - an event of another CPU at @ts aimed at this one */
void ca_coverage_demand(struct ca_cpu_coverage *cov, enum ca_demand kind, uint64_t ts);

/**
 * ca_coverage_own_event() - the CPU's own event at @ts ends its silence,
 *                           which began at @since (its previous event, or
 *                           the trace's start); @is_quiet: the caller found
 *                           it running a task without a tick too long
 * Return: true when that silence was unobserved (a demand went unanswered
 *         for longer than CA_RESPONSE_NS, or @is_quiet); it is then added as
 *         a stretch.
 */
bool ca_coverage_own_event(struct ca_cpu_coverage *cov, uint64_t since, uint64_t ts,
			   bool is_quiet);

/** ca_coverage_add() - add the stretch @stretch (its from, to and why set) */
void ca_coverage_add(struct ca_cpu_coverage *cov, const struct ca_stretch *stretch);

/** ca_coverage_end_stream() - nothing readable follows @at on this CPU */
void ca_coverage_end_stream(struct ca_cpu_coverage *cov, uint64_t at, uint64_t offset,
			    uint64_t bytes);

/**
 * ca_coverage_finish() - the trace ended at @end; @has_events: the CPU showed
 *                        any event, @since: its last one (else the trace's
 *                        start)
 * Return: true when the CPU was unobserved at the end (from *@from on).
 */
bool ca_coverage_finish(struct ca_cpu_coverage *cov, bool has_events, uint64_t since,
			uint64_t end, uint64_t *from);

/**
 * ca_coverage_overlaps() - whether the CPU was unobserved at any time in
 *                          [@from, @to)
 */
bool ca_coverage_overlaps(const struct ca_cpu_coverage *cov, uint64_t from, uint64_t to);

/** ca_coverage_first_after() - the index of the first stretch kept that ends after @from */
size_t ca_coverage_first_after(const struct ca_cpu_coverage *cov, uint64_t from);

/** ca_coverage_free() - release the stretch list */
void ca_coverage_free(struct ca_cpu_coverage *cov);

/** ca_unobserved_why_name() - Return: a short name, as in the JSON ("silent", ...). */
const char *ca_unobserved_why_name(enum ca_unobserved_why why);

#endif
