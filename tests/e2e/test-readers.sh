#!/bin/bash
# test-readers.sh - the default readers against the reference, one
# libtracecmd record per event (--reader records): version 7 zstd files read
# chunk by chunk with libzstd ("chunks"), version 6 files in place from
# libtracecmd's pages ("pages"); the same JSON findings on every bundled
# trace (examples/, and ../shared/traces when present) and on each example
# converted to version 6; the report text of a real trace gives the file's
# findings; the trace clock a file names is judged (per CPU, or no
# nanoseconds: inconclusive); a trace whose timestamps libtracecmd converts (recorded here
# with trace-cmd record --date) is read through records by itself; lost
# events read through the chunk reader are the reference's; and a recording
# into a tracefs instance (-B) is refused naming the instance.
. "$(dirname "$0")/tap.sh"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
hold_cpu_lock

# same_findings FILE TOPOLOGY READER: the default reader is READER, and its
# JSON is the reference's but for the reader's name
same_findings() {
	local name
	name=$(basename "$1" .dat)
	"${leaky[@]}" "$coreaudit" audit -t "$2" --unknown-cookie zero --json "$1" \
		> "$tap_tmp/default.json" 2> /dev/null
	"${leaky[@]}" "$coreaudit" audit -t "$2" --unknown-cookie zero --json --reader records "$1" \
		> "$tap_tmp/records.json" 2> /dev/null
	check "$name: read by the $3 reader" grep -q "\"reader\": \"$3\"" "$tap_tmp/default.json"
	sed -i "s/\"reader\": \"records\"/\"reader\": \"$3\"/" "$tap_tmp/records.json"
	check "$name: the $3 reader's findings are the reference's ($(wc -c < "$tap_tmp/default.json") bytes of JSON)" \
		cmp -s "$tap_tmp/default.json" "$tap_tmp/records.json"
}

# same_findings_leaky FILE TOPOLOGY READER: same_findings, leak detection off
same_findings_leaky() {
	local leaky=(env ASAN_OPTIONS=detect_leaks=0)

	same_findings "$@"
}

# same_findings_v6 FILE TOPOLOGY: the same, on FILE converted to version 6.
# libtracecmd 1.3.1 leaks 5 bytes (an sscanf %ms in tracecmd_parse_trace_clock,
# valgrind shows it in the bare read loop too) opening what trace-cmd convert
# writes: leak detection off for these runs only.
same_findings_v6() {
	local v6="$tap_tmp/$(basename "$1" .dat)-v6.dat"

	trace-cmd convert --file-version 6 --compression none -i "$1" -o "$v6" > /dev/null 2>&1
	same_findings_leaky "$v6" "$2" pages
}
leaky=(env)

for f in "$top_srcdir"/examples/*.dat; do
	same_findings "$f" 0,1 chunks
done
if [ -f "$traces/d-cookies.dat" ]; then
	for name in d-cookies d-prctl d-mixed d-nocookies; do
		same_findings "$traces/$name.dat" 0,1 chunks
	done
	same_findings "$traces/d-smt4.dat" 0-3 chunks
else
	skip "no real traces at $traces (set COREAUDIT_TRACES)"
fi

# The trace clock a file names, judged: the example converted to version 6
# (its clock is mono), then the brackets of its saved trace_clock moved to
# another name, nothing else changed.  Nanoseconds of one clock for every CPU
# keep the verdict; a per-CPU clock, or one that counts no nanoseconds, makes
# it inconclusive and is named.
trace-cmd convert --file-version 6 --compression none -i "$top_srcdir/examples/coresched-cookies.dat" \
	-o "$tap_tmp/clock-v6.dat" > /dev/null 2>&1
with_clock() {	# with_clock NAME: $tap_tmp/clock-NAME.dat
	python3 - "$tap_tmp/clock-v6.dat" "$1" "$tap_tmp/clock-$1.dat" <<'EOF'
import re, sys
data = open(sys.argv[1], 'rb').read()
saved = re.search(rb'[a-z0-9_ -]*\[mono\][a-z0-9_ -]*', data)
names = saved.group(0).replace(b'[', b'').replace(b']', b'').split(b' ')
marked = b' '.join(b'[' + n + b']' if n == sys.argv[2].encode() else n for n in names)
assert len(marked) == len(saved.group(0))
open(sys.argv[3], 'wb').write(data[:saved.start()] + marked + data[saved.end():])
EOF
}
for clock in mono mono_raw boot global tai; do
	with_clock $clock
	env ASAN_OPTIONS=detect_leaks=0 "$coreaudit" audit "$tap_tmp/clock-$clock.dat" \
		> "$tap_tmp/clock.out" 2>&1
	check "clock $clock: nanoseconds of one clock, the example passes ($?)" \
		grep -q "^coreaudit: PASS" "$tap_tmp/clock.out"
done
for clock in local perf counter uptime x86-tsc; do
	with_clock $clock
	env ASAN_OPTIONS=detect_leaks=0 "$coreaudit" audit "$tap_tmp/clock-$clock.dat" \
		> "$tap_tmp/clock.out" 2>&1
	code=$?
	check "clock $clock: inconclusive, the clock named" \
		grep -q "trace clock \"$clock\" .*(record with -C mono)" "$tap_tmp/clock.out"
	check "clock $clock: exit 4 ($code)" test "$code" -eq 4
done
# On such a clock no violation is proven either: the failing example's
# violations are listed, the verdict inconclusive.
trace-cmd convert --file-version 6 --compression none -i "$top_srcdir/examples/tenants-shared-core.dat" \
	-o "$tap_tmp/clock-v6.dat" > /dev/null 2>&1
for clock in mono local; do
	with_clock $clock
	env ASAN_OPTIONS=detect_leaks=0 "$coreaudit" audit --tags markers "$tap_tmp/clock-$clock.dat" \
		> "$tap_tmp/clock.out" 2>&1
	eval "fail_$clock=$?"
done
check "clock mono: the failing example fails ($fail_mono)" test "$fail_mono" -eq 1
check "clock local: the failing example is inconclusive ($fail_local), its violations listed" \
	test "$fail_local" -eq 4 -a -n "$(grep -i 'violat' "$tap_tmp/clock.out")"

command -v trace-cmd > /dev/null || { skip "trace-cmd is not installed"; exit 0; }
for f in "$top_srcdir"/examples/*.dat; do
	same_findings_v6 "$f" 0,1
done

# The text `trace-cmd report` prints of a real trace: the same findings as the
# file, but for timestamps rounded to microseconds.
example=$top_srcdir/examples/coresched-cookies.dat
trace-cmd report -i "$example" > "$tap_tmp/example.txt" 2> /dev/null
"$coreaudit" audit --json "$example" > "$tap_tmp/dat.json" 2> /dev/null
"$coreaudit" audit --json "$tap_tmp/example.txt" > "$tap_tmp/text.json" 2> /dev/null
summary="[(t['pid'], round(t['kernel_ns'] / 1e6)) for t in d['forced_idle']['per_task']
	if t['kernel_ns'] > 1e8], d['windows']['count'], d['violations'], d['trace']['events']"
dat_summary=$(json_get "$summary" < "$tap_tmp/dat.json")
check "report text of coresched-cookies: the file's findings ($dat_summary)" \
	test "$(json_get "$summary" < "$tap_tmp/text.json")" = "$dat_summary"
# The raw fields of report -R (markers as "ip=... buf=...", prctl returns as
# "__syscall_nr=157 ret=..."): the same, but for the tick timers' functions,
# which -R leaves as addresses (so fewer events are ticks).
trace-cmd report -R -i "$example" > "$tap_tmp/raw.txt" 2> /dev/null
"$coreaudit" audit --json "$tap_tmp/raw.txt" > "$tap_tmp/raw.json" 2> /dev/null
raw_summary="[(t['pid'], round(t['kernel_ns'] / 1e6)) for t in d['forced_idle']['per_task']
	if t['kernel_ns'] > 1e8], d['windows']['count'], d['violations'], d['verdict']"
check "report -R text of coresched-cookies: the file's findings ($(json_get "$raw_summary" < "$tap_tmp/dat.json"))" \
	test "$(json_get "$raw_summary" < "$tap_tmp/raw.json")" = "$(json_get "$raw_summary" < "$tap_tmp/dat.json")"

live_test_prelude
on=$(cat $tracefs/tracing_on)
fn=$(cat $tracefs/options/function-trace)
trace-cmd record -d --no-filter -C mono --date -o "$tap_tmp/dated.dat" \
	-e sched:sched_switch -e sched:sched_wakeup -e power:cpu_idle \
	sh -c "echo 'coreaudit-topology 0,1' > $tracefs/trace_marker; sleep 0.2" > /dev/null 2>&1
echo "$on" > $tracefs/tracing_on
echo "$fn" > $tracefs/options/function-trace
"$coreaudit" audit --json "$tap_tmp/dated.dat" > "$tap_tmp/dated.json" 2> /dev/null
"$coreaudit" audit --json --reader records "$tap_tmp/dated.dat" > "$tap_tmp/dated-rec.json" 2> /dev/null
check "a --date trace (timestamps offset by libtracecmd) is read through records" \
	grep -q '"reader": "records"' "$tap_tmp/dated.json"
check "a --date trace: the same findings as --reader records" \
	cmp -s "$tap_tmp/dated.json" "$tap_tmp/dated-rec.json"
events=$(json_get "d['trace']['events']" < "$tap_tmp/dated.json")
check "a --date trace: events were read ($events)" test "$events" -gt 10

# Lost events through the chunk reader: a context-switch storm into a 4 KiB
# ring buffer that nobody reads (trace-cmd start, then extract) overwrites
# all but its last pages; the drops coreaudit reports must be the
# reference's.  Everything start changed is put back.
command -v stress-ng > /dev/null || { skip "stress-ng is not installed"; exit 0; }
size=$(sed 's/ .*//' $tracefs/buffer_size_kb)
clock=$(grep -o '\[.*\]' $tracefs/trace_clock | tr -d '[]')
trace-cmd start -d --no-filter -C mono -b 4 -e sched:sched_switch -e sched:sched_wakeup \
	> /dev/null 2>&1
stress-ng --switch 2 --timeout 1 -q
trace-cmd stop > /dev/null 2>&1
trace-cmd extract -o "$tap_tmp/lossy.dat" > /dev/null 2>&1
echo 0 > $tracefs/events/enable
echo "$size" > $tracefs/buffer_size_kb
echo "$clock" > $tracefs/trace_clock
echo "$on" > $tracefs/tracing_on
echo "$fn" > $tracefs/options/function-trace
# libtraceevent leaks 2 bytes (a strdup while parsing what trace-cmd extract
# writes; valgrind shows it in the bare read loop too): leak detection off.
same_findings_leaky "$tap_tmp/lossy.dat" 0,1 chunks
lost=$(json_get "d['trace']['lost_events']" < "$tap_tmp/default.json")
check "lossy: the overwritten buffer lost events ($lost), counted alike by both readers" \
	test "$lost" -gt 0

# A recording into a tracefs instance (trace-cmd record -B): the top-level
# buffer holds nothing, and the message says where the events are.
trace-cmd record -B coreaudit-readers-test -d --no-filter -C mono -e sched:sched_switch \
	-o "$tap_tmp/instance.dat" sleep 0.2 > /dev/null 2>&1
echo "$size" > $tracefs/buffer_size_kb
echo "$on" > $tracefs/tracing_on
rmdir $tracefs/instances/coreaudit-readers-test 2> /dev/null	# trace-cmd 3.1.6 leaves it
check "instance: removed" test ! -d $tracefs/instances/coreaudit-readers-test
env ASAN_OPTIONS=detect_leaks=0 "$coreaudit" audit -t 0,1 "$tap_tmp/instance.dat" \
	> "$tap_tmp/instance.out" 2>&1
code=$?
check "instance: bad input (exit $code)" test "$code" -eq 3
check "instance: the message names the instance buffer" grep -q \
	"its top-level buffer holds no scheduler events; it has 1 instance buffer (\"coreaudit-readers-test\", trace-cmd record -B)" \
	"$tap_tmp/instance.out"
# Both buffers recorded: the top-level one is audited, and a warning says the instance's is not.
trace-cmd record -d --no-filter -C mono -e sched:sched_switch -B coreaudit-readers-test \
	-e sched:sched_switch -o "$tap_tmp/both.dat" sleep 0.2 > /dev/null 2>&1
echo "$size" > $tracefs/buffer_size_kb
echo "$on" > $tracefs/tracing_on
rmdir $tracefs/instances/coreaudit-readers-test 2> /dev/null
env ASAN_OPTIONS=detect_leaks=0 "$coreaudit" audit -t 0,1 "$tap_tmp/both.dat" \
	> "$tap_tmp/both.out" 2>&1
check "instance beside the top buffer: the top one audited, the instance's named as not read" \
	grep -q "the trace's 1 tracefs instance buffer (\"coreaudit-readers-test\", trace-cmd record -B) is not read" \
	"$tap_tmp/both.out"
check "instance beside the top buffer: removed" test ! -d $tracefs/instances/coreaudit-readers-test
