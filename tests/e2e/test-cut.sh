#!/bin/bash
# test-cut.sh - --from and --to (issue 16, trace-cmd habits): the audit of a
# span of a trace is the audit of a trace recorded over that span, with the
# cookies and tags set before it still known.  Away from the span's start
# (where, as at any trace's start, what was queued is not yet known), every
# co-run window is the full audit's, to the nanosecond and with its cause;
# the events before, inside and after add up to the trace's; a bound given
# as a trace timestamp and the same bound given after the first event
# ("+1s") give the same report; cookies rebuilt from prctl calls made before
# the span stay known; and a span with no event, a --from not before --to or
# a TIME that does not parse is a usage error naming what is wrong.
. "$(dirname "$0")/tap.sh"
cookies="$top_srcdir/examples/coresched-cookies.dat"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}

"$coreaudit" audit --json "$cookies" > "$tap_tmp/full.json"
expect_exit 0 "coresched-cookies --from +1s --to +2.5s: passes" \
	"$coreaudit" audit --json --from +1s --to +2.5s "$cookies"
mv "$tap_tmp/out" "$tap_tmp/cut.json"

# compare.py FULL CUT: one line per aspect, "ok ..." or "not ok ..."
cat > "$tap_tmp/compare.py" <<'PY'
import json, sys
full, cut = (json.load(open(f)) for f in sys.argv[1:3])
c = cut["trace"]["cut"]
def say(ok, what): print(("ok " if ok else "not ok ") + what)
first = full["trace"]["cut"]["trace_first_ts"] if "cut" in full["trace"] else None
say(c["events_before"] + cut["trace"]["events"] + c["events_after"] == full["trace"]["events"],
    "events before (%d), inside (%d) and after (%d) add up to the trace's %d" %
    (c["events_before"], cut["trace"]["events"], c["events_after"], full["trace"]["events"]))
say(c["first_ts"] >= c["trace_first_ts"] + 1000000000 and c["last_ts"] <= c["trace_first_ts"] + 2500000000,
    "the audited events lie 1 s to 2.5 s after the trace's first")
say(cut["trace"]["span_ns"] == c["last_ts"] - c["first_ts"], "span_ns is the audited span")
key = lambda w: (w["start_ns"], w["end_ns"], w["core"], w["cause"],
                 tuple((t["pid"], t["cookie"]) for t in w["tasks"]))
settled = c["first_ts"] + 50000000
inner = lambda ws: sorted(key(w) for w in ws if w["start_ns"] >= settled and w["end_ns"] <= c["last_ts"])
a, b = inner(full["windows"]["list"]), inner(cut["windows"]["list"])
say(a == b and len(a) > 100, "the %d windows from 50 ms into the span on are the full audit's, "
    "with their causes (the cut has %d there)" % (len(a), len(b)))
PY
python3 "$tap_tmp/compare.py" "$tap_tmp/full.json" "$tap_tmp/cut.json" > "$tap_tmp/cmp"
while read -r status rest; do
	case $status in ok) ok "coresched-cookies cut: $rest" ;; *) fail "coresched-cookies cut: ${rest#ok }" ;; esac
done < "$tap_tmp/cmp"
[ -s "$tap_tmp/cmp" ] || fail "compare.py printed nothing"

# The same bounds as trace timestamps: the same report.
first=$(json_get 'd["trace"]["cut"]["trace_first_ts"]' < "$tap_tmp/cut.json")
from=$(python3 -c "print('%d.%09d' % divmod($first + 1000000000, 1000000000))")
to=$(python3 -c "print('%d.%09d' % divmod($first + 2500000000, 1000000000))")
"$coreaudit" audit --json --from "$from" --to "$to" "$cookies" > "$tap_tmp/abs.json"
check "coresched-cookies --from $from --to $to: the report of +1s to +2.5s" \
	cmp -s "$tap_tmp/abs.json" "$tap_tmp/cut.json"

# The text report says what was cut.
"$coreaudit" audit --to +1s "$cookies" > "$tap_tmp/text"
check "--to +1s: the text report names the cut and the 0 events before" \
	grep -qE '^  cut \(--from, --to\): audited [0-9.]+ s to [0-9.]+ s of a trace from [0-9.]+ s to [0-9.]+ s; 0 events before and [1-9][0-9]* after not audited' "$tap_tmp/text"

# Cookies from prctl calls made before the span: still known.
if [ -f "$traces/d-prctl.dat" ]; then
	"$coreaudit" audit -t 0,1 --json "$traces/d-prctl.dat" > "$tap_tmp/prctl.json"
	"$coreaudit" audit -t 0,1 --json --from +1s "$traces/d-prctl.dat" > "$tap_tmp/prctl-cut.json"
	check "d-prctl --from +1s: cookies still rebuilt from prctl (made before the span)" test \
		"$(json_get 'd["trace"]["cookie_source"]' < "$tap_tmp/prctl-cut.json")" = prctl
	unknown() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); since = int(sys.argv[2])
print(sum(1 for w in d["windows"]["list"] if w["cause"] == "unknown" and w["start_ns"] >= since))' "$@"; }
	since=$(json_get 'd["trace"]["cut"]["first_ts"]' < "$tap_tmp/prctl-cut.json")
	check "d-prctl --from +1s: no window of unknown cause but the full audit's there ($(unknown "$tap_tmp/prctl.json" "$since"))" \
		test "$(unknown "$tap_tmp/prctl-cut.json" "$since")" = "$(unknown "$tap_tmp/prctl.json" "$since")"
else
	skip "no real traces at $traces (set COREAUDIT_TRACES)"
fi

# Usage errors: exit 2, the file or the option named.
expect_exit 2 "--from past the trace's end" "$coreaudit" audit --from +100s "$cookies"
check "--from past the end: names the file and the trace's own span" \
	grep -qE "^coreaudit: .*coresched-cookies.dat: no event lies in the span asked for \(--from, --to\), [0-9.]+ s to the end: the trace runs from [0-9.]+ s to [0-9.]+ s$" "$tap_tmp/err"
expect_exit 2 "--from +2s --to +1s" "$coreaudit" audit --from +2s --to +1s "$cookies"
check "--from +2s --to +1s: says which" grep -q 'from +2.000000000 s is not before --to +1.000000000 s' "$tap_tmp/err"
for bad in abc +abc -1 1e3 +1x ''; do
	expect_exit 2 "--from '$bad'" "$coreaudit" audit --from "$bad" "$cookies"
	check "--from '$bad': the option and the value named" grep -q -- "--from \"$bad\": expected" "$tap_tmp/err"
done
