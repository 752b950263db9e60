#!/bin/bash
# test-contrib.sh - what contrib/ ships for a fleet: the systemd unit
# (systemd-analyze verify; its ExecStartPre keeps the evidence directory
# bounded) and the Prometheus alerting rules (YAML; every metric they name is
# one coreaudit serves).
. "$(dirname "$0")/tap.sh"
unit="$top_srcdir/contrib/coreaudit-monitor.service"
rules="$top_srcdir/contrib/coreaudit.rules.yml"

if command -v systemd-analyze > /dev/null; then
	# The unit as installed, but with this build's program (verify wants it executable).
	sed "s|/usr/local/bin/coreaudit|$top_builddir/coreaudit|" "$unit" > "$tap_tmp/coreaudit-monitor.service"
	systemd-analyze verify "$tap_tmp/coreaudit-monitor.service" > "$tap_tmp/verify" 2>&1
	check "systemd-analyze verify: nothing but the man page not installed here" \
		sh -c "! grep -v \"Command 'man coreaudit-monitor(1)' failed\" '$tap_tmp/verify' | grep -q ."
else
	skip "systemd-analyze is not installed"
fi

# ExecStartPre as systemd runs it ($$ and %% unescaped), on 12 old traces and a new one.
pre=$(sed -n "s/^ExecStartPre=\/bin\/sh -c '\(.*\)'$/\1/p" "$unit" | sed 's/\$\$/$/g; s/%%/%/g')
mkdir "$tap_tmp/state"
for i in $(seq -w 1 12); do touch -d "2026-01-$i" "$tap_tmp/state/evidence-2026010${i}T000000.dat"; done
echo new > "$tap_tmp/state/evidence.dat"
(cd "$tap_tmp/state" && sh -c "$pre")
check "ExecStartPre: the new evidence moved aside, ten traces kept" test \
	"$(ls "$tap_tmp/state" | grep -c '^evidence-.*\.dat$') $(ls "$tap_tmp/state" | grep -c '^evidence\.dat$')" = "10 0"
check "ExecStartPre: the newest kept, the oldest gone" sh -c \
	"grep -lq new '$tap_tmp'/state/evidence-*.dat && ! ls '$tap_tmp/state' | grep -q 'evidence-2026010\(01\|02\|03\)T'"

check "alerting rules: YAML, and every coreaudit metric they name is served" python3 - "$rules" \
	"$top_srcdir/src/report/metrics.c" <<'PY'
import re, sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))
served = set(re.findall(r'"(coreaudit_[a-z_]+)"', open(sys.argv[2]).read()))
served |= {name + '_total' for name in served}
named = set()
for group in rules['groups']:
    for rule in group['rules']:
        assert rule['alert'] and rule['expr'], rule
        named |= set(re.findall(r'coreaudit_[a-z_]+', rule['expr']))
missing = named - served
if missing:
    print('# not served:', sorted(missing))
sys.exit(bool(missing) or not named)
PY
