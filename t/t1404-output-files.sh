#!/bin/sh

test_description='output files an option names: --receipt as --output

A file --receipt or --output names is the user'\''s: it is replaced only
when it is an earlier output of ours (or empty), a FIFO or a device (or a
symlink to one, such as /dev/stdout) is written through and stays what it
was, a symlink to a regular file keeps being a symlink, and anything
else is refused before any work.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# replay_to N RECEIPT: replay docs/r.md into worktree wtN, --receipt=RECEIPT.
replay_to () {
	ahd-replay replay --worktree="wt$1" --receipt="$2" repo/docs/r.md >/dev/null
}

test_expect_success 'setup' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "color: red\n" >repo/tokens/t.yml &&
	printf "# Brief\n" >repo/briefs/b.md &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m init &&
	(cd repo && write_sidecar --commit="$(git rev-parse HEAD)" \
		docs/r.replay.json tokens/t.yml briefs/b.md) &&
	printf "# R\n" >repo/docs/r.md &&
	git -C repo add docs &&
	test_tick && git -C repo commit -q -m report
'

test_expect_success '--receipt: a new file, then the same file again' '
	replay_to 1 receipt.json &&
	test_cmp receipt.json wt1/replay-receipt.json &&
	replay_to 2 receipt.json &&
	test_cmp receipt.json wt2/replay-receipt.json
'

test_expect_success '--receipt over a file of the user: refused before any work' '
	printf "my notes\n" >notes.txt &&
	cp notes.txt notes.orig &&
	test_expect_code 2 replay_to 3 notes.txt 2>err &&
	test_cmp notes.orig notes.txt &&
	test_grep "notes.txt exists and is not an earlier receipt of ahd-replay; not replaced" err &&
	test_path_is_missing wt3
'

test_expect_success '--receipt through a symlink to an earlier receipt: the link stays' '
	ln -s receipt.json link.json &&
	replay_to 4 link.json &&
	test -h link.json &&
	test_cmp receipt.json wt4/replay-receipt.json
'

test_expect_success '--receipt through a symlink to a file of the user: refused' '
	ln -s notes.txt notes-link &&
	test_expect_code 2 replay_to 5 notes-link 2>err &&
	test -h notes-link &&
	test_cmp notes.orig notes.txt
'

test_expect_success '--receipt to a dangling symlink: refused, the link kept' '
	ln -s nowhere.json dangling.json &&
	test_expect_code 2 replay_to 6 dangling.json 2>err &&
	test -h dangling.json &&
	test_path_is_missing nowhere.json
'

test_expect_success '--receipt to /dev/null: written through, the device kept' '
	replay_to 7 /dev/null &&
	test -c /dev/null
'

test_expect_success '--receipt to a symlink to /dev/null: written through, the link kept' '
	ln -s /dev/null null-link &&
	replay_to 8 null-link &&
	test -h null-link &&
	test -c /dev/null
'

test_expect_success '--receipt=/dev/stdout into a file: the receipt, then the rest' '
	printf "before\n" >out &&
	ahd-replay replay --worktree=wt9 --receipt=/dev/stdout \
		repo/docs/r.md >>out &&
	test -f out &&
	head -n 1 out >first &&
	echo before >expect &&
	test_cmp expect first &&
	test_grep "ahd-replay/replay-receipt/v1" out &&
	test_grep "^  worktree " out
'

test_expect_success '--receipt into a FIFO: written through, still a FIFO' '
	mkfifo fifo &&
	{ cat fifo >from-fifo & } &&
	replay_to 10 fifo &&
	wait &&
	test -p fifo &&
	test_cmp wt10/replay-receipt.json from-fifo
'

test_expect_success '--receipt at a directory: refused' '
	mkdir adir &&
	test_expect_code 2 replay_to 11 adir 2>err &&
	test_grep "not a regular file, a FIFO or a character device" err
'

test_expect_success '--output: over an earlier output through a symlink, the link kept' '
	ahd-replay verify --output=json:o.json repo/docs/r.md >/dev/null &&
	ln -s o.json o-link.json &&
	ahd-replay verify --output=json:o-link.json repo/docs/r.md >/dev/null &&
	test -h o-link.json &&
	test_grep "\"exit_status\": 0" o.json
'

test_expect_success '--output into a FIFO: written through, still a FIFO' '
	mkfifo fifo2 &&
	{ cat fifo2 >from-fifo2 & } &&
	ahd-replay verify --output=sarif:fifo2 repo/docs/r.md >/dev/null &&
	wait &&
	test -p fifo2 &&
	test_grep "\"name\": \"ahd-replay\"" from-fifo2
'

test_expect_success '--output over a file of the user: refused, kept' '
	test_expect_code 2 ahd-replay verify --output=json:notes.txt \
		repo/docs/r.md >/dev/null 2>err &&
	test_cmp notes.orig notes.txt &&
	test_grep "not an earlier json output" err
'

test_done
