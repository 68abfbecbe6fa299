#!/bin/sh

test_description='capture writes only beneath the root

A pull request can commit a symlink where capture --force will write:
the sidecar, the report, or a directory on the way.  Every write is
opened beneath the root, as verify'\''s reads are: a link that leaves
the root (or leads into .git) is refused before a byte is written, the
refusal names the path and the link, and the file outside is left as it
was.  A link that stays inside the root is followed, as before.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z
export AHD_REPLAY_NOW

# capture_to ARGS...: a critique run of the fixture, --force, with ARGS.
capture_to () {
	(cd proj && ahd-replay capture --kind=critique --token=tokens/t.yml \
		--n=1 --force "$@" -- ahd critique)
}

test_expect_success 'setup' '
	git init -q proj &&
	mkdir -p proj/tokens proj/docs/evals &&
	printf "name: t\n" >proj/tokens/t.yml &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >proj/package.json &&
	printf "# Report\n\nText.\n" >proj/docs/evals/z.md &&
	printf "ssh-ed25519 AAAA user\n" >authorized_keys &&
	cp authorized_keys keys.orig &&
	(cd proj && git add . && git commit -q -m init)
'

test_expect_success 'a committed sidecar symlink out of the root: refused, named' '
	ln -s ../../../authorized_keys proj/docs/evals/z.replay.json &&
	(cd proj && git add . && git commit -q -m planted) &&
	test_expect_code 2 capture_to --report=docs/evals/z.md 2>err &&
	test_cmp keys.orig authorized_keys &&
	test -h proj/docs/evals/z.replay.json &&
	test_grep "the symlink .docs/evals/z.replay.json. -> .\.\./\.\./\.\./authorized_keys. leads out of the root" err &&
	printf "# Report\n\nText.\n" >expect &&
	test_cmp expect proj/docs/evals/z.md
'

test_expect_success 'a report symlink out of the root: refused, no sidecar written' '
	rm proj/docs/evals/z.replay.json &&
	printf "# Outside\n" >outside.md &&
	cp outside.md outside.orig &&
	ln -s ../../../outside.md proj/docs/evals/o.md &&
	test_expect_code 2 capture_to --report=docs/evals/o.md 2>err &&
	test_cmp outside.orig outside.md &&
	test_grep "the symlink .docs/evals/o.md. -> .\.\./\.\./\.\./outside.md. leads out of the root" err &&
	test_path_is_missing proj/docs/evals/o.replay.json
'

test_expect_success 'a directory symlink out of the root on the way: refused' '
	mkdir -p elsewhere &&
	ln -s ../../elsewhere proj/docs/out &&
	test_expect_code 2 capture_to --out=docs/out/x.replay.json 2>err &&
	test_grep "the symlink .docs/out. -> .\.\./\.\./elsewhere. leads out of the root" err &&
	test_path_is_missing elsewhere/x.replay.json
'

test_expect_success 'a directory symlink into another repository: refused' '
	git init -q other &&
	mkdir -p other/docs &&
	rm proj/package.json &&
	ln -s ../../other/docs proj/docs/other &&
	test_expect_code 2 capture_to --out=docs/other/x.replay.json &&
	test_path_is_missing other/docs/x.replay.json &&
	git -C proj checkout -q package.json
'

test_expect_success 'a sidecar symlink into .git: refused' '
	ln -s ../../.git/config proj/docs/evals/g.replay.json &&
	cp proj/.git/config config.orig &&
	test_expect_code 2 capture_to --out=docs/evals/g.replay.json 2>err &&
	test_grep "leads out of the root .* or into a .git directory" err &&
	test_cmp config.orig proj/.git/config
'

test_expect_success 'a symlink inside the root is followed, and stays a symlink' '
	mkdir -p proj/docs/real &&
	ln -s ../real/in.replay.json proj/docs/evals/in.replay.json &&
	printf "{}\n" >proj/docs/real/in.replay.json &&
	capture_to --out=docs/evals/in.replay.json &&
	test -h proj/docs/evals/in.replay.json &&
	test_grep "\"kind\": \"critique\"" proj/docs/real/in.replay.json
'

test_expect_success 'a dangling sidecar symlink: refused' '
	ln -s nowhere.replay.json proj/docs/evals/d.replay.json &&
	test_expect_code 2 capture_to --out=docs/evals/d.replay.json 2>err &&
	test_grep "a symlink to a file that does not exist" err &&
	test_path_is_missing proj/docs/evals/nowhere.replay.json
'

test_expect_success 'a report that is a link to /dev/stdin or a FIFO: refused, no hang' '
	ln -s /dev/stdin proj/docs/evals/in.md &&
	test_expect_code 2 capture_to --report=docs/evals/in.md </dev/null 2>err &&
	test_grep "not a regular file; a report is not read from it" err &&
	mkfifo proj/docs/evals/fifo.md &&
	test_expect_code 2 capture_to --report=docs/evals/fifo.md 2>err &&
	test_grep "not a regular file" err &&
	test_path_is_missing proj/docs/evals/fifo.replay.json
'

test_expect_success 'the same refusals when the path is walked without openat2' '
	AHD_REPLAY_NO_OPENAT2=1 &&
	export AHD_REPLAY_NO_OPENAT2 &&
	test_expect_code 2 capture_to --report=docs/evals/o.md 2>err &&
	test_cmp outside.orig outside.md &&
	test_grep "leads out of the root" err &&
	test_expect_code 2 capture_to --out=docs/out/x.replay.json 2>err &&
	test_path_is_missing elsewhere/x.replay.json &&
	unset AHD_REPLAY_NO_OPENAT2
'

test_done
