#!/bin/bash
# test-tiling.sh - the audit of a big machine made of copies of a real small
# one (tests/tools/tile.py) says, per copy, exactly what the audit of the
# small trace says (tests/tools/compare-tiles.py: verdict; totals N times;
# forced idle per CPU and per task with pids shifted; co-run windows with
# their causes, per core).  The real traces are in ../shared/traces
# (COREAUDIT_TRACES).
#  - up to 64 CPUs: d-cookies (1 core x 2 threads)
#    x 32 and d-smt4 (1 core x 4 threads) x 16, packed and split numbering;
#    d-cookies x 16 sparse (absent CPUs between copies); d-nocookies x 32 by
#    its coreaudit-tag markers (pids in markers shifted); the bundled example
#    x 32 by its coreaudit-topology marker (rewritten for the tiled machine);
#    d-cookies x 32 and x 256 (512 CPUs) with its reschedule IPIs written as
#    ipi_send_cpumask (cpumasks re-encoded at the output's width: 512 bits);
#  - every window of every copy where coreaudit lists them all (d-cookies x 8,
#    d-smt4 x 4); else the windows it lists (the first 10000 to end);
#  - one copy reads, in trace-cmd report, exactly as the input; cookies rebuilt
#    from prctl (d-prctl); lost events (flags and count set on one page of
#    the input) kept on each copy's page;
#  - 128 CPUs (d-cookies x 64, d-smt4 x 32) and 512 (d-cookies x 256): the
#    same per copy.
# Every tiling is also read by trace-cmd report: N times the input's events.
# Those checks of the tool itself (and one copy read line for line) run in the
# plain pass only: the sanitizer pass (SAN_FLAGS set) tests coreaudit, not
# tile.py, and saves the minute trace-cmd report takes.
. "$(dirname "$0")/tap.sh"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
tile="$top_srcdir/tests/tools/tile.py"
compare="$top_srcdir/tests/tools/compare-tiles.py"
examples="$top_srcdir/examples"

if [ ! -f "$traces/d-cookies.dat" ]; then
	skip "no real traces at $traces (set COREAUDIT_TRACES)"
	exit 0
fi
if ! command -v trace-cmd > /dev/null; then
	skip "trace-cmd is not installed (tile.py converts version 7 input with it)"
	exit 0
fi
hold_cpu_lock

# events FILE: the event lines trace-cmd report shows for FILE
events() {
	trace-cmd report -i "$1" 2> /dev/null | grep -cE '\[[0-9]+\] +[0-9]+\.[0-9]+:'
}

# tool_check DESCRIPTION COMMAND...: a check of what tile.py wrote, plain pass only
tool_check() { [ -n "$SAN_FLAGS" ] || check "$@"; }

# topology_of NAME: the tiled topology tile.py wrote for $tap_tmp/NAME.dat
topology_of() {
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['topology'])" \
		"$tap_tmp/$1.tiling.json"
}

# tiling NAME INPUT COPIES LAYOUT [TILE OPTIONS...]: tile, then count events
tiling() {
	local name=$1 input=$2 copies=$3 layout=$4
	shift 4
	if ! python3 "$tile" --layout "$layout" "$@" "$input" "$copies" "$tap_tmp/$name.dat" \
		> "$tap_tmp/$name.out" 2> "$tap_tmp/$name.err"; then
		fail "$name: tile.py failed"; sed 's/^/# /' "$tap_tmp/$name.err" | head -5
		return 1
	fi
	[ -z "$SAN_FLAGS" ] || return 0
	local key=$(basename "$input")
	[ -n "${input_events[$key]}" ] || input_events[$key]=$(events "$input")
	local want=$((copies * ${input_events[$key]})) got=$(events "$tap_tmp/$name.dat")
	check "$name: trace-cmd report shows $got events ($copies x ${input_events[$key]})" \
		test "$got" = "$want"
}
declare -A input_events

# audited NAME INPUT INPUT-TOPOLOGY|- [AUDIT OPTIONS...]: audit the input and
# the tiling, same exit; then compare-tiles.py, one check per aspect
audited() {
	local name=$1 input=$2 topology=$3 code_in code_out
	shift 3
	if [ "$topology" = - ]; then
		"$coreaudit" audit "$@" --json "$input" > "$tap_tmp/$name.in.json" 2> /dev/null
	else
		"$coreaudit" audit -t "$topology" "$@" --json "$input" > "$tap_tmp/$name.in.json" \
			2> /dev/null
	fi
	code_in=$?
	"$coreaudit" audit -t "$(topology_of "$name")" "$@" --json "$tap_tmp/$name.dat" \
		> "$tap_tmp/$name.json" 2> "$tap_tmp/$name.audit.err"
	code_out=$?
	check "$name: the tiling's audit exits as the input's ($code_in)" test "$code_out" = "$code_in"
	compared "$name" "$tap_tmp/$name.json"
}

# compared LABEL TILED.json [--copies J,K]: compare-tiles.py of tiling ${LABEL%% *}
# (its input's audit, its mapping), one check per aspect
compared() {
	local label=$1 json=$2 name=${1%% *} status rest
	shift 2
	python3 "$compare" "$@" "$tap_tmp/$name.in.json" "$json" "$tap_tmp/$name.tiling.json" \
		> "$tap_tmp/$name.cmp" 2>&1
	while read -r status rest; do
		case $status in
		ok) ok "$label: $rest" ;;
		*) fail "$label: ${rest#ok }" ;;
		esac
	done < "$tap_tmp/$name.cmp"
	[ -s "$tap_tmp/$name.cmp" ] || fail "$label: compare-tiles.py printed nothing"
}

# filtered NAME COPIES LIST [AUDIT OPTIONS...]: audit tiling NAME (audited
# before) with --cpu LIST, which names CPUs of copies COPIES ("1,3"): per copy
# audited, the input's findings, and nothing of the others
filtered() {
	local name=$1 copies=$2 list=$3 code
	shift 3
	"$coreaudit" audit -t "$(topology_of "$name")" --cpu "$list" "$@" --json "$tap_tmp/$name.dat" \
		> "$tap_tmp/$name.cpu.json" 2> "$tap_tmp/$name.cpu.err"
	code=$?
	check "$name --cpu $list: exits as the input's audit" test "$code" = "$(json_get \
		"{'pass': 0, 'fail': 1, 'inconclusive': 4}[d['verdict']]" < "$tap_tmp/$name.in.json")"
	check "$name --cpu $list: trace.cpu_filter, and a warning names the cores audited" test \
		"$(json_get "d['trace']['cpu_filter'], any(w.startswith('--cpu $list: only the cores')
		for w in d['warnings'])" < "$tap_tmp/$name.cpu.json")" = "$list True"
	compared "$name --cpu $list (copies $copies)" "$tap_tmp/$name.cpu.json" --copies "$copies"
}

# One copy: what trace-cmd reads is the input, event for event.
[ -n "$SAN_FLAGS" ] || for name in d-cookies d-smt4; do
	python3 "$tile" "$traces/$name.dat" 1 "$tap_tmp/$name-x1.dat" > /dev/null
	trace-cmd report -i "$traces/$name.dat" > "$tap_tmp/$name.txt" 2> /dev/null
	trace-cmd report -i "$tap_tmp/$name-x1.dat" > "$tap_tmp/$name-x1.txt" 2> /dev/null
	check "$name x 1: trace-cmd report of the tiling is the input's, line for line" \
		cmp -s "$tap_tmp/$name.txt" "$tap_tmp/$name-x1.txt"
done

# Up to 64 CPUs: per copy, the input's findings.
tiling cookies-x32-packed "$traces/d-cookies.dat" 32 packed &&
	audited cookies-x32-packed "$traces/d-cookies.dat" 0,1
python3 "$top_srcdir/tests/e2e/compare-forceidle.py" "$tap_tmp/cookies-x32-packed.json" \
	"$tap_tmp/cookies-x32-packed.tasks" > "$tap_tmp/cookies-x32-packed.fi"
check "cookies-x32-packed: its .tasks (pids shifted): 64 workload tasks, each within 2% of the kernel" \
	test "$(awk '$5 < 2 && $5 > -2' "$tap_tmp/cookies-x32-packed.fi" | wc -l)" = 64
tiling cookies-x32-split "$traces/d-cookies.dat" 32 split &&
	audited cookies-x32-split "$traces/d-cookies.dat" 0,1
check "cookies-x32-split: siblings 32 apart (x86 enumeration)" \
	test "$(cut -d' ' -f1-3 < <(topology_of cookies-x32-split))" = "0,32 1,33 2,34"
tiling smt4-x16-packed "$traces/d-smt4.dat" 16 packed &&
	audited smt4-x16-packed "$traces/d-smt4.dat" 0-3
tiling smt4-x16-split "$traces/d-smt4.dat" 16 split &&
	audited smt4-x16-split "$traces/d-smt4.dat" 0-3
check "smt4-x16-split: a core's 4 threads 16 apart" \
	test "$(cut -d' ' -f1-2 < <(topology_of smt4-x16-split))" = "0,16,32,48 1,17,33,49"
tiling cookies-x16-sparse "$traces/d-cookies.dat" 16 sparse --gap 2 &&
	audited cookies-x16-sparse "$traces/d-cookies.dat" 0,1
# copy j is CPUs 4j and 4j+1; 2 and 3 are absent, named by no core
filtered cookies-x16-sparse 0,15 0,60-61
expect_exit 2 "--cpu 2: an absent CPU, in no core" "$coreaudit" audit \
	-t "$(topology_of cookies-x16-sparse)" --cpu 2 "$tap_tmp/cookies-x16-sparse.dat"
tool_check "cookies-x16-sparse: 64 CPUs declared, 32 of them with data" \
	test "$(python3 "$top_srcdir/tests/e2e/damage.py" layout "$tap_tmp/cookies-x16-sparse.dat" |
	wc -l) $(trace-cmd report -i "$tap_tmp/cookies-x16-sparse.dat" 2> /dev/null |
	head -1)" = "32 cpus=64"
tiling nocookies-x32-split "$traces/d-nocookies.dat" 32 split &&
	audited nocookies-x32-split "$traces/d-nocookies.dat" 0,1 --tags markers
# CPU 40 is thread 1 of copy 8 (split: thread t of copy j is 32 t + j)
filtered nocookies-x32-split 8 40 --tags markers
tool_check "nocookies-x32-split: copy 31's coreaudit-tag markers name its own pids" \
	test "$(trace-cmd report -i "$tap_tmp/nocookies-x32-split.dat" 2> /dev/null |
	grep -o 'coreaudit-tag pid=31[0-9][0-9] tag=[AB]' | sort | tr '\n' ' ')" = \
	"coreaudit-tag pid=3168 tag=A coreaudit-tag pid=3169 tag=B "
tiling example-x32-split "$examples/coresched-cookies.dat" 32 split &&
	audited example-x32-split "$examples/coresched-cookies.dat" -
tool_check "example-x32-split: its coreaudit-topology markers describe the tiled machine" \
	test "$(trace-cmd report -i "$tap_tmp/example-x32-split.dat" 2> /dev/null |
	grep -o 'coreaudit-topology .*' | sort -u | sed 's/ *$//')" = \
	"coreaudit-topology $(topology_of example-x32-split)"
tiling cpumask-x32-packed "$traces/d-cookies.dat" 32 packed --ipi-as-cpumask &&
	audited cpumask-x32-packed "$traces/d-cookies.dat" 0,1
tool_check "cpumask-x32-packed: copy 31's IPIs name its CPUs, 62 and 63" \
	test "$(trace-cmd report -i "$tap_tmp/cpumask-x32-packed.dat" 2> /dev/null |
	grep -o 'cpumask=6[23] ' | sort | uniq -c | wc -l)" = 2
# Masks 512 bits wide (8 longs): CPUs past 64 named by the mask alone.
tiling cpumask-x256-split "$traces/d-cookies.dat" 256 split --ipi-as-cpumask &&
	audited cpumask-x256-split "$traces/d-cookies.dat" 0,1
tool_check "cpumask-x256-split: IPIs to CPUs past 64 in masks of 512 bits" \
	test "$(trace-cmd report -i "$tap_tmp/cpumask-x256-split.dat" 2> /dev/null |
	grep -c 'cpumask=511 ')" -gt 0
rm -f "$tap_tmp"/cpumask-x256-split.dat

# Few enough windows for coreaudit to list them all (10000): every window of
# every copy compared.
tiling cookies-x8-split "$traces/d-cookies.dat" 8 split &&
	audited cookies-x8-split "$traces/d-cookies.dat" 0,1
tiling smt4-x4-packed "$traces/d-smt4.dat" 4 packed &&
	audited smt4-x4-packed "$traces/d-smt4.dat" 0-3

# --cpu: the cores that hold a listed CPU, each whole (copy 3 of the split
# tiling is the core "3,11"; 5 and 12-13 are CPUs of SMT4 copies 1 and 3),
# are exactly their copies' audit; a CPU of no core is a usage error.
filtered cookies-x8-split 3 3
filtered smt4-x4-packed 1,3 5,12-13
# --report capacity,fairness of one SMT4 copy (--cpu 5: copy 1, CPUs 4-7) are
# the input's figures, to the nanosecond, its core named by its CPUs.
smt_figures() { json_get "json.dumps([d['capacity']['all'], d['capacity']['smt_off'],
	sorted((i['competed_ns'], i['received_ns'], i['fair_ns'], i.get('longest_wait') and
	i['longest_wait']['ns']) for i in d['fairness']['identities']),
	sorted(p['waited_ns'] for p in d['fairness']['pairs'])], sort_keys=True)"; }
"$coreaudit" audit -t 0-3 --report capacity,fairness --json "$traces/d-smt4.dat" 2> /dev/null |
	smt_figures > "$tap_tmp/smt4-in.fig"
"$coreaudit" audit -t "$(topology_of smt4-x4-packed)" --cpu 5 --report capacity,fairness --json \
	"$tap_tmp/smt4-x4-packed.dat" 2> /dev/null > "$tap_tmp/smt4-cpu5.json"
smt_figures < "$tap_tmp/smt4-cpu5.json" > "$tap_tmp/smt4-cpu5.fig"
check "smt4-x4-packed --cpu 5: capacity and fairness are the input's, core 4,5,6,7" test \
	"$(cat "$tap_tmp/smt4-cpu5.fig") $(json_get "d['capacity']['cores'][0]['cpus']" \
	< "$tap_tmp/smt4-cpu5.json")" = "$(cat "$tap_tmp/smt4-in.fig") [4, 5, 6, 7]"
expect_exit 2 "--cpu 999: a CPU in no core" "$coreaudit" audit \
	-t "$(topology_of cookies-x8-split)" --cpu 999 "$tap_tmp/cookies-x8-split.dat"
check "... says so, naming the file and the topology" grep -q \
	"cookies-x8-split.dat: --cpu 999: CPU 999 is in no core of the topology \"0,8 1,9" "$tap_tmp/err"
expect_exit 2 "--cpu 1,x" "$coreaudit" audit --cpu 1,x "$tap_tmp/cookies-x8-split.dat"
check "... says what a CPU list is" grep -q '^coreaudit: --cpu "1,x": expected a CPU number at "x"' \
	"$tap_tmp/err"

# Cookies rebuilt from prctl calls; the evidence of an unexplained window
# names each IPI's target CPU, on any CPU of the tiling.
tiling prctl-x16-packed "$traces/d-prctl.dat" 16 packed &&
	audited prctl-x16-packed "$traces/d-prctl.dat" 0,1 --unknown-cookie zero
tiling prctl-x32-split "$traces/d-prctl.dat" 32 split &&
	audited prctl-x32-split "$traces/d-prctl.dat" 0,1 --unknown-cookie zero

# Lost events: the input with 7 events lost before page 40 of CPU 1 (the
# flags and the stored count set on that page); each copy loses them there.
trace-cmd convert -i "$traces/d-cookies.dat" -o "$tap_tmp/v6.dat" --file-version 6 \
	--compression none > /dev/null 2>&1
cpu1=$(python3 "$top_srcdir/tests/e2e/damage.py" layout "$tap_tmp/v6.dat" | awk '$1 == 1 {print $2}')
python3 -c '
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = int(sys.argv[3]) + 40 * struct.unpack_from("<I", b, 14)[0]
commit = struct.unpack_from("<Q", b, at + 8)[0]
struct.pack_into("<Q", b, at + 16 + (commit & ((1 << 27) - 1)), 7)
struct.pack_into("<Q", b, at + 8, commit | 3 << 30)
open(sys.argv[2], "wb").write(b)' "$tap_tmp/v6.dat" "$tap_tmp/lost.dat" "$cpu1"
tiling lost-x16-packed "$tap_tmp/lost.dat" 16 packed --topology 0,1 &&
	audited lost-x16-packed "$tap_tmp/lost.dat" 0,1
# --cpu of copy 2: events lost on any CPU still count (they may hide a wakeup
# or a kick onto an audited CPU): 16 x 7, and the verdict is the input's
filtered lost-x16-packed 2 5
tool_check "lost-x16-packed: trace-cmd report shows the 7 lost events on each copy's CPU 1" \
	test "$(trace-cmd report -i "$tap_tmp/lost-x16-packed.dat" 2> /dev/null |
	grep -o 'CPU:[0-9]* \[7 EVENTS DROPPED\]' | tr '\n' ' ')" = \
	"$(for j in $(seq 0 15); do printf 'CPU:%d [7 EVENTS DROPPED] ' $((2 * j + 1)); done)"

# In time (bench/cpus.sh's 2-CPU row): 3 copies one after another on the
# input's 2 CPUs, pids kept; every event of copy j at its input time + j x the
# step, on its input CPU (trace-cmd report of both, compared line by line).
tiling cookies-x3-time "$traces/d-cookies.dat" 3 time &&
tool_check "cookies-x3-time: copy j's events are the input's, later by j x time_step_ns" \
	python3 -c '
import json, re, subprocess, sys
line = re.compile(r"^\s*(.*?)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(.*)$")
def events(path):
	out = subprocess.run(["trace-cmd", "report", "-i", path], capture_output=True, text=True).stdout
	return [(int(m.group(3)) * 10**9 + int(m.group(4).ljust(9, "0")), m.group(2), m.group(1), m.group(5))
		for m in map(line.match, out.splitlines()) if m]
tiling = json.load(open(sys.argv[3]))
step, one = tiling["time_step_ns"], events(sys.argv[1])
want = [(ts + j * step,) + tuple(rest) for j in range(3) for ts, *rest in one]
sys.exit(not (step > one[-1][0] - one[0][0] and tiling["output_cpus"] == 2 and
	      sorted(events(sys.argv[2])) == sorted(want)))' \
	"$traces/d-cookies.dat" "$tap_tmp/cookies-x3-time.dat" "$tap_tmp/cookies-x3-time.tiling.json"

# 128 and 512 CPUs (SMT2 and SMT4): per copy, exactly the input's findings.
# Scale, not new code: the sanitizer pass has the 512-CPU cpumask tiling above
# and leaves these to the plain pass (CI time, README).
if [ -z "$SAN_FLAGS" ]; then
	tiling cookies-x64-packed "$traces/d-cookies.dat" 64 packed &&
		audited cookies-x64-packed "$traces/d-cookies.dat" 0,1
	tiling smt4-x32-split "$traces/d-smt4.dat" 32 split &&
		audited smt4-x32-split "$traces/d-smt4.dat" 0-3
	# Its 128 CPUs read in 1, 2, 3 and 8 parts (--jobs): the JSON byte for byte.
	for jobs in 1 2 3 8; do
		"$coreaudit" audit -J $jobs -t "$(topology_of smt4-x32-split)" --json \
			"$tap_tmp/smt4-x32-split.dat" 2> /dev/null | sha256sum
	done > "$tap_tmp/jobs.sums"
	check "smt4-x32-split: the same JSON read in 1, 2, 3 and 8 parts" \
		test "$(sort -u "$tap_tmp/jobs.sums" | wc -l)" = 1
	tiling cookies-x256-split "$traces/d-cookies.dat" 256 split &&
		audited cookies-x256-split "$traces/d-cookies.dat" 0,1
fi
rm -f "$tap_tmp"/*.dat
