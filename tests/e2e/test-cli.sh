#!/bin/bash
# test-cli.sh - the coreaudit program as a user runs it: options, exit codes,
# messages, JSON, the bundled example (trace.dat and its report text), and a
# truncated file.
. "$(dirname "$0")/tap.sh"
example="$top_srcdir/examples/tenants-shared-core.dat"

expect_exit 0 "--help" "$coreaudit" --help
check "--help lists audit" grep -q '^  audit ' "$tap_tmp/out"
expect_exit 0 "audit --help" "$coreaudit" audit --help
expect_exit 2 "no command" "$coreaudit"
expect_exit 2 "unknown command" "$coreaudit" frobnicate
check "unknown command named" grep -q "unknown command 'frobnicate'" "$tap_tmp/err"
expect_exit 2 "unknown option" "$coreaudit" audit --frob "$example"
check "unknown option named" grep -q "unknown option '--frob'" "$tap_tmp/err"
expect_exit 2 "bad --grace" "$coreaudit" audit --grace 5 "$example"
check "bad --grace explained" grep -q "bad value '5' for --grace" "$tap_tmp/err"
expect_exit 2 "bad --topology" "$coreaudit" audit --topology 0,0 "$example"
expect_exit 2 "no trace file" "$coreaudit" audit -t 0,1
expect_exit 3 "missing file" "$coreaudit" audit -t 0,1 /nonexistent.dat
check "missing file named" grep -q "/nonexistent.dat: No such file or directory" "$tap_tmp/err"

# The bundled example: two tenants pinned to CPUs 0 and 1 (declared siblings).
expect_exit 1 "example fails: tenants share the core" "$coreaudit" audit --tags markers "$example"
check "verdict line first" sh -c "head -1 '$tap_tmp/out' | grep -qx 'coreaudit: FAIL'"
"$coreaudit" audit --tags markers --json "$example" > "$tap_tmp/example.json"
check "JSON: 4 violations, 13 skew, 13 unknown, 5 missed switches" test \
	"$(json_get "d['violations'], d['windows']['by_kind']['skew']['count'], d['windows']['by_kind']['unknown']['count'], d['trace']['missed_switches']" < "$tap_tmp/example.json")" = "4 13 13 5"
check "JSON: longest violation is tenant-a beside tenant-b for 50.108 ms" test \
	"$(json_get "[(w['end_ns'] - w['start_ns'], w['tasks'][0]['tag'], w['tasks'][1]['tag']) for w in d['windows']['list'] if w['kind'] == 'violation'][0]" < "$tap_tmp/example.json")" = "(50107766, 'tenant-a', 'tenant-b')"
check "JSON: topology from the trace's marker" test \
	"$(json_get "d['trace']['topology'], d['trace']['clock'], d['verdict']" < "$tap_tmp/example.json")" = "[[0, 1]] mono fail"

# The same trace as `trace-cmd report` text gives the same findings.
if command -v trace-cmd > /dev/null; then
	trace-cmd report -i "$example" > "$tap_tmp/example.txt" 2> /dev/null
	"$coreaudit" audit --tags markers --json "$tap_tmp/example.txt" > "$tap_tmp/text.json"
	check "text input: same violations and windows (to the microsecond)" test \
		"$(json_get "d['violations'], d['windows']['count'], d['trace']['format']" < "$tap_tmp/text.json")" = "4 30 text"
else
	skip "trace-cmd not installed: no report text to compare"
fi

# The real core-scheduling examples from the harness, against the kernel's own figures.
cookies="$top_srcdir/examples/coresched-cookies"
expect_exit 0 "coresched-cookies passes" "$coreaudit" audit --json "$cookies.dat"
cp "$tap_tmp/out" "$tap_tmp/cookies.json"
check "coresched-cookies: 1193 windows, all after a reschedule IPI, max 390 us" test \
	"$(json_get "d['windows']['count'], d['windows']['by_cause']['resched-ipi']['count'], d['windows']['max_ns']" \
	< "$tap_tmp/cookies.json")" = "1193 1193 390041"
python3 "$top_srcdir/tests/e2e/compare-forceidle.py" "$tap_tmp/cookies.json" "$cookies.tasks" \
	> "$tap_tmp/cookies.fi"
check "coresched-cookies: forced idle per task within 2% of the kernel's ($(tr '\n' ' ' < "$tap_tmp/cookies.fi"))" \
	python3 -c "import sys; e = [abs(float(l.split()[4])) for l in open('$tap_tmp/cookies.fi')]; sys.exit(len(e) != 2 or max(e) > 2)"
check "coresched-cookies: every reschedule IPI's callsite named (2703, none unnamed), no warning" \
	test "$(json_get "d['trace']['resched_ipis'], d['trace']['unnamed_resched_ipis'], d['warnings']" \
	< "$tap_tmp/cookies.json")" = "2703 0 []"
# The same trace as report text whose callsites are bare addresses (no
# kallsyms): picks fall back to their switch, and the audit says so.
if command -v trace-cmd > /dev/null; then
	trace-cmd report -i "$cookies.dat" 2> /dev/null |
		sed 's/callsite=[A-Za-z_][A-Za-z0-9_.]*+0x[0-9a-f]*/callsite=0xffffffff81000000/' \
		> "$tap_tmp/unnamed.txt"
	"$coreaudit" audit --json "$tap_tmp/unnamed.txt" > "$tap_tmp/unnamed.json"
	check "callsites without names: all 2703 reschedule IPIs counted unnamed" test \
		"$(json_get "d['trace']['resched_ipis'], d['trace']['unnamed_resched_ipis']" \
		< "$tap_tmp/unnamed.json")" = "2703 2703"
	check "callsites without names: a warning says picks are timed by their switch" \
		grep -q "names no function for the callsites of its 2703 reschedule IPIs" \
		"$tap_tmp/unnamed.json"
else
	skip "trace-cmd not installed: no report text with bare callsites"
fi
nocookies="$top_srcdir/examples/coresched-nocookies"
expect_exit 1 "coresched-nocookies with --tags markers: the groups shared the core" \
	"$coreaudit" audit --tags markers "$nocookies.dat"
"$coreaudit" audit --json "$nocookies.dat" > "$tap_tmp/nocookies.json"
python3 "$top_srcdir/tests/e2e/compare-forceidle.py" "$tap_tmp/nocookies.json" "$nocookies.tasks" \
	> "$tap_tmp/nocookies.fi"
check "coresched-nocookies: no forced idle, as the kernel says" \
	python3 -c "import sys; r = [l.split() for l in open('$tap_tmp/nocookies.fi')]; sys.exit(len(r) != 2 or any(x[2] != '0' or x[3] != '0' for x in r))"

# Without the tags the cookies are unknown: never a clean verdict.
expect_exit 4 "cookie identity without a cookie source is inconclusive" \
	"$coreaudit" audit "$example"

# Truncated trace.dat: exit 3 naming the file (a version 7 file keeps options
# after its CPU data: cut short, its headers cannot be read).
head -c 600000 "$example" > "$tap_tmp/truncated.dat"
expect_exit 3 "truncated trace.dat" "$coreaudit" audit -t 0,1 "$tap_tmp/truncated.dat"
check "truncated file named" grep -q "truncated.dat: " "$tap_tmp/err"

# One damaged byte in a zstd chunk of coresched-cookies decompresses into a page
# whose events overrun it (`trace-cmd report` dies of SIGSEGV on it): the chunk
# reader skips that page and the audit is inconclusive; the record reader will
# not let libtracecmd load it (it is CPU 1's first page) and says so.
# test-damage.sh damages every trace many ways.
cp "$top_srcdir/examples/coresched-cookies.dat" "$tap_tmp/damaged.dat"
chmod u+w "$tap_tmp/damaged.dat"
printf '\035' | dd of="$tap_tmp/damaged.dat" bs=1 seek=435060 conv=notrunc 2> /dev/null
expect_exit 4 "a damaged page, chunk reader" "$coreaudit" audit -t 0,1 "$tap_tmp/damaged.dat"
expect_exit 3 "a damaged page, --reader records" \
	"$coreaudit" audit -t 0,1 --reader records "$tap_tmp/damaged.dat"
check "a damaged page, --reader records: the file, the CPU and the page named" \
	grep -q "damaged.dat: its first page is damaged (CPU 1, file offset 434176)" "$tap_tmp/err"

# Every shipped rule file parses, and a broken one is a usage error naming FILE:LINE:COL.
for rules in "$top_srcdir"/rules/*.rules; do
	"$coreaudit" audit --rules "$rules" "$top_srcdir/examples/coresched-cookies.dat" \
		> /dev/null 2> "$tap_tmp/rules.err"
	check "rules/$(basename "$rules") parses and audits (exit $?)" test ! -s "$tap_tmp/rules.err"
done
printf 'tag a comm x\nisolate a\n' > "$tap_tmp/bad.rules"
expect_exit 2 "a rule file that does not parse" "$coreaudit" audit --rules "$tap_tmp/bad.rules" \
	"$top_srcdir/examples/coresched-cookies.dat"
check "its error names FILE:2:10" grep -q "bad.rules:2:10: missing words" "$tap_tmp/err"

# Every long option of each command's --help is in its man page.
for command in audit monitor record; do
	missing=""
	for opt in $("$coreaudit" $command --help | grep -o -- '--[a-z-]*' | sort -u); do
		grep -q -- "${opt//-/\\\\-}\|$opt" "$top_srcdir/man/coreaudit-$command.1" ||
			missing="$missing $opt"
	done
	check "coreaudit-$command(1) documents every option${missing:+ (missing:$missing)}" \
		test -z "$missing"
done
exit 0
