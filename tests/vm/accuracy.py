#!/usr/bin/env python3
"""accuracy.py FILE [MIN_MS] - the error distribution of accuracy.sh's lines
("seed pid group kernel_ns coreaudit_ns error%"): over the tasks the kernel
charged more than MIN_MS (default 100) ms of forced idle, the median, 90th
percentile and largest absolute error, the share within 1%, 3% and 5%, the
same by kind of group (tagged, untagged U, SCHED_FIFO R), and the worst
tasks with their seeds."""
import statistics
import sys


def summary(label, rows):
    errors = sorted(abs(r[4]) for r in rows)
    if not errors:
        return f"{label:10s} no task"
    share = lambda bound: 100.0 * sum(e <= bound for e in errors) / len(errors)
    p90 = errors[min(len(errors) - 1, int(0.9 * len(errors)))]
    return (f"{label:10s} {len(errors):4d} tasks  median {statistics.median(errors):5.2f}%  "
            f"p90 {p90:5.2f}%  max {errors[-1]:6.2f}%  within 1%: {share(1):5.1f}%  "
            f"3%: {share(3):5.1f}%  5%: {share(5):5.1f}%")


def main():
    min_ns = float(sys.argv[2] if len(sys.argv) > 2 else 100) * 1e6
    rows = []
    try:
        lines = open(sys.argv[1]).readlines()
    except OSError as e:
        sys.exit(f"accuracy.py: {e.filename}: {e.strerror} (no run compared)")
    for line in lines:
        seed, pid, group, kernel, ours, error = line.split()
        rows.append((int(seed), int(pid), group, int(kernel), float(error)))
    judged = [r for r in rows if r[3] > min_ns]
    print(f"{len({r[0] for r in rows})} runs, {len(rows)} tasks, "
          f"{len(judged)} with more than {min_ns / 1e6:g} ms of forced idle")
    print(summary("all", judged))
    print(summary("tagged", [r for r in judged if r[2] not in ("U", "R")]))
    print(summary("untagged", [r for r in judged if r[2] == "U"]))
    print(summary("fifo", [r for r in judged if r[2] == "R"]))
    for r in sorted(judged, key=lambda r: -abs(r[4]))[:8]:
        print(f"  seed {r[0]} task {r[1]} ({r[2]}): kernel {r[3] / 1e6:.1f} ms, error {r[4]:+.2f}%")


if __name__ == "__main__":
    main()
