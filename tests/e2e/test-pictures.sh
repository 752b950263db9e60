#!/bin/bash
# test-pictures.sh - the pictures (issue 16): --perfetto checked against the
# trace-event format's required fields and against the audit's own figures,
# --svg-histograms against the window counts, and the --html page rendered in
# headless Chromium: lanes in the DOM as the topology has CPUs, a screenshot
# that is not blank, and nothing fetched from the network.
. "$(dirname "$0")/tap.sh"
cookies="$top_srcdir/examples/coresched-cookies.dat"
tile="$top_srcdir/tests/tools/tile.py"

# 1. The bundled real trace: one core of two threads.
expect_exit 0 "coresched-cookies with every picture" "$coreaudit" audit --json \
	--report capacity,fairness --html "$tap_tmp/c.html" --perfetto "$tap_tmp/c.json" --svg-histograms "$tap_tmp" "$cookies"
cp "$tap_tmp/out" "$tap_tmp/c.audit.json"
check "perfetto: the trace-event format's fields, the audit's figures" python3 - \
	"$tap_tmp/c.json" "$tap_tmp/c.audit.json" <<'PY'
import json, sys
trace, audit = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
events, bad = trace['traceEvents'], []
need = {'X': ('ts', 'dur', 'tid', 'cat'), 'i': ('ts', 's', 'tid'), 'b': ('ts', 'id', 'cat'),
        'e': ('ts', 'id', 'cat'), 'M': ('args',)}
for e in events:
    missing = [k for k in ('ph', 'pid', 'name') + need.get(e.get('ph'), ('?',)) if k not in e]
    if missing or (e['ph'] == 'X' and e['dur'] < 0):
        bad.append((e, missing))
forced = {}
for e in events:
    if e['ph'] == 'X' and e['cat'] == 'forced-idle':
        forced[str(e['tid'] - 8193)] = forced.get(str(e['tid'] - 8193), 0) + round(e['dur'] * 1000)
names = sorted(e['args']['name'] for e in events if e['name'] == 'thread_name')
checks = [
    (not bad, f'{len(bad)} events lack fields: {bad[:2]}'),
    (trace['displayTimeUnit'] == 'ns', 'displayTimeUnit'),
    (sum(e['ph'] == 'b' for e in events) == sum(e['ph'] == 'e' for e in events) ==
     audit['windows']['count'] == 1193, 'a b and an e per window (1193)'),
    (forced == audit['forced_idle']['per_cpu_ns'], f'forced idle per CPU {forced} vs '
     f"{audit['forced_idle']['per_cpu_ns']}"),
    (names == ['CPU 0', 'CPU 0 forced idle', 'CPU 1', 'CPU 1 forced idle'], f'threads {names}'),
    ([e['args']['name'] for e in events if e['name'] == 'process_name'] == ['core 0 (CPUs 0,1)'],
     'one process: core 0 (CPUs 0,1)'),
]
for ok, what in checks:
    if not ok:
        print('#', what)
sys.exit(not all(ok for ok, _ in checks))
PY
check "windows.svg and forced-idle.svg are well-formed SVG" sh -c \
	"xmllint --noout '$tap_tmp/windows.svg' '$tap_tmp/forced-idle.svg' 2> /dev/null &&
	 grep -q '<svg xmlns=\"http://www.w3.org/2000/svg\"' '$tap_tmp/windows.svg'"
check "windows.svg: the 1193 windows, all after a reschedule IPI" \
	grep -q '>resched-ipi (1193)<' "$tap_tmp/windows.svg"
fi_count=$(python3 -c "import json; print(sum(e['ph'] == 'X' and e['cat'] == 'forced-idle'
	for e in json.load(open('$tap_tmp/c.json'))['traceEvents']))")
check "forced-idle.svg: a stretch per forced-idle slice ($fi_count)" \
	grep -q ">forced idle ($fi_count)<" "$tap_tmp/forced-idle.svg"
check "the page fetches nothing: no src, href, link, import or url()" sh -c \
	"! grep -Eq '<script [^>]*src=|<link |<img |@import|url\\(|fetch\\(|XMLHttpRequest' '$tap_tmp/c.html'"
check "the page holds the two histograms inline" test "$(grep -o '<svg xmlns' "$tap_tmp/c.html" | wc -l)" = 2

# 2. In Chromium, as a reviewer opens it.
browser=$(command -v chromium || command -v chromium-browser || true)
render() {	# render PAGE: DOM to PAGE.dom, screenshot to PAGE.png
	"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,800 \
		--dump-dom "file://$1" > "$1.dom" 2> /dev/null
	"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,800 \
		--screenshot="$1.png" "file://$1" > /dev/null 2>&1
}
lanes_are() {	# PAGE CPUS CORES: the DOM's lanes, the page's own count, a lane of windows per core
	test "$(grep -o 'class="lane"' "$1.dom" | wc -l) $(grep -o 'class="wlane"' "$1.dom" | wc -l)" = "$2 $3" &&
		grep -q "data-lanes=\"$2\"" "$1.dom"
}
if [ -z "$browser" ]; then
	skip "chromium is not installed: the page is not rendered"
	exit 0
fi
render "$tap_tmp/c.html"
check "Chromium: 2 CPU lanes and a lane of windows, as the topology" lanes_are "$tap_tmp/c.html" 2 1
check "Chromium: the lanes drawn (at least 4 colours where they are)" test \
	"$(python3 "$top_srcdir/tests/e2e/png-colours.py" "$tap_tmp/c.html.png" 130 140 1280 175)" -ge 4
check "Chromium: the verdict shown" grep -q '<span id="verdict" class="pass">PASS</span>' "$tap_tmp/c.html.dom"
speedup=$(json_get "'%.2f' % d['capacity']['all']['break_even_speedup']" < "$tap_tmp/c.audit.json")
check "Chromium: --report's sections shown, break-even $speedup as in JSON" grep -q \
	"break-even SMT speed-up: $speedup (" "$tap_tmp/c.html.dom"

# 3. Bigger machines, tiled from the same trace: 8 cores of 2 threads, and as 2 of 4.
python3 "$tile" --topology 0,1 "$cookies" 8 "$tap_tmp/t16.dat" > /dev/null
spec=$(python3 "$tile" --topology 0,1 --print-topology "$cookies" 8 "$tap_tmp/x.dat")
expect_exit 0 "16 CPUs tiled: audited with a page" "$coreaudit" audit -t "$spec" \
	--html "$tap_tmp/t16.html" "$tap_tmp/t16.dat"
render "$tap_tmp/t16.html"
check "Chromium: 16 CPU lanes, 8 of windows" lanes_are "$tap_tmp/t16.html" 16 8
"$coreaudit" audit -t "0-3 4-7 8-11 12-15" --html "$tap_tmp/t4.html" "$tap_tmp/t16.dat" > /dev/null
render "$tap_tmp/t4.html"
check "Chromium: declared SMT4, 16 CPU lanes, 4 of windows" lanes_are "$tap_tmp/t4.html" 16 4

# 4. A task name that is not UTF-8 (a comm is bytes) still gives JSON that parses.
if command -v trace-cmd > /dev/null; then
	trace-cmd report -i "$top_srcdir/examples/tenants-shared-core.dat" 2> /dev/null |
		sed 's/workload\([-:]28194\)/w\xff\x01ld\1/g' > "$tap_tmp/bytes.txt"
	"$coreaudit" audit --tags markers --perfetto "$tap_tmp/b.json" --html "$tap_tmp/b.html" \
		"$tap_tmp/bytes.txt" > /dev/null 2>&1
	check "comm with bytes past ASCII: the Perfetto JSON is UTF-8 and names it w??ld" python3 -c "
import json, sys
events = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))['traceEvents']
sys.exit(not any(e['name'] == 'w??ld:28194' for e in events))" "$tap_tmp/b.json"
	check "... and the page's data parses as JSON" python3 -c "
import json, re, sys
page = open(sys.argv[1], 'rb').read().decode('utf-8')
data = re.search(r'<script id=\"coreaudit-data\" type=\"application/json\">(.*?)</script>', page, re.S)
sys.exit(not data or json.loads(data.group(1))['tasks']['28194'] != 'w??ld')" "$tap_tmp/b.html"
fi

# A comm that would end the page's data early ("<!--<script>") stays inside it.
if command -v trace-cmd > /dev/null; then
	trace-cmd report -i "$top_srcdir/examples/tenants-shared-core.dat" 2> /dev/null |
		sed 's/workload\([-:]28194\)/<!--<script>\1/g' > "$tap_tmp/script.txt"
	"$coreaudit" audit --tags markers --html "$tap_tmp/s.html" "$tap_tmp/script.txt" > /dev/null 2>&1
	check "comm \"<!--<script>\": the page's data holds no <, and names it" python3 -c "
import json, re, sys
page = open(sys.argv[1]).read()
data = re.search(r'<script id=\"coreaudit-data\" type=\"application/json\">(.*?)</script>', page, re.S)
sys.exit(not data or '<' in data.group(1) or json.loads(data.group(1))['tasks']['28194'] != '<!--<script>')" "$tap_tmp/s.html"
fi

# 5. What cannot be pictured is said.
expect_exit 2 "--html of two traces: usage error" "$coreaudit" audit --html "$tap_tmp/x.html" \
	"$cookies" "$cookies"
check "... says to audit them one at a time" grep -q 'picture one trace (2 given); audit them one at a time' "$tap_tmp/err"
expect_exit 2 "--perfetto in a missing directory" "$coreaudit" audit --perfetto /nonexistent/x.json "$cookies"
check "... names it" grep -qx 'coreaudit: audit: --perfetto /nonexistent/x.json: cannot write it: No such file or directory' "$tap_tmp/err"
