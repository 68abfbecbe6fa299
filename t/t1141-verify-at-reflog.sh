#!/bin/sh

test_description='verify --at=HEAD@{n} reads HEAD'\''s reflog, as git rev-parse does

libgit2 alone reads HEAD@{n} from the current branch'\''s reflog; git
from HEAD'\''s own, which moves on every checkout.  After a commit made
detached and a checkout of main the two differ: git'\''s HEAD@{1} holds
a changed token where the branch'\''s reflog names a commit where it is
intact.  verify must read what git names, and refuse HEAD@{<date>}
rather than answer it from another reflog.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: main pins a token; a detached commit changes it' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "color: blue\n" >repo/tokens/t.yml &&
	(cd repo && write_sidecar docs/r.replay.json tokens/t.yml) &&
	printf "# R\n" >repo/docs/r.md &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m pinned &&
	git -C repo branch -M main &&
	echo readme >repo/README &&
	git -C repo add README &&
	test_tick && git -C repo commit -q -m readme &&
	git -C repo checkout -q --detach &&
	printf "color: green\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "green, detached" &&
	git -C repo checkout -q main 2>/dev/null &&
	test "$(git -C repo rev-parse HEAD@{1})" != "$(git -C repo rev-parse main@{1})"
'

test_expect_success 'HEAD@{1} is the commit git names: the changed token is drift' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=json \
		--at=HEAD@{1} docs/r.md) >out &&
	test_grep "\"status\": \"drift\"" out &&
	test_grep "token contents have changed" out
'

test_expect_success 'main@{1} is the branch'\''s reflog: intact there' '
	(cd repo && ahd-replay verify --at=main@{1} docs/r.md) >out &&
	test_grep "replay inputs intact" out
'

test_expect_success 'HEAD@{0} and HEAD@{2}, and HEAD@{1}~0 too, as git names them' '
	(cd repo && ahd-replay verify --at=HEAD@{0} docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	(cd repo && ahd-replay verify --at=HEAD@{2} docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	(cd repo && test_expect_code 1 ahd-replay verify --at=HEAD@{1}~0 docs/r.md) >out
'

test_expect_success 'HEAD@{<date>} is refused, not answered from another reflog' '
	(cd repo && test_expect_code 2 ahd-replay verify --at=HEAD@{yesterday} docs/r.md) >err &&
	test_grep "HEAD@{...} is taken by number only" err
'

test_expect_success 'past the end of the reflog: an error, never a hash' '
	(cd repo && test_expect_code 2 ahd-replay verify --at=HEAD@{99} docs/r.md) >err &&
	test_grep "the reflog of HEAD has only" err
'

test_done
