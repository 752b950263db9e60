#!/bin/bash
# test-lttng.sh - findings as LTTng-UST events, read back from a real
# lttng-sessiond session with babeltrace2.  Skips, saying why, when coreaudit
# was built without LTTng-UST or lttng-tools / babeltrace2 are missing.
. "$(dirname "$0")/tap.sh"
grep -q 'define HAVE_LTTNG_UST 1' "$top_builddir/config.h" ||
	{ skip "built without LTTng-UST (configure --with-lttng-ust)"; exit 0; }
for tool in lttng lttng-sessiond babeltrace2; do
	command -v $tool > /dev/null || { skip "$tool is not installed"; exit 0; }
done
started_daemon=
if ! pgrep -x lttng-sessiond > /dev/null; then
	lttng-sessiond --daemonize --no-kernel > /dev/null 2>&1 && started_daemon=1
fi
session=coreaudit-test-$$
cleanup() {
	lttng destroy "$session" > /dev/null 2>&1
	[ -n "$started_daemon" ] && pkill -x lttng-sessiond
	tap_end
}
trap cleanup EXIT

trace_audit() {	# trace_audit NAME ARGS...: babeltrace2 text in $tap_tmp/NAME.txt
	local name=$1; shift
	# A blocking channel and registration without a timeout: on a loaded machine
	# (the sanitizer pass beside other tests) no event is discarded, none emitted
	# before the application registered (one run lost some so).
	lttng create "$session" --output "$tap_tmp/$name" > /dev/null &&
	lttng enable-channel --userspace --blocking-timeout=inf --subbuf-size=1M \
		coreaudit-test > /dev/null &&
	lttng enable-event --userspace --channel=coreaudit-test 'coreaudit:*' > /dev/null &&
	lttng add-context --userspace --channel=coreaudit-test --type=vpid > /dev/null &&
	lttng start > /dev/null
	# The session takes every process's coreaudit events (another coreaudit
	# on the machine, a test beside this one): only this audit's are counted.
	LTTNG_UST_ALLOW_BLOCKING=1 LTTNG_UST_REGISTER_TIMEOUT=-1 "$coreaudit" audit "$@" \
		> /dev/null 2>&1 &
	local pid=$!
	wait "$pid"
	lttng stop > /dev/null
	lttng destroy "$session" > /dev/null
	babeltrace2 "$tap_tmp/$name" 2>&1 | grep -E "vpid = $pid[^0-9]" > "$tap_tmp/$name.txt"
}

trace_audit cookies "$top_srcdir/examples/coresched-cookies.dat"
windows=$(grep -c 'coreaudit:window:' "$tap_tmp/cookies.txt")
check "coresched-cookies: one coreaudit:window event per window (1193)" test "$windows" = 1193
[ "$windows" = 1193 ] || { echo "# $windows window events"; grep -v '^\[' "$tap_tmp/cookies.txt" |
	head -5 | sed 's/^/# /'; }
check "coresched-cookies: the verdict event says pass, 0 violations of 1193 windows" \
	grep -q 'coreaudit:verdict: .*verdict = "pass", violations = 0, windows = 1193' \
	"$tap_tmp/cookies.txt"

trace_audit tenants --tags markers "$top_srcdir/examples/tenants-shared-core.dat"
check "tenants: 2 violation windows as events" \
	test "$(grep -c 'coreaudit:window: .*kind = "violation"' "$tap_tmp/tenants.txt")" = 2
check "tenants: the verdict event says fail" \
	grep -q 'coreaudit:verdict: .*verdict = "fail"' "$tap_tmp/tenants.txt"
check "tenants: an inconclusive event for each CPU with missed switches" \
	test "$(grep -c 'coreaudit:inconclusive:' "$tap_tmp/tenants.txt")" = 2
exit 0
