/*
 * schedlag.c - where the kernel's clock stood at a pick, from the trace
 * event that shows the pick.
 *
 * The kernel times forced idle with the core's rq clock (the first
 * sibling's), read inside __schedule(): the first sibling reads it as
 * __schedule() begins; another sibling updates it as pick_next_task() charges
 * an open period, and again in its selection loop, where the new period
 * starts.  sched_switch fires at the end of __schedule(), the __schedule IPI
 * to a sibling from inside the selection.  On real hardware the code between
 * takes a microsecond or two; under emulation (QEMU TCG) tens of
 * microseconds, and differently on each path, so that a forced-idle period
 * timed from switch to switch is off by as much at each end, and a task
 * charged at periods of one kind by a few per cent (README, Accuracy).
 *
 * The trace shows the machine's pace at that code: a CPU leaving an idle
 * state (power:cpu_idle -1) goes straight into __schedule(), so the time to
 * its sched_switch from idle is one pass through it.  Its median, each core's
 * over its own CPUs (so that a core's figures are those of a trace of that
 * core alone), is the unit here; each path's lag is a multiple of it,
 * measured on the harness's recordings against the kernel's own accounting
 * (its periods' start and clock, read with a probe on
 * __sched_core_account_forceidle: tests/vm/init, COREAUDIT_VM_CHARGES), at a
 * unit of 27 us, and rounded to half units: the first sibling's pick lags
 * its switch by a unit (two when a task is switched for a task: the path
 * puts one task back and sets another up), or its IPI by a unit; another
 * sibling's charge lags its switch by a unit (half from idle, or half behind
 * its IPI), its selection half a unit from idle, a unit from task to task,
 * none otherwise.  A trace without idle events has no unit: no lag.
 */

#include "checks/schedlag.h"

#define LEAST_GAPS 8		/* before that the median is not trusted */
#define REFRESH_EVERY 64	/* gaps between two medians, once there are that many */

/* Lags in half units: the first sibling's (end and start), another's end, another's start. */
static const uint8_t leader_halves[] = {
	[CA_PICK_KICKED] = 2, [CA_PICK_TASK_TO_TASK] = 4,
	[CA_PICK_TASK_TO_IDLE] = 2, [CA_PICK_IDLE_TO_TASK] = 2,
};
static const uint8_t sibling_end_halves[] = {
	[CA_PICK_KICKED] = 1, [CA_PICK_TASK_TO_TASK] = 2,
	[CA_PICK_TASK_TO_IDLE] = 2, [CA_PICK_IDLE_TO_TASK] = 1,
};
static const uint8_t sibling_start_halves[] = {
	[CA_PICK_KICKED] = 0, [CA_PICK_TASK_TO_TASK] = 2,
	[CA_PICK_TASK_TO_IDLE] = 0, [CA_PICK_IDLE_TO_TASK] = 1,
};

static uint64_t median_ns(const struct ca_schedlag *lag)
{
	uint32_t below = 0;

	for (int bin = 0; bin < CA_SCHEDLAG_BINS; bin++) {
		below += lag->bins[bin];
		if (2 * below >= lag->count)
			return (uint64_t)bin * 1000 + 500;
	}
	return (uint64_t)CA_SCHEDLAG_BINS * 1000;
}

void ca_schedlag_note(struct ca_schedlag *lag, uint64_t left_ns, uint64_t switch_ns)
{
	uint64_t bin = (switch_ns + 500) / 1000 - (left_ns + 500) / 1000;

	lag->bins[bin < CA_SCHEDLAG_BINS ? bin : CA_SCHEDLAG_BINS - 1]++;
	lag->count++;
	if (lag->count >= LEAST_GAPS &&
	    (lag->count < REFRESH_EVERY ? !(lag->count & (lag->count - 1)) :
	     !(lag->count % REFRESH_EVERY)))
		lag->unit_ns = median_ns(lag);
}

static uint64_t behind(uint64_t ns, uint64_t lag_ns, uint64_t floor_ns)
{
	uint64_t at = lag_ns < ns ? ns - lag_ns : 0;

	return at > floor_ns ? at : floor_ns;
}

void ca_schedlag_pick(const struct ca_schedlag *lag, bool is_leader, enum ca_pick_path path,
		      uint64_t shown_ns, uint64_t floor_ns, uint64_t *end_ns, uint64_t *start_ns)
{
	uint64_t half = lag->unit_ns / 2;

	if (shown_ns < floor_ns)
		floor_ns = shown_ns;
	if (is_leader) {
		*end_ns = behind(shown_ns, half * leader_halves[path], floor_ns);
		*start_ns = *end_ns;
		return;
	}
	*end_ns = behind(shown_ns, half * sibling_end_halves[path], floor_ns);
	*start_ns = behind(shown_ns, half * sibling_start_halves[path], floor_ns);
}
