#!/bin/sh

test_description='layouts whose records have a sidecar

A layout with a sidecar pattern ("{dir}/{stem}.run.json") names reports
with its records glob and reads the pinned inputs from each report'"'"'s
sidecar, as AHD'"'"'s reports have theirs: verify, --require-sidecar, the
hooks, sign and replay treat the pair as they treat AHD'"'"'s.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# run_json FILE INPUT COMMIT: a sidecar pinning INPUT by bare-hex hash.
run_json () {
	printf "{\"commit\": \"%s\", \"command\": [\"./run.sh\"],\n \"inputs\": [{\"path\": \"%s\", \"sha256\": \"%s\"}]}\n" \
		"$3" "$2" "$(test_sha256 "$2")" >"$1"
}

test_expect_success 'setup: reports with sidecars' '
	lsan_ignore_libgit2_leaks &&
	git init -q -b main repo &&
	mkdir -p repo/reports/q3 repo/configs &&
	cat >repo/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: reports
	    records: "reports/**/*.md"
	    sidecar: "{dir}/{stem}.run.json"
	    commit: /commit
	    command: /command
	    inputs:
	      - name: config
	        path: /inputs/*/path
	        hash: /inputs/*/sha256
	        mode: raw
	        spelling: hex
	EOF
	echo "lr: 1" >repo/configs/a.yaml &&
	echo "lr: 2" >repo/configs/b.yaml &&
	git -C repo add . && test_tick && git -C repo commit -q -m inputs &&
	at=$(git -C repo rev-parse HEAD) &&
	(cd repo && run_json reports/a.run.json configs/a.yaml $at &&
	 run_json reports/q3/b.run.json configs/b.yaml $at) &&
	echo "# a" >repo/reports/a.md &&
	echo "# b" >repo/reports/q3/b.md &&
	echo "# notes, no run" >repo/reports/notes.md &&
	git -C repo add . && test_tick && git -C repo commit -q -m reports
'

test_expect_success 'config check accepts the layout; show names the pattern' '
	(cd repo && ahd-replay config check && ahd-replay config show >../show) &&
	grep -F "layout.reports.sidecar={dir}/{stem}.run.json" show
'

# check_refuses PATTERN MESSAGE: config check refuses the sidecar pattern.
check_refuses () {
	printf "layouts:\n  - name: a\n    records: \"r/*.md\"\n    sidecar: \"%s\"\n    inputs:\n      - {name: i, path: /p, hash: /h}\n" "$1" >bad/.ahd-replay.yml &&
	(cd bad && test_expect_code 1 ahd-replay config check 2>../err) &&
	grep -F ".ahd-replay.yml:4:14: 'sidecar' pattern '$1' $2" err || {
		cat err
		return 1
	}
}

test_expect_success 'config check refuses each malformed pattern with its line' '
	git init -q bad &&
	check_refuses "{stem}.run.json" "starts with {dir}/" &&
	check_refuses "{dir}/{base}.run.json" "has an unknown placeholder '"'"'{base}'"'"'" &&
	check_refuses "{dir}/{dir}.run.json" "has an unknown placeholder '"'"'{dir}'"'"'" &&
	check_refuses "{dir}/{stem.run.json" "has an unclosed" &&
	check_refuses "{dir}/stem}.run.json" "has a '"'"'}'"'"' that closes nothing" &&
	check_refuses "{dir}/run.json" "names no {stem} or {name}" &&
	check_refuses "{dir}/../{stem}.run.json" "leads outside the record" &&
	check_refuses "{dir}/x/../../{stem}.json" "leads outside the record" &&
	check_refuses "{dir}/{name}" "does not name a file other than the record" &&
	check_refuses "{dir}/{stem}.replay.json" "ends in .replay.json"
'

test_expect_success 'verify --all: each report with a sidecar, intact' '
	(cd repo && ahd-replay verify --all >../out) &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors$" out &&
	test_grep "^ahd verify-replay · reports/a.md$" out &&
	test_grep "^replay: reports/a.run.json$" out &&
	test_grep ! "notes.md" out
'

test_expect_success 'a drifted input: verify names it, exit 1' '
	echo "lr: 3" >repo/configs/b.yaml &&
	(cd repo && test_expect_code 1 ahd-replay verify reports/q3/b.md >../out) &&
	test_grep "^  FAIL  config/0: config/0 contents have changed since the run" out &&
	git -C repo checkout -q configs/b.yaml
'

test_expect_success 'a report named without its sidecar: an error, exit 2' '
	(cd repo && test_expect_code 2 ahd-replay verify reports/notes.md >../out 2>&1) &&
	test_grep "no replay sidecar found at reports/notes.run.json" out
'

test_expect_success '--require-sidecar: a matching report without one is missing' '
	(cd repo && test_expect_code 1 ahd-replay verify --all \
		--require-sidecar="reports/**/*.md" >../out 2>../err) &&
	test_grep ! "ahd-replay backfill" err &&
	test_grep "^3 reports: 2 intact, 0 drifted, 0 errors, 1 missing" out &&
	test_grep "no replay sidecar for reports/notes.md" out
'

test_expect_success 'verify --all: a report with a derived block whose sidecar is gone is missing' '
	cp repo/reports/q3/b.run.json b.run.saved &&
	cp repo/reports/q3/b.md b.md.saved &&
	test_when_finished "cp b.run.saved repo/reports/q3/b.run.json && cp b.md.saved repo/reports/q3/b.md" &&
	{
		printf "# b\n\n\`\`\`yaml ahd-replay-record\nlayout: \"reports\"\n" &&
		printf "commit: \"%s\"\ninputs:\n" "$(git -C repo rev-parse HEAD~1)" &&
		printf "  - name: \"config/0\"\n    path: \"configs/b.yaml\"\n" &&
		printf "    hash: \"sha256:%s\"\n\`\`\`\n" "$(test_sha256 repo/configs/b.yaml)"
	} >repo/reports/q3/b.md &&
	rm repo/reports/q3/b.run.json &&
	(cd repo && test_expect_code 1 ahd-replay verify --all >../out 2>../err) &&
	test_grep "^2 reports: 1 intact, 0 drifted, 0 errors, 1 missing" out &&
	test_grep "no replay sidecar for reports/q3/b.md, which carries an ahd-replay-record block (was its sidecar removed?)" out
'

test_expect_success 'sign binds the report and its sidecar' '
	ahd-replay keygen --out key >/dev/null &&
	mkdir keys && cp key.pub keys/ &&
	(cd repo && ahd-replay sign --statement reports/a.md >../statement &&
	 ahd-replay sign --key ../key reports/a.md >../out) &&
	printf "{\"definition\":\"DEF\",\"layout\":\"reports\",\"record\":{\"path\":\"reports/a.md\",\"sha256\":\"%s\"},\"sidecar\":{\"path\":\"reports/a.run.json\",\"sha256\":\"%s\"},\"type\":\"ahd-replay/record-statement/v1\"}" \
		"$(test_sha256 repo/reports/a.md)" "$(test_sha256 repo/reports/a.run.json)" >expect &&
	sed "s/\"definition\":\"[0-9a-f]\{64\}\"/\"definition\":\"DEF\"/" statement >actual &&
	test_cmp expect actual &&
	echo "signed reports/a.run.json.sig" >expect &&
	test_cmp expect out &&
	(cd repo && ahd-replay verify --trusted-keys ../keys --require-signature reports/a.md >../out) &&
	test_grep "^  ok    signature by" out
'

test_expect_success 'an edited report or sidecar breaks the signature' '
	cp repo/reports/a.md a.saved &&
	echo "more" >>repo/reports/a.md &&
	(cd repo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys reports/a.md >../out) &&
	test_grep "^  FAIL  signature: record changed after signing$" out &&
	cp a.saved repo/reports/a.md &&
	cp repo/reports/a.run.json side.saved &&
	sed "s/run.sh/run.sh -x/" side.saved >repo/reports/a.run.json &&
	(cd repo && test_expect_code 1 ahd-replay verify --trusted-keys ../keys reports/a.md >../out) &&
	test_grep "^  FAIL  signature: sidecar changed after signing$" out &&
	cp side.saved repo/reports/a.run.json
'

test_expect_success 'replay: the input restored, the report and its sidecar copied' '
	echo "lr: 9" >repo/configs/a.yaml &&
	(cd repo && ahd-replay replay --worktree=../wt reports/a.md >../out) &&
	test_grep "^  config/0  configs/a.yaml  restored from history" out &&
	echo "lr: 1" >expect &&
	test_cmp expect wt/configs/a.yaml &&
	test_cmp repo/reports/a.md wt/reports/a.md &&
	test_cmp repo/reports/a.run.json wt/reports/a.run.json &&
	test_grep "\"source\":{\"layout\":\"reports\",\"record\":\"reports/a.md\"" wt/replay-receipt.json &&
	git -C repo checkout -q configs/a.yaml
'

test_expect_success 'block: the one derived block is inputs, and needs a sidecar' '
	printf "layouts:\n  - name: a\n    records: \"r/*.md\"\n    sidecar: \"{dir}/{stem}.j.json\"\n    block: yaml\n    inputs:\n      - {name: i, path: /p, hash: /h}\n" >bad/.ahd-replay.yml &&
	(cd bad && test_expect_code 1 ahd-replay config check 2>../err) &&
	test_grep "\.ahd-replay\.yml:5:12: '"'"'block'"'"' '"'"'yaml'"'"': the one derived block is '"'"'inputs'"'"'" err &&
	printf "layouts:\n  - name: a\n    records: \"r/*.json\"\n    block: inputs\n    inputs:\n      - {name: i, path: /p, hash: /h}\n" >bad/.ahd-replay.yml &&
	(cd bad && test_expect_code 1 ahd-replay config check 2>../err) &&
	test_grep "\.ahd-replay\.yml:2:5: '"'"'block'"'"' needs '"'"'sidecar'"'"'" err
'

test_expect_success 'a report'"'"'s derived block that agrees: no warning' '
	rm repo/reports/a.run.json.sig &&
	sed "s|^    sidecar: .*|&\n    block: inputs|" repo/.ahd-replay.yml >yml &&
	cp yml repo/.ahd-replay.yml &&
	(cd repo && ahd-replay config check) &&
	{
		printf "# a\n\n\`\`\`yaml ahd-replay-record\nlayout: \"reports\"\n" &&
		printf "commit: \"%s\"\ninputs:\n" "$(git -C repo rev-parse HEAD~1)" &&
		printf "  - name: \"config/0\"\n    path: \"configs/a.yaml\"\n" &&
		printf "    hash: \"sha256:%s\"\n\`\`\`\n" "$(test_sha256 repo/configs/a.yaml)"
	} >repo/reports/a.md &&
	(cd repo && ahd-replay verify reports/a.md >../out) &&
	test_grep ! "warning" out &&
	test_grep "^verdict: replay inputs intact$" out
'

test_expect_success 'a derived block that disagrees with the sidecar: a warning with its line' '
	sed "s|\"configs/a.yaml\"|\"configs/A.yaml\"|" repo/reports/a.md >a.md &&
	cp a.md repo/reports/a.md &&
	(cd repo && ahd-replay verify reports/a.md >../out) &&
	test_grep "warning: the replay block in reports/a.md differs from the sidecar at line 8: it has '"'"'    path: \"configs/A.yaml\"'"'"', the sidecar renders '"'"'    path: \"configs/a.yaml\"'"'"' (the JSON is authoritative)" out &&
	test_grep "^verdict: replay inputs intact$" out &&
	git -C repo checkout -q reports/a.md .ahd-replay.yml
'

test_expect_success 'pre-commit: refuses an edit of a pinned input, takes a report edit' '
	(cd repo && ahd-replay install-hooks >/dev/null &&
	 echo "lr: 5" >configs/b.yaml &&
	 test_must_fail git commit -q -a -m "edit b" 2>../err) &&
	test_grep "reports/q3/b.run.json" err &&
	git -C repo checkout -q configs/b.yaml &&
	(cd repo && echo "# a, reworded" >reports/a.md &&
	 git commit -q -a -m "reword a" 2>../err)
'

test_expect_success 'validate and backfill read the sidecar, not the report' '
	git clone -q repo fill &&
	cat >fill/schema.json <<-\EOF &&
	{"type": "object", "required": ["commit", "inputs"]}
	EOF
	cat >>fill/.ahd-replay.yml <<-\EOF &&
	    schema: schema.json
	    backfill: [hash]
	EOF
	at=$(git -C fill rev-parse HEAD~1) &&
	printf "{\"commit\": \"%s\", \"inputs\": [{\"path\": \"configs/a.yaml\"}]}\n" \
		"$at" >fill/reports/c.run.json &&
	echo "# c" >fill/reports/c.md &&
	(cd fill && ahd-replay config show >../show &&
	 ahd-replay validate reports/c.md >../val &&
	 ahd-replay backfill >../bf) &&
	grep -F "layout.reports.backfill=hash" show &&
	test_grep "reports/c.run.json" bf &&
	grep -F "\"sha256\": \"$(test_sha256 repo/configs/a.yaml)\"" \
		fill/reports/c.run.json &&
	echo "# c" >expect &&
	test_cmp expect fill/reports/c.md &&
	(cd fill && ahd-replay verify reports/c.md >../out) &&
	test_grep "intact" out
'

test_expect_success 'setup: an AHD report whose token drifted, in a repository with layouts' '
	git init -q -b main ahd &&
	mkdir -p ahd/tokens ahd/briefs ahd/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >ahd/package.json &&
	printf "name: x\n" >ahd/tokens/x.yml &&
	printf "# Brief\n" >ahd/briefs/b.md &&
	echo "stable" >ahd/stable.txt &&
	(cd ahd && write_sidecar docs/x.replay.json tokens/x.yml briefs/b.md) &&
	echo "# x" >ahd/docs/x.md &&
	git -C ahd add . && test_tick && git -C ahd commit -q -m base &&
	printf "name: drifted\n" >ahd/tokens/x.yml
'

test_expect_success 'a layout whose glob takes an AHD report: its sidecar is verified too' '
	cat >ahd/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: notes
	    records: "docs/*.md"
	    sidecar: "{dir}/{stem}.run.json"
	    inputs:
	      - name: input
	        path: /inputs/*/path
	        hash: /inputs/*/sha256
	        mode: raw
	        spelling: hex
	EOF
	printf "{\"inputs\": [{\"path\": \"stable.txt\", \"sha256\": \"%s\"}]}\n" \
		"$(test_sha256 ahd/stable.txt)" >ahd/docs/x.run.json &&
	(cd ahd && test_expect_code 1 ahd-replay verify docs/x.md >../out) &&
	test_grep "^replay: docs/x.run.json$" out &&
	test_grep "^replay: docs/x.replay.json$" out &&
	test_grep "^2 reports: 1 intact, 1 drifted, 0 errors$" out &&
	rm ahd/docs/x.run.json
'

test_expect_success 'sign and replay of a report two records describe refuse to guess' '
	printf "{\"inputs\": [{\"path\": \"stable.txt\", \"sha256\": \"%s\"}]}\n" \
		"$(test_sha256 ahd/stable.txt)" >ahd/docs/x.run.json &&
	ahd-replay keygen --out twokey >/dev/null &&
	(cd ahd && test_expect_code 2 ahd-replay sign --key ../twokey docs/x.md \
		2>../err) &&
	test_grep "both AHD.s sidecar docs/x.replay.json and layout .notes." err &&
	test_path_is_missing ahd/docs/x.run.json.sig &&
	test_path_is_missing ahd/docs/x.replay.json.sig &&
	(cd ahd && test_expect_code 2 ahd-replay replay docs/x.md 2>../err) &&
	test_grep "both AHD.s sidecar .*docs/x.replay.json and layout .notes." err &&
	mv ahd/docs/x.replay.json x.replay.json.saved &&
	ln -s gone.json ahd/docs/x.replay.json &&
	(cd ahd && test_expect_code 2 ahd-replay sign --key ../twokey docs/x.md \
		2>../err) &&
	test_grep "both AHD.s sidecar docs/x.replay.json and layout .notes." err &&
	rm ahd/docs/x.replay.json &&
	mv x.replay.json.saved ahd/docs/x.replay.json &&
	rm ahd/docs/x.run.json
'

test_expect_success 'a layout whose glob takes AHD sidecars does not read them' '
	cat >ahd/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: side
	    records: "docs/*.json"
	    inputs:
	      - name: input
	        path: /brief/path
	        hash: /brief/hash
	        mode: raw-then-structured
	EOF
	(cd ahd && test_expect_code 1 ahd-replay verify docs/x.replay.json >../out) &&
	test_grep ! "layout: side" out &&
	test_grep "^verdict: drift detected$" out &&
	(cd ahd && test_expect_code 1 ahd-replay verify --all >../out) &&
	test_grep ! "layout: side" out
'

test_done
