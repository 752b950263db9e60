/*
 * audit.h - one audit: a trace file (or a live source) through the pipeline
 * (stream, state, checks) into findings the reports format.  The pipeline is
 * private to the library; what it found is here, as fields of struct
 * ca_audit once the audit is decided, and through ca_audit_progress() and
 * ca_audit_next_violation() while it runs.
 */
#ifndef COREAUDIT_AUDIT_H
#define COREAUDIT_AUDIT_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include "result.h"
#include "source.h"
#include "topology.h"

/* What decides whether two tasks may share a core. */
enum ca_identity {
	CA_IDENTITY_COOKIE,	/* kernel cookies (probe, prctl, markers) */
	CA_IDENTITY_TAG,	/* coreaudit-tag markers (--tags markers) */
};

/* A bound of the span to audit: a trace timestamp, or ns after the first event. */
struct ca_time_bound {
	bool is_set;
	bool is_relative;	/* ns after the trace's first event ("+2s") */
	uint64_t ns;
};

struct ca_audit_options {
	const char *path;
	bool has_topology;
	struct ca_topology topology;
	enum ca_identity identity;
	bool assume_unknown_cookie_zero;
	uint64_t grace_ns;
	bool has_grace;			/* given by the user: keep it whatever the trace */
	uint64_t max_transition_ns;	/* 0: explained windows never fail */
	double max_forced_idle_pct;	/* < 0: no threshold */
	int64_t max_starvation_ns;	/* < 0: no threshold */
	uint32_t max_reselect_ticks;	/* a forced-idle stretch past this many ticks of the
					 * running sibling fails (checks/reselect.h; 0: off) */
	uint64_t max_inversion_ns;	/* how long a realtime task may wait on an idle CPU
					 * beside a task it outranks, once the kernel chose
					 * (checks/inversion.h) */
	uint64_t max_unjust_ns;		/* how long a CPU may idle beside a queued task of
					 * the core's cookie, once the kernel chose
					 * (checks/unjust.h) */
	double max_accounting_pct;	/* how far the kernel's forced idle per task may be
					 * from the trace's (checks/accounting.h) */
	size_t list_limit;
	const char *rules_path;		/* NULL: no rule file */
	const char *baseline_path;	/* an earlier run's JSON report to hold this one
					 * to (NULL: none) */
	double baseline_margin_pct;	/* how much worse a figure may get (default 10) */
	bool has_max_forced_idle;
	bool has_max_starvation;
	bool has_max_reselect_ticks;	/* given by the user: a rule file does not change it */
	bool has_max_inversion;		/* likewise */
	bool has_max_unjust;		/* likewise */
	bool has_max_accounting;	/* likewise */
	bool use_record_reader;		/* trace.dat: libtracecmd records, the reference */
	bool keep_timeline;		/* keep what every CPU did, for pictures (its memory
					 * grows with the trace) */
	int threads;			/* 2 or more: a file is read on one thread while
					 * its events are checked on another (1: one) */
	struct ca_time_bound from;	/* audit only from here (--from; unset: the start) */
	struct ca_time_bound to;	/* up to here (--to; unset: the end); cookies and tags
					 * set before @from are still learned */
	struct ca_time_bound explain;	/* --explain: what ran at this instant, and the
					 * windows open there with their evidence */
	/* Told every CA_PROGRESS_EVENTS events read, for a progress line (NULL: not),
	 * on the thread that runs the checks: how many so far, and how far into the
	 * trace the last one is (ns after its first event). */
	void (*on_progress)(void *ctx, uint64_t events_read, uint64_t into_ns);
	void *progress_ctx;
	/* --cpu: audit only the cores that hold a CPU of this list ("0,1,4-7", as
	 * trace-cmd report's --cpu), each core whole; the other CPUs' events still
	 * tell where tasks are, woken and sent.  NULL: every core. */
	const char *cpus;
	/* --report capacity,fairness,exposure: what SMT with core scheduling gave (CA_SMT_REPORT_*);
	 * figures only, unless a threshold below is given */
	unsigned int smt_reports;
	double max_unfairness_pct;	/* --max-unfairness: a cookie's core time may fall this
					 * far below its fair share (< 0: no threshold) */
};

#define CA_SMT_REPORT_CAPACITY (1u << 0)	/* against SMT off (checks/capacity.h) */
#define CA_SMT_REPORT_FAIRNESS (1u << 1)	/* across cookies (checks/fairness.h) */
#define CA_SMT_REPORT_EXPOSURE (1u << 2)	/* kernel entry beside another cookie
						 * (checks/exposure.h) */

#define CA_PROGRESS_EVENTS 65536

enum ca_verdict {
	CA_VERDICT_PASS,
	CA_VERDICT_FAIL,
	CA_VERDICT_INCONCLUSIVE,
};

#define CA_MAX_REASONS 8
#define CA_REASON_LEN 240

/* What a reason is about, beside its text: for JSON. */
struct ca_reason {
	const char *check;		/* "isolation", "rules", "coverage", ... */
	int cpu;			/* -1: no one CPU */
	int pid;			/* -1: no one task */
	int line;			/* a rule file's line; 0: none */
	bool has_value;
	double value;
	const char *unit;		/* of value: "windows", "ns", "percent", "events" */
	bool has_threshold;
	double threshold;
	const char *threshold_unit;
};

/* State, checks and rules: private to the library (src/pipeline.h). */
struct ca_audit_pipeline;

struct ca_audit {
	struct ca_audit_options opts;
	struct ca_source_info info;
	struct ca_audit_pipeline *pipeline;	/* NULL until ca_audit_begin() */
	enum ca_verdict verdict;
	int reason_count;	/* failures first, then what is unknown */
	int failure_count;
	char reasons[CA_MAX_REASONS][CA_REASON_LEN];	/* why fail or inconclusive */
	struct ca_reason reason_info[CA_MAX_REASONS];	/* the same, as data */
	struct ca_reason reason_spare;	/* filled for reasons past CA_MAX_REASONS */
	int reasons_dropped;
	int warning_count;
	char warnings[CA_MAX_REASONS][CA_REASON_LEN];
	uint64_t events;
	uint64_t lost_events;
	bool has_unknown_loss;
	uint64_t missed_switches;
	uint64_t resched_ipis;		/* reschedule IPIs, and those of them */
	uint64_t unnamed_resched_ipis;	/* whose callsite the trace names not */
	uint64_t wakeups;		/* sched_wakeup events audited: queued tasks are seen */
	bool is_topology_from_option;	/* else from the trace's coreaudit-topology marker */
	bool is_marker_different;	/* the trace's marker says otherwise */
	char topology_marker[128];	/* that marker, when --topology was given */
	double observed_pct;		/* of the audited CPUs' time over the span */
	uint64_t unobserved_ns;		/* CPU time not observed: lost, silent, never seen */
	int unobserved_cpus;
	double forced_idle_pct;
	uint64_t max_starved_ns;	/* the longest stretch any task starved, */
	int max_starved_pid;		/* which task (and max_starved_cpu, _start below) */
	bool is_cut;			/* --from or --to: only part of the trace audited */
	uint64_t cut_from_ts;		/* the span asked for, as trace timestamps */
	uint64_t cut_to_ts;		/* UINT64_MAX: to the end */
	uint64_t events_before;		/* events outside it: not audited */
	uint64_t events_after;
	uint64_t trace_first_ts;	/* the whole trace's first and last events */
	uint64_t trace_last_ts;
	char error[600];	/* for CA_RESULT_BAD_INPUT / CA_RESULT_BAD_OPTIONS */
	bool is_abandoned;	/* a library faulted mid-read: do not free */
	/* Added in 2026-12 at the end, where a program built before does not see them. */
	int max_starved_cpu;		/* the longest starvation: on which forced-idle CPU, */
	uint64_t max_starved_start;	/* from when (ns, the trace's clock) */
};

/* An audit's findings so far, for a program that watches it run (coreaudit monitor). */
struct ca_audit_progress {
	bool has_events;
	uint64_t first_ts;		/* ns, of the first event; with has_events */
	uint64_t last_ts;
	int cpu_count;			/* the topology's: CPUs 0 to cpu_count - 1 below */
	size_t windows;			/* co-run windows of different identities */
	size_t skew_windows;		/* of them: shorter than the grace, or explained */
	size_t violation_windows;
	size_t unknown_windows;		/* an identity, who ran, or the cause not known */
	uint64_t lost_events;
	uint64_t missed_switches;
	/* Per CPU, [cpu_count], the audit's own: read them before it goes on. */
	const uint64_t *forced_idle_ns;
	const uint64_t *known_ns;		/* the CPU time forced idle is a share of */
	uint64_t longest_starved_ns;	/* the longest any task starved at a stretch */
};

/* A violation window: two tasks of different identities shared a core too long. */
struct ca_violation {
	uint64_t start_ns;
	uint64_t end_ns;
	int core;
	int pids[2];
	char comms[2][16];	/* the kernel's TASK_COMM_LEN */
	const char *cause;	/* why the kernel let it happen: "unexplained", "resched-ipi", ... */
};

/** ca_audit_options_default() - grace, thresholds off, cookie identity */
void ca_audit_options_default(struct ca_audit_options *opts);

/**
 * ca_audit_run() - audit @opts->path into @audit
 * Return: CA_RESULT_PASS, _FAIL or _INCONCLUSIVE from the verdict, or
 *         CA_RESULT_BAD_INPUT / CA_RESULT_BAD_OPTIONS with @audit->error set
 *         (the coreaudit program exits 0, 1, 4, 3 and 2 for them).
 */
enum ca_result ca_audit_run(struct ca_audit *audit, const struct ca_audit_options *opts);

/**
 * ca_audit_begin() - set @audit up for @opts (its rule file included)
 * Return: CA_RESULT_PASS; CA_RESULT_BAD_OPTIONS (the rule file) or
 *         CA_RESULT_BAD_INPUT (out of memory) with @audit->error set.
 */
enum ca_result ca_audit_begin(struct ca_audit *audit, const struct ca_audit_options *opts);

/**
 * ca_audit_feed() - run an open @source through the pipeline and decide
 * Return: as ca_audit_run(); CA_RESULT_BAD_OPTIONS when ca_audit_begin() had
 *         not succeeded.
 */
enum ca_result ca_audit_feed(struct ca_audit *audit, struct ca_source *source);

/**
 * ca_audit_progress() - what @audit found so far (during ca_audit_feed(), e.g. from a
 *                       live source's on_drain; or after it)
 *
 * Before ca_audit_begin(), or before the topology is known, @progress is all zero.
 */
void ca_audit_progress(const struct ca_audit *audit, struct ca_audit_progress *progress);

/**
 * ca_audit_next_violation() - the next violation window kept, from the kept window
 *                             @*cursor on (start at 0)
 *
 * Windows are kept once both CPUs confirmed them, so a cursor kept across calls
 * during ca_audit_feed() sees each violation once, as it is found.
 *
 * Return: true with @violation filled and @cursor past it; false when no
 *         violation is kept past @cursor (yet).
 */
bool ca_audit_next_violation(const struct ca_audit *audit, size_t *cursor,
			     struct ca_violation *violation);

/**
 * ca_audit_free() - release what ca_audit_begin() and ca_audit_feed() built (safe
 *                   after any failure, and twice)
 */
void ca_audit_free(struct ca_audit *audit);

/** ca_verdict_name() - Return: "pass", "fail" or "inconclusive". */
const char *ca_verdict_name(enum ca_verdict verdict);

#endif
