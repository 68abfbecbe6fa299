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
		write_sidecar docs/run.replay.json tokens/swiss.yml &&
		echo "# run" >docs/run.md
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

test_expect_success 'keygen: a .pub that cannot be made leaves no private key' '
	ln -s nowhere dangling.pub &&
	test_must_fail ahd-replay keygen --out dangling 2>err &&
	test_grep "dangling.pub.*already exists" err &&
	test_path_is_missing dangling &&
	rm dangling.pub &&
	ahd-replay keygen --out dangling >/dev/null &&
	test_path_is_file dangling &&
	test_path_is_file dangling.pub
'

test_expect_success 'keygen --force: the old key stays when the new pair cannot be written' '
	ahd-replay keygen --out pair >/dev/null &&
	cp pair pair.orig &&
	cp pair.pub pub.orig &&
	rm pair.pub &&
	mkdir pair.pub &&
	test_must_fail ahd-replay keygen --out pair --force 2>err &&
	test_grep "pair.pub.* is a directory" err &&
	test_cmp pair.orig pair &&
	rmdir pair.pub &&
	cp pub.orig pair.pub &&
	ahd-replay keygen --out pair --force >/dev/null &&
	! cmp -s pair.orig pair &&
	! cmp -s pub.orig pair.pub &&
	ls -a >files &&
	test_grep ! "tmp-" files
'

test_lazy_prereq TMPFS '
	test "$(id -u)" = 0 &&
	mkdir tmpfs-probe &&
	mount -t tmpfs -o size=8k tmpfs tmpfs-probe &&
	umount tmpfs-probe &&
	rmdir tmpfs-probe
'

test_expect_success TMPFS 'keygen on a full disk: neither key is left' '
	mkdir full &&
	mount -t tmpfs -o size=8k tmpfs full &&
	test_when_finished "umount full" &&
	# one page of two taken: the private key fits, its .pub does not
	dd if=/dev/zero of=full/fill bs=4096 count=1 2>/dev/null &&
	test_must_fail ahd-replay keygen --out full/k 2>err &&
	test_grep "No space left" err &&
	test_path_is_missing full/k &&
	test_path_is_missing full/k.pub &&
	ls -A full >left &&
	echo fill >expect &&
	test_cmp expect left
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
	test_grep "^  \"version\": 2,$" $sig &&
	ahd-replay sign --statement repo/docs/run.md >canon.bytes &&
	ahd-replay canon --jcs repo/docs/run.replay.json >canon &&
	printf "%s" "$(cat canon)" >sidecar.bytes &&
	test_grep "\"sha256\":\"$(test_sha256 sidecar.bytes)\"" canon.bytes &&
	test_grep "\"sha256\":\"$(test_sha256 repo/docs/run.md)\"" canon.bytes
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
	test_write_lines run.md run.replay.json run.replay.json.sig >expect &&
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
	test_grep "no SSH key: give --ssh-key" err &&
	ahd-replay sign -h >out &&
	test_grep "^usage: ahd-replay sign" out
'

test_expect_success 'setup: trusted keys' '
	mkdir trusted &&
	cp key.pub trusted/ &&
	ahd-replay sign --key key repo/docs/run.replay.json >/dev/null &&
	cp repo/docs/run.replay.json run.good &&
	cp repo/docs/run.replay.json.sig sig.good
'

test_expect_success 'verify: a good signature verifies' '
	ahd-replay verify --trusted-keys trusted repo/docs/run.replay.json \
		>out 2>err &&
	test_must_be_empty err &&
	test_grep "^  ok    signature by $(cat keyid) verifies$" out &&
	test_grep "^verdict: replay inputs intact$" out
'

test_expect_success 'verify: a one-byte edit of the sidecar fails' '
	test_when_finished "cp run.good repo/docs/run.replay.json" &&
	sed "s/\"n\": 3/\"n\": 4/" run.good >repo/docs/run.replay.json &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: sidecar changed after signing$" out &&
	test_grep "^verdict: signature check failed$" out
'

test_expect_success 'verify: a key-reordered, re-indented sidecar verifies' '
	test_when_finished "cp run.good repo/docs/run.replay.json" &&
	ahd-replay canon --jcs run.good >repo/docs/run.replay.json &&
	! cmp -s run.good repo/docs/run.replay.json &&
	ahd-replay verify --trusted-keys trusted repo/docs/run.replay.json \
		>out &&
	test_grep "^  ok    signature by" out
'

test_expect_success 'verify: a one-byte edit of the signature fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	good=$(sig_field sig.good signature) &&
	case $good in
	A*) bad=B${good#?} ;;
	*) bad=A${good#?} ;;
	esac &&
	sed "s|$good|$bad|" sig.good >repo/docs/run.replay.json.sig &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: signature does not verify$" out
'

test_expect_success 'verify: a one-byte edit of the key id fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	good=$(sig_field sig.good key_id) &&
	case $good in
	*0) bad=${good%?}1 ;;
	*) bad=${good%?}0 ;;
	esac &&
	sed "s|$good|$bad|" sig.good >repo/docs/run.replay.json.sig &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: unknown key $bad$" out
'

test_expect_success 'verify: an edited statement in the signature fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	sed "s|\"path\": \"docs/run.md\"|\"path\": \"docs/other.md\"|" \
		sig.good >repo/docs/run.replay.json.sig &&
	! cmp -s sig.good repo/docs/run.replay.json.sig &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: signature does not verify$" out
'

test_expect_success 'verify: a malformed signature file fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	echo "{" >repo/docs/run.replay.json.sig &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: .*is not valid JSON" out
'

test_expect_success 'verify: a signature file of an unknown version fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	sed "s/\"version\": 2,/\"version\": 3,/" sig.good \
		>repo/docs/run.replay.json.sig &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: .*: unsupported version 3$" out
'

test_expect_success 'verify: a signature by a key not trusted fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	ahd-replay sign --key other repo/docs/run.replay.json >/dev/null &&
	test_expect_code 1 ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: unknown key sha256:" out
'

test_expect_success 'verify: a trusted key of the wrong pair fails' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	other_id=$(sig_field sig.good key_id) &&
	ahd-replay sign --key other repo/docs/run.replay.json >/dev/null &&
	sed "s|\"key_id\": \".*\"|\"key_id\": \"$other_id\"|" \
		repo/docs/run.replay.json.sig >forged &&
	cp forged repo/docs/run.replay.json.sig &&
	test_must_fail ahd-replay verify --trusted-keys trusted \
		repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: signature does not verify$" out
'

test_expect_success 'verify: a signed sidecar without trusted keys fails' '
	test_must_fail ahd-replay verify repo/docs/run.replay.json >out &&
	test_grep "^  FAIL  signature: unknown key .*no trusted keys" out
'

test_expect_success 'verify: git config ahd-replay.trustedKeys' '
	git -C repo config ahd-replay.trustedKeys ../trusted &&
	test_when_finished "git -C repo config --unset ahd-replay.trustedKeys" &&
	(
		cd repo/docs &&
		ahd-replay verify run.replay.json >../../out
	) &&
	test_grep "^  ok    signature by" out
'

test_expect_success OPENSSL 'verify: an RSA key among the trusted keys' '
	mkdir rsakeys &&
	cp key.pub rsakeys/ &&
	openssl pkey -in rsa.pem -pubout -out rsakeys/rsa.pub &&
	test_expect_code 2 ahd-replay verify --trusted-keys rsakeys \
		repo/docs/run.replay.json >out 2>err &&
	test_grep "holds an RSA key; Ed25519 is required" err
'

test_expect_success 'verify: a truncated trusted public key' '
	mkdir cut &&
	head -n 2 key.pub >cut/key.pub &&
	test_expect_code 2 ahd-replay verify --trusted-keys cut \
		repo/docs/run.replay.json >out 2>err &&
	test_grep "cannot read public key .cut/key.pub." err
'

test_expect_success 'verify: unsigned sidecars pass unless a signature is required' '
	write_sidecar --root=repo repo/docs/plain.replay.json tokens/swiss.yml &&
	test_when_finished "rm repo/docs/plain.replay.json" &&
	ahd-replay verify --trusted-keys trusted repo/docs/plain.replay.json \
		>out &&
	! test_grep signature out &&
	test_expect_code 1 ahd-replay verify --require-signature \
		--trusted-keys trusted repo/docs/plain.replay.json >out &&
	test_grep "^  FAIL  signature: no signature at repo/docs/plain.replay.json.sig (--require-signature)$" out
'

test_expect_success 'verify: a signed sidecar copied next to a made-up report fails' '
	mkdir -p repo/fake &&
	test_when_finished "rm -r repo/fake" &&
	cp repo/docs/run.replay.json repo/fake/made-up.replay.json &&
	cp repo/docs/run.replay.json.sig repo/fake/made-up.replay.json.sig &&
	echo "# fabricated" >repo/fake/made-up.md &&
	test_expect_code 1 ahd-replay verify --trusted-keys trusted \
		--require-signature repo/fake/made-up.md >out &&
	test_grep "^  FAIL  signature: the signature is for the sidecar docs/run.replay.json, not fake/made-up.replay.json$" out
'

test_expect_success 'verify: report bytes edited under a valid signature fail' '
	test_when_finished "echo \"# run\" >repo/docs/run.md" &&
	echo "# run, better results" >repo/docs/run.md &&
	test_expect_code 1 ahd-replay verify --trusted-keys trusted \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: report changed after signing$" out &&
	test_grep "^verdict: signature check failed$" out
'

test_expect_success 'verify: the same signature next to another report of the sidecar fails' '
	test_when_finished "rm -f repo/docs/run.replay.json.sig.keep" &&
	mkdir -p repo/other &&
	test_when_finished "rm -r repo/other" &&
	cp repo/docs/run.replay.json repo/docs/run.replay.json.sig repo/other/ &&
	echo "# run" >repo/other/run.md &&
	test_expect_code 1 ahd-replay verify --trusted-keys trusted \
		repo/other/run.md >out &&
	test_grep "^  FAIL  signature: the signature is for the sidecar docs/run.replay.json, not other/run.replay.json$" out
'

test_expect_success OPENSSL 'verify: a version 1 signature covers the sidecar only' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	ahd-replay canon --jcs repo/docs/run.replay.json >canon &&
	printf "%s" "$(cat canon)" >v1.bytes &&
	openssl pkeyutl -sign -inkey key -rawin -in v1.bytes -out v1.sig &&
	cat >repo/docs/run.replay.json.sig <<-EOF &&
	{
	  "version": 1,
	  "algorithm": "ed25519",
	  "key_id": "$(cat keyid)",
	  "sidecar_hash": "sha256:$(test_sha256 v1.bytes)",
	  "signature": "$(base64 -w0 v1.sig)"
	}
	EOF
	ahd-replay verify --trusted-keys trusted repo/docs/run.md >out &&
	test_grep "^  ok    signature by $(cat keyid) verifies (version 1: it covers the sidecar only, not the report)$" out &&
	test_expect_code 1 ahd-replay verify --trusted-keys trusted \
		--require-signature repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: a version 1 signature covers the sidecar only, not its report (--require-signature); sign it again$" out &&
	git -C repo config ahd-replay.requireSignature true &&
	test_when_finished "git -C repo config --unset ahd-replay.requireSignature" &&
	(
		cd repo &&
		test_expect_code 1 ahd-replay verify --trusted-keys ../trusted \
			docs/run.md >../out
	) &&
	test_grep "^  FAIL  signature: a version 1 signature" out
'

test_expect_success 'sign --statement prints the statement, no newline' '
	ahd-replay sign --statement repo/docs/run.replay.json >st &&
	printf "{\"report\":{\"path\":\"docs/run.md\",\"sha256\":\"%s\"},\"sidecar\":{\"path\":\"docs/run.replay.json\",\"sha256\":\"%s\"},\"type\":\"ahd-replay/statement/v1\"}" \
		"$(test_sha256 repo/docs/run.md)" "$(test_sha256 sidecar.bytes)" >expect &&
	test_cmp expect st &&
	test_expect_code 2 ahd-replay sign --statement repo/docs/run.md \
		repo/docs/run.md 2>err &&
	test_grep "one operand" err
'

test_expect_success 'verify --trusted-keys-at reads the trusted keys of a commit' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	mkdir repo/keys &&
	cp key.pub repo/keys/ &&
	git -C repo add keys &&
	git -C repo commit -q -m "trusted keys" &&
	ahd-replay keygen --out intruder >/dev/null &&
	cp intruder.pub repo/keys/ &&
	ahd-replay sign --key intruder repo/docs/run.replay.json >/dev/null &&
	ahd-replay verify --trusted-keys repo/keys repo/docs/run.md >out &&
	test_grep "^  ok    signature by" out &&
	test_expect_code 1 ahd-replay verify --trusted-keys repo/keys \
		--trusted-keys-at HEAD repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: unknown key sha256:" out &&
	cp sig.good repo/docs/run.replay.json.sig &&
	ahd-replay verify --trusted-keys repo/keys --trusted-keys-at HEAD \
		repo/docs/run.md >out &&
	test_grep "^  ok    signature by $(cat keyid) verifies$" out &&
	test_might_fail ahd-replay verify --trusted-keys repo/keys \
		--changed-since HEAD repo/docs/run.md >out 2>err &&
	test_grep ! "trusted key .repo/keys/key.pub." err &&
	git -C repo add keys/intruder.pub &&
	test_might_fail ahd-replay verify --trusted-keys repo/keys \
		--changed-since HEAD repo/docs/run.md >out 2>err &&
	test_grep "warning: the trusted key .repo/keys/intruder.pub. is a tracked file that changed since" err &&
	echo secret-looking-bytes >repo/keys/junk.pub &&
	git -C repo add keys/junk.pub &&
	git -C repo commit -q -m junk &&
	test_expect_code 2 ahd-replay verify --trusted-keys repo/keys \
		--trusted-keys-at HEAD repo/docs/run.md >out 2>err &&
	test_grep "cannot read public key .keys/junk.pub@HEAD.: not a PEM public key" err &&
	! test_grep secret-looking-bytes err
'

test_expect_success 'verify --format=json records the signature check' '
	test_when_finished "cp run.good repo/docs/run.replay.json" &&
	sed "s/\"n\": 3/\"n\": 4/" run.good >repo/docs/run.replay.json &&
	test_expect_code 1 ahd-replay verify --format=json --trusted-keys trusted \
		repo/docs/run.replay.json >out.json &&
	test_grep "^  \"exit_status\": 1$" out.json &&
	test_grep "\"type\": \"signature\"" out.json &&
	test_grep "\"status\": \"changed\"" out.json &&
	test_grep "\"status\": \"untrusted\"" out.json &&
	test_grep "\"untrusted\": 1" out.json &&
	! test_grep PRIVATE out.json
'

test_expect_success 'verify --format=github annotates a failed signature' '
	test_when_finished "cp sig.good repo/docs/run.replay.json.sig" &&
	ahd-replay sign --key other repo/docs/run.replay.json >/dev/null &&
	test_expect_code 1 ahd-replay verify --format=github \
		--trusted-keys trusted repo/docs/run.replay.json >out &&
	test_grep "^::error file=repo/docs/run.replay.json,line=1,title=replay signature::signature: unknown key" out
'

test_expect_success 'a .sig planted as a symlink out of the root is refused' '
	test_when_finished "rm -f repo/docs/run.replay.json.sig && cp sig.good repo/docs/run.replay.json.sig" &&
	echo mine >outside &&
	rm repo/docs/run.replay.json.sig &&
	ln -s ../../outside repo/docs/run.replay.json.sig &&
	test_expect_code 2 ahd-replay sign --key key repo/docs/run.replay.json \
		>out 2>err &&
	test_grep "run.replay.json.sig" err &&
	test_grep "leads out of the root" err &&
	echo mine >expect &&
	test_cmp expect outside &&
	test_must_be_empty out
'

test_done
