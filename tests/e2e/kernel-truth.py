#!/usr/bin/env python3
"""kernel-truth.py REPORT.txt CPUS: the time each CPU of CPUS ("0,1", one
core) spent in irq and in softirq handlers, from `trace-cmd report -t` text,
independently of coreaudit: between an irq_handler_entry and its exit (irq),
between a softirq_entry and its exit outside an irq (softirq), counted from
the CPU's first sched_switch on (before it, coreaudit does not know what the
CPU ran), and only while the core was observed.  The core is unobserved
from a CPU's last event before an event that contradicts the task its last
sched_switch put there (a switch missing from the trace: some hosts hide
a task's events) up to that event, and from its last event before lost
events up to its next; lost events also end what the CPU was in.
Prints "IRQ_NS SOFTIRQ_NS"."""
import re
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
LOST = re.compile(r'^CPU:(\d+) \[(?:LOST \d+ EVENTS|EVENTS DROPPED)\]')
SWITCH = re.compile(r'^(?:.*?):(\d+) \[-?\d+\] \S+ ==> (?:.*?):(\d+) \[')


# The events coreaudit reads (src/util/event.c); an hrtimer only when it is the tick's.
READ = {'sched_switch', 'sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task',
        'sched_process_fork', 'sched_process_exit', 'sched_process_exec', 'cpu_idle',
        'ipi_send_cpu', 'ipi_send_cpumask', 'local_timer_entry', 'hrtimer_expire_entry',
        'sys_enter_prctl', 'sys_exit_prctl', 'irq_handler_entry', 'irq_handler_exit',
        'softirq_entry', 'softirq_exit', 'sys_enter', 'sys_exit', 'print', 'cs_switch'}


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


def unobserved(path, cpus):
    """The core's unobserved stretches [(from, to)]."""
    current, leaving, last, lost_since, stretches = {}, {}, {}, {}, []
    for cpu, ts, event, pid, rest in events(path, cpus):
        if event == 'lost':
            lost_since[cpu] = last.get(cpu, 0)
            current.pop(cpu, None)
            continue
        if cpu in lost_since:
            stretches.append((lost_since.pop(cpu), ts))
        sw = SWITCH.match(rest) if event == 'sched_switch' else None
        who = int(sw.group(1)) if sw else pid
        if event != 'cs_switch' and cpu in current and who != current[cpu] and \
                not (not sw and who == leaving.get(cpu)):
            stretches.append((last[cpu], ts))
            current[cpu] = who      # believed from here on
            leaving.pop(cpu, None)
        if sw:
            current[cpu], leaving[cpu] = int(sw.group(2)), int(sw.group(1))
        elif event != 'cs_switch' and cpu in current and who == current[cpu]:
            leaving.pop(cpu, None)
        elif event != 'cs_switch' and cpu not in current:
            current[cpu] = who
        last[cpu] = ts
    return stretches


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
    stretches = unobserved(sys.argv[1], cpus)
    depth = {c: [0, 0] for c in cpus}      # irq, softirq nesting
    since = {}                              # the time its nesting last changed
    seen = set()                            # CPUs whose first sched_switch was read
    total = [0, 0]
    for cpu, ts, event, _, _ in events(sys.argv[1], cpus):
        if event == 'lost':
            depth[cpu] = [0, 0]
            continue
        if event == 'sched_switch':
            seen.add(cpu)
        which = {'irq_handler_entry': (0, 1), 'irq_handler_exit': (0, -1),
                 'softirq_entry': (1, 1), 'softirq_exit': (1, -1)}.get(event)
        if not which:
            continue
        d = depth[cpu]
        if cpu in seen and cpu in since and (d[0] or d[1]):
            total[0 if d[0] else 1] += observed(since[cpu], ts, stretches)
        d[which[0]] = max(0, d[which[0]] + which[1])
        since[cpu] = ts
    print(total[0], total[1])


main()
