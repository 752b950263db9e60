#!/bin/bash
# run-vm.sh BZIMAGE INITRAMFS OUTDIR VARIANT SMP GROUPS SECONDS
# Boot the harness guest under QEMU (TCG: nested KVM does not boot here) with
# an SMT topology, record one workload, and leave trace.dat, tasks.txt and
# console.log in OUTDIR.  VARIANT: probe | prctl | both.  SMP: smt2 (1 core x 2
# threads: one vCPU per host core) | smt4 (1 core x 4 threads) | many
# (COREAUDIT_VM_MANY_CPUS vCPUs, default 96, as cores of 2 threads; 2 GiB).  GROUPS as the
# workload takes them, comma-separated.  VARIANT record (kernel-entry: with
# --kernel-entry, irq, softirq and system call events too): the guest records
# with `coreaudit record`; monitor: it runs `coreaudit monitor` during the
# workload and leaves monitor.json; many: the monitor, then record once more,
# leaving also record.dat (all need coreaudit in the initramfs:
# COREAUDIT_BIN).
# COREAUDIT_VM_WORKLOAD_OPTS: more workload options, e.g. "-s 20" (samples of
# the kernel's forced idle every 20 ms, as markers).  COREAUDIT_VM_CHARGES=1:
# also record every forced-idle charge the kernel makes (an fprobe on
# __account_forceidle_time: pid, delta) and each accounting's period (one on
# __sched_core_account_forceidle: start, count, occupation, the core's clock),
# to find where a model goes wrong.
set -euo pipefail
kernel=$1 initramfs=$2 out=$3 variant=$4 smp=$5 groups=$6 seconds=$7
case $smp in
smt2) smp_spec=2,sockets=1,cores=1,threads=2 ;;
smt4) smp_spec=4,sockets=1,cores=1,threads=4 ;;
many) cpus=${COREAUDIT_VM_MANY_CPUS:-96}
      smp_spec=$cpus,sockets=1,cores=$((cpus / 2)),threads=2 memory=2048
      # Each secondary CPU calibrates its delay loop, which under TCG takes
      # seconds and fails: lpj= (loops per jiffy at HZ 250, from the host's
      # clock) skips it; udelay() precision does not matter here.
      mhz=$(awk -F: '/^cpu MHz/ { printf "%d", $2; exit }' /proc/cpuinfo)
      [ -n "$mhz" ] && extra_args="lpj=$((mhz * 4000))"
      # One emulator thread for all vCPUs: with one per vCPU, a vCPU runs a
      # stale translation of the text another patches (the int3 oops that
      # check-vm.sh retries on SMT2 came in every boot of 96 vCPUs, as the
      # monitor enabled its events); one thread sees every patch at once.
      tcg_threads=single ;;
*) echo "run-vm: SMP is smt2, smt4 or many" >&2; exit 2 ;;
esac
mkdir -p "$out"
rm -f "$out/trace.dat" "$out/monitor.json" "$out/tasks.txt" "$out/record.dat"
result=trace.dat
[ "$variant" = monitor ] && result=monitor.json
[ "$variant" = many ] && result=record.dat
timeout "${COREAUDIT_VM_TIMEOUT:-900}" qemu-system-x86_64 \
	-accel tcg,thread=${tcg_threads:-multi} -cpu qemu64,+topoext -smp "$smp_spec" -m "${memory:-1024}" \
	-kernel "$kernel" -initrd "$initramfs" \
	-append "console=ttyS0 panic=-1 ${extra_args:-} coreaudit.variant=$variant coreaudit.groups=$groups coreaudit.seconds=$seconds coreaudit.charges=${COREAUDIT_VM_CHARGES:-0} coreaudit.wopts=$(echo "${COREAUDIT_VM_WORKLOAD_OPTS:-}" | tr ' ' ,)" \
	-device virtio-rng-pci \
	-virtfs "local,path=$out,mount_tag=out,security_model=none,id=out" \
	-nographic -no-reboot -monitor none < /dev/null > "$out/console.log" 2>&1 || true
if [ ! -s "$out/$result" ]; then
	echo "run-vm: no $result from the guest; console:" >&2
	tail -20 "$out/console.log" >&2
	exit 3
fi
