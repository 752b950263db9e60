#!/bin/bash
# test-real-traces.sh - audit the real core-scheduling traces in
# ../shared/traces (Linux 6.12 with CONFIG_SCHED_CORE under QEMU, README
# there) and hold coreaudit to what a correct kernel must show:
#  - windows: no unexplained co-run window of 200 us or more on d-cookies,
#    d-prctl, d-mixed and d-smt4 (every other window has a pending
#    reschedule, or on d-smt4 one a stalled vCPU kept open);
#  - forced idle: per workload task, coreaudit's kernel-terms figure within 2%
#    of the kernel's own core_forceidle_sum on d-cookies, d-prctl and d-mixed,
#    and exactly 0 on d-nocookies (no cookies, no forced idle);
#  - d-prctl: cookies rebuilt from prctl give the two groups distinct cookies.
# One d-smt4 task misses its 8% forced-idle bound (README, Accuracy): d-smt4's
# forced idle is not here.
. "$(dirname "$0")/tap.sh"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
compare="$top_srcdir/tests/e2e/compare-forceidle.py"
hold_cpu_lock

if [ ! -f "$traces/d-cookies.dat" ]; then
	skip "no real traces at $traces (set COREAUDIT_TRACES)"
	exit 0
fi

audit() {	# audit NAME TOPOLOGY: JSON in $tap_tmp/NAME.json
	"$coreaudit" audit -t "$2" --unknown-cookie zero --json "$traces/$1.dat" \
		> "$tap_tmp/$1.json" 2> "$tap_tmp/$1.err"
}

for name in d-cookies d-prctl d-mixed d-smt4; do
	topology=0,1
	[ "$name" = d-smt4 ] && topology=0-3
	audit "$name" "$topology"
	unexplained=$(json_get "len([w for w in d['windows']['list'] if w['cause'] == 'unexplained'
		and w['end_ns'] - w['start_ns'] >= 200000])" < "$tap_tmp/$name.json")
	explained=$(json_get "d['windows']['by_cause']['resched-ipi']['count']" < "$tap_tmp/$name.json")
	check "$name: 0 unexplained windows of 200 us or more ($explained after a reschedule IPI)" \
		test "$unexplained" = 0 -a "$explained" -gt 500
done

for name in d-cookies d-prctl d-mixed; do
	python3 "$compare" "$tap_tmp/$name.json" "$traces/$name.tasks" > "$tap_tmp/$name.fi"
	while read -r pid group kernel ours error; do
		check "$name: task $pid ($group) forced idle $ours ns vs kernel $kernel ns: $error% (within 2%)" \
			python3 -c "import sys; sys.exit(abs(float('$error')) > 2.0)"
	done < "$tap_tmp/$name.fi"
done

audit d-nocookies 0,1
python3 "$compare" "$tap_tmp/d-nocookies.json" "$traces/d-nocookies.tasks" > "$tap_tmp/none.fi"
while read -r pid group kernel ours error; do
	check "d-nocookies: task $pid ($group) forced idle $ours ns (kernel $kernel)" \
		test "$ours" = 0 -a "$kernel" = 0
done < "$tap_tmp/none.fi"
check "d-nocookies: no co-run window of different cookies" test \
	"$(json_get "d['windows']['count']" < "$tap_tmp/d-nocookies.json")" = 0

check "d-prctl: cookies rebuilt from prctl" test \
	"$(json_get "d['trace']['cookie_source']" < "$tap_tmp/d-prctl.json")" = prctl
check "d-prctl: in judged windows the two groups have one distinct non-zero cookie each" \
	test "$(json_get "sorted({(t['pid'], t['cookie'] != 0) for w in d['windows']['list']
	if w['kind'] != 'unknown' for t in w['tasks'] if t['pid'] in (66, 67)})
	+ [len({t['cookie'] for w in d['windows']['list'] if w['kind'] != 'unknown'
	for t in w['tasks'] if t['pid'] in (66, 67)})]" < "$tap_tmp/d-prctl.json")" = \
	"[(66, True), (67, True), 2]"
exit 0
