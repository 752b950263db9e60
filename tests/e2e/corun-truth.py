#!/usr/bin/env python3
# corun-truth.py - how long two tasks ran at the same time, from `trace-cmd
# report -t` text alone (independent of coreaudit): each CPU's current task
# follows its sched_switch lines; the time both PID_A and PID_B were current
# on CPUs of CPULIST is summed.  Prints the nanoseconds.
#
#   corun-truth.py REPORT.txt PID_A PID_B CPULIST (e.g. 0,1)
import re
import sys

# trace-cmd's sched_switch plugin prints "prev:pid [prio] S ==> next:pid [prio]";
# without the plugin the fields are named (next_pid=...)
switch = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched_switch:.*'
                    r'(?:==> .*:(\d+) \[-?\d+\]\s*$|next_pid=(\d+))')


def overlap(lines, a, b, cpus):
    current = {}
    both_since, total = None, 0
    for line in lines:
        m = switch.search(line)
        if not m or int(m.group(1)) not in cpus:
            continue
        # -t prints nanoseconds; pad a shorter fraction (microseconds) to them
        ns = int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, '0')[:9])
        current[int(m.group(1))] = int(m.group(4) or m.group(5))
        running = set(current.values())
        if a in running and b in running:
            if both_since is None:
                both_since = ns
        elif both_since is not None:
            total += ns - both_since
            both_since = None
    return total


def main():
    report, a, b, cpulist = sys.argv[1:5]
    cpus = {int(c) for c in cpulist.split(',')}
    with open(report, errors='replace') as f:
        print(overlap(f, int(a), int(b), cpus))


if __name__ == '__main__':
    main()
