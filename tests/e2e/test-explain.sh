#!/bin/bash
# test-explain.sh - the text report's answers to "what happened there" (issue
# 16): --explain TIME says what every CPU ran at an instant and which co-run
# windows were open then (checked against trace-cmd report's last
# sched_switch on each CPU, and, for a sample of windows, against the full
# audit's list); the longest starvation is named with its CPU and start (and
# that CPU was idle then, by trace-cmd report); a core's co-run time counts a
# three-way SMT4 co-run once; --progress prints how far a
# read is on stderr, and nothing where it was not asked for.
. "$(dirname "$0")/tap.sh"
examples="$top_srcdir/examples"
cookies="$examples/coresched-cookies.dat"
tenants="$examples/tenants-shared-core.dat"

if ! command -v trace-cmd > /dev/null; then
	skip "trace-cmd is not installed: nothing to check --explain against"
	exit 0
fi
trace-cmd report -t -i "$cookies" > "$tap_tmp/cookies.txt" 2> /dev/null
trace-cmd report -t -i "$tenants" > "$tap_tmp/tenants.txt" 2> /dev/null

# ran_at REPORT CPU TS: the pid trace-cmd report's last sched_switch on CPU at
# or before TS switched to (0: idle)
ran_at() {
	awk -v cpu="$(printf '[%03d]' "$2")" -v ts="$3" '
		$0 ~ /sched_switch:/ && index($0, cpu) {
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = substr($i, 1, length($i) - 1) + 0
			if (t > ts + 0) exit
			n = $0; sub(/.*==> /, "", n); sub(/ \[.*/, "", n); sub(/.*:/, "", n); pid = n
		}
		END { print pid }' "$1"
}

# 1. The tenants' worst window, at its start: both CPUs, the window, its evidence.
at=1510.324641104
expect_exit 1 "tenants --explain $at: fails as without" "$coreaudit" audit --tags markers \
	--explain $at "$tenants"
sed -n '/^at /,/^$/p' "$tap_tmp/out" > "$tap_tmp/explain.txt"
check "... the section is headed by the instant" grep -qx "at $at s (--explain)" "$tap_tmp/explain.txt"
check "... cpu 0 ran workload:28194 (tenant-a), as trace-cmd report's last switch says" sh -c \
	"test $(ran_at "$tap_tmp/tenants.txt" 0 $at) = 28194 &&
	 grep -q '^    cpu 0    workload:28194 tag=tenant-a, since 1510.324641104 s$' '$tap_tmp/explain.txt'"
check "... cpu 1 ran workload:28195 (tenant-b), likewise" sh -c \
	"test $(ran_at "$tap_tmp/tenants.txt" 1 $at) = 28195 &&
	 grep -q '^    cpu 1    workload:28195 tag=tenant-b, since ' '$tap_tmp/explain.txt'"
check "... the window open then: 50.108 ms on cpus 0,1, a violation" grep -qx \
	"  1510.324641104 s for 50.108ms, core 0, cpus 0,1: violation, cause unknown, cpu1 had to leave" \
	"$tap_tmp/explain.txt"
check "... with its evidence, the switch that opened it among it" grep -q \
	'^      1510.324641104 cpu0 sched_switch       pid 1189  1189 ==> 28194$' "$tap_tmp/explain.txt"

# 2. An instant with no window: forced idle on one CPU, a task on the other.
expect_exit 0 "cookies --explain +1s" "$coreaudit" audit --explain +1s "$cookies"
at=$(sed -n 's/^at \([0-9.]*\) s (--explain)$/\1/p' "$tap_tmp/out")
check "... +1s is 1 s after the first event (3.588294712 s)" test "$at" = 4.588294712
check "... cpu 0 idle, forced, 1 task queued; trace-cmd: switched to idle" sh -c \
	"test $(ran_at "$tap_tmp/cookies.txt" 0 "$at") = 0 &&
	 grep -q '^    cpu 0    idle, forced (1 queued), since 4.586265176 s$' '$tap_tmp/out'"
check "... cpu 1 ran workload:65; trace-cmd: switched to 65" sh -c \
	"test $(ran_at "$tap_tmp/cookies.txt" 1 "$at") = 65 &&
	 grep -q '^    cpu 1    workload:65 cookie=0xffff8880007a04e0, since 4.586236668 s$' '$tap_tmp/out'"
check "... no window open then" grep -qx "  no co-run window of different cookies open then" "$tap_tmp/out"

# 3. Any window of the full audit, asked for at its start, comes back as listed.
"$coreaudit" audit --json "$cookies" > "$tap_tmp/full.json"
python3 -c "
import json, sys
ws = json.load(open(sys.argv[1]))['windows']['list']
for w in ws[::97]: print(w['start_ns'], w['end_ns'], w['cause'], w['kind'], w['cpus'][0], w['cpus'][1])
" "$tap_tmp/full.json" > "$tap_tmp/sample"
same=0 total=0
while read -r start end cause kind a b; do
	total=$((total + 1))
	ts=$(printf '%d.%09d' $((start / 1000000000)) $((start % 1000000000)))
	"$coreaudit" audit --json --explain "$ts" "$cookies" | python3 -c "
import json, sys
x = json.load(sys.stdin)['explain']
want = [int(v) if v.isdigit() else v for v in sys.argv[1:]]
sys.exit(not x['in_span'] or not any([w['start_ns'], w['end_ns'], w['cause'], w['kind']] + w['cpus'] == want
                                      for w in x['windows']))" "$start" "$end" "$cause" "$kind" "$a" "$b" &&
		same=$((same + 1))
done < "$tap_tmp/sample"
check "$total windows of the full audit (every 97th), each given back at its start" \
	test "$same/$total" = "13/13"

# 4. Outside the trace, or not a time.
expect_exit 0 "--explain 1 (before the first event)" "$coreaudit" audit --explain 1 "$cookies"
check "... says nothing is known then" grep -qx \
	"  outside the audited span, 3.588294712 s to 7.637974773 s: nothing known then" "$tap_tmp/out"
"$coreaudit" audit --json --explain 1 "$cookies" > "$tap_tmp/x.json"
check "... JSON: in_span false, no window" test "$(json_get "d['explain']['in_span'], len(d['explain']['windows'])" < "$tap_tmp/x.json")" = "False 0"
expect_exit 2 "--explain soon: a usage error" "$coreaudit" audit --explain soon "$cookies"

# 5. The longest starvation: who, how long, from when, on which CPU.
check "the longest starvation is the per-task table's longest, named with CPU and start" \
	grep -qx "  longest starvation: workload:65 4.681ms from 5.128305822 s, queued on forced-idle CPU 1" \
	<("$coreaudit" audit "$cookies")
check "... trace-cmd report: CPU 1 had switched to idle by then" test \
	"$(ran_at "$tap_tmp/cookies.txt" 1 5.128305822)" = 0
check "... JSON: longest_starved_start_ns and _cpu of pid 65" test "$(json_get \
	"[(t['longest_starved_ns'], t['longest_starved_start_ns'], t['longest_starved_cpu']) for t in d['forced_idle']['per_task'] if t['pid'] == 65][0]" \
	< "$tap_tmp/full.json")" = "(4680710, 5128305822, 1)"
expect_exit 1 "--max-starvation 4ms: fails" "$coreaudit" audit --max-starvation 4ms "$cookies"
check "... the reason names the stretch's start and CPU" grep -qF \
	"task 65 starved 4.681ms at a stretch (from 5.128305822 s, queued on CPU 1), over --max-starvation 4.000ms" \
	"$tap_tmp/out"

# 6. --progress: lines on stderr when asked, nothing in a pipe by default.
python3 "$top_srcdir/tests/tools/tile.py" "$cookies" 3 "$tap_tmp/x3.dat" > /dev/null
expect_exit 0 "--progress always on 3 tiled copies (118779 records)" "$coreaudit" audit \
	--progress always "$tap_tmp/x3.dat"
check "... one line per 65536 events read, how far into the trace" grep -qx \
	"coreaudit: x3.dat: 0.07 M events read, [0-9]*\.[0-9]\{3\} s into the trace" "$tap_tmp/err"
check "... the report on stdout untouched" sh -c "head -1 '$tap_tmp/out' | grep -qx 'coreaudit: PASS'"
expect_exit 0 "--progress auto (the default) with stderr not a terminal" "$coreaudit" audit "$tap_tmp/x3.dat"
check "... nothing on stderr" test ! -s "$tap_tmp/err"
expect_exit 0 "--progress never" "$coreaudit" audit --progress never "$tap_tmp/x3.dat"
check "... nothing on stderr" test ! -s "$tap_tmp/err"
if command -v script > /dev/null; then
	script -qc "'$coreaudit' audit --progress always '$tap_tmp/x3.dat' > /dev/null" /dev/null \
		< /dev/null > "$tap_tmp/tty"
	check "on a terminal: the line rewritten in place (\\r), then erased" \
		grep -q "^$(printf '\r')coreaudit: .* s into the trace$(printf '\033')\[K$(printf '\r\033')\[K" \
		"$tap_tmp/tty"
fi

# 7. A core's co-run time counted once: on SMT4 the union of its pair windows
# (computed here from every listed window), not their sum; on SMT2 the sum.
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
union_of_list='
import json, sys
d = json.load(sys.stdin)
spans, total, end = sorted((w["start_ns"], w["end_ns"]) for w in d["windows"]["list"]), 0, 0
for s, e in spans:
    total += max(0, e - max(s, end)); end = max(end, e)
print(d["windows"]["not_listed"], d["windows"]["corun_ns_per_core"]["0"], total, d["windows"]["total_ns"])'
check "coresched-cookies (SMT2): the co-run time is the windows' sum, 56.521 ms" test \
	"$(python3 -c "$union_of_list" < "$tap_tmp/full.json")" = "0 56521074 56521074 56521074"
if [ -f "$traces/d-smt4.dat" ]; then
	"$coreaudit" audit -t 0-3 --json "$traces/d-smt4.dat" > "$tap_tmp/smt4.json"
	check "d-smt4: the co-run time is the union of the 2009 windows (940.737 ms), not their sum (1.507 s)" \
		test "$(python3 -c "$union_of_list" < "$tap_tmp/smt4.json")" = "0 940736685 940736685 1507246504"
	"$coreaudit" audit -t 0-3 --unknown-cookie zero --json "$traces/d-smt4.dat" > "$tap_tmp/smt4z.json"
	check "d-smt4 --unknown-cookie zero: likewise the union (windows confirmed together, once)" \
		test "$(python3 -c "$union_of_list" < "$tap_tmp/smt4z.json")" = "0 940736685 940736685 1507246504"
	check "... and the text report's core table says it" grep -q \
		'^0     0,1,2,3          2009          0          940.737 ' <("$coreaudit" audit -t 0-3 "$traces/d-smt4.dat")
else
	skip "no real traces at $traces: no SMT4 co-run time"
fi
