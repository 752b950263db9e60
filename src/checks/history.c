/*
 * history.c - what each CPU ran over the last second, by scheduling class
 * (history.h says why and how exactly).
 */
#include <errno.h>
#include <stdlib.h>

#include "checks/history.h"

#define FIRST_FAIR_PRIO 100
#define FIRST_IDLE_PRIO 140
#define RT_THROTTLE_NEAR_NS 900000000ull	/* of 950 ms sched_rt_runtime_us, per second */
#define FAIR_SERVER_SHORT_NS 100000000ull	/* twice the fair server's 50 ms a second */

int ca_history_init(struct ca_history *h, size_t cpu_count)
{
	h->cpu_count = cpu_count;
	h->cpus = calloc(cpu_count ? cpu_count : 1, sizeof(*h->cpus));
	return h->cpus ? 0 : -ENOMEM;
}

void ca_history_free(struct ca_history *h)
{
	free(h->cpus);
	h->cpus = NULL;
	h->cpu_count = 0;
}

/* The bucket that holds @epoch (a 50 ms span), emptied if it held an older one. */
static uint32_t *bucket(struct ca_history_cpu *c, uint64_t epoch)
{
	size_t at = epoch % CA_HISTORY_BUCKETS;

	if (c->epoch[at] != epoch) {
		c->epoch[at] = epoch;
		for (int class = 0; class < CA_HISTORY_CLASSES; class++)
			c->ns[at][class] = 0;
	}
	return c->ns[at];
}

static int class_of(bool is_task, int prio)
{
	if (!is_task || prio < 0 || prio >= FIRST_IDLE_PRIO)
		return -1;	/* idle, deadline, or none the history keeps */
	return prio < FIRST_FAIR_PRIO ? CA_HISTORY_RT : CA_HISTORY_FAIR;
}

void ca_history_account(struct ca_history *h, int cpu, bool is_task, int prio, uint64_t ts)
{
	struct ca_history_cpu *c;
	int class = class_of(is_task, prio);
	uint64_t from;

	if (cpu < 0 || (size_t)cpu >= h->cpu_count)
		return;
	c = &h->cpus[cpu];
	from = c->accounted_to;
	c->accounted_to = ts > from ? ts : from;
	if (class < 0 || !from || ts <= from)
		return;
	if (ts - from > CA_HISTORY_SPAN_NS + CA_HISTORY_BUCKET_NS)
		from = ts - CA_HISTORY_SPAN_NS - CA_HISTORY_BUCKET_NS;	/* older is never asked */
	while (from < ts) {
		uint64_t epoch = from / CA_HISTORY_BUCKET_NS;
		uint64_t until = (epoch + 1) * CA_HISTORY_BUCKET_NS;

		if (until > ts)
			until = ts;
		bucket(c, epoch)[class] += (uint32_t)(until - from);
		from = until;
	}
}

uint64_t ca_history_ran(const struct ca_history *h, int cpu, enum ca_history_class class,
			uint64_t ts, bool is_upper)
{
	const struct ca_history_cpu *c;
	uint64_t last = ts / CA_HISTORY_BUCKET_NS, sum = 0;
	uint64_t first = last >= CA_HISTORY_BUCKETS - 1 ? last - (CA_HISTORY_BUCKETS - 1) : 0;

	if (cpu < 0 || (size_t)cpu >= h->cpu_count)
		return 0;
	c = &h->cpus[cpu];
	if (!is_upper)
		first++;
	for (uint64_t epoch = first; epoch <= last; epoch++)
		if (c->epoch[epoch % CA_HISTORY_BUCKETS] == epoch)
			sum += c->ns[epoch % CA_HISTORY_BUCKETS][class];
	return sum;
}

bool ca_history_may_be_rt_throttled(const struct ca_history *h, int cpu, uint64_t ts,
				    uint64_t known_from)
{
	uint64_t unknown = ts - known_from < CA_HISTORY_SPAN_NS ?
			   CA_HISTORY_SPAN_NS - (ts - known_from) : 0;

	return ca_history_ran(h, cpu, CA_HISTORY_RT, ts, true) + unknown >= RT_THROTTLE_NEAR_NS;
}

bool ca_history_may_be_fair_served(const struct ca_history *h, int cpu, uint64_t ts)
{
	return ca_history_ran(h, cpu, CA_HISTORY_FAIR, ts, false) < FAIR_SERVER_SHORT_NS;
}
