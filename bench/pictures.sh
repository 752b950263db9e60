#!/bin/bash
# bench/pictures.sh - what the pictures cost (issue 16): for each trace, the
# audit with and without --html/--perfetto (seconds, peak RSS), the sizes of
# the page and the Perfetto JSON, and in headless Chromium the time the page
# takes to build (parse its data, summarise every lane) and to draw a frame
# while panning (whole trace, and zoomed to 1/20 of it): the page's own
# figures, read from its DOM when opened with #bench.
#
#   bench/pictures.sh [LONG.dat [TOPOLOGY]]
#
# Traces: the bundled examples/coresched-cookies.dat; a long one (LONG.dat,
# else SECONDS, 120, recorded here by `coreaudit record` around a stress-ng
# context-switch load, CPUs 0 and 1 declared siblings: root); and
# ../shared/traces/d-cookies.dat tiled by tests/tools/tile.py into 256 CPUs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
coreaudit=${COREAUDIT:-$top/build/coreaudit}
browser=$(command -v chromium || command -v chromium-browser)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds_rss() {	# CMD...: wall seconds and peak RSS (MiB) of one run
	local start end
	start=$(date +%s%N)
	/usr/bin/time -f "%M" -o "$work/time" "$@" > /dev/null 2>&1 || true
	end=$(date +%s%N)
	awk -v a="$start" -v b="$end" -v k="$(tail -n 1 "$work/time")" \
		'BEGIN { printf "%.2f s %.0f MB", (b - a) / 1e9, k / 1024 }'
}

page_figures() {	# PAGE: the page's build and pan times, from its DOM
	"$browser" --headless --no-sandbox --disable-gpu --window-size=1300,900 \
		--dump-dom "file://$1#bench" 2> /dev/null |
		sed -n 's/.*data-build-ms="\([0-9.]*\)" data-pan-ms="\([0-9.]*\)".*/build \1 ms, pan \2 ms a frame/p'
}

bench_one() {	# NAME TRACE TOPOLOGY
	local events
	events=$({ "$coreaudit" audit -t "$3" --json "$2" 2> /dev/null || true; } |
		python3 -c "import json, sys; print(json.load(sys.stdin)['trace']['events'])")
	echo "$1: $events events, $(du -h "$2" | cut -f1) file"
	echo "  audit alone:              $(seconds_rss "$coreaudit" audit -t "$3" "$2")"
	echo "  audit --html --perfetto:  $(seconds_rss "$coreaudit" audit -t "$3" \
		--html "$work/p.html" --perfetto "$work/p.json" "$2")"
	echo "  page $(du -h "$work/p.html" | cut -f1), Perfetto JSON $(du -h "$work/p.json" | cut -f1)"
	echo "  Chromium: $(page_figures "$work/p.html")"
}

long=${1:-}
long_topology=${2:-0,1}
if [ -z "$long" ]; then
	long=$work/long.dat
	"$coreaudit" record -t 0,1 -o "$long" -d "${SECONDS_LONG:-120}s" -- \
		stress-ng --switch 1 --switch-freq 400 --timeout "${SECONDS_LONG:-120}" -q > /dev/null
fi
tiled=$work/t256.dat
python3 "$top/tests/tools/tile.py" --topology 0,1 "$top/../shared/traces/d-cookies.dat" 128 \
	"$tiled" > /dev/null
spec=$(python3 "$top/tests/tools/tile.py" --topology 0,1 --print-topology \
	"$top/../shared/traces/d-cookies.dat" 128 "$work/x.dat")

bench_one "examples/coresched-cookies.dat" "$top/examples/coresched-cookies.dat" 0,1
bench_one "long recording" "$long" "$long_topology"
bench_one "d-cookies tiled to 256 CPUs" "$tiled" "$spec"
