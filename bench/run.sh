#!/bin/bash
# bench/run.sh - coreaudit audit against `trace-cmd report > /dev/null` and a
# bare libtracecmd read loop, on the same trace, in one run, interleaved.
#
#   bench/run.sh [TRACE.dat]     (as root to record a trace when none is given)
#
# Without a trace it records one here: a context-switch storm (stress-ng
# --switch) with the events coreaudit reads, at least 2 million of them.  It
# times each tool ROUNDS times, interleaved (A B C A B C ...), and reports the
# median wall time, events per second and peak RSS; then the same on the
# trace converted to an uncompressed version 6 file, and peak RSS on a trace a
# quarter as long, to show whether memory grows with the trace.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
coreaudit=${COREAUDIT:-$top/build/coreaudit}
rounds=${ROUNDS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 -o "$work/readloop" "$here/readloop.c" $(pkg-config --cflags --libs libtracecmd)

record() {	# record OUT SECONDS
	local tracefs=/sys/kernel/tracing on fn
	on=$(cat $tracefs/tracing_on); fn=$(cat $tracefs/options/function-trace)
	trace-cmd record -d --no-filter -C mono -b 65536 -o "$1" \
		-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_wakeup_new \
		-e sched:sched_migrate_task -e power:cpu_idle \
		sh -c "echo 'coreaudit-topology 0,1' > $tracefs/trace_marker; stress-ng --switch 2 --timeout $2 -q" \
		> /dev/null 2>&1 || true
	echo "$on" > $tracefs/tracing_on; echo "$fn" > $tracefs/options/function-trace
}

trace=${1:-}
if [ -z "$trace" ]; then
	trace=$work/storm.dat
	record "$trace" "${SECONDS_LONG:-4}"
	record "$work/short.dat" 1
fi
events=$("$work/readloop" "$trace" | cut -d' ' -f1)
echo "trace: $trace, $events events, $(du -h "$trace" | cut -f1)"

# time_one NAME CMD...: wall seconds and peak RSS (KiB) of one run
time_one() {
	/usr/bin/time -f "%e %M" -o "$work/time" "${@:2}" > /dev/null 2>&1 || true
	echo "$1 $(cat "$work/time")" >> "$work/results"
}

bench_file() {	# bench_file FILE LABEL
	: > "$work/results"
	for _ in $(seq "$rounds"); do
		time_one coreaudit "$coreaudit" audit -t 0,1 --unknown-cookie zero "$1"
		time_one readloop "$work/readloop" "$1"
		time_one report trace-cmd report -i "$1"
	done
	echo "== $2 (median of $rounds, interleaved)"
	printf "%-10s %10s %14s %12s\n" tool seconds events/s "peak RSS"
	for tool in coreaudit readloop report; do
		awk -v t=$tool -v n="$events" '$1 == t { s[++c] = $2; m[c] = $3 }
		     END { asort(s); asort(m); med = s[int((c + 1) / 2)];
			   printf "%-10s %10.3f %14.0f %9.1f MB\n", t, med, n / med,
				  m[int((c + 1) / 2)] / 1024 }' "$work/results"
	done
	awk '$1 == "coreaudit" { a[++x] = $2 } $1 == "readloop" { r[++y] = $2 }
	     $1 == "report" { p[++z] = $2 }
	     END { asort(a); asort(r); asort(p); ma = a[int((x + 1) / 2)];
		   printf "coreaudit is %.1fx faster than trace-cmd report, %+.0f%% against the bare loop\n",
			  p[int((z + 1) / 2)] / ma, 100 * (ma / r[int((y + 1) / 2)] - 1) }' "$work/results"
}

bench_file "$trace" "version 7 (zstd) as recorded"
trace-cmd convert --file-version 6 --compression none -i "$trace" -o "$work/v6.dat" > /dev/null 2>&1
bench_file "$work/v6.dat" "version 6, uncompressed"
if [ -f "$work/short.dat" ]; then
	trace-cmd convert --file-version 6 --compression none -i "$work/short.dat" \
		-o "$work/short6.dat" > /dev/null 2>&1
	short_events=$("$work/readloop" "$work/short6.dat" | cut -d' ' -f1)
	/usr/bin/time -f "%M" -o "$work/m" "$coreaudit" audit -t 0,1 --unknown-cookie zero \
		"$work/short6.dat" > /dev/null 2>&1 || true
	echo "== peak RSS of coreaudit on version 6: $(( $(cat "$work/m") / 1024 )) MB for $short_events events (short trace)"
fi
echo "machine: $(nproc) CPUs, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
