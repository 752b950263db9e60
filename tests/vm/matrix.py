#!/usr/bin/env python3
"""matrix.py SEED - draw one harness workload from the matrix of issue 15.

Prints the workload's groups (tests/workload/workload.c's GROUP syntax,
comma-separated) for the seeded draw:
  - 1 to 4 groups of 1 to 3 tasks each, duty 20% to 100% in steps of 10,
    each group its own cookie (A, B, C, D);
  - with two groups or more, one of them untagged (cookie 0, named U) in
    half the draws;
  - in a third of the draws, one more group of one SCHED_FIFO task (R),
    duty 20% to 60%, with a cookie of its own or none (a realtime task at
    full duty would leave the guest's own tasks, trace-cmd included, only
    what RT throttling spares).
The same seed gives the same workload on any machine (Python's Mersenne
Twister with an integer seed)."""
import random
import sys


def draw(seed):
    rng = random.Random(seed)
    count = rng.randint(1, 4)
    groups = []
    untagged = rng.randrange(count) if count >= 2 and rng.random() < 0.5 else -1
    for i in range(count):
        name, cookie = ("U", 0) if i == untagged else ("ABCD"[i], 1)
        groups.append(f"{name}:{rng.randint(1, 3)}:{rng.randrange(20, 101, 10)}:{cookie}:o")
    if rng.random() < 1 / 3:
        groups.append(f"R:1:{rng.randrange(20, 61, 10)}:{rng.randint(0, 1)}:f")
    return ",".join(groups)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: matrix.py SEED")
    print(draw(int(sys.argv[1])))
