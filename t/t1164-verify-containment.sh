#!/bin/sh

test_description='containment of every file read: sidecar, report, signature

A pull request can turn a sidecar, its report or its .sig into a symlink
to a file outside the root.  verify, validate, diff, render and sign must
refuse such a file unread (exit 2, or a failed signature, or a warning
for a report) and quote nothing of it; --allow-outside-root reads it.  A
file that is read but invalid is quoted only as a short escaped excerpt.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# validate finds the schema here in an out-of-tree build too
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

SECRET=TOP-SECRET-9a8b7c

# no_secret FILE...: none of the files shows the secret or the word that
# starts the fake .netrc.
no_secret () {
	for f
	do
		test_grep ! -e "$SECRET" -e machine "$f" || return 1
	done
}

test_expect_success 'setup: a repository, a secret outside it' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "a: 1\n" >repo/tokens/x.yml &&
	printf "machine example.org login me password %s\n" "$SECRET" >netrc &&
	(cd repo && write_sidecar docs/good.replay.json tokens/x.yml) &&
	ln -s ../../netrc repo/docs/leak.replay.json &&
	git -C repo add . &&
	git -C repo commit -q -m init
'

test_expect_success 'verify: a sidecar symlinked out of the root is refused unread' '
	(cd repo && test_expect_code 2 ahd-replay verify docs/leak.replay.json) \
		>out 2>err &&
	test_must_be_empty out &&
	test_grep "docs/leak.replay.json: leads out of the root" err &&
	test_grep "allow-outside-root" err &&
	no_secret out err
'

test_expect_success 'verify --all: the same, and the other reports still checked' '
	(cd repo && test_expect_code 2 ahd-replay verify --all) >out 2>err &&
	test_grep "^verdict: replay inputs intact$" out &&
	test_grep "leak.replay.json: leads out of the root" err &&
	no_secret out err
'

test_expect_success '--allow-outside-root reads it; the JSON error quotes a short excerpt' '
	(cd repo && test_expect_code 2 ahd-replay verify --allow-outside-root \
		docs/leak.replay.json) >out 2>err &&
	test_grep "invalid JSON" err &&
	test_grep ! -e "$SECRET" err
'

test -r /proc/self/environ && test_set_prereq PROC_ENVIRON

test_expect_success PROC_ENVIRON 'a relative symlink into /proc/self/environ is refused' '
	# as many ".." as the trash directory is deep, and more (".." of
	# "/" is "/"): distcheck builds far below the source tree
	up_=$(printf "%s/repo/docs" "$(pwd)" | sed "s|[^/][^/]*|..|g") &&
	ln -s "${up_#/}/../../proc/self/environ" repo/docs/env.replay.json &&
	(cd repo && SECRET_VARIABLE_NAME=$SECRET test_expect_code 2 \
		ahd-replay verify docs/env.replay.json) >out 2>err &&
	test_grep "leads out of the root" err &&
	test_grep ! SECRET_VARIABLE_NAME err &&
	no_secret out err
'

test_expect_success 'a sidecar symlinked into .git is refused' '
	ln -s ../.git/config repo/docs/git.replay.json &&
	(cd repo && test_expect_code 2 ahd-replay verify docs/git.replay.json) \
		>out 2>err &&
	test_grep "leads out of the root .* or into a .git directory" err &&
	test_grep ! "repositoryformatversion" err
'

test_expect_success 'a recorded input under .git: refused for what it is, not a symlink' '
	(cd repo && write_sidecar --token-hash=sha256:$(printf "%064d" 0) \
		docs/gitin.replay.json .git/config) &&
	(cd repo && test_expect_code 2 ahd-replay verify docs/gitin.replay.json) \
		>out 2>err &&
	test_grep "token path .git/config is outside the root .*(inside a .git directory;" out &&
	test_grep ! symlink out &&
	test_grep ! "repositoryformatversion" out err
'

test_expect_success 'a symlink that stays inside the root is followed' '
	ln -s good.replay.json repo/docs/alias.replay.json &&
	(cd repo && ahd-replay verify docs/alias.replay.json) >out 2>err &&
	test_grep "^verdict: replay inputs intact$" out
'

test_expect_success 'a report symlinked out of the root: a warning that quotes none of it' '
	printf "# R\n\n\`\`\`yaml ahd-replay\nmachine %s\n\`\`\`\n" "$SECRET" \
		>outside.md &&
	cp repo/docs/good.replay.json repo/docs/rep.replay.json &&
	ln -s ../../outside.md repo/docs/rep.md &&
	(cd repo && ahd-replay verify docs/rep.md) >out 2>err &&
	test_grep "^  warning: the replay block was not compared: leads out of the root" out &&
	test_grep "^verdict: replay inputs intact$" out &&
	no_secret out err &&
	(cd repo && ahd-replay verify --allow-outside-root docs/rep.md) \
		>out 2>err &&
	test_grep "^  warning: the replay block in docs/rep.md differs" out
'

test_expect_success 'a report line in the block warning is a bounded, escaped excerpt' '
	long=$(printf "%0200d" 0) &&
	printf "# R\n\n\`\`\`yaml ahd-replay\n\033[8m%s\n\`\`\`\n" "$long" \
		>repo/docs/good.md &&
	(cd repo && ahd-replay verify docs/good.md) >out 2>err &&
	test_grep -F "it has '"'"'\\x1b[8m000" out &&
	test_grep ! "$long" out &&
	test_grep -F "...'"'"', the sidecar renders" out
'

test_expect_success 'a .sig symlinked out of the root fails the signature unread' '
	printf "{\"machine\": \"%s\"}\n" "$SECRET" >outside.sig &&
	ln -s ../../outside.sig repo/docs/good.replay.json.sig &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/good.replay.json) \
		>out 2>err &&
	test_grep "^  FAIL  signature: docs/good.replay.json.sig: leads out of the root" out &&
	test_grep "^verdict: signature check failed$" out &&
	no_secret out err &&
	rm repo/docs/good.replay.json.sig
'

test_expect_success 'validate refuses it unread; --allow-outside-root reads it' '
	(cd repo && test_expect_code 2 ahd-replay validate docs/leak.replay.json) \
		>out 2>err &&
	test_grep "leads out of the root" err &&
	no_secret out err &&
	(cd repo && test_expect_code 2 ahd-replay validate --allow-outside-root \
		docs/leak.replay.json) >out 2>err &&
	test_grep "invalid JSON" err &&
	test_grep ! -e "$SECRET" err
'

test_expect_success 'diff refuses it unread' '
	(cd repo && test_expect_code 2 ahd-replay diff docs/good.replay.json \
		docs/leak.replay.json) >out 2>err &&
	test_grep "leads out of the root" err &&
	no_secret out err
'

test_expect_success 'render refuses it unread' '
	(cd repo && test_expect_code 2 ahd-replay render docs/leak.replay.json) \
		>out 2>err &&
	test_grep "leads out of the root" err &&
	no_secret out err
'

test_expect_success 'sign refuses to vouch for it' '
	ahd-replay keygen --out key >/dev/null &&
	cp repo/docs/good.replay.json outside.replay.json &&
	ln -s ../../outside.replay.json repo/docs/signed.replay.json &&
	echo "# signed" >repo/docs/signed.md &&
	(cd repo && test_expect_code 2 ahd-replay sign --key=../key \
		docs/signed.replay.json) >out 2>err &&
	test_grep "leads out of the root" err &&
	test_path_is_missing repo/docs/signed.replay.json.sig &&
	(cd repo && ahd-replay sign --key=../key --allow-outside-root \
		docs/signed.replay.json) >out 2>err &&
	test_path_is_file repo/docs/signed.replay.json.sig
'

test_expect_success 'a file named outside any repository is held to its own directory' '
	mkdir -p loose &&
	cp repo/docs/good.replay.json loose/ &&
	ln -s ../netrc loose/leak.replay.json &&
	GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
	export GIT_CEILING_DIRECTORIES &&
	(cd repo && ahd-replay validate ../loose/good.replay.json) >out 2>err &&
	test_grep "good.replay.json: valid" out &&
	(cd repo && test_expect_code 2 ahd-replay validate \
		../loose/leak.replay.json) >out 2>err &&
	test_grep "leads out of the root" err &&
	no_secret out err
'

test_done
