# tap.sh - tiny TAP helpers for the end-to-end shell tests (sourced).
# Each test script: source this, then ok/fail/skip per check; the plan is
# printed at the end (TAP allows it), so it always matches what ran.
tap_count=0
tap_failed=0
ok() { tap_count=$((tap_count + 1)); echo "ok $tap_count - $*"; }
fail() { tap_count=$((tap_count + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_count - $*"; }
skip() { tap_count=$((tap_count + 1)); echo "ok $tap_count # SKIP $*"; }
# check "description" command...: ok when the command succeeds
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
# expect_exit CODE "description" command...: ok when the command exits CODE
expect_exit() {
	local code=$1 what=$2; shift 2
	"$@" > "$tap_tmp/out" 2> "$tap_tmp/err"
	local got=$?
	if [ "$got" = "$code" ]; then ok "$what (exit $code)"; else
		fail "$what: exit $got, expected $code"; sed 's/^/# /' "$tap_tmp/err" | head -5; fi
}
tap_tmp=$(mktemp -d)
tap_end() { echo "1..$tap_count"; rm -rf "$tap_tmp"; }
trap tap_end EXIT
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
coreaudit="$top_builddir/coreaudit"
# JSON field from stdin: json_get 'expr' (python3, d = the document)
json_get() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# live_test_prelude: for tests on the running kernel: skip (and exit) without
# root, two CPUs or a mountable tracefs; then hold the lock that lets one live
# test at a time use tracefs.
tracefs=/sys/kernel/tracing
live_test_prelude() {
	local why=""
	[ "$(id -u)" = 0 ] || why="needs root for tracefs"
	[ -n "$why" ] || [ "$(nproc)" -ge 2 ] || why="needs two CPUs"
	[ -n "$why" ] || mountpoint -q "$tracefs" ||
		mount -t tracefs nodev "$tracefs" 2> /dev/null || why="tracefs cannot be mounted"
	if [ -n "$why" ]; then skip "$why"; exit 0; fi
	hold_cpu_lock
}
# is_tracing INSTANCE-DIR: the instance traces, set up: tracing_on 1 with its
# events on (a new instance traces at once, before coreaudit turns it off to
# set it up; it turns it on, copying top-level markers, once all is ready)
is_tracing() {
	[ "$(cat "$1/tracing_on" "$1/events/sched/sched_switch/enable" 2> /dev/null | tr -d '\n')" = 11 ]
}
# hold_cpu_lock: one at a time, the live tests (their workloads need the CPUs)
# and the tests that keep both CPUs busy (audits of the large real traces)
hold_cpu_lock() {
	exec 9> /tmp/coreaudit-live-test.lock
	flock 9
}
