#!/bin/sh

test_description='verify --format=json|github, the markdown block, render, verify --at

The expected render output is built here from the rules of SPEC section 6
(shell quoting, short hashes, the install line), not taken from the
binary.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

SQ="'"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# sh_quote ARG: ARG quoted for a shell as SPEC section 6 says: '' when
# empty; bare when made only of A-Za-z0-9_./:@=,+-; otherwise in single
# quotes, each ' written as '\''.
sh_quote () {
	case $1 in
	'')
		printf "''" ;;
	*[!A-Za-z0-9_./:@=,+-]*)
		sq_=$(printf '%s.' "$1" | sed "s/'/'\\\\''/g") &&
		printf "'%s'" "${sq_%.}" ;;
	*)
		printf '%s' "$1" ;;
	esac
}

# quote_argv ARG...: the arguments quoted and joined by spaces.
quote_argv () {
	qa_sep_=
	for qa_arg_
	do
		printf '%s' "$qa_sep_" && sh_quote "$qa_arg_" || return 1
		qa_sep_=' '
	done
}

# token_hash FILE: the structured hash `ahd-replay hash` prints.
token_hash () {
	th_=$(ahd-replay hash "$1") &&
	printf '%s\n' "${th_%% *}"
}

# no_final_newline FILE: drop FILE's trailing newlines.
no_final_newline () {
	nfn_=$(cat "$1") &&
	printf '%s' "$nfn_" >"$1"
}

# json_check FILE EXPR...: FILE parses as JSON (as d) and every Python
# EXPR is true.
json_check () {
	python3 - "$@" <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	bad = [e for e in sys.argv[2:] if not eval(e)]
	for e in bad:
	    print("json_check: false: " + e, file=sys.stderr)
	sys.exit(1 if bad else 0)
	EOF
}

test_expect_success 'setup: a repository with reports' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs/evals &&
	printf "name: swiss\ngrid: 12\n" >repo/tokens/swiss.yml &&
	printf "name: drift\n" >repo/tokens/drift.yml &&
	printf "# Brief\n\nA bakery.\n" >repo/briefs/b.md &&
	(
		cd repo &&
		write_sidecar docs/evals/ok.replay.json tokens/swiss.yml briefs/b.md &&
		write_sidecar docs/evals/drift.replay.json tokens/drift.yml briefs/b.md &&
		printf "name: drifted\n" >tokens/drift.yml &&
		echo "# ok" >docs/evals/ok.md &&
		echo "# drift" >docs/evals/drift.md
	) &&
	swiss_hash=$(token_hash repo/tokens/swiss.yml) &&
	b_hash=$(hash_of --raw repo/briefs/b.md) &&
	drift_old=$(printf "name: drift\n" | hash_of -) &&
	drift_new=$(token_hash repo/tokens/drift.yml)
'

# --format=json

test_expect_success '--format=json: one document with the keys and values (grep)' '
	(cd repo && ahd-replay verify --format=json docs/evals/ok.md) >out.json 2>err &&
	test_must_be_empty err &&
	test_grep "^  \"version\": 1,$" out.json &&
	test_grep "\"report\": \"docs/evals/ok.md\"" out.json &&
	test_grep "\"sidecar\": \"docs/evals/ok.replay.json\"" out.json &&
	test_grep "\"status\": \"intact\"" out.json &&
	test_grep "\"ok\": true" out.json &&
	test_grep ! "\"ok\": false" out.json &&
	test_grep "\"expected\": \"$swiss_hash\"" out.json &&
	test_grep "\"actual\": \"$swiss_hash\"" out.json &&
	test_grep "\"reason\": null" out.json &&
	test_grep "\"intact\": 1" out.json &&
	test_grep "\"drifted\": 0" out.json &&
	test_grep "\"errors\": 0" out.json &&
	test_grep "^  \"exit_status\": 0$" out.json
'

test_expect_success PYTHON3 '--format=json: an intact report, parsed' '
	json_check out.json \
		"d[\"version\"] == 1" \
		"len(d[\"reports\"]) == 1" \
		"d[\"reports\"][0][\"status\"] == \"intact\"" \
		"d[\"reports\"][0][\"error\"] is None" \
		"d[\"reports\"][0][\"kind\"] == \"eval-live\"" \
		"d[\"reports\"][0][\"git_dirty\"] is False" \
		"[c[\"field\"] for c in d[\"reports\"][0][\"checks\"]] == [\"token\", \"brief\"]" \
		"all(c[\"ok\"] and c[\"expected\"] == c[\"actual\"] and c[\"reason\"] is None for c in d[\"reports\"][0][\"checks\"])" \
		"d[\"reports\"][0][\"checks\"][0][\"expected\"] == \"$swiss_hash\"" \
		"d[\"reports\"][0][\"checks\"][1][\"expected\"] == \"$b_hash\"" \
		"d[\"summary\"] == {\"reports\": 1, \"intact\": 1, \"drifted\": 0, \"errors\": 0, \"untrusted\": 0}" \
		"d[\"exit_status\"] == 0"
'

test_expect_success '--format=json: drift and an error; exit status in the document and the process' '
	echo "[" >repo/docs/evals/bad.replay.json &&
	(cd repo && test_expect_code 2 ahd-replay verify --format=json) >all.json 2>err &&
	test_must_be_empty err &&
	test_grep "\"status\": \"drift\"" all.json &&
	test_grep "\"status\": \"error\"" all.json &&
	test_grep "\"ok\": false" all.json &&
	test_grep "\"reason\": \"token contents have changed since the run; re-hash differs\"" all.json &&
	test_grep "\"error\": \"invalid JSON: " all.json &&
	test_grep "\"exit_status\": 2" all.json
'

test_expect_success PYTHON3 '--format=json: drift and an error, parsed' '
	json_check all.json \
		"[r[\"report\"] for r in d[\"reports\"]] == [\"docs/evals/bad.replay.json\", \"docs/evals/drift.md\", \"docs/evals/ok.md\"]" \
		"[r[\"status\"] for r in d[\"reports\"]] == [\"error\", \"drift\", \"intact\"]" \
		"d[\"reports\"][0][\"error\"].startswith(\"invalid JSON: \")" \
		"d[\"reports\"][0][\"checks\"] == []" \
		"d[\"reports\"][1][\"checks\"][0] == {\"field\": \"token\", \"ok\": False, \"error\": False, \"expected\": \"$drift_old\", \"actual\": \"$drift_new\", \"reason\": \"token contents have changed since the run; re-hash differs\", \"note\": None}" \
		"d[\"reports\"][1][\"checks\"][1][\"ok\"] is True" \
		"d[\"summary\"] == {\"reports\": 3, \"intact\": 1, \"drifted\": 1, \"errors\": 1, \"untrusted\": 0}" \
		"d[\"exit_status\"] == 2"
'

test_expect_success PYTHON3 '--format=json: drift alone is exit status 1' '
	rm repo/docs/evals/bad.replay.json &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=json) >all.json &&
	json_check all.json \
		"d[\"summary\"] == {\"reports\": 2, \"intact\": 1, \"drifted\": 1, \"errors\": 0, \"untrusted\": 0}" \
		"d[\"exit_status\"] == 1"
'

test_expect_success PYTHON3 '--format=json: a missing token has actual null and the reason' '
	(
		cd repo &&
		write_sidecar --token-hash=$swiss_hash --token-path=tokens/gone.yml \
			docs/evals/gone.replay.json tokens/swiss.yml &&
		test_expect_code 1 ahd-replay verify --format=json docs/evals/gone.replay.json
	) >gone.json &&
	json_check gone.json \
		"d[\"reports\"][0][\"status\"] == \"drift\"" \
		"d[\"reports\"][0][\"checks\"][0][\"actual\"] is None" \
		"d[\"reports\"][0][\"checks\"][0][\"reason\"] == \"token file not found at $TRASH_DIRECTORY/repo/tokens/gone.yml\"" &&
	rm repo/docs/evals/gone.replay.json
'

test_expect_success PYTHON3 '--format=json: re-rooting and unknown fields are reported' '
	(
		cd repo &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/swiss.yml \
			--extra="
  \"later\": 1," \
			docs/evals/ci.replay.json tokens/swiss.yml &&
		ahd-replay verify --format=json docs/evals/ci.replay.json
	) >ci.json &&
	json_check ci.json \
		"d[\"reports\"][0][\"status\"] == \"intact\"" \
		"d[\"reports\"][0][\"checks\"][0][\"note\"] == \"token path re-rooted: /home/runner/work/ahd/ahd/tokens/swiss.yml -> tokens/swiss.yml\"" \
		"\"later\" in d[\"reports\"][0][\"unknown_fields\"]" &&
	rm repo/docs/evals/ci.replay.json
'

test_expect_success PYTHON3 '--format=json: no sidecars is an empty list' '
	mkdir -p repo/empty &&
	(cd repo && ahd-replay verify --allow-empty --format=json empty) >empty.json &&
	json_check empty.json \
		"d[\"reports\"] == []" \
		"d[\"summary\"] == {\"reports\": 0, \"intact\": 0, \"drifted\": 0, \"errors\": 0, \"untrusted\": 0}" \
		"d[\"exit_status\"] == 0"
'

test_expect_success '--format=json ignores --quiet: still one full document' '
	(cd repo && ahd-replay verify --format=json --quiet docs/evals/ok.md) >quiet.json &&
	test_grep "\"status\": \"intact\"" quiet.json
'

# --format=github

test_expect_success '--format=github: a drifted token is one ::error annotation, in a group' '
	line=$(grep -n "\"hash\": \"$drift_old\"" repo/docs/evals/drift.replay.json | cut -d: -f1) &&
	cat >expect <<-EOF &&
	::group::docs/evals/drift.md: drifted
	verdict: drifted
	::error file=docs/evals/drift.replay.json,line=$line,title=replay token drift::token: token contents have changed since the run; re-hash differs (expected $drift_old, actual $drift_new)
	::endgroup::
	EOF
	(cd repo && test_expect_code 1 ahd-replay verify --format=github docs/evals/drift.md) \
		>actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success '--format=github: an intact report is a group without annotations; --quiet leaves it out' '
	cat >expect <<-EOF &&
	::group::docs/evals/ok.md: intact
	verdict: intact
	::endgroup::
	EOF
	(cd repo && ahd-replay verify --format=github docs/evals/ok.md) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	(cd repo && ahd-replay verify -q --format=github docs/evals/ok.md) >actual 2>err &&
	test_must_be_empty actual &&
	test_must_be_empty err
'

test_expect_success '--format=github: every failing report, then a summary line' '
	(cd repo && test_expect_code 1 ahd-replay verify -q --format=github) >actual &&
	test_grep "^::error file=docs/evals/drift\.replay\.json,line=[1-9][0-9]*,title=replay token drift::token: " actual &&
	test_grep ! "ok\.md" actual &&
	test_grep "^2 reports: 1 intact, 1 drifted, 0 errors$" actual
'

test_expect_success '--format=github: an unusable sidecar' '
	echo "[1]" >repo/docs/evals/array.replay.json &&
	test_when_finished "rm repo/docs/evals/array.replay.json" &&
	(cd repo && test_expect_code 2 ahd-replay verify --format=github \
		docs/evals/array.replay.json) >actual 2>err &&
	test_grep "^::error file=docs/evals/array\.replay\.json,line=1,title=replay sidecar::.*must be an object" actual &&
	test_grep -c "^::error" actual >count &&
	echo 1 >one && test_cmp one count &&
	test_must_be_empty err
'

test_expect_success '--format=github: a containment refusal is unverifiable, not drift' '
	(
		cd repo &&
		write_sidecar --token-hash=$swiss_hash --token-path=../x.yml \
			docs/evals/escape.replay.json tokens/swiss.yml &&
		test_expect_code 2 ahd-replay verify --format=github docs/evals/escape.replay.json
	) >actual &&
	test_grep "^::error file=docs/evals/escape\.replay\.json,line=13,title=replay token unverifiable::token: token path \.\./x\.yml is outside the root" actual &&
	rm repo/docs/evals/escape.replay.json
'

test_expect_success '--format=github: properties and messages are escaped' '
	(
		cd repo &&
		write_sidecar --token-hash=$swiss_hash \
			--token-path="tokens/100%\\nx.yml" \
			"docs/evals/a:b,c.replay.json" tokens/swiss.yml &&
		test_expect_code 1 ahd-replay verify --format=github "docs/evals/a:b,c.replay.json"
	) >actual &&
	test_grep -c "^::error" actual >count &&
	echo 1 >one && test_cmp one count &&
	test_grep "^::group::docs/evals/a:b,c\.replay\.json: drifted$" actual &&
	test_grep "^::error file=docs/evals/a%3Ab%2Cc\.replay\.json,line=13,title=replay token drift::token: token file not found at $TRASH_DIRECTORY/repo/tokens/100%25%0Ax\.yml (expected $swiss_hash, actual none)$" actual &&
	rm "repo/docs/evals/a:b,c.replay.json"
'

# The markdown block (SPEC section 6: verify's additions)

test_expect_success 'setup: a report carrying exactly what render prints' '
	(
		cd repo &&
		write_sidecar docs/evals/block.replay.json tokens/swiss.yml briefs/b.md &&
		{
			printf "# Weekly eval\n\n" &&
			ahd-replay render docs/evals/block.replay.json &&
			printf "\n\n## Results\n\nAll good.\n"
		} >docs/evals/block.md
	) &&
	test_grep "^\`\`\`yaml ahd-replay$" repo/docs/evals/block.md
'

test_expect_success 'a report whose block is what render prints passes silently' '
	(cd repo && ahd-replay verify docs/evals/block.md) >actual 2>err &&
	(cd repo && ahd-replay verify docs/evals/ok.md) >plain &&
	sed "s/block/ok/g" actual >actual.ok &&
	test_cmp plain actual.ok &&
	test_grep ! "warning" actual &&
	test_must_be_empty err
'

test_expect_success 'a hand-edited block: a warning naming the line, not drift (exit 0)' '
	sed "s/^  n: 3$/  n: 30/" repo/docs/evals/block.md >edited &&
	mv edited repo/docs/evals/block.md &&
	line=$(grep -n "^  n: 30$" repo/docs/evals/block.md | cut -d: -f1) &&
	test -n "$line" &&
	cat >expect <<-EOF &&
	ahd verify-replay · docs/evals/block.md
	replay: docs/evals/block.replay.json
	  kind: eval-live
	  ahd_version: 0.11.0
	  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db
	  invoked_at: 2026-08-03T09:57:42.291Z

	  ok    token hash matches
	  ok    brief hash matches

	  warning: the replay block in docs/evals/block.md differs from the sidecar at line $line: it has ${SQ}  n: 30${SQ}, the sidecar renders ${SQ}  n: 3${SQ} (the JSON is authoritative)

	verdict: replay inputs intact
	EOF
	(cd repo && ahd-replay verify docs/evals/block.md) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'the block is checked when the sidecar is the operand too' '
	(cd repo && ahd-replay verify docs/evals/block.replay.json) >actual &&
	test_grep "^  warning: the replay block in docs/evals/block\.md differs from the sidecar at line $line: " actual
'

test_expect_success 'the warning in the json and github formats' '
	(cd repo && ahd-replay verify --format=github docs/evals/block.md) >actual &&
	test_grep "^::warning file=docs/evals/block\.md,line=$line,title=replay block::the replay block in docs/evals/block\.md differs from the sidecar at line $line: " actual &&
	(cd repo && ahd-replay verify --format=json docs/evals/block.md) >block.json &&
	test_grep "\"markdown_warning\": \"the replay block in docs/evals/block.md differs from the sidecar at line $line: " block.json &&
	test_grep "\"exit_status\": 0" block.json
'

test_expect_success 'a block edited in the replay command: the line of the command' '
	(
		cd repo &&
		{
			printf "# Weekly eval\n\n" &&
			ahd-replay render docs/evals/block.replay.json &&
			printf "\n"
		} | sed "s/^ahd eval --token swiss$/ahd eval --token swiss --n 5/" \
			>docs/evals/block.md
	) &&
	line=$(grep -n "^ahd eval --token swiss --n 5$" repo/docs/evals/block.md | cut -d: -f1) &&
	test -n "$line" &&
	(cd repo && ahd-replay verify docs/evals/block.md) >actual &&
	test_grep "^  warning: the replay block in docs/evals/block\.md differs from the sidecar at line $line: it has ${SQ}ahd eval --token swiss --n 5${SQ}, the sidecar renders ${SQ}ahd eval --token swiss${SQ} " actual
'

test_expect_success 'a block from an older sidecar (the hash changed): warning, and the drift' '
	(
		cd repo &&
		write_sidecar docs/evals/block.replay.json tokens/swiss.yml briefs/b.md &&
		{
			printf "# Weekly eval\n\n" &&
			ahd-replay render docs/evals/block.replay.json &&
			printf "\n"
		} >docs/evals/block.md &&
		printf "name: swiss\ngrid: 16\n" >tokens/swiss.yml &&
		write_sidecar docs/evals/block.replay.json tokens/swiss.yml briefs/b.md &&
		printf "name: swiss\ngrid: 12\n" >tokens/swiss.yml &&
		test_expect_code 1 ahd-replay verify docs/evals/block.md
	) >actual &&
	line=$(grep -n "^  hash: $(short "$swiss_hash")$" repo/docs/evals/block.md | cut -d: -f1) &&
	test -n "$line" &&
	test_grep "^  FAIL  token: token contents have changed" actual &&
	test_grep "^  warning: the replay block in docs/evals/block\.md differs from the sidecar at line $line: " actual &&
	(cd repo && write_sidecar docs/evals/block.replay.json tokens/swiss.yml briefs/b.md)
'

test_expect_success 'a report without a block: no warning' '
	(cd repo && ahd-replay verify docs/evals/ok.md) >actual &&
	test_grep ! "warning" actual
'

# A block whose ```sh part was deleted is not what render prints.
test_expect_success 'a block without its replay command: a warning' '
	(
		cd repo &&
		{
			printf "# Weekly eval\n\n" &&
			ahd-replay render docs/evals/block.replay.json \
				>../rendered &&
			sed "/^Replay this run:/,\$d" ../rendered &&
			printf "## Results\n"
		} >docs/evals/block.md &&
		ahd-replay verify docs/evals/block.md
	) >actual &&
	test_grep "^  warning: the replay block in docs/evals/block\.md differs from the sidecar at line " actual
'

# render (SPEC section 6), byte for byte

test_expect_success 'setup: sidecars to render' '
	(
		cd repo &&
		write_sidecar --dirty=true \
			--argv="[\"node\", \"dist/cli.js\", \"eval\", \"--token=swiss\", \"\", \"briefs/landing page.md\", \"it${SQ}s\", \"\$HOME\", \"a,b+c@d:e/f.g_h-i=j\", \"caf\\u00e9\", \"*.yml\", \"tab\\there\", \"x;y\", \"${SQ}${SQ}\", \"~\", \"%\"]" \
			--sampling="{\"n\": 30, \"temperature\": 0.7, \"seed\": 42}" \
			--models="[{\"id\": \"claude-x\", \"provider\": \"anthropic\", \"provider_request_ids\": [\"a\", \"b\", \"c\"]}, {\"id\": \"gpt-y\", \"provider\": \"openai\", \"provider_request_ids\": []}]" \
			--conditions="{\"requested\": [\"raw\", \"compiled\", \"critic\"], \"effective\": [\"raw\"]}" \
			docs/evals/full.replay.json tokens/swiss.yml briefs/b.md &&
		write_sidecar --commit=null --dirty=null --kind=critique --version=0.9.1 \
			--argv="[]" \
			--sampling="{\"n\": 1, \"temperature\": null, \"seed\": null}" \
			--models="[]" \
			--conditions="{\"requested\": [], \"effective\": []}" \
			docs/evals/bare.replay.json tokens/swiss.yml
	)
'

test_expect_success 'render: commit, dirty, brief, two models, quoted argv' '
	{
		cat <<-EOF &&
		\`\`\`yaml ahd-replay
		schema_version: 1
		kind: eval-live
		ahd_version: 0.11.0
		ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db
		git_dirty: true
		node_version: v22.3.0
		platform: linux-x64
		invoked_at: 2026-08-03T09:57:42.291Z
		token:
		  path: tokens/swiss.yml
		  hash: $(short "$swiss_hash")
		brief:
		  path: briefs/b.md
		  hash: $(short "$b_hash")
		sampling:
		  n: 30
		  temperature: 0.7
		  seed: 42
		models:
		  - id: claude-x
		    provider: anthropic
		    provider_request_ids: 3 captured
		  - id: gpt-y
		    provider: openai
		    provider_request_ids: 0 captured
		conditions:
		  requested: [raw, compiled, critic]
		  effective: [raw]
		\`\`\`

		Replay this run:

		\`\`\`sh
		git checkout 905b740756a1
		npm ci && npm run build
		EOF
		quote_argv node dist/cli.js eval --token=swiss "" \
			"briefs/landing page.md" "it${SQ}s" "\$HOME" \
			a,b+c@d:e/f.g_h-i=j "$(printf "caf\303\251")" "*.yml" \
			"$(printf "tab\there")" "x;y" "${SQ}${SQ}" "~" "%" &&
		printf "\n\`\`\`"
	} >expect &&
	(cd repo && ahd-replay render docs/evals/full.replay.json) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'render: the quoting of each argument, spelled out' '
	sed -n "/^node /p" actual >argv-line &&
	printf "%s\n" "node dist/cli.js eval --token=swiss ${SQ}${SQ} ${SQ}briefs/landing page.md${SQ} ${SQ}it${SQ}\\${SQ}${SQ}s${SQ} ${SQ}\$HOME${SQ} a,b+c@d:e/f.g_h-i=j ${SQ}$(printf "caf\303\251")${SQ} ${SQ}*.yml${SQ} ${SQ}$(printf "tab\there")${SQ} ${SQ}x;y${SQ} ${SQ}${SQ}\\${SQ}${SQ}${SQ}\\${SQ}${SQ}${SQ} ${SQ}~${SQ} ${SQ}%${SQ}" >expect-line &&
	test_cmp expect-line argv-line
'

test_expect_success 'render: no final newline' '
	tail -c 4 actual >last &&
	printf "\n\`\`\`" >expect-last &&
	test_cmp expect-last last
'

test_expect_success 'render: no commit, critique, no models, nulls, empty argv and conditions' '
	cat >expect <<-\EOF &&
	```yaml ahd-replay
	schema_version: 1
	kind: critique
	ahd_version: 0.9.1
	ahd_commit: null
	node_version: v22.3.0
	platform: linux-x64
	invoked_at: 2026-08-03T09:57:42.291Z
	token:
	  path: tokens/swiss.yml
	EOF
	printf "  hash: %s\n" "$(short "$swiss_hash")" >>expect &&
	cat >>expect <<-\EOF &&
	sampling:
	  n: 1
	  temperature: null
	  seed: null
	models:
	conditions:
	  requested: []
	  effective: []
	```

	Replay this run:

	```sh
	# install ahd@0.9.1

	```
	EOF
	no_final_newline expect &&
	(cd repo && ahd-replay render docs/evals/bare.replay.json) >actual &&
	test_cmp expect actual
'

test_expect_success 'render: git_dirty false prints no git_dirty line' '
	(cd repo && ahd-replay render docs/evals/ok.replay.json) >actual &&
	test_grep "^ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db$" actual &&
	test_grep ! "git_dirty" actual
'

test_expect_success 'render: numbers print as JavaScript prints them' '
	(
		cd repo &&
		write_sidecar --sampling="{\"n\": 3.0, \"temperature\": 1.0, \"seed\": 1e21}" \
			docs/evals/nums.replay.json tokens/swiss.yml &&
		ahd-replay render docs/evals/nums.replay.json
	) >actual &&
	sed -n "/^sampling:$/,/^models:$/p" actual >sampling &&
	test_write_lines "sampling:" "  n: 3" "  temperature: 1" "  seed: 1e+21" "models:" >expect &&
	test_cmp expect sampling &&
	(
		cd repo &&
		write_sidecar --sampling="{\"n\": 1, \"temperature\": 0.0000001, \"seed\": -0}" \
			docs/evals/nums.replay.json tokens/swiss.yml &&
		ahd-replay render docs/evals/nums.replay.json
	) >actual &&
	sed -n "/^sampling:$/,/^models:$/p" actual >sampling &&
	test_write_lines "sampling:" "  n: 1" "  temperature: 1e-7" "  seed: 0" "models:" >expect &&
	test_cmp expect sampling
'

test_expect_success 'render: a report path names its sidecar' '
	(cd repo && ahd-replay render docs/evals/full.replay.json) >expect &&
	(cd repo && ahd-replay render docs/evals/full.md) >actual &&
	test_cmp expect actual
'

test_expect_success 'render: a bad sidecar: exit 2, nothing on stdout' '
	echo "{" >repo/docs/evals/broken.replay.json &&
	(cd repo && test_expect_code 2 ahd-replay render docs/evals/broken.replay.json) \
		>out 2>err &&
	test_must_be_empty out &&
	test_grep "^ahd-replay: docs/evals/broken\.replay\.json: invalid JSON" err &&
	(cd repo && test_expect_code 2 ahd-replay render docs/evals/none.md) >out 2>err &&
	test_must_be_empty out &&
	test_grep "none\.replay\.json" err &&
	rm repo/docs/evals/broken.replay.json
'

test_expect_success 'render: usage errors exit 2; -h exits 0' '
	test_expect_code 2 ahd-replay render >out 2>err &&
	test_must_be_empty out &&
	test_grep "usage: ahd-replay render" err &&
	test_expect_code 2 ahd-replay render a b >out 2>err &&
	test_must_be_empty out &&
	ahd-replay render -h >out &&
	test_grep "^usage: ahd-replay render " out
'

test_expect_success 'render output pasted into a report passes verify (round trip)' '
	(
		cd repo &&
		{
			printf "# Full\n\n" &&
			ahd-replay render docs/evals/full.replay.json &&
			printf "\n"
		} >docs/evals/full.md &&
		ahd-replay verify docs/evals/full.md
	) >actual &&
	test_grep ! "warning" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

# verify --at REV

test_expect_success 'setup: a token committed twice, then edited in the work tree' '
	git init -q at &&
	mkdir -p at/tokens at/docs &&
	printf "v: 0\n" >at/tokens/t.yml &&
	(
		cd at &&
		git add . && test_tick && git commit -q -m v0 &&
		printf "v: 1\n" >tokens/t.yml &&
		write_sidecar --kind=critique docs/r.replay.json tokens/t.yml &&
		git add . && test_tick && git commit -q -m v1 &&
		printf "v: 2\n" >tokens/t.yml
	) &&
	v0=$(printf "v: 0\n" | hash_of -) &&
	v1=$(printf "v: 1\n" | hash_of -) &&
	v2=$(token_hash at/tokens/t.yml) &&
	head=$(git -C at rev-parse HEAD) &&
	prev=$(git -C at rev-parse HEAD~1)
'

test_expect_success 'plain verify reads the work tree: drift' '
	(cd at && test_expect_code 1 ahd-replay verify docs/r.replay.json) >actual &&
	test_grep "^        actual   $v2$" actual
'

test_expect_success 'verify --at HEAD reads the committed blob: intact, with a note' '
	short_head=$(printf "%s" "$head" | cut -c1-12) &&
	(cd at && ahd-replay verify --at HEAD docs/r.replay.json) >actual 2>err &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep "^  note: inputs read at commit $short_head (HEAD)$" actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	test_must_be_empty err &&
	(cd at && ahd-replay verify --at=HEAD docs/r.replay.json) >actual2 &&
	test_cmp actual actual2
'

test_expect_success 'verify --at HEAD~1 reads the older blob' '
	(cd at && test_expect_code 1 ahd-replay verify --at HEAD~1 docs/r.replay.json) >actual &&
	test_grep "^        expected $v1$" actual &&
	test_grep "^        actual   $v0$" actual
'

test_expect_success 'verify --at with a full id, a tag, a branch' '
	git -C at tag v1 HEAD &&
	(cd at && ahd-replay verify --at "$head" docs/r.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	(cd at && ahd-replay verify --at v1 docs/r.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	branch=$(git -C at symbolic-ref --short HEAD) &&
	(cd at && ahd-replay verify --at "$branch" docs/r.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	(cd at && test_expect_code 1 ahd-replay verify --at "$prev" docs/r.replay.json) >actual &&
	test_grep "^        actual   $v0$" actual
'

test_expect_success 'verify --at: the sidecar itself is read from the path given' '
	(
		cd at &&
		cp docs/r.replay.json docs/new.replay.json &&
		ahd-replay verify --at HEAD docs/new.replay.json
	) >actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	rm at/docs/new.replay.json
'

test_expect_success 'verify --at an unknown revision: exit 2' '
	(cd at && test_expect_code 2 ahd-replay verify --at no-such-rev docs/r.replay.json) \
		>actual 2>err &&
	cat actual err >all &&
	test_grep "no-such-rev" all &&
	test_grep ! "^verdict: replay inputs intact$" all
'

test_expect_success 'verify --at a revision where the token does not exist yet: not found, exit 1' '
	(
		cd at &&
		printf "w: 1\n" >tokens/new.yml &&
		git add tokens/new.yml && test_tick && git commit -q -m new &&
		write_sidecar --kind=critique docs/new.replay.json tokens/new.yml &&
		ahd-replay verify --at HEAD docs/new.replay.json &&
		test_expect_code 1 ahd-replay verify --at HEAD~1 docs/new.replay.json
	) >actual &&
	test_grep "^  FAIL  token: token file not found at " actual &&
	rm at/docs/new.replay.json
'

test_expect_success 'verify --at: a CI path is re-rooted against the commit' '
	(
		cd at &&
		write_sidecar --kind=critique --token-hash=$v1 \
			--token-path=/home/runner/work/at/at/tokens/t.yml \
			docs/ci.replay.json tokens/t.yml &&
		ahd-replay verify --at HEAD docs/ci.replay.json
	) >actual &&
	test_grep "^  note: token path re-rooted: /home/runner/work/at/at/tokens/t\.yml -> tokens/t\.yml$" actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	rm at/docs/ci.replay.json
'

test_expect_success 'verify --at: a ../ escape is still refused, exit 2' '
	(
		cd at &&
		write_sidecar --kind=critique --token-hash=$v1 --token-path=../t.yml \
			docs/esc.replay.json tokens/t.yml &&
		test_expect_code 2 ahd-replay verify --at HEAD docs/esc.replay.json
	) >actual &&
	test_grep "^  FAIL  token: token path \.\./t\.yml is outside the root" actual &&
	rm at/docs/esc.replay.json
'

# This test expected a symlink in the commit to be refused ("a symlink in
# the commit's tree"); a checkout follows it, and so does --at now
# (issue 15, item 7; t3120 has the hostile links).
test_expect_success 'verify --at: a symlink in the commit is followed as a checkout would' '
	(
		cd at &&
		ln -s t.yml tokens/link.yml &&
		git add tokens/link.yml && test_tick && git commit -q -m link &&
		at_head=$(git show HEAD:tokens/t.yml | hash_of -) &&
		write_sidecar --kind=critique --token-hash=$at_head --token-path=tokens/link.yml \
			docs/link.replay.json tokens/t.yml &&
		ahd-replay verify --at HEAD docs/link.replay.json
	) >actual &&
	test_grep "intact" actual &&
	rm at/docs/link.replay.json
'

test_expect_success 'verify --at with a root below the top of the work tree' '
	mkdir -p at/sub/tokens at/sub/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >at/sub/package.json &&
	printf "s: 1\n" >at/sub/tokens/t.yml &&
	(
		cd at &&
		git add sub && test_tick && git commit -q -m sub &&
		printf "s: 2\n" >sub/tokens/t.yml &&
		s1=$(printf "s: 1\n" | hash_of -) &&
		write_sidecar --root=. --kind=critique --token-hash=$s1 \
			sub/docs/r.replay.json sub/tokens/t.yml &&
		sed "s|\"path\": \"sub/tokens/t.yml\"|\"path\": \"tokens/t.yml\"|" \
			sub/docs/r.replay.json >tmp && mv tmp sub/docs/r.replay.json &&
		test_expect_code 1 ahd-replay verify sub/docs/r.replay.json &&
		ahd-replay verify --at HEAD sub/docs/r.replay.json
	) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_lazy_prereq NOT_IN_A_REPOSITORY '
	! git -C "$TRASH_DIRECTORY" rev-parse --git-dir
'

test_expect_success NOT_IN_A_REPOSITORY 'verify --at outside a git repository: exit 2' '
	mkdir -p norepo/tokens &&
	printf "p: 1\n" >norepo/tokens/p.yml &&
	(
		cd norepo &&
		write_sidecar --kind=critique r.replay.json tokens/p.yml &&
		test_expect_code 2 ahd-replay verify --at HEAD r.replay.json
	) >actual 2>err &&
	cat actual err >all &&
	test_grep "needs a git work tree" all
'

test_done
