/*
 * html.c - one self-contained page to look at an audit: a timeline per core
 * with a lane per hardware thread, the co-run windows under each core, zoom
 * and pan, the evidence of a window on click, and the histograms.  The page
 * (style, markup, script: src/report/page.html, built into the library as
 * page.h) needs no network; the audit goes in as one JSON document in a
 * <script type="application/json"> element: strings through json-c (which
 * writes "/" as "\/", so no "</script>" can end it early), numbers as they
 * are.  Per CPU its segments are flat arrays of (time since the previous
 * segment, kind, pid, identity) in nanoseconds; the page rebuilds them in
 * typed arrays and draws from a per-pixel summary below one pixel.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <libxml/xmlwriter.h>

#include "coreaudit/report.h"
#include "report/common.h"
#include "report/hist.h"
#include "report/page.h"
#include "report/sections.h"

#define DATA_MARK "<!-- coreaudit:data -->"
#define SMT_ROWS 10	/* rows of the worst-of tables in --report sections */

/*
 * @text as a JSON string (json-c's escaping, "/" included), to @out, with <, >
 * and & as \u escapes: inside <script>, "<!--<script>" in a task's comm would
 * otherwise keep the element from ending where it should.
 */
static void put_string(FILE *out, const char *text)
{
	char copy[512];
	struct json_object *value;

	snprintf(copy, sizeof(copy), "%s", text ? text : "");
	ca_report_clean(copy);
	value = json_object_new_string(copy);
	for (const char *c = json_object_to_json_string_ext(value, JSON_C_TO_STRING_PLAIN); *c; c++)
		if (*c == '<' || *c == '>' || *c == '&')
			fprintf(out, "\\u%04x", *c);
		else
			fputc(*c, out);
	json_object_put(value);
}

static void put_meta(FILE *out, const struct ca_audit *audit)
{
	const struct ca_timeline *tl = &audit->pipeline->timeline;

	fputs("\"file\": ", out);
	put_string(out, audit->opts.path);
	fprintf(out, ", \"verdict\": \"%s\", \"identity\": \"%s\", \"events\": %" PRIu64
		", \"t0\": %" PRIu64 ", \"span\": %" PRIu64 ",\n\"reasons\": [",
		ca_verdict_name(audit->verdict),
		audit->pipeline->state.identity == CA_IDENTITY_TAG ? "tags" : "cookies",
		audit->events, tl->start_ts, tl->end_ts > tl->start_ts ? tl->end_ts - tl->start_ts : 0);
	for (int i = 0; i < audit->reason_count; i++) {
		fputs(i ? ", " : "", out);
		put_string(out, audit->reasons[i]);
	}
	fputs("],\n", out);
}

static void put_names(FILE *out)
{
	fputs("\"kinds\": [", out);
	for (int k = 0; k < CA_WINDOW_KIND_COUNT; k++)
		fprintf(out, "%s\"%s\"", k ? ", " : "", ca_window_kind_name((enum ca_window_kind)k));
	fputs("], \"causes\": [", out);
	for (int c = 0; c < CA_CAUSE_COUNT; c++)
		fprintf(out, "%s\"%s\"", c ? ", " : "", ca_window_cause_name((enum ca_window_cause)c));
	fputs("],\n", out);
}

static void put_cores(FILE *out, const struct ca_topology *topo)
{
	fputs("\"cores\": [", out);
	for (int core = 0; core < topo->core_count; core++) {
		fputs(core ? ", [" : "[", out);
		for (int i = 0; i < topo->sibling_count[core]; i++)
			fprintf(out, "%s%d", i ? ", " : "", topo->siblings[core][i]);
		fputs("]", out);
	}
	fputs("],\n", out);
}

/* The identities segments name (index 1 up; 0 is unknown) and every task's comm. */
static void put_names_of(FILE *out, const struct ca_audit *audit)
{
	const struct ca_timeline *tl = &audit->pipeline->timeline;
	const struct ca_tasks *tasks = &audit->pipeline->state.tasks;
	char label[80];

	fputs("\"idents\": [\"unknown\"", out);
	for (size_t i = 0; i < tl->ident_count; i++) {
		ca_report_identity(audit, tl->idents[i], label, sizeof(label));
		fputs(", ", out);
		put_string(out, label);
	}
	fputs("],\n\"tasks\": {", out);
	for (uint32_t i = 0; i < tasks->count; i++) {
		fprintf(out, "%s\"%d\": ", i ? ", " : "", tasks->items[i].pid);
		put_string(out, tasks->items[i].comm);
	}
	fputs("},\n", out);
}

static void put_cpus(FILE *out, const struct ca_timeline *tl)
{
	fputs("\"cpus\": {", out);
	for (int cpu = 0, shown = 0; cpu < tl->cpu_count; cpu++) {
		const struct ca_tl_cpu *c = &tl->cpus[cpu];
		uint64_t last = tl->start_ts;

		if (!c->count)
			continue;
		fprintf(out, "%s\n\"%d\": [", shown++ ? "," : "", cpu);
		for (size_t i = 0; i < c->count; i++) {
			const struct ca_tl_segment *s = &c->segments[i];

			fprintf(out, "%s%" PRIu64 ",%u,%d,%u", i ? "," : "", s->start - last, s->kind,
				s->pid, s->ident);
			last = s->start;
		}
		fputs("]", out);
	}
	fputs("},\n", out);
}

static void put_windows(FILE *out, const struct ca_audit *audit, uint64_t t0)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;

	fprintf(out, "\"windows_dropped\": %" PRIu64 ",\n\"windows\": [", iso->list_dropped);
	for (size_t i = 0; i < iso->list_count; i++) {
		const struct ca_window *w = &iso->list[i];

		fprintf(out, "%s%" PRIu64 ",%" PRIu64 ",%d,%d,%d,%d,%d,%d,%d", i ? ",\n" : "",
			w->start - t0, w->end - w->start, w->core, w->cpus[0], w->cpus[1], w->kind,
			w->cause, w->tasks[0].pid, w->tasks[1].pid);
	}
	fputs("],\n", out);
}

static void put_instants(FILE *out, const struct ca_timeline *tl)
{
	fputs("\"instants\": [", out);
	for (size_t i = 0; i < tl->instant_count; i++) {
		const struct ca_tl_instant *in = &tl->instants[i];

		fprintf(out, "%s%" PRIu64 ",%u,%d,%d,%d", i ? ",\n" : "", in->ts - tl->start_ts,
			in->kind, in->cpu, in->target, in->pid);
	}
	fputs("]\n", out);
}

static void put_data(FILE *out, const struct ca_audit *audit)
{
	const struct ca_timeline *tl = &audit->pipeline->timeline;

	fputs("<script id=\"coreaudit-data\" type=\"application/json\">{\n", out);
	put_meta(out, audit);
	put_names(out);
	put_cores(out, &audit->pipeline->state.topo);
	put_names_of(out, audit);
	put_cpus(out, tl);
	put_windows(out, audit, tl->start_ts);
	put_instants(out, tl);
	fputs("}</script>\n", out);
}

/* The histograms as inline SVG. */
static int put_histograms(FILE *out, const struct ca_audit *audit)
{
	xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
	xmlTextWriterPtr w = buf ? xmlNewTextWriter(buf) : NULL;
	struct ca_hist hist;
	int ret;

	if (!w) {
		if (buf)
			xmlOutputBufferClose(buf);
		return -ENOMEM;
	}
	fputs("<div id=\"histograms\">\n", out);
	ca_hist_windows(audit, &hist);
	ret = ca_hist_svg(w, &hist);
	ca_hist_forced_idle(audit, &hist);
	ret = ret ? ret : ca_hist_svg(w, &hist);
	xmlFreeTextWriter(w);	/* flushes into @out, which stays open */
	fputs("\n</div>\n", out);
	return ret;
}

/* @text into HTML text: &, < and > escaped. */
static void put_escaped(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '<')
			fputs("&lt;", out);
		else if (text[i] == '>')
			fputs("&gt;", out);
		else if (text[i] == '&')
			fputs("&amp;", out);
		else
			fputc(text[i], out);
	}
}

/* --report capacity,fairness,exposure: their text sections, as the text report has them. */
static int put_smt_reports(FILE *out, const struct ca_audit *audit)
{
	const struct ca_audit_pipeline *p = audit->pipeline;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (!p->has_capacity && !p->has_fairness && !p->has_exposure)
		return 0;
	mem = open_memstream(&text, &len);
	if (!mem)
		return -ENOMEM;
	ca_text_capacity(mem, audit, SMT_ROWS);
	ca_text_fairness(mem, audit, SMT_ROWS);
	ca_text_exposure(mem, audit, SMT_ROWS);
	if (fclose(mem)) {
		free(text);
		return -ENOMEM;
	}
	fputs("<div id=\"smt\"><h2>What SMT with core scheduling gave</h2><pre>", out);
	put_escaped(out, text, len);
	fputs("</pre></div>\n", out);
	free(text);
	return 0;
}

int ca_report_html(const char *path, const struct ca_audit *audit)
{
	const char *mark = strstr(ca_page_html, DATA_MARK);
	FILE *out;
	int ret;

	if (!audit->pipeline->has_timeline || !mark)
		return -EINVAL;
	out = fopen(path, "w");
	if (!out)
		return -errno;
	fwrite(ca_page_html, 1, (size_t)(mark - ca_page_html), out);
	put_data(out, audit);
	ret = put_histograms(out, audit);
	ret = ret ? ret : put_smt_reports(out, audit);
	fputs(mark + strlen(DATA_MARK), out);
	if (ferror(out) && !ret)
		ret = -EIO;
	if (fclose(out) && !ret)
		ret = -EIO;
	return ret;
}
