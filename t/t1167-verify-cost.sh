#!/bin/sh

test_description='verify: what one sidecar can cost

A sidecar arrives with a pull request.  A recorded path of 400 KB is
re-rooted (verify, diff) in time linear in its length (t/unit/t-inputpath
counts the suffixes tried; here the answer, under a generous timeout), and
a markdown brief is hashed raw streaming: verified under a virtual memory
limit smaller than the brief, which a whole read of it cannot meet.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# The binary runs under a virtual memory limit: not under ASan, whose
# shadow memory needs terabytes of address space.
test_lazy_prereq ULIMIT_V '
	(ulimit -v 131072 && ahd-replay hash --raw "$TEST_SRC_DIR/README.md") >/dev/null
'
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

test_expect_success 'with --at, a file nested deeper than a checkout can write is not there' '
	cat >deep.awk <<-\EOF &&
	BEGIN {
		d = ""
		for (i = 0; i < 2100; i++)
			d = d "a/"
		print "commit refs/heads/main"
		print "committer C <c@example.com> 1700000000 +0000"
		print "data 4"
		print "deep"
		print "M 100644 inline " d "x.yml"
		print "data 5"
		print "a: 1"
		print ""
	}
	EOF
	git init -q deep &&
	awk -f deep.awk </dev/null | git -C deep fast-import --quiet &&
	long=$(awk "BEGIN { for (i = 0; i < 2100; i++) printf \"a/\"; print \"x.yml\" }") &&
	git -C deep cat-file -e "main:$long" &&
	printf "a: 1\n" >a1.yml &&
	mkdir deep/docs &&
	(cd deep && write_sidecar --token-path="$long" \
		--token-hash="$(hash_of ../a1.yml)" docs/deep.replay.json x) &&
	(cd deep && test_expect_code 1 ahd-replay verify --no-attribution \
		--at=main docs/deep.replay.json) >actual &&
	test_grep "^  FAIL  token: token file not found at " actual
'

test_expect_success ULIMIT_V,SHA256SUM 'a markdown brief larger than the memory limit is hashed streaming' '
	truncate -s 200M repo/briefs/big.md &&
	test_when_finished "rm -f repo/briefs/big.md" &&
	big=$(test_sha256 repo/briefs/big.md) &&
	(cd repo && write_sidecar --brief-hash="sha256:$big" \
		docs/big.replay.json tokens/x.yml briefs/big.md) &&
	(cd repo && ulimit -v 131072 &&
	 ahd-replay verify docs/big.replay.json) >actual &&
	test_grep "^  ok    brief hash matches$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success ULIMIT_V 'a brief over the structured limit whose raw hash differs: not read for the fallback, and says so' '
	truncate -s 100M repo/briefs/big.md &&
	test_when_finished "rm -f repo/briefs/big.md" &&
	(cd repo && write_sidecar --brief-hash="sha256:$(printf "%064d" 0)" \
		docs/big2.replay.json tokens/x.yml briefs/big.md) &&
	(cd repo && ulimit -v 65536 &&
	 test_expect_code 2 ahd-replay verify docs/big2.replay.json) >actual &&
	test_grep "^  FAIL  brief: the brief.s raw hash does not match, and its structured hash is not computed: the brief at .*/briefs/big.md is larger than the limit of 64 MiB for structured inputs$" actual &&
	test_grep "^verdict: could not verify$" actual
'

test_done
