#!/bin/bash
# check-vm.sh - the real-kernel harness (make check-vm): builds (cached) a
# CONFIG_SCHED_CORE kernel from Debian's linux-source-6.12, boots it under
# QEMU with SMT topologies, records workloads, and holds coreaudit to what a
# correct kernel must show.  TAP; skips with a reason when it cannot run.
. "$(dirname "$0")/../e2e/tap.sh"
here=$(cd "$(dirname "$0")" && pwd)
results=${COREAUDIT_VM_RESULTS:-$top_builddir/vm-results}
compare="$top_srcdir/tests/e2e/compare-forceidle.py"
# 8 s workloads: the emulator stalls a vCPU for 5-13 ms a few times a run,
# and the kernel's charge during a stall follows no event; over 8 s that stays
# well inside the 2% bound (README, The real-kernel harness).
seconds=${COREAUDIT_VM_SECONDS:-8}

for tool in qemu-system-x86_64 trace-cmd gcc cpio; do
	command -v $tool > /dev/null || { skip "$tool is not installed"; exit 0; }
done
[ -f /usr/src/linux-source-6.12.tar.xz ] || { skip "linux-source-6.12 is not installed"; exit 0; }

bzimage=$("$here/build-kernel.sh") || { fail "kernel build"; exit 0; }
ok "kernel: $bzimage"
COREAUDIT_BIN="$top_builddir/.libs/coreaudit" "$here/build-initramfs.sh" \
	"$tap_tmp/initramfs.cpio.gz" || { fail "initramfs"; exit 0; }

# The emulator's own fault: under multi-threaded TCG a vCPU can run a stale
# or half-written translation of kernel text that the other is patching
# (text_poke_bp, as trace-cmd enables events): the guest oopses on the int3
# left there, or on the invalid opcode in the middle of a half-patched nop
# (a CI run: RIP __probestub_sched_switch+0x5, "Fatal exception in
# interrupt").  The console cannot tell that from a kernel bug, and the
# harness tests coreaudit, not the guest kernel: a guest that oopsed or
# panicked is booted again, up to three times, its oops line printed; a
# failure without an oops, or three oopses, fail.
guest_oops() { grep -m1 -E 'Oops:|Kernel panic|BUG: |RIP: ' "$1"; }

run() {	# run NAME VARIANT SMP GROUPS
	local started=$SECONDS attempt oops
	for attempt in 1 2 3; do
		if "$here/run-vm.sh" "${kernel:-$bzimage}" "$tap_tmp/initramfs.cpio.gz" "$results/$1" "$2" "$3" \
			"$4" "$seconds" 2> "$tap_tmp/$1.err"; then
			ok "$1: recorded in the guest ($2, $3: $4) in $((SECONDS - started)) s"
			return
		fi
		oops=$(guest_oops "$results/$1/console.log") || break
		echo "# $1: the guest oopsed ($oops; $(grep -m1 'RIP: ' "$results/$1/console.log")); booted again"
	done
	fail "$1: no trace from the guest"; sed 's/^/# /' "$tap_tmp/$1.err"
}

audit() {	# audit NAME [OPTIONS]: JSON in $tap_tmp/NAME.json, exit code in $code
	local name=$1; shift
	"$coreaudit" audit "$@" --json "$results/$name/trace.dat" > "$tap_tmp/$name.json" \
		2> "$tap_tmp/$name.audit.err"
	code=$?
}

unexplained() { json_get "len([w for w in d['windows']['list'] if w['cause'] == 'unexplained'
	and w['kind'] != 'unknown' and w['end_ns'] - w['start_ns'] >= 200000])" < "$tap_tmp/$1.json"; }

# Windows of 200 us or more that neither a request nor the trace explains:
# unexplained ones, and those of unknown cause that made the verdict
# inconclusive (a tick before the pick that may have set need-resched in
# kernel code; README, Known limits).
unclear() { json_get "len([w for w in d['windows']['list'] if w['cause'] == 'unexplained'
	and w['kind'] != 'unknown' and w['end_ns'] - w['start_ns'] >= 200000])
	+ d['windows']['undecided']['count']" < "$tap_tmp/$1.json"; }

# The evidence of each unexplained window of 200 us or more (the text report's),
# and the reason given for windows of unknown cause.
show_unexplained() {	# NAME
	[ "$(unclear "$1")" = 0 ] && return
	"$coreaudit" audit "$results/$1/trace.dat" 2> /dev/null |
		sed -n '/^unexplained windows/,/^$/p;/of unknown cause/p' | head -40 | sed "s/^/# $1: /"
}

# The reasons of a failing or inconclusive audit, for the log.
show_reasons() {	# NAME
	json_get "'\\n'.join('%s: %s' % (r['check'], r['text']) for r in d['reasons'][:6])" \
		< "$tap_tmp/$1.json" 2> /dev/null | grep . | sed "s/^/# $1: /"
}

# A correct kernel shows no unexplained window and fails no check; under TCG
# about one recording in 60 does all the same (README, The real-kernel
# harness: a task in kernel code on this non-preemptible kernel, or a vCPU
# the host stalls for milliseconds, whose need-resched was set before the
# sibling's pick; the trace's events cannot tell that from a lost kick).
# Such a recording is shown with its evidence and the workload recorded once
# more: what a change to coreaudit breaks fails both.
run_clean() {	# run_clean NAME VARIANT SMP GROUPS [AUDIT OPTION...]
	local count
	run "${@:1:4}"
	audit "$1" "${@:5}"
	count=$(unclear "$1")
	[ "$count" = 0 ] && [ "$code" != 1 ] && return
	echo "# $1: exit $code, $count unexplained window(s) of 200 us or more, or of unknown cause, in"
	echo "# this recording (reasons and evidence below); recorded once more, and held to the second"
	show_reasons "$1"
	show_unexplained "$1"
	run "${@:1:4}"
	audit "$1" "${@:5}"
}

show_windows() { json_get "'windows of %s: %d, by cause %s; skew p50 %.1f us, p99 %.1f us, max %.1f us' % ('$1',
	d['windows']['count'], {k: v['count'] for k, v in d['windows']['by_cause'].items()},
	d['windows']['by_kind']['skew']['p50_ns'] / 1e3, d['windows']['by_kind']['skew']['p99_ns'] / 1e3,
	d['windows']['by_kind']['skew']['max_ns'] / 1e3)" < "$tap_tmp/$1.json" | sed 's/^/# /'; }

# Forced idle per task within PERCENT or 1 ms of core_forceidle_sum, whichever
# is larger: 3%, the issue's target.  A vCPU the host stalls hides what the
# kernel charges across the stall (up to 7 ms, README): runs here stayed
# within 2%, a CI run gave -2.01% (mixed) and -2.23% (smt4).
check_forced_idle() {	# NAME PERCENT
	python3 "$compare" "$tap_tmp/$1.json" "$results/$1/tasks.txt" > "$tap_tmp/$1.fi"
	[ -s "$tap_tmp/$1.fi" ] || { fail "$1: no task figures"; return; }
	while read -r pid group kernel ours error; do
		check "$1: task $pid ($group) forced idle $ours ns vs kernel $kernel ns ($error%)" \
			python3 -c "import sys; k, o = $kernel, $ours; sys.exit(abs(o - k) > max($2 / 100 * k, 1e6))"
	done < "$tap_tmp/$1.fi"
}

# 1. Two cookie groups on 1 core x 2 threads.
run_clean cookies probe smt2 A:1:70:1:o,B:1:70:1:o
show_windows cookies
check "cookies: passes (exit $code)" test "$code" = 0
check "cookies: no unexplained window of 200 us or more" test "$(unexplained cookies)" = 0
show_unexplained cookies
check_forced_idle cookies 3

# 2. The same groups without cookies: tags must find them sharing the core.
run nocookies probe smt2 A:1:70:0:o,B:1:70:0:o
audit nocookies --tags markers
check "nocookies: --tags markers finds the groups sharing the core (exit $code)" test "$code" = 1
check "nocookies: violations between A and B" test "$(json_get "len([w for w in d['windows']['list']
	if w['kind'] == 'violation' and {t['tag'] for t in w['tasks']} == {'A', 'B'}])" \
	< "$tap_tmp/nocookies.json")" -gt 0
audit cookies --tags markers
check "cookies: with kernel cookies, --tags markers finds no violation (exit $code)" test "$code" = 0

# Rules: an isolate rule on groups the kernel did not isolate (found) and on
# groups it did (clean).
printf 'tag A marker A\ntag B marker B\nisolate A B\n' > "$tap_tmp/groups.rules"
audit nocookies --rules "$tap_tmp/groups.rules"
check "rules: isolate A B found on the groups without cookies (exit $code)" test "$code" = 1
audit cookies --rules "$tap_tmp/groups.rules"
check "rules: isolate A B holds on the groups with cookies (exit $code)" test "$code" = 0

# 3. A cookie group beside an untagged (cookie 0) one.
run_clean mixed probe smt2 A:1:60:1:o,U:1:60:0:o
show_windows mixed
check "mixed: no unexplained window of 200 us or more" test "$(unexplained mixed)" = 0
show_unexplained mixed
check_forced_idle mixed 3

# 4. SMT4: the groups of 1 on 1 core x 4 threads.  One task per group keeps
# at most two vCPUs busy, one per host core here, so the guest's clock agrees
# with its trace and the forced-idle bound of 1 holds.
# Held: forced idle, every window classified (none unknown), and no
# unexplained window.  Before the harness recorded softirq events, 3 of 22
# runs had one unexplained window at a tick where the leaving CPU was in
# softirq work, which reschedules nothing (README, The real-kernel harness);
# a tick inside a softirq now refutes no request.  A recording with one is
# shown and recorded once more (run_clean), as the other scenarios'.
run_clean smt4 probe smt4 A:1:70:1:o,B:1:70:1:o
show_windows smt4
check "smt4: every co-run window classified, none unknown" test \
	"$(json_get "d['windows']['by_cause']['unknown']['count']" < "$tap_tmp/smt4.json")" = 0
check "smt4: no unexplained window of 200 us or more" test "$(unexplained smt4)" = 0
show_unexplained smt4
check_forced_idle smt4 3

# Kernel-entry exposure: coreaudit record --kernel-entry in the guest.  On a
# correct kernel siblings run one cookie, so a system call is exposed beside
# another cookie only inside the co-run windows of two cookies (the kernel's
# transitions); interrupts are exposed beside whatever the sibling runs.
# A task already running when the recording starts shows its cookie at its
# first switch: time beside it until then is not attributed (unknown_ns; 2 of
# 6 runs here, 0.06 and 0.2 ms, a CI run failed on 'unknown_ns == 0'), so
# that part is held to 1% of the time in the kernel.
run_clean exposure kernel-entry smt2 A:1:70:1:o,B:1:70:1:o --report exposure
check "exposure, correct kernel: passes (exit $code)" test "$code" = 0
check "exposure: measured; system calls exposed no longer than the co-run windows" python3 -c "
import json, sys; d = json.load(sys.stdin); e = d['exposure']; w = sum(v['total_ns'] for v in d['windows']['by_kind'].values())
sys.exit(not (e['measured'] and e['unknown_ns'] <= sum(e['in_kernel_ns'].values()) / 100 and
	e['in_kernel_ns']['syscall'] > 0 and e['exposed_ns']['syscall'] <= w))" \
	< "$tap_tmp/exposure.json"
check "exposure: interrupts exposed beside the workload's tasks" python3 -c "
import json, sys; d = json.load(sys.stdin)
sys.exit(not any(p['inside'].get('interrupt') and p['beside'].get('cookie') != '0x0'
	for p in d['exposure']['pairs']))" < "$tap_tmp/exposure.json"
echo "# exposure: $(json_get "'in the kernel %s, exposed %s; co-run windows %.1f ms' % (
	d['exposure']['in_kernel_ns'], d['exposure']['exposed_ns'],
	sum(v['total_ns'] for v in d['windows']['by_kind'].values()) / 1e6)" < "$tap_tmp/exposure.json")"

# Rules: a SCHED_FIFO group with a cookie of its own is alone on its core.
printf 'tag R marker R\nexclusive R\n' > "$tap_tmp/rt.rules"
run_clean realtime probe smt2 A:1:50:1:o,R:1:40:1:f --rules "$tap_tmp/rt.rules"
check "rules: exclusive R holds for the SCHED_FIFO group (exit $code)" test "$code" = 0
show_reasons realtime
json_get "d['rules']['relations'][0]['windows']" < "$tap_tmp/realtime.json" | sed 's/^/# exclusive R windows: /'

# 5. Cookies rebuilt from prctl agree with the kernel's own (PR_SCHED_CORE_GET)
# and with the cookie probe: the guest records both; the probe's lines are
# dropped from the report text to audit by prctl alone.
run_clean prctl both smt2 A:1:70:1:o,B:1:70:1:o
trace-cmd report -i "$results/prctl/trace.dat" > "$tap_tmp/prctl-probe.txt" 2> /dev/null
grep -v ' cs_switch: ' "$tap_tmp/prctl-probe.txt" > "$tap_tmp/prctl.txt"
for source in prctl-probe prctl; do
	"$coreaudit" audit --unknown-cookie zero --json "$tap_tmp/$source.txt" \
		> "$tap_tmp/$source.json" 2> /dev/null
done
check "prctl: cookies rebuilt from prctl events" test \
	"$(json_get "d['trace']['cookie_source']" < "$tap_tmp/prctl.json")" = prctl
check "prctl: forced idle per task from prctl cookies is the probe's (within 0.1%)" python3 -c "
import json
kfi = lambda f: {t['pid']: t['kernel_ns'] for t in json.load(open(f))['forced_idle']['per_task'] if t['kernel_ns'] > 1e6}
ours, probe = kfi('$tap_tmp/prctl.json'), kfi('$tap_tmp/prctl-probe.json')
assert probe and set(ours) == set(probe), (ours, probe)
assert all(abs(ours[p] - probe[p]) <= probe[p] / 1000 for p in probe), (ours, probe)"
check "prctl: tasks share a rebuilt cookie exactly when the kernel's cookies are equal" python3 -c "
import json, re
ours = {t['pid']: t['cookie'] for t in json.load(open('$tap_tmp/prctl.json'))['forced_idle']['per_task']}
kernel = {int(m[0]): m[1] for m in re.findall(r'task pid=(\d+) group=\S+ cookie=(\S+)', open('$results/prctl/tasks.txt').read())}
pairs = [(a, b) for a in kernel for b in kernel if a < b]
assert kernel and all(ours.get(p) is not None for p in kernel), (ours, kernel)
assert all((kernel[a] == kernel[b]) == (ours[a] == ours[b]) for a, b in pairs), (ours, kernel)"
check "prctl: no unexplained window of 200 us or more" test "$(unexplained prctl)" = 0
check_forced_idle prctl 3

# 6. coreaudit record inside the guest: it creates the cookie probe on this
# kernel and writes a file that audits like trace-cmd's.
run_clean record record smt2 A:1:70:1:o,B:1:70:1:o
sed 's/^/# guest: /' "$results/record/record.err" 2> /dev/null | head -3
check "record: cookies from the probe coreaudit record created" test \
	"$(json_get "d['trace']['cookie_source']" < "$tap_tmp/record.json")" = probe
check "record: the audit of its file passes (exit $code)" test "$code" = 0
check "record: the audit's verdict is the recording's own" grep -q \
	"verdict while recording: $(json_get "d['verdict']" < "$tap_tmp/record.json")" \
	"$results/record/record.err"
check_forced_idle record 3

# 7. coreaudit monitor, live inside the guest during the workload of 1: it
# creates the cookie probe on this kernel and holds the same bounds.
run monitor monitor smt2 A:1:70:1:o,B:1:70:1:o
# Its stdout: the violations as they happened, one per line, then the JSON.
sed -n '/^{/,$p' "$results/monitor/monitor.json" > "$tap_tmp/monitor.json" 2> /dev/null
grep '^violation' "$results/monitor/monitor.json" 2> /dev/null | sed 's/^/# monitor: /' | head
sed 's/^/# guest: /' "$results/monitor/record.err" 2> /dev/null | head -3
check "monitor: passes live on the core-scheduling kernel (exit 0)" \
	grep -q 'monitor exited 0' "$results/monitor/record.err"
check "monitor: cookies from the probe it created" test \
	"$(json_get "d['trace']['cookie_source']" < "$tap_tmp/monitor.json")" = probe
check "monitor: no unexplained window of 200 us or more" test "$(unexplained monitor)" = 0
check_forced_idle monitor 3

# 8. Many CPUs (issue 14): a guest of COREAUDIT_VM_MANY_CPUS vCPUs (96: 48
# cores x 2 threads, NR_CPUS 128 in config.fragment), overcommitted on this
# machine's two host cores, so forced idle is shown, not held.  Groups pinned
# to the siblings of cores above CPU 64 and two spread by the kernel;
# coreaudit monitor live (topology from sysfs), then coreaudit record of the
# same workload.  Both make every CPU show its state at the start (an idle
# CPU shows no event otherwise, and the verdict could only be inconclusive).
# A recording that does not pass is shown and made once more, as run_clean
# does.  COREAUDIT_VM_MANY_CPUS=0 leaves it out.
many_cpus=${COREAUDIT_VM_MANY_CPUS:-96}
if [ "$many_cpus" -gt 0 ]; then
	last=$((many_cpus - 1))
	many_groups="A:2:50:1:o,B:2:50:1:o,C:1:60:1:o:70,D:1:60:1:o:71,E:1:60:1:o:$((last - 1))"
	run many many many "$many_groups,F:1:60:0:o:$last"
	if ! grep -q 'monitor exited 0' "$results/many/record.err" 2> /dev/null ||
	   ! grep -q 'verdict while recording: pass' "$results/many/record2.err" 2> /dev/null; then
		echo "# many: the monitor or the recording did not pass; recorded once more"
		sed 's/^/# many: /' "$results/many/record.err" "$results/many/record2.err" | head
		run many many many "$many_groups,F:1:60:0:o:$last"
	fi
	sed -n '/^{/,$p' "$results/many/monitor.json" > "$tap_tmp/many-live.json" 2> /dev/null
	sed 's/^/# guest monitor: /' "$results/many/record.err" 2> /dev/null | head -3
	sed 's/^/# guest record: /' "$results/many/record2.err" 2> /dev/null | head -3
	check "many: the guest's tracefs has $many_cpus per-CPU directories" test \
		"$(cat "$results/many/per_cpu_count" 2> /dev/null)" = "$many_cpus"
	check "many: the monitor saw $many_cpus CPUs" test \
		"$(json_get "d['trace']['cpus']" < "$tap_tmp/many-live.json")" = "$many_cpus"
	check "many: the monitor passes live (exit 0)" grep -q 'monitor exited 0' "$results/many/record.err"
	check "many: cookies from the probe the monitor created" test \
		"$(json_get "d['trace']['cookie_source']" < "$tap_tmp/many-live.json")" = probe
	"$coreaudit" audit --json "$results/many/record.dat" > "$tap_tmp/many-record.json" \
		2> /dev/null
	code=$?
	check "many: the audit of coreaudit record's file passes (exit $code)" test "$code" = 0
	check "many: ... and repeats the verdict while recording" grep -q \
		"verdict while recording: $(json_get "d['verdict']" < "$tap_tmp/many-record.json")" \
		"$results/many/record2.err"
	check "many: coreaudit record's file has $many_cpus CPUs, every one observed throughout" test \
		"$(json_get "d['trace']['cpus'], d['trace']['observed_pct']" < "$tap_tmp/many-record.json")" \
		= "$many_cpus 100.0"
	check "many: co-run windows judged on the cores of CPUs 70,71 and $((last - 1)),$last" test \
		"$(json_get "{35, $((last / 2))} <= {w['core'] for w in d['windows']['list']}" \
		< "$tap_tmp/many-record.json")" = True
	json_get "'forced idle per task (shown, not held): ' + ', '.join('%d %s %.1f ms' % (t['pid'],
		t['comm'], t['kernel_ns'] / 1e6) for t in d['forced_idle']['per_task'][:8])" \
		< "$tap_tmp/many-live.json" | sed 's/^/# many: /'
	show_windows many-record
fi

# 9. Kernels that carry a bug class (issue 15; tests/vm/bugs/, each patch's
# header says what it undoes and breaks), built incrementally on the kept
# tree of the correct kernel.  Each workload runs on the correct kernel too,
# where no check may fail.
#
# Forced-idle starvation without reselection (01: task_tick_core removed, the
# fix 8039e96f undone): two CFS hogs of different cookies pinned to the two
# siblings, recorded by coreaudit record (its reader wakes once a second; a
# wakeup on either CPU reselects the core and would hide the bug).
starve_groups=a:1:100:1:o:0,b:1:100:1:o:1
run_clean starve record smt2 "$starve_groups"
check "starve, correct kernel: passes (exit $code)" test "$code" = 0
check "starve, correct kernel: no forced-idle stretch past the reselection owed" test \
	"$(json_get "d['reselect']['checked'], d['reselect']['count']" < "$tap_tmp/starve.json")" = \
	"True 0"
echo "# starve, correct kernel: the most ticks a forced-idle stretch held: $(json_get \
	"d['reselect']['most_ticks']" < "$tap_tmp/starve.json")"
if kernel=$("$here/build-kernel.sh" "$here/bugs/01-no-forceidle-tick.patch"); then
	ok "kernel without task_tick_core: $kernel"
	run starve-bug record smt2 "$starve_groups"
	audit starve-bug
	check "starve, kernel without task_tick_core: fails (exit $code)" test "$code" = 1
	check "starve, kernel without task_tick_core: by forced idle past the reselection owed" \
		test "$(json_get "d['reasons'][0]['check'], d['reselect']['count'] > 0" \
		< "$tap_tmp/starve-bug.json")" = "reselect True"
	json_get "'; '.join('CPU %d idle %.1f ms while CPU %d ran %d through %d ticks' % (
		f['waiting_cpu'], (f['end_ns'] - f['start_ns']) / 1e6, f['holder_cpu'],
		f['holder_pid'], f['ticks']) for f in d['reselect']['list'][:3])" \
		< "$tap_tmp/starve-bug.json" | sed 's/^/# starve-bug, the longest: /'
else
	fail "kernel without task_tick_core: build"
fi
unset kernel

# Priority inversion (02: a selection made while the core has no cookie
# weighs only its own CPU's pick, the effect of 7afbba11 undone): an
# untagged SCHED_FIFO task pinned to one sibling, a tagged CFS task with a
# duty cycle pinned to the other, which wakes while the RT task runs on a
# core without a cookie.
invert_groups=rt:1:70:0:f:1,cfs:1:50:1:o:0
run_clean invert record smt2 "$invert_groups"
check "invert, correct kernel: passes (exit $code)" test "$code" = 0
check "invert, correct kernel: no priority inversion" test \
	"$(json_get "d['inversion']['count']" < "$tap_tmp/invert.json")" = 0
echo "# invert, correct kernel: $(json_get "'the longest stretch after a decision %.1f us, %d excused' % (
	d['inversion']['longest_ns'] / 1e3, d['inversion']['excused'])" < "$tap_tmp/invert.json")"
if kernel=$("$here/build-kernel.sh" "$here/bugs/02-priority-inversion.patch"); then
	ok "kernel with the inversion: $kernel"
	run invert-bug record smt2 "$invert_groups"
	audit invert-bug
	check "invert, kernel with the inversion: fails (exit $code)" test "$code" = 1
	check "invert, kernel with the inversion: by priority inversion" \
		test "$(json_get "'inversion' in [r['check'] for r in d['reasons']], d['inversion']['count'] > 0" \
		< "$tap_tmp/invert-bug.json")" = "True True"
	json_get "'%d stretches; ' % d['inversion']['count'] + '; '.join(
		'task %d (prio %d) idle on CPU %d %.2f ms while CPU %d ran %d (prio %d)' % (
		f['waiting_pid'], f['waiting_prio'], f['waiting_cpu'], (f['end_ns'] - f['start_ns']) / 1e6,
		f['holder_cpu'], f['holder_pid'], f['holder_prio']) for f in d['inversion']['list'][:3])" \
		< "$tap_tmp/invert-bug.json" | sed 's/^/# invert-bug: /'
else
	fail "kernel with the inversion: build"
fi
unset kernel

# A task missing from the core tree (03: 91caa5ae undone, a task given a
# cookie while queued or running is not put in the tree): group a's two
# tasks spin pinned one to each sibling and get their cookie late, running
# (workload COOKIE 2); b's task, of another cookie, shares the first CPU.
# Unpinned or sleeping, a task is enqueued again and the bug hides.
untree_groups=a:2:100:2:o:0/1,b:1:100:1:o:0
run_clean untree record smt2 "$untree_groups"
# The cookie is created while the tasks run: the probe shows it only at each
# task's next switch, so a window over its creation may stay unjudged (exit 4).
check "untree, correct kernel: no violation (exit $code: 0, or 4 over the cookie's creation)" \
	test "$(json_get "d['violations']" < "$tap_tmp/untree.json") $code" = "0 0" -o \
	"$(json_get "d['violations']" < "$tap_tmp/untree.json") $code" = "0 4"
check "untree, correct kernel: no unjustified forced idle" test \
	"$(json_get "d['unjustified']['count']" < "$tap_tmp/untree.json")" = 0
if kernel=$("$here/build-kernel.sh" "$here/bugs/03-cookie-not-in-core-tree.patch"); then
	ok "kernel that leaves a late cookie out of the core tree: $kernel"
	run untree-bug record smt2 "$untree_groups"
	audit untree-bug
	check "untree, kernel without 91caa5ae: fails (exit $code)" test "$code" = 1
	check "untree, kernel without 91caa5ae: by unjustified forced idle" \
		test "$(json_get "'unjustified' in [r['check'] for r in d['reasons']], d['unjustified']['count'] > 0" \
		< "$tap_tmp/untree-bug.json")" = "True True"
	json_get "'%d stretches; ' % d['unjustified']['count'] + '; '.join(
		'CPU %d idle %.2f ms beside its task %d while CPU %d ran %d' % (
		f['waiting_cpu'], (f['end_ns'] - f['start_ns']) / 1e6, f['waiting_pid'],
		f['holder_cpu'], f['holder_pid']) for f in d['unjustified']['list'][:3])" \
		< "$tap_tmp/untree-bug.json" | sed 's/^/# untree-bug: /'
else
	fail "kernel without 91caa5ae: build"
fi
unset kernel

# Misaccounting (04: b171501f undone, forced idle charged only to tasks with
# a cookie): a cookie group beside an untagged one, recorded by coreaudit
# record, which writes every thread's core_forceidle_sum each second
# (coreaudit-kfi markers): the audit holds the kernel's figures to the
# trace's.  On the correct kernel every task agrees; on 04 the untagged
# task, which forced its sibling idle, was charged nothing.
account_groups=A:1:70:1:o,U:1:70:0:o
run_clean account record smt2 "$account_groups"
check "account, correct kernel: passes (exit $code)" test "$code" = 0
check "account, correct kernel: the kernel's accounting agrees with the trace's" test \
	"$(json_get "d['accounting']['compared'] >= 2, d['accounting']['count']" \
	< "$tap_tmp/account.json")" = "True 0"
if kernel=$("$here/build-kernel.sh" "$here/bugs/04-forceidle-cookied-only.patch"); then
	ok "kernel that charges only cookied tasks: $kernel"
	run account-bug record smt2 "$account_groups"
	audit account-bug
	check "account, kernel without b171501f: fails (exit $code)" test "$code" = 1
	check "account, kernel without b171501f: by accounting, the untagged task among them" \
		test "$(json_get "'accounting' in [r['check'] for r in d['reasons']], any(
		r['finding'] and r['kernel_ns'] == 0 for r in d['accounting']['list'])" \
		< "$tap_tmp/account-bug.json")" = "True True"
	json_get "'; '.join('task %d: kernel %.1f ms, trace %.1f ms' % (r['pid'], r['kernel_ns'] / 1e6,
		r['trace_ns'] / 1e6) for r in d['accounting']['list'][:3])" \
		< "$tap_tmp/account-bug.json" | sed 's/^/# account-bug: /'
else
	fail "kernel without b171501f: build"
fi
unset kernel

# A lost sibling kick (06: the selection's kick to a sibling that runs a task
# dropped): the workload of 6 (record), whose correct-kernel run above holds
# no unexplained window; here the kicked sibling runs its task beside the
# other cookie until it blocks or its tick reschedules it.
if kernel=$("$here/build-kernel.sh" "$here/bugs/06-lost-sibling-kick.patch"); then
	ok "kernel that loses the kick to a busy sibling: $kernel"
	run kick-bug record smt2 A:1:70:1:o,B:1:70:1:o
	audit kick-bug
	check "kick, kernel that loses the kick: fails (exit $code)" test "$code" = 1
	check "kick, kernel that loses the kick: by unexplained co-run windows (at least 10)" \
		test "$(json_get "d['reasons'][0]['check'], d['windows']['by_cause']['unexplained']['count'] >= 10" \
		< "$tap_tmp/kick-bug.json")" = "isolation True"
	show_windows kick-bug
else
	fail "kernel that loses the kick: build"
fi
unset kernel

# 10. A workload drawn from the matrix (tests/vm/matrix.py: 1-4 cookie groups
# of 1-3 tasks at 20-100% duty, maybe an untagged group, maybe a SCHED_FIFO
# task), by a seed printed here (COREAUDIT_VM_SEED to repeat one): on the
# correct kernel no check fails, and each task the kernel charged more than
# 100 ms of forced idle is within 15% of it (README, Accuracy: over 40 drawn
# runs the median error is 1.2%, the largest 8%).
seed=${COREAUDIT_VM_SEED:-$(( $(date +%s) % 100000 ))}
drawn_groups=$(python3 "$here/matrix.py" "$seed")
echo "# drawn: seed $seed, groups $drawn_groups"
run_clean drawn probe smt2 "$drawn_groups"
check "drawn (seed $seed): no check fails on the correct kernel (exit $code)" \
	test "$code" = 0 -o "$code" = 4
python3 "$compare" "$tap_tmp/drawn.json" "$results/drawn/tasks.txt" > "$tap_tmp/drawn.fi"
[ -s "$tap_tmp/drawn.fi" ] || fail "drawn (seed $seed): no task figures"
while read -r pid group kernel ours error; do
	[ "$kernel" -gt 100000000 ] || continue
	check "drawn (seed $seed): task $pid ($group) forced idle $ours ns vs kernel $kernel ns ($error%)" \
		python3 -c "import sys; sys.exit(abs(float('$error')) > 15)"
done < "$tap_tmp/drawn.fi"

# Shown, not held (COREAUDIT_VM_EXTRA=1): workloads whose forced idle the
# trace cannot follow to 2% on this emulator (README, The real-kernel harness).
# Two tasks per group on SMT4 overcommit this machine (four busy vCPUs on two
# host cores): switch events lag the kernel's picks by up to milliseconds.
# A 60%/80% pair gives B short forced-idle periods, so a stalled vCPU or the
# tens of microseconds between the kernel's clock read and the events weigh
# more.
show_forced_idle() {	# NAME
	python3 "$compare" "$tap_tmp/$1.json" "$results/$1/tasks.txt" |
		sed "s/^/# $1 forced idle: pid group kernel ours error%: /"
}
if [ -n "${COREAUDIT_VM_EXTRA:-}" ]; then
	run smt4-overcommit probe smt4 A:2:60:1:o,B:2:60:1:o
	audit smt4-overcommit --unknown-cookie zero
	show_windows smt4-overcommit
	show_forced_idle smt4-overcommit
	run asymmetric probe smt2 A:1:60:1:o,B:1:80:1:o
	audit asymmetric
	show_windows asymmetric
	show_forced_idle asymmetric
fi
exit 0
