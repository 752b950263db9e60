#!/bin/bash
# test-monitor.sh - coreaudit monitor on this machine's kernel: two tagged
# groups pinned to CPUs 0 and 1 (declared siblings) are found sharing the
# core live; SIGINT and SIGKILL leave no tracefs instance behind; --stop-on
# stops early.  Skips, saying why, without root or tracefs.
. "$(dirname "$0")/tap.sh"
workload="$top_builddir/tests/workload/workload"
live_test_prelude
instances() { ls "$tracefs/instances" | grep -c '^coreaudit-' || true; }
# Start the workload once a monitor traces (its start-up is slow under ASan,
# and the groups' tag markers must be recorded).
workload_when_traced() {	# SECONDS
	for _ in $(seq 300); do
		for dir in "$tracefs"/instances/coreaudit-*; do
			is_tracing "$dir" && break 2
		done
		sleep 0.1
	done
	date +%s > "$tap_tmp/traced_at"
	sleep 0.5
	exec "$workload" -d "$1" A:1:100:0:o:0 B:1:100:0:o:1
}
# Seconds from the instance's start of tracing to now (start-up is not counted:
# with kallsyms of 120,000 lines it alone takes 15 s under ASan).
since_traced() { echo $(($(date +%s) - $(cat "$tap_tmp/traced_at" 2> /dev/null || date +%s))); }
# Wait until monitor PID traces (its instance turns tracing on once every
# event is enabled: seconds under ASan).
wait_tracing() {
	for _ in $(seq 300); do
		is_tracing "$tracefs/instances/coreaudit-$1" && return
		sleep 0.1
	done
}
saved_on=$(cat "$tracefs/tracing_on")

# Markers reach the monitor's instance through copy_trace_marker (6.16+);
# on older kernels the groups write to the instance's own trace_marker.
(workload_when_traced 1.5 > "$tap_tmp/workload.out") &
expect_exit 1 "monitor finds A and B sharing core 0,1" \
	"$coreaudit" monitor -t 0,1 --tags markers --grace 1ms -d 4s -i 1s --json \
	--report capacity,fairness --save-trace "$tap_tmp/live.dat"
wait
cp "$tap_tmp/out" "$tap_tmp/monitor.json"
pid_a=$(sed -n 's/^task pid=\([0-9]*\) group=A .*/\1/p' "$tap_tmp/workload.out")
pid_b=$(sed -n 's/^task pid=\([0-9]*\) group=B .*/\1/p' "$tap_tmp/workload.out")
ab_ns() { sed -n '/^{/,$p' "$tap_tmp/monitor.json" | json_get "sum(w['end_ns'] - w['start_ns']
	for w in d['windows']['list'] if w['kind'] in ($1)
	and {t['pid'] for t in w['tasks']} == {${pid_a:-0}, ${pid_b:-0}})"; }
# How long A and B ran at once depends on what else this machine runs (a CI
# machine runs other tests beside this one): the truth is the saved trace's
# sched_switch lines as trace-cmd report prints them, without coreaudit.  The
# windows of every kind (those under the grace too) must add up to it.
trace-cmd report -t -i "$tap_tmp/live.dat" > "$tap_tmp/live.txt" 2> /dev/null
truth_ns=$(python3 "$top_srcdir/tests/e2e/corun-truth.py" --tagged "$tap_tmp/live.txt" \
	"${pid_a:-0}" "${pid_b:-0}" 0,1)
ab_all_ns=$(ab_ns "'skew', 'violation', 'unknown'")
check "A beside B live: windows total $ab_all_ns ns, trace-cmd report of the saved trace $truth_ns ns" \
	python3 -c "import sys; t, w = ${truth_ns:-0}, ${ab_all_ns:-0}; sys.exit(not (t > 100e6 and abs(w - t) <= 1e6))"
# Windows up to 15 ms whose leaving CPU ticked before and outlived its next
# tick are of unknown cause (a tick may have set need-resched in kernel code),
# the longer ones violations: A and B share the core for most of their 1.5 s.
# --report at the end: both threads busy at least while A and B ran together,
# and the two tags among the identities that contended.
report=$(sed -n '/^{/,$p' "$tap_tmp/monitor.json" | json_get "d['capacity']['all']['busy_ns'][2],
	'+'.join(sorted(i.get('tag') for i in d['fairness']['identities'] if i.get('tag') in ('A', 'B')))")
check "live --report: k=2 time covers A beside B ($report; $truth_ns ns), tags A and B contended" \
	test "${report#* }" = "A+B" -a "${report%% *}" -ge "${truth_ns:-1}" -a "${truth_ns:-0}" -gt 0
ab_violation_ns=$(ab_ns "'violation',")
check "A beside B live: violation windows total $ab_violation_ns ns (over 100 ms)" \
	test "${ab_violation_ns:-0}" -gt 100000000
check "violations were printed as they happened" grep -q "^violation at" "$tap_tmp/monitor.json"
# Live, the callsites of reschedule IPIs resolve as in a file (the monitor
# loads __schedule and the tick handlers from /proc/kallsyms).
ipis=$(sed -n '/^{/,$p' "$tap_tmp/monitor.json" |
	json_get "d['trace']['resched_ipis'], d['trace']['unnamed_resched_ipis']")
if [ "${ipis%% *}" = 0 ]; then
	skip "live: no reschedule IPI during the run, no callsite to name"
else
	check "live: every reschedule IPI's callsite named ($ipis)" test "${ipis##* }" = 0
fi
check "no coreaudit instance left" test "$(instances)" = 0
check "top-level tracing_on untouched" test "$(cat "$tracefs/tracing_on")" = "$saved_on"

"$coreaudit" monitor -t 0,1 -q > /dev/null 2>&1 &
monitor=$!
wait_tracing $monitor
sleep 0.5
check "the monitor's instance exists while it runs" test "$(instances)" = 1
kill -INT $monitor
wait $monitor
code=$?
check "SIGINT: it reports and exits with a verdict ($code)" test "$code" = 0 -o "$code" = 1 -o "$code" = 4
check "SIGINT: instance removed" test "$(instances)" = 0

"$coreaudit" monitor -t 0,1 -q > /dev/null 2>&1 &
monitor=$!
wait_tracing $monitor
kill -KILL $monitor
wait $monitor 2> /dev/null
check "SIGKILL leaves a stale instance" test "$(instances)" = 1
"$coreaudit" monitor -t 0,1 -q -d 200ms > /dev/null 2>&1
check "the next monitor removes it" test "$(instances)" = 0

rm -f "$tap_tmp/traced_at"
(workload_when_traced 3 > /dev/null) &
expect_exit 1 "--stop-on violation" "$coreaudit" monitor -t 0,1 --tags markers --grace 1ms \
	-q --stop-on violation -d 60s --save-trace "$tap_tmp/evidence.dat"
took=$(since_traced)
check "--stop-on violation stopped early ($took s after tracing began, of 60)" test "$took" -lt 15
wait
expect_exit 1 "--save-trace: the evidence audits offline to the same finding" \
	"$coreaudit" audit -t 0,1 --tags markers --grace 1ms "$tap_tmp/evidence.dat"
"$coreaudit" monitor -t 0,1 -q -d 300ms --save-trace "$tap_tmp/none.dat" > /dev/null 2>&1
check "--save-trace writes nothing when the monitor does not fail" test ! -e "$tap_tmp/none.dat"
# A threshold stops it too: any forced idle at all (woken tasks wait a moment
# on idle CPUs beside a busy sibling, which counts when cookies are unknown).
rm -f "$tap_tmp/traced_at"
"$coreaudit" monitor -t 0,1 -q --max-forced-idle 0 -d 60s > "$tap_tmp/thr.out" 2>&1 &
monitor=$!
(workload_when_traced 10 > /dev/null) &
wait $monitor
code=$?
took=$(since_traced)
pkill -f "$workload" 2> /dev/null
wait
check "--max-forced-idle 0: stopped early ($took s after tracing began, of 60) and failed ($code)" \
	test "$took" -lt 15 -a "$code" = 1
check "its reason names the threshold" grep -q "exceeds --max-forced-idle" "$tap_tmp/thr.out"
# A new tracefs instance traces at once; the monitor's must not until every
# event is enabled, or its first stretch has switches without the ipi and
# timer events that explain windows.  It turns tracing off right after
# creating the instance (tens of ms before it has read the event formats):
# once tracing_on has read 0, the first time it reads 1 the last event the
# monitor enables must already be on.
"$coreaudit" monitor -t 0,1 -q -d 3s > /dev/null 2>&1 &
monitor=$!
first_on="" was_off=""
for _ in $(seq 20000); do
	dir=$(ls -d "$tracefs"/instances/coreaudit-$monitor 2> /dev/null) || continue
	case "$(< "$dir/tracing_on")" in
	0) was_off=yes; continue ;;
	1) [ -n "$was_off" ] || continue ;;
	*) continue ;;		# the instance being made
	esac
	first_on="sched_switch $(< "$dir/events/sched/sched_switch/enable")"
	first_on="$first_on hrtimer_expire_entry $(< "$dir/events/timer/hrtimer_expire_entry/enable")"
	break
done
wait $monitor
check "tracing off during set-up, on only once every event is on (${first_on:-never off})" \
	test "$first_on" = "sched_switch 1 hrtimer_expire_entry 1"
expect_exit 2 "monitor: unknown option" "$coreaudit" monitor --frob
exit 0
