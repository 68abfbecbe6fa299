#!/bin/sh

test_description='git-lfs and our hooks, installed in either order

git-lfs needs its own pre-push (it uploads the objects a push needs),
and `git lfs install` refuses to write one where another hook is.  When
git-lfs is in use (its filter in git'"'"'s configuration, or filter=lfs in
.gitattributes), install-hooks writes git-lfs'"'"'s pre-push as the hook
ours runs first, and post-checkout, post-commit and post-merge where
none are; installed after git-lfs, ours chains the hooks git-lfs wrote.
Either way a real push to a local remote uploads the LFS objects, and
our check still refuses drift.  Needs git-lfs.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

if ! git lfs version >/dev/null 2>&1
then
	skip_all='git-lfs is not installed (git lfs version fails)'
	test_done
fi

# new_repo NAME: a work tree with a report pinning a token, a remote
# NAME.git it was cloned from, and nothing pushed yet.
new_repo () {
	git init -q --bare "$1.git" &&
	git clone -q "$1.git" "$1" 2>/dev/null &&
	(
		cd "$1" &&
		mkdir -p tokens docs/evals &&
		echo "{ \"name\": \"ahd\", \"version\": \"0.11.0\" }" >package.json &&
		printf "name: swiss\ngrid: 12\n" >tokens/swiss.yml &&
		echo "# r" >docs/evals/r.md &&
		write_sidecar docs/evals/r.replay.json tokens/swiss.yml
	)
}

# push_lfs NAME: commit an LFS-tracked file and push it; the object must
# reach the remote (stderr in NAME.err).
push_lfs () {
	(
		cd "$1" &&
		git lfs track "*.bin" >/dev/null &&
		printf "%s\n" "$1 payload" >data.bin &&
		git add -A &&
		test_tick &&
		git commit -q -m "$1: reports and an LFS object" &&
		git cat-file -p HEAD:data.bin >../pointer &&
		git push -q origin HEAD:main 2>../"$1.err"
	) &&
	test_grep "^version https://git-lfs.github.com/spec/v1$" pointer &&
	oid=$(sed -n "s/^oid sha256://p" pointer) &&
	test_path_is_file "$1.git/lfs/objects/$(echo $oid | cut -c1-2)/$(echo $oid | cut -c3-4)/$oid"
}

# refuses_drift NAME: a commit that makes the report drift is refused at
# push, by our check, after git-lfs's hook ran.
refuses_drift () {
	(
		cd "$1" &&
		echo "accent: red" >>tokens/swiss.yml &&
		git add -A &&
		test_tick &&
		git commit -q --no-verify -m drift &&
		test_must_fail git push -q origin HEAD:main 2>../"$1.err" &&
		git reset -q --hard HEAD^
	) &&
	test_grep "makes published reports drift" "$1.err"
}

# libgit2 1.5 leaks the PCRE2 match data of regexes that do not match,
# as t3110 notes: tell LeakSanitizer, when it runs, about that only.
test_expect_success 'setup: the sanitizer knows libgit2'"'"'s known leak' '
	echo "leak:libpcre2-8.so" >"$TRASH_DIRECTORY/lsan.supp" &&
	supp=suppressions=$TRASH_DIRECTORY/lsan.supp:print_suppressions=0 &&
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}$supp &&
	export LSAN_OPTIONS
'

test_expect_success 'without git-lfs in use, install-hooks writes none of its hooks' '
	new_repo plain &&
	(cd plain && ahd-replay install-hooks >../out) &&
	test_grep ! "git lfs\|post-" out &&
	test_path_is_missing plain/.git/hooks/pre-push.ahd-replay-prev &&
	test_path_is_missing plain/.git/hooks/post-checkout
'

test_expect_success 'ours first: git lfs install refuses, and leaves our hook' '
	new_repo first &&
	(cd first && ahd-replay install-hooks >/dev/null) &&
	cp first/.git/hooks/pre-push pre-push.ours &&
	(cd first && test_must_fail git lfs install --local >../out 2>&1) &&
	test_grep "Hook already exists: pre-push" out &&
	test_cmp pre-push.ours first/.git/hooks/pre-push
'

test_expect_success 'ours first: git lfs install --skip-repo, then install-hooks again' '
	(cd first && git lfs install --skip-repo >/dev/null) &&
	(cd first && ahd-replay install-hooks >../out) &&
	test_grep "^pre-push: up to date; git-lfs.s pre-push (git lfs pre-push) is written as pre-push.ahd-replay-prev and runs first$" out &&
	test_grep "^post-checkout: installed git-lfs.s (git lfs post-checkout)$" out &&
	test_grep "^post-commit: installed" out &&
	test_grep "^post-merge: installed" out &&
	test_cmp pre-push.ours first/.git/hooks/pre-push &&
	test_grep "^exec git lfs pre-push \"\$@\"$" first/.git/hooks/pre-push.ahd-replay-prev
'

test_expect_success 'ours first: hooks status names git-lfs.s hooks' '
	(cd first && ahd-replay hooks status >../out) &&
	test_grep "^pre-push: active$" out &&
	test_grep "pre-push.ahd-replay-prev: .*(runs git-lfs.s: git lfs pre-push); runs first$" out &&
	test_grep "^post-checkout: git-lfs (git lfs post-checkout)$" out &&
	test_grep "^post-commit: git-lfs (git lfs post-commit)$" out &&
	test_grep "^post-merge: git-lfs (git lfs post-merge)$" out
'

test_expect_success 'ours first: a push uploads the LFS objects; drift is still refused' '
	push_lfs first &&
	refuses_drift first
'

test_expect_success 'ours first: a second install-hooks changes nothing' '
	(cd first && ls -l .git/hooks >../before && ahd-replay install-hooks >../out) &&
	test_grep "^pre-push: up to date$" out &&
	test_grep "^post-commit: runs git lfs post-commit already$" out &&
	(cd first && ls -l .git/hooks >../after) &&
	test_cmp before after
'

test_expect_success 'ours first: uninstall-hooks leaves git-lfs its pre-push' '
	(cd first && ahd-replay uninstall-hooks >../out) &&
	test_grep "^pre-push: restored pre-push.ahd-replay-prev as pre-push$" out &&
	test_grep "git lfs pre-push" first/.git/hooks/pre-push &&
	(
		cd first &&
		printf "more\n" >more.bin &&
		git add more.bin &&
		test_tick &&
		git commit -q -m more &&
		git push -q origin HEAD:main 2>../first.err
	) &&
	git -C first cat-file -p HEAD:more.bin >pointer &&
	oid=$(sed -n "s/^oid sha256://p" pointer) &&
	test_path_is_file "first.git/lfs/objects/$(echo $oid | cut -c1-2)/$(echo $oid | cut -c3-4)/$oid"
'

test_expect_success 'git-lfs first: install-hooks chains the hooks git lfs install wrote' '
	new_repo second &&
	(cd second && git lfs install --local >/dev/null) &&
	cp second/.git/hooks/pre-push pre-push.lfs &&
	(cd second && ahd-replay install-hooks >../out) &&
	test_grep "^pre-push: installed; the hook that was there (a file) is kept as pre-push.ahd-replay-prev and runs first, under its own name$" out &&
	test_grep "^post-checkout: runs git lfs post-checkout already$" out &&
	test_cmp pre-push.lfs second/.git/hooks/pre-push.ahd-replay-prev &&
	(cd second && ahd-replay hooks status >../out) &&
	test_grep "(runs git-lfs.s: git lfs pre-push); runs first$" out &&
	push_lfs second &&
	refuses_drift second
'

test_expect_success 'filter=lfs in .gitattributes alone is git-lfs in use' '
	new_repo attrs &&
	echo "*.bin filter=lfs diff=lfs merge=lfs -text" >attrs/.gitattributes &&
	(
		cd attrs &&
		HOME=$TRASH_DIRECTORY/nohome &&
		export HOME &&
		mkdir -p "$HOME" &&
		ahd-replay install-hooks >../out
	) &&
	test_grep "git lfs pre-push" out &&
	test_path_is_file attrs/.git/hooks/pre-push.ahd-replay-prev
'

test_done
