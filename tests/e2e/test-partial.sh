#!/bin/bash
# test-partial.sh - partial traces never pass: the real traces of
# ../shared/traces and the bundled examples, as `trace-cmd report` text with
# one CPU's events cut after 40% of the span, or before 60% of it, with one
# CPU left out (`--cpu 0`), and audited with topologies that name CPUs the
# trace never shows or contradict its coreaudit-topology marker.  Each must be
# inconclusive (exit 4), naming the CPU and why; the intact traces stay fully
# observed.
. "$(dirname "$0")/tap.sh"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
cut="$top_srcdir/tests/e2e/cut-cpu.py"
hold_cpu_lock

if ! command -v trace-cmd > /dev/null; then
	skip "trace-cmd is not installed"
	exit 0
fi
files=("$top_srcdir"/examples/coresched-*.dat)
[ -f "$traces/d-cookies.dat" ] && files+=("$traces"/d-*.dat)

reason() {	# reason N: the Nth reason line of the text report in $tap_tmp/out
	sed -n "$(($1 + 1))p" "$tap_tmp/out"
}

for file in "${files[@]}"; do
	name=$(basename "$file" .dat)
	cpus=$(trace-cmd report --cpu 0 "$file" 2> /dev/null | sed -n 's/^cpus=//p')
	topology=0-$((cpus - 1))
	"$coreaudit" audit -t "$topology" --json "$file" > "$tap_tmp/intact.json"
	check "$name: the intact trace is observed throughout" test \
		"$(json_get "d['trace']['observed_pct']" < "$tap_tmp/intact.json")" = 100.0
	trace-cmd report "$file" > "$tap_tmp/$name.txt" 2> /dev/null
	for ((cpu = 0; cpu < cpus; cpu++)); do
		python3 "$cut" "$tap_tmp/$name.txt" "$tap_tmp/cut.txt" "$cpu" 0.4
		expect_exit 4 "$name: CPU $cpu cut after 40% is inconclusive" \
			"$coreaudit" audit -t "$topology" "$tap_tmp/cut.txt"
		check "$name: the reason names CPU $cpu, silent to the end" \
			grep -q "^  - CPU $cpu shows no event from [0-9.]* s to the end" "$tap_tmp/out"
		python3 "$cut" "$tap_tmp/$name.txt" "$tap_tmp/cut.txt" "$cpu" 0.6 before
		expect_exit 4 "$name: CPU $cpu cut before 60% is inconclusive" \
			"$coreaudit" audit -t "$topology" "$tap_tmp/cut.txt"
		check "$name: the reason names CPU $cpu, silent from the start" \
			grep -q "^  - CPU $cpu shows no event from [0-9.]* s to [0-9.]* s" "$tap_tmp/out"
	done
done

file=${files[0]}
trace-cmd report --cpu 0 "$file" > "$tap_tmp/cpu0.txt" 2> /dev/null
expect_exit 4 "report --cpu 0 of a two-CPU trace, audited as 0,1" \
	"$coreaudit" audit -t 0,1 "$tap_tmp/cpu0.txt"
check "it says CPU 1 was never seen" test "$(reason 1)" = "  - CPU 1, named by the topology, \
shows no event: unobserved over the whole span (the trace holds events of CPU 0 only: check the \
topology; an idle CPU shows none either: coreaudit record makes each show its state at the \
start)"

expect_exit 4 "-t \"0,1 2,3\" on a two-CPU trace" "$coreaudit" audit -t "0,1 2,3" "$file"
check "it says CPUs 2,3 were never seen" test "$(reason 1)" = "  - CPUs 2,3, named by the \
topology, show no event: unobserved over the whole span (the trace holds events of CPUs 0,1 \
only: check the topology; an idle CPU shows none either: coreaudit record makes each show its \
state at the start)"
expect_exit 4 "README's -t \"0,4 1,5 2,6 3,7\" on a two-CPU trace" \
	"$coreaudit" audit -t "0,4 1,5 2,6 3,7" "$file"
check "it says CPUs 2-7 were never seen" grep -q "^  - CPUs 2-7, named by" \
	"$tap_tmp/out"

expect_exit 4 "-t \"0 1\" against the trace's marker 0-1" "$coreaudit" audit -t "0 1" "$file"
check "it warns that the option differs from the marker" grep -qx "warning: --topology \"0 1\" \
differs from the trace's coreaudit-topology marker \"0-1\": the option is used (without it, the \
marker would be)" "$tap_tmp/out"
check "the report says the option was used" grep -q 'topology "0 1" (--topology)' "$tap_tmp/out"
expect_exit 0 "-t \"1,0\" agrees with the marker" "$coreaudit" audit -t "1,0" "$file"
check "no warning then" test "$(grep -c '^warning' "$tap_tmp/out")" = 0
exit 0
