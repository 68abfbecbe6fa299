#!/bin/sh

test_description='hook pre-push: real git push to a local bare remote

A fixture repository with two reports is pushed to "origin", a bare
repository given by its path (no network).  A minimal pre-push shim
execs `ahd-replay hook pre-push "$@"` with git'\''s stdin.  Each pushed
ref is judged by its tip tree against what the remote already has: the
remote'\''s old tip when it is known locally, otherwise the commits not
reachable from the remote'\''s tracking refs.  Some tests feed the hook
stdin lines by hand, as git would write them.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

zero=0000000000000000000000000000000000000000

# install_real REPO: `ahd-replay install-hooks`, run in REPO as a user
# would; the pre-push hook must be where git runs it.
install_real () {
	(cd "$1" && ahd-replay install-hooks) >/dev/null &&
	ir_hooks=$(cd "$1" && git rev-parse --path-format=absolute --git-path hooks) &&
	test_grep "ahd-replay hook: pre-push" "$ir_hooks/pre-push" >/dev/null
}

# drift DIR [MSG]: commit, bypassing hooks, a change of the swiss token
# that makes docs/evals/swiss.md drift.
drift_n=0
drift () {
	drift_n=$((drift_n + 1)) &&
	echo "drift$drift_n: $drift_n" >>"$1/tokens/swiss.yml" &&
	git -C "$1" add tokens/swiss.yml &&
	test_tick &&
	git -C "$1" commit -q --no-verify -m "${2:-swiss drift $drift_n}"
}

# harmless DIR [MSG]: commit a change that pins nothing.
harmless_n=0
harmless () {
	harmless_n=$((harmless_n + 1)) &&
	echo "line $harmless_n" >>"$1/src/app.txt" &&
	git -C "$1" add src/app.txt &&
	test_tick &&
	git -C "$1" commit -q --no-verify -m "${2:-app $harmless_n}"
}

# remote_tip REF: what origin has for REF (empty when nothing).
remote_tip () {
	git --git-dir=remote.git rev-parse -q --verify "$1" || :
}

# push_refused ARGS...: `git push` from work must fail (stderr in
# push.err), change none of the remote's refs and nothing local.
push_refused () {
	git --git-dir=remote.git for-each-ref >remote.before &&
	git -C work for-each-ref >local.before &&
	test_sha256 work/.git/index >index.before &&
	(cd work && test_must_fail git push "$@") 2>push.err &&
	cat push.err &&
	git --git-dir=remote.git for-each-ref >remote.after &&
	git -C work for-each-ref >local.after &&
	test_sha256 work/.git/index >index.after &&
	test_cmp remote.before remote.after &&
	test_cmp local.before local.after &&
	test_cmp index.before index.after &&
	test_path_is_missing work/.git/index.lock
}

# push_allowed ARGS...: `git push` from work succeeds; stderr in push.err.
push_allowed () {
	(cd work && git push -q "$@") 2>push.err
	pa_ret=$?
	cat push.err
	test "$pa_ret" = 0
}

# libgit2 1.5 leaks the PCRE2 match data of regexes that do not match
# (opening a repository of format version 1 does that) and in
# git_repository_set_workdir() (GIT_DIR with a work tree elsewhere), as
# t1401 notes.  Tell LeakSanitizer, when it runs, about those two only.
test_expect_success 'setup: a repository with reports, pushed to a bare remote' '
	cat >"$TRASH_DIRECTORY/lsan.supp" <<-\EOF &&
	leak:libpcre2-8.so
	leak:git_repository_set_workdir
	EOF
	supp=suppressions=$TRASH_DIRECTORY/lsan.supp:print_suppressions=0 &&
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}$supp &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
	export LSAN_OPTIONS ASAN_OPTIONS &&
	git init -q -b main work &&
	mkdir -p work/tokens work/briefs work/docs/evals work/src &&
	cat >work/package.json <<-\EOF &&
	{ "name": "@adastracomputing/ahd", "version": "0.11.0" }
	EOF
	cat >work/tokens/swiss.yml <<-\EOF &&
	name: swiss-editorial
	grid: 12
	accent: "#d00000"
	EOF
	cat >work/tokens/brutalist.yml <<-\EOF &&
	name: brutalist-grid
	border: 2
	EOF
	printf "# Landing\n\nA bakery.\n" >work/briefs/landing.md &&
	echo "app" >work/src/app.txt &&
	(
		cd work &&
		echo "# Swiss" >docs/evals/swiss.md &&
		write_sidecar_pinned docs/evals/swiss.replay.json tokens/swiss.yml \
			$(hash_of tokens/swiss.yml) \
			briefs/landing.md $(hash_of --raw briefs/landing.md) &&
		echo "# Brutalist" >docs/evals/brutalist.md &&
		write_sidecar_pinned docs/evals/brutalist.replay.json \
			tokens/brutalist.yml $(hash_of tokens/brutalist.yml) &&
		git add . &&
		test_tick &&
		git commit -q -m fixture
	) &&
	swiss_v1=$(hash_of work/tokens/swiss.yml) &&
	git init -q --bare -b main remote.git &&
	git -C work remote add origin ../remote.git &&
	git -C work push -q -u origin main &&
	install_real work &&
	git -C work rev-parse origin/main
'

test_expect_success 'a new branch containing a drifting commit is refused, naming the ref' '
	git -C work checkout -q -b feature &&
	harmless work &&
	drift work &&
	harmless work &&
	push_refused origin feature &&
	test_grep "pushing refs/heads/feature" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test_grep "recorded $(short $swiss_v1), remote $(short $swiss_v1), pushed " push.err &&
	test_grep "git push --no-verify" push.err &&
	test -z "$(remote_tip refs/heads/feature)"
'

test_expect_success 'a new branch without drift is allowed' '
	git -C work checkout -q -b clean main &&
	harmless work &&
	harmless work &&
	push_allowed origin clean &&
	test_must_be_empty push.err &&
	test "$(remote_tip refs/heads/clean)" = "$(git -C work rev-parse clean)"
'

test_expect_success 'a fast-forward with drift is refused' '
	git -C work checkout -q main &&
	harmless work &&
	drift work &&
	push_refused origin main &&
	test_grep "pushing refs/heads/main" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test "$(remote_tip refs/heads/main)" = "$(git -C work rev-parse origin/main)"
'

test_expect_success 'a fast-forward without drift is allowed' '
	git -C work reset -q --hard HEAD~1 &&
	harmless work &&
	push_allowed origin main &&
	test_must_be_empty push.err &&
	test "$(remote_tip refs/heads/main)" = "$(git -C work rev-parse main)"
'

test_expect_success 'drift introduced and undone within the pushed range: the tip is what counts' '
	git -C work checkout -q main &&
	drift work &&
	git -C work revert --no-edit HEAD >/dev/null &&
	harmless work &&
	push_allowed origin main &&
	test_must_be_empty push.err
'

test_expect_success 'a force push that rewrites the branch with drift is refused' '
	git -C work checkout -q main &&
	git -C work reset -q --hard HEAD~3 &&
	drift work "rewritten: swiss drift" &&
	push_refused --force origin main &&
	test_grep "pushing refs/heads/main" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test_grep "this change makes the report drift" push.err
'

# The remote's main had drift that was reverted (drift, revert, app);
# a force push that drops the revert makes the remote drift again: the
# base is the remote's tip, not the merge base.
test_expect_success 'a force push that drops a revert of drift is refused' '
	git -C work reset -q --hard origin/main~2 &&
	git -C work log -1 --format=%s >subject &&
	test_grep "swiss drift" subject &&
	harmless work "rewritten: without the revert" &&
	push_refused --force origin main &&
	test_grep "pushing refs/heads/main" push.err &&
	test_grep "this change makes the report drift" push.err
'

test_expect_success 'a force push that rewrites the branch without drift is allowed' '
	git -C work reset -q --hard origin/main~3 &&
	harmless work "rewritten: app" &&
	push_allowed --force origin main &&
	test_must_be_empty push.err &&
	test "$(remote_tip refs/heads/main)" = "$(git -C work rev-parse main)"
'

test_expect_success 'several refs at once, one drifting: refused, naming that ref only' '
	git -C work checkout -q -b ok1 main &&
	harmless work &&
	git -C work checkout -q -b bad main &&
	drift work &&
	git -C work checkout -q -b ok2 main &&
	harmless work &&
	push_refused origin ok1 bad ok2 &&
	test_grep "pushing refs/heads/bad" push.err &&
	test_grep ! "refs/heads/ok1" push.err &&
	test_grep ! "refs/heads/ok2" push.err &&
	test -z "$(remote_tip refs/heads/ok1)" &&
	test -z "$(remote_tip refs/heads/ok2)" &&
	push_allowed origin ok1 ok2 &&
	test_must_be_empty push.err
'

test_expect_success 'a lightweight tag pointing at a drifting commit is refused' '
	git -C work tag v1-light bad &&
	push_refused origin v1-light &&
	test_grep "pushing refs/tags/v1-light" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test -z "$(remote_tip refs/tags/v1-light)"
'

test_expect_success 'an annotated tag pointing at a drifting commit is refused' '
	test_tick &&
	git -C work tag -a -m "release 1" v1-ann bad &&
	push_refused origin v1-ann &&
	test_grep "pushing refs/tags/v1-ann" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test -z "$(remote_tip refs/tags/v1-ann)"
'

test_expect_success 'tags pointing at commits without drift are allowed' '
	git -C work tag v0-light ok1 &&
	test_tick &&
	git -C work tag -a -m "release 0" v0-ann ok2 &&
	push_allowed origin v0-light v0-ann &&
	test_must_be_empty push.err &&
	test -n "$(remote_tip refs/tags/v0-ann)"
'

test_expect_success 'git push --tags with one drifting tag among them is refused' '
	push_refused --tags origin &&
	test_grep "refs/tags/v1-" push.err &&
	test_grep ! "refs/tags/v0-" push.err
'

test_expect_success 'deleting a remote branch is allowed, even one that drifts' '
	(cd work && git push -q --no-verify origin bad) &&
	test -n "$(remote_tip refs/heads/bad)" &&
	push_allowed origin --delete bad &&
	test_must_be_empty push.err &&
	test -z "$(remote_tip refs/heads/bad)"
'

test_expect_success 'a new branch whose drift the remote already has elsewhere is allowed' '
	(cd work && git push -q --no-verify origin bad:refs/heads/published-drift) &&
	git -C work fetch -q origin &&
	git -C work branch -f copy bad &&
	push_allowed origin copy &&
	test_must_be_empty push.err
'

test_expect_success 'setup: the remote moves on behind our back' '
	git clone -q remote.git other &&
	harmless other "someone else" &&
	(cd other && git push -q origin main) &&
	other_tip=$(git -C other rev-parse HEAD) &&
	test_must_fail git -C work cat-file -e $other_tip
'

test_expect_success 'the remote oid is not known locally: a drifting force push is refused' '
	git -C work checkout -q -b stale origin/main &&
	drift work &&
	push_refused --force origin stale:main &&
	test_grep "pushing refs/heads/main" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test "$(remote_tip refs/heads/main)" = "$other_tip"
'

test_expect_success 'the remote oid is not known locally: a clean force push is allowed' '
	git -C work reset -q --hard origin/main &&
	harmless work &&
	push_allowed --force origin stale:main &&
	test_must_be_empty push.err &&
	test "$(remote_tip refs/heads/main)" = "$(git -C work rev-parse stale)"
'

test_expect_success 'empty stdin: HEAD is checked, with a warning' '
	git -C work fetch -q origin &&
	git -C work checkout -q -b lonely origin/main &&
	harmless work &&
	(cd work && ahd-replay hook pre-push origin ../remote.git </dev/null) 2>err &&
	test_grep "warning" err &&
	test_grep "HEAD" err &&
	drift work &&
	(cd work && test_expect_code 1 ahd-replay hook pre-push origin ../remote.git </dev/null) 2>err &&
	cat err &&
	test_grep "warning" err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" err
'

test_expect_success 'PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF name the range' '
	(
		cd work &&
		PRE_COMMIT_FROM_REF=origin/main PRE_COMMIT_TO_REF=lonely &&
		export PRE_COMMIT_FROM_REF PRE_COMMIT_TO_REF &&
		test_expect_code 1 ahd-replay hook pre-push origin ../remote.git </dev/null
	) 2>err &&
	cat err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" err &&
	(
		cd work &&
		PRE_COMMIT_FROM_REF=origin/main PRE_COMMIT_TO_REF=lonely~1 &&
		export PRE_COMMIT_FROM_REF PRE_COMMIT_TO_REF &&
		ahd-replay hook pre-push origin ../remote.git </dev/null
	) 2>err &&
	test_must_be_empty err
'

test_expect_success 'PRE_COMMIT_FROM_REF / PRE_COMMIT_TO_REF win over stdin' '
	printf "refs/heads/lonely %s refs/heads/lonely %s\n" \
		$(git -C work rev-parse lonely) $zero >stdin &&
	(
		cd work &&
		PRE_COMMIT_FROM_REF=origin/main PRE_COMMIT_TO_REF=lonely~1 &&
		export PRE_COMMIT_FROM_REF PRE_COMMIT_TO_REF &&
		ahd-replay hook pre-push origin ../remote.git <../stdin
	) 2>err &&
	test_must_be_empty err
'

test_expect_success 'every stdin line is read: drift only in the last of three refs' '
	printf "refs/heads/%s %s refs/heads/%s %s\n" \
		ok1 $(git -C work rev-parse ok1) ok1 $(git -C work rev-parse origin/ok1) \
		ok2 $(git -C work rev-parse ok2) ok2 $(git -C work rev-parse origin/ok2) \
		lonely $(git -C work rev-parse lonely) lonely $zero >stdin &&
	(cd work && test_expect_code 1 ahd-replay hook pre-push origin ../remote.git <../stdin) 2>err &&
	cat err &&
	test_grep "pushing refs/heads/lonely" err &&
	test_grep ! "refs/heads/ok" err &&
	test_grep ! "ignoring" err
'

test_expect_success 'every stdin line is read: drift only in the first; deletions skipped' '
	printf "refs/heads/%s %s refs/heads/%s %s\n" \
		lonely $(git -C work rev-parse lonely) lonely $zero \
		"(delete)" $zero gone $(git -C work rev-parse ok1) \
		ok2 $(git -C work rev-parse ok2) ok2 $(git -C work rev-parse origin/ok2) >stdin &&
	(cd work && test_expect_code 1 ahd-replay hook pre-push origin ../remote.git <../stdin) 2>err &&
	test_grep "pushing refs/heads/lonely" err &&
	test_grep ! "gone" err
'

test_expect_success 'the hook drains stdin: a long push list (all clean) is read to the end' '
	: >stdin &&
	i=0 &&
	while test $i -lt 300
	do
		printf "refs/heads/ok1 %s refs/heads/b%d %s\n" \
			$(git -C work rev-parse ok1) $i $zero >>stdin &&
		i=$((i + 1))
	done &&
	printf "refs/heads/lonely %s refs/heads/lonely %s\n" \
		$(git -C work rev-parse lonely) $zero >>stdin &&
	(cd work && test_expect_code 1 ahd-replay hook pre-push origin ../remote.git <../stdin) 2>err &&
	test_grep "pushing refs/heads/lonely" err
'

test_expect_success 'deletion lines with zero ids of either length are skipped' '
	printf "(delete) %s refs/heads/x %s\n(delete) %s refs/heads/y %s\n" \
		$zero $(git -C work rev-parse ok1) \
		${zero}000000000000000000000000 $(git -C work rev-parse ok1) >stdin &&
	(cd work && ahd-replay hook pre-push origin ../remote.git <../stdin) 2>err &&
	test_must_be_empty err
'

test_expect_success 'no network access: the URL is never contacted' '
	printf "refs/heads/lonely %s refs/heads/lonely %s\n" \
		$(git -C work rev-parse lonely) $zero >stdin &&
	(
		cd work &&
		test_expect_code 1 ahd-replay hook pre-push origin \
			https://ahd-replay.invalid/never.git <../stdin
	) 2>err &&
	test_grep "pushing refs/heads/lonely" err &&
	test_grep ! "invalid" err &&
	(
		cd work &&
		test_expect_code 1 ahd-replay hook pre-push \
			https://ahd-replay.invalid/never.git \
			https://ahd-replay.invalid/never.git <../stdin
	) 2>err &&
	test_grep "pushing refs/heads/lonely" err
'

test_expect_success 'a hook run writes nothing under .git' '
	(
		cd work/.git &&
		find . -path ./hooks -prune -o -type f -print | LC_ALL=C sort |
		while read -r f; do echo "$(test_sha256 "$f") $f"; done
	) >sums.before &&
	(cd work && test_expect_code 1 ahd-replay hook pre-push origin ../remote.git <../stdin) 2>err &&
	(
		cd work/.git &&
		find . -path ./hooks -prune -o -type f -print | LC_ALL=C sort |
		while read -r f; do echo "$(test_sha256 "$f") $f"; done
	) >sums.after &&
	test_cmp sums.before sums.after
'

test_expect_success 'drift already on the remote: a further change warns; strict refuses' '
	git -C work checkout -q -b old origin/main &&
	drift work &&
	(cd work && git push -q --no-verify origin old) &&
	drift work &&
	push_allowed origin old &&
	test_grep "warning" push.err &&
	test_grep "drifted already" push.err &&
	git -C work config ahd-replay.strict true &&
	drift work &&
	push_refused origin old &&
	test_grep "pushing refs/heads/old" push.err &&
	git -C work config --unset ahd-replay.strict
'

test_expect_success 'pushing to the URL instead of the name: drift refused' '
	git -C work checkout -q -b byurl origin/main &&
	drift work &&
	push_refused ../remote.git byurl &&
	test_grep "pushing refs/heads/byurl" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err
'

# git passes the URL as the remote name; no refs/remotes/../remote.git/*
# exist, so the hook takes nothing as the base: every sidecar counts as
# new, and the drift the remote already has refuses a harmless push.
test_expect_success 'pushing to the URL instead of the name: what the remote has is known' '
	git -C work checkout -q -b byurl2 origin/old &&
	harmless work &&
	push_allowed ../remote.git byurl2 &&
	test_grep ! "FAIL" push.err
'

test_expect_success 'a new sidecar pushed must verify against the pushed inputs' '
	git -C work checkout -q -b newreport origin/main &&
	echo "# New" >work/docs/evals/new.md &&
	write_sidecar_pinned work/docs/evals/new.replay.json tokens/brutalist.yml $swiss_v1 &&
	git -C work add docs/evals &&
	test_tick &&
	git -C work commit -q --no-verify -m "a report that does not verify" &&
	push_refused origin newreport &&
	test_grep "docs/evals/new.md: token tokens/brutalist.yml" push.err
'

test_expect_success 'deleting a referenced input in the pushed range is refused' '
	git -C work checkout -q -b rmtoken origin/main &&
	git -C work rm -q tokens/brutalist.yml &&
	test_tick &&
	git -C work commit -q --no-verify -m "drop the brutalist token" &&
	push_refused origin rmtoken &&
	test_grep "docs/evals/brutalist.md: token tokens/brutalist.yml" push.err
'

test_expect_success 'git push --no-verify and AHD_REPLAY_SKIP=1 bypass the check' '
	(cd work && git push -q --no-verify origin rmtoken) 2>err &&
	test_must_be_empty err &&
	(cd work && AHD_REPLAY_SKIP=1 git push -q origin newreport) 2>err &&
	test_line_count = 1 err &&
	test_grep "skip" err &&
	test -n "$(remote_tip refs/heads/newreport)"
'

test_expect_success 'AHD_REPLAY_SKIP=1 in the binary itself: one line, exit 0, stdin not needed' '
	printf "refs/heads/lonely %s refs/heads/lonely %s\n" \
		$(git -C work rev-parse lonely) $zero >stdin &&
	(cd work && test_expect_code 1 ahd-replay hook pre-push origin ../remote.git <../stdin) 2>/dev/null &&
	(cd work && AHD_REPLAY_SKIP=1 ahd-replay hook pre-push origin ../remote.git <../stdin) 2>err &&
	test_line_count = 1 err &&
	test_grep "AHD_REPLAY_SKIP.*skipped" err
'

test_expect_success 'a push from a linked worktree is judged the same way' '
	git -C work worktree add -q ../wt -b fromwt origin/main &&
	drift wt &&
	(cd wt && test_must_fail git push origin fromwt) 2>err &&
	cat err &&
	test_grep "pushing refs/heads/fromwt" err &&
	test -z "$(remote_tip refs/heads/fromwt)"
'

# git runs the hook with GIT_DIR set to the separate git directory; see
# t3100: libgit2 then takes the wrong work tree and nothing is judged.
test_expect_success 'a .git file (git clone --separate-git-dir): drift refused' '
	git clone -q --separate-git-dir="$TRASH_DIRECTORY/sep.git" remote.git sep &&
	install_real sep &&
	test_path_is_file sep.git/hooks/pre-push &&
	git -C sep checkout -q -b sepdrift origin/main &&
	drift sep &&
	(cd sep && test_must_fail git push origin sepdrift) 2>err &&
	cat err &&
	test_grep "pushing refs/heads/sepdrift" err
'

# Drift already on a fork must not vouch for a push to origin by URL:
# the base is what the destination has, found through the configured
# remote whose URL matches (trailing "/" and ".git" aside), else nothing.
test_expect_success 'setup: drift already on a fork, fetched' '
	git --git-dir=remote.git rev-parse main >origin.main &&
	git clone -q --bare remote.git fork.git &&
	git -C work remote add fork ../fork.git &&
	git -C work checkout -q -b forkdrift origin/main &&
	drift work "drift on the fork" &&
	(cd work && git push -q --no-verify fork forkdrift) &&
	git -C work fetch -q fork &&
	test "$(git -C work rev-parse fork/forkdrift)" = "$(git -C work rev-parse forkdrift)"
'

test_expect_success 'a push by name to origin: refused, judged against origin' '
	push_refused origin forkdrift:refs/heads/newb &&
	test_grep "pushing refs/heads/newb (judged against [0-9a-f]*, the newest commit of it that origin has)" push.err &&
	test -z "$(remote_tip refs/heads/newb)"
'

test_expect_success 'a push by origin'"'"'s URL with a trailing slash: refused the same way' '
	push_refused ../remote.git/ forkdrift:refs/heads/newb &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test_grep "the newest commit of it that origin has" push.err &&
	test -z "$(remote_tip refs/heads/newb)"
'

test_expect_success 'a push by URL that ends in .git/ matches a remote configured without it' '
	git init -q --bare plain &&
	git -C work remote add plain ../plain &&
	git -C work fetch -q plain &&
	(cd work && git push -q --no-verify plain origin/main:refs/heads/main) &&
	git -C work fetch -q plain &&
	mv plain plain.git &&
	ln -s plain.git plain &&
	push_refused ../plain.git/ forkdrift:refs/heads/newb &&
	test_grep "the newest commit of it that plain has" push.err
'

test_expect_success 'a push to a URL no remote has: judged against nothing, and said so' '
	git clone -q --bare remote.git third.git &&
	push_refused ../third.git forkdrift:refs/heads/newb &&
	test_grep "judged against nothing: ../third.git is not the URL of a configured remote" push.err &&
	test_grep "docs/evals/swiss.md: token tokens/swiss.yml" push.err &&
	test_must_fail git --git-dir=third.git rev-parse -q --verify refs/heads/newb
'

test_expect_success 'a push to the fork itself, which has the drift: allowed' '
	push_allowed fork forkdrift:refs/heads/forkcopy &&
	test_grep ! FAIL push.err
'

test_expect_success 'the pre-commit framework names the remote in its environment' '
	(
		cd work &&
		printf "%s %s %s %s\n" refs/heads/forkdrift \
			$(git rev-parse forkdrift) refs/heads/newb $zero |
		PRE_COMMIT_REMOTE_NAME=origin \
			PRE_COMMIT_REMOTE_URL=../remote.git \
			test_expect_code 1 ahd-replay hook pre-push
	) 2>err &&
	test_grep "the newest commit of it that origin has" err
'

# The attributes decide what a checkout writes for files a change does
# not touch: a push that only adds eol=crlf for *.md makes every fresh
# checkout of a raw-pinned brief drift, and must be refused as such.
test_expect_success 'a .gitattributes that changes a brief'"'"'s checkout is refused' '
	git init -q --bare attrs-remote.git &&
	git init -q attrs && (
		cd attrs &&
		mkdir tokens briefs docs &&
		printf "name: swiss\n" >tokens/swiss.yml &&
		printf "# Brief\nline two\n" >briefs/b.md &&
		printf "# ahd eval\n" >docs/r.md &&
		write_sidecar docs/r.replay.json tokens/swiss.yml briefs/b.md &&
		git add . && git commit -q -m one &&
		git remote add origin ../attrs-remote.git &&
		git push -q origin HEAD:refs/heads/main &&
		ahd-replay install-hooks >/dev/null &&
		printf "*.md text eol=crlf\n" >.gitattributes &&
		git add .gitattributes &&
		git commit -q -m attrs &&
		test_must_fail git push origin HEAD:refs/heads/main
	) 2>err &&
	test_grep "brief briefs/b.md" err &&
	test_grep "this change makes the report drift" err
'

test_done
