#!/bin/bash
# bench/monitor.sh - what coreaudit monitor costs: its CPU share while a
# context-switch load runs at a given rate, and the events it lost.
#
#   bench/monitor.sh [SECONDS]        (as root)
#
# For each rate (stress-ng --switch with --switch-freq, 2 workers, and an
# unthrottled storm), runs `coreaudit monitor -q --json -d SECONDS` beside the
# load and reports events/s seen, the monitor's CPU time as a share of one
# CPU (utime+stime from /usr/bin/time), the same less a run without load
# (start-up: reading the event formats, ~0.25 s), and lost events.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
coreaudit=${COREAUDIT:-$here/../build/coreaudit}
seconds=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/time -f "%U %S" -o "$work/time" "$coreaudit" monitor -q -d "${seconds}s" \
	> /dev/null 2>&1 || true
read -r user sys < <(tail -n 1 "$work/time")
baseline=$(python3 -c "print($user + $sys)")
echo "without load: ${baseline} s of CPU in ${seconds} s"
printf "%-22s %12s %14s %16s %8s\n" load events/s "monitor CPU" "less baseline" lost
for freq in 10000 20000 50000 0; do
	label="switch-freq $freq"
	args=(--switch 2 --timeout $((seconds + 2)) -q)
	if [ "$freq" = 0 ]; then label="storm (unthrottled)"; else args+=(--switch-freq "$freq"); fi
	stress-ng "${args[@]}" &
	load=$!
	sleep 1
	/usr/bin/time -f "%U %S" -o "$work/time" "$coreaudit" monitor -q --json -d "${seconds}s" \
		> "$work/out.json" 2> /dev/null || true
	wait $load || true
	read -r user sys < <(tail -n 1 "$work/time")
	python3 - "$work/out.json" "$user" "$sys" "$seconds" "$label" "$baseline" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index('{'):])
span = d['trace']['span_ns'] / 1e9
used = float(sys.argv[2]) + float(sys.argv[3])
cpu = used / float(sys.argv[4]) * 100
steady = (used - float(sys.argv[6])) / float(sys.argv[4]) * 100
print("%-22s %12.0f %13.1f%% %15.1f%% %8d" % (sys.argv[5], d['trace']['events'] / span, cpu,
                                               steady, d['trace']['lost_events']))
PY
done
echo "machine: $(nproc) CPUs, $(uname -r); monitor buffer 8 MiB per CPU"
