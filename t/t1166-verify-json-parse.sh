#!/bin/sh

test_description='verify, validate, render and sign read a sidecar as JSON.parse does

The reference reads a sidecar with JSON.parse(readFileSync(path, "utf8")):
bytes that are not UTF-8 become U+FFFD, a repeated key keeps its last
value, and 1e400 is Infinity.  The commands agree: the first two are
accepted by all of them, the third (which a double cannot carry) is
refused by all of them as unsupported.  And an unusable --at revision is
reported once, not once per report.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# validate finds the schema here in an out-of-tree build too
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

test_expect_success 'setup' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "a: 1\n" >repo/tokens/x.yml &&
	(cd repo && write_sidecar docs/good.replay.json tokens/x.yml) &&
	git -C repo add . &&
	git -C repo commit -q -m init &&
	ahd-replay keygen --out key >/dev/null
'

test_expect_success 'a byte that is not UTF-8: verify, validate and sign all accept it' '
	(cd repo && write_sidecar --version="0.11.0$(printf "\377")" \
		docs/latin.replay.json tokens/x.yml) &&
	(cd repo && ahd-replay verify docs/latin.replay.json) >out 2>err &&
	test_grep "^verdict: replay inputs intact$" out &&
	(cd repo && ahd-replay validate docs/latin.replay.json) >out 2>err &&
	test_grep "latin.replay.json: valid" out &&
	echo "# latin" >repo/docs/latin.md &&
	(cd repo && ahd-replay sign --key=../key docs/latin.replay.json) \
		>out 2>err &&
	test_grep "^signed " out
'

test_expect_success 'a repeated key: the last value wins in verify, validate and sign' '
	(cd repo && write_sidecar --extra="
  \"kind\": \"not-a-kind\"," docs/dup.replay.json tokens/x.yml) &&
	(cd repo && ahd-replay verify docs/dup.replay.json) >out 2>err &&
	test_grep "^  kind: eval-live$" out &&
	test_grep "^verdict: replay inputs intact$" out &&
	(cd repo && ahd-replay validate docs/dup.replay.json) >out 2>err &&
	test_grep "dup.replay.json: valid" out &&
	echo "# dup" >repo/docs/dup.md &&
	(cd repo && ahd-replay sign --key=../key docs/dup.replay.json) \
		>out 2>err &&
	test_grep "^signed " out &&
	(cd repo && ahd-replay verify --trusted-keys=.. \
		--require-signature docs/dup.replay.json) >out 2>err &&
	test_grep "^  ok    signature by" out
'

test_expect_success 'a repeated key whose last value is wrong fails all of them' '
	sed "s/\"kind\": \"eval-live\",/\"kind\": \"eval-live\", \"kind\": \"nope\",/" \
		repo/docs/good.replay.json >repo/docs/dup2.replay.json &&
	(cd repo && test_expect_code 2 ahd-replay verify docs/dup2.replay.json) \
		>out 2>err &&
	test_grep "/kind" err &&
	(cd repo && test_expect_code 1 ahd-replay validate docs/dup2.replay.json) \
		>out 2>err &&
	test_grep "/kind" out &&
	(cd repo && test_expect_code 2 ahd-replay sign --key=../key \
		docs/dup2.replay.json) >out 2>err &&
	test_grep "/kind" err
'

test_expect_success '1e400 (Infinity to JSON.parse): unsupported everywhere, never another number' '
	(cd repo && write_sidecar --sampling="{\"n\": 3, \"temperature\": 1e400, \"seed\": null}" \
		docs/inf.replay.json tokens/x.yml) &&
	for cmd in verify validate render
	do
		(cd repo && test_expect_code 2 ahd-replay $cmd docs/inf.replay.json) \
			>out 2>err &&
		test_grep "unsupported: a number beyond the range of a double" err &&
		test_grep ! "e+308" out err || return 1
	done &&
	(cd repo && test_expect_code 2 ahd-replay sign --key=../key \
		docs/inf.replay.json) >out 2>err &&
	test_grep "unsupported: a number beyond" err
'

test_expect_success 'an unknown --at revision is reported once' '
	(cd repo && test_expect_code 2 ahd-replay verify --at=no-such-rev \
		docs/good.replay.json docs/latin.replay.json \
		docs/dup.replay.json) >out 2>err &&
	cat out err >all &&
	grep -c "no-such-rev" all >n &&
	echo 1 >expect &&
	test_cmp expect n
'

test_done
