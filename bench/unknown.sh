#!/bin/bash
# bench/unknown.sh - the issue 14 case: a context-switch storm whose cookies
# are unknown (no probe, no prctl events: every co-run window of the two
# CPUs, declared siblings, is of unknown cookies and waits on both sides),
# recorded here with the scheduler, ipi and tick events, then audited by
# coreaudit (its defaults: cookies unknown) against `trace-cmd report` and
# the bare libtracecmd loop on the same file, interleaved, median of ROUNDS.
#
#   bench/unknown.sh [TRACE.dat]   (default: records SECONDS, 1.5, of storm)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
coreaudit=${COREAUDIT:-$top/build/coreaudit}
rounds=${ROUNDS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 -o "$work/readloop" "$here/readloop.c" $(pkg-config --cflags --libs libtracecmd)

record() {	# record OUT SECONDS
	local tracefs=/sys/kernel/tracing on size
	on=$(cat $tracefs/tracing_on)
	size=$(sed 's/ .*//' $tracefs/buffer_size_kb)
	trace-cmd record -d --no-filter -C mono -b 65536 -o "$1" \
		-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_wakeup_new \
		-e sched:sched_migrate_task -e power:cpu_idle -e ipi:ipi_send_cpu \
		-e ipi:ipi_send_cpumask -e irq_vectors:local_timer_entry \
		sh -c "echo 'coreaudit-topology 0,1' > $tracefs/trace_marker;
		       stress-ng --switch 2 --timeout $2 -q" > /dev/null 2>&1 || true
	echo "$on" > $tracefs/tracing_on
	echo "$size" > $tracefs/buffer_size_kb
}

trace=${1:-}
if [ -z "$trace" ]; then
	trace=$work/storm.dat
	record "$trace" "${SECONDS_STORM:-1.5}"
fi
seconds() {	# wall seconds of one run of CMD...
	local start end
	start=$(date +%s%N)
	"$@" > /dev/null 2>&1 || true
	end=$(date +%s%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

"$coreaudit" audit --json "$trace" > "$work/a.json" 2> /dev/null || true
python3 -c "
import json; d = json.load(open('$work/a.json'))
print('trace: %d events, %d co-run windows (%s unknown), cookie source %s, verdict %s' % (
	d['trace']['events'], d['windows']['count'], d['windows']['by_kind']['unknown']['count'],
	d['trace']['cookie_source'], d['verdict']))"
: > "$work/c"; : > "$work/j"; : > "$work/l"; : > "$work/r"
for _ in $(seq "$rounds"); do
	seconds "$coreaudit" audit -J 1 "$trace" >> "$work/c"
	seconds "$coreaudit" audit "$trace" >> "$work/j"
	seconds "$work/readloop" "$trace" >> "$work/l"
	seconds trace-cmd report -i "$trace" >> "$work/r"
done
c=$(median "$work/c"); j=$(median "$work/j"); l=$(median "$work/l"); r=$(median "$work/r")
echo "coreaudit -J 1 $c s, coreaudit (default --jobs) $j s, bare libtracecmd loop $l s, trace-cmd report $r s"
awk -v c="$c" -v j="$j" -v r="$r" 'BEGIN { printf "coreaudit is %.1fx (-J 1) and %.1fx (default) faster than trace-cmd report\n", r / c, r / j }'
echo "machine: $(nproc) CPUs, $(uname -r)"
