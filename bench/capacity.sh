#!/bin/bash
# bench/capacity.sh - what SMT with core scheduling gave against SMT off, on
# the real-kernel harness's 6.12 core-scheduling guest (1 core x 2 threads,
# one vCPU per host core), for one workload shape at duty cycles from 20% to
# 100%: two groups with a cookie each, two tasks per group (issue 17; README,
# What SMT with core scheduling gave).  Per duty: the share of time with 0, 1
# and 2 threads busy, compatible co-run, forced idle, the SMT yield, the
# break-even SMT speed-up, and SMT off's waiting task time against SMT on's:
# medians of ROUNDS runs (default 3), the break-even's range beside it.
#
#   bench/capacity.sh [DUTY...]     (as root; default 20 40 60 80 100; needs
#                                    the harness's kernel: make check-vm once)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${COREAUDIT_BUILD:-$top/build}
seconds=${COREAUDIT_VM_SECONDS:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
duties=("$@")
[ ${#duties[@]} -gt 0 ] || duties=(20 40 60 80 100)

bzimage=$(top_srcdir=$top top_builddir=$build "$top/tests/vm/build-kernel.sh")
COREAUDIT_BIN="$build/.libs/coreaudit" top_srcdir=$top top_builddir=$build \
	"$top/tests/vm/build-initramfs.sh" "$work/initramfs.cpio.gz" > /dev/null
rounds=${ROUNDS:-3}
for duty in "${duties[@]}"; do
	groups="A:2:$duty:1:o,B:2:$duty:1:o"
	for round in $(seq "$rounds"); do
		for attempt in 1 2 3; do
			top_srcdir=$top top_builddir=$build "$top/tests/vm/run-vm.sh" "$bzimage" \
				"$work/initramfs.cpio.gz" "$work/run" probe smt2 "$groups" "$seconds" \
				> /dev/null 2>&1 && break
		done
		"$build/coreaudit" audit --report capacity --json "$work/run/trace.dat" \
			> "$work/$duty-$round.json" 2> /dev/null || true
	done
done
# Per duty, the median of the rounds for each figure; the break-even's range.
python3 - "$work" "$rounds" "${duties[@]}" <<'PY'
import json, statistics, sys
work, rounds, duties = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print('%5s %7s %7s %7s %8s %8s %6s %17s %11s %12s %9s' % ('duty', 'k=0', 'k=1', 'k=2', 'co-run',
      'forced', 'yield', 'break-even', 'waiting on', 'waiting off', 'verdicts'))
for duty in duties:
    rows = []
    for r in range(1, rounds + 1):
        try:
            d = json.load(open('%s/%s-%d.json' % (work, duty, r)))
        except (OSError, ValueError):
            continue
        c, off = d['capacity']['all'], d['capacity']['smt_off']
        pct = lambda ns: 100.0 * ns / c['known_ns']
        rows.append([pct(c['busy_ns'][0]), pct(c['busy_ns'][1]), pct(c['busy_ns'][2]),
                     pct(c['compatible_corun_ns']), pct(c['forced_idle_ns']), c['smt_yield'] or 0,
                     c['break_even_speedup'] or float('inf'), c['waiting_ns'] / 1e9,
                     off['waiting_ns'] / 1e9, d['verdict']])
    if not rows:
        print('%4s%%  no run' % duty)
        continue
    med = [statistics.median(r[i] for r in rows) for i in range(9)]
    be = sorted(r[6] for r in rows)
    print('%4s%% %6.1f%% %6.1f%% %6.1f%% %7.1f%% %7.1f%% %6.2f %5.2f (%.2f-%.2f) %10.2fs %11.2fs %9s' % (
        duty, *med[:7], be[0], be[-1], med[7], med[8],
        ','.join(sorted({r[9] for r in rows}))))
PY
