#!/bin/sh

test_description='diff: two sidecars compared under the field stability table

Seed 003 and the "what changes between runs" table of seed 000: stable
fields (kind, token and brief paths after re-rooting and their hashes,
ahd_commit, ahd_version, sampling, model ids and providers, conditions)
must be equal, exit 1 otherwise; volatile fields (invoked_at, argv,
node_version, platform, git_dirty, provider_request_ids, unknown fields)
are shown only with --all.  --at compares one report across two commits.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a repository with a token, a brief and a sidecar' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "name: x\nsize: 12\n" >repo/tokens/x.yml &&
	printf "name: y\n" >repo/tokens/y.yml &&
	printf "# Brief\n\nA page.\n" >repo/briefs/b.md &&
	(
		cd repo &&
		write_sidecar docs/a.replay.json tokens/x.yml briefs/b.md &&
		git add . && git commit -q -m initial
	)
'

test_expect_success 'a sidecar against itself: stable fields match, exit 0' '
	echo "stable fields match" >expect &&
	(cd repo && ahd-replay diff docs/a.replay.json docs/a.replay.json) \
		>actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'reports name their sidecars' '
	(cd repo && ahd-replay diff docs/a.md docs/a) >actual &&
	test_cmp expect actual
'

test_expect_success 'volatile fields that differ do not fail the diff' '
	(
		cd repo &&
		sed -e "s/2026-08-03T09:57:42.291Z/2026-09-01T00:00:00.000Z/" \
		    -e "s/linux-x64/darwin-arm64/" -e "s/v22.3.0/v20.1.0/" \
		    -e "s/\"git_dirty\": false/\"git_dirty\": true/" \
		    -e "s/req_2/req_9/" -e "s/\"swiss\"/\"bauhaus\"/" \
			docs/a.replay.json >docs/rerun.replay.json &&
		ahd-replay diff docs/a.md docs/rerun.md
	) >actual &&
	test_cmp expect actual
'

test_expect_success '--all lists the volatile fields that differ' '
	cat >expect <<-\EOF &&
	stable fields match
	6 volatile fields differ
	  field                           docs/a.md                            docs/rerun.md
	  git_dirty                       false                                true
	  node_version                    v22.3.0                              v20.1.0
	  platform                        linux-x64                            darwin-arm64
	  invoked_at                      2026-08-03T09:57:42.291Z             2026-09-01T00:00:00.000Z
	  argv                            ["ahd", "eval", "--token", "swiss"]  ["ahd", "eval", "--token", "bauhaus"]
	  models[0].provider_request_ids  ["req_1", "req_2"]                   ["req_1", "req_9"]
	EOF
	(cd repo && ahd-replay diff --all docs/a.md docs/rerun.md) >actual &&
	test_cmp expect actual
'

test_expect_success 'each stable field that differs is a line, and exit 1' '
	(
		cd repo &&
		write_sidecar --kind=critique --version=0.12.0 \
			--commit=1111111111111111111111111111111111111111 \
			--sampling="{\"n\": 5, \"temperature\": 0.2, \"seed\": 7}" \
			--models="[{\"id\": \"claude-y\", \"provider\": \"bedrock\", \"provider_request_ids\": []}]" \
			--conditions="{\"requested\": [\"raw\"], \"effective\": []}" \
			docs/other.replay.json tokens/y.yml
	) &&
	(cd repo && test_expect_code 1 ahd-replay diff docs/a.md docs/other.md) \
		>actual 2>err &&
	test_must_be_empty err &&
	head -n 1 actual >first &&
	echo "14 stable fields differ" >expect &&
	test_cmp expect first &&
	for f in kind ahd_version ahd_commit token.path token.hash brief.path \
		brief.hash sampling.n sampling.temperature sampling.seed \
		"models\[0\]\.id" "models\[0\]\.provider" conditions.requested \
		conditions.effective
	do
		test_grep "^  $f  " actual || return 1
	done &&
	test_grep "^  sampling.temperature  *0.7  *0.2$" actual &&
	test_grep "^  brief.path  *briefs/b.md  *null$" actual &&
	test_grep "^  conditions.effective  *\[\"raw\", \"compiled\"\]  *\[\]$" actual &&
	test_grep ! provider_request_ids actual
'

test_expect_success 'a model more on one side differs by its id and provider' '
	(
		cd repo &&
		write_sidecar --models="[{\"id\": \"claude-x\", \"provider\": \"anthropic\", \"provider_request_ids\": [\"req_1\", \"req_2\"]}, {\"id\": \"gpt\", \"provider\": \"openai\", \"provider_request_ids\": []}]" \
			docs/two.replay.json tokens/x.yml briefs/b.md &&
		test_expect_code 1 ahd-replay diff docs/a.md docs/two.md
	) >actual &&
	cat >expect <<-\EOF &&
	2 stable fields differ
	  field               docs/a.md  docs/two.md
	  models[1].id        (absent)   gpt
	  models[1].provider  (absent)   openai
	EOF
	test_cmp expect actual
'

test_expect_success 'a CI path matches its checkout path after re-rooting, with a note' '
	(
		cd repo &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/x.yml \
			docs/ci.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay diff docs/a.md docs/ci.md
	) >actual &&
	cat >expect <<-\EOF &&
	stable fields match
	note: docs/ci.md: token.path /home/runner/work/ahd/ahd/tokens/x.yml re-rooted to tokens/x.yml
	EOF
	test_cmp expect actual
'

test_expect_success '--root: sidecars kept outside the checkout re-root against it' '
	mkdir side &&
	(
		cd repo &&
		write_sidecar ../side/a.replay.json tokens/x.yml briefs/b.md &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/x.yml \
			../side/ci.replay.json tokens/x.yml briefs/b.md
	) &&
	test_expect_code 1 ahd-replay diff side/a.replay.json side/ci.replay.json >actual &&
	test_grep "^1 stable field differs$" actual &&
	ahd-replay diff --root=repo side/a.replay.json side/ci.replay.json >actual &&
	cat >expect <<-\EOF &&
	stable fields match
	note: side/ci.replay.json: token.path /home/runner/work/ahd/ahd/tokens/x.yml re-rooted to tokens/x.yml
	EOF
	test_cmp expect actual
'

test_expect_success 'a CI path to another file still differs' '
	(
		cd repo &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/y.yml \
			--token-hash="$(grep -o "sha256:[0-9a-f]*" docs/a.replay.json | head -n 1)" \
			docs/ci-y.replay.json tokens/x.yml briefs/b.md &&
		test_expect_code 1 ahd-replay diff docs/a.md docs/ci-y.md
	) >actual &&
	test_grep "^1 stable field differs$" actual &&
	test_grep "^  token.path  *tokens/x.yml  */home/runner/work/ahd/ahd/tokens/y.yml$" actual
'

test_expect_success 'unknown fields are volatile: shown with --all only' '
	(
		cd repo &&
		write_sidecar --extra="
  \"backfilled\": true,
  \"cost\": {\"usd\": 1.5}," docs/extra.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay diff docs/a.md docs/extra.md >../plain &&
		ahd-replay diff --all docs/a.md docs/extra.md
	) >actual &&
	echo "stable fields match" >expect &&
	test_cmp expect plain &&
	test_grep "^2 volatile fields differ$" actual &&
	test_grep "^  backfilled  *(absent)  *true$" actual &&
	test_grep "^  cost  *(absent)  *{\"usd\": 1.5}$" actual
'

test_expect_success '--all lists fields in sidecar order, unknown ones last' '
	(
		cd repo &&
		write_sidecar --dirty=true --extra="
  \"audit\": 1,
  \"backfilled\": true," docs/order.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay diff --all docs/a.md docs/order.md
	) >actual &&
	sed -n "s/^  \([a-z_]*\) .*/\1/p" actual >fields &&
	printf "%s\n" field git_dirty backfilled audit >expect &&
	test_cmp expect fields
'

test_expect_success '--format=json: differences with both values, exit status' '
	(
		cd repo &&
		test_expect_code 1 ahd-replay diff --format=json docs/a.md docs/two.md
	) >actual &&
	cat >expect <<-\EOF &&
	{
	  "version": 1,
	  "a": "docs/a.md",
	  "b": "docs/two.md",
	  "stable_fields_match": false,
	  "stable_differences": 2,
	  "volatile_differences": 1,
	  "differences": [
	    {
	      "field": "models[1].id",
	      "stable": true,
	      "b": "gpt"
	    },
	    {
	      "field": "models[1].provider",
	      "stable": true,
	      "b": "openai"
	    }
	  ],
	  "notes": [],
	  "exit_status": 1
	}
	EOF
	test_cmp expect actual
'

test_expect_success '--format=json --all includes volatile differences' '
	(
		cd repo &&
		ahd-replay diff --format=json --all docs/a.md docs/rerun.md
	) >actual &&
	test_grep "^  \"stable_fields_match\": true,$" actual &&
	test_grep "^      \"field\": \"invoked_at\",$" actual &&
	test_grep "^      \"stable\": false,$" actual &&
	test_grep "^  \"exit_status\": 0$" actual
'

test_expect_success '--at compares a report across two commits' '
	(
		cd repo &&
		write_sidecar --sampling="{\"n\": 9, \"temperature\": 0.7, \"seed\": null}" \
			docs/a.replay.json tokens/x.yml briefs/b.md &&
		git commit -q -a -m "more samples" &&
		ahd-replay diff --at HEAD HEAD docs/a.md >../same &&
		test_expect_code 1 ahd-replay diff --at HEAD~1 HEAD docs/a.md
	) >actual &&
	echo "stable fields match" >expect &&
	test_cmp expect same &&
	cat >expect <<-\EOF &&
	1 stable field differs
	  field       HEAD~1:docs/a.replay.json  HEAD:docs/a.replay.json
	  sampling.n  3                          9
	EOF
	test_cmp expect actual
'

test_expect_success '--at reads the commits, not the work tree' '
	(
		cd repo &&
		write_sidecar --kind=critique docs/a.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay diff --at HEAD HEAD docs/a.md &&
		git checkout -q docs/a.replay.json
	) >actual &&
	echo "stable fields match" >expect &&
	test_cmp expect actual
'

test_expect_success '--at from a subdirectory finds the sidecar in the tree' '
	(cd repo/docs && test_expect_code 1 ahd-replay diff --at HEAD~1 HEAD a.md) \
		>actual &&
	test_grep "^  field  *HEAD~1:docs/a.replay.json  *HEAD:docs/a.replay.json$" actual
'

test_expect_success 'errors exit 2 with one line each' '
	(cd repo && test_expect_code 2 ahd-replay diff docs/a.md docs/none.md) \
		>out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	test_grep "docs/none.replay.json: " err &&
	printf "{\n" >repo/docs/bad.replay.json &&
	(cd repo && test_expect_code 2 ahd-replay diff docs/bad.md docs/none.md) \
		>out 2>err &&
	test_must_be_empty out &&
	test_line_count = 2 err &&
	test_grep "docs/bad.replay.json: invalid JSON" err &&
	(cd repo && test_expect_code 2 ahd-replay diff --at HEAD nope docs/a.md) \
		>out 2>err &&
	test_must_be_empty out &&
	test_grep "cannot resolve .nope. to a commit" err &&
	(cd repo && test_expect_code 2 ahd-replay diff --at HEAD~1 HEAD docs/rerun.md) \
		>out 2>err &&
	test_grep "HEAD~1:docs/rerun.replay.json: no replay sidecar at that commit" err
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 ahd-replay diff 2>err &&
	test_grep "^usage: ahd-replay diff" err &&
	test_expect_code 2 ahd-replay diff a b c 2>err &&
	test_expect_code 2 ahd-replay diff --at HEAD a.md 2>err &&
	test_grep "wants <rev1> <rev2> <report>" err &&
	test_expect_code 2 ahd-replay diff --format=github a b 2>err &&
	test_grep "unknown --format" err &&
	ahd-replay diff -h >out &&
	test_grep "^usage: ahd-replay diff" out
'

test_expect_success GROFF 'the man page synopsis matches -h' '
	groff -man -Tascii -rLL=300n -P-cbou \
		"$TEST_SRC_DIR/doc/ahd-replay-diff.1" >man.raw 2>man.err &&
	test_must_be_empty man.err &&
	tr -s " \n" "  " <man.raw >man.txt &&
	ahd-replay diff -h >usage &&
	sed -n -e "1s/^usage: //p" -e "2s/^   or: //p" usage >want &&
	test_line_count = 2 want &&
	while read -r line
	do
		grep -F -e "$line" man.txt >/dev/null || {
			echo "not in the man page: $line"
			return 1
		}
	done <want
'

test_done
