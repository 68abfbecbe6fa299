#!/bin/sh

test_description='keygen, sign and verify: detached Ed25519 signatures

Signatures are also checked without our binary, with the openssl command
line tool, when it can verify raw Ed25519 messages.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq OPENSSL '
	openssl genpkey -algorithm ed25519 -out k.pem &&
	printf x >m &&
	openssl pkeyutl -sign -inkey k.pem -rawin -in m -out s &&
	openssl pkey -in k.pem -pubout -out k.pub &&
	openssl pkeyutl -verify -pubin -inkey k.pub -rawin -in m -sigfile s &&
	printf "AAAA" | base64 -d >/dev/null
'

# sig_field FILE NAME: the string value of NAME in a signature file.
sig_field () {
	sed -n "s/^  \"$2\": \"\\(.*\\)\",\\{0,1\\}\$/\\1/p" "$1"
}

test_expect_success 'setup: a repository with a sidecar' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	cat >repo/tokens/swiss.yml <<-\EOF &&
	name: swiss-editorial
	grid: 12
	EOF
	(
		cd repo &&
		write_sidecar docs/run.replay.json tokens/swiss.yml
	)
'

test_expect_success 'keygen writes a 0600 private key and a public key' '
	ahd-replay keygen --out key >keyid &&
	test_path_is_file key &&
	test_path_is_file key.pub &&
	ls -l key >mode &&
	test_grep "^-rw------- " mode &&
	test_grep "^-----BEGIN PRIVATE KEY-----$" key &&
	test_grep "^-----BEGIN PUBLIC KEY-----$" key.pub &&
	test_line_count = 1 keyid &&
	test_grep "^sha256:[0-9a-f]\{64\}$" keyid
'

test_expect_success OPENSSL 'the key id is the sha256 of the raw public key' '
	openssl pkey -pubin -in key.pub -outform DER >pub.der &&
	tail -c 32 pub.der >raw &&
	printf "sha256:%s\n" "$(test_sha256 raw)" >expect &&
	test_cmp expect keyid
'

test_expect_success 'keygen replaces a key only with --force' '
	ahd-replay keygen --out other >/dev/null &&
	cp other other.orig &&
	test_must_fail ahd-replay keygen --out other 2>err &&
	test_grep "already exists" err &&
	test_cmp other.orig other &&
	ahd-replay keygen --out other --force >/dev/null &&
	! cmp -s other.orig other &&
	ls -l other >mode &&
	test_grep "^-rw------- " mode
'

test_expect_success 'keygen refuses an existing public key file' '
	echo keep >lone.pub &&
	test_must_fail ahd-replay keygen --out lone 2>err &&
	test_grep "lone.pub.*already exists" err &&
	test_path_is_missing lone
'

test_expect_success 'sign writes a detached signature, the sidecar untouched' '
	cp repo/docs/run.replay.json before &&
	ahd-replay sign --key key repo/docs/run.replay.json >out 2>err &&
	echo "signed repo/docs/run.replay.json.sig" >expect &&
	test_cmp expect out &&
	test_must_be_empty err &&
	test_cmp before repo/docs/run.replay.json &&
	sig=repo/docs/run.replay.json.sig &&
	test "$(sig_field $sig algorithm)" = ed25519 &&
	test "$(sig_field $sig key_id)" = "$(cat keyid)" &&
	ahd-replay canon --jcs repo/docs/run.replay.json >canon &&
	printf "%s" "$(cat canon)" >canon.bytes &&
	test "$(sig_field $sig sidecar_hash)" = \
		"sha256:$(test_sha256 canon.bytes)"
'

test_expect_success OPENSSL 'openssl verifies the signature' '
	sig_field repo/docs/run.replay.json.sig signature | base64 -d >sig.bin &&
	openssl pkeyutl -verify -pubin -inkey key.pub -rawin \
		-in canon.bytes -sigfile sig.bin
'

test_expect_success 'a report operand signs its sidecar; re-signing replaces' '
	cp repo/docs/run.replay.json.sig old.sig &&
	ahd-replay sign --key other repo/docs/run.md >out &&
	echo "signed repo/docs/run.replay.json.sig" >expect &&
	test_cmp expect out &&
	! cmp -s old.sig repo/docs/run.replay.json.sig &&
	ls repo/docs >files &&
	test_write_lines run.replay.json run.replay.json.sig >expect &&
	test_cmp expect files &&
	ahd-replay sign --key key repo/docs/run.replay.json >/dev/null &&
	test_cmp old.sig repo/docs/run.replay.json.sig
'

test_expect_success 'sign refuses a key readable by group or others' '
	cp key loose &&
	chmod 640 loose &&
	test_must_fail ahd-replay sign --key loose repo/docs/run.replay.json \
		>out 2>err &&
	test_grep "accessible by group or others" err &&
	test_must_be_empty out &&
	! test_grep "PRIVATE" err
'

test_expect_success 'sign refuses a truncated PEM key' '
	head -n 1 key >truncated &&
	chmod 600 truncated &&
	test_must_fail ahd-replay sign --key truncated \
		repo/docs/run.replay.json 2>err &&
	test_grep "cannot read private key .truncated." err
'

test_expect_success OPENSSL 'sign refuses an RSA key' '
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 \
		-out rsa.pem 2>/dev/null &&
	chmod 600 rsa.pem &&
	test_must_fail ahd-replay sign --key rsa.pem \
		repo/docs/run.replay.json 2>err &&
	test_grep "holds an RSA key; Ed25519 is required" err
'

test_expect_success 'sign refuses an invalid sidecar and signs the rest' '
	echo "{\"schema_version\": 1}" >repo/docs/bad.replay.json &&
	test_must_fail ahd-replay sign --key key repo/docs/bad.replay.json \
		repo/docs/run.replay.json >out 2>err &&
	test_grep "bad.replay.json" err &&
	test_path_is_missing repo/docs/bad.replay.json.sig &&
	echo "signed repo/docs/run.replay.json.sig" >expect &&
	test_cmp expect out &&
	rm repo/docs/bad.replay.json
'

test_expect_success 'keygen and sign usage' '
	test_expect_code 2 ahd-replay keygen 2>err &&
	test_grep "out is required" err &&
	test_expect_code 2 ahd-replay sign repo/docs/run.replay.json 2>err &&
	test_grep "key is required" err &&
	ahd-replay sign -h >out &&
	test_grep "^usage: ahd-replay sign" out
'

test_done
