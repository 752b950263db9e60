#!/usr/bin/env python3
# corun-truth.py - how long two tasks ran at the same time, from `trace-cmd
# report -t` text alone (independent of coreaudit).  Each CPU runs the task a
# sched_switch put there; every other event line shows the task current when
# it was recorded.  Right after a switch, IPI sends within 10 ms may still
# show the task that left (the switch's tail: the ring buffer's irq_work IPI,
# in the same __schedule); a line showing any other task than the one
# believed current means a switch is missing, and what that CPU ran since its
# previous line is not known: that stretch counts for neither task.  The time
# PID_A and PID_B both ran on CPUs of CPULIST is printed, in nanoseconds.
# With --tagged, only from the first coreaudit-tag marker of the two (they
# carry different tags; before it both are untagged, one group for --tags
# markers).
#
#   corun-truth.py [--tagged] REPORT.txt PID_A PID_B CPULIST (e.g. 0,1)
import re
import sys

line_re = re.compile(r'^\s*.*?-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):')
# trace-cmd's sched_switch plugin prints "prev:pid [prio] S ==> next:pid [prio]";
# without the plugin the fields are named (next_pid=...)
next_re = re.compile(r'==> .*:(\d+) \[-?\d+\]\s*$|next_pid=(\d+)')
tag_re = re.compile(r'coreaudit-tag pid=(\d+) ')
TAIL_NS = 10000000


class Cpu:
    def __init__(self, ns, pid):
        self.pid, self.since, self.last, self.tail = pid, ns, ns, None
        self.segments = []      # (start, end, pid) of known stretches

    def close(self, ns):
        if self.pid is not None and ns > self.since:
            self.segments.append((self.since, ns, self.pid))

    def event(self, ns, shown, is_switch, next_pid, is_ipi=False):
        if shown != self.pid and not (shown == self.tail and is_ipi and
                                      ns - self.since <= TAIL_NS):
            # unknown from the last line to this one; in a tail, from the switch
            self.close(self.since if self.tail is not None else self.last)
            self.pid, self.since = shown, ns
        if is_switch:
            self.close(ns)
            self.pid, self.since, self.tail = next_pid, ns, shown
        elif shown == self.pid:
            self.tail = None
        self.last = ns


def read(lines, cpus):
    state, tags = {}, {}
    for line in lines:
        t = tag_re.search(line)
        m = line_re.match(line)
        if not m:
            continue
        # -t prints nanoseconds; pad a shorter fraction (microseconds) to them
        ns = int(m.group(3)) * 10**9 + int(m.group(4).ljust(9, '0')[:9])
        if t:
            tags.setdefault(int(t.group(1)), ns)
        cpu, shown = int(m.group(2)), int(m.group(1))
        if cpu not in cpus or m.group(5) == 'cs_switch':
            continue                        # the cookie probe: inside __schedule, prev's pid
        is_switch = m.group(5) == 'sched_switch'
        n = next_re.search(line) if is_switch else None
        if cpu not in state:
            state[cpu] = Cpu(ns, shown)
        state[cpu].event(ns, shown, is_switch, int(n.group(1) or n.group(2)) if n else shown,
                         m.group(5).startswith('ipi_send_cpu'))
    for c in state.values():
        c.close(c.last)
    return state, tags


def overlap(state, a, b, start):
    of = lambda pid: [(s, e) for c in state.values() for s, e, p in c.segments if p == pid]
    total = 0
    for s1, e1 in of(a):
        for s2, e2 in of(b):
            total += max(0, min(e1, e2) - max(s1, s2, start))
    return total


def main():
    tagged = sys.argv[1] == '--tagged'
    report, a, b, cpulist = sys.argv[1 + tagged:5 + tagged]
    a, b = int(a), int(b)
    with open(report, errors='replace') as f:
        state, tags = read(f, {int(c) for c in cpulist.split(',')})
    start = 0
    if tagged:
        start = min((tags[p] for p in (a, b) if p in tags), default=None)
    print(0 if start is None else overlap(state, a, b, start))


if __name__ == '__main__':
    main()
