/*
 * audit.h - one offline audit: a trace file through source, stream, state and
 * checks, into a result the reports format.
 */
#ifndef COREAUDIT_AUDIT_H
#define COREAUDIT_AUDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "result.h"
#include "checks/forcedidle.h"
#include "checks/isolation.h"
#include "checks/policy.h"
#include "rules/rules.h"
#include "source.h"
#include "state/state.h"
#include "topology.h"

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
	size_t list_limit;
	const char *rules_path;		/* NULL: no rule file */
	bool has_max_forced_idle;
	bool has_max_starvation;
	bool use_record_reader;		/* trace.dat: libtracecmd records, the reference */
};

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

struct ca_audit {
	struct ca_audit_options opts;
	struct ca_source_info info;
	struct ca_state state;
	struct ca_isolation isolation;
	struct ca_forcedidle forcedidle;
	bool has_rules;
	struct ca_rules rules;
	struct ca_policy policy;
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
	bool is_topology_from_option;	/* else from the trace's coreaudit-topology marker */
	bool is_marker_different;	/* the trace's marker says otherwise */
	char topology_marker[128];	/* that marker, when --topology was given */
	double observed_pct;		/* of the audited CPUs' time over the span */
	uint64_t unobserved_ns;		/* CPU time not observed (coverage.h) */
	int unobserved_cpus;
	double forced_idle_pct;
	uint64_t max_starved_ns;
	int max_starved_pid;
	char error[600];	/* for CA_RESULT_BAD_INPUT / CA_RESULT_BAD_OPTIONS */
	bool is_abandoned;	/* a library faulted mid-read: do not free */
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
 * Return: CA_RESULT_PASS, or CA_RESULT_BAD_OPTIONS with @audit->error set.
 */
enum ca_result ca_audit_begin(struct ca_audit *audit, const struct ca_audit_options *opts);

/**
 * ca_audit_feed() - run an open @source through the pipeline and decide
 * Return: as ca_audit_run().
 */
enum ca_result ca_audit_feed(struct ca_audit *audit, struct ca_source *source);

/** ca_audit_free() - release what ca_audit_run() built (safe after failure). */
void ca_audit_free(struct ca_audit *audit);

const char *ca_verdict_name(enum ca_verdict verdict);

#endif
