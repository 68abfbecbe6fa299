#!/bin/sh

test_description='sign and verify the records of a layout

A record of a layout of .ahd-replay.yml is signed as AHD'"'"'s sidecars
are: the signature goes to <record>.sig and signs a record statement
that names the layout and binds the record'"'"'s bytes by path and hash.
verify checks it as it checks a sidecar'"'"'s: a signature copied beside
another record, a record edited after signing or a statement that claims
another layout fails, and --require-signature makes an unsigned record
untrusted.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-runs-repo.sh
base=runs/2026-09-01/baseline/record.json
nightly=runs/2026-09-02/nightly/record.json

test_lazy_prereq SSHKEYGEN '
	ssh-keygen -q -t ed25519 -N "" -C probe -f probe &&
	printf x | ssh-keygen -Y sign -n probe -f probe >probe.sig 2>/dev/null
'

test_expect_success 'setup: the demo repository and a trusted key' '
	lsan_ignore_libgit2_leaks &&
	sh "$make_demo" demo &&
	ahd-replay keygen --out key >keyid &&
	mkdir keys &&
	cp key.pub keys/
'

test_expect_success 'sign --statement: the record statement, naming the layout' '
	(cd demo && ahd-replay sign --statement $base >../statement) &&
	sum=$(test_sha256 demo/$base) &&
	printf "{\"definition\":\"DEF\",\"layout\":\"runs\",\"record\":{\"path\":\"%s\",\"sha256\":\"%s\"},\"type\":\"ahd-replay/record-statement/v1\"}" \
		"$base" "$sum" >expect &&
	sed "s/\"definition\":\"[0-9a-f]\{64\}\"/\"definition\":\"DEF\"/" statement >actual &&
	test_cmp expect actual
'

test_expect_success 'without a signature, --require-signature: untrusted, exit 1' '
	(cd demo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys \
		--require-signature $base >../out) &&
	test_grep "^  FAIL  signature: no signature at $base.sig (--require-signature)$" out &&
	test_grep "^verdict: signature check failed$" out
'

test_expect_success 'sign writes <record>.sig; the record is not changed' '
	cp demo/$base record.orig &&
	(cd demo && ahd-replay sign --key ../key $base >../out) &&
	echo "signed $base.sig" >expect &&
	test_cmp expect out &&
	test_cmp record.orig demo/$base &&
	test_grep "\"type\": \"ahd-replay/record-statement/v1\"" demo/$base.sig
'

test_expect_success 'verify --require-signature: the signed record is intact' '
	(cd demo && ahd-replay verify --trusted-keys ../keys \
		--require-signature $base >../out) &&
	test_grep "^  ok    signature by $(cat keyid) verifies$" out &&
	test_grep "^verdict: replay inputs intact$" out
'

test_expect_success 'verify --all does not take a .sig for a record' '
	(cd demo && test_expect_code 1 ahd-replay verify --all --trusted-keys ../keys >../out) &&
	test_grep "^3 reports: 2 intact, 1 drifted, 0 errors$" out
'

test_expect_success 'a signature copied beside another record fails' '
	cp demo/$base.sig demo/$nightly.sig &&
	(cd demo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys $nightly >../out) &&
	test_grep "^  FAIL  signature: the signature is for the record $base, not $nightly$" out &&
	test_grep "^verdict: signature check failed$" out &&
	rm demo/$nightly.sig
'

test_expect_success 'a record edited after signing fails, its inputs intact' '
	cp demo/$base saved &&
	sed "s/0.81/0.99/" saved >demo/$base &&
	(cd demo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys $base >../out) &&
	test_grep "^  ok    config hash matches$" out &&
	test_grep "^  FAIL  signature: record changed after signing$" out &&
	test_grep "^verdict: signature check failed$" out &&
	cp saved demo/$base
'

test_expect_success 'a statement that claims another layout fails' '
	cp demo/.ahd-replay.yml yml.orig &&
	sed "s/name: runs/name: other/" yml.orig >demo/.ahd-replay.yml &&
	(cd demo && ahd-replay sign -q --key ../key $base) &&
	test_grep "\"layout\": \"other\"" demo/$base.sig &&
	cp yml.orig demo/.ahd-replay.yml &&
	(cd demo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys $base >../out) &&
	test_grep "^  FAIL  signature: the signature is for the layout other, not runs$" out
'

test_expect_success 'a signature of an AHD sidecar does not sign a record' '
	mkdir demo/docs &&
	(cd demo && write_sidecar docs/run.replay.json configs/eval.yaml &&
	 echo "# run" >docs/run.md &&
	 ahd-replay sign -q --key ../key docs/run.md) &&
	cp demo/docs/run.replay.json.sig demo/$base.sig &&
	(cd demo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys $base >../out) &&
	test_grep "^  FAIL  signature: the signature is over a statement of another type$" out &&
	rm -r demo/docs
'

test_expect_success 'sign refuses a record verify cannot read, exit 2' '
	mkdir -p demo/runs/2026-09-04/broken &&
	echo "{\"inputs\": [{\"role\": \"config\", \"path\": \"configs/eval.yaml\"}]}" \
		>demo/runs/2026-09-04/broken/record.json &&
	(cd demo && test_expect_code 2 ahd-replay sign --key ../key \
		runs/2026-09-04/broken/record.json 2>../err) &&
	test_grep "has no SHA-256 hash" err &&
	test_path_is_missing demo/runs/2026-09-04/broken/record.json.sig &&
	rm -r demo/runs/2026-09-04
'

test_expect_success 'a malformed .ahd-replay.yml: sign refuses, exit 2' '
	echo "bogus: [" >>demo/.ahd-replay.yml &&
	(cd demo && test_expect_code 2 ahd-replay sign --key ../key $base 2>../err) &&
	test_grep "\.ahd-replay\.yml:" err &&
	cp yml.orig demo/.ahd-replay.yml
'

test_expect_success 'a layout edited to read fewer inputs breaks the signature' '
	(cd demo && ahd-replay sign -q --key ../key $base) &&
	cp demo/prompts/system.md prompt.orig &&
	test_when_finished "cp yml.orig demo/.ahd-replay.yml && cp prompt.orig demo/prompts/system.md" &&
	echo "an edited prompt" >>demo/prompts/system.md &&
	sed -e "s|path: /inputs/\*/path|path: /inputs/0/path|" \
	    -e "s|hash: /inputs/\*/sha256|hash: /inputs/0/sha256|" \
	    -e "s|label: /inputs/\*/role|label: /inputs/0/role|" \
		yml.orig >demo/.ahd-replay.yml &&
	(cd demo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys \
		--require-signature $base >../out) &&
	test_grep "^  FAIL  signature: the layout runs reads the record another way than when it was signed (.ahd-replay.yml changed its pointers, modes or spellings)$" out &&
	test_grep "^verdict: signature check failed$" out
'

test_expect_success SSHKEYGEN 'an SSH signature of a record: ssh-keygen and verify accept it' '
	ssh-keygen -q -t ed25519 -N "" -C alice -f alice &&
	echo "alice@example.com $(cat alice.pub)" >allowed &&
	(cd demo && ahd-replay sign -q --ssh-key ../alice $base &&
	 ahd-replay sign --statement $base >../statement) &&
	ssh-keygen -Y verify -f allowed -I alice@example.com -n ahd-replay \
		-s demo/$base.sig <statement >/dev/null &&
	(cd demo && ahd-replay verify --allowed-signers ../allowed \
		--require-signature $base >../out) &&
	test_grep "^  ok    SSH signature by alice@example.com" out &&
	cp demo/$base.sig demo/$nightly.sig &&
	(cd demo && test_expect_code 1 ahd-replay verify --allowed-signers ../allowed \
		$nightly >../out) &&
	test_grep "^  FAIL  signature: the signature is for the record $base, not $nightly$" out
'

test_done
