#!/bin/bash
# bench/capacity.sh - what SMT with core scheduling gave against SMT off, on
# the real-kernel harness's 6.12 core-scheduling guest (1 core x 2 threads,
# one vCPU per host core), for one workload shape at duty cycles from 20% to
# 100%: two groups with a cookie each, two tasks per group (issue 17; README,
# What SMT with core scheduling gave).  Per duty: the share of time with 0, 1
# and 2 threads busy, compatible co-run, forced idle, the SMT yield, the
# break-even SMT speed-up, and SMT off's waiting task time against SMT on's.
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
printf "%5s %8s %7s %7s %7s %8s %8s %6s %11s %12s %12s\n" duty known k=0 k=1 k=2 co-run forced \
	yield break-even "waiting on" "waiting off"
for duty in "${duties[@]}"; do
	groups="A:2:$duty:1:o,B:2:$duty:1:o"
	for attempt in 1 2 3; do
		top_srcdir=$top top_builddir=$build "$top/tests/vm/run-vm.sh" "$bzimage" \
			"$work/initramfs.cpio.gz" "$work/$duty" probe smt2 "$groups" "$seconds" \
			> /dev/null 2>&1 && break
	done
	"$build/coreaudit" audit --report capacity --json "$work/$duty/trace.dat" > "$work/$duty.json" \
		2> /dev/null || true
	python3 - "$work/$duty.json" "$duty" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); c = d['capacity']['all']; off = d['capacity']['smt_off']
k = [100.0 * b / c['known_ns'] for b in c['busy_ns']]
s = c['break_even_speedup']
print('%4s%% %7.2fs %6.1f%% %6.1f%% %6.1f%% %7.1f%% %7.1f%% %6.2f %11s %11.3fs %11.3fs' % (
    sys.argv[2], c['known_ns'] / 1e9, k[0], k[1], k[2], 100.0 * c['compatible_corun_ns'] / c['known_ns'],
    100.0 * c['forced_idle_ns'] / c['known_ns'], c['smt_yield'] or 0,
    'none' if s is None else '%.2f' % s, c['waiting_ns'] / 1e9, off['waiting_ns'] / 1e9))
PY
done
