#!/bin/sh

test_description='log verify --canonicalize rewrites only beneath the root

A log committed as a symlink out of the repository (to an
authorized_keys, say) must not be rewritten through the link: the
rewrite is held to the root as every write is.  A link inside the root
is still followed.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

test_expect_success 'setup' '
	git init -q proj &&
	mkdir -p proj/logs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >proj/package.json &&
	printf "{\"a\": 1}\n" >outside.jsonl &&
	cp outside.jsonl outside.orig &&
	ln -s ../../outside.jsonl proj/logs/out.jsonl &&
	printf "{\"a\": 1}\n" >proj/logs/real.jsonl &&
	ln -s real.jsonl proj/logs/in.jsonl
'

test_expect_success 'a log symlink out of the root: refused, the file outside kept' '
	(cd proj && test_expect_code 2 ahd-replay log verify -q \
		--canonicalize logs/out.jsonl) 2>err &&
	test_cmp outside.orig outside.jsonl &&
	test_grep "leads out of the root" err
'

test_done
