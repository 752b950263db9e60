#!/usr/bin/env python3
"""drop-lines.py - a copy of `trace-cmd report -t` text with events missing,
reproducibly (seeded), the way hosts and damaged files lose them.

usage: drop-lines.py IN OUT SEED KIND
KIND is one of:
  lines   2% of the event lines, one by one
  blocks  a few runs of 50 to 2000 event lines
  quiet   every line of one CPU over 120 to 400 ms (its ticks too)
  pids    1% of the lines shown by another task than the one that ran
  end     the text cut after a random event line
Irq and softirq entries and exits stay (but for quiet and end), so what
runs between them is the test: where the CPU was observed.  Header lines
(before the first event) always stay.
"""
import random
import re
import sys

EVENT = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\w+):')


def is_handler(m):
    return m.group(5).startswith(('irq_handler_', 'softirq_'))


def drop(lines, rnd, kind):
    parsed = [EVENT.match(line) for line in lines]
    stamps = [float(m.group(4)) for m in parsed if m]
    cpus = sorted({m.group(3) for m in parsed if m})
    quiet_from = rnd.uniform(stamps[0], stamps[-1])
    quiet_to, quiet_cpu = quiet_from + rnd.uniform(0.12, 0.4), rnd.choice(cpus)
    out, skipping = [], 0
    for line, m in zip(lines, parsed):
        if not m:
            out.append(line)
        elif kind == 'quiet':
            if not (m.group(3) == quiet_cpu and quiet_from <= float(m.group(4)) <= quiet_to):
                out.append(line)
        elif is_handler(m) or kind == 'end':
            out.append(line)
        elif kind == 'lines' and rnd.random() < 0.02:
            continue
        elif kind == 'blocks' and (skipping or rnd.random() < 0.0005):
            skipping = skipping - 1 if skipping else rnd.randint(50, 2000)
        elif kind == 'pids' and rnd.random() < 0.01:
            at = m.start(2)
            out.append(line[:at] + '9' + line[at:])
        else:
            out.append(line)
    if kind == 'end':
        events = [i for i, m in enumerate(parsed) if m]
        out = out[:rnd.choice(events[len(events) // 10:]) + 1]
    return out


def main():
    src, dst, seed, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    if kind not in ('lines', 'blocks', 'quiet', 'pids', 'end'):
        sys.exit(f'drop-lines.py: unknown kind {kind}')
    with open(src, errors='replace') as f:
        lines = f.readlines()
    with open(dst, 'w') as f:
        f.writelines(drop(lines, random.Random(seed), kind))


if __name__ == '__main__':
    main()
