#!/bin/sh

test_description='verify: what one sidecar can cost

A sidecar arrives with a pull request.  A recorded path of 400 KB is
re-rooted (verify, diff) in time linear in its length (t/unit/t-inputpath
counts the suffixes tried; here the answer, under a generous timeout).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq TIMEOUT '
	timeout 5 true
'

test_expect_success 'setup: a root with a token and a brief' '
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >repo/package.json &&
	printf "id: x\ncolor: {ink: \"#111111\"}\n" >repo/tokens/x.yml &&
	printf "# brief\n" >repo/briefs/b.md &&
	awk "BEGIN { s = \"/\"; for (i = 0; i < 200000; i++) s = s \"a/\"; print s }" >prefix &&
	long=$(cat prefix) &&
	(cd repo && write_sidecar --token-path="${long}tokens/x.yml" \
		--brief-path="${long}briefs/b.md" \
		docs/long.replay.json tokens/x.yml briefs/b.md) &&
	cp repo/docs/long.replay.json repo/docs/copy.replay.json
'

test_expect_success TIMEOUT 'a 400 KB absolute path is re-rooted, in verify' '
	(cd repo && timeout 60 ahd-replay verify docs/long.replay.json) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep "^  ok    brief hash matches$" actual &&
	test_grep "^  note: token path re-rooted: /a/a/.* -> tokens/x.yml$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success TIMEOUT 'and in diff' '
	(cd repo && timeout 60 ahd-replay diff docs/long.replay.json docs/copy.replay.json) >actual &&
	test_grep "^stable fields match$" actual
'

test_expect_success TIMEOUT 'and with --at, in the commit'"'"'s tree' '
	git -C repo init -q &&
	git -C repo add -A &&
	test_tick && git -C repo commit -q -m inputs &&
	(cd repo && timeout 60 ahd-replay verify --at=HEAD docs/long.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_done
