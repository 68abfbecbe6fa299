#!/bin/sh

test_description='inputs tracked by git-lfs

The index and commits hold LFS pointer files; a checkout writes the
objects.  verify --at, the hooks, drift attribution and backfill must
read through the pointer (filter=lfs in the attributes and a strictly
well-formed pointer), take the object from .git/lfs/objects checked
against the pointer, and say so when it is absent or does not match
(an error: never intact, never drift).  A file that merely looks like a
pointer is content.  The hooks must not suggest `git push --no-verify`
when git-lfs'"'"'s pre-push hook is chained.  Needs git-lfs.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

if ! git lfs version >/dev/null 2>&1
then
	skip_all='git-lfs is not installed (git lfs version fails)'
	test_done
fi

# lfs_object REPO PATH: where the LFS object of PATH at HEAD is stored.
lfs_object () {
	lo_oid=$(git -C "$1" cat-file -p "HEAD:$2" | sed -n "s/^oid sha256://p") &&
	test -n "$lo_oid" &&
	echo "$1/.git/lfs/objects/$(echo $lo_oid | cut -c1-2)/$(echo $lo_oid | cut -c3-4)/$lo_oid"
}

# HOME is the trash directory: `git lfs install` configures the filter
# for this test alone, so that clones check the objects out.
test_expect_success 'setup: a token and a brief tracked by git-lfs, reports pin them' '
	git lfs install >/dev/null &&
	git init -q -b main base &&
	(
		cd base &&
		git lfs install --local >/dev/null &&
		git lfs track "tokens/*.yml" "briefs/*.md" >/dev/null &&
		mkdir -p tokens briefs docs/evals &&
		echo "{ \"name\": \"ahd\", \"version\": \"0.11.0\" }" >package.json &&
		printf "name: a\nversion: 1\n" >tokens/a.yml &&
		printf "# Brief\n\nMake it bold.\n" >briefs/b.md &&
		echo "# report" >docs/evals/r1.md &&
		write_sidecar docs/evals/r1.replay.json tokens/a.yml briefs/b.md &&
		git add -A &&
		git commit -q -m "reports pin LFS inputs" &&
		git cat-file -p HEAD:tokens/a.yml >pointer &&
		test_grep "^version https://git-lfs.github.com/spec/v1$" pointer &&
		rm pointer
	)
'

test_expect_success 'verify --at reads the objects, not the pointers' '
	(cd base && ahd-replay verify --at=HEAD docs/evals/r1.md >../out) &&
	test_grep "intact" out
'

test_expect_success 'pre-commit: a change that keeps the hash passes, even when strict' '
	git clone -q base keep &&
	(
		cd keep &&
		ahd-replay install-hooks >/dev/null &&
		git config ahd-replay.strict true &&
		printf "# a comment\nname: a\nversion: 1\n" >tokens/a.yml &&
		git commit -q -am "comment only"
	) 2>err &&
	test_grep ! "drift" err
'

test_expect_success 'pre-commit: a change that drifts is refused' '
	git clone -q base drift &&
	(
		cd drift &&
		ahd-replay install-hooks >/dev/null &&
		printf "name: a\nversion: 2\n" >tokens/a.yml &&
		test_must_fail git commit -q -am "version 2"
	) 2>err &&
	test_grep "this change makes the report drift" err
'

test_expect_success 'pre-push with git-lfs chained: refused, and no --no-verify advice' '
	git clone -q --bare base remote.git &&
	git clone -q base pusher &&
	git -C pusher remote set-url origin "$TRASH_DIRECTORY/remote.git" &&
	(
		cd pusher &&
		ahd-replay install-hooks >/dev/null &&
		test -x "$(git rev-parse --git-path hooks)/pre-push.ahd-replay-prev" &&
		printf "name: a\nversion: 2\n" >tokens/a.yml &&
		git commit -q --no-verify -am "version 2" &&
		test_must_fail git push -q origin main
	) 2>err &&
	test_grep "makes published reports drift" err &&
	test_grep "AHD_REPLAY_SKIP=1" err &&
	test_grep ! "git push --no-verify" err
'

test_expect_success 'attribution names the commit that changed an LFS token' '
	(
		cd drift &&
		git commit -q --no-verify -am "version 2" &&
		test_expect_code 1 ahd-replay verify docs/evals/r1.md >../out
	) &&
	test_grep "last had the recorded hash at" out &&
	test_grep "changed by $(git -C drift rev-parse --short=12 HEAD)" out
'

test_expect_success 'an absent object: an error naming it, never intact or drift' '
	git clone -q base absent &&
	obj=$(lfs_object absent tokens/a.yml) &&
	rm -f "$obj" &&
	(cd absent && test_expect_code 2 ahd-replay verify --at=HEAD docs/evals/r1.md >../out) &&
	test_grep "not in the local LFS store" out &&
	test_grep ! "intact" out &&
	test_grep ! "re-hash differs" out
'

test_expect_success 'an object whose bytes differ from its pointer: an error' '
	git clone -q base tampered &&
	obj=$(lfs_object tampered tokens/a.yml) &&
	rm -f "$obj" &&
	printf "name: a\nversion: 9\n" >"$obj" &&
	(cd tampered && test_expect_code 2 ahd-replay verify --at=HEAD docs/evals/r1.md >../out) &&
	test_grep "does not match its pointer" out
'

test_expect_success 'a pointer with a wrong size: an error' '
	git clone -q base badsize &&
	(
		cd badsize &&
		git cat-file -p HEAD:tokens/a.yml | sed "s/^size .*/size 999/" >p &&
		blob=$(git hash-object -w p) &&
		git update-index --cacheinfo 100644,$blob,tokens/a.yml &&
		git commit -q --no-verify -m "bad size" &&
		test_expect_code 2 ahd-replay verify --at=HEAD docs/evals/r1.md >../out
	) &&
	test_grep "does not match its pointer" out
'

test_expect_success 'a file that looks like a pointer but is not filter=lfs is content' '
	(
		cd base &&
		git cat-file -p HEAD:tokens/a.yml >notes.yml &&
		write_sidecar docs/evals/r2.replay.json notes.yml &&
		echo "# r2" >docs/evals/r2.md &&
		git add notes.yml docs/evals/r2.* &&
		git commit -q --no-verify -m "a pointer-looking file" &&
		ahd-replay verify --at=HEAD docs/evals/r2.md >../out
	) &&
	test_grep "intact" out
'

# actions/checkout leaves pointers in the work tree unless lfs: true.
test_expect_success 'a work tree holding pointers (not checked out): an error, then intact once fetched' '
	GIT_LFS_SKIP_SMUDGE=1 git clone -q base skipped &&
	git -C skipped cat-file -p HEAD:tokens/a.yml >expect &&
	test_cmp expect skipped/tokens/a.yml &&
	(cd skipped && test_expect_code 2 ahd-replay verify docs/evals/r1.md >../out) &&
	test_grep "not checked out" out &&
	test_grep ! "re-hash differs" out &&
	git -C skipped lfs fetch >/dev/null 2>&1 &&
	test_cmp expect skipped/tokens/a.yml &&
	(cd skipped && ahd-replay verify docs/evals/r1.md >../out) &&
	test_grep "intact" out
'

test_expect_success 'backfill reads an LFS token through its pointer' '
	git init -q -b main bf &&
	(
		cd bf &&
		git lfs install --local >/dev/null &&
		git lfs track "tokens/*.yml" >/dev/null &&
		mkdir -p tokens docs/evals &&
		echo "{ \"version\": \"1.0.0\" }" >package.json &&
		printf "name: a\nversion: 1\n" >tokens/a.yml &&
		printf "# ahd eval · a · 2026-01-02T03:04:05.000Z\n\n- Samples per cell: **2**\n" >docs/evals/x.md &&
		git add -A &&
		git commit -q -m report &&
		ahd-replay backfill >../out &&
		ahd-replay verify docs/evals/x.md >../out
	) &&
	test_grep "intact" out
'

test_done
