/*
 * schedlag.h - private to the forced-idle model: how far the kernel's clock
 * reads in __schedule() lie behind the trace events that show them, on the
 * machine the trace was recorded on.
 */
#ifndef CA_CHECKS_SCHEDLAG_H
#define CA_CHECKS_SCHEDLAG_H

#include <stdbool.h>
#include <stdint.h>

#define CA_SCHEDLAG_BINS 256		/* gaps of 1 us each; longer ones count in the last */

/*
 * The machine's pace at __schedule(): the median time from a CPU leaving an
 * idle state (power:cpu_idle, state -1) to its sched_switch from idle, when
 * nothing else happened on that CPU in between.
 */
struct ca_schedlag {
	uint32_t bins[CA_SCHEDLAG_BINS];
	uint32_t count;
	uint64_t unit_ns;		/* the median so far; 0 until enough gaps */
};

/* Which pick of the kernel a sched_switch shows. */
enum ca_pick_path {
	CA_PICK_KICKED,		/* marked by the __schedule IPI it sent: its time is the IPI's */
	CA_PICK_TASK_TO_TASK,
	CA_PICK_TASK_TO_IDLE,
	CA_PICK_IDLE_TO_TASK,
};

/*
 * A switch from idle at @switch_ns of a CPU that left its idle state at
 * @left_ns.  The gap counts in whole microseconds of the two times rounded
 * as `trace-cmd report` prints them, so that its text gives the same unit.
 */
void ca_schedlag_note(struct ca_schedlag *lag, uint64_t left_ns, uint64_t switch_ns);

/*
 * The core's clock at a pick shown at @shown_ns (its switch, or its IPI),
 * not before @floor_ns (the CPU's last other event): *@end_ns, where an open
 * forced-idle period is charged up to, and *@start_ns, where the selection's
 * period starts.  @is_leader: the pick of the core's first sibling, whose
 * clock is the core's (read as __schedule() begins).
 */
void ca_schedlag_pick(const struct ca_schedlag *lag, bool is_leader, enum ca_pick_path path,
		      uint64_t shown_ns, uint64_t floor_ns, uint64_t *end_ns, uint64_t *start_ns);

#endif
