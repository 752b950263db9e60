#!/bin/bash
# test-install.sh - the installed headers are the user API, and enough: make
# install into a scratch DESTDIR, compile each installed header alone, then
# build the library user tests/e2e/audit-lib.c against only what was
# installed (no -I into the source tree) and audit a bundled trace with it.
# A header that includes a private one (src/) fails here.
. "$(dirname "$0")/tap.sh"
root="$tap_tmp/root"
cc=${CC:-cc}

if ! ${MAKE:-make} -s -C "$top_builddir" install DESTDIR="$root" > "$tap_tmp/install.log" 2>&1; then
	fail "make install DESTDIR=$root"; sed 's/^/# /' "$tap_tmp/install.log" | tail -5; exit 0
fi
ok "make install into a DESTDIR"
includedir=$(dirname "$(find "$root" -path '*/include/coreaudit' -type d | head -1)")
libdir=$(dirname "$(find "$root" -name 'libcoreaudit.so' | head -1)")
check "headers installed in include/coreaudit" test -f "$includedir/coreaudit/audit.h"

for header in "$includedir"/coreaudit/*.h; do
	name=coreaudit/$(basename "$header")
	# Quoted includes resolve beside the header first: a private one is not there.
	if echo "#include <$name>" | $cc -std=c11 -Wall -Wextra -Werror -fsyntax-only \
		-I"$includedir" -x c - 2> "$tap_tmp/err"; then
		ok "$name compiles alone from the installed tree"
	else
		fail "$name compiles alone from the installed tree"; sed 's/^/# /' "$tap_tmp/err" | head -5
	fi
done

if $cc -std=c11 -Wall -Wextra -Werror -I"$includedir" -o "$tap_tmp/audit-lib" \
	$SAN_FLAGS "$top_srcdir/tests/e2e/audit-lib.c" -L"$libdir" -lcoreaudit 2> "$tap_tmp/err"; then
	ok "audit-lib.c builds against the installed headers and library"
	LD_LIBRARY_PATH="$libdir" "$tap_tmp/audit-lib" 0,1 "$top_srcdir/examples/coresched-cookies.dat" \
		> "$tap_tmp/out" 2>&1
	check "the installed library audits a bundled trace" grep -q '^pass [0-9]* ' "$tap_tmp/out"
else
	fail "audit-lib.c builds against the installed headers and library"
	sed 's/^/# /' "$tap_tmp/err" | head -5
fi
