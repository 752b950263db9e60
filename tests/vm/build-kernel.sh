#!/bin/bash
# build-kernel.sh - build the harness kernel: Debian's linux-source-6.12 with
# tinyconfig + config.fragment.  Cached outside the source tree, keyed by the
# fragment's hash and the source version (bzImage, .config and System.map;
# the source tree is removed after the build): prints the bzImage path.
#   COREAUDIT_VM_CACHE  cache directory (default /var/cache/coreaudit-vm)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${COREAUDIT_VM_CACHE:-/var/cache/coreaudit-vm}
tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 3; }
key=$({ cat "$here/config.fragment"; dpkg-query -W -f='${Version}' linux-source-6.12; } |
	sha256sum | cut -c1-16)
out=$cache/kernel-$key
if [ -f "$out/bzImage" ]; then echo "$out/bzImage"; exit 0; fi

mkdir -p "$out"
src=$out/src
free_kb=$(df -Pk "$out" | awk 'NR == 2 { print $4 }')
if [ "$free_kb" -lt 3500000 ]; then
	echo "build-kernel: $out has $((free_kb / 1024)) MB free; the build needs 3.5 GB" >&2
	exit 3
fi
if [ ! -d "$src" ]; then
	echo "build-kernel: extracting $tarball" >&2
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
fi
cd "$src"
echo "build-kernel: configuring (tinyconfig + config.fragment)" >&2
make -s tinyconfig > /dev/null
scripts/kconfig/merge_config.sh -m .config "$here/config.fragment" > /dev/null
make -s olddefconfig > /dev/null
# Every option the harness needs must have survived olddefconfig.
missing=""
for option in SCHED_CORE SCHED_SMT SCHEDSTATS FTRACE KPROBE_EVENTS FPROBE_EVENTS \
	      PROBE_EVENTS_BTF_ARGS DEBUG_INFO_BTF FTRACE_SYSCALLS VIRTIO_PCI NET_9P_VIRTIO \
	      9P_FS SERIAL_8250_CONSOLE BLK_DEV_INITRD HW_RANDOM_VIRTIO; do
	grep -q "^CONFIG_$option=y" .config || missing="$missing $option"
done
if [ -n "$missing" ]; then
	echo "build-kernel: the configuration lacks:$missing" >&2
	exit 3
fi
echo "build-kernel: building bzImage (about 8 minutes on 2 cores)" >&2
make -s -j"$(nproc)" bzImage > "$out/build.log" 2>&1 || { tail -30 "$out/build.log" >&2; exit 3; }
cp .config System.map "$out/"
cp arch/x86/boot/bzImage "$out/bzImage"
# The tree is 2.6 GB once built; the kernel, its config and symbols are kept.
cd "$out" && rm -rf "$src"
echo "$out/bzImage"
