#!/bin/sh

test_description='verify streams: a report is printed once those before it are

The batch hands each report to the printer as soon as it and every one
before it are verified, through a window of slots, so a run holds a
window of reports and not all of them.  A report whose drift awaits
attribution is kept to the end, and what the reports after it print is
set aside: the bytes are still those of each report in its order.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# copies DIR FROM N: N copies of the sidecar FROM as DIR/rNNN, with reports.
copies () {
	c_i=0
	while test $c_i -lt "$3"
	do
		c_n=$(printf "%03d" $c_i) &&
		cp "$2" "$1/r$c_n.replay.json" &&
		echo "# report $c_n" >"$1/r$c_n.md" &&
		c_i=$((c_i + 1)) || return 1
	done
}

test_expect_success 'setup: many intact reports, drift in the middle' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/big repo/small &&
	printf "name: swiss\ngrid: 12\n" >repo/tokens/swiss.yml &&
	printf "name: drift\n" >repo/tokens/drift.yml &&
	printf "# Brief\n\nA bakery.\n" >repo/briefs/b.md &&
	(
		cd repo &&
		write_sidecar intact.json tokens/swiss.yml briefs/b.md &&
		write_sidecar drift.json tokens/drift.yml briefs/b.md &&
		copies big intact.json 300 &&
		cp drift.json big/r150.replay.json &&
		copies small intact.json 12 &&
		cp drift.json small/r003.replay.json &&
		cp drift.json small/r007.replay.json &&
		echo "{ not json" >small/r005.replay.json &&
		rm intact.json drift.json &&
		git add . &&
		git commit -q -m "reports" &&
		printf "name: drifted\n" >tokens/drift.yml &&
		git commit -q -a -m "drift the token"
	)
'

# alone ARGS...: each report of small/ verified alone, the blocks joined
# as one run joins them, then the summary line of the whole run.
alone () {
	(
		cd repo &&
		first=1 &&
		for md in small/*.md
		do
			ahd-replay verify "$@" "$md" >../one 2>/dev/null
			if test -s ../one
			then
				test -n "$first" || echo
				cat ../one
				first=
			fi
		done &&
		echo &&
		echo "12 reports: 9 intact, 2 drifted, 1 errors"
	) >expect
}

test_expect_success 'one run prints what each report prints alone, in order' '
	alone &&
	(
		cd repo &&
		test_expect_code 2 ahd-replay verify -j2 small >../out1 2>../err1 &&
		test_expect_code 2 ahd-replay verify -j1 small >../out2 2>../err2
	) &&
	test_cmp expect out1 &&
	test_cmp expect out2 &&
	test_cmp err1 err2 &&
	grep "changed by" out1
'

test_expect_success 'with --no-attribution nothing waits: the same bytes' '
	(
		cd repo &&
		test_expect_code 1 ahd-replay verify -j1 --no-attribution big \
			>../out1 2>../err1 &&
		test_expect_code 1 ahd-replay verify -j2 --no-attribution big \
			>../out2 2>../err2
	) &&
	test_cmp out1 out2 &&
	test_cmp err1 err2 &&
	grep "^300 reports: 299 intact, 1 drifted, 0 errors" out1
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

# The first write to stdout comes before the last sidecar is read: the
# reports were not all held until the end.  stdio writes a file in
# blocks of a few KiB, a dozen reports; the window is 64 reports per
# thread; there are 300 reports.
for jobs in 1 2
do
	test_expect_success STRACE "-j$jobs: the first reports are out before the last is read" "
		(
			cd repo &&
			under_strace -f -e trace=openat,openat2,open,write \
				-o ../trace ahd-replay verify -j$jobs big \
				>../out 2>../err;
			true
		) &&
		grep '^300 reports: 299 intact, 1 drifted' out &&
		first_write=\$(grep -n 'write(1,' trace | sed -n '1s/:.*//p') &&
		last_read=\$(grep -n 'r299.replay.json' trace |
			sed -n '1s/:.*//p') &&
		test -n \"\$first_write\" && test -n \"\$last_read\" &&
		test \"\$first_write\" -lt \"\$last_read\"
	"
done

# A failed input asks the index whether git wrote it as a file
# (checkedout.h): once per input a run, not once per report pinning it.
test_expect_success STRACE 'a token drifted in 40 reports: the index is read once' '
	git init -q many &&
	mkdir -p many/tokens many/briefs many/docs &&
	printf "name: drift\n" >many/tokens/drift.yml &&
	printf "# Brief\n" >many/briefs/b.md &&
	(
		cd many &&
		write_sidecar drift.json tokens/drift.yml briefs/b.md &&
		copies docs drift.json 40 &&
		rm drift.json &&
		git add . && git commit -q -m runs &&
		printf "name: drifted\n" >tokens/drift.yml &&
		under_strace -f -e trace=openat,openat2,open -o ../trace \
			ahd-replay verify -j2 --no-attribution docs >../out 2>../err;
		true
	) &&
	grep "^40 reports: 0 intact, 40 drifted" out &&
	grep "\.git/index\"" trace >index-opens &&
	test_line_count -le 2 index-opens
'

test_done
