#!/bin/bash
# build-initramfs.sh OUT.cpio.gz - the harness guest: busybox-static,
# trace-cmd with its shared libraries, the workload (static), and init.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,dev,proc,sys,tmp,out,etc}
cp /bin/busybox "$root/bin/busybox"
! readelf -l /bin/busybox | grep -q INTERP ||
	{ echo "build-initramfs: /bin/busybox is not static (apt-get install busybox-static)" >&2; exit 3; }
gcc -static -O2 -o "$root/bin/workload" "$here/../workload/workload.c"
trace_cmd=$(command -v trace-cmd)
cp "$trace_cmd" "$root/bin/trace-cmd"
# trace-cmd's shared libraries, at the paths the loader expects.
for lib in $(ldd "$trace_cmd" | grep -o '/[^ ]*'); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# coreaudit itself (COREAUDIT_BIN: the real binary, not libtool's wrapper), for
# the guest's `coreaudit record`.
if [ -n "${COREAUDIT_BIN:-}" ]; then
	cp "$COREAUDIT_BIN" "$root/bin/coreaudit"
	for lib in $(ldd "$COREAUDIT_BIN" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	mkdir -p "$root/lib/x86_64-linux-gnu"
	cp -L "$(dirname "$COREAUDIT_BIN")"/libcoreaudit.so.0 "$root/lib/x86_64-linux-gnu/"
	for lib in $(ldd "$(dirname "$COREAUDIT_BIN")/libcoreaudit.so.0" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi
cp "$here/init" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
