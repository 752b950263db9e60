#!/bin/bash
# test-damage.sh - a damaged or cut trace.dat is never read as if clean.
# Every bundled example and real trace (../shared/traces, when present), and
# each converted to version 6, is damaged in seeded ways by damage.py (random
# bytes anywhere, bytes in a CPU's data, a whole page overwritten, bytes
# inside a zstd chunk, cut anywhere, cut inside the CPU data, a run of
# zeros); every audit of a copy must exit 3 with a message naming the file,
# or be inconclusive (exit 4), or read exactly the intact file's events with
# its verdict: never a crash, a hang, a sanitizer report or another clean verdict; and the same
# JSON on one thread as with the CPUs read in parts (-J 4, as every run here).
# The record reader is run on the copies damaged inside the CPU data as well.  Then the
# exact cases: 3000 bytes at a page boundary in CPU 1's data of a version 6
# file (skipped, reported and the later pages read, by both readers), bytes
# inside one zstd chunk, a page of zeros, padding past a page's events, a
# late time delta, a page that would walk kbuffer back forever, a cut inside the CPU data,
# damaged kallsyms, no readable page at all.
# DAMAGE_ROUNDS (default 1) copies of each kind per trace; DAMAGE_SEED.
. "$(dirname "$0")/tap.sh"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
rounds=${DAMAGE_ROUNDS:-1}
seed=${DAMAGE_SEED:-20261203}
damage=(python3 "$top_srcdir/tests/e2e/damage.py")
hold_cpu_lock

inputs=("$top_srcdir"/examples/*.dat)
if compgen -G "$traces/d-*.dat" > /dev/null; then
	inputs+=("$traces"/d-*.dat)
else
	skip "no real traces at $traces (set COREAUDIT_TRACES)"
fi
if command -v trace-cmd > /dev/null; then
	for f in "${inputs[@]}"; do
		v6="$tap_tmp/$(basename "$f" .dat)-v6.dat"
		trace-cmd convert --file-version 6 --compression none -i "$f" -o "$v6" \
			> /dev/null 2>&1 && inputs+=("$v6")
	done
else
	skip "trace-cmd is not installed: no version 6 copies"
fi

topology_of() { case "$1" in *smt4*) echo 0-3 ;; *) echo 0,1 ;; esac; }

# libtracecmd 1.3.1 leaks 5 bytes (an sscanf %ms in tracecmd_parse_trace_clock)
# loading a version 6 file's data, which only the record reader does: for its
# runs, that one leak is suppressed (full malloc stacks to find it), no other.
printf 'leak:tracecmd_parse_trace_clock\n' > "$tap_tmp/lsan.supp"
records_env=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
	     "LSAN_OPTIONS=suppressions=$tap_tmp/lsan.supp:print_suppressions=0")

# run FILE [ARGS...]: audit FILE; sets rc, verdict, events
run() {
	local file=$1 wrap=()
	shift
	[ "$*" = "--reader records" ] && wrap=("${records_env[@]}")
	timeout 60 "${wrap[@]}" "$coreaudit" audit -J 4 -t "$(topology_of "$file")" --json "$@" "$file" \
		> "$tap_tmp/run.json" 2> "$tap_tmp/run.err"
	rc=$?
	verdict=$(grep -o '"verdict": *"[a-z]*"' "$tap_tmp/run.json" | head -1 | cut -d'"' -f4)
	events=$(grep -o '"events": *[0-9]*' "$tap_tmp/run.json" | head -1 | tr -dc 0-9)
}

# acceptable FILE: the last run exited 3 naming FILE, was inconclusive, or
# read what the intact file holds ($intact)
acceptable() {
	if grep -q -i "sanitizer\|runtime error" "$tap_tmp/run.err"; then
		return 1
	fi
	case $rc in
	3) grep -q "$(basename "$1"): " "$tap_tmp/run.err" ;;
	4) test "$verdict" = inconclusive ;;
	*) test "$rc $verdict $events" = "$intact" ;;
	esac
}

# same_on_one_thread FILE: the last run (CPUs read in parts, merged) gave
# the JSON and exit of one thread's reading
same_on_one_thread() {
	local parts="$rc $(sha256sum < "$tap_tmp/run.json")" one
	cp "$tap_tmp/run.json" "$tap_tmp/parts.json"
	timeout 60 "$coreaudit" audit -J 1 -t "$(topology_of "$1")" --json "$1" \
		> "$tap_tmp/one.json" 2> /dev/null
	one="$? $(sha256sum < "$tap_tmp/one.json")"
	[ "$one" = "$parts" ] && return 0
	echo "# $1: -J 1 gave exit ${one%% *}, the parts ${parts%% *}; the JSON differs"
	return 1
}

for f in "${inputs[@]}"; do
	name=$(basename "$f" .dat)
	run "$f"
	intact="$rc $verdict $events"
	mkdir -p "$tap_tmp/$name"
	"${damage[@]}" plan "$f" "$tap_tmp/$name" "$seed" "$rounds" > "$tap_tmp/plan"
	copies=0 bad=0 kinds=""
	while read -r kind copy; do
		readers=("")
		case $kind in data | page | chunk | cutdata | zeros) readers+=(--reader=records) ;; esac
		for reader in "${readers[@]}"; do
			run "$copy" ${reader:+--reader records}
			copies=$((copies + 1))
			kinds="$kinds $rc"
			[ -n "$reader" ] || same_on_one_thread "$copy" || bad=$((bad + 1))
			acceptable "$copy" && continue
			bad=$((bad + 1))
			echo "# $name $kind ${reader:-default}: exit $rc $verdict $events; intact $intact"
			sed 's/^/#   /' "$tap_tmp/run.err" | head -3
		done
	done < "$tap_tmp/plan"
	check "$name ($intact): $copies damaged runs, each exit 3, inconclusive or the intact reading (exits:$kinds)" \
		test "$bad" = 0
	mkdir -p "$tap_tmp/lib"
	mv "$tap_tmp/$name"/*-page0.dat "$tap_tmp/$name"/*-cutdata0.dat "$tap_tmp/lib/"
	mv "$tap_tmp/$name"/*-chunk0.dat "$tap_tmp/lib/" 2> /dev/null
	rm -rf "${tap_tmp:?}/$name"
done

# A library user (no fault guard) audits the damaged copies in one process:
# no crash, no file descriptor left open (leaks: the sanitizer pass).
for reader in "" --records; do
	wrap=()
	[ -n "$reader" ] && wrap=("${records_env[@]}")
	"${wrap[@]}" "$top_builddir/tests/e2e/audit-lib" 0,1 $reader "$tap_tmp"/lib/*.dat \
		> "$tap_tmp/lib.out" 2>&1
	status=$?
	files=$(grep -c '\.dat$' "$tap_tmp/lib.out")
	check "a library user, ${reader:---default} reader: $files damaged files in one process, no crash (status $status)" \
		test "$status" = 0 -a "$files" -gt 0
	check "a library user, ${reader:---default} reader: no file descriptor kept ($(tail -1 "$tap_tmp/lib.out"))" \
		sh -c 'tail -1 "$1" | awk "{ exit !(\$2 == \$3) }"' _ "$tap_tmp/lib.out"
done
rm -rf "${tap_tmp:?}/lib"

# The exact cases, on d-cookies when present, else on the bundled example.
base=$traces/d-cookies.dat
[ -f "$base" ] || base=$top_srcdir/examples/coresched-cookies.dat
v6=$tap_tmp/$(basename "$base" .dat)-v6.dat
if [ ! -f "$v6" ]; then
	skip "no version 6 copy: the exact cases need trace-cmd"
	exit 0
fi
run "$v6"
intact_events=$events
read -r _ cpu1 _ < <("${damage[@]}" layout "$v6" | sed -n 2p)

# 3000 random bytes at a page boundary inside CPU 1's data (before: PASS from
# 17,558 of 28,881 events of d-cookies, CPU 1's stream silently cut there).
"${damage[@]}" at "$v6" "$tap_tmp/hole.dat" $((cpu1 + 60 * 4096)) 3000 1
for reader in default records; do
	run "$tap_tmp/hole.dat" $([ $reader = records ] && echo --reader records)
	check "3000 bytes in CPU 1's data, $reader reader: inconclusive (exit $rc, $verdict)" \
		test "$rc $verdict" = "4 inconclusive"
	check "3000 bytes in CPU 1's data, $reader reader: the later pages read ($events of $intact_events events)" \
		test "${events:-0}" -gt $((intact_events - 3000 / 8)) -a "${events:-0}" -gt 17558
done

# Bytes inside one zstd chunk of the version 7 file: its pages skipped by both readers.
read -r _ at size < <("${damage[@]}" chunks "$base" | sed -n 5p)
"${damage[@]}" at "$base" "$tap_tmp/chunk.dat" $((at + size / 2)) 40 2
run "$base"
intact_v7=$events
for reader in default records; do
	run "$tap_tmp/chunk.dat" $([ $reader = records ] && echo --reader records)
	check "40 bytes inside a zstd chunk, $reader reader: inconclusive, the rest read ($events of $intact_v7 events)" \
		test "$rc $verdict" = "4 inconclusive" -a "${events:-0}" -lt "$intact_v7" \
		-a "${events:-0}" -gt $((intact_v7 * 3 / 4))
done

# A page whose first event is padding of length -4: kbuffer would stand on it
# forever (libtracecmd yields the same record; `trace-cmd report` loops).
cp "$v6" "$tap_tmp/loop.dat"
printf '\035\000\000\000\374\377\377\377' |
	dd of="$tap_tmp/loop.dat" bs=1 seek=$((cpu1 + 10 * 4096 + 16)) conv=notrunc 2> /dev/null
for reader in default records; do
	run "$tap_tmp/loop.dat" $([ $reader = records ] && echo --reader records)
	check "a page that walks back, $reader reader: ends, inconclusive (exit $rc)" \
		test "$rc $verdict" = "4 inconclusive"
done

# A page of zeros in CPU 1's data (a zeroed block: the header says "no
# events", which no kernel writes amid a CPU's data), and random bytes that
# read as padding running past the page's events: before, both dropped the
# page's events without a word and d-cookies passed (63 of 123 pages zeroed).
# The page is damage, what ran in it unknown: named by CPU and offset.
cp "$v6" "$tap_tmp/zeros.dat"
dd if=/dev/zero of="$tap_tmp/zeros.dat" bs=4096 seek=$(((cpu1 + 20 * 4096) / 4096)) count=1 \
	conv=notrunc 2> /dev/null
cp "$v6" "$tap_tmp/pad.dat"
printf '\075\000\000\000\000\000\000\100' |
	dd of="$tap_tmp/pad.dat" bs=1 seek=$((cpu1 + 30 * 4096 + 16)) conv=notrunc 2> /dev/null
for what in zeros:20 pad:30; do
	page=${what#*:} what=${what%:*}
	for reader in default records; do
		run "$tap_tmp/$what.dat" $([ $reader = records ] && echo --reader records)
		check "$what in page $page of CPU 1, $reader reader: inconclusive (exit $rc), the page named" \
			sh -c 'test "$1" = "4 inconclusive" &&
				grep -q "CPU 1: unreadable data at file offset $2 (4096 bytes)" "$3"' \
			_ "$rc $verdict" $((cpu1 + page * 4096)) "$tap_tmp/run.json"
	done
done

# One bit of a time delta flipped in the middle of CPU 1's page 40: the rest
# of that page 67 ms late, so page 41 starts before it ends.  Which of the two
# has its times wrong the data cannot say: both are damage (before, page 41
# alone was, and page 40's late events were read: on d-smt4 such flips gave
# false violations).
"${damage[@]}" late "$v6" "$tap_tmp/late.dat" $((cpu1 + 40 * 4096))
for reader in default records; do
	run "$tap_tmp/late.dat" $([ $reader = records ] && echo --reader records)
	check "a late time delta in page 40 of CPU 1, $reader reader: inconclusive (exit $rc), pages 40 and 41 named" \
		sh -c 'test "$1" = "4 inconclusive" &&
			grep -q "CPU 1: unreadable data at file offset $2 (8192 bytes)" "$3"' \
		_ "$rc $verdict" $((cpu1 + 40 * 4096)) "$tap_tmp/run.json"
done

# Cut inside CPU 1's data: what is there is read and the cut reported; the
# record reader needs the whole file (libtracecmd cannot load it) and says so.
"${damage[@]}" cut "$v6" "$tap_tmp/cut.dat" $((cpu1 + 40 * 4096 + 100))
run "$tap_tmp/cut.dat"
check "cut inside CPU 1's data: inconclusive (exit $rc), $events events read" \
	test "$rc $verdict" = "4 inconclusive" -a "${events:-0}" -gt $((intact_events / 2))
run "$tap_tmp/cut.dat" --reader records
check "cut inside CPU 1's data, record reader: exit 3 saying so" \
	grep -q "cut.dat: cut short: CPU 1's data end at byte" "$tap_tmp/run.err"

# Bytes past the last CPU's data (a size in the table made smaller reads the
# same): exit 3, saying so.
cp "$v6" "$tap_tmp/appended.dat"
head -c 8192 /dev/zero | tr '\0' '\377' >> "$tap_tmp/appended.dat"
run "$tap_tmp/appended.dat"
check "8 KiB appended: exit 3 ($rc) saying the file goes on past the CPU data" \
	grep -q "appended.dat: damaged headers: the file goes on a page or more past the last CPU's data" \
	"$tap_tmp/run.err"

# Damaged kernel symbols (they name tick timers and __schedule): exit 3.
kallsyms=$(grep -abo -m1 ' T _stext' "$v6" | cut -d: -f1)
"${damage[@]}" at "$v6" "$tap_tmp/kallsyms.dat" "$kallsyms" 16 3
run "$tap_tmp/kallsyms.dat"
check "damaged kallsyms: exit 3 ($rc) naming them" \
	grep -q "kallsyms.dat: damaged headers: the kernel symbols (kallsyms) are damaged" \
	"$tap_tmp/run.err"

# Nothing readable: every page of every CPU overwritten.
cp "$v6" "$tap_tmp/none.dat"
while read -r _ offset size; do
	"${damage[@]}" at "$tap_tmp/none.dat" "$tap_tmp/none.dat" "$offset" "$size" 4
done < <("${damage[@]}" layout "$v6")
run "$tap_tmp/none.dat"
check "no readable page: exit 3 ($rc) saying so" \
	grep -q "none.dat: no event can be read: the CPU data are damaged (first on CPU 0" \
	"$tap_tmp/run.err"

# Nothing readable on CPU 1 alone: its damage goes before the first event of
# CPU 0, whichever part reads it.
cp "$v6" "$tap_tmp/cpu1.dat"
"${damage[@]}" layout "$v6" | sed -n 2p | while read -r _ offset size; do
	"${damage[@]}" at "$tap_tmp/cpu1.dat" "$tap_tmp/cpu1.dat" "$offset" "$size" 5
done
run "$tap_tmp/cpu1.dat"
check "no readable page on CPU 1: inconclusive (exit $rc), CPU 0's events read ($events)" \
	test "$rc $verdict" = "4 inconclusive" -a "${events:-0}" -gt 0
check "... the same JSON on one thread as in parts" same_on_one_thread "$tap_tmp/cpu1.dat"

# The fuzzer's finds inside libtracecmd (tests/fuzz/README, findings 5 and
# 6), a print fmt of the right layout that libtraceevent's parser divides by
# zero on (same length as the real one, so every check of the layout
# passes), and finding 6 with a page size coreaudit does not lay out (2 MiB:
# libtracecmd reads its pages unchecked, and faults): refused before
# libtracecmd reads them in the caller (probe.c), by the CLI (exit 3 naming
# the file) and by a library user with no fault guard (audit-lib: exit 3,
# no crash, no descriptor kept).
seed="$top_srcdir/tests/fuzz/corpus/tracedat/cookies-p1.dat"
python3 -c "import sys; d = open(sys.argv[1], 'rb').read()
assert d.count(b'__get_str(filename)') == 1
open(sys.argv[2], 'wb').write(d.replace(b'__get_str(filename)', b'__get_str%filename)'))" \
	"$seed" "$tap_tmp/printfmt.dat"
mkdir -p "$tap_tmp/headers"
cp "$top_srcdir"/tests/fuzz/libtracecmd-crashes/* "$tap_tmp/printfmt.dat" "$tap_tmp/headers/"
for file in "$tap_tmp"/headers/*; do
	timeout 20 "$coreaudit" audit -t 0,1 "$file" > /dev/null 2> "$tap_tmp/run.err"
	rc=$?
	what="fuzzed headers $(basename "$file" | cut -c1-24): exit 3 ($rc) naming the file"
	if [ "$rc" = 3 ] && grep -q "^coreaudit: $file: " "$tap_tmp/run.err"; then
		ok "$what"
	else
		fail "$what"; sed 's/^/# /' "$tap_tmp/run.err"
	fi
done
check "a print fmt libtraceevent faults on: refused, libtracecmd's fault named" \
	grep -q "printfmt.dat: damaged headers: libtracecmd faults reading its headers" \
	<("$coreaudit" audit -t 0,1 "$tap_tmp/printfmt.dat" 2>&1)
check "a page size coreaudit does not read, pages libtracecmd faults on: refused, named" \
	grep -q "pagesize-2m-28d38f234890ac3cf57376e08860281e85346d4e: libtracecmd faults reading its CPU data" \
	<("$coreaudit" audit -t 0,1 "$tap_tmp/headers/pagesize-2m-28d38f234890ac3cf57376e08860281e85346d4e" 2>&1)
check "a page size of no power of two: damaged headers" \
	grep -q "tracedat-crash-28d38f234890ac3cf57376e08860281e85346d4e: damaged headers: the page size is no power of two" \
	<("$coreaudit" audit -t 0,1 "$tap_tmp/headers/tracedat-crash-28d38f234890ac3cf57376e08860281e85346d4e" 2>&1)
# A version trace-cmd never wrote: libtracecmd reads "3" as version 6 and
# allocates what its damaged sizes say; coreaudit's walk refuses it first.
python3 -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read())
assert d[10:12] == b'6\\0'
d[10] = ord('3'); open(sys.argv[2], 'wb').write(d)" "$seed" "$tap_tmp/version3.dat"
check "a file version other than 6 or 7: damaged headers, exit 3" \
	grep -q "version3.dat: damaged headers: the file version is not 6 or 7" \
	<("$coreaudit" audit -t 0,1 "$tap_tmp/version3.dat" 2>&1)
check "... and the exit code is 3" \
	test "$("$coreaudit" audit -t 0,1 "$tap_tmp/version3.dat" > /dev/null 2>&1; echo $?)" = 3
timeout 60 "$top_builddir/tests/e2e/audit-lib" 0,1 "$tap_tmp"/headers/* \
	> "$tap_tmp/headers.out" 2> "$tap_tmp/headers.err"
check "fuzzed headers through the library, no guard: every file bad-input, no crash (status $?)" \
	test "$(grep -c '^bad-input 0 ' "$tap_tmp/headers.out")" = "$(ls "$tap_tmp/headers" | wc -l)"
check "fuzzed headers through the library: no file descriptor kept" \
	awk '$1 == "fds" { exit $2 != $3 }' "$tap_tmp/headers.out"

