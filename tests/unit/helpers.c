/*
 * helpers.c - text traces for the tests, written to a temporary file and
 * audited through the whole pipeline (text source included).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static void append(struct trace_text *t, const char *text)
{
	size_t len = strlen(text);

	if (t->len + len + 1 > t->capacity) {
		t->capacity = (t->len + len + 1) * 2;
		t->text = realloc(t->text, t->capacity);
		ck_assert_ptr_nonnull(t->text);
	}
	memcpy(t->text + t->len, text, len + 1);
	t->len += len;
}

void trace_line(struct trace_text *t, int cpu, const char *ts, int pid, const char *event,
		const char *fields_fmt, ...)
{
	char fields[512], line[700];
	va_list args;

	va_start(args, fields_fmt);
	vsnprintf(fields, sizeof(fields), fields_fmt, args);
	va_end(args);
	snprintf(line, sizeof(line), "            task-%d [%03d] %s: %s: %s\n", pid, cpu, ts,
		 event, fields);
	append(t, line);
}

void trace_raw(struct trace_text *t, const char *line)
{
	append(t, line);
	append(t, "\n");
}

void trace_free(struct trace_text *t)
{
	free(t->text);
	memset(t, 0, sizeof(*t));
}

enum ca_result audit_text(struct ca_audit *audit, const struct trace_text *t,
			     struct ca_audit_options *opts)
{
	char path[] = "/tmp/coreaudit-test-XXXXXX";
	int fd = mkstemp(path);
	enum ca_result code;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, t->text, t->len), (ssize_t)t->len);
	close(fd);
	opts->path = path;
	code = ca_audit_run(audit, opts);
	unlink(path);
	audit->opts.path = "test";
	/* Every audit of every unit test keeps to the automata's tables. */
	ck_assert_uint_eq(audit->pipeline->isolation.invalid_transitions, 0);
	ck_assert_uint_eq(audit->pipeline->policy.invalid_transitions, 0);
	return code;
}

enum ca_result audit_text_with_rules(struct ca_audit *audit, const struct trace_text *t,
					struct ca_audit_options *opts, const char *rules_text)
{
	char path[] = "/tmp/coreaudit-rules-XXXXXX";
	int fd = mkstemp(path);
	enum ca_result code;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, rules_text, strlen(rules_text)), (ssize_t)strlen(rules_text));
	close(fd);
	opts->rules_path = path;
	code = audit_text(audit, t, opts);
	unlink(path);
	audit->opts.rules_path = "test.rules";	/* the file is gone */
	audit->pipeline->rules.path = "test.rules";
	return code;
}

/*
 * The topologies of the tests, parsed once each and kept (reachable, so no
 * leak): options share their tables, as the audit copies them.
 */
static const struct ca_topology *kept_topology(const char *text)
{
	static struct { char text[64]; struct ca_topology topo; } kept[32];
	static int kept_count;
	char err[160];

	for (int i = 0; i < kept_count; i++)
		if (!strcmp(kept[i].text, text))
			return &kept[i].topo;
	ck_assert_int_lt(kept_count, 32);
	ck_assert_int_lt(strlen(text), sizeof(kept[0].text));
	ck_assert_int_eq(ca_topology_parse(text, &kept[kept_count].topo, err, sizeof(err)), 0);
	snprintf(kept[kept_count].text, sizeof(kept[0].text), "%s", text);
	return &kept[kept_count++].topo;
}

void test_options(struct ca_audit_options *opts, const char *topology)
{
	ca_audit_options_default(opts);
	opts->has_topology = true;
	opts->topology = *kept_topology(topology ? topology : "0,1");
}

const struct ca_fi_task *fi_task_of(const struct ca_audit *audit, int pid)
{
	for (uint32_t i = 0; i < audit->pipeline->forcedidle.task_count; i++)
		if (audit->pipeline->forcedidle.tasks[i].pid == pid)
			return &audit->pipeline->forcedidle.tasks[i];
	return NULL;
}
