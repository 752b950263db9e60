/*
 * parse.c - the rule-file parser.  One statement per line:
 *
 *   tag NAME comm|pid|tgid|uid|cgroup|policy|cookie|marker VALUE
 *   isolate A B | exclusive T | together G
 *   grace DUR | max-forced-idle PCT | max-starvation DUR | max-reselect-ticks N |
 *   max-inversion DUR | max-unjustified DUR | max-accounting-error PCT
 *
 * Errors name the file, line and column of the offending word.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coreaudit/duration.h"
#include "coreaudit/number.h"
#include "rules/rules.h"

struct word {
	const char *text;
	int len;
	int column;	/* 1-based */
};

#define MAX_WORDS 8

struct parser {
	struct ca_rules *rules;
	int line;
	struct word words[MAX_WORDS];
	int word_count;
	char *err;
	int err_len;
};

static int fail(struct parser *p, int column, const char *fmt, ...)
{
	int used = snprintf(p->err, p->err_len, "%s:%d:%d: ", p->rules->path, p->line, column);
	va_list args;

	va_start(args, fmt);
	if (used < p->err_len)
		vsnprintf(p->err + used, p->err_len - used, fmt, args);
	va_end(args);
	return -EINVAL;
}

static bool word_is(const struct word *w, const char *text)
{
	return (int)strlen(text) == w->len && !strncmp(w->text, text, w->len);
}

static void word_copy(const struct word *w, char *dst, int len)
{
	snprintf(dst, len, "%.*s", w->len, w->text);
}

/* Split a line into words; '#' ends it. */
static int split(struct parser *p, const char *line)
{
	const char *pos = line;

	p->word_count = 0;
	for (;;) {
		while (*pos == ' ' || *pos == '\t')
			pos++;
		if (!*pos || *pos == '#' || *pos == '\n' || *pos == '\r')
			return 0;
		if (p->word_count == MAX_WORDS)
			return fail(p, (int)(pos - line) + 1, "too many words");
		struct word *w = &p->words[p->word_count++];

		w->text = pos;
		w->column = (int)(pos - line) + 1;
		while (*pos && *pos != ' ' && *pos != '\t' && *pos != '#' && *pos != '\n' &&
		       *pos != '\r')
			pos++;
		w->len = (int)(pos - w->text);
	}
}

static int expect_words(struct parser *p, int count, const char *usage)
{
	if (p->word_count < count)
		return fail(p, p->words[p->word_count - 1].column + p->words[p->word_count - 1].len,
			    "missing words: expected \"%s\"", usage);
	if (p->word_count > count)
		return fail(p, p->words[count].column, "unexpected \"%.*s\": expected \"%s\"",
			    p->words[count].len, p->words[count].text, usage);
	return 0;
}

/* A tag name: letters, digits, '-', '_', '.'; interned. */
static int tag_of(struct parser *p, const struct word *w)
{
	struct ca_rules *rules = p->rules;
	char name[CA_RULE_NAME_LEN];

	if (w->len >= CA_RULE_NAME_LEN)
		return fail(p, w->column, "tag name longer than %d characters", CA_RULE_NAME_LEN - 1);
	for (int i = 0; i < w->len; i++) {
		char c = w->text[i];

		if (!(c == '-' || c == '_' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return fail(p, w->column + i, "'%c' in tag name \"%.*s\"", c, w->len,
				    w->text);
	}
	word_copy(w, name, sizeof(name));
	for (int i = 0; i < rules->name_count; i++)
		if (!strcmp(rules->names[i], name))
			return i;
	if (rules->name_count == CA_MAX_RULE_TAGS)
		return fail(p, w->column, "more than %d tags", CA_MAX_RULE_TAGS);
	strcpy(rules->names[rules->name_count], name);
	return rules->name_count++;
}

static const struct {
	const char *word;
	enum ca_match match;
} matches[] = {
	{ "comm", CA_MATCH_COMM }, { "pid", CA_MATCH_PID }, { "tgid", CA_MATCH_TGID },
	{ "uid", CA_MATCH_UID }, { "cgroup", CA_MATCH_CGROUP }, { "policy", CA_MATCH_POLICY },
	{ "cookie", CA_MATCH_COOKIE }, { "marker", CA_MATCH_MARKER },
};

/* A pid, tgid or uid (decimal, up to @max) or a cookie (decimal or 0x hex, 64 bits). */
static int parse_number(struct parser *p, const struct word *w, uint64_t max, int64_t *value)
{
	char text[32];
	uint64_t number;
	int ret;

	if (w->len >= (int)sizeof(text))
		return fail(p, w->column, "\"%.*s\" is not a number from 0 to %llu", w->len,
			    w->text, (unsigned long long)max);
	word_copy(w, text, sizeof(text));
	ret = max == UINT64_MAX ? ca_parse_u64(text, &number) : ca_parse_count(text, max, &number);
	if (ret)
		return fail(p, w->column, "\"%s\" is not a number from 0 to %llu%s", text,
			    (unsigned long long)max,
			    max == UINT64_MAX ? " (decimal or 0x hex)" : "");
	*value = (int64_t)number;
	return 0;
}

static int parse_value(struct parser *p, struct ca_tag_rule *rule, const struct word *w)
{
	word_copy(w, rule->value, sizeof(rule->value));
	switch (rule->match) {
	case CA_MATCH_PID:
	case CA_MATCH_TGID:
		return parse_number(p, w, INT_MAX, &rule->number);
	case CA_MATCH_UID:
		p->rules->needs_uid_or_cgroup = true;
		return parse_number(p, w, UINT32_MAX, &rule->number);
	case CA_MATCH_COOKIE:
		rule->is_any = word_is(w, "any");
		return rule->is_any ? 0 : parse_number(p, w, UINT64_MAX, &rule->number);
	case CA_MATCH_POLICY:
		if (word_is(w, "fifo") || word_is(w, "rr") || word_is(w, "realtime") ||
		    word_is(w, "deadline") || word_is(w, "other"))
			return 0;
		return fail(p, w->column, "unknown policy \"%s\": fifo, rr, realtime, deadline or "
			    "other", rule->value);
	case CA_MATCH_CGROUP:
		p->rules->needs_uid_or_cgroup = true;
		return 0;
	case CA_MATCH_COMM:
	case CA_MATCH_MARKER:
		return 0;
	}
	return 0;
}

static int parse_tag(struct parser *p)
{
	struct ca_rules *rules = p->rules;
	struct ca_tag_rule rule = { .line = p->line };
	struct ca_tag_rule *grown;
	int ret = expect_words(p, 4, "tag NAME MATCH VALUE");
	size_t i;

	if (ret)
		return ret;
	rule.tag = tag_of(p, &p->words[1]);
	if (rule.tag < 0)
		return rule.tag;
	for (i = 0; i < sizeof(matches) / sizeof(matches[0]); i++)
		if (word_is(&p->words[2], matches[i].word))
			break;
	if (i == sizeof(matches) / sizeof(matches[0]))
		return fail(p, p->words[2].column, "unknown match \"%.*s\": comm, pid, tgid, uid, "
			    "cgroup, policy, cookie or marker", p->words[2].len, p->words[2].text);
	rule.match = matches[i].match;
	ret = parse_value(p, &rule, &p->words[3]);
	if (ret)
		return ret;
	grown = realloc(rules->tag_rules, (rules->tag_rule_count + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	rules->tag_rules = grown;
	grown[rules->tag_rule_count++] = rule;
	return 0;
}

/* A relation that contradicts one already declared. */
static int check_conflict(struct parser *p, const struct ca_relation *rel)
{
	for (int i = 0; i < p->rules->relation_count; i++) {
		const struct ca_relation *other = &p->rules->relations[i];
		bool is_pair = rel->kind != CA_RELATION_ISOLATE && other->kind != CA_RELATION_ISOLATE &&
			       rel->kind != other->kind && rel->tags[0] == other->tags[0];

		if (rel->kind == other->kind && rel->tags[0] == other->tags[0] &&
		    rel->tags[1] == other->tags[1])
			return fail(p, p->words[0].column, "repeats line %d", other->line);
		if (is_pair)
			return fail(p, p->words[0].column, "\"%s\" cannot be both exclusive and "
				    "together (line %d)", p->rules->names[rel->tags[0]], other->line);
	}
	return 0;
}

static int parse_relation(struct parser *p, enum ca_relation_kind kind)
{
	struct ca_rules *rules = p->rules;
	struct ca_relation rel = { .kind = kind, .line = p->line, .tags = { -1, -1 } };
	struct ca_relation *grown;
	int ret = expect_words(p, kind == CA_RELATION_ISOLATE ? 3 : 2,
			       kind == CA_RELATION_ISOLATE ? "isolate A B" :
			       kind == CA_RELATION_EXCLUSIVE ? "exclusive T" : "together G");

	if (ret)
		return ret;
	for (int i = 1; i < p->word_count; i++) {
		rel.tags[i - 1] = tag_of(p, &p->words[i]);
		if (rel.tags[i - 1] < 0)
			return rel.tags[i - 1];
	}
	if (kind == CA_RELATION_ISOLATE && rel.tags[0] == rel.tags[1])
		return fail(p, p->words[2].column, "a tag cannot be isolated from itself");
	if (kind == CA_RELATION_ISOLATE && rel.tags[0] > rel.tags[1]) {
		int t = rel.tags[0];

		rel.tags[0] = rel.tags[1];
		rel.tags[1] = t;
	}
	ret = check_conflict(p, &rel);
	if (ret)
		return ret;
	grown = realloc(rules->relations, (rules->relation_count + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	rules->relations = grown;
	grown[rules->relation_count++] = rel;
	return 0;
}

static int parse_threshold(struct parser *p)
{
	struct ca_rules *r = p->rules;
	const struct word *name = &p->words[0], *value = &p->words[1];
	char text[64];
	int ret = expect_words(p, 2, "NAME VALUE");
	bool *is_set = word_is(name, "grace") ? &r->has_grace :
		       word_is(name, "max-forced-idle") ? &r->has_max_forced_idle :
		       word_is(name, "max-inversion") ? &r->has_max_inversion :
		       word_is(name, "max-unjustified") ? &r->has_max_unjust :
		       word_is(name, "max-accounting-error") ? &r->has_max_accounting :
		       &r->has_max_starvation;

	if (ret)
		return ret;
	if (*is_set)
		return fail(p, name->column, "%.*s is set twice", name->len, name->text);
	*is_set = true;
	if (value->len >= (int)sizeof(text))
		return fail(p, value->column, "\"%.*s\" is too long for a %.*s", value->len,
			    value->text, name->len, name->text);
	word_copy(value, text, sizeof(text));
	if (word_is(name, "max-forced-idle") || word_is(name, "max-accounting-error")) {
		if (ca_parse_percent(text, word_is(name, "max-forced-idle") ?
				     &r->max_forced_idle_pct : &r->max_accounting_pct))
			return fail(p, value->column, "\"%s\" is not a percentage from 0 to 100",
				    text);
		return 0;
	}
	ret = ca_parse_duration(text, word_is(name, "grace") ? &r->grace_ns :
				word_is(name, "max-inversion") ? &r->max_inversion_ns :
				word_is(name, "max-unjustified") ? &r->max_unjust_ns :
				&r->max_starvation_ns);
	if (ret == -ERANGE)
		return fail(p, value->column, "\"%s\" is not a duration from 1ns to 9223372036s in "
			    "whole nanoseconds", text);
	if (ret)
		return fail(p, value->column, "\"%s\" is not a duration with a unit (e.g. 2ms)",
			    text);
	return 0;
}

/* max-reselect-ticks N: 0 (the check off) to 1000. */
static int parse_ticks(struct parser *p)
{
	struct ca_rules *r = p->rules;
	const struct word *value = &p->words[1];
	uint64_t ticks;
	char text[64];
	int ret = expect_words(p, 2, "max-reselect-ticks N");

	if (ret)
		return ret;
	if (r->has_max_reselect_ticks)
		return fail(p, p->words[0].column, "max-reselect-ticks is set twice");
	word_copy(value, text, sizeof(text));
	if (value->len >= (int)sizeof(text) || ca_parse_count(text, 1000, &ticks))
		return fail(p, value->column, "\"%.*s\" is not a whole number from 0 to 1000",
			    value->len, value->text);
	r->has_max_reselect_ticks = true;
	r->max_reselect_ticks = (uint32_t)ticks;
	return 0;
}

static int parse_line(struct parser *p, const char *line)
{
	const struct word *first = &p->words[0];
	int ret = split(p, line);

	if (ret || !p->word_count)
		return ret;
	if (word_is(first, "tag"))
		return parse_tag(p);
	if (word_is(first, "isolate"))
		return parse_relation(p, CA_RELATION_ISOLATE);
	if (word_is(first, "exclusive"))
		return parse_relation(p, CA_RELATION_EXCLUSIVE);
	if (word_is(first, "together"))
		return parse_relation(p, CA_RELATION_TOGETHER);
	if (word_is(first, "grace") || word_is(first, "max-forced-idle") ||
	    word_is(first, "max-starvation") || word_is(first, "max-inversion") ||
	    word_is(first, "max-unjustified") || word_is(first, "max-accounting-error"))
		return parse_threshold(p);
	if (word_is(first, "max-reselect-ticks"))
		return parse_ticks(p);
	return fail(p, first->column, "unknown statement \"%.*s\": tag, isolate, exclusive, "
		    "together, grace, max-forced-idle, max-starvation, max-reselect-ticks, "
		    "max-inversion, max-unjustified or max-accounting-error",
		    first->len, first->text);
}

/* A relation naming a tag that no rule assigns can never be checked. */
static int check_tags_assigned(struct parser *p)
{
	bool is_assigned[CA_MAX_RULE_TAGS] = { false };

	for (int r = 0; r < p->rules->tag_rule_count; r++)
		is_assigned[p->rules->tag_rules[r].tag] = true;
	for (int i = 0; i < p->rules->relation_count; i++) {
		const struct ca_relation *rel = &p->rules->relations[i];

		for (int side = 0; side < 2 && rel->tags[side] >= 0; side++) {
			if (is_assigned[rel->tags[side]])
				continue;
			p->line = rel->line;
			return fail(p, 1, "tag \"%s\" is assigned by no tag rule",
				    p->rules->names[rel->tags[side]]);
		}
	}
	return 0;
}

int ca_rules_parse(struct ca_rules *rules, const char *path, const char *text, char *err,
		   int err_len)
{
	struct parser p = { .rules = rules, .err = err, .err_len = err_len };
	const char *line = text;

	memset(rules, 0, sizeof(*rules));
	rules->path = path;
	int ret = 0;

	while (*line && !ret) {
		const char *next = strchr(line, '\n');

		p.line++;
		ret = parse_line(&p, line);
		line = next ? next + 1 : line + strlen(line);
	}
	if (!ret)
		ret = check_tags_assigned(&p);
	if (ret)
		ca_rules_free(rules);	/* nothing half-parsed is left to use */
	return ret;
}

int ca_rules_load(struct ca_rules *rules, const char *path, char *err, int err_len)
{
	FILE *file = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(rules, 0, sizeof(*rules));
	if (!file) {
		ret = -errno;
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return ret;
	}
	FILE *memory = open_memstream(&text, &len);
	char buf[4096];
	size_t n;

	while (memory && (n = fread(buf, 1, sizeof(buf), file)) > 0)
		fwrite(buf, 1, n, memory);
	fclose(file);
	if (!memory)
		return -ENOMEM;
	fclose(memory);
	if (text && strlen(text) != len) {
		snprintf(err, err_len, "%s: a NUL byte at offset %zu: not a rule file", path,
			 strlen(text));
		free(text);
		return -EINVAL;
	}
	ret = ca_rules_parse(rules, path, text ? text : "", err, err_len);
	free(text);
	return ret;
}

void ca_rules_free(struct ca_rules *rules)
{
	free(rules->tag_rules);
	free(rules->relations);
	rules->tag_rules = NULL;
	rules->relations = NULL;
}

const char *ca_relation_kind_name(enum ca_relation_kind kind)
{
	switch (kind) {
	case CA_RELATION_ISOLATE:
		return "isolate";
	case CA_RELATION_EXCLUSIVE:
		return "exclusive";
	case CA_RELATION_TOGETHER:
		break;
	}
	return "together";
}
