#!/bin/sh

test_description='a pinned input that no longer parses is drift, and the docs say so

verify calls a token that no longer parses drift (exit 1), with the
parse error named, as the reference does: the input changed since the
run.  hash on invalid YAML is unusable input (exit 2).  The README'"'"'s
exit-status table and the man page agree with both.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a report whose token then breaks' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "color: red\n" >repo/tokens/t.yml &&
	(cd repo && write_sidecar docs/r.replay.json tokens/t.yml) &&
	echo "# r" >repo/docs/r.md &&
	printf "color: [red\n" >repo/tokens/t.yml
'

test_expect_success 'verify: drift, exit 1, the parse error named' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/r.md) >out &&
	test_grep "failed to parse token at .*tokens/t.yml: " out &&
	test_grep "verdict: drift detected" out
'

test_expect_success 'hash: invalid YAML is exit 2' '
	test_expect_code 2 ahd-replay hash repo/tokens/t.yml 2>err
'

test_expect_success 'the README table and the man page say the same' '
	sed -n "/^### Exit status/,/^### /p" "$TEST_SRC_DIR/README.md" >table &&
	grep "^| 1 |" table >one &&
	test_grep "no longer parses" one &&
	grep "^| 2 |" table >two &&
	test_grep "invalid YAML or JSON given to .hash. or .canon." two &&
	sed -n "/^\.SH EXIT STATUS/,/^\.SH ENVIRONMENT/p" \
		"$TEST_SRC_DIR/doc/ahd-replay-verify.1" >man &&
	test_grep "no longer parses is drift" man
'

test_done
