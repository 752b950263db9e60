#!/bin/bash
# test-metrics.sh - coreaudit monitor for a fleet (issue 16): the metrics
# endpoint scraped for real (curl against the live monitor on this kernel,
# two tagged groups pinned to CPUs 0 and 1, declared siblings), both formats
# linted by tests/e2e/metrics-lint.py (promtool is not in Debian 12 without
# the whole prometheus package), and the textfile's final figures against the
# monitor's own JSON report.  Skips, saying why, without root or tracefs.
. "$(dirname "$0")/tap.sh"
workload="$top_builddir/tests/workload/workload"
lint="$top_srcdir/tests/e2e/metrics-lint.py"
command -v curl > /dev/null || { skip "curl is not installed"; exit 0; }
live_test_prelude
port=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
url="http://127.0.0.1:$port/metrics"
wait_tracing() {	# PID
	for _ in $(seq 300); do
		is_tracing "$tracefs/instances/coreaudit-$1" && return
		sleep 0.1
	done
}

# The monitor runs until this test has seen what it checks, then SIGINT ends
# it (it reports, with its verdict, as at -d's end): a machine loaded by
# other tests (CI) or the sanitizers delays its rendering by seconds.
"$coreaudit" monitor -t 0,1 --tags markers --grace 1ms -d 120 -i 500ms -q --json \
	--metrics-listen "127.0.0.1:$port" --metrics "$tap_tmp/final.prom" \
	> "$tap_tmp/monitor.out" 2> "$tap_tmp/monitor.err" &
monitor=$!
wait_tracing $monitor
"$workload" -d 2 A:1:100:0:o:0 B:1:100:0:o:1 > /dev/null
# The figures published include the groups once a window is counted.
for _ in $(seq 300); do
	sleep 0.2
	curl -s -D "$tap_tmp/h1" "$url" > "$tap_tmp/scrape.txt"
	grep -Eq '^coreaudit_windows_total\{kind="[a-z]+"\} [1-9]' "$tap_tmp/scrape.txt" && break
done
curl -s -D "$tap_tmp/h2" -H 'Accept: application/openmetrics-text; version=1.0.0' "$url" \
	> "$tap_tmp/scrape.om"
code404=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/other")
code405=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url")
mid_span='^coreaudit_span_seconds ([1-9]|0\.[5-9])'
for _ in $(seq 300); do
	grep -Eqs "$mid_span" "$tap_tmp/final.prom" && break
	sleep 0.2
done
cp "$tap_tmp/final.prom" "$tap_tmp/mid.prom"
check "mid-run textfile: written at an interval (a span over 0.5 s)" grep -Eq "$mid_span" "$tap_tmp/mid.prom"
kill -INT $monitor
wait $monitor
code=$?
# A beside B gives violations, or (this host's ticks) windows of unknown cause: 1 or 4.
check "the monitor ends with a verdict on A beside B (exit $code)" test "$code" = 1 -o "$code" = 4
verdict=$([ "$code" = 1 ] && echo fail || echo inconclusive)
check "scrape: Prometheus text, its content type" grep -qi '^Content-Type: text/plain; version=0.0.4' "$tap_tmp/h1"
check "scrape: the Prometheus text lints" python3 "$lint" prometheus "$tap_tmp/scrape.txt"
check "scrape with Accept: OpenMetrics, its content type" \
	grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0' "$tap_tmp/h2"
check "scrape: the OpenMetrics text lints (# EOF, counter families)" \
	python3 "$lint" openmetrics "$tap_tmp/scrape.om"
check "scrape: the co-run windows seen live, the verdict so far as its counters say" \
	python3 - "$tap_tmp/scrape.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def v(series):
    m = re.search('^' + re.escape(series) + r' (\S+)$', text, re.M)
    return float(m.group(1)) if m else 0
windows = sum(v(f'coreaudit_windows_total{{kind="{k}"}}') for k in ('skew', 'violation', 'unknown'))
so_far = 'fail' if v('coreaudit_violations_total') else 'inconclusive' if (
    v('coreaudit_windows_total{kind="unknown"}') or v('coreaudit_lost_events_total') or
    v('coreaudit_missed_switches_total')) else 'pass'
ok = windows and v(f'coreaudit_verdict{{verdict="{so_far}"}}') == 1
if not ok:	# what the scrape said, for the log
    print('# windows %d, counters say %s; verdict gauges: %s (%d lines scraped)' % (windows, so_far,
        ' '.join(l for l in text.splitlines() if l.startswith('coreaudit_verdict{')),
        len(text.splitlines())))
sys.exit(not ok)
PY
check "another path: 404 ($code404), POST: 405 ($code405)" test "$code404 $code405" = "404 405"

# The textfile's last write: the decided audit, as its JSON report says.
check "textfile: lints as node_exporter's format" python3 "$lint" prometheus "$tap_tmp/final.prom"
sed -n '/^{/,$p' "$tap_tmp/monitor.out" > "$tap_tmp/monitor.json"
check "textfile: windows, violations, events and forced idle as the JSON report" python3 - \
	"$tap_tmp/final.prom" "$tap_tmp/monitor.json" "$verdict" <<'PY'
import json, re, sys
text, report = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
def value(series):
    m = re.search('^' + re.escape(series) + r' (\S+)$', text, re.M)
    return float(m.group(1)) if m else None
kinds = report['windows']['by_kind']
checks = [
    (value(f'coreaudit_verdict{{verdict="{sys.argv[3]}"}}') == 1 == (report['verdict'] == sys.argv[3]),
     'verdict gauge'),
    (value('coreaudit_violations_total') == report['violations'], 'violations'),
    (value('coreaudit_events_total') == report['trace']['events'], 'events'),
] + [(value(f'coreaudit_windows_total{{kind="{k}"}}') == kinds[k]['count'], f'windows {k}')
     for k in kinds] + [
    (abs(value(f'coreaudit_forced_idle_seconds_total{{cpu="{c}"}}') - ns / 1e9) < 1e-8 * max(1, ns / 1e9),
     f'forced idle of cpu {c}') for c, ns in report['forced_idle']['per_cpu_ns'].items()]
for ok, what in checks:
    if not ok:
        print('#', what, 'differs')
sys.exit(not all(ok for ok, _ in checks))
PY

# What cannot be listened on is a usage error, before tracefs is touched.
expect_exit 2 "--metrics-listen 127.0.0.1:99999" "$coreaudit" monitor -t 0,1 --metrics-listen 127.0.0.1:99999
check "... says what it expects" grep -q 'expected ADDR:PORT, :PORT or \[ADDR6\]:PORT (a port from 1 to 65535)' "$tap_tmp/err"
python3 -c "
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $port)); s.listen(); print('bound', flush=True); time.sleep(10)" > "$tap_tmp/holder" &
holder=$!
for _ in $(seq 50); do grep -q bound "$tap_tmp/holder" && break; sleep 0.1; done
expect_exit 2 "--metrics-listen on a port in use" "$coreaudit" monitor -t 0,1 -d 1 \
	--metrics-listen "127.0.0.1:$port"
check "... says it cannot listen there" grep -q "cannot listen there" "$tap_tmp/err"
kill $holder 2> /dev/null
check "no coreaudit instance left" test "$(ls "$tracefs/instances" | grep -c '^coreaudit-' || true)" = 0
