#!/bin/sh

test_description='verify --trusted-keys: one bad key file does not take the others with it

An unreadable or junk *.pub, or a private key saved as a .pub, is named
in an error and left out; the other keys still verify signatures (the run
exits 2: the store needs fixing), and when none is usable the failure
says so instead of claiming that no keys were given.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a signed sidecar and a trusted keys directory' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs trusted &&
	printf "a: 1\n" >repo/tokens/x.yml &&
	(cd repo && write_sidecar docs/run.replay.json tokens/x.yml) &&
	echo "# run" >repo/docs/run.md &&
	ahd-replay keygen --out key >/dev/null &&
	ahd-replay sign --key key repo/docs/run.replay.json >/dev/null &&
	cp key.pub trusted/good.pub
'

test_expect_success 'a junk .pub: named in an error, the good key still used' '
	echo "not a key" >trusted/junk.pub &&
	test_expect_code 2 ahd-replay verify --trusted-keys trusted \
		--require-signature repo/docs/run.replay.json >out 2>err &&
	test_grep "^  ok    signature by" out &&
	test_grep "^ahd-replay: trusted keys: left out, .*junk.pub" err
'

test_expect_success 'an unreadable .pub: named, the good key still used' '
	mkdir trusted/dir.pub &&
	test_expect_code 2 ahd-replay verify --trusted-keys trusted \
		--require-signature repo/docs/run.replay.json >out 2>err &&
	test_grep "^  ok    signature by" out &&
	test_grep "left out, .*dir.pub" err &&
	rmdir trusted/dir.pub
'

test_expect_success 'a private key saved as a .pub is called what it is' '
	cp key trusted/oops.pub &&
	test_expect_code 2 ahd-replay verify --trusted-keys trusted \
		--require-signature repo/docs/run.replay.json >out 2>err &&
	test_grep "^  ok    signature by" out &&
	grep oops.pub err >oops &&
	test_grep "oops.pub. holds a private key, not a public key" oops &&
	test_grep ! "DECODER" oops &&
	rm trusted/oops.pub
'

test_expect_success 'only bad keys: the signature fails saying no key was usable' '
	rm trusted/good.pub &&
	test_expect_code 2 ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out 2>err &&
	test_grep "no usable trusted keys: 1 key file skipped" out &&
	test_grep ! "no trusted keys: --trusted-keys" out
'

test_done
