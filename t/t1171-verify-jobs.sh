#!/bin/sh

test_description='verify -j N: the same output as a serial run, byte for byte

Reports are verified on a pool of threads and printed in their order; a
repository with intact, drifted (attributed to a commit), errored and
missing-input reports must give the same stdout, stderr and exit status
with -j1 and -j4, in every format.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: intact, drifted, errored and missing-input reports' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs/a repo/docs/b &&
	printf "name: swiss\ngrid: 12\n" >repo/tokens/swiss.yml &&
	printf "name: drift\n" >repo/tokens/drift.yml &&
	printf "name: gone\n" >repo/tokens/gone.yml &&
	printf "# Brief\n\nA bakery.\n" >repo/briefs/b.md &&
	(
		cd repo &&
		i=0 &&
		while test $i -lt 24
		do
			d=docs/a &&
			if test $((i % 2)) = 1
			then
				d=docs/b
			fi &&
			case $((i % 4)) in
			0) t=swiss ;;
			1) t=drift ;;
			2) t=gone ;;
			3) t=swiss ;;
			esac &&
			write_sidecar $d/r$i.replay.json tokens/$t.yml briefs/b.md &&
			echo "# report $i" >$d/r$i.md &&
			i=$((i + 1)) || return 1
		done &&
		echo "{ not json" >docs/a/broken.replay.json &&
		git add . &&
		git commit -q -m "reports" &&
		printf "name: drifted\n" >tokens/drift.yml &&
		git commit -q -a -m "drift the token" &&
		rm tokens/gone.yml
	)
'

# same_output ARGS...: `verify ARGS` with -j1 and -j4 writes the same
# stdout and stderr and exits the same.
same_output () {
	(
		cd repo &&
		{ ahd-replay verify -j1 "$@" >../out1 2>../err1; echo $? >../rc1; } &&
		{ ahd-replay verify -j4 "$@" >../out4 2>../err4; echo $? >../rc4; }
	) &&
	test_cmp rc1 rc4 &&
	test_cmp out1 out4 &&
	test_cmp err1 err4
}

test_expect_success 'the run has every kind of verdict' '
	same_output &&
	grep "^25 reports: 12 intact, 12 drifted, 1 errors" out1 &&
	grep "not found" out1 &&
	grep "changed by" out1 &&
	echo 2 >expect &&
	test_cmp expect rc1
'

for format in text json github sarif junit
do
	test_expect_success "-j1 and -j4 agree: --format=$format" "
		same_output --format=$format
	"
done

test_expect_success '-j1 and -j4 agree: --explain, --quiet, --no-attribution' '
	same_output --explain &&
	same_output --quiet &&
	same_output --no-attribution
'

test_expect_success '-j1 and -j4 agree on --output documents' '
	(
		cd repo &&
		ahd-replay verify -j1 --output=json:../j1.json \
			--output=sarif:../j1.sarif >/dev/null 2>&1;
		ahd-replay verify -j4 --output=json:../j4.json \
			--output=sarif:../j4.sarif >/dev/null 2>&1;
		true
	) &&
	test_cmp j1.json j4.json &&
	test_cmp j1.sarif j4.sarif
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

test_expect_success STRACE 'a token shared by many reports is opened once per run' '
	(
		cd repo &&
		strace -f -e trace=openat,openat2,open -o ../trace \
			ahd-replay verify -j4 docs/a >/dev/null 2>&1;
		true
	) &&
	test $(grep -c "swiss.yml" trace) = 1
'

# The binary runs under a virtual memory limit: not under ASan, whose
# shadow memory needs terabytes of address space.
test_lazy_prereq ULIMIT_V '
	(ulimit -v 131072 && ahd-replay hash --raw "$TEST_SRC_DIR/README.md") >/dev/null
'

# The window grows with the threads (WINDOW_PER_THREAD slots each): what
# else is kept per thread must not, or -j N costs N times the window.
test_expect_success ULIMIT_V 'many threads: memory grows with the window, not with its square' '
	mkdir -p repo/many &&
	i=0 &&
	while test $i -lt 256
	do
		cp repo/docs/a/r0.replay.json repo/many/r$i.replay.json &&
		echo "# report $i" >repo/many/r$i.md &&
		i=$((i + 1)) || return 1
	done &&
	(
		cd repo &&
		ulimit -s 1024 &&
		ulimit -v 2097152 &&
		ahd-replay verify --no-cache -j256 many >../out 2>../err
	) &&
	test_grep "^256 reports: 256 intact, 0 drifted, 0 errors" out &&
	test_must_be_empty err
'

test_expect_success '--jobs refuses what is not a count' '
	(
		cd repo &&
		test_expect_code 2 ahd-replay verify --jobs=0 &&
		test_expect_code 2 ahd-replay verify -j x
	)
'

test_done
