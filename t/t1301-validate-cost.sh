#!/bin/sh

test_description='validate: lines of many errors in one pass

A pull request'\''s sidecar can carry tens of thousands of violations.
Each error'\''s line used to be found by reading and scanning the file
again: violations times size, past 20 s for 80,000 unknown keys in a
2 MB sidecar.  The keys are now indexed once.  Checked under a
timeout the old way cannot meet, and the lines checked against awk'\''s.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# validate reads the schema of the source tree (an out-of-tree build has
# none beside the binary).
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq TIMEOUT '
	timeout 5 true
'

test_expect_success 'setup: a sidecar with 80,000 unknown keys' '
	mkdir -p repo/tokens repo/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >repo/package.json &&
	printf "id: x\n" >repo/tokens/x.yml &&
	(cd repo && write_sidecar docs/ok.replay.json tokens/x.yml) &&
	{
		sed "\$d" repo/docs/ok.replay.json | sed "\$s/\$/,/" &&
		awk "BEGIN { for (i = 0; i < 80000; i++)
			printf \"  \\\"unknown_%06d\\\": %d%s\\n\", i, i,
				i < 79999 ? \",\" : \"\" }" &&
		echo "}"
	} >repo/docs/many.replay.json
'

test_expect_success TIMEOUT 'every error, with its line, in bounded time' '
	(cd repo && test_expect_code 1 timeout 15 ahd-replay validate \
		--format=github docs/many.replay.json) >out &&
	test $(grep -c "^::error " out) = 80000 &&
	line=$(grep -n "\"unknown_079999\"" repo/docs/many.replay.json | cut -d: -f1) &&
	test_grep "^::error file=docs/many.replay.json,line=$line,title=schema::/unknown_079999: " out &&
	line=$(grep -n "\"unknown_000000\"" repo/docs/many.replay.json | cut -d: -f1) &&
	test_grep "^::error file=docs/many.replay.json,line=$line,title=schema::/unknown_000000: " out
'

test_expect_success 'a nested key: the line after its parent' '
	sed "s/\"n\": 3,/\"n\": 3, \"bad\": 1,/" repo/docs/ok.replay.json >repo/docs/nested.replay.json &&
	(cd repo && test_expect_code 1 ahd-replay validate --format=github \
		docs/nested.replay.json) >out &&
	line=$(grep -n "\"bad\"" repo/docs/nested.replay.json | cut -d: -f1) &&
	test_grep "line=$line,title=schema::/sampling/bad: " out
'

test_done
