#!/bin/bash
# test-golden.sh - findings do not change by accident: the JSON report of
# every real trace (../shared/traces) and bundled example, read by each reader
# (trace.dat v7, its v6 copy, the record reader, report text) and audited with
# each option set below, is compared byte for byte (its file name aside) with
# the SHA-256 recorded in tests/e2e/golden.sha256; and on one thread and two
# or more (--jobs 1, 2 and 4: the CPUs read in up to four parts, merged) every
# input gives the same JSON.  A refactoring must leave
# every line as it is; a change that means to change findings updates the
# file in the same commit, and the commit says why:
#     COREAUDIT_GOLDEN_UPDATE=1 make check TESTS=tests/e2e/test-golden.sh
# On a mismatch the summary of both runs is printed (verdict, windows by
# cause, violations) so the change can be told from the log.
. "$(dirname "$0")/tap.sh"
traces=${COREAUDIT_TRACES:-$top_srcdir/../shared/traces}
golden="$top_srcdir/tests/e2e/golden.sha256"
hold_cpu_lock

option_sets=("plain:" "tags:--tags markers" "tenants:--rules $top_srcdir/rules/tenants.rules"
	     "zero:--unknown-cookie zero" "realtime:--rules $top_srcdir/rules/realtime.rules")
# The sanitizer pass (SAN_FLAGS set) looks for memory errors, which the other
# option sets reach by the same code (tags and rules are the policy check, as
# realtime's rules): it audits each input with plain and realtime, and the
# plain pass holds all five to their digests (CI time, README).
[ -z "$SAN_FLAGS" ] || option_sets=("${option_sets[0]}" "${option_sets[4]}")

# topology_of FILE.dat: the "-t" of a shared trace, from its NAME.topology
# (one "CPU SIBLINGS" line per CPU), or nothing for the examples (marker)
topology_of() {
	local file=${1%.dat}.topology
	[ -f "$file" ] && awk '{ print $2 }' "$file" | sort -un | paste -sd' '
}

# digest NAME OPTIONS... : the JSON's SHA-256 with the file name taken out,
# and the checkout's place (rule files are named by their path)
digest() {
	local name=$1; shift
	"$coreaudit" audit --json "$@" > "$tap_tmp/$name.json" 2> /dev/null
	echo "exit=$? $(sed -e '/^    "file": /d' -e "s|$top_srcdir/||g" "$tap_tmp/$name.json" |
			sha256sum | cut -d' ' -f1)"
}

inputs=()	# "NAME|PATH|EXTRA-OPTIONS|TOPOLOGY"
for dat in "$traces"/d-*.dat "$top_srcdir"/examples/*.dat; do
	[ -f "$dat" ] || continue
	base=$(basename "$dat" .dat)
	topo=$(topology_of "$dat")
	inputs+=("$base|$dat||$topo")
	case $base in d-cookies|d-prctl|d-smt4|coresched-cookies) ;; *) continue ;; esac
	trace-cmd convert --file-version 6 --compression none -i "$dat" -o "$tap_tmp/$base-v6.dat" \
		> /dev/null 2>&1 && inputs+=("$base-v6|$tap_tmp/$base-v6.dat||$topo")
	inputs+=("$base-records|$dat|--reader records|$topo")
	trace-cmd report -i "$dat" > "$tap_tmp/$base.txt" 2> /dev/null &&
		inputs+=("$base-text|$tap_tmp/$base.txt||$topo")
done
if [ ! -f "$traces/d-cookies.dat" ]; then
	skip "no real traces at $traces (set COREAUDIT_TRACES): the examples only"
fi

: > "$tap_tmp/now"
for input in "${inputs[@]}"; do
	IFS='|' read -r name path extra topo <<< "$input"
	for set in "${option_sets[@]}"; do
		label=${set%%:*}; options=${set#*:}
		args=(${options} ${extra})
		[ -n "$topo" ] && args+=(-t "$topo")
		echo "$name.$label $(digest "$name.$label" "${args[@]}" "$path")" >> "$tap_tmp/now"
	done
done

# One thread, two and four (--jobs): the same JSON, byte for byte, on every input.
for input in "${inputs[@]}"; do
	IFS='|' read -r name path extra topo <<< "$input"
	args=(${extra})
	[ -n "$topo" ] && args+=(-t "$topo")
	one=$(digest "$name.jobs1" --jobs 1 "${args[@]}" "$path")
	two=$(digest "$name.jobs2" --jobs 2 "${args[@]}" "$path")
	four=$(digest "$name.jobs4" --jobs 4 "${args[@]}" "$path")
	check "$name: the same JSON on one thread and on two ($one)" test "$one" = "$two"
	check "$name: the same JSON on one thread and on four" test "$one" = "$four"
done

if [ -n "${COREAUDIT_GOLDEN_UPDATE:-}" ]; then
	cp "$tap_tmp/now" "$golden"
	ok "golden digests written to $golden ($(wc -l < "$golden") audits)"
	exit 0
fi
while read -r key result; do
	want=$(awk -v k="$key" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$golden")
	if [ -z "$want" ]; then
		skip "$key: no digest recorded"
	elif [ "$want" = "$result" ]; then
		ok "$key: JSON as recorded"
	else
		fail "$key: JSON differs from the recorded one ($want, now $result)"
		json_get 'd["verdict"], d["violations"], {c: v["count"] for c, v in d["windows"]["by_cause"].items()}' \
			< "$tap_tmp/$key.json" 2> /dev/null | sed 's/^/# now: /'
	fi
done < "$tap_tmp/now"
