#!/bin/sh

test_description='verify --format=github: annotations where the reviewer looks

GitHub shows an annotation inline only on a file the pull request
changed.  When --changed-since knows the change and a drifted input is
part of it, the annotation is on that input: at the line of the first
key --explain finds changed (a token, a structured brief), or the first
changed line (a markdown brief), else line 1.  An input the change did
not touch keeps the annotation on the report or its sidecar.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: reports pin a token and a brief on main; a branch changes both' '
	git init -q -b main repo &&
	(
		cd repo &&
		mkdir -p tokens briefs docs/evals &&
		echo "{ \"name\": \"ahd\", \"version\": \"0.11.0\" }" >package.json &&
		cat >tokens/swiss.yml <<-\EOF &&
		name: swiss
		palette:
		  primary: red
		  secondary: white
		grid: 12
		EOF
		printf "# Brief\n\nline one\nline two\nline three\n" >briefs/b.md &&
		printf "name: other\n" >tokens/other.yml &&
		echo "# a" >docs/evals/a.md &&
		write_sidecar docs/evals/a.replay.json tokens/swiss.yml briefs/b.md &&
		echo "# o" >docs/evals/o.md &&
		write_sidecar docs/evals/o.replay.json tokens/other.yml &&
		git add -A && test_tick && git commit -q -m base &&
		git checkout -q -b feature &&
		sed "s/secondary: white/secondary: cream/" tokens/swiss.yml >t &&
		mv t tokens/swiss.yml &&
		printf "# Brief\n\nline one\nline 2\nline three\n" >briefs/b.md &&
		git add -A && test_tick && git commit -q -m "feature: inputs"
	)
'

test_expect_success 'a changed input is annotated at its first changed key and line' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=github \
		--changed-since=main --explain >../out) &&
	test_grep "^::error file=tokens/swiss.yml,line=4,title=replay token drift::" out &&
	test_grep "^::error file=briefs/b.md,line=4,title=replay brief drift::" out
'

test_expect_success 'without --explain: the changed input, at line 1' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=github \
		--changed-since=main >../out) &&
	test_grep "^::error file=tokens/swiss.yml,line=1,title=replay token drift::" out &&
	test_grep "^::error file=briefs/b.md,line=1,title=replay brief drift::" out
'

test_expect_success 'without --changed-since the change is unknown: the sidecar' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=github \
		--explain docs/evals/a.md >../out) &&
	test_grep "^::error file=docs/evals/a.replay.json,line=[0-9]*,title=replay token drift::" out &&
	test_grep ! "file=tokens/" out
'

test_expect_success 'an input the change did not touch: the sidecar the change did' '
	(
		cd repo &&
		git checkout -q main &&
		git checkout -q -b repin &&
		echo "drift: 1" >>tokens/other.yml &&
		git add -A && test_tick && git commit -q -m "other drifts" &&
		git checkout -q -b pr &&
		sed "s/\"ahd_version\": \"0.11.0\"/\"ahd_version\": \"0.11.1\"/" \
			docs/evals/o.replay.json >s &&
		mv s docs/evals/o.replay.json &&
		git add -A && test_tick && git commit -q -m "touch the sidecar" &&
		test_expect_code 1 ahd-replay verify --format=github \
			--changed-since=repin --explain >../out
	) &&
	test_grep "^::error file=docs/evals/o.replay.json,line=[0-9]*,title=replay token drift::" out &&
	test_grep ! "file=tokens/" out
'

test_expect_success 'from a subdirectory, the input path is as the report path is' '
	(
		cd repo &&
		git checkout -q feature &&
		cd docs &&
		test_expect_code 1 ahd-replay verify --format=github \
			--changed-since=main --explain evals/a.md >../../out
	) &&
	test_grep "^::error file=../tokens/swiss.yml,line=4," out
'

test_done
