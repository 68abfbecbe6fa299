#!/bin/sh

test_description='coverage is never lost without a word

A report that carries its ahd-replay block but has no sidecar is a
missing-sidecar verdict in verify --all and is refused by the
pre-commit hook; a verify that finds no report at all is an error in
every format unless --allow-empty.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: two reports with their blocks and sidecars' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "color: red\n" >repo/tokens/t.yml &&
	(
		cd repo &&
		write_sidecar docs/a.replay.json tokens/t.yml &&
		write_sidecar docs/b.replay.json tokens/t.yml &&
		for r in a b
		do
			{
				echo "# $r" && echo &&
				ahd-replay render docs/$r.replay.json && echo
			} >docs/$r.md || return 1
		done &&
		echo "# notes, no block" >docs/notes.md &&
		git add . && git commit -q -m reports
	) &&
	(cd repo && ahd-replay verify --all) >out &&
	test_grep "^2 reports: 2 intact" out
'

test_expect_success 'a removed sidecar whose report keeps its block is missing-sidecar' '
	mv repo/docs/b.replay.json b.saved &&
	test_when_finished "mv b.saved repo/docs/b.replay.json" &&
	(cd repo && test_expect_code 1 ahd-replay verify --all) >out &&
	test_grep "no replay sidecar for docs/b.md, which carries an ahd-replay block" out &&
	test_grep "^2 reports: 1 intact, 0 drifted, 0 errors, 1 missing sidecars" out &&
	test_grep ! "notes.md" out &&
	(cd repo && test_expect_code 1 ahd-replay verify --all --format=json) >out &&
	test_grep "\"missing-sidecar\"" out
'

test_expect_success 'the pre-commit hook refuses git rm of such a sidecar' '
	(cd repo && ahd-replay install-hooks >/dev/null) &&
	git -C repo rm -q docs/b.replay.json &&
	test_when_finished "git -C repo reset -q --hard" &&
	test_must_fail git -C repo commit -q -m "drop the sidecar" 2>err &&
	test_grep "docs/b.md.*: missing sidecar: .*docs/b.replay.json.* is removed" err &&
	git -C repo rm -q docs/b.md &&
	git -C repo commit -q -m "drop the report and its sidecar" &&
	git -C repo reset -q --hard HEAD~1
'

test_expect_success 'no report at all is an error in every format' '
	git init -q empty &&
	echo "# readme" >empty/README.md &&
	for f in text json github sarif junit
	do
		(cd empty && test_expect_code 2 ahd-replay verify --all \
			--format=$f) >out.$f 2>err.$f || return 1
	done &&
	test_grep "no reports found to verify" err.text &&
	test_grep "no reports found to verify" out.json &&
	test_grep "\"exit_status\": 2" out.json &&
	test_grep "^::error .*no reports found" out.github &&
	test_grep "no-reports" out.sarif &&
	test_grep "<error type=\"no-reports\"" out.junit
'

test_expect_success '--allow-empty accepts an empty run' '
	(cd empty && ahd-replay verify --all --allow-empty) >out 2>err &&
	test_grep "^0 reports: 0 intact" out &&
	test_grep "no replay sidecars found" err &&
	(cd empty && ahd-replay verify --all --allow-empty --format=json) >out &&
	test_grep "\"exit_status\": 0" out
'

test_done
