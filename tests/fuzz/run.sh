#!/bin/sh
# run.sh - build the libFuzzer harnesses with clang and run each for a fixed
# time (make check-fuzz).  The library is compiled again with
# -fsanitize=fuzzer-no-link,address,undefined into $top_builddir/fuzz/;
# each target starts from its seed corpus in tests/fuzz/corpus/TARGET (new
# inputs it finds are kept in $top_builddir/fuzz/corpus/TARGET).  A crash,
# a sanitizer report, a leak or a hang fails the run and leaves its input as
# $top_builddir/fuzz/TARGET-crash-*.
#
# Environment (from the Makefile): FUZZ_CC, FUZZ_CFLAGS, FUZZ_LIBS,
# FUZZ_SOURCES (the library's sources), FUZZ_SECONDS (per target, default 30),
# FUZZ_ARGS (more libFuzzer flags), top_srcdir, top_builddir.
# Usage: run.sh [TARGET...]   (default: every target)
set -u
targets=${*:-"text-line text-source text-audit rules topology numbers tracedat"}
out=$top_builddir/fuzz
mkdir -p "$out/obj" "$out/corpus"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
includes="-I$top_srcdir/include -I$top_builddir -I$top_builddir/src -I$top_srcdir/src $FUZZ_CFLAGS"

# The library, once (again when a source or header is newer than its object).
newest_header=$(ls -t "$top_srcdir"/include/coreaudit/*.h "$top_srcdir"/src/*.h "$top_srcdir"/src/*/*.h | head -1)
objects=""
for source in $FUZZ_SOURCES; do
	case $source in
	*.h) continue ;;
	src/report/lttng.c) source=src/report/lttng-none.c ;;
	esac
	object=$out/obj/$(echo "$source" | tr / _ | sed 's/\.c$/.o/')
	objects="$objects $object"
	if [ ! -f "$object" ] || [ "$top_srcdir/$source" -nt "$object" ] ||
	   [ "$newest_header" -nt "$object" ]; then
		echo "  FUZZCC   $source"
		$FUZZ_CC $flags -fsanitize=fuzzer-no-link -std=gnu11 $includes \
			-c "$top_srcdir/$source" -o "$object" || exit 1
	fi
done

status=0
for target in $targets; do
	harness=$top_srcdir/tests/fuzz/fuzz-$target.c
	binary=$out/fuzz-$target
	echo "  FUZZLD   fuzz-$target"
	$FUZZ_CC $flags -fsanitize=fuzzer -std=gnu11 $includes "$harness" $objects $FUZZ_LIBS \
		-o "$binary" || exit 1
	mkdir -p "$out/corpus/$target"
	seeds=$top_srcdir/tests/fuzz/corpus/$target
	# the text source alone starts from the same report text as the audit
	[ "$target" = text-source ] && seeds=$top_srcdir/tests/fuzz/corpus/text-audit
	dict=""
	# text-line and text-audit share text.dict
	[ -f "$top_srcdir/tests/fuzz/${target%%-*}.dict" ] &&
		dict="-dict=$top_srcdir/tests/fuzz/${target%%-*}.dict"
	asan=detect_leaks=1
	# libtracecmd 1.3.1 cannot free a handle whose data failed to load, and
	# mallocs sizes read from damaged headers (NULL in production, or memory
	# never touched): README.  Past 1 GiB ASan returns NULL too, before
	# libFuzzer's malloc limit sees it and without poisoning the shadow of a
	# multi-GiB block (which the RSS limit would take for a leak).
	[ "$target" = tracedat ] &&
		asan=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1024
	start=$(date +%s)
	ASAN_OPTIONS=$asan:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$binary" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$out/$target-" \
		$dict ${FUZZ_ARGS:-} "$out/corpus/$target" "$seeds" > "$out/$target.log" 2>&1
	code=$?
	seconds=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$target.log" | tail -1)
	if [ $code -eq 0 ]; then
		echo "ok      fuzz-$target: ${execs:-?} execs in $seconds s, nothing found"
	else
		echo "FAIL    fuzz-$target (exit $code): see $out/$target.log"
		grep -m3 -E "^SUMMARY|ERROR: |Test unit written" "$out/$target.log" | sed 's/^/        /'
		status=1
	fi
done
exit $status
