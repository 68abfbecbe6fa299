#!/bin/sh
#
# Build the libFuzzer targets t/fuzz/fuzz-*.c with clang, ASan and
# UBSan, against the library sources in src/ and its subsystem folders
# (every .c but main()'s src/ahd-replay.c; the subcommands in src/builtin/
# are not needed).
#
#   t/fuzz/build.sh [OUTDIR]          (default: build-fuzz)
#   OUTDIR/fuzz-canon -max_total_time=60 SCRATCH_CORPUS t/fuzz/corpus
#   OUTDIR/fuzz-eventlog -max_total_time=60 SCRATCH_CORPUS t/fuzz/corpus-eventlog
#   OUTDIR/fuzz-verify-text -max_total_time=60 SCRATCH_CORPUS t/fuzz/corpus-verify-text
#   OUTDIR/fuzz-sshsig -max_total_time=60 SCRATCH_CORPUS t/fuzz/corpus-sshsig
#   OUTDIR/fuzz-sidecar -max_total_time=60 SCRATCH_CORPUS t/fuzz/corpus-sidecar
#
# The sources include config.h, so OUTDIR is first configured with
# CC=clang (run `autoreconf -fi` in the source tree once before).
# Environment: CC (default clang), FUZZ_CFLAGS (extra compiler flags).

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd -P)
outdir=${1:-build-fuzz}
cc=${CC:-clang}

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)

if ! command -v "$cc" >/dev/null 2>&1
then
	echo "build.sh: $cc not found (on Debian: apt-get install clang libclang-rt-dev)" >&2
	exit 1
fi

if ! test -f "$outdir/config.h"
then
	if ! test -x "$top/configure"
	then
		echo "build.sh: $top/configure is missing; run 'autoreconf -fi' there first" >&2
		exit 1
	fi
	echo "build.sh: configuring in $outdir"
	(cd "$outdir" && "$top/configure" -q CC="$cc" CFLAGS="-g -O1") || {
		echo "build.sh: configure failed; see $outdir/config.log" >&2
		exit 1
	}
fi

pkgs="yaml-0.1 jansson libcrypto libgit2"
# shellcheck disable=SC2086
pkg_cflags=$(pkg-config --cflags $pkgs)
# shellcheck disable=SC2086
pkg_libs=$(pkg-config --libs $pkgs)

set --
for src in "$top"/src/*.c "$top"/src/*/*.c
do
	case $src in
	*/src/ahd-replay.c | */src/builtin/*) ;;
	*) set -- "$@" "$src" ;;
	esac
done

for target in "$top"/t/fuzz/fuzz-*.c
do
	name=$(basename "$target" .c)
	echo "build.sh: compiling $outdir/$name"
	# shellcheck disable=SC2086
	"$cc" -g -O1 -fno-omit-frame-pointer \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined \
		-I"$outdir" -I"$top/src" $pkg_cflags ${FUZZ_CFLAGS:-} \
		-o "$outdir/$name" "$target" "$@" $pkg_libs
	echo "build.sh: built $outdir/$name"
done
