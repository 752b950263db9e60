#!/usr/bin/env python3
"""kernel-truth.py REPORT.txt CPUS: the time each CPU of CPUS ("0,1") spent in
irq and in softirq handlers, from `trace-cmd report -t` text, independently of
coreaudit: between an irq_handler_entry and its exit (irq), between a
softirq_entry and its exit outside an irq (softirq), counted from the CPU's
first sched_switch on (before it, coreaudit does not know what the CPU ran).
Prints "IRQ_NS SOFTIRQ_NS"."""
import re
import sys

LINE = re.compile(r'^\s*.*?\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\w+):')


def main():
    cpus = {int(c) for c in sys.argv[2].split(',')}
    depth = {c: [0, 0] for c in cpus}      # irq, softirq nesting
    since = {}                              # the time its nesting last changed
    seen = set()                            # CPUs whose first sched_switch was read
    total = [0, 0]
    with open(sys.argv[1], errors='replace') as report:
        for line in report:
            m = LINE.match(line)
            if not m or int(m.group(1)) not in cpus:
                continue
            cpu, event = int(m.group(1)), m.group(4)
            ts = int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, '0')[:9])
            if event == 'sched_switch':
                seen.add(cpu)
            which = {'irq_handler_entry': (0, 1), 'irq_handler_exit': (0, -1),
                     'softirq_entry': (1, 1), 'softirq_exit': (1, -1)}.get(event)
            if not which:
                continue
            d = depth[cpu]
            if cpu in seen and cpu in since and (d[0] or d[1]):
                total[0 if d[0] else 1] += ts - since[cpu]
            d[which[0]] = max(0, d[which[0]] + which[1])
            since[cpu] = ts
    print(total[0], total[1])


main()
