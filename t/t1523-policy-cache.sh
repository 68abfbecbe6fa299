#!/bin/sh

test_description='policy: cache: false in .ahd-replay.yml

The team'"'"'s file can turn the content cache off (only off); git config
ahd-replay.cache overrides it per clone and --no-cache still turns it
off; config show says where the value comes from.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

store=repo/.git/ahd-replay/cache/store

test_expect_success 'setup: a repository with a report, the file saying cache: false' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >repo/package.json &&
	printf "id: x\ncolor: {ink: \"#111111\"}\n" >repo/tokens/x.yml &&
	(cd repo && write_sidecar docs/a.replay.json tokens/x.yml) &&
	printf "version: 1\npolicy:\n  cache: false\n" >repo/.ahd-replay.yml &&
	git -C repo add -A &&
	test_tick && git -C repo commit -q -m report &&
	(cd repo && ahd-replay config check)
'

test_expect_success 'cache: false: verify keeps no store' '
	(cd repo && ahd-replay verify >../out) &&
	grep "^verdict: replay inputs intact" out &&
	test_path_is_missing "$store"
'

test_expect_success 'config show: the value and the line that sets it' '
	(cd repo && ahd-replay config show >../show) &&
	grep -x "file:.ahd-replay.yml:3	ahd-replay.cache=false" show
'

test_expect_success 'git config ahd-replay.cache=true overrides the file' '
	git -C repo config ahd-replay.cache true &&
	(cd repo && ahd-replay verify >/dev/null && ahd-replay config show >../show) &&
	test_path_is_file "$store" &&
	grep -x "git config	ahd-replay.cache=true" show
'

test_expect_success '--no-cache still turns it off' '
	rm -r repo/.git/ahd-replay &&
	(cd repo && ahd-replay verify --no-cache >/dev/null) &&
	test_path_is_missing "$store"
'

test_expect_success 'without the key the cache is on, as before' '
	git -C repo config --unset ahd-replay.cache &&
	printf "version: 1\n" >repo/.ahd-replay.yml &&
	(cd repo && ahd-replay verify >/dev/null) &&
	test_path_is_file "$store"
'

test_expect_success 'cache wants true or false' '
	printf "version: 1\npolicy:\n  cache: sometimes\n" >repo/.ahd-replay.yml &&
	(cd repo && test_expect_code 1 ahd-replay config check 2>../err) &&
	grep ".ahd-replay.yml:3:10: .cache. wants true or false" err
'

test_done
