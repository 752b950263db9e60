#!/bin/bash
# test-reports.sh - the reports a CI pipeline reads (issue 16): JUnit XML
# validated against tests/e2e/junit.xsd, several traces in one call (each
# reported, a summary, the worst exit status, a JSON array), and trace-cmd's
# habits: -i FILE, trace.dat when no file is given, - for report text on stdin.
# --color: the verdict coloured on a terminal.
. "$(dirname "$0")/tap.sh"
examples="$top_srcdir/examples"
tenants="$examples/tenants-shared-core.dat"
cookies="$examples/coresched-cookies.dat"
nocookies="$examples/coresched-nocookies.dat"
xsd="$top_srcdir/tests/e2e/junit.xsd"
# xpath EXPR FILE: what xmllint's XPath gives (a number, a string, nodes)
xpath() { xmllint --xpath "$1" "$2" 2> /dev/null; }
valid() {	# FILE: xmllint's complaints shown when it is not valid
	xmllint --noout --schema "$xsd" "$1" 2> "$tap_tmp/xmllint.err" && return 0
	sed 's/^/# /' "$tap_tmp/xmllint.err"
	return 1
}

if ! command -v xmllint > /dev/null; then
	skip "xmllint is not installed (Debian libxml2-utils)"
	exit 0
fi

# 1. One failing trace: its failure carries the worst windows with time, CPUs and tasks.
expect_exit 1 "tenants (tags): fails" "$coreaudit" audit --tags markers --junit "$tap_tmp/t.xml" "$tenants"
check "tenants: the JUnit file validates" valid "$tap_tmp/t.xml"
check "tenants: 2 testcases (observed, isolation): 1 failure, 1 error" test \
	"$(xpath 'concat(/testsuites/@tests, " ", /testsuites/@failures, " ", /testsuites/@errors)' "$tap_tmp/t.xml")" = "2 1 1"
check "tenants: isolation fails by its 2 windows over the grace" test \
	"$(xpath 'string(//testcase[@name="isolation"]/failure/@message)' "$tap_tmp/t.xml")" = \
	"2 co-run windows of different tags at or over the grace period (5.000ms)"
check "tenants: the worst window first: 50.108 ms, CPUs 0 and 1, tenant-a beside tenant-b" \
	grep -q '^1510.324641104 50.108ms on core 0 (cpus 0,1, cause unknown): workload:28194 tag=tenant-a | workload:28195 tag=tenant-b$' "$tap_tmp/t.xml"
check "tenants: observed is in error: 5 events contradict the task believed current" test \
	"$(xpath 'string(//testcase[@name="observed"]/error/@type)' "$tap_tmp/t.xml")" = inconclusive
check "tenants: the text report is the suite's system-out" test \
	"$(xpath 'substring(//testsuite/system-out, 1, 15)' "$tap_tmp/t.xml")" = "coreaudit: FAIL"

# 2. Several traces: a report each, a summary, the worst exit status, a suite each.
expect_exit 3 "cookies, nocookies, a missing file: exit 3 (bad input)" "$coreaudit" audit \
	--junit "$tap_tmp/m.xml" "$cookies" "$nocookies" "$tap_tmp/missing.dat"
check "several: one report each, headed by its file" test "$(grep -c '^==> ' "$tap_tmp/out")" = 3
check "several: the summary names each result" test "$(sed -n '/^summary: 3 traces, exit 3 (bad-input)$/,$p' "$tap_tmp/out" | awk 'NR > 2 { print $1 }' | tr '\n' ' ')" = "pass pass bad-input "
check "several: the missing file's error in the summary" grep -q "bad-input .*missing.dat: No such file or directory" "$tap_tmp/out"
check "several: the JUnit file validates" valid "$tap_tmp/m.xml"
check "several: 3 suites; the unread one a single testcase \"read\" in error" test \
	"$(xpath 'concat(count(//testsuite), " ", count(//testsuite[3]/testcase), " ", //testsuite[3]/testcase/@name, " ", //testsuite[3]/testcase/error/@type)' "$tap_tmp/m.xml")" = "3 1 read bad-input"
check "several: the passing suites' checks all held" test \
	"$(xpath 'count(//testsuite[position() < 3]/testcase[failure or error])' "$tap_tmp/m.xml")" = 0
check "several: cookies ran observed, isolation, reselect, inversion, unjustified" test \
	"$(xpath '//testsuite[1]/testcase/@name' "$tap_tmp/m.xml" | tr -d ' ' | tr '\n' ' ')" = \
	'name="observed" name="isolation" name="reselect" name="inversion" name="unjustified" '
expect_exit 1 "pass, inconclusive and fail: the fail wins" "$coreaudit" audit --tags markers \
	"$tenants" "$cookies"
expect_exit 4 "pass and inconclusive: inconclusive" "$coreaudit" audit "$cookies" "$tenants"
"$coreaudit" audit --json "$cookies" "$tap_tmp/missing.dat" > "$tap_tmp/m.json" 2> /dev/null
check "several, --json: an array, the unread trace an object with its error" test \
	"$(json_get "len(d), d[0]['verdict'], d[1]['result'], d[1]['trace']['file'].endswith('missing.dat')" < "$tap_tmp/m.json")" = "2 pass bad-input True"

# 3. A bad rule file is in error, a --junit file that cannot be written a usage error.
printf 'isolate a\n' > "$tap_tmp/bad.rules"
expect_exit 2 "bad rule file: exit 2" "$coreaudit" audit --rules "$tap_tmp/bad.rules" \
	--junit "$tap_tmp/r.xml" "$cookies"
check "bad rule file: one testcase \"options\" in error, valid" sh -c \
	"xmllint --noout --schema '$xsd' '$tap_tmp/r.xml' 2> /dev/null &&
	 test \"\$(xmllint --xpath 'string(//testcase/error/@type)' '$tap_tmp/r.xml')\" = bad-options"
cp "$cookies" "$tap_tmp/trace.dat"
expect_exit 2 "--junit naming the trace itself: refused" "$coreaudit" audit --junit "$tap_tmp/trace.dat" "$tap_tmp/trace.dat"
check "... before it is emptied" cmp -s "$cookies" "$tap_tmp/trace.dat"
expect_exit 2 "--junit in a missing directory" "$coreaudit" audit --junit /nonexistent/j.xml "$cookies"
check "... says so" grep -q "^coreaudit: audit: --junit /nonexistent/j.xml: cannot write it: No such file or directory$" "$tap_tmp/err"

# 4. trace-cmd's habits.
expect_exit 1 "-i FILE as trace-cmd" "$coreaudit" audit --tags markers -i "$tenants"
expect_exit 4 "-i given per file" "$coreaudit" audit -i "$cookies" -i "$tenants"
check "... both audited" test "$(grep -c '^==> ' "$tap_tmp/out")" = 2
mkdir "$tap_tmp/cwd"
(cd "$tap_tmp/cwd" && "$coreaudit" audit > ../out 2> ../err; echo $? > ../rc)
check "no file, none here: trace.dat is missing (exit 3)" sh -c \
	"test \"\$(cat '$tap_tmp/rc')\" = 3 && grep -qx 'coreaudit: trace.dat: No such file or directory' '$tap_tmp/err'"
cp "$tenants" "$tap_tmp/cwd/trace.dat"
(cd "$tap_tmp/cwd" && "$coreaudit" audit --tags markers > ../out 2> ../err; echo $? > ../rc)
check "no file: ./trace.dat is audited (exit 1)" test "$(cat "$tap_tmp/rc")" = 1
if command -v trace-cmd > /dev/null; then
	trace-cmd report -i "$tenants" 2> /dev/null |
		"$coreaudit" audit --tags markers --json - > "$tap_tmp/stdin.json"
	check "- reads report text on stdin: the file's 2 violations and 30 windows" test \
		"$(json_get "d['violations'], d['windows']['count'], d['trace']['format']" < "$tap_tmp/stdin.json")" = "2 30 text"
else
	skip "trace-cmd not installed: no report text for stdin"
fi
expect_exit 3 "- with a trace.dat on stdin: refused" sh -c "'$coreaudit' audit - < '$cookies'"
check "... says to give its name" grep -qx 'coreaudit: stdin: a trace.dat is read from its file (libtracecmd seeks in it): give its name instead of -' "$tap_tmp/err"

# 5. A task name that is not UTF-8 (a comm is bytes) still gives valid XML.
if command -v trace-cmd > /dev/null; then
	trace-cmd report -i "$tenants" 2> /dev/null | sed 's/workload\([-:]28194\)/w\xff\xfeld\1/g' \
		> "$tap_tmp/bytes.txt"
	expect_exit 1 "comm with bytes past ASCII: fails as before" "$coreaudit" audit --tags markers \
		--junit "$tap_tmp/b.xml" "$tap_tmp/bytes.txt"
	check "... and the JUnit file validates" valid "$tap_tmp/b.xml"
	check "... the bytes shown as ?" grep -q 'w??ld:28194 tag=tenant-a' "$tap_tmp/b.xml"
fi

# 6. --baseline: held to an earlier run's JSON report.
"$coreaudit" audit --json "$cookies" > "$tap_tmp/base.json"
expect_exit 0 "--baseline of its own report: nothing worse" "$coreaudit" audit --json \
	--baseline "$tap_tmp/base.json" --junit "$tap_tmp/base.xml" "$cookies"
check "... every figure compared, none worse, 30.98% forced idle both times" test "$(json_get \
	"d['baseline']['worse'], all(f['compared'] for f in d['baseline']['figures']), d['baseline']['figures'][0]['old'], d['baseline']['figures'][0]['new']" \
	< "$tap_tmp/out")" = "0 True 30.98 30.98"
check "... a testcase \"baseline\" that held" test \
	"$(xpath 'count(//testcase[@name="baseline" and not(failure) and not(error)])' "$tap_tmp/base.xml")" = 1
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
d['forced_idle']['percent'] = 10.0
d['windows']['count'] = 1000
json.dump(d, open(sys.argv[2], 'w'))" "$tap_tmp/base.json" "$tap_tmp/better.json"
expect_exit 1 "--baseline of a better run: fails" "$coreaudit" audit --baseline "$tap_tmp/better.json" "$cookies"
check "... forced idle: 30.98 against 10 percent, allowed 11 (the floor of 1 point)" grep -qF \
	"forced idle got worse than in $tap_tmp/better.json: 30.98 against 10 percent (the margin, 10% and a floor, allows 11)" \
	"$tap_tmp/out"
check "... windows: 1193 against 1000, allowed 1100 (10%)" grep -qF \
	"windows got worse than in $tap_tmp/better.json: 1193 against 1000 windows (the margin, 10% and a floor, allows 1100)" \
	"$tap_tmp/out"
expect_exit 0 "... within --baseline-margin 20 the windows pass, forced idle not" sh -c \
	"'$coreaudit' audit --baseline '$tap_tmp/better.json' --baseline-margin 20 --json '$cookies' |
	 python3 -c \"import json, sys; d = json.load(sys.stdin); sys.exit([f['name'] for f in d['baseline']['figures'] if f['worse']] != ['forced idle'])\""
echo '[1, 2]' > "$tap_tmp/array.json"
expect_exit 2 "--baseline with no report in it" "$coreaudit" audit --baseline "$tap_tmp/array.json" "$cookies"
check "... says so" grep -qF "coreaudit: --baseline $tap_tmp/array.json: no figure of a coreaudit audit --json report in it" "$tap_tmp/err"
echo 'not json' > "$tap_tmp/junk.json"
expect_exit 2 "--baseline of a file that is not JSON" "$coreaudit" audit --baseline "$tap_tmp/junk.json" "$cookies"
expect_exit 2 "--baseline-margin without --baseline" "$coreaudit" audit --baseline-margin 5 "$cookies"

# 7. --color: the verdict green, red or yellow on a terminal, never in a pipe or under NO_COLOR.
esc=$(printf '\033')
expect_exit 0 "--color always: passes" "$coreaudit" audit --color always "$cookies"
check "... PASS in bold green" grep -qx "coreaudit: ${esc}\[1;32mPASS${esc}\[0m" "$tap_tmp/out"
check "... nothing else coloured" test "$(grep -c "$esc" "$tap_tmp/out")" = 1
expect_exit 1 "--color always on a failing trace" "$coreaudit" audit --color always --tags markers "$tenants"
check "... FAIL in bold red, its failure red, what is unknown yellow" sh -c \
	"grep -qx 'coreaudit: ${esc}\[1;31mFAIL${esc}\[0m' '$tap_tmp/out' &&
	 grep -q '^  - ${esc}\[31m2 co-run windows' '$tap_tmp/out' &&
	 grep -q '^  - ${esc}\[33m' '$tap_tmp/out'"
expect_exit 1 "--color auto (the default) in a pipe" "$coreaudit" audit --tags markers "$tenants"
check "... no escape at all" sh -c "! grep -q '$esc' '$tap_tmp/out'"
if command -v script > /dev/null; then
	script -qc "'$coreaudit' audit '$cookies'" /dev/null > "$tap_tmp/tty" < /dev/null
	check "--color auto on a terminal: coloured" grep -q "PASS${esc}\[0m" "$tap_tmp/tty"
	NO_COLOR=1 script -qc "'$coreaudit' audit '$cookies'" /dev/null > "$tap_tmp/tty" < /dev/null
	check "... not under NO_COLOR" sh -c "! grep -q '$esc' '$tap_tmp/tty'"
	TERM=dumb script -qc "'$coreaudit' audit '$cookies'" /dev/null > "$tap_tmp/tty" < /dev/null
	check "... nor on a dumb terminal" sh -c "! grep -q '$esc' '$tap_tmp/tty'"
else
	skip "script (bsdutils) is not installed: no terminal to test --color auto on"
fi
expect_exit 0 "--color always --json: the JSON stays plain" "$coreaudit" audit --color always --json "$cookies"
check "... no escape in it" sh -c "! grep -q '$esc' '$tap_tmp/out'"
expect_exit 2 "--color sometimes: a usage error" "$coreaudit" audit --color sometimes "$cookies"

# A comm whose bytes are not UTF-8 (a damaged line; the kernel copies comms as
# bytes): every report stays valid UTF-8, the bad bytes shown as "?" (the JSON
# was not valid: jq and Python refused it).
if command -v trace-cmd > /dev/null; then
	trace-cmd report -t -i "$cookies" 2> /dev/null |
		sed 's/workload/work\xffload/g' > "$tap_tmp/bytes.txt"
	expect_exit 0 "a comm of bytes that are not UTF-8: audited" "$coreaudit" audit \
		--json --junit "$tap_tmp/bytes.xml" --perfetto "$tap_tmp/bytes.pf" "$tap_tmp/bytes.txt"
	check "... its JSON is valid, the comm shown as work?load" test "$(json_get \
		"'work?load' in {t['comm'] for w in d['windows']['list'] for t in w['tasks']}" \
		< "$tap_tmp/out")" = True
	trace-cmd report -t -i "$cookies" 2> /dev/null |
		sed 's/workload/work\xc0\x80load/g' > "$tap_tmp/overlong.txt"
	check "... nor an overlong NUL (bytes libxml2's check lets pass): valid JSON, work??load" \
		test "$("$coreaudit" audit --json "$tap_tmp/overlong.txt" 2> /dev/null | json_get \
		"'work??load' in {t['comm'] for w in d['windows']['list'] for t in w['tasks']}")" = True
	check "... its JUnit and Perfetto files are valid" sh -c 'xmllint --noout "$1" &&
		python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$2"' _ \
		"$tap_tmp/bytes.xml" "$tap_tmp/bytes.pf"
else
	skip "trace-cmd is not installed: no report text to put such a comm in"
fi
