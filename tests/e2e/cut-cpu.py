#!/usr/bin/env python3
"""cut-cpu.py - drop one CPU's events from `trace-cmd report` text.

usage: cut-cpu.py IN OUT CPU FRACTION [before]
Every event line of CPU after FRACTION of the trace's span (0.4: the last
60%) is dropped, or with "before" every one before it; FRACTION 0 drops them
all.  Other lines stay as they are,
so the other CPUs go on sending IPIs and waking tasks onto the cut CPU.
"""
import re
import sys

EVENT = re.compile(r'\[(\d+)\]\s+(\d+\.\d+):')


def main():
    src, dst, cpu, fraction = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    is_before = sys.argv[5:] == ['before']
    with open(src) as f:
        lines = f.readlines()
    stamps = [float(m.group(2)) for m in map(EVENT.search, lines) if m]
    cut = stamps[0] + fraction * (stamps[-1] - stamps[0])
    with open(dst, 'w') as out:
        for line in lines:
            m = EVENT.search(line)
            if m and int(m.group(1)) == cpu and (fraction == 0 or
                                                 (float(m.group(2)) > cut) != is_before):
                continue
            out.write(line)


if __name__ == '__main__':
    main()
