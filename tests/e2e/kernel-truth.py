#!/usr/bin/env python3
"""kernel-truth.py REPORT.txt CPUS: the time each CPU of CPUS ("0,1", one
core) spent in irq and in softirq handlers, from `trace-cmd report -t` text,
independently of coreaudit: between an irq_handler_entry and its exit (irq),
between a softirq_entry and its exit outside an irq (softirq), or the end of
the trace, and only while the core was observed.  What a CPU ran is the task
its last sched_switch put there; every other line shows the task current
when it was recorded.  The core is unobserved, as the README's "What the
trace must show" says:
- from a CPU's last line to a line showing another task than the one it
  believed current (a switch missing from the trace: some hosts hide a
  task's events); from the switch when IPI sends within 10 ms of it showed
  the task that left (the switch's tail), which confirm nothing;
- from a CPU's last line to its next line when its task was switched in on
  another CPU meanwhile (its switch out here missing); and while its lines
  still show that task (they came late), up to a line showing another or a
  switch, that CPU's own handler time does not count (its task not known);
- from a CPU's last line before lost events up to its next line;
- from a CPU's last line to its next when another CPU asked it for something
  (an IPI, a wakeup or migration onto it) more than 100 ms before that, or
  when it ran a task and showed nothing but ticks for more than 100 ms while
  the trace has ticks (events cut out).
Lost events also end what the CPU was in.  Prints "IRQ_NS SOFTIRQ_NS"."""
import re
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
LOST = re.compile(r'^CPU:(\d+) \[(?:LOST \d+ EVENTS|(?:\d+ )?EVENTS DROPPED)\]')
SWITCH = re.compile(r'^(?:.*?):(\d+) \[-?\d+\] \S+ ==> (?:.*?):(\d+) \[')


# The events coreaudit reads (src/util/event.c); an hrtimer only when it is the tick's.
READ = {'sched_switch', 'sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task',
        'sched_process_fork', 'sched_process_exit', 'sched_process_exec', 'cpu_idle',
        'ipi_send_cpu', 'ipi_send_cpumask', 'local_timer_entry', 'hrtimer_expire_entry',
        'sys_enter_prctl', 'sys_exit_prctl', 'irq_handler_entry', 'irq_handler_exit',
        'softirq_entry', 'softirq_exit', 'sys_enter', 'sys_exit', 'print', 'cs_switch'}
TICKS = {'local_timer_entry', 'hrtimer_expire_entry'}


def events(path, cpus):
    """(cpu, ts, event, common_pid, rest) of the events coreaudit reads, and
    (cpu, None, 'lost', ...) for lost events."""
    with open(path, errors='replace') as report:
        for line in report:
            lost = LOST.match(line)
            if lost and int(lost.group(1)) in cpus:
                yield int(lost.group(1)), None, 'lost', -1, ''
                continue
            m = LINE.match(line)
            if m and m.group(6) == 'hrtimer_expire_entry' and 'function=tick_' not in m.group(7):
                continue
            if m and int(m.group(3)) in cpus and m.group(6) in READ:
                ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, '0')[:9])
                yield int(m.group(3)), ts, m.group(6), int(m.group(2)), m.group(7)


TAIL_NS = 10**7          # the switch's tail: IPI sends of the task that left
RESPONSE_NS = 10**8      # a CPU asked for something answers within it; a running one ticks
TARGET = re.compile(r'(?:^cpu=|CPU:|target_cpu=|dest_cpu=)(\d+)')


def targets(event, rest):
    """The CPUs an IPI, a wakeup or a migration asks to act."""
    if event == 'ipi_send_cpumask':
        mask = re.match(r'cpumask=(\S+)', rest)
        cpus = set()
        for part in (mask.group(1).split(',') if mask else []):
            low, _, high = part.partition('-')
            if low.isdigit():
                cpus.update(range(int(low), int(high or low) + 1))
        return cpus
    if event in ('ipi_send_cpu', 'sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task'):
        return {int(m.group(1)) for m in TARGET.finditer(rest)}
    return set()


class Cpu:
    """What the state believes of one CPU."""
    def __init__(self):
        self.run, self.pid = None, 0    # 'task', 'idle' or None (not known)
        self.since, self.last = None, None
        self.tail = None                # the pid that left, while in the switch's tail
        self.taken = None               # [pid, ts, counted]: its task went elsewhere
        self.demand = None              # since when another CPU waits for it


class Core:
    def __init__(self, cpus):
        self.cpus = {c: Cpu() for c in cpus}
        self.running = {}               # pid -> the CPU it was put on
        self.stretches, self.ticks, self.first = [], 0, None

    def missed(self, c, ts):
        self.stretches.append((c.since if c.tail is not None else c.last, ts))
        c.tail = None

    def forget(self, c):
        c.tail = None
        if c.taken:
            c.taken[2] = True
        c.run = None

    def put(self, cpu, pid, ts):
        c = self.cpus[cpu]
        c.since, c.taken = ts, None
        c.run, c.pid = ('task' if pid > 0 else 'idle'), pid
        if pid <= 0:
            return
        other = self.running.get(pid)
        if other is not None and other != cpu and self.cpus[other].pid == pid:
            left = self.cpus[other]
            left.taken = [pid, ts, left.run != 'task']
            left.run = None
        self.running[pid] = cpu

    def end_silence(self, cpu, ts, event):
        c = self.cpus[cpu]
        since = c.last if c.last is not None else self.first
        unanswered = c.demand is not None and ts > c.demand and ts - c.demand > RESPONSE_NS
        quiet = self.ticks and c.last is not None and c.run == 'task' and c.pid > 0 and \
            event not in TICKS and ts > c.last + RESPONSE_NS
        if unanswered or quiet:
            self.stretches.append((since, ts))
            self.forget(c)
        c.demand = None
        self.ticks += event in TICKS

    def settle(self, cpu, ts, event, shown):
        c = self.cpus[cpu]
        if c.run is not None and c.pid == shown:
            c.tail = None
            return
        if c.tail is not None and shown == c.tail and event.startswith('ipi_send_cpu') and \
                ts - c.since <= TAIL_NS:
            return
        if c.run is not None:
            self.missed(c, ts)
        elif c.taken:
            pid, at, counted = c.taken
            if not counted and not (shown == pid and event == 'sched_switch' and ts == at):
                self.missed(c, ts)
            c.taken[2] = True
            if shown == pid:
                self.unknown_since.setdefault(cpu, ts)
                return
        self.end_unknown(cpu, ts)
        self.put(cpu, shown, ts)

    def end_unknown(self, cpu, ts):
        """What the CPU ran is known again: its own handler time counts from here."""
        if cpu in self.unknown_since:
            self.unknown_spans.setdefault(cpu, []).append((self.unknown_since.pop(cpu), ts))

    def event(self, cpu, ts, event, pid, rest):
        c = self.cpus[cpu]
        if self.first is None:
            self.first = ts
        for target in targets(event, rest):
            if target != cpu and target in self.cpus and self.cpus[target].demand is None:
                self.cpus[target].demand = ts
        self.end_silence(cpu, ts, event)
        sw = SWITCH.match(rest) if event == 'sched_switch' else None
        if event != 'cs_switch':
            self.settle(cpu, ts, event, int(sw.group(1)) if sw else pid)
        if sw:
            prev, nxt = int(sw.group(1)), int(sw.group(2))
            self.end_unknown(cpu, ts)   # the switch puts its next task there
            if c.taken is None or c.taken[0] != prev:
                self.running.pop(prev, None)
            self.put(cpu, nxt, ts)
            c.tail = prev if prev != nxt else None
        c.last = ts

    def finish(self):
        end = max((c.last for c in self.cpus.values() if c.last is not None), default=0)
        for cpu, c in self.cpus.items():
            if c.demand is not None and end - c.demand > RESPONSE_NS and c.last is not None:
                self.stretches.append((c.last, end))
            if c.taken and not c.taken[2]:
                self.missed(c, end)
            self.end_unknown(cpu, end)


def unobserved(path, cpus):
    """The core's unobserved stretches [(from, to)], and per CPU the spans
    its own handler time does not count (its task not known: late lines of a
    task switched in elsewhere)."""
    core, lost_since = Core(cpus), {}
    core.unknown_since, core.unknown_spans = {}, {}
    for cpu, ts, event, pid, rest in events(path, cpus):
        c = core.cpus[cpu]
        if event == 'lost':
            lost_since[cpu] = c.last if c.last is not None else 0
            core.forget(c)
            c.demand = None
            continue
        if cpu in lost_since:
            core.stretches.append((lost_since.pop(cpu), ts))
        core.event(cpu, ts, event, pid, rest)
    core.finish()
    return core.stretches, core.unknown_spans


def observed(start, end, stretches):
    """How much of [start, end) no stretch covers."""
    cut = sorted((max(a, start), min(b, end)) for a, b in stretches if a < end and b > start)
    total, at = 0, start
    for a, b in cut:
        if a > at:
            total += a - at
        at = max(at, b)
    return total + max(0, end - at)


def main():
    cpus = {int(c) for c in sys.argv[2].split(',')}
    stretches, unknown = unobserved(sys.argv[1], cpus)
    depth = {c: [0, 0] for c in cpus}      # irq, softirq nesting
    since = {}                              # the time its nesting last changed
    total, end = [0, 0], 0
    for cpu, ts, event, _, _ in events(sys.argv[1], cpus):
        if event == 'lost':
            depth[cpu] = [0, 0]
            continue
        end = max(end, ts)
        which = {'irq_handler_entry': (0, 1), 'irq_handler_exit': (0, -1),
                 'softirq_entry': (1, 1), 'softirq_exit': (1, -1)}.get(event)
        if not which:
            continue
        d = depth[cpu]
        if cpu in since and (d[0] or d[1]):
            total[0 if d[0] else 1] += observed(since[cpu], ts, stretches + unknown.get(cpu, []))
        d[which[0]] = max(0, d[which[0]] + which[1])
        since[cpu] = ts
    for cpu, d in depth.items():            # a handler the trace ends in: up to its end
        if cpu in since and (d[0] or d[1]):
            total[0 if d[0] else 1] += observed(since[cpu], end, stretches + unknown.get(cpu, []))
    print(total[0], total[1])


main()
