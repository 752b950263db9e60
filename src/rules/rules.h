/*
 * rules.h - the policy language: tags assigned to tasks, and relations
 * between tags that checks/policy.c verifies (coreaudit-rules(5)).
 *
 * A rule file is line-based; '#' starts a comment.  Parsing only: what a
 * rule means for a trace is decided by the policy check.
 */
#ifndef COREAUDIT_RULES_H
#define COREAUDIT_RULES_H

#include <stdbool.h>
#include <stdint.h>

#define CA_MAX_RULE_TAGS 64
#define CA_RULE_NAME_LEN 32
#define CA_RULE_VALUE_LEN 128

enum ca_match {
	CA_MATCH_COMM,		/* fnmatch(3) glob on the comm */
	CA_MATCH_PID,
	CA_MATCH_TGID,
	CA_MATCH_UID,		/* not carried by scheduler traces */
	CA_MATCH_CGROUP,	/* not carried by scheduler traces */
	CA_MATCH_POLICY,	/* realtime (fifo, rr), deadline, other: from the priority */
	CA_MATCH_COOKIE,	/* a kernel cookie value, or "any" non-zero */
	CA_MATCH_MARKER,	/* a coreaudit-tag marker */
};

struct ca_tag_rule {
	int tag;		/* index into names */
	enum ca_match match;
	char value[CA_RULE_VALUE_LEN];
	int64_t number;		/* pid, tgid, uid, cookie */
	bool is_any;		/* cookie any */
	int line;
};

enum ca_relation_kind {
	CA_RELATION_ISOLATE,	/* a task of A and one of B never share a core */
	CA_RELATION_EXCLUSIVE,	/* while a task of T runs, its siblings are idle */
	CA_RELATION_TOGETHER,	/* report how much of G's runtime shares a core with G */
};

struct ca_relation {
	enum ca_relation_kind kind;
	int tags[2];		/* isolate: A, B; exclusive, together: tags[0] */
	int line;
};

struct ca_rules {
	const char *path;
	char names[CA_MAX_RULE_TAGS][CA_RULE_NAME_LEN];
	int name_count;
	struct ca_tag_rule *tag_rules;
	int tag_rule_count;
	struct ca_relation *relations;
	int relation_count;
	bool has_grace, has_max_forced_idle, has_max_starvation, has_max_reselect_ticks;
	bool has_max_inversion, has_max_unjust, has_max_accounting;
	uint64_t grace_ns;
	uint32_t max_reselect_ticks;
	double max_forced_idle_pct;
	double max_accounting_pct;
	uint64_t max_starvation_ns;
	uint64_t max_inversion_ns;
	uint64_t max_unjust_ns;
	bool needs_uid_or_cgroup;	/* a rule the trace cannot satisfy */
};

/**
 * ca_rules_parse() - parse @text (the contents of @path)
 * @err: on failure, "FILE:LINE:COL: message"
 * Return: 0, -EINVAL with @err set, or -ENOMEM (then nothing is left allocated).
 */
int ca_rules_parse(struct ca_rules *rules, const char *path, const char *text, char *err,
		   int err_len);

/** ca_rules_load() - read and parse @path. Return: as ca_rules_parse(); -errno on I/O. */
int ca_rules_load(struct ca_rules *rules, const char *path, char *err, int err_len);

void ca_rules_free(struct ca_rules *rules);

const char *ca_relation_kind_name(enum ca_relation_kind kind);

#endif
