#!/bin/bash
# accuracy.sh RUNS [FIRST_SEED] - the selection model against the kernel on
# workloads drawn from the matrix (tests/vm/matrix.py): RUNS seeded draws,
# each recorded on the correct kernel (SMT2: one vCPU per host core, the
# cookie probe), audited, and every task's forced idle compared with the
# kernel's core_forceidle_sum; then the error distribution
# (tests/vm/accuracy.py).  Run from the build directory, as root, with nothing
# else loading the machine:
#   top_srcdir=.. top_builddir=. ../tests/vm/accuracy.sh 40 1
# Per-task lines go to $results/accuracy.txt ("seed pid group kernel_ns
# coreaudit_ns error%"), appended, so that runs add up.
#   COREAUDIT_VM_RESULTS  where the guests' files go (default vm-accuracy)
#   COREAUDIT_VM_SECONDS  workload length (default 8)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:?usage: accuracy.sh RUNS [FIRST_SEED]}
seed=${2:-$(date +%s)}
top_builddir=${top_builddir:-.}
results=${COREAUDIT_VM_RESULTS:-$top_builddir/vm-accuracy}
seconds=${COREAUDIT_VM_SECONDS:-8}
coreaudit=$top_builddir/coreaudit
mkdir -p "$results"
bzimage=$("$here/build-kernel.sh") || exit 3
initramfs=$results/initramfs.cpio.gz
COREAUDIT_BIN="$top_builddir/.libs/coreaudit" "$here/build-initramfs.sh" "$initramfs" || exit 3

for ((i = 0; i < runs; i++, seed++)); do
	groups=$(python3 "$here/matrix.py" "$seed")
	out=$results/seed-$seed
	echo "seed $seed: $groups"
	if ! "$here/run-vm.sh" "$bzimage" "$initramfs" "$out" probe smt2 "$groups" "$seconds" \
		2> "$out.err"; then
		echo "seed $seed: no trace (see $out.err)"; continue
	fi
	"$coreaudit" audit --json "$out/trace.dat" > "$out/audit.json" 2> "$out/audit.err"
	python3 "$here/../e2e/compare-forceidle.py" "$out/audit.json" "$out/tasks.txt" |
		sed "s/^/$seed /" | tee -a "$results/accuracy.txt"
done
python3 "$here/accuracy.py" "$results/accuracy.txt"
