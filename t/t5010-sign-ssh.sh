#!/bin/sh

test_description='SSH signatures: SSHSIG over the statement, allowed signers

Signatures made by the real ssh-keygen verify here, ours verify with
ssh-keygen -Y verify, and each way a signature can fail has its own
message.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq SSHKEYGEN '
	ssh-keygen -q -t ed25519 -N "" -C probe -f probe &&
	printf x | ssh-keygen -Y sign -n probe -f probe >probe.sig 2>/dev/null
'

test_lazy_prereq SSHAGENT '
	command -v ssh-agent >/dev/null && command -v ssh-add >/dev/null
'

# statement REPORT: the bytes a signature of REPORT signs, in "statement".
statement () {
	ahd-replay sign --statement "$1" >statement
}

test_expect_success SSHKEYGEN 'setup: a repository, keys and allowed signers' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "name: swiss\ngrid: 12\n" >repo/tokens/swiss.yml &&
	(
		cd repo &&
		write_sidecar docs/run.replay.json tokens/swiss.yml &&
		write_sidecar docs/two.replay.json tokens/swiss.yml
	) &&
	echo "# run" >repo/docs/run.md &&
	echo "# two" >repo/docs/two.md &&
	ssh-keygen -q -t ed25519 -N "" -C alice -f alice &&
	ssh-keygen -q -t ed25519 -N "" -C mallory -f mallory &&
	echo "alice@example.com $(cat alice.pub)" >allowed &&
	ssh-keygen -l -f alice.pub >fp &&
	sed "s/^[0-9]* \(SHA256:[^ ]*\) .*/\1/" fp >alice.fp
'

test_expect_success SSHKEYGEN 'a signature made by ssh-keygen verifies' '
	statement repo/docs/run.md &&
	ssh-keygen -Y sign -n ahd-replay -f alice <statement \
		>repo/docs/run.replay.json.sig 2>/dev/null &&
	head -n 1 repo/docs/run.replay.json.sig >first &&
	echo "-----BEGIN SSH SIGNATURE-----" >expect &&
	test_cmp expect first &&
	ahd-replay verify --allowed-signers allowed repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by alice@example.com (key $(cat alice.fp)) verifies$" out &&
	test_grep "^verdict: replay inputs intact$" out &&
	cp repo/docs/run.replay.json.sig keygen.sig
'

test_expect_success SSHKEYGEN 'sign --ssh-key writes a signature ssh-keygen verifies' '
	ahd-replay sign --ssh-key alice repo/docs/run.md >out 2>err &&
	echo "signed repo/docs/run.replay.json.sig" >expect &&
	test_cmp expect out &&
	statement repo/docs/run.md &&
	ssh-keygen -Y verify -f allowed -I alice@example.com -n ahd-replay \
		-s repo/docs/run.replay.json.sig <statement >out 2>&1 &&
	test_grep "Good \"ahd-replay\" signature for alice@example.com" out &&
	ahd-replay verify --allowed-signers allowed repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by alice@example.com" out &&
	cp repo/docs/run.replay.json.sig ours.sig &&
	tail -n 1 ours.sig >last &&
	printf "\n" >>statement &&
	test_cmp statement last
'

test_expect_success SSHKEYGEN,SSHAGENT 'sign --ssh-key with a .pub uses the agent' '
	eval "$(ssh-agent -s)" >/dev/null &&
	test_when_finished "kill $SSH_AGENT_PID" &&
	ssh-add -q alice 2>/dev/null &&
	mkdir agentonly &&
	cp alice.pub agentonly/ &&
	ahd-replay sign --ssh-key agentonly/alice.pub repo/docs/two.md >out &&
	ahd-replay verify --allowed-signers allowed repo/docs/two.md >out &&
	test_grep "^  ok    SSH signature by alice@example.com" out &&
	rm repo/docs/two.replay.json.sig &&
	ahd-replay sign --ssh-key "key::$(cat alice.pub)" repo/docs/two.md >out &&
	ahd-replay verify --allowed-signers allowed repo/docs/two.md >out &&
	test_grep "^  ok    SSH signature by alice@example.com" out &&
	rm repo/docs/two.replay.json.sig
'

test_expect_success SSHKEYGEN 'sign defaults to user.signingKey when gpg.format is ssh' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	test_expect_code 2 ahd-replay sign repo/docs/run.md 2>err &&
	test_grep "no SSH key: give --ssh-key" err &&
	git -C repo config gpg.format ssh &&
	git -C repo config user.signingKey "$(pwd)/alice" &&
	test_when_finished "git -C repo config --unset gpg.format; git -C repo config --unset user.signingKey" &&
	rm repo/docs/run.replay.json.sig &&
	(
		cd repo &&
		ahd-replay sign docs/run.md >../out
	) &&
	test_grep "^signed docs/run.replay.json.sig$" out &&
	ahd-replay verify --allowed-signers allowed repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by alice" out
'

test_expect_success SSHKEYGEN 'sign: a failing ssh-keygen writes nothing' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	test_expect_code 2 ahd-replay sign --ssh-key no-such-key \
		repo/docs/run.md >out 2>err &&
	test_grep "ssh-keygen -Y sign. failed" err &&
	test_cmp ours.sig repo/docs/run.replay.json.sig
'

test_expect_success SSHKEYGEN 'a changed sidecar fails' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	cp repo/docs/run.replay.json run.good &&
	test_when_finished "cp run.good repo/docs/run.replay.json" &&
	sed "s/\"n\": 3/\"n\": 4/" run.good >repo/docs/run.replay.json &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: sidecar changed after signing$" out &&
	test_grep "^verdict: signature check failed$" out &&
	cp keygen.sig repo/docs/run.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: signature does not verify over this report and sidecar$" out
'

test_expect_success SSHKEYGEN 'a changed report fails' '
	test_when_finished "echo \"# run\" >repo/docs/run.md" &&
	echo "# run: all green" >repo/docs/run.md &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: report changed after signing$" out
'

test_expect_success SSHKEYGEN 'a signed sidecar copied next to a made-up report fails' '
	mkdir repo/fake &&
	test_when_finished "rm -r repo/fake" &&
	cp repo/docs/run.replay.json repo/fake/made-up.replay.json &&
	cp ours.sig repo/fake/made-up.replay.json.sig &&
	echo "# fabricated" >repo/fake/made-up.md &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		--require-signature repo/fake/made-up.md >out &&
	test_grep "^  FAIL  signature: the signature is for the sidecar docs/run.replay.json, not fake/made-up.replay.json$" out
'

test_expect_success SSHKEYGEN 'a signature over another sidecar fails' '
	test_when_finished "rm -f repo/docs/two.replay.json.sig" &&
	cp ours.sig repo/docs/two.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/two.md >out &&
	test_grep "^  FAIL  signature: the signature is for the sidecar docs/run.replay.json, not docs/two.replay.json$" out
'

test_expect_success SSHKEYGEN 'a wrong namespace fails' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	statement repo/docs/run.md &&
	ssh-keygen -Y sign -n git -f alice <statement \
		>repo/docs/run.replay.json.sig 2>/dev/null &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: signed in the namespace .git., not .ahd-replay.$" out
'

test_expect_success SSHKEYGEN 'a key outside the allowed signers fails' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	ahd-replay sign --ssh-key mallory repo/docs/run.md >/dev/null &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key SHA256:.* is not in the allowed signers file allowed$" out &&
	test_expect_code 1 ahd-replay verify repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key SHA256:.*: no allowed signers file" out
'

test_expect_success SSHKEYGEN 'an expired, not yet valid or other-namespace key fails' '
	echo "alice@example.com valid-before=\"20200101Z\" $(cat alice.pub)" >old &&
	test_expect_code 1 ahd-replay verify --allowed-signers old \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key $(cat alice.fp) (old:1) had expired at 2026-08-03T09:57:42Z (valid-before 2020-01-01T00:00:00Z)$" out &&
	echo "alice@example.com valid-after=\"20991231Z\" $(cat alice.pub)" >new &&
	test_expect_code 1 ahd-replay verify --allowed-signers new \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key .* is not yet valid at 2026-08-03T09:57:42Z (valid-after 2099-12-31T00:00:00Z)$" out &&
	echo "alice@example.com namespaces=\"git,file\" $(cat alice.pub)" >ns &&
	test_expect_code 1 ahd-replay verify --allowed-signers ns \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key .* is not allowed to sign in namespace .ahd-replay.$" out &&
	echo "alice@example.com valid-after=\"20260101Z\",namespaces=\"git,ahd-*\" $(cat alice.pub)" >ok &&
	ahd-replay verify --allowed-signers ok repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by alice@example.com" out
'

test_expect_success SSHKEYGEN 'a revoked key fails' '
	cp alice.pub revoked &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		--revoked-keys revoked repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key $(cat alice.fp) is revoked (revoked)$" out &&
	ssh-keygen -k -f krl alice.pub 2>/dev/null &&
	test_expect_code 2 ahd-replay verify --allowed-signers allowed \
		--revoked-keys krl repo/docs/run.md >out 2>err &&
	test_grep "binary key revocation lists (KRL) are not supported" err
'

test_expect_success SSHKEYGEN 'a cert-authority listing is refused clearly' '
	echo "*@example.com cert-authority $(cat alice.pub)" >ca &&
	test_expect_code 1 ahd-replay verify --allowed-signers ca \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key .* (ca:1) is listed as a cert-authority; certificates are not supported$" out
'

test_expect_success SSHKEYGEN 'truncated or garbage armour fails' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	head -n 3 ours.sig >repo/docs/run.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: repo/docs/run.replay.json.sig: the signature is truncated: no .-----END SSH SIGNATURE-----. line$" out &&
	{
		echo "-----BEGIN SSH SIGNATURE-----" &&
		echo "not*base64" &&
		echo "-----END SSH SIGNATURE-----"
	} >repo/docs/run.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: .*: the armoured signature is not valid base64$" out &&
	{
		echo "-----BEGIN SSH SIGNATURE-----" &&
		echo "U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg" &&
		echo "-----END SSH SIGNATURE-----"
	} >repo/docs/run.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: .*: the signature is truncated$" out
'

test_expect_success SSHKEYGEN 'ECDSA and RSA keys verify; small RSA keys are refused' '
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	ssh-keygen -q -t ecdsa -b 256 -N "" -C ec -f ec &&
	ssh-keygen -q -t ecdsa -b 521 -N "" -C ec5 -f ec5 &&
	ssh-keygen -q -t rsa -b 2048 -N "" -C rsa -f rsa &&
	{
		echo "ec@example.com $(cat ec.pub)" &&
		echo "ec5@example.com $(cat ec5.pub)" &&
		echo "rsa@example.com $(cat rsa.pub)"
	} >more &&
	for k in ec ec5 rsa
	do
		ahd-replay sign --ssh-key $k repo/docs/run.md >/dev/null &&
		ahd-replay verify --allowed-signers more repo/docs/run.md >out &&
		test_grep "^  ok    SSH signature by $k@example.com" out || return 1
	done &&
	statement repo/docs/run.md &&
	ssh-keygen -Y sign -n ahd-replay -O hashalg=sha256 -f rsa <statement \
		>repo/docs/run.replay.json.sig 2>/dev/null &&
	ahd-replay verify --allowed-signers more repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by rsa@example.com" out &&
	ssh-keygen -q -t rsa -b 1024 -N "" -C small -f small &&
	ssh-keygen -Y sign -n ahd-replay -f small <statement \
		>repo/docs/run.replay.json.sig 2>/dev/null &&
	test_expect_code 1 ahd-replay verify --allowed-signers more \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: .*: the ssh-rsa key has 1024 bits; at least 2048 are required$" out
'

test_expect_success SSHKEYGEN 'the allowed signers come from git config when not given' '
	(
		cd repo &&
		git config gpg.ssh.allowedSignersFile ../allowed &&
		ahd-replay verify docs/run.md >../out &&
		git config ahd-replay.allowedSignersFile ../old &&
		test_expect_code 1 ahd-replay verify docs/run.md >../out2 &&
		git config --unset ahd-replay.allowedSignersFile &&
		git config --unset gpg.ssh.allowedSignersFile
	) &&
	test_grep "^  ok    SSH signature by alice@example.com" out &&
	test_grep "had expired" out2
'

# An unknown option is a line ssh-keygen skips (t5040); a bad key is not.
test_expect_success SSHKEYGEN 'a malformed allowed-signers line is an error' '
	{
		echo "# trusted" &&
		echo "alice@example.com $(cat alice.pub)" &&
		echo "bob@example.com ssh-ed25519 !!!!"
	} >broken &&
	test_expect_code 2 ahd-replay verify --allowed-signers broken \
		repo/docs/run.md >out 2>err &&
	test_grep "broken:3: the key is not valid base64" err
'

test_expect_success SSHKEYGEN 'principals: patterns and quoted lists are reported as written' '
	echo "\"*@example.com,!mallory@example.com\" $(cat alice.pub)" >pat &&
	ahd-replay verify --allowed-signers pat repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by \*@example.com,!mallory@example.com (key" out &&
	printf "a\033[8mb %s\n" "$(cat alice.pub)" >esc &&
	ahd-replay verify --allowed-signers esc repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by \"a\\\\x1b\[8mb\" (key" out
'

test_expect_success SSHKEYGEN '--trusted-keys-at reads the allowed signers of a commit' '
	cp allowed repo/allowed_signers &&
	git -C repo add allowed_signers &&
	git -C repo commit -q -m "trust alice" &&
	echo "mallory@example.com $(cat mallory.pub)" >>repo/allowed_signers &&
	test_when_finished "cp ours.sig repo/docs/run.replay.json.sig" &&
	ahd-replay sign --ssh-key mallory repo/docs/run.md >/dev/null &&
	ahd-replay verify --allowed-signers repo/allowed_signers \
		repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by mallory@example.com" out &&
	test_expect_code 1 ahd-replay verify --allowed-signers repo/allowed_signers \
		--trusted-keys-at HEAD repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key .* is not in the allowed signers file repo/allowed_signers@HEAD$" out &&
	test_expect_code 2 ahd-replay verify --allowed-signers allowed \
		--trusted-keys-at HEAD repo/docs/run.md >out 2>err &&
	test_grep "allowed. is .*HEAD" err
'

test_expect_success SSHKEYGEN 'a tracked trust file changed since the base is warned about' '
	test_might_fail ahd-replay verify --allowed-signers repo/allowed_signers \
		--changed-since HEAD repo/docs/run.md >out 2>err &&
	test_grep "^ahd-replay: warning: the allowed signers file .repo/allowed_signers. is a tracked file that changed since [0-9a-f]*: a pull request can trust its own key" err &&
	test_might_fail ahd-replay verify --allowed-signers repo/allowed_signers \
		--trusted-keys-at HEAD --changed-since HEAD repo/docs/run.md \
		>out 2>err &&
	test_grep ! "warning: the allowed signers" err &&
	git -C repo checkout allowed_signers &&
	test_might_fail ahd-replay verify --allowed-signers repo/allowed_signers \
		--changed-since HEAD repo/docs/run.md >out 2>err &&
	test_grep ! "warning: the allowed signers" err &&
	cp allowed repo/untracked_signers &&
	test_might_fail ahd-replay verify --allowed-signers repo/untracked_signers \
		--changed-since HEAD repo/docs/run.md >out 2>err &&
	test_grep ! "warning: the allowed signers" err
'

test_expect_success SSHKEYGEN 'verify --format=json names the kind and the principal' '
	ahd-replay verify --format=json --allowed-signers allowed \
		repo/docs/run.md >out.json &&
	test_grep "\"kind\": \"ssh\"" out.json &&
	test_grep "\"covers\": \"statement\"" out.json &&
	test_grep "\"principal\": \"alice@example.com\"" out.json &&
	test_grep "\"key_id\": \"$(cat alice.fp)\"" out.json
'

test_lazy_prereq GITSSH '
	git init -q gitssh-probe &&
	ssh-keygen -q -t ed25519 -N "" -C probe -f gitssh-probe.key &&
	git -C gitssh-probe -c gpg.format=ssh \
		-c user.signingKey="$(pwd)/gitssh-probe.key" \
		commit -q -S --allow-empty -m probe
'

test_expect_success SSHKEYGEN,GITSSH 'setup: a repository of SSH-signed commits' '
	git init -q signed &&
	mkdir -p signed/tokens signed/docs &&
	printf "name: swiss\n" >signed/tokens/swiss.yml &&
	(
		cd signed &&
		write_sidecar docs/run.replay.json tokens/swiss.yml &&
		write_sidecar docs/two.replay.json tokens/swiss.yml
	) &&
	echo "# run" >signed/docs/run.md &&
	echo "# two" >signed/docs/two.md &&
	git -C signed add . &&
	git -C signed -c gpg.format=ssh -c user.signingKey="$(pwd)/alice" \
		commit -q -S -m "signed by alice" &&
	echo "alice@example.com namespaces=\"git\" $(cat alice.pub)" >git-signers
'

test_expect_success SSHKEYGEN,GITSSH 'verify --require-signed-commit: an SSH-signed commit passes' '
	git -C signed rev-parse --short=12 HEAD >commit &&
	ahd-replay verify --require-signed-commit --allowed-signers git-signers \
		signed/docs/run.md >out &&
	test_grep "^  ok    commit $(cat commit), which last changed the sidecar, is signed by alice@example.com$" out &&
	test_grep "^verdict: replay inputs intact$" out &&
	ahd-replay verify --require-signed-commit --format=json \
		--allowed-signers git-signers signed/docs/run.md >out.json &&
	test_grep "\"type\": \"signed-commit\"" out.json &&
	test_grep "\"principal\": \"alice@example.com\"" out.json
'

test_expect_success SSHKEYGEN,GITSSH 'verify --require-signed-commit: an unsigned commit fails, named' '
	echo "{}" >signed/other.txt &&
	(
		cd signed &&
		write_sidecar --kind=critique docs/two.replay.json tokens/swiss.yml
	) &&
	git -C signed commit -q -a -m "not signed" &&
	git -C signed rev-parse --short=12 HEAD >commit &&
	test_expect_code 1 ahd-replay verify --require-signed-commit \
		--allowed-signers git-signers signed/docs/two.md >out &&
	test_grep "^  FAIL  signed commit: commit $(cat commit), which last changed it, is not signed$" out &&
	test_grep "^verdict: signature check failed$" out &&
	test_expect_code 1 ahd-replay verify --require-signed-commit --format=github \
		--allowed-signers git-signers signed/docs/two.md >out &&
	test_grep "^::error file=signed/docs/two.replay.json,line=1,title=replay signed commit::commit $(cat commit), which last changed it, is not signed$" out &&
	ahd-replay verify --require-signed-commit --allowed-signers git-signers \
		signed/docs/run.md >out &&
	test_grep "^  ok    commit" out
'

test_expect_success SSHKEYGEN,GITSSH 'verify --require-signed-commit: an unknown, expired or wrong-namespace key fails' '
	(
		cd signed &&
		write_sidecar --kind=eval-live docs/two.replay.json tokens/swiss.yml
	) &&
	git -C signed -c gpg.format=ssh -c user.signingKey="$(pwd)/mallory" \
		commit -q -S -a -m "signed by mallory" &&
	test_expect_code 1 ahd-replay verify --require-signed-commit \
		--allowed-signers git-signers signed/docs/two.md >out &&
	test_grep "^  FAIL  signed commit: commit [0-9a-f]*: key SHA256:.* is not in the allowed signers file git-signers$" out &&
	echo "alice@example.com valid-before=\"20000101Z\" $(cat alice.pub)" >old-signers &&
	test_expect_code 1 ahd-replay verify --require-signed-commit \
		--allowed-signers old-signers signed/docs/run.md >out &&
	test_grep "^  FAIL  signed commit: commit [0-9a-f]*: key .* had expired at" out &&
	echo "alice@example.com namespaces=\"ahd-replay\" $(cat alice.pub)" >ns-only &&
	test_expect_code 1 ahd-replay verify --require-signed-commit \
		--allowed-signers ns-only signed/docs/run.md >out &&
	test_grep "^  FAIL  signed commit: commit [0-9a-f]*: key .* is not allowed to sign in namespace .git.$" out
'

test_expect_success SSHKEYGEN,GITSSH 'verify --require-signed-commit in a shallow clone' '
	git clone -q --depth 1 "file://$(pwd)/signed" shallow &&
	test_expect_code 1 ahd-replay verify --require-signed-commit \
		--allowed-signers git-signers shallow/docs/run.md >out &&
	test_grep "^  FAIL  signed commit: the commit that last changed shallow/docs/run.replay.json is not in this shallow clone (fetch more history)$" out
'

test_done
