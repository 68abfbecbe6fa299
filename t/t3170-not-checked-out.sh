#!/bin/sh

test_description='verify: inputs git did not write as files are said so, exit 2

A sparse checkout leaves inputs outside its set unwritten (unchanged in
the index and at HEAD); core.symlinks=false (git'\''s default on Windows)
writes a committed symlink as a text file holding its target.  Neither
is "file not found" or drift: verify says why and exits 2, as for an
unfetched LFS object.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a token behind a symlink, a report' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "color: red\n" >repo/tokens/real.yml &&
	ln -s real.yml repo/tokens/t.yml &&
	(cd repo && write_sidecar docs/r.replay.json tokens/t.yml) &&
	printf "# R\n" >repo/docs/r.md &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m init &&
	(cd repo && ahd-replay verify docs/r.md) >out &&
	test_grep "replay inputs intact" out
'

test_expect_success 'a sparse checkout without the token: not checked out, exit 2' '
	git clone -q --no-checkout repo sparse &&
	git -C sparse sparse-checkout set --cone docs &&
	git -C sparse checkout -q &&
	test_path_is_missing sparse/tokens/real.yml &&
	(cd sparse && test_expect_code 2 ahd-replay verify docs/r.md) >out &&
	test_grep "not checked out (outside the sparse checkout)" out &&
	! grep "file not found" out &&
	! grep "drift" out
'

test_expect_success 'core.symlinks=false: the link as a text file is said so, exit 2' '
	git -c core.symlinks=false clone -q repo nolinks &&
	git -C nolinks config core.symlinks false &&
	test_path_is_file nolinks/tokens/t.yml &&
	! test -h nolinks/tokens/t.yml &&
	(cd nolinks && test_expect_code 2 ahd-replay verify docs/r.md) >out &&
	test_grep "a symlink in the index, checked out as a text file" out &&
	! grep "drift detected" out
'

test_expect_success 'core.symlinks=false: --at reads the link as the hook does: intact' '
	(cd nolinks && ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out
'

test_done
