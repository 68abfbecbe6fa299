#!/bin/sh

test_description='inputs reached through symlinks stored in the repository

tokens/a.yml is a symlink to v/a-v1.yml, pinned by three reports.  Every
place that reads a commit or the index must follow it as a checkout
would: the pre-commit and pre-push hooks (an edit to the target makes
the three reports drift; moving a token behind a link keeps them
intact), verify --at, drift attribution and backfill.  Hostile links
(loops, a chain of 100, a link to a directory, into .git, out of the
repository, absolute) are refused, never read.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a token behind a symlink, three reports pin it' '
	git init -q -b main base &&
	mkdir -p base/tokens/v base/docs/evals &&
	echo "{ \"name\": \"ahd\", \"version\": \"0.11.0\" }" >base/package.json &&
	printf "name: a\nversion: 1\n" >base/tokens/v/a-v1.yml &&
	printf "name: b\n" >base/tokens/b.yml &&
	ln -s v/a-v1.yml base/tokens/a.yml &&
	(
		cd base &&
		for r in r1 r2 r3
		do
			echo "# report $r" >docs/evals/$r.md &&
			write_sidecar docs/evals/$r.replay.json tokens/a.yml ||
			return 1
		done &&
		write_sidecar docs/evals/rb.replay.json tokens/b.yml &&
		git add -A &&
		git commit -q -m "reports pin tokens/a.yml" &&
		ahd-replay install-hooks >/dev/null
	)
'

test_expect_success 'verify, in the work tree and --at HEAD: intact' '
	(cd base && ahd-replay verify --all >../out) &&
	test_grep "4 intact" out &&
	(cd base && ahd-replay verify --all --at=HEAD >../out) &&
	test_grep "4 intact" out
'

test_expect_success 'pre-commit: an edit to the link target makes three reports drift' '
	git clone -q base edit &&
	(cd edit && ahd-replay install-hooks >/dev/null) &&
	printf "name: a\nversion: 2\n" >edit/tokens/v/a-v1.yml &&
	(cd edit && git add tokens/v/a-v1.yml && test_must_fail git commit -q -m edit) 2>err &&
	test_grep "docs/evals/r1.md" err &&
	test_grep "docs/evals/r2.md" err &&
	test_grep "docs/evals/r3.md" err &&
	test_grep ! "rb.md" err &&
	test "$(git -C edit rev-parse HEAD)" = "$(git -C base rev-parse HEAD)"
'

test_expect_success 'pre-push: the same edit, committed past the hook, is refused' '
	git clone -q --bare base remote.git &&
	git clone -q remote.git pusher &&
	(cd pusher && ahd-replay install-hooks >/dev/null) &&
	printf "name: a\nversion: 2\n" >pusher/tokens/v/a-v1.yml &&
	(cd pusher && git commit -q --no-verify -am edit &&
	 test_must_fail git push -q origin main) 2>err &&
	test_grep "docs/evals/r1.md" err &&
	test_grep "pushing" err
'

test_expect_success 'moving a token behind a symlink keeps its reports intact: allowed' '
	git clone -q base move &&
	(
		cd move &&
		ahd-replay install-hooks >/dev/null &&
		mkdir -p tokens/w &&
		git mv tokens/b.yml tokens/w/b.yml &&
		ln -s w/b.yml tokens/b.yml &&
		git add tokens/b.yml &&
		git commit -q -m "b behind a link" &&
		ahd-replay verify --all --at=HEAD >../out
	) 2>err &&
	test_grep "4 intact" out
'

test_expect_success 're-pointing the link at another file is judged' '
	git clone -q base repoint &&
	(
		cd repoint &&
		ahd-replay install-hooks >/dev/null &&
		printf "name: a\nversion: 9\n" >tokens/v/a-v2.yml &&
		ln -sfn v/a-v2.yml tokens/a.yml &&
		git add -A &&
		test_must_fail git commit -q -m repoint
	) 2>err &&
	test_grep "this change makes the report drift" err
'

test_expect_success 'a link to a directory on the way is followed' '
	git clone -q base dirlink &&
	(
		cd dirlink &&
		git mv tokens/v tokens/real &&
		ln -s real tokens/v &&
		git add tokens/v &&
		ahd-replay hook pre-commit &&
		git commit -q --no-verify -m "dir link" &&
		ahd-replay verify --all --at=HEAD >../out
	) &&
	test_grep "4 intact" out
'

test_expect_success 'attribution follows the link to the commit that changed the target' '
	(
		cd edit &&
		git commit -q --no-verify -m "change a-v1" &&
		test_expect_code 1 ahd-replay verify docs/evals/r1.md >../out
	) &&
	test_grep "last had the recorded hash at" out &&
	test_grep "changed by $(git -C edit rev-parse --short=12 HEAD)" out
'

# hostile LINK TARGET DESC: tokens/b.yml replaced by a link to TARGET in
# a commit; verify --at refuses it (exit 2: an error, not drift).
hostile () {
	rm -rf h && git clone -q base h &&
	(
		cd h &&
		rm tokens/b.yml &&
		ln -s "$1" tokens/b.yml &&
		git add -A &&
		git commit -q --no-verify -m hostile &&
		test_expect_code 2 ahd-replay verify --at=HEAD \
			docs/evals/rb.replay.json >../out
	) &&
	test_grep "$2" out
}

test_expect_success 'a symlink loop is refused' '
	hostile b.yml "symlink loop"
'

test_expect_success 'a link to a directory is not a file' '
	hostile v "not a regular file"
'

test_expect_success 'a link into .git is refused' '
	hostile ../.git/config "outside the root"
'

test_expect_success 'a link out of the repository is refused' '
	hostile ../../../etc/passwd "outside the root"
'

test_expect_success 'an absolute link is refused' '
	hostile /etc/passwd "outside the root"
'

test_expect_success 'a chain of 100 links is refused as a loop' '
	rm -rf chain && git clone -q base chain &&
	(
		cd chain &&
		mkdir tokens/c &&
		printf "name: b\n" >tokens/c/l100 &&
		i=99 &&
		while test $i -ge 1
		do
			ln -s l$((i + 1)) tokens/c/l$i &&
			i=$((i - 1)) || return 1
		done &&
		rm tokens/b.yml &&
		ln -s c/l1 tokens/b.yml &&
		git add -A &&
		git commit -q --no-verify -m chain &&
		test_expect_code 2 ahd-replay verify --at=HEAD \
			docs/evals/rb.replay.json >../out
	) &&
	test_grep "symlink loop" out
'

test_expect_success 'the hooks refuse a hostile link in place of a pinned input' '
	rm -rf hh && git clone -q base hh &&
	(
		cd hh &&
		ahd-replay install-hooks >/dev/null &&
		rm tokens/b.yml &&
		ln -s b.yml tokens/b.yml &&
		git add -A &&
		test_must_fail git commit -q -m loop
	) 2>err &&
	test_grep "rb.md" err
'

test_expect_success 'backfill reads the token through the link' '
	git init -q -b main bf &&
	mkdir -p bf/tokens/v bf/docs/evals &&
	echo "{ \"version\": \"1.0.0\" }" >bf/package.json &&
	printf "name: a\nversion: 1\n" >bf/tokens/v/a-v1.yml &&
	ln -s v/a-v1.yml bf/tokens/a.yml &&
	cat >bf/docs/evals/x.md <<-\EOF &&
	# ahd eval · a · 2026-01-02T03:04:05.000Z

	- Samples per cell: **2**
	EOF
	(cd bf && git add -A && git commit -q -m report && ahd-replay backfill >../out) &&
	expect=$(ahd-replay hash bf/tokens/v/a-v1.yml) &&
	test_grep "\"hash\": \"${expect%% *}\"" bf/docs/evals/x.replay.json &&
	(cd bf && ahd-replay verify docs/evals/x.md >../out) &&
	test_grep "intact" out
'

test_done
