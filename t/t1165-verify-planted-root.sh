#!/bin/sh

test_description='verify, diff and the hooks: a planted package.json root

The reference takes the root from a package.json named
@adastracomputing/ahd up to 7 levels above a report.  A pull request that
adds one below the top, with an old copy of a token beside it, makes a
drifted report look intact.  verify names a root that is not the work
tree'"'"'s top and warns when a package.json below the top set it;
--root and git config ahd-replay.root (relative to the top) pin the root,
for verify, diff and the hooks.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a report whose token drifted, and a planted root' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs/evals &&
	printf "color: red\n" >repo/tokens/x.yml &&
	(cd repo && write_sidecar docs/evals/r.replay.json tokens/x.yml) &&
	printf "# R\n" >repo/docs/evals/r.md &&
	git -C repo add . &&
	git -C repo commit -q -m init &&
	printf "color: blue\n" >repo/tokens/x.yml &&
	git -C repo commit -q -a -m "token v2" &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/r.md) \
		>out 2>err &&
	test_grep "^verdict: drift detected$" out &&
	test_grep ! "root:" out &&
	mkdir repo/docs/evals/tokens &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" \
		>repo/docs/evals/package.json &&
	printf "color: red\n" >repo/docs/evals/tokens/x.yml
'

test_expect_success 'the planted root: named, with a warning' '
	(cd repo && ahd-replay verify docs/evals/r.md) >out 2>err &&
	test_grep "^verdict: replay inputs intact$" out &&
	test_grep "^  note: root: docs/evals (package.json), not the work tree'"'"'s top " out &&
	test_grep "^  warning: the root is set by docs/evals/package.json, below the work tree'"'"'s top" out &&
	test_grep "ahd-replay.root" out
'

test_expect_success '--root . pins the root: the drift shows' '
	(cd repo && test_expect_code 1 ahd-replay verify --root . docs/evals/r.md) \
		>out 2>err &&
	test_grep "^verdict: drift detected$" out &&
	test_grep ! "warning: the root is set by" out
'

test_expect_success 'git config ahd-replay.root pins it, relative to the top' '
	git -C repo config ahd-replay.root . &&
	(cd repo/docs && test_expect_code 1 ahd-replay verify evals/r.md) \
		>out 2>err &&
	test_grep "^verdict: drift detected$" out &&
	test_grep ! "^  note: root:" out &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=json \
		docs/evals/r.md) >json 2>err &&
	test_grep "\"root_from\": \"ahd-replay.root\"" json
'

test_expect_success 'a pinned root below the top is named, without the warning' '
	git -C repo config ahd-replay.root docs/evals &&
	(cd repo && ahd-replay verify docs/evals/r.md) >out 2>err &&
	test_grep "^  note: root: docs/evals (ahd-replay.root), not the work tree'"'"'s top " out &&
	test_grep ! "warning: the root is set by" out
'

test_expect_success 'a pinned root that does not exist is an error' '
	git -C repo config ahd-replay.root no/such/dir &&
	(cd repo && test_expect_code 2 ahd-replay verify docs/evals/r.md) \
		>out 2>err &&
	test_grep "ahd-replay.root: cannot resolve" err &&
	git -C repo config ahd-replay.root .
'

test_expect_success 'a pinned root set without a value is an error, not a crash' '
	git -C repo config --unset ahd-replay.root &&
	printf "[ahd-replay]\n\troot\n" >>repo/.git/config &&
	(cd repo && test_expect_code 2 ahd-replay verify docs/evals/r.md) \
		>out 2>err &&
	test_grep "ahd-replay.root is set without a value" err &&
	git -C repo config --unset ahd-replay.root &&
	git -C repo config ahd-replay.root .
'

test_expect_success 'diff uses the pinned root' '
	git -C repo config --unset ahd-replay.root &&
	cp repo/docs/evals/r.replay.json repo/docs/evals/s.replay.json &&
	(cd repo && ahd-replay diff docs/evals/r.replay.json \
		docs/evals/s.replay.json) >out 2>err &&
	git -C repo config ahd-replay.root . &&
	(cd repo && ahd-replay diff docs/evals/r.replay.json \
		docs/evals/s.replay.json) >out 2>err &&
	test_grep "stable fields match" out
'

test_expect_success 'the pre-commit hook judges against the pinned root' '
	git -C repo config --unset ahd-replay.root &&
	(cd repo && ahd-replay install-hooks) >/dev/null &&
	git -C repo add docs/evals/package.json docs/evals/tokens/x.yml &&
	git -C repo commit -q -m "plant" &&
	printf "color: green\n" >repo/docs/evals/tokens/x.yml &&
	git -C repo add docs/evals/tokens/x.yml &&
	(cd repo && test_must_fail git commit -q -m "edit the planted copy") \
		2>err &&
	test_grep "docs/evals/r.md" err &&
	git -C repo config ahd-replay.root . &&
	(cd repo && git commit -q -m "edit the planted copy") 2>err &&
	git -C repo config --unset ahd-replay.root
'

test_done
