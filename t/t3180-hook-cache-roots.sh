#!/bin/sh

test_description='hooks: the recorded paths kept in the cache, the root found once per repository

The hooks learn which sidecars could name a changed path from the
paths each sidecar records, kept in the cache under the sidecar'"'"'s
blob id, and look ahd-replay.root up once per repository rather than
once per report directory.  Neither may change an answer: a warm hook
refuses what a cold one and one without a cache refuse, a sidecar
whose bytes change is read again, and a report directory that holds a
repository of its own keeps that repository'"'"'s root.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# pre_commit REPO EXPECTED-CODE OUT: run the pre-commit check in REPO,
# its stderr into OUT.
pre_commit () {
	(cd "$1" && test_expect_code "$2" ahd-replay hook pre-commit) 2>"$3"
}

store=repo/.git/ahd-replay/cache/hooks

test_expect_success 'setup: two tokens pinned from two report directories' '
	lsan_ignore_libgit2_leaks &&
	git init -q repo &&
	mkdir -p repo/tokens repo/docs/x repo/docs/y &&
	printf "color: red\n" >repo/tokens/a.yml &&
	printf "color: green\n" >repo/tokens/b.yml &&
	(
		cd repo &&
		write_sidecar docs/x/r1.replay.json tokens/a.yml &&
		write_sidecar docs/x/r2.replay.json tokens/b.yml &&
		write_sidecar docs/y/r3.replay.json tokens/a.yml &&
		write_sidecar docs/y/r4.replay.json tokens/b.yml &&
		git add . && git commit -q -m reports
	)
'

test_expect_success 'a warm hook refuses what a cold one and one without a cache refuse' '
	printf "color: blue\n" >repo/tokens/a.yml &&
	git -C repo add tokens/a.yml &&
	AHD_REPLAY_NO_CACHE=1 pre_commit repo 1 none.err &&
	test_path_is_missing "$store" &&
	pre_commit repo 1 cold.err &&
	pre_commit repo 1 warm.err &&
	test_grep "docs/x/r1.md" warm.err &&
	test_grep "docs/y/r3.md" warm.err &&
	test_grep ! "r2.md" warm.err &&
	test_grep ! "r4.md" warm.err &&
	test_cmp none.err cold.err &&
	test_cmp none.err warm.err &&
	test_path_is_file "$store" &&
	test_path_is_missing repo/.git/ahd-replay/cache/store
'

test_expect_success 'cache: false in the staged .ahd-replay.yml: no store' '
	test_when_finished "rm -rf nocache" &&
	git clone -q repo nocache &&
	printf "version: 1\npolicy:\n  cache: false\n" >nocache/.ahd-replay.yml &&
	printf "color: blue\n" >nocache/tokens/a.yml &&
	git -C nocache add .ahd-replay.yml tokens/a.yml &&
	pre_commit nocache 1 policy.err &&
	test_cmp none.err policy.err &&
	test_path_is_missing nocache/.git/ahd-replay/cache/hooks &&
	git -C nocache config ahd-replay.cache true &&
	pre_commit nocache 1 policy.err &&
	test_path_is_file nocache/.git/ahd-replay/cache/hooks
'

test_expect_success 'the paths are kept under each sidecar blob id' '
	for f in docs/x/r1 docs/x/r2 docs/y/r3 docs/y/r4
	do
		id=$(git -C repo rev-parse ":$f.replay.json") &&
		test_grep "^hs\.$id " "$store" || return 1
	done
'

test_expect_success 'a sidecar whose bytes change is read again' '
	git -C repo reset -q --hard &&
	(
		cd repo &&
		write_sidecar docs/y/r4.replay.json tokens/a.yml &&
		git add docs/y/r4.replay.json && git commit -q -m "r4 pins a"
	) &&
	printf "color: blue\n" >repo/tokens/a.yml &&
	git -C repo add tokens/a.yml &&
	pre_commit repo 1 moved.err &&
	test_grep "docs/y/r4.md" moved.err &&
	test_grep ! "r2.md" moved.err
'

test_expect_success 'a backslash in a warm sidecar still has it judged' '
	git -C repo reset -q --hard &&
	(
		cd repo &&
		write_sidecar --token-path="tokens\\/b.yml" docs/x/r2.replay.json \
			tokens/b.yml &&
		test_grep -F "\"tokens\\/b.yml\"" docs/x/r2.replay.json &&
		git add docs/x/r2.replay.json && git commit -q -m "r2 escaped"
	) &&
	printf "color: black\n" >repo/tokens/b.yml &&
	git -C repo add tokens/b.yml &&
	pre_commit repo 1 cold.err &&
	pre_commit repo 1 warm.err &&
	test_grep "docs/x/r2.md" warm.err &&
	test_cmp cold.err warm.err
'

test_expect_success 'ahd-replay.root, looked up once, serves every report directory' '
	git -C repo reset -q --hard &&
	mkdir -p repo/sub/tokens &&
	printf "color: red\n" >repo/sub/tokens/a.yml &&
	(
		cd repo &&
		write_sidecar --root=sub docs/x/r1.replay.json tokens/a.yml &&
		write_sidecar --root=sub docs/y/r3.replay.json tokens/a.yml &&
		git add . && git commit -q -m "r1, r3 under sub" &&
		git config ahd-replay.root sub
	) &&
	printf "color: blue\n" >repo/sub/tokens/a.yml &&
	git -C repo add sub/tokens/a.yml &&
	pre_commit repo 1 root.err &&
	test_grep "docs/x/r1.md" root.err &&
	test_grep "docs/y/r3.md" root.err &&
	git -C repo reset -q --hard &&
	printf "color: pink\n" >repo/tokens/a.yml &&
	git -C repo add tokens/a.yml &&
	pre_commit repo 0 top.err &&
	test_grep ! "r1.md" top.err
'

test_expect_success 'a report directory that holds its own repository keeps its root' '
	git -C repo reset -q --hard &&
	mkdir -p repo/docs/z/tokens &&
	printf "color: red\n" >repo/docs/z/tokens/a.yml &&
	(
		cd repo &&
		write_sidecar --root=docs/z docs/z/r5.replay.json tokens/a.yml &&
		git add docs/z && git commit -q -m "r5 in docs/z" &&
		printf "color: blue\n" >docs/z/tokens/a.yml &&
		git add docs/z/tokens/a.yml &&
		git -C docs/z init -q
	) &&
	pre_commit repo 1 nested.err &&
	test_grep "docs/z/r5.md" nested.err
'

test_done
