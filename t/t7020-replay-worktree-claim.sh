#!/bin/sh

test_description='two replays into one new --worktree: one wins, nothing of it is lost

The directory is claimed exclusively (its .git created with O_EXCL)
before it is used; the process that loses the claim removes nothing.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a report at a commit with many files' '
	git init -q -b main repo &&
	mkdir -p repo/tokens repo/docs repo/many &&
	printf "color: red\n" >repo/tokens/t.yml &&
	for i in $(seq 1 300)
	do
		echo $i >repo/many/f$i || return 1
	done &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m base &&
	(cd repo && write_sidecar --commit="$(git rev-parse HEAD)" \
		docs/r.replay.json tokens/t.yml) &&
	echo "# r" >repo/docs/r.md
'

test_expect_success 'racing replays: the winner keeps its whole checkout' '
	for round in $(seq 1 12)
	do
		mkdir race$round &&
		{ ahd-replay replay --worktree=race$round/wt repo/docs/r.md \
			>out.a$round 2>err.a$round & } &&
		{ ahd-replay replay --worktree=race$round/wt repo/docs/r.md \
			>out.b$round 2>err.b$round & } &&
		wait &&
		# whoever won, its checkout is complete
		test_path_is_file race$round/wt/.git &&
		test_path_is_file race$round/wt/many/f300 &&
		test_path_is_file race$round/wt/replay-receipt.json || return 1
	done
'

test_expect_success 'a directory claimed by another process is left as it is' '
	mkdir claimed &&
	: >claimed/.git &&
	test_expect_code 2 ahd-replay replay --worktree=claimed \
		repo/docs/r.md >out 2>err &&
	test_grep "not an empty directory" err &&
	test_path_is_file claimed/.git
'

test_done
