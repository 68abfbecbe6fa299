#!/bin/sh

test_description='hooks: coverage of layout records is not lost in silence

A layout'"'"'s sidecar removed while its report keeps the layout'"'"'s
ahd-replay-record block is refused as a missing sidecar, as AHD'"'"'s
.replay.json is.  A change to .ahd-replay.yml after which a record the
base'"'"'s layouts matched, still in the tree, is a record of no layout is
refused, each record named once; the record removed in the same change,
a layout renamed, an unrelated edit of the file are accepted.  The same
in pre-commit and pre-push.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# run_json FILE INPUT COMMIT: a sidecar pinning INPUT by bare-hex hash.
run_json () {
	printf "{\"commit\": \"%s\", \"command\": [\"./run.sh\"],\n \"inputs\": [{\"path\": \"%s\", \"sha256\": \"%s\"}]}\n" \
		"$3" "$2" "$(test_sha256 "$2")" >"$1"
}

# report FILE INPUT COMMIT: a report carrying the derived block of its
# sidecar (run_json's) for INPUT.
report () {
	{
		printf "# %s\n\n\`\`\`yaml ahd-replay-record\nlayout: \"reports\"\n" "$1" &&
		printf "commit: \"%s\"\ninputs:\n" "$3" &&
		printf "  - name: \"config/0\"\n    path: \"%s\"\n" "$2" &&
		printf "    hash: \"sha256:%s\"\n\`\`\`\n" "$(test_sha256 "$2")"
	} >"$1"
}

test_expect_success 'setup: reports with sidecars and derived blocks, hooks installed' '
	lsan_ignore_libgit2_leaks &&
	git init -q -b main repo &&
	mkdir -p repo/reports/q3 repo/configs &&
	cat >repo/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: reports
	    records: "reports/**/*.md"
	    sidecar: "{dir}/{stem}.run.json"
	    block: inputs
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
	 run_json reports/q3/b.run.json configs/b.yaml $at &&
	 report reports/a.md configs/a.yaml $at &&
	 report reports/q3/b.md configs/b.yaml $at) &&
	git -C repo add . && test_tick && git -C repo commit -q -m reports &&
	(cd repo && ahd-replay verify --all >../out) &&
	test_grep "^2 reports: 2 intact" out &&
	git init -q --bare remote.git &&
	git -C repo tag base &&
	git -C repo push -q ../remote.git main base &&
	(cd repo && ahd-replay install-hooks >/dev/null)
'

test_expect_success 'pre-commit: a sidecar removed, an input edited, the report kept with its block: refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 git rm -q reports/a.run.json &&
	 echo "lr: 3" >configs/a.yaml &&
	 git add configs/a.yaml &&
	 test_must_fail git commit -q -m "drop a run" 2>../err) &&
	test_grep "FAIL reports/a.md: missing sidecar: reports/a.run.json is removed in staged but the report stays with its ahd-replay-record block" err &&
	test_grep ! "q3/b" err
'

test_expect_success 'pre-commit: a sidecar removed alone, the report kept with its block: refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 git rm -q reports/q3/b.run.json &&
	 test_must_fail git commit -q -m "drop a run" 2>../err) &&
	test_grep "FAIL reports/q3/b.md: missing sidecar: reports/q3/b.run.json is removed in staged" err
'

test_expect_success 'pre-commit: the sidecar pattern changed, the sidecars not moved: refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 sed "s/{stem}.run.json/{stem}.out.json/" .ahd-replay.yml >yml &&
	 mv yml .ahd-replay.yml &&
	 test_must_fail git commit -q -a -m "rename the pattern" 2>../err) &&
	test_grep "FAIL reports/a.md: missing sidecar: reports/a.out.json is not in staged (HEAD had reports/a.run.json) but the report stays" err &&
	test_grep "FAIL reports/q3/b.md: missing sidecar: reports/q3/b.out.json is not in staged" err
'

test_expect_success 'pre-commit: the sidecar pattern changed, the sidecars moved with it: accepted' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 sed "s/{stem}.run.json/{stem}.out.json/" .ahd-replay.yml >yml &&
	 mv yml .ahd-replay.yml &&
	 git mv reports/a.run.json reports/a.out.json &&
	 git mv reports/q3/b.run.json reports/q3/b.out.json &&
	 git commit -q -a -m "rename the pattern" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'pre-commit: the sidecar removed with its report, or with its block: accepted' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 git rm -q reports/a.run.json reports/a.md &&
	 git commit -q -m "drop a run and its report" 2>../err) &&
	test_must_be_empty err &&
	(cd repo &&
	 git reset -q --hard base &&
	 git rm -q reports/a.run.json &&
	 echo "# a, no run" >reports/a.md &&
	 git commit -q -a -m "drop a run, keep a note" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'pre-commit: the layout removed, its records kept: refused, each named once' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 test_must_fail git commit -q -a -m "drop the layout" 2>../err) &&
	for r in reports/a.md reports/q3/b.md
	do
		grep "FAIL $r: no longer a record of any layout: layout reports of HEAD.s .ahd-replay.yml matched it, no layout of staged.s does" err >lost &&
		test_line_count = 1 lost || return 1
	done
'

test_expect_success 'pre-commit: .ahd-replay.yml removed, its records kept: refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 git rm -q .ahd-replay.yml &&
	 test_must_fail git commit -q -m "drop the layouts" 2>../err) &&
	test_grep "FAIL reports/a.md: no longer a record of any layout" err &&
	test_grep "FAIL reports/q3/b.md: no longer a record of any layout" err
'

test_expect_success 'pre-commit: the records glob narrowed: the records left out are refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 sed "s|reports/\*\*/\*.md|reports/q3/*.md|" .ahd-replay.yml >yml &&
	 mv yml .ahd-replay.yml &&
	 grep -F "records: \"reports/q3/*.md\"" .ahd-replay.yml &&
	 test_must_fail git commit -q -a -m "narrow the layout" 2>../err) &&
	test_grep "FAIL reports/a.md: no longer a record of any layout" err &&
	test_grep ! "reports/q3/b.md" err
'

test_expect_success 'pre-commit: the layout removed with its records: accepted' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 git rm -q -r reports &&
	 git commit -q -a -m "drop the layout and its reports" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'pre-commit: a layout renamed, still matching: accepted' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 sed "s/name: reports/name: evals/" .ahd-replay.yml >yml &&
	 mv yml .ahd-replay.yml &&
	 grep "name: evals" .ahd-replay.yml &&
	 git commit -q -a -m "rename the layout" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'pre-commit: an unrelated edit of the file: accepted' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 printf "policy:\n  strict: false\n" >>.ahd-replay.yml &&
	 ahd-replay config check &&
	 git commit -q -a -m "say strict" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'pre-push: a sidecar removed, the report kept with its block: refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	test_when_finished "git --git-dir=remote.git update-ref refs/heads/main base" &&
	(cd repo &&
	 git rm -q reports/a.run.json &&
	 git commit -q --no-verify -m "drop a run" &&
	 test_must_fail git push -q ../remote.git HEAD:refs/heads/main 2>../err) &&
	test_grep "FAIL reports/a.md: missing sidecar: reports/a.run.json is removed in" err
'

test_expect_success 'pre-push: the layout removed, its records kept: refused' '
	test_when_finished "git -C repo reset -q --hard base" &&
	test_when_finished "git --git-dir=remote.git update-ref refs/heads/main base" &&
	(cd repo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 git commit -q --no-verify -a -m "drop the layout" &&
	 test_must_fail git push -q ../remote.git HEAD:refs/heads/main 2>../err) &&
	grep "FAIL reports/a.md: no longer a record of any layout" err >lost &&
	test_line_count = 1 lost &&
	test_grep "FAIL reports/q3/b.md: no longer a record of any layout" err
'

test_expect_success 'pre-push: the layout removed with its records: accepted' '
	test_when_finished "git -C repo reset -q --hard base" &&
	(cd repo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 git rm -q -r reports &&
	 git commit -q --no-verify -a -m "drop the layout and its reports" &&
	 git push -q ../remote.git HEAD:refs/heads/main 2>../err) &&
	test_must_be_empty err
'

test_done
