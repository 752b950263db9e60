#!/bin/bash
# bench/run.sh - coreaudit audit against `trace-cmd report > /dev/null` and a
# bare libtracecmd read loop, on the same trace, in one run, interleaved.
#
#   bench/run.sh [TRACE.dat]     (as root to record a trace when none is given)
#
# Without a trace it records one here: a context-switch storm (stress-ng
# --switch) with the events coreaudit reads, at least 2 million of them.  It
# times each tool ROUNDS times, interleaved (A B C A B C ...): coreaudit with
# its default in-place reader, coreaudit --reader records (one libtracecmd
# record per event, the reference), the bare loop and trace-cmd report; it
# reports the
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
	local tracefs=/sys/kernel/tracing on fn size
	on=$(cat $tracefs/tracing_on); fn=$(cat $tracefs/options/function-trace)
	size=$(sed 's/ .*//' $tracefs/buffer_size_kb)	# -b leaves its size behind
	trace-cmd record -d --no-filter -C mono -b 65536 -o "$1" \
		-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_wakeup_new \
		-e sched:sched_migrate_task -e power:cpu_idle \
		sh -c "echo 'coreaudit-topology 0,1' > $tracefs/trace_marker; stress-ng --switch 2 --timeout $2 -q" \
		> /dev/null 2>&1 || true
	echo "$on" > $tracefs/tracing_on; echo "$fn" > $tracefs/options/function-trace
	echo "$size" > $tracefs/buffer_size_kb
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
# (wall time from the ns clock around it: /usr/bin/time's %e has 10 ms steps)
time_one() {
	local start end
	start=$(date +%s%N)
	/usr/bin/time -f "%M" -o "$work/time" "${@:2}" > /dev/null 2>&1 || true
	end=$(date +%s%N)
	echo "$1 $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", (b - a) / 1e9 }') $(tail -n 1 "$work/time")" >> "$work/results"
}

bench_file() {	# bench_file FILE LABEL
	: > "$work/results"
	for _ in $(seq "$rounds"); do
		time_one coreaudit "$coreaudit" audit -t 0,1 --unknown-cookie zero "$1"
		time_one records "$coreaudit" audit -t 0,1 --unknown-cookie zero --reader records "$1"
		time_one readloop "$work/readloop" "$1"
		time_one report trace-cmd report -i "$1"
	done
	echo "== $2 (median of $rounds, interleaved)"
	printf "%-10s %10s %14s %12s\n" tool seconds events/s "peak RSS"
	for tool in coreaudit records readloop report; do
		local secs rss
		secs=$(median "$tool" 2); rss=$(median "$tool" 3)
		eval "median_$tool=$secs"
		awk -v t=$tool -v s="$secs" -v m="$rss" -v n="$events" \
			'BEGIN { printf "%-10s %10.3f %14.0f %9.1f MB\n", t, s, n / s, m / 1024 }'
	done
	awk -v a="$median_coreaudit" -v r="$median_readloop" -v p="$median_report" \
		-v c="$median_records" \
		'BEGIN { printf "coreaudit is %.1fx faster than trace-cmd report, %+.0f%% against the bare loop\n", p / a, 100 * (a / r - 1);
			 printf "with --reader records: %.1fx faster than report, %+.0f%% against the bare loop\n", p / c, 100 * (c / r - 1) }'
}

# median TOOL COLUMN: the median of one column of one tool's runs
median() {
	awk -v t="$1" -v c="$2" '$1 == t { print $c }' "$work/results" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

bench_file "$trace" "version 7 (zstd) as recorded"
trace-cmd convert --file-version 6 --compression none -i "$trace" -o "$work/v6.dat" > /dev/null 2>&1
bench_file "$work/v6.dat" "version 6, uncompressed"
# rss_split CMD...: peak anonymous and peak file-backed RSS (MB), sampled every 10 ms
rss_split() {
	"$@" > /dev/null 2>&1 &
	local pid=$! anon=0 file=0 a f
	while kill -0 "$pid" 2> /dev/null; do
		a=$(awk '/^RssAnon:/ { print $2 }' /proc/$pid/status 2> /dev/null || echo 0)
		f=$(awk '/^RssFile:/ { print $2 }' /proc/$pid/status 2> /dev/null || echo 0)
		[ "${a:-0}" -gt "$anon" ] && anon=$a
		[ "${f:-0}" -gt "$file" ] && file=$f
		sleep 0.01
	done
	wait "$pid" 2> /dev/null || true
	echo "$((anon / 1024)) MB anonymous, $((file / 1024)) MB file-backed"
}

echo "== memory of one run, sampled (peak anonymous / file-backed RSS)"
for f in "$trace" "$work/v6.dat" "$work/short.dat" "$work/short6.dat"; do
	[ -f "$f" ] || { [ "$f" = "$work/short6.dat" ] && [ -f "$work/short.dat" ] &&
		trace-cmd convert --file-version 6 --compression none -i "$work/short.dat" \
			-o "$f" > /dev/null 2>&1; } || continue
	n=$("$work/readloop" "$f" | cut -d' ' -f1)
	printf "%-12s %9s events  coreaudit: %s;  readloop: %s\n" "$(basename "$f")" "$n" \
		"$(rss_split "$coreaudit" audit -t 0,1 --unknown-cookie zero "$f")" \
		"$(rss_split "$work/readloop" "$f")"
done
echo "machine: $(nproc) CPUs, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
