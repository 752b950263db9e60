/*
 * causes.c - what the sibling that had to leave a co-run window had pending:
 * the tracker behind the isolation and rules checks' window causes.
 *
 * IPI, local wakeup, local tick, an early IPI to the sibling that had just
 * switched (a later pick sent it away instead), and only then unexplained.
 * A tick that had set need-resched makes a CPU in user space leave before its
 * next tick; one that outlived it either ran kernel code with need-resched
 * set (no IPI was due; a kernel without full preemption leaves such code
 * only later) or lost its kick: unknown up to CA_TICK_WINDOW_MAX_NS.  A
 * window during which the leaving CPU ran for less than the grace, its vCPU
 * stopped by the host for the rest, is one the guest kernel could not act
 * on.  Without tick events, a window a tick could explain has an unknown
 * cause.  One too long for any tick, or with no tick before the pick, and no
 * request, is unexplained.
 *
 * Before any cause: two tasks declared apart (tags, rules) that carry one
 * kernel cookie were never kept apart by the kernel, so no window between
 * them is a transition.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checks/causes.h"
#include "state/state.h"

#define TICK_MERGE_NS 200000ull	/* local_timer_entry and its hrtimer (tens of us apart): one tick */
/*
 * How long softirq work can keep a CPU from rescheduling: its 2 ms budget,
 * plus one handler overrunning it, up to a tick period at HZ 100.
 */
#define SOFTIRQ_HOLD_NS 10000000ull
#define TICK_BUCKET_NS 250000ull
#define MIN_TICK_INTERVALS 16		/* before that, the tick period is not known */
#define PERIOD_REFRESH 64		/* intervals between two estimates of the period */

static const char *const cause_names[CA_CAUSE_COUNT] = {
	[CA_CAUSE_RESCHED_IPI] = "resched-ipi",
	[CA_CAUSE_RESCHED_WAKEUP] = "resched-wakeup",
	[CA_CAUSE_RESCHED_TICK] = "resched-tick",
	[CA_CAUSE_VCPU_STALL] = "vcpu-stall",
	[CA_CAUSE_UNEXPLAINED] = "unexplained",
	[CA_CAUSE_UNKNOWN] = "unknown",
	[CA_CAUSE_SAME_COOKIE] = "same-cookie",
};

const char *ca_window_cause_name(enum ca_window_cause cause)
{
	return (unsigned int)cause < CA_CAUSE_COUNT ? cause_names[cause] : "?";
}

/* Without ipi events: whether a reschedule IPI taken late (a stopped vCPU) could last @length. */
static bool is_late_ipi_length(const struct ca_judging *judging, uint64_t length)
{
	return judging->unknown_until_ns && (length <= judging->unknown_until_ns ||
					     length - judging->unknown_until_ns <= judging->stall_ns);
}

enum ca_judgement ca_causes_judge(const struct ca_judging *judging, enum ca_window_cause cause,
				  uint64_t length)
{
	switch (cause) {
	case CA_CAUSE_SAME_COOKIE:
		return CA_JUDGED_VIOLATION;
	case CA_CAUSE_UNEXPLAINED:
		return length >= judging->grace_ns ? CA_JUDGED_VIOLATION : CA_JUDGED_SKEW;
	case CA_CAUSE_UNKNOWN:
		if (length < judging->grace_ns)
			return CA_JUDGED_SKEW;
		if (judging->has_causes || is_late_ipi_length(judging, length))
			return CA_JUDGED_UNDECIDED;
		return CA_JUDGED_VIOLATION;
	default:	/* explained: a pending request, a stopped vCPU */
		if (judging->max_transition_ns && length > judging->max_transition_ns)
			return CA_JUDGED_VIOLATION;
		return CA_JUDGED_SKEW;
	}
}

void ca_causes_init(struct ca_causes *causes, struct ca_cause_events events)
{
	memset(causes, 0, sizeof(*causes));
	causes->lacks_tick_events = !events.has_tick_events;
	causes->lacks_wakeup_events = !events.has_wakeup_events;
}

int ca_causes_size(struct ca_causes *causes, size_t cpu_count)
{
	causes->cpus = calloc(cpu_count, sizeof(*causes->cpus));
	causes->cpu_count = causes->cpus ? cpu_count : 0;
	return causes->cpus || !cpu_count ? 0 : -ENOMEM;
}

void ca_causes_free(struct ca_causes *causes)
{
	free(causes->cpus);
	causes->cpus = NULL;
	causes->cpu_count = 0;
}

/* The mean interval around the most common one of @t; 0 below @min_intervals. */
static uint64_t period_of(const struct ca_tick_intervals *t, uint32_t min_intervals)
{
	uint64_t sum = 0, count = 0;
	int best = 0;

	if (!min_intervals || t->total < min_intervals)
		return 0;
	for (int i = 1; i < CA_TICK_BUCKETS; i++)
		if (t->counts[i] > t->counts[best])
			best = i;
	for (int i = best > 0 ? best - 1 : 0; i <= best + 1 && i < CA_TICK_BUCKETS; i++) {
		sum += t->sums_ns[i];
		count += t->counts[i];
	}
	return sum / count;
}

uint64_t ca_causes_period(const struct ca_causes *causes, uint32_t min_intervals)
{
	return period_of(causes->tick_timers.total >= min_intervals ? &causes->tick_timers :
			 &causes->timer_interrupts, min_intervals);
}

uint64_t ca_causes_tick_timer_period(const struct ca_causes *causes, uint32_t min_intervals)
{
	return period_of(&causes->tick_timers, min_intervals);
}

static void count_tick_interval(struct ca_causes *causes, struct ca_tick_intervals *t,
				uint64_t interval)
{
	uint64_t bucket = interval / TICK_BUCKET_NS;

	if (bucket >= CA_TICK_BUCKETS)
		return;
	t->counts[bucket]++;
	t->sums_ns[bucket] += interval;
	/* Settled once known: estimated again every PERIOD_REFRESH intervals. */
	if (++t->total == MIN_TICK_INTERVALS || !(t->total % PERIOD_REFRESH))
		causes->period_ns = ca_causes_period(causes, MIN_TICK_INTERVALS);
}

/* A running CPU shows an event at least every tick; a longer silence is a stopped vCPU. */
static bool is_stall(const struct ca_causes *causes, uint64_t silence)
{
	return causes->period_ns && silence > causes->period_ns + causes->period_ns / 4;
}

/*
 * A tick refutes a pending request (the CPU returned from an interrupt and
 * did not act on it) unless it is the overdue tick that a stopped vCPU
 * takes as it resumes: that one came in the middle of the work the stop
 * interrupted.  Once the trace shows the tick's own timer, another timer's
 * interrupt refutes nothing: it may have come during the softirq work that
 * follows a tick (load balancing: hundreds of us under an emulator), which
 * a kernel without preemption of kernel code does not leave for a pending
 * reschedule, and returned into it.
 */
static void note_tick(struct ca_causes *causes, struct ca_cpu_causes *c, const struct ca_event *ev)
{
	causes->has_seen_tick = true;
	if (ev->tick.is_tick_timer) {
		if (c->last_tick_timer)
			count_tick_interval(causes, &causes->tick_timers, ev->ts - c->last_tick_timer);
		c->last_tick_timer = ev->ts;
		causes->has_tick_timers = true;
	} else if (causes->has_tick_timers) {
		return;
	}
	if (c->last_tick && ev->ts - c->last_tick <= TICK_MERGE_NS)
		return;
	if (c->last_tick)
		count_tick_interval(causes, &causes->timer_interrupts, ev->ts - c->last_tick);
	/*
	 * A CPU in softirq work cannot reschedule until that work ends (past its
	 * 2 ms budget it wakes ksoftirqd): a tick then refutes no request.  Not
	 * past SOFTIRQ_HOLD_NS: an exit the trace lacks must not excuse forever.
	 */
	if ((!c->resumed_at || ev->ts - c->resumed_at > TICK_MERGE_NS) &&
	    !(c->softirq_depth && ev->ts - c->softirq_since <= SOFTIRQ_HOLD_NS))
		c->tick_seq++;
	c->last_tick = ev->ts;
}

/*
 * The longest stall, for windows without ipi events (struct ca_judging): of a
 * CPU surely running a task only (one not yet seen to switch, or in an idle
 * state, may be idle), and at most CA_RESPONSE_NS (a longer silence is no
 * vCPU an emulator stopped, but events missing: the state's "quiet").
 */
static void note_stall(struct ca_causes *causes, const struct ca_cpu_causes *c, uint64_t silence)
{
	if (c->is_surely_running && silence <= CA_RESPONSE_NS && silence > causes->longest_stall_ns)
		causes->longest_stall_ns = silence;
}

void ca_causes_track(struct ca_causes *causes, const struct ca_event *ev)
{
	struct ca_cpu_causes *c;

	if ((size_t)ev->cpu >= causes->cpu_count)
		return;		/* beyond the CPUs the trace declared */
	c = &causes->cpus[ev->cpu];

	if (ev->kind != CA_EV_LOST && c->last_event && !c->is_idle &&
	    is_stall(causes, ev->ts - c->last_event)) {
		c->resumed_at = ev->ts;
		note_stall(causes, c, ev->ts - c->last_event);
	}
	switch (ev->kind) {
	case CA_EV_IPI:
		if (ev->ipi.is_resched && ev->ipi.target_cpu >= 0 &&
		    (size_t)ev->ipi.target_cpu < causes->cpu_count)
			causes->cpus[ev->ipi.target_cpu].last_resched_ipi = ev->ts;
		break;
	case CA_EV_WAKEUP:
		causes->has_seen_wakeup |= !ev->wakeup.is_new;	/* a fork's tells nothing */
		if (ev->wakeup.target_cpu == ev->cpu)
			c->last_local_wakeup = ev->ts;
		break;
	case CA_EV_TICK:
		note_tick(causes, c, ev);
		break;
	case CA_EV_SWITCH:
		c->is_idle = ev->sw.next_pid == 0;
		c->is_surely_running = !c->is_idle;
		break;
	case CA_EV_IDLE:
		/* an idle state entered: it may be idle until its next switch */
		c->is_surely_running = c->is_surely_running && ev->idle.state == UINT32_MAX;
		break;
	case CA_EV_KERNEL:
		if (ev->kernel.what == CA_KERNEL_SOFTIRQ && ev->kernel.is_entry && !c->softirq_depth)
			c->softirq_since = ev->ts;
		if (ev->kernel.what == CA_KERNEL_SOFTIRQ)	/* softirqs do not nest */
			c->softirq_depth = ev->kernel.is_entry;
		break;
	case CA_EV_LOST:	/* whatever it was in is not known: ticks refute again */
		c->softirq_depth = 0;
		c->is_surely_running = false;
		break;
	default:
		break;
	}
	if (ev->kind != CA_EV_LOST)
		c->last_event = ev->ts;
}

/* The tasks on @cpu_a and @cpu_b, and their kernel cookies now. */
static void capture_cookies(struct ca_leaving *leaving, const struct ca_state *state,
			    int cpu_a, int cpu_b)
{
	leaving->opened_ns = state->last_ts;
	for (int i = 0; i < 2; i++) {
		const struct ca_task *task = ca_state_cpu_task(state, i ? cpu_b : cpu_a);

		leaving->pids[i] = task ? task->pid : -1;
		leaving->is_cookie_known[i] = task &&
					      ca_state_kernel_cookie(state, task, &leaving->cookies[i]);
	}
}

bool ca_causes_is_same_cookie(const struct ca_leaving *leaving, const struct ca_state *state)
{
	uint64_t cookies[2];

	for (int i = 0; i < 2; i++) {
		const struct ca_task *task = leaving->pids[i] > 0 ?
			ca_tasks_lookup(&state->tasks, leaving->pids[i]) : NULL;

		if (!task || !ca_state_kernel_cookie(state, task, &cookies[i]))
			return false;
		/* Changed during the window: the kernel was asked, at some point. */
		if (leaving->is_cookie_known[i] && leaving->cookies[i] != cookies[i])
			return false;
		if (task->is_prctl_touched && task->cookie_change_to >= leaving->opened_ns)
			return false;
	}
	return cookies[0] == cookies[1];
}

struct ca_leaving ca_causes_capture(const struct ca_causes *causes, const struct ca_state *state,
				    int cpu_a, int cpu_b)
{
	uint64_t since_a = state->cpus[cpu_a].since, since_b = state->cpus[cpu_b].since;
	struct ca_leaving leaving = { .cpu = since_a < since_b ? cpu_a :
					     since_b < since_a ? cpu_b : -1 };
	const struct ca_cpu_causes *c;
	uint64_t since;

	capture_cookies(&leaving, state, cpu_a, cpu_b);
	leaving.arriving_cpu = leaving.cpu == cpu_a ? cpu_b : leaving.cpu == cpu_b ? cpu_a : -1;
	if (leaving.cpu < 0)
		return leaving;
	c = &causes->cpus[leaving.cpu];
	since = state->cpus[leaving.cpu].since;
	leaving.has_ipi = c->last_resched_ipi > since;
	leaving.has_wakeup = c->last_local_wakeup > since;
	leaving.has_tick = c->last_tick > since;
	leaving.tick_seq = c->tick_seq;
	return leaving;
}

/* What of [@from, @now) lay in a silence of @cpu ending at @now that was a stall. */
static uint64_t stalled(const struct ca_causes *causes, int cpu, uint64_t from, uint64_t now)
{
	uint64_t last = causes->cpus[cpu].last_event;

	if (!last || last >= now || !is_stall(causes, now - last))
		return 0;
	return now > from ? now - (last > from ? last : from) : 0;
}

void ca_causes_add_stalled(const struct ca_causes *causes, struct ca_leaving *leaving,
			   uint64_t from, uint64_t now)
{
	if (leaving->cpu >= 0)
		leaving->stalled_ns += stalled(causes, leaving->cpu, from, now);
}

void ca_causes_note_event(const struct ca_causes *causes, struct ca_leaving *leaving,
			  uint64_t start, const struct ca_event *ev)
{
	if (ev->kind == CA_EV_LOST)
		return;
	if (ev->cpu == leaving->cpu)
		ca_causes_add_stalled(causes, leaving, start, ev->ts);
	ca_causes_note_kick(leaving, start, ev);
}

static bool has_core(const int *cores, int count, int core)
{
	for (int i = 0; i < count; i++)
		if (cores[i] == core)
			return true;
	return false;
}

int ca_causes_event_cores(const struct ca_topology *topo, const struct ca_event *ev, int *cores)
{
	int count = 0, core = ca_topology_core_of(topo, ev->cpu);

	if (core >= 0)
		cores[count++] = core;
	if (ev->kind != CA_EV_IPI || !ev->ipi.is_resched)
		return count;
	core = ca_topology_core_of(topo, ev->ipi.target_cpu);
	if (core >= 0 && !has_core(cores, count, core))
		cores[count++] = core;
	return count;
}

void ca_causes_note_kick(struct ca_leaving *leaving, uint64_t start, const struct ca_event *ev)
{
	int cpu = leaving->arriving_cpu;

	if (cpu < 0 || leaving->has_arriving_kick || ev->kind != CA_EV_IPI ||
	    !ev->ipi.is_resched || ev->ipi.target_cpu != cpu || ev->ts < start)
		return;
	leaving->has_arriving_kick = true;
	leaving->arriving_kick_ns = ev->ts - start;
}

enum ca_window_cause ca_causes_classify(const struct ca_causes *causes,
					const struct ca_leaving *leaving, uint64_t length,
					uint64_t grace_ns)
{
	if (leaving->cpu < 0)
		return CA_CAUSE_UNEXPLAINED;
	if (leaving->has_ipi)
		return CA_CAUSE_RESCHED_IPI;
	if (leaving->has_wakeup)
		return CA_CAUSE_RESCHED_WAKEUP;
	if (leaving->has_tick && causes->cpus[leaving->cpu].tick_seq == leaving->tick_seq)
		return CA_CAUSE_RESCHED_TICK;
	/* A later pick sent the arriving sibling away, soon enough: a transition. */
	if (leaving->has_arriving_kick && leaving->arriving_kick_ns < grace_ns)
		return CA_CAUSE_RESCHED_IPI;
	if (leaving->stalled_ns &&
	    (leaving->stalled_ns >= length || length - leaving->stalled_ns < grace_ns))
		return CA_CAUSE_VCPU_STALL;
	/* A wakeup on it may have set need-resched (so no IPI was due), unseen. */
	if (causes->lacks_wakeup_events || !causes->has_seen_wakeup)
		return CA_CAUSE_UNKNOWN;
	/* Its tick may have set need-resched, unseen (a trace can define them, yet hold none). */
	if ((causes->lacks_tick_events || !causes->has_seen_tick) &&
	    length <= CA_TICK_WINDOW_MAX_NS)
		return CA_CAUSE_UNKNOWN;
	/*
	 * Its tick before the pick may have set need-resched (so no IPI was
	 * due) while it ran kernel code, which a kernel without preemption of
	 * kernel code leaves only at a cond_resched() or the return to user
	 * space, past further ticks: a lost kick looks the same in these events.
	 */
	if (leaving->has_tick && length <= CA_TICK_WINDOW_MAX_NS)
		return CA_CAUSE_UNKNOWN;
	return CA_CAUSE_UNEXPLAINED;
}
