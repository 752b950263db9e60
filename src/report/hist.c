/*
 * hist.c - histograms over power-of-two bins, as SVG (hist.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "coreaudit/report.h"
#include "report/hist.h"

#define WIDTH 720
#define HEIGHT 320
#define LEFT 64
#define RIGHT 180		/* the legend */
#define TOP 34
#define BOTTOM 56
#define GRID_LINES 4

/* A colour per cause, in enum ca_window_cause order. */
static const char *const cause_colours[CA_CAUSE_COUNT] = {
	"#4c9a2a", "#7fbf3f", "#b5d96b", "#e0b43a", "#d62728", "#9e9e9e", "#8c564b",
};

void ca_hist_windows(const struct ca_audit *audit, struct ca_hist *hist)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;

	memset(hist, 0, sizeof(*hist));
	hist->title = "co-run windows of different cookies: length by cause";
	hist->what = "windows";
	for (int c = 0; c < CA_CAUSE_COUNT && hist->count < CA_HIST_MAX_SERIES; c++) {
		struct ca_hist_series *s = &hist->series[hist->count];

		if (!iso->by_cause[c].count)
			continue;
		s->name = ca_window_cause_name((enum ca_window_cause)c);
		s->colour = cause_colours[c];
		ca_durations_log2(&iso->by_cause[c], s->bins);
		hist->count++;
	}
}

void ca_hist_forced_idle(const struct ca_audit *audit, struct ca_hist *hist)
{
	const struct ca_timeline *tl = &audit->pipeline->timeline;
	struct ca_hist_series *s = &hist->series[0];

	memset(hist, 0, sizeof(*hist));
	hist->title = "forced-idle stretches: length";
	hist->what = "stretches";
	s->name = "forced idle";
	s->colour = "#b03060";
	for (int cpu = 0; audit->pipeline->has_timeline && cpu < tl->cpu_count; cpu++) {
		const struct ca_tl_cpu *c = &tl->cpus[cpu];

		for (size_t i = 0; i < c->count; i++) {
			uint64_t end = i + 1 < c->count ? c->segments[i + 1].start : tl->end_ts;

			if (c->segments[i].kind == CA_TL_FORCED && end > c->segments[i].start)
				s->bins[ca_log2_bin(end - c->segments[i].start)]++;
		}
	}
	hist->count = 1;
}

/* A power of two of nanoseconds, short: "512ns", "1us", "33ms", "2s". */
static void bin_label(int bin, char *buf, size_t len)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	double value = (double)((uint64_t)1 << bin);
	int unit = 0;

	while (value >= 1000 && unit < 3) {
		value /= 1000;
		unit++;
	}
	snprintf(buf, len, value < 10 && value != (int)value ? "%.1f%s" : "%.0f%s", value,
		 units[unit]);
}

static void attr_num(xmlTextWriterPtr w, const char *name, double value)
{
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%.1f", value);
}

static void attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value);
}

static void text(xmlTextWriterPtr w, double x, double y, const char *anchor, const char *content)
{
	xmlTextWriterStartElement(w, BAD_CAST "text");
	attr_num(w, "x", x);
	attr_num(w, "y", y);
	attr(w, "text-anchor", anchor);
	xmlTextWriterWriteString(w, BAD_CAST content);
	xmlTextWriterEndElement(w);
}

static void line(xmlTextWriterPtr w, double x1, double y1, double x2, double y2)
{
	xmlTextWriterStartElement(w, BAD_CAST "line");
	attr_num(w, "x1", x1);
	attr_num(w, "y1", y1);
	attr_num(w, "x2", x2);
	attr_num(w, "y2", y2);
	attr(w, "stroke", "#bbb");
	xmlTextWriterEndElement(w);
}

/* A bar of @series in @bin: @count lengths, from @y down @height pixels. */
static void bar(xmlTextWriterPtr w, const struct ca_hist *hist, const struct ca_hist_series *s,
		int bin, double x, double y, double width, double height)
{
	char lo[16], hi[16], tip[160];

	bin_label(bin, lo, sizeof(lo));
	bin_label(bin + 1, hi, sizeof(hi));
	snprintf(tip, sizeof(tip), "%s: %" PRIu64 " %s of %s to %s", s->name, s->bins[bin],
		 hist->what, lo, hi);
	xmlTextWriterStartElement(w, BAD_CAST "rect");
	attr_num(w, "x", x);
	attr_num(w, "y", y);
	attr_num(w, "width", width);
	attr_num(w, "height", height);
	attr(w, "fill", s->colour);
	xmlTextWriterStartElement(w, BAD_CAST "title");
	xmlTextWriterWriteString(w, BAD_CAST tip);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
}

/* The bins any series has lengths in, and the tallest stack; false when none has any. */
static bool bin_range(const struct ca_hist *hist, int *lo, int *hi, uint64_t *tallest)
{
	*lo = CA_LOG2_BINS;
	*hi = -1;
	*tallest = 0;
	for (int bin = 0; bin < CA_LOG2_BINS; bin++) {
		uint64_t stack = 0;

		for (int i = 0; i < hist->count; i++)
			stack += hist->series[i].bins[bin];
		if (!stack)
			continue;
		*lo = bin < *lo ? bin : *lo;
		*hi = bin;
		*tallest = stack > *tallest ? stack : *tallest;
	}
	return *hi >= 0;
}

static void axes(xmlTextWriterPtr w, const struct ca_hist *hist, uint64_t tallest)
{
	double plot_h = HEIGHT - TOP - BOTTOM;
	char label[32];

	for (int g = 0; g <= GRID_LINES; g++) {
		double y = TOP + plot_h - plot_h * g / GRID_LINES;

		line(w, LEFT, y, WIDTH - RIGHT, y);
		snprintf(label, sizeof(label), "%.0f", (double)tallest * g / GRID_LINES);
		text(w, LEFT - 6, y + 4, "end", label);
	}
	text(w, LEFT, 20, "start", hist->title);
	text(w, (LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 8, "middle", "length (power-of-two bins)");
	snprintf(label, sizeof(label), "%s", hist->what);
	text(w, 8, TOP - 10, "start", label);
}

static void bars(xmlTextWriterPtr w, const struct ca_hist *hist, int lo, int hi, uint64_t tallest)
{
	double plot_w = WIDTH - LEFT - RIGHT, plot_h = HEIGHT - TOP - BOTTOM;
	double width = plot_w / (hi - lo + 1);
	char label[16];

	for (int bin = lo; bin <= hi; bin++) {
		double x = LEFT + (bin - lo) * width, y = TOP + plot_h;

		for (int i = 0; i < hist->count; i++) {
			double h = plot_h * (double)hist->series[i].bins[bin] / (double)tallest;

			if (!hist->series[i].bins[bin])
				continue;
			y -= h;
			bar(w, hist, &hist->series[i], bin, x + 1, y, width - 2, h);
		}
		bin_label(bin, label, sizeof(label));
		if ((bin - lo) % ((hi - lo) / 12 + 1) == 0)
			text(w, x + width / 2, TOP + plot_h + 16, "middle", label);
	}
}

static void legend(xmlTextWriterPtr w, const struct ca_hist *hist)
{
	for (int i = 0; i < hist->count; i++) {
		const struct ca_hist_series *s = &hist->series[i];
		uint64_t total = 0;
		char label[96];

		for (int bin = 0; bin < CA_LOG2_BINS; bin++)
			total += s->bins[bin];
		xmlTextWriterStartElement(w, BAD_CAST "rect");
		attr_num(w, "x", WIDTH - RIGHT + 12);
		attr_num(w, "y", TOP + 18.0 * i);
		attr(w, "width", "10");
		attr(w, "height", "10");
		attr(w, "fill", s->colour);
		xmlTextWriterEndElement(w);
		snprintf(label, sizeof(label), "%s (%" PRIu64 ")", s->name, total);
		text(w, WIDTH - RIGHT + 26, TOP + 18.0 * i + 9, "start", label);
	}
}

int ca_hist_svg(xmlTextWriterPtr w, const struct ca_hist *hist)
{
	uint64_t tallest;
	int lo, hi, ok;

	ok = xmlTextWriterStartElement(w, BAD_CAST "svg") >= 0;
	attr(w, "xmlns", "http://www.w3.org/2000/svg");
	attr_num(w, "width", WIDTH);
	attr_num(w, "height", HEIGHT);
	attr(w, "font-family", "sans-serif");
	attr(w, "font-size", "11");
	if (bin_range(hist, &lo, &hi, &tallest)) {
		axes(w, hist, tallest);
		bars(w, hist, lo, hi, tallest);
		legend(w, hist);
	} else {
		text(w, LEFT, 20, "start", hist->title);
		text(w, LEFT, TOP + 20, "start", "none in this trace");
	}
	ok &= xmlTextWriterEndElement(w) >= 0;
	return ok ? 0 : -EIO;
}

static int write_svg_file(const char *dir, const char *name, const struct ca_hist *hist)
{
	char path[4096];
	xmlTextWriterPtr w;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	w = xmlNewTextWriterFilename(path, 0);
	if (!w)
		return -EIO;
	ret = xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ? -EIO : 0;
	ret = ret ? ret : ca_hist_svg(w, hist);
	if (xmlTextWriterEndDocument(w) < 0)
		ret = -EIO;
	xmlFreeTextWriter(w);
	return ret;
}

int ca_report_histograms(const char *dir, const struct ca_audit *audit)
{
	struct ca_hist hist;
	int ret;

	ca_hist_windows(audit, &hist);
	ret = write_svg_file(dir, "windows.svg", &hist);
	ca_hist_forced_idle(audit, &hist);
	return ret ? ret : write_svg_file(dir, "forced-idle.svg", &hist);
}
