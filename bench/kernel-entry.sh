#!/bin/bash
# bench/kernel-entry.sh - what `coreaudit record --kernel-entry` costs (issue
# 17): for a system-call storm (stress-ng --get), a context-switch storm
# (stress-ng --switch) and a mostly idle machine, the same SECONDS recorded
# without and with the irq, softirq and raw_syscalls events: events and file
# size (events: the scheduler's and the kernel entries and exits), events lost, the recorder's CPU time, and the load's own throughput
# (stress-ng bogo ops/s) beside no recorder, the recorder, and the recorder
# with --kernel-entry.  Medians of ROUNDS (default 3), interleaved.
#
#   bench/kernel-entry.sh [SECONDS]        (as root; default 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
coreaudit=${COREAUDIT:-$here/../build/coreaudit}
seconds=${1:-3}
rounds=${ROUNDS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# load NAME: stress-ng's arguments for it (none: idle).
load_args() {
	case $1 in
	syscalls) echo "--get 2" ;;
	switches) echo "--switch 2" ;;
	idle) echo "" ;;
	esac
}

# run LOAD MODE ROUND: MODE none | plain | kernel-entry; appends one line to $work/LOAD-MODE:
# bogo-ops/s events bytes lost recorder-cpu-s
run() {
	local load=$1 mode=$2 args ops=0 events=0 bytes=0 lost=0 cpu=0 rec=()
	args=$(load_args "$load")
	if [ -n "$args" ]; then
		# shellcheck disable=SC2086
		stress-ng $args --timeout "${seconds}s" --metrics-brief > "$work/stress" 2>&1 &
	else
		sleep "$seconds" &
	fi
	local load_pid=$!
	if [ "$mode" != none ]; then
		[ "$mode" = kernel-entry ] && rec=(--kernel-entry)
		/usr/bin/time -f "%U %S" -o "$work/time" "$coreaudit" record -t 0,1 "${rec[@]}" \
			-o "$work/rec.dat" -d "${seconds}s" > /dev/null 2> "$work/rec.err" || true
	fi
	wait "$load_pid" || true
	if [ -n "$args" ]; then
		ops=$(awk '/stressed|bogo/ { next } /stress-ng: (info|metrc):.*\] [a-z]+ +[0-9]/ {
			print $(NF - 1); exit }' "$work/stress")
	fi
	if [ "$mode" != none ]; then
		bytes=$(stat -c %s "$work/rec.dat")
		{ "$coreaudit" audit --unknown-cookie zero --report exposure --json "$work/rec.dat" \
			2> /dev/null || true; } | python3 -c 'import json, sys; d = json.load(sys.stdin)
print(d["trace"]["events"] + d["exposure"]["events"], d["trace"]["lost_events"])' > "$work/counts"
		read -r events lost < "$work/counts"
		cpu=$(tail -n 1 "$work/time" | awk '{ print $1 + $2 }')
	fi
	echo "${ops:-0} ${events:-0} $bytes $lost $cpu" >> "$work/$load-$mode"
}

for _ in $(seq "$rounds"); do
	for load in syscalls switches idle; do
		for mode in none plain kernel-entry; do
			run "$load" "$mode"
		done
	done
done
printf "%-9s %-13s %14s %12s %10s %8s %13s\n" load recorder "load ops/s" events MB lost \
	"recorder CPU"
for load in syscalls switches idle; do
	for mode in none plain kernel-entry; do
		f="$work/$load-$mode"
		printf "%-9s %-13s %14s %12s %10.1f %8s %12ss\n" "$load" "$mode" \
			"$(cut -d' ' -f1 "$f" | median)" "$(cut -d' ' -f2 "$f" | median)" \
			"$(cut -d' ' -f3 "$f" | median | awk '{ print $1 / 1e6 }')" \
			"$(cut -d' ' -f4 "$f" | median)" "$(cut -d' ' -f5 "$f" | median)"
	done
done
