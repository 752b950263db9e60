#!/bin/sh
# make-seeds.sh - (re)make the seed corpora in tests/fuzz/corpus/ from the
# bundled examples: report-text snippets, single lines, rule files, option
# values and tiny trace.dat files cut from real traces.  Needs trace-cmd.
# Run from anywhere; writes into the source tree (commit the result).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
corpus=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$corpus"
mkdir -p "$corpus/text-line" "$corpus/text-audit" "$corpus/rules" "$corpus/topology" \
	"$corpus/numbers" "$corpus/tracedat"

for trace in coresched-cookies coresched-nocookies tenants-shared-core; do
	trace-cmd report -i "$top/examples/$trace.dat" > "$tmp/$trace.txt" 2> /dev/null
	trace-cmd convert --file-version 6 --compression none -i "$top/examples/$trace.dat" \
		-o "$tmp/$trace.v6.dat" > /dev/null 2>&1
done
# Report text: the start of each trace (with its cpus= header and markers),
# a stretch from the middle, the same with lost events, and the raw format.
head -40 "$tmp/coresched-cookies.txt" > "$corpus/text-audit/cookies-start.txt"
head -40 "$tmp/tenants-shared-core.txt" > "$corpus/text-audit/tenants-start.txt"
sed -n '2000,2040p' "$tmp/coresched-nocookies.txt" > "$corpus/text-audit/nocookies-middle.txt"
{ sed -n '1,20p' "$tmp/coresched-cookies.txt"; echo 'CPU:1 [12 EVENTS DROPPED]';
  sed -n '21,40p' "$tmp/coresched-cookies.txt"; echo 'CPU:0 [LOST 3 EVENTS]'; } \
	> "$corpus/text-audit/lost.txt"
trace-cmd report -R -i "$top/examples/tenants-shared-core.dat" 2> /dev/null | head -40 \
	> "$corpus/text-audit/tenants-raw.txt"
# Single lines: one of each event coreaudit reads, and a few headers.
n=0
for event in sched_switch sched_wakeup sched_migrate_task sched_process_fork \
	     sched_process_exit cpu_idle ipi_send_cpu ipi_send_cpumask local_timer_entry \
	     hrtimer_expire_entry cs_switch print sys_enter_prctl sys_exit_prctl; do
	cat "$tmp"/*.txt "$corpus/text-audit/tenants-raw.txt" | grep -m2 " $event: " |
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\n' "$line" > "$corpus/text-line/$event-$n"
	done
done
printf 'cpus=2\n' > "$corpus/text-line/cpus"
printf 'CPU:1 [EVENTS DROPPED]\n' > "$corpus/text-line/lost"
printf 'CPU:0 [LOST 12 EVENTS]\n' > "$corpus/text-line/lost-tracefs"
# Kernel entries and exits (record --kernel-entry; the bundled traces have none).
printf '%s\n' '  workload-23848 [001] 13878.984528345: irq_handler_entry:    irq=42 name=virtio3-tx' \
	> "$corpus/text-line/irq_handler_entry-1"
printf '%s\n' '  workload-23848 [001] 13878.984536207: irq_handler_exit:     irq=42 ret=handled' \
	> "$corpus/text-line/irq_handler_exit-1"
printf '%s\n' '  coreaudit-23830 [001] 13878.908034013: softirq_entry:        vec=9 [action=RCU]' \
	> "$corpus/text-line/softirq_entry-1"
printf '%s\n' '  coreaudit-23830 [001] 13878.908036477: softirq_exit:         vec=9 [action=RCU]' \
	> "$corpus/text-line/softirq_exit-1"
printf '%s\n' '  workload-23846 [000] 13878.910276985: sys_enter:            NR 273 (7f90efdfe560, 18, 0, 7f90efdfe550, 0, 556ff351de90)' \
	> "$corpus/text-line/sys_enter-1"
printf '%s\n' '  workload-23846 [000] 13878.910268883: sys_exit:             NR 56 = 0' \
	> "$corpus/text-line/sys_exit-1"
{ cat "$corpus/text-audit/lost.txt" | sed -n '1,12p'
  for f in softirq_entry-1 softirq_exit-1 sys_exit-1 sys_enter-1 irq_handler_entry-1 \
	   irq_handler_exit-1; do cat "$corpus/text-line/$f"; done; } > "$corpus/text-audit/kernel-entry.txt"
# Rule files: the shipped ones.
cp "$top"/rules/*.rules "$corpus/rules/"
# Option values.
for value in "0,1 2,3" "0-3 4-7" "0,4 1,5 2,6 3,7" "0-1,4" "63"; do
	printf '%s' "$value" > "$corpus/topology/$(printf '%s' "$value" | tr ' ,' '_.')"
done
for value in 16ms 1.5ms 500us 2s 250ns 0.000000001s 12.5 12.5% 100 0x2a 18446744073709551615; do
	printf '%s' "$value" > "$corpus/numbers/$value"
done
# Tiny trace.dat files: the first page of each CPU, and a later stretch.
python3 "$here/make-tiny-dat.py" "$tmp/coresched-cookies.v6.dat" \
	"$corpus/tracedat/cookies-p1.dat" 1 0
python3 "$here/make-tiny-dat.py" "$tmp/coresched-nocookies.v6.dat" \
	"$corpus/tracedat/nocookies-p40.dat" 1 40
python3 "$here/make-tiny-dat.py" "$tmp/tenants-shared-core.v6.dat" \
	"$corpus/tracedat/tenants-p1.dat" 1 0
du -sh "$corpus"/*
