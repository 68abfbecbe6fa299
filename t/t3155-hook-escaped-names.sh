#!/bin/sh

test_description='hooks: a token whose name JSON escapes is still judged

A sidecar stores a name with a double quote, a backslash, a tab, a
carriage return or a newline escaped ("a\"b.yml").  The hooks skip a
sidecar whose text cannot name a changed file; that pre-filter may only
skip what it has proven unrelated, so a commit or a push that changes
such a token is refused as verify would call it drift.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z
export AHD_REPLAY_NOW

test_expect_success 'setup: a remote, a clone with the hooks' '
	lsan_ignore_libgit2_leaks &&
	git init -q --bare remote.git &&
	git clone -q remote.git work 2>/dev/null &&
	(cd work && git commit -q --allow-empty -m root &&
		git push -q origin HEAD:refs/heads/main 2>/dev/null &&
		ahd-replay install-hooks --pre-merge-commit >/dev/null)
'

# one NAME TAG: a token named NAME pinned by docs/TAG.replay.json,
# committed and pushed (the hooks pass: it is intact); then the token
# changed: the commit is refused by pre-commit, and once committed with
# --no-verify the push is refused by pre-push.
one () {
	mkdir -p work/tokens work/docs &&
	printf "color: red\n" >"work/tokens/$1" &&
	(cd work && ahd-replay capture --kind=critique --token="tokens/$1" \
		--n=1 --out="docs/$2.replay.json" -- ahd critique &&
		git add . && git commit -q -m "pin $2" &&
		git push -q origin HEAD:refs/heads/main 2>/dev/null) &&
	printf "color: blue\n" >"work/tokens/$1" &&
	(cd work && git add . && test_must_fail git commit -q -m "change $2") \
		2>commit.err &&
	test_grep "drift" commit.err &&
	(cd work && git commit -q --no-verify -m "change $2" &&
		test_must_fail git push -q origin HEAD:refs/heads/main) \
		2>push.err &&
	test_grep "drift" push.err &&
	(cd work && git reset -q --hard HEAD^)
}

test_expect_success 'a double quote in the name' '
	one "a\"b.yml" quote
'

test_expect_success 'a backslash in the name' '
	one "a\\\\b.yml" backslash
'

test_expect_success 'a tab in the name' '
	one "$(printf "a\tb.yml")" tab
'

test_expect_success 'a carriage return in the name' '
	one "$(printf "a\rb.yml")" cr
'

test_expect_success 'a newline in the name' '
	one "$(printf "a\nb.yml")" newline
'

test_done
