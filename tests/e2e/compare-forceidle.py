#!/usr/bin/env python3
"""compare-forceidle.py AUDIT.json NAME.tasks: per workload task, coreaudit's
kernel-terms forced idle against the kernel's core_forceidle_sum.

Prints one line per task: pid group kernel_ns coreaudit_ns error%.
Exit 0; the caller judges the errors."""
import json
import re
import sys

audit = json.load(open(sys.argv[1]))
ours = {t["pid"]: t["kernel_ns"] for t in audit["forced_idle"]["per_task"]}
for line in open(sys.argv[2]):
    m = re.match(r"task pid=(\d+) group=(\S+) cookie=(\S+) forceidle_ns=(\d+)", line)
    if not m:
        continue
    pid, group, kernel = int(m.group(1)), m.group(2), int(m.group(4))
    mine = ours.get(pid, 0)
    error = 100.0 * (mine - kernel) / kernel if kernel else (0.0 if mine == 0 else float("inf"))
    print(f"{pid} {group} {kernel} {mine} {error:+.2f}")
