#!/bin/sh

test_description='hooks: an edit to a report that had drifted already

A sidecar that changes in a commit must verify, unless its previous
version did not verify for that input either: fixing the token path of a
report whose token was renamed and edited since makes nothing worse and
is a warning (refused with ahd-replay.strict), while an edit that turns
an intact input into drift, or a new sidecar that drifts, is refused.
The messages say how to repair an old report instead of only re-running
its eval, and never suggest --no-verify where another hook is chained.
Real git commit and push, hooks from install-hooks.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# libgit2 1.5 leaks the PCRE2 match data of regexes that do not match,
# which `hook pre-push` meets here; t3110 suppresses the same.
printf "leak:libpcre2-8.so\nleak:git_repository_set_workdir\n" \
	>"$TRASH_DIRECTORY/lsan.supp" &&
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TRASH_DIRECTORY/lsan.supp:print_suppressions=0 &&
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
export LSAN_OPTIONS ASAN_OPTIONS || exit 1

# commit_refused DIR ARGS: git commit in DIR fails (stderr in DIR.err)
# and HEAD does not move.
commit_refused () {
	cr_dir=$1 &&
	shift &&
	cr_head=$(git -C "$cr_dir" rev-parse HEAD) &&
	test_must_fail git -C "$cr_dir" commit -q "$@" 2>"$cr_dir.err" &&
	cat "$cr_dir.err" &&
	test "$(git -C "$cr_dir" rev-parse HEAD)" = "$cr_head"
}

# commit_allowed DIR ARGS: git commit in DIR succeeds (stderr in DIR.err).
commit_allowed () {
	ca_dir=$1 &&
	shift &&
	git -C "$ca_dir" commit -q "$@" 2>"$ca_dir.err"
	ca_ret=$?
	cat "$ca_dir.err"
	test "$ca_ret" = 0
}

test_expect_success 'setup: a report pinning a token and a brief' '
	git init -q -b main base &&
	mkdir -p base/tokens base/briefs base/docs/evals &&
	printf "name: swiss\naccent: \"#d00000\"\n" >base/tokens/swiss.yml &&
	printf "# Landing\n" >base/briefs/landing.md &&
	(
		cd base &&
		echo "# Swiss" >docs/evals/swiss.md &&
		write_sidecar docs/evals/swiss.replay.json tokens/swiss.yml \
			briefs/landing.md &&
		git add . &&
		git commit -q -m fixture
	) &&
	swiss_v1=$(hash_of base/tokens/swiss.yml)
'

test_expect_success 'setup: the token renamed and edited since, without the hook' '
	git clone -q base old &&
	(cd old && ahd-replay install-hooks >/dev/null) &&
	git -C old mv tokens/swiss.yml tokens/swiss-v2.yml &&
	printf "name: swiss\naccent: \"#0000d0\"\n" >old/tokens/swiss-v2.yml &&
	git -C old commit -q --no-verify -a -m "token renamed and bluer" &&
	test_expect_code 1 ahd-replay verify old/docs/evals/swiss.md >out
'

test_expect_success 'fixing the token path of the drifted report: a warning, allowed' '
	sed "s|tokens/swiss.yml|tokens/swiss-v2.yml|" \
		old/docs/evals/swiss.replay.json >tmp &&
	mv tmp old/docs/evals/swiss.replay.json &&
	git -C old add docs/evals/swiss.replay.json &&
	commit_allowed old -m "swiss report: the token'"'"'s new path" &&
	test_grep "warning" old.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss-v2.yml" old.err &&
	test_grep "did not verify before either" old.err &&
	test_grep "To repair a report that had drifted already" old.err &&
	test_grep "git show <commit>:<path>" old.err &&
	test_grep "ahd-replay verify --explain <report>" old.err &&
	test_grep ! "re-run the affected evals" old.err
'

test_expect_success 'the same edit with ahd-replay.strict: refused, repair and bypass named' '
	git -C old reset -q --hard HEAD~1 &&
	git -C old config ahd-replay.strict true &&
	sed "s|tokens/swiss.yml|tokens/swiss-v2.yml|" \
		old/docs/evals/swiss.replay.json >tmp &&
	mv tmp old/docs/evals/swiss.replay.json &&
	git -C old add docs/evals/swiss.replay.json &&
	commit_refused old -m "strict" &&
	test_grep "FAIL docs/evals/swiss.md: token tokens/swiss-v2.yml" old.err &&
	test_grep "To repair a report that had drifted already" old.err &&
	test_grep "AHD_REPLAY_SKIP=1 git commit" old.err &&
	git -C old config --unset ahd-replay.strict
'

test_expect_success 'an edit that breaks the input that was intact is refused' '
	sed "s|briefs/landing.md|briefs/other.md|" \
		old/docs/evals/swiss.replay.json >tmp &&
	mv tmp old/docs/evals/swiss.replay.json &&
	printf "# Other\n" >old/briefs/other.md &&
	git -C old add docs/evals/swiss.replay.json briefs/other.md &&
	commit_refused old -m "brief moved to a different file" &&
	test_grep "FAIL docs/evals/swiss.md: brief briefs/other.md" old.err &&
	test_grep "does not match this input" old.err &&
	git -C old reset -q --hard HEAD
'

test_expect_success 'editing another field of the drifted sidecar: allowed with the warning' '
	sed "s|\"claude-x\"|\"claude-y\"|" \
		old/docs/evals/swiss.replay.json >tmp &&
	mv tmp old/docs/evals/swiss.replay.json &&
	git -C old add docs/evals/swiss.replay.json &&
	commit_allowed old -m "model id fixed" &&
	test_grep "did not verify before either" old.err
'

test_expect_success 'pointing the report at the restored input: allowed, quietly' '
	git -C old show HEAD~2:tokens/swiss.yml >old/tokens/swiss-v1.yml &&
	sed "s|tokens/swiss.yml|tokens/swiss-v1.yml|" \
		old/docs/evals/swiss.replay.json >tmp &&
	mv tmp old/docs/evals/swiss.replay.json &&
	git -C old add tokens/swiss-v1.yml docs/evals/swiss.replay.json &&
	git -C old config ahd-replay.strict true &&
	commit_allowed old -m "swiss report: the version it ran with" &&
	test_must_be_empty old.err &&
	ahd-replay verify old/docs/evals/swiss.md >out &&
	git -C old config --unset ahd-replay.strict
'

test_expect_success 'a new sidecar that drifts is refused: it has no earlier version' '
	cp old/docs/evals/swiss.replay.json old/docs/evals/copy.replay.json &&
	sed "s|tokens/swiss-v1.yml|tokens/swiss-v2.yml|" \
		old/docs/evals/copy.replay.json >tmp &&
	mv tmp old/docs/evals/copy.replay.json &&
	git -C old add docs/evals/copy.replay.json &&
	commit_refused old -m "a copy that drifts" &&
	test_grep "FAIL docs/evals/copy.md: token tokens/swiss-v2.yml" old.err &&
	test_grep "the sidecar is new or changed here and does not match" old.err &&
	git -C old reset -q --hard HEAD
'

test_expect_success 'a report renamed with drift counts as new: refused' '
	git -C old reset -q --hard HEAD~1 &&
	git -C old mv docs/evals/swiss.replay.json docs/evals/moved.replay.json &&
	commit_refused old -m "moved" &&
	test_grep "FAIL docs/evals/moved.md: token tokens/swiss.yml" old.err &&
	git -C old reset -q --hard HEAD
'

test_expect_success 'pre-push: the remote had the drift; the fixed path is pushed with a warning' '
	git init -q --bare remote.git &&
	git -C old remote add pub ../remote.git &&
	(cd old && git push -q --no-verify pub HEAD~1:refs/heads/main) &&
	git -C old fetch -q pub &&
	(cd old && git push -q pub HEAD:refs/heads/main) 2>push.err &&
	cat push.err &&
	test_grep "did not verify before either" push.err &&
	test "$(git --git-dir=remote.git rev-parse main)" = "$(git -C old rev-parse HEAD)"
'

test_expect_success 'pre-push chained after another hook: the way past names no --no-verify' '
	printf "#!/bin/sh\nexit 0\n" >chained-prev &&
	chmod 755 chained-prev &&
	git -C old config ahd-replay.strict true &&
	mv old/.git/hooks/pre-push old/.git/hooks/ours &&
	cp chained-prev old/.git/hooks/pre-push &&
	(cd old && ahd-replay install-hooks >/dev/null) &&
	rm old/.git/hooks/ours &&
	sed "s|\"claude-y\"|\"claude-z\"|" \
		old/docs/evals/swiss.replay.json >tmp &&
	mv tmp old/docs/evals/swiss.replay.json &&
	git -C old commit -q --no-verify -a -m "another edit" &&
	git -C old push -q --no-verify pub HEAD~1:refs/heads/main &&
	test_must_fail git -C old push -q pub HEAD:refs/heads/main 2>push.err &&
	cat push.err &&
	test_grep "AHD_REPLAY_SKIP=1 git push (not --no-verify" push.err &&
	test_grep ! "or git push --no-verify" push.err
'

for hook in pre-commit pre-push pre-merge-commit
do
	test_expect_success "the $hook template suggests AHD_REPLAY_SKIP=1, never --no-verify" '
		test_grep "AHD_REPLAY_SKIP=1" "$TEST_SRC_DIR/hooks/'"$hook"'" &&
		test_grep ! -e "--no-verify" "$TEST_SRC_DIR/hooks/'"$hook"'"
	'
done

test_done
