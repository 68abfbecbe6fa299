#!/bin/sh

test_description='replay --run runs only what the user trusts

A sidecar is pull-request input: its argv is pinned by no hash and its
ahd_commit can name any pushed commit.  --run executes a command only
when ahd_commit is in the trusted ref'"'"'s history (or the sidecar is
signed by a trusted key) and the program is one the user allows; it
always says the exact command first, resolves a relative program given
after -- against the invoking directory, and records what ran.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq SSHKEYGEN '
	ssh-keygen -q -t ed25519 -N "" -C probe -f probe &&
	printf x | ssh-keygen -Y sign -n probe -f probe >probe.sig 2>/dev/null
'

test_expect_success 'setup: a repository, a trusted and an attacker commit' '
	git init -q -b main repo &&
	mkdir -p repo/tokens repo/docs repo/bin fakebin &&
	printf "color: red\n" >repo/tokens/t.yml &&
	printf "#!/bin/sh\necho ran-trusted-script >ran\n" >repo/bin/ahd.js &&
	printf "#!/bin/sh\necho worktree >../prog-ran\n" >repo/prog &&
	chmod +x repo/bin/ahd.js repo/prog &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m base &&
	TRUSTED=$(git -C repo rev-parse HEAD) &&
	git -C repo checkout -q -b attacker &&
	printf "#!/bin/sh\necho attacker >../pwned\n" >repo/bin/ahd.js &&
	test_tick && git -C repo commit -q -am attacker &&
	EVIL=$(git -C repo rev-parse HEAD) &&
	git -C repo checkout -q main &&
	# a "node" that runs its script with sh: the recorded interpreter
	printf "#!/bin/sh\nexec sh \"\$@\"\n" >fakebin/node &&
	chmod +x fakebin/node &&
	(
		cd repo &&
		write_sidecar --commit="$TRUSTED" \
			--argv="[\"/opt/node/bin/node\", \"/home/runner/work/x/x/bin/ahd.js\"]" \
			docs/ok.replay.json tokens/t.yml &&
		write_sidecar --commit="$TRUSTED" \
			--argv="[\"/bin/sh\", \"-c\", \"echo shell >../pwned\"]" \
			docs/sh.replay.json tokens/t.yml &&
		write_sidecar --commit="$EVIL" \
			--argv="[\"/opt/node/bin/node\", \"/home/runner/work/x/x/bin/ahd.js\"]" \
			docs/evil.replay.json tokens/t.yml
	) &&
	echo "# ok" >repo/docs/ok.md &&
	echo "# sh" >repo/docs/sh.md &&
	echo "# evil" >repo/docs/evil.md &&
	git -C repo add docs && test_tick && git -C repo commit -q -m reports
'

test_expect_success 'the recorded interpreter with a worktree script runs, said first' '
	PATH="$(pwd)/fakebin:$PATH" ahd-replay replay --worktree=wt1 --run \
		repo/docs/ok.md >out 2>err &&
	test_grep "^running .*/fakebin/node bin/ahd.js (ahd_commit [0-9a-f]* is in refs/heads/main)$" out &&
	test_grep ran-trusted-script wt1/ran &&
	test_grep "\"program\":\"$(pwd)/fakebin/node\"" wt1/replay-receipt.json
'

test_expect_success 'an argv changed to a shell is refused, the command shown' '
	test_expect_code 2 ahd-replay replay --worktree=wt2 --run \
		repo/docs/sh.md >out 2>err &&
	test_grep "refusing to run .*/sh -c .echo shell >../pwned.: the recorded program sh is neither" err &&
	test_grep "allow-untrusted-run" err &&
	test_path_is_missing pwned &&
	test_grep ! "\"run\"" wt2/replay-receipt.json
'

test_expect_success 'ahd_commit outside the trusted history is refused' '
	test_expect_code 2 env PATH="$(pwd)/fakebin:$PATH" ahd-replay replay \
		--worktree=wt3 --run repo/docs/evil.md >out 2>err &&
	test_grep "is not in the history of the trusted ref refs/heads/main" err &&
	test_path_is_missing pwned
'

test_expect_success 'a remote default branch is the trusted ref when there is one' '
	git clone -q repo clone &&
	git -C clone update-ref refs/heads/attacker origin/attacker &&
	test_expect_code 2 env PATH="$(pwd)/fakebin:$PATH" ahd-replay replay \
		--worktree=wt4 --run clone/docs/evil.md >out 2>err &&
	test_grep "trusted ref refs/remotes/origin/HEAD" err &&
	test_path_is_missing pwned
'

test_expect_success '--trusted-ref and ahd-replay.runAllow widen it; --allow-untrusted-run overrides' '
	test_when_finished "rm -f pwned" &&
	PATH="$(pwd)/fakebin:$PATH" ahd-replay replay --worktree=wt5 --run \
		--trusted-ref=attacker repo/docs/evil.md >out 2>err &&
	test_grep "is in attacker" out &&
	test_grep attacker pwned && rm pwned &&
	git -C repo config ahd-replay.runAllow sh &&
	test_when_finished "git -C repo config --unset-all ahd-replay.runAllow || :" &&
	ahd-replay replay --worktree=wt6 --run repo/docs/sh.md >out 2>err &&
	test_grep shell pwned && rm pwned &&
	git -C repo config --unset ahd-replay.runAllow &&
	ahd-replay replay --worktree=wt7 --run --allow-untrusted-run \
		repo/docs/sh.md >out 2>err &&
	test_grep "(untrusted, run by --allow-untrusted-run)" out &&
	test_grep shell pwned
'

test_expect_success '--format=json says the command on stderr before it runs' '
	PATH="$(pwd)/fakebin:$PATH" ahd-replay replay --worktree=wt8 --run \
		--format=json repo/docs/ok.md >out 2>err &&
	test_grep "^ahd-replay: running .*/fakebin/node bin/ahd.js" err &&
	test_grep "\"run\"" out
'

test_expect_success '--run -- ./prog runs the invoking directory'"'"'s program' '
	printf "#!/bin/sh\necho invoker >\"%s/prog-ran\"\n" "$(pwd)" >prog &&
	chmod +x prog &&
	ahd-replay replay --worktree=wt9 --run repo/docs/ok.md -- ./prog \
		>out 2>err &&
	test_grep "^invoker$" prog-ran &&
	test_grep "^running $(pwd)/prog " out &&
	test_grep "\"program\":\"$(pwd)/prog\"" wt9/replay-receipt.json &&
	test_grep "\"given\":true" wt9/replay-receipt.json
'

test_expect_success 'a PATH entry "." finds nothing of the worktree' '
	rm -f prog-ran &&
	mkdir elsewhere &&
	(
		cd elsewhere &&
		test_expect_code 2 env PATH=".:$PATH" ahd-replay \
			replay --worktree=../wt10 --run ../repo/docs/ok.md \
			-- prog >out 2>err &&
		test_grep "cannot find prog on PATH" err
	) &&
	test_path_is_missing prog-ran
'

test_expect_success 'an input restored over a trusted script is not trusted code' '
	test_when_finished "rm -f repo/docs/over.*; git -C repo checkout -q main" &&
	# HEAD holds the attacker'"'"'s bin/ahd.js, as a pull request'"'"'s merge does
	git -C repo checkout -q -b pr attacker &&
	mkdir -p repo/docs &&
	(cd repo && write_sidecar --commit="$(git rev-parse main~1)" \
		--argv="[\"node\", \"bin/ahd.js\"]" \
		docs/over.replay.json tokens/t.yml bin/ahd.js) &&
	echo "# over" >repo/docs/over.md &&
	test_expect_code 2 env PATH="$(pwd)/fakebin:$PATH" ahd-replay replay \
		--worktree=wt12 --run repo/docs/over.md >out 2>err &&
	test_grep "restored from history" out &&
	test_grep "is not running a script of the worktree as ahd_commit has it" err &&
	test_path_is_missing pwned
'

test_expect_success SSHKEYGEN 'a sidecar signed by a trusted key runs its argv' '
	test_when_finished "rm -f pwned" &&
	ssh-keygen -q -t ed25519 -N "" -C alice -f alice &&
	echo "alice@example.com $(cat alice.pub)" >allowed &&
	ahd-replay sign --ssh-key alice repo/docs/sh.md >out &&
	ahd-replay replay --worktree=wt11 --run --allowed-signers allowed \
		repo/docs/sh.md >out 2>err &&
	test_grep "(the sidecar is signed by alice@example.com)" out &&
	test_grep shell pwned
'

test_expect_success SSHKEYGEN '--trusted-keys-at: a key a pull request added to a tracked file is not trusted' '
	test_when_finished "rm -f pwned" &&
	ssh-keygen -q -t ed25519 -N "" -C mallory -f mallory &&
	echo "alice@example.com $(cat alice.pub)" >repo/allowed &&
	git -C repo add allowed && git -C repo commit -q -m "trust alice" &&
	echo "mallory@example.com $(cat mallory.pub)" >>repo/allowed &&
	ahd-replay sign --ssh-key mallory repo/docs/sh.md >out &&
	test_expect_code 2 ahd-replay replay --worktree=wt13 --run \
		--allowed-signers repo/allowed --trusted-keys-at=HEAD \
		repo/docs/sh.md >out 2>err &&
	test_grep "refusing to run" err &&
	test_path_is_missing pwned &&
	ahd-replay replay --worktree=wt14 --run --allowed-signers repo/allowed \
		repo/docs/sh.md >out 2>err &&
	test_grep "signed by mallory@example.com" out
'

test_done
