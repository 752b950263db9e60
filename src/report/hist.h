/*
 * hist.h - private to report/: histograms over power-of-two bins, drawn as
 * SVG (libxml2's xmlwriter), the way rtla hist shows latencies: window
 * length by cause, and the length of forced-idle stretches.
 */
#ifndef CA_REPORT_HIST_H
#define CA_REPORT_HIST_H

#include <stdint.h>

#include <libxml/xmlwriter.h>

#include "pipeline.h"
#include "util/stats.h"

struct ca_hist_series {
	const char *name;
	const char *colour;		/* CSS colour of its bars */
	uint64_t bins[CA_LOG2_BINS];	/* bins[i]: lengths from 2^i to 2^(i+1) - 1 ns */
};

#define CA_HIST_MAX_SERIES 8

struct ca_hist {
	const char *title;
	const char *what;		/* what is counted: "windows", "stretches" */
	struct ca_hist_series series[CA_HIST_MAX_SERIES];
	int count;
};

/** ca_hist_windows() - co-run window length by cause, from @audit's isolation check */
void ca_hist_windows(const struct ca_audit *audit, struct ca_hist *hist);

/**
 * ca_hist_forced_idle() - the length of forced-idle stretches (a CPU forced idle without
 *                         a break), from @audit's timeline (none without one)
 */
void ca_hist_forced_idle(const struct ca_audit *audit, struct ca_hist *hist);

/**
 * ca_hist_svg() - @hist as an <svg> element (stacked bars, a legend, counts on hover)
 *                 through @w
 * Return: 0, or -EIO when the writer failed.
 */
int ca_hist_svg(xmlTextWriterPtr w, const struct ca_hist *hist);

#endif
