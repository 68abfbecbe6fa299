#!/bin/sh

test_description='the GitHub step summary escapes what could display as another name

A report name with a bidi override (U+202E) or a noncharacter (U+FFFE)
reaches the job summary page escaped, as it reaches the log.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: reports with hostile names' '
	git init -q repo &&
	mkdir -p repo/tokens &&
	printf "name: swiss\n" >repo/tokens/swiss.yml &&
	rlo=$(printf "\342\200\256") &&
	nonchar=$(printf "\357\277\276") &&
	(
		cd repo &&
		write_sidecar "a${rlo}dm.replay.json" tokens/swiss.yml &&
		write_sidecar "b${nonchar}x.replay.json" tokens/swiss.yml &&
		echo "# a" >"a${rlo}dm.md" &&
		echo "# b" >"b${nonchar}x.md"
	)
'

test_expect_success 'the summary holds no raw bidi control or noncharacter' '
	(
		cd repo &&
		GITHUB_STEP_SUMMARY=../summary.md ahd-replay verify \
			--format=github --all
	) >gh &&
	test_grep "u202e" summary.md &&
	test_grep "ufffe" summary.md &&
	test_grep ! "$(printf "\342\200\256")" summary.md &&
	test_grep ! "$(printf "\357\277\276")" summary.md &&
	test_grep ! "$(printf "\342\200\256")" gh &&
	test_grep ! "$(printf "\357\277\276")" gh
'

test_done
