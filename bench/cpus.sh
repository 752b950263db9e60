#!/bin/bash
# bench/cpus.sh - events/s and peak memory against the CPU count: a real
# 2-CPU core-scheduling trace (d-cookies) tiled by tests/tools/tile.py into
# 2, 16, 64, 256, 512 and 1024 CPUs (one core per copy, split numbering as
# x86 enumerates SMT siblings), each audited by coreaudit and read by the bare
# libtracecmd loop and `trace-cmd report > /dev/null`, interleaved.
#
#   bench/cpus.sh [TRACE.dat [TOPOLOGY]]   (default: ../shared/traces/d-cookies.dat, 0,1)
#
# The copies run at the same instants, so every event of a copy ties with
# the other copies' on the merge heap: the worst case for it.  A tiled trace
# holds N times the input's events; the 1-copy audit is dominated by the
# start (libtracecmd's headers and kallsyms), so the table also gives the
# rate net of the 2-CPU run's time, and a last row tiles the input in time
# instead (--layout time, TIME_COPIES copies, default 256: the 512-CPU row's
# events on 2 CPUs), the rate at 2 CPUs measured directly.  coreaudit runs
# on one thread (-J 1) and on two (-J 2).  Past 256 copies the bare loop and trace-cmd report run once
# (minutes each); REPORT_MAX_COPIES (default 512) bounds the copies
# trace-cmd report is timed on.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
coreaudit=${COREAUDIT:-$top/build/coreaudit}
input=${1:-$top/../shared/traces/d-cookies.dat}
topology=${2:-0,1}
rounds=${ROUNDS:-3}
report_max=${REPORT_MAX_COPIES:-512}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 -o "$work/readloop" "$here/readloop.c" $(pkg-config --cflags --libs libtracecmd)

# seconds_rss CMD...: wall seconds and peak RSS (KiB) of one run
seconds_rss() {
	local start end
	start=$(date +%s%N)
	/usr/bin/time -f "%M" -o "$work/time" "$@" > /dev/null 2>&1 || true
	end=$(date +%s%N)
	echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') $(tail -n 1 "$work/time")"
}

# median FILE COLUMN
median() {
	awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf "%6s %6s %10s  %-34s %-15s %-22s %-22s\n" CPUs copies events \
	"coreaudit -J 1 s, events/s, net, RSS" "-J 2 s, gain" \
	"readloop s, events/s" "report s, events/s"
base_seconds=""
# row LAYOUT COPIES: one line of the table, of the input tiled COPIES times
row() {
	local layout=$1 copies=$2 out="$work/t.dat" spec events cpus round cs cm ls c2 rs
	python3 "$top/tests/tools/tile.py" --layout "$layout" --topology "$topology" "$input" \
		"$copies" "$out" > /dev/null
	spec=$(python3 "$top/tests/tools/tile.py" --layout "$layout" --topology "$topology" \
		--print-topology "$input" "$copies" "$work/x.dat")
	cpus=$(python3 -c "import json; print(json.load(open('$work/t.tiling.json'))['output_cpus'])")
	events=$("$work/readloop" "$out" | cut -d' ' -f1)
	: > "$work/c"; : > "$work/c2"; : > "$work/l"; : > "$work/r"
	for round in $(seq "$rounds"); do
		seconds_rss "$coreaudit" audit -J 1 -t "$spec" --json "$out" >> "$work/c"
		seconds_rss "$coreaudit" audit -J 2 -t "$spec" --json "$out" >> "$work/c2"
		# The slow readers once only past 256 copies (minutes a run there).
		[ "$copies" -le 256 ] || [ "$round" = 1 ] || continue
		seconds_rss "$work/readloop" "$out" >> "$work/l"
		[ "$copies" -le "$report_max" ] && seconds_rss trace-cmd report -i "$out" >> "$work/r"
	done
	cs=$(median "$work/c" 1); cm=$(median "$work/c" 2); ls=$(median "$work/l" 1)
	c2=$(median "$work/c2" 1)
	rs=$([ -s "$work/r" ] && median "$work/r" 1 || echo "")
	[ -n "$base_seconds" ] || base_seconds=$cs
	awk -v n="$events" -v cs="$cs" -v c2="$c2" -v cm="$cm" -v ls="$ls" -v rs="$rs" \
		-v b="$base_seconds" -v cpus="$cpus" -v k="$copies" -v layout="$layout" 'BEGIN {
		net = cs > b ? sprintf("%.2fM", n * (1 - 1 / k) / (cs - b) / 1e6) : "-";
		printf "%6d %6d %10d  %6.2f %6.2fM %6s %6.0f MB  %6.2f %5.2fx  %6.2f %6.2fM", cpus, k,
		       n, cs, n / cs / 1e6, net, cm / 1024, c2, cs / c2, ls, n / ls / 1e6;
		if (rs != "") printf "        %6.2f %6.2fM", rs, n / rs / 1e6;
		printf "%s\n", layout == "time" ? "   (copies in time)" : "" }'
	rm -f "$out"
}
for copies in 1 8 32 128 256 512; do
	row split "$copies"
done
# The same events as the 512-CPU row on the input's own CPUs, one copy after
# another: the rate at 2 CPUs on a trace long enough to measure it.
row time "${TIME_COPIES:-256}"
echo "net: events beyond the 2-CPU trace's over the time beyond its audit's"
echo "machine: $(nproc) CPUs, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
