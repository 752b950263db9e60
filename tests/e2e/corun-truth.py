#!/usr/bin/env python3
# corun-truth.py - how long two tasks ran at the same time, from `trace-cmd
# report -t` text alone (independent of coreaudit): each CPU's current task
# is the pid every event line of that CPU shows (the task running when it was
# recorded) and, after a sched_switch, its next task; the time both PID_A and
# PID_B were current on CPUs of CPULIST is summed.  Prints the nanoseconds.
# With --tagged, the two (of different tags) count only once either has had
# its coreaudit-tag marker: before, both are untagged, in the same group for
# --tags markers; after, an untagged task and a tagged one are not.
#
#   corun-truth.py [--tagged] REPORT.txt PID_A PID_B CPULIST (e.g. 0,1)
import re
import sys

line_re = re.compile(r'^\s*.*?-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):')
# trace-cmd's sched_switch plugin prints "prev:pid [prio] S ==> next:pid [prio]";
# without the plugin the fields are named (next_pid=...)
next_re = re.compile(r'==> .*:(\d+) \[-?\d+\]\s*$|next_pid=(\d+)')
tag_re = re.compile(r'coreaudit-tag pid=(\d+) ')


def overlap(lines, a, b, cpus, tagged):
    current, waiting = {}, {a, b} if tagged else set()
    both_since, total = None, 0
    for line in lines:
        m = line_re.match(line)
        t = tag_re.search(line) if waiting else None
        if t:
            waiting.discard(int(t.group(1)))
        if not m or int(m.group(2)) not in cpus:
            continue
        cpu = int(m.group(2))
        # -t prints nanoseconds; pad a shorter fraction (microseconds) to them
        ns = int(m.group(3)) * 10**9 + int(m.group(4).ljust(9, '0')[:9])
        current[cpu] = int(m.group(1))
        if m.group(5) == 'sched_switch':
            n = next_re.search(line)
            if n:
                current[cpu] = int(n.group(1) or n.group(2))
        running = set(current.values())
        if a in running and b in running and len(waiting) < 2:
            if both_since is None:
                both_since = ns
        elif both_since is not None:
            total += ns - both_since
            both_since = None
    return total


def main():
    tagged = sys.argv[1] == '--tagged'
    report, a, b, cpulist = sys.argv[1 + tagged:5 + tagged]
    cpus = {int(c) for c in cpulist.split(',')}
    with open(report, errors='replace') as f:
        print(overlap(f, int(a), int(b), cpus, tagged))


if __name__ == '__main__':
    main()
