/*
 * baseline.c - an audit held to an earlier run (baseline.h).  The old report
 * is read with json-c; the new figures come from the decided audit, the same
 * that its own JSON report would give.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "baseline.h"
#include "pipeline.h"

/* A figure: its name, unit, where the JSON report has it, and how much it may grow anyway. */
struct figure_rule {
	const char *name;
	const char *unit;
	const char *path[5];	/* keys from the report's root; NULL-ended */
	double floor;		/* in the figure's unit */
};

static const struct figure_rule rules[CA_BASELINE_FIGURES] = {
	{ "forced idle", "percent", { "forced_idle", "percent" }, 1.0 },
	{ "windows", "windows", { "windows", "count" }, 10 },
	{ "window time", "ns", { "windows", "total_ns" }, 1e6 },
	{ "window p99", "ns", { "windows", "p99_ns" }, 1e5 },
	{ "longest window", "ns", { "windows", "max_ns" }, 1e5 },
	{ "unexplained windows", "windows", { "windows", "by_cause", "unexplained", "count" }, 1 },
	{ "longest starvation", "ns", { NULL }, 1e6 },	/* the most of forced_idle.per_task */
};

static bool lookup(json_object *root, const char *const *path, double *value)
{
	json_object *at = root;

	for (int i = 0; path[i]; i++)
		if (!json_object_object_get_ex(at, path[i], &at))
			return false;
	if (!json_object_is_type(at, json_type_int) && !json_object_is_type(at, json_type_double))
		return false;
	*value = json_object_get_double(at);
	return true;
}

/* The longest starvation of the old report: the most of its per-task list. */
static bool old_starvation(json_object *root, double *value)
{
	json_object *fi, *tasks, *longest;
	bool found = false;

	if (!json_object_object_get_ex(root, "forced_idle", &fi) ||
	    !json_object_object_get_ex(fi, "per_task", &tasks) ||
	    !json_object_is_type(tasks, json_type_array))
		return false;
	*value = 0;
	for (size_t i = 0; i < json_object_array_length(tasks); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(tasks, i),
					      "longest_starved_ns", &longest)) {
			double v = json_object_get_double(longest);

			*value = v > *value ? v : *value;
			found = true;
		}
	return found;
}

int ca_baseline_load(struct ca_baseline *baseline, const char *path, double margin_pct,
		     char *err, size_t err_len)
{
	json_object *root = json_object_from_file(path);
	int compared = 0;

	memset(baseline, 0, sizeof(*baseline));
	snprintf(baseline->path, sizeof(baseline->path), "%s", path);
	baseline->margin_pct = margin_pct;
	if (!root) {
		snprintf(err, err_len, "--baseline %s: %s", path, errno == ENOENT ? strerror(errno) :
			 "not a JSON document (give the output of coreaudit audit --json)");
		return -EINVAL;
	}
	for (int i = 0; i < CA_BASELINE_FIGURES; i++) {
		struct ca_baseline_figure *f = &baseline->figures[i];

		f->name = rules[i].name;
		f->unit = rules[i].unit;
		f->has_old = i == CA_BASELINE_FIGURES - 1 ? old_starvation(root, &f->old_value) :
			     lookup(root, rules[i].path, &f->old_value);
		compared += f->has_old;
	}
	json_object_put(root);
	if (!compared) {
		snprintf(err, err_len, "--baseline %s: no figure of a coreaudit audit --json report "
			 "in it (one trace's report: an array of several is not one)", path);
		return -EINVAL;
	}
	return 0;
}

/* The decided audit's figure @i, in the unit of rules[i]. */
static double new_value(const struct ca_audit *audit, int i)
{
	const struct ca_isolation *iso = &audit->pipeline->isolation;

	switch (i) {
	case 0:
		return audit->forced_idle_pct;
	case 1:
		return (double)iso->summary_all.count;
	case 2:
		return (double)iso->summary_all.total_ns;
	case 3:
		return (double)iso->summary_all.p99_ns;
	case 4:
		return (double)iso->summary_all.max_ns;
	case 5:
		return (double)iso->cause_summary[CA_CAUSE_UNEXPLAINED].count;
	default:
		return (double)audit->max_starved_ns;
	}
}

void ca_baseline_compare(struct ca_baseline *baseline, const struct ca_audit *audit)
{
	baseline->worse_count = 0;
	for (int i = 0; i < CA_BASELINE_FIGURES; i++) {
		struct ca_baseline_figure *f = &baseline->figures[i];
		double grow = f->old_value * baseline->margin_pct / 100;

		f->new_value = new_value(audit, i);
		f->limit = f->old_value + (grow > rules[i].floor ? grow : rules[i].floor);
		f->is_worse = f->has_old && f->new_value > f->limit;
		baseline->worse_count += f->is_worse;
	}
}
