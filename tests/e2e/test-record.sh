#!/bin/bash
# test-record.sh - coreaudit record on this machine: the trace.dat it writes
# is read by trace-cmd and by coreaudit audit, whose verdict and event count
# repeat those of the recording's own live pipeline; with tags, the two
# groups are found sharing the declared core.  Skips without root or tracefs.
. "$(dirname "$0")/tap.sh"
workload="$top_builddir/tests/workload/workload"
live_test_prelude

expect_exit 0 "record -o FILE -- workload" "$coreaudit" record -o "$tap_tmp/rec.dat" -t 0,1 \
	-- "$workload" -d 2 A:1:100:0:o:0 B:1:100:0:o:1
cp "$tap_tmp/err" "$tap_tmp/record.err"
pid_a=$(sed -n 's/^task pid=\([0-9]*\) group=A .*/\1/p' "$tap_tmp/out")
pid_b=$(sed -n 's/^task pid=\([0-9]*\) group=B .*/\1/p' "$tap_tmp/out")
check "no coreaudit instance left" test "$(ls $tracefs/instances | grep -c '^coreaudit-')" = 0
if command -v trace-cmd > /dev/null; then
	check "trace-cmd report reads it" test \
		"$(trace-cmd report -i "$tap_tmp/rec.dat" 2> /dev/null | grep -c 'sched_switch:')" -gt 10
else
	skip "trace-cmd is not installed"
fi
if command -v trace-cmd > /dev/null; then
	trace-cmd dump --kallsyms -i "$tap_tmp/rec.dat" > "$tap_tmp/kallsyms.txt" 2>&1
	check "its kallsyms name __schedule and the tick handlers" \
		test "$(grep -cw -e __schedule -e tick_nohz_handler "$tap_tmp/kallsyms.txt")" -ge 2
else
	skip "trace-cmd is not installed"
fi
live_verdict=$(sed -n 's/.*verdict while recording: \(.*\)/\1/p' "$tap_tmp/record.err")
live_events=$(sed -n 's/.*recorded \([0-9]*\) events.*/\1/p' "$tap_tmp/record.err")
"$coreaudit" audit --json "$tap_tmp/rec.dat" > "$tap_tmp/audit.json"
check "audit of the file repeats the recording's verdict ($live_verdict) and events ($live_events)" \
	test "$(json_get "d['verdict'], d['trace']['events']" < "$tap_tmp/audit.json")" = \
	"$live_verdict $live_events"
check "the file carries topology 0,1 (marker) and clock mono" test \
	"$(json_get "d['trace']['topology'], d['trace']['clock']" < "$tap_tmp/audit.json")" = \
	"[[0, 1]] mono"
expect_exit 1 "audit --tags markers finds A and B sharing the core" \
	"$coreaudit" audit --tags markers --grace 1ms --json "$tap_tmp/rec.dat"
ab_ns() { json_get "sum(w['end_ns'] - w['start_ns'] for w in d['windows']['list']
	if w['kind'] in ($1) and {t['pid'] for t in w['tasks']} == {${pid_a:-0}, ${pid_b:-0}})" \
	< "$tap_tmp/out"; }
# How long A and B shared the core depends on what else this machine runs: the
# truth is the file's sched_switch lines as trace-cmd report prints them.
if command -v trace-cmd > /dev/null; then
	trace-cmd report -t -i "$tap_tmp/rec.dat" > "$tap_tmp/rec.txt" 2> /dev/null
	truth_ns=$(python3 "$top_srcdir/tests/e2e/corun-truth.py" --tagged "$tap_tmp/rec.txt" \
		"${pid_a:-0}" "${pid_b:-0}" 0,1)
	all_ns=$(ab_ns "'skew', 'violation', 'unknown'")
	check "A|B windows total $all_ns ns, trace-cmd report's overlap $truth_ns ns" python3 -c "
import sys; t, w = ${truth_ns:-0}, ${all_ns:-0}; sys.exit(not (t > 100e6 and abs(w - t) <= 1e6))"
else
	skip "trace-cmd is not installed"
fi
violation_ns=$(ab_ns "'violation',")
check "A|B violations recorded for more than 100 ms ($violation_ns ns)" test "${violation_ns:-0}" -gt 100000000
# --kernel-entry: irq, softirq and system calls too, without recording its own.
expect_exit 0 "record --kernel-entry -- workload" "$coreaudit" record --kernel-entry \
	-o "$tap_tmp/ke.dat" -t 0,1 -- "$workload" -d 1 A:1:60:0:o:0 B:1:60:0:o:1
check "--kernel-entry: the recorder's own system calls stay out (a 1 s file under 20 MB)" \
	test "$(stat -c %s "$tap_tmp/ke.dat")" -lt 20000000
ke_live=$(sed -n 's/.*recorded \([0-9]*\) events.*verdict while recording: \(.*\)/\2 \1/p' \
	"$tap_tmp/err")
check "--kernel-entry: the file's audit repeats the recording's verdict and events ($ke_live)" \
	test "$("$coreaudit" audit --json "$tap_tmp/ke.dat" 2> /dev/null |
	json_get "d['verdict'], d['trace']['events']")" = "$ke_live"
"$coreaudit" audit --unknown-cookie zero --report exposure --json "$tap_tmp/ke.dat" \
	> "$tap_tmp/ke.json"
check "audit --report exposure: measured, with system calls and softirqs" test \
	"$(json_get "d['exposure']['measured'], d['exposure']['in_kernel_ns']['syscall'] > 0,
	d['exposure']['in_kernel_ns']['softirq'] > 0" < "$tap_tmp/ke.json")" = "True True True"
if command -v trace-cmd > /dev/null; then
	trace-cmd report -t -i "$tap_tmp/ke.dat" > "$tap_tmp/ke.txt" 2> /dev/null
	truth=$(python3 "$top_srcdir/tests/e2e/kernel-truth.py" "$tap_tmp/ke.txt" 0,1)
	got=$(json_get "d['exposure']['in_kernel_ns']['irq'], d['exposure']['in_kernel_ns']['softirq']" \
		< "$tap_tmp/ke.json")
	check "irq and softirq time ($got ns) as trace-cmd report's entries and exits say ($truth)" \
		test "$got" = "$truth"
	[ "$got" = "$truth" ] || echo "# unobserved: $(json_get "d['trace']['unobserved']" \
		< "$tap_tmp/ke.json")"
	# The same on copies of its text that lost events as hosts and damage lose
	# them: where the core was observed, by every rule the README gives.
	for kind in lines blocks quiet pids end; do
		python3 "$top_srcdir/tests/e2e/drop-lines.py" "$tap_tmp/ke.txt" "$tap_tmp/kd.txt" 7 $kind
		truth=$(python3 "$top_srcdir/tests/e2e/kernel-truth.py" "$tap_tmp/kd.txt" 0,1)
		got=$("$coreaudit" audit -t 0,1 --unknown-cookie zero --report exposure --json \
			"$tap_tmp/kd.txt" 2> /dev/null | json_get "d['exposure']['in_kernel_ns']['irq'],
			d['exposure']['in_kernel_ns']['softirq']")
		check "its text, events dropped ($kind): irq and softirq time ($got ns) as the text says ($truth)" \
			test "$got" = "$truth"
	done
else
	skip "trace-cmd is not installed"
fi
expect_exit 0 "record -d without a command" "$coreaudit" record -o "$tap_tmp/d.dat" -d 300ms
expect_exit 2 "record without -o" "$coreaudit" record -d 1s
expect_exit 3 "record to an unwritable path" "$coreaudit" record -o /nonexistent/x.dat -d 100ms
cpus=$(ls -d $tracefs/per_cpu/cpu* | wc -l)
expect_exit 2 "record --topology with a CPU the machine lacks" "$coreaudit" record \
	-t "0,$cpus" -o "$tap_tmp/none.dat" -d 100ms
check "its error names the CPU" grep -q "record: --topology names CPU $cpus, but this machine's CPUs are 0 to $((cpus - 1))" "$tap_tmp/err"
expect_exit 3 "record -- a command that does not exist" "$coreaudit" record -t 0,1 \
	-o "$tap_tmp/none.dat" -- "$tap_tmp/no-such-command"
check "its error names the command and why" \
	grep -q "record: cannot run $tap_tmp/no-such-command: No such file or directory" "$tap_tmp/err"
check "no file is written for it" test ! -e "$tap_tmp/none.dat"
echo data > "$tap_tmp/not-executable"
chmod 644 "$tap_tmp/not-executable"
expect_exit 3 "record -- a file that may not be run" "$coreaudit" record -t 0,1 \
	-o "$tap_tmp/none.dat" -- "$tap_tmp/not-executable"
check "no coreaudit instance left after them" test "$(ls $tracefs/instances | grep -c '^coreaudit-')" = 0
exit 0
