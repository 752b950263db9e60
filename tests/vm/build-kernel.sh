#!/bin/bash
# build-kernel.sh [PATCH] - build the harness kernel: Debian's
# linux-source-6.12 with tinyconfig + config.fragment, cached outside the
# source tree, keyed by the fragment's hash and the source version: prints
# the bzImage path.  The built tree is kept beside it (about 2.6 GB), so that
# a kernel with PATCH applied (tests/vm/bugs/: one reintroduced bug class,
# touching kernel/sched only) is an incremental build of minutes, cached by
# the patch's hash; the tree is restored after it.
#   COREAUDIT_VM_CACHE  cache directory (default /var/cache/coreaudit-vm)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${COREAUDIT_VM_CACHE:-/var/cache/coreaudit-vm}
patch_file=${1:-}
[ -z "$patch_file" ] || patch_file=$(realpath "$patch_file")
tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-6.12)" >&2; exit 3; }
key=$({ cat "$here/config.fragment"; dpkg-query -W -f='${Version}' linux-source-6.12; } |
	sha256sum | cut -c1-16)
out=$cache/kernel-$key
src=$out/src
mkdir -p "$out"
exec 9> "$out/.lock"
flock 9

if [ -n "$patch_file" ]; then
	name=$(basename "$patch_file" .patch)
	variant=$out/variants/$name-$(sha256sum < "$patch_file" | cut -c1-12)
	if [ -f "$variant/bzImage" ]; then echo "$variant/bzImage"; exit 0; fi
elif [ -f "$out/bzImage" ]; then
	echo "$out/bzImage"; exit 0
fi

# The base kernel, built in a tree that is kept (a cache from before the
# tree was kept has a bzImage but no tree: built once more).
if [ ! -f "$src/vmlinux" ]; then
	free_kb=$(df -Pk "$out" | awk 'NR == 2 { print $4 }')
	if [ "$free_kb" -lt 3500000 ]; then
		echo "build-kernel: $out has $((free_kb / 1024)) MB free; the build needs 3.5 GB" >&2
		exit 3
	fi
	rm -rf "$src" "$src.tmp"
	echo "build-kernel: extracting $tarball" >&2
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
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
fi
[ -n "$patch_file" ] || { echo "$out/bzImage"; exit 0; }

# A bug class: the patch on the kept tree, an incremental build, the tree restored.
cd "$src"
echo "build-kernel: $name (incremental)" >&2
patch -s -p1 --forward < "$patch_file" || { echo "build-kernel: $patch_file does not apply" >&2; exit 3; }
mkdir -p "$variant"
if ! make -s -j"$(nproc)" bzImage > "$variant/build.log" 2>&1; then
	tail -30 "$variant/build.log" >&2
	patch -s -R -p1 < "$patch_file"
	exit 3
fi
cp arch/x86/boot/bzImage "$variant/bzImage.tmp"
cp System.map "$variant/"
patch -s -R -p1 < "$patch_file"
mv "$variant/bzImage.tmp" "$variant/bzImage"
echo "$variant/bzImage"
