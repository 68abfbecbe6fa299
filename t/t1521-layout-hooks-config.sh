#!/bin/sh

test_description='hooks: the layouts of the state judged, not of the work tree

pre-commit reads .ahd-replay.yml from the index being committed and
pre-push from the commit being pushed.  A change that edits the file is
judged by both versions: removing a layout does not hide its records'"'"'
drift nor, while they stay, the records themselves, and a layout edited so that its records no longer verify is
refused (warned about when they had drifted already).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-runs-repo.sh

test_expect_success 'setup: the demo with the hooks installed' '
	lsan_ignore_libgit2_leaks &&
	sh "$make_demo" demo &&
	(cd demo && ahd-replay install-hooks >/dev/null)
'

test_expect_success 'pre-commit: a layout removed only in the work tree still judges' '
	(cd demo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 echo "seed: 7" >>configs/eval.yaml &&
	 git add configs/eval.yaml &&
	 test_must_fail git commit -q -m seed 2>../err) &&
	grep "FAIL runs/2026-09-01/baseline/record.json: config configs/eval.yaml" err &&
	(cd demo && git reset -q --hard)
'

test_expect_success 'pre-commit: a malformed file only in the work tree is not read' '
	(cd demo &&
	 printf "layouts: 3\n" >.ahd-replay.yml &&
	 echo "More notes." >>README.md &&
	 git add README.md &&
	 git commit -q -m notes 2>../err) &&
	test_must_be_empty err &&
	(cd demo && git checkout -q -- .ahd-replay.yml)
'

test_expect_success 'pre-commit: a malformed staged file refuses the commit, with the line' '
	(cd demo &&
	 printf "layouts: 3\n" >.ahd-replay.yml &&
	 git add .ahd-replay.yml &&
	 test_must_fail git commit -q -m broken 2>../err) &&
	grep "staged:.ahd-replay.yml:1:10: .layouts. wants a list" err &&
	(cd demo && git reset -q --hard)
'

test_expect_success 'pre-commit: removing the layout and editing an input in one commit is refused' '
	(cd demo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 echo "seed: 7" >>configs/eval.yaml &&
	 git add .ahd-replay.yml configs/eval.yaml &&
	 test_must_fail git commit -q -m "drop the layout" 2>../err) &&
	grep "FAIL runs/2026-09-01/baseline/record.json: config configs/eval.yaml" err &&
	grep "FAIL runs/2026-09-02/nightly/record.json: config" err &&
	(cd demo && git reset -q --hard)
'

test_expect_success 'pre-commit: removing the layout alone, its records kept, is refused' '
	(cd demo &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 test_must_fail git commit -q -a -m "drop the layout" 2>../err &&
	 git reset -q --hard) &&
	for r in 2026-09-01/baseline 2026-09-02/nightly 2026-09-03/long-context
	do
		grep "FAIL runs/$r/record.json: no longer a record of any layout" err >lost &&
		test_line_count = 1 lost || return 1
	done
'

test_expect_success 'pre-commit: a layout edited so that its records no longer verify is refused' '
	(cd demo &&
	 sed "s/mode: raw/mode: structured/" .ahd-replay.yml >new &&
	 mv new .ahd-replay.yml &&
	 test_must_fail git commit -q -a -m structured 2>../err) &&
	grep -A2 "FAIL runs/2026-09-01/baseline/record.json: config configs/eval.yaml" err >fail &&
	grep "its layout changes here and this input does not match it" fail &&
	grep "warn runs/2026-09-03/long-context/record.json: config configs/long-context.yaml" err &&
	(cd demo && git reset -q --hard)
'

test_expect_success 'pre-commit: a layout edit that reads the same inputs is accepted' '
	(cd demo &&
	 sed "s|^    command: /command\$|&\\
    backfill: [commit, hash]|" .ahd-replay.yml >new &&
	 mv new .ahd-replay.yml &&
	 grep -x "    backfill: \\[commit, hash\\]" .ahd-replay.yml &&
	 git commit -q -a -m "let backfill fill" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'pre-commit: strict from the staged file, not the work tree'"'"'s' '
	(cd demo &&
	 cp .ahd-replay.yml plain.yml &&
	 printf "policy:\n  strict: true\n" >>.ahd-replay.yml &&
	 git add .ahd-replay.yml &&
	 cp plain.yml .ahd-replay.yml &&
	 echo "# longer" >>configs/long-context.yaml &&
	 git add configs/long-context.yaml &&
	 test_must_fail git commit -q -m "strict, and an old drift edited" 2>../err) &&
	grep "FAIL runs/2026-09-03/long-context/record.json: config configs/long-context.yaml" err
'

test_expect_success 'pre-commit: the commit that drops strict is judged strictly' '
	(cd demo &&
	 git checkout -q -- .ahd-replay.yml &&
	 git reset -q &&
	 git checkout -q -- configs &&
	 rm plain.yml &&
	 git commit -q --no-verify -a -m strict &&
	 git show HEAD~1:.ahd-replay.yml >.ahd-replay.yml &&
	 echo "# longer" >>configs/long-context.yaml &&
	 test_must_fail git commit -q -a -m "not strict any more" 2>../err) &&
	grep "FAIL runs/2026-09-03/long-context/record.json: config configs/long-context.yaml" err &&
	(cd demo && git reset -q --hard HEAD~1)
'

test_expect_success 'pre-push: the pushed commit'"'"'s file, and the remote'"'"'s when it differs' '
	git init -q --bare remote.git &&
	(cd demo &&
	 git push -q --no-verify ../remote.git HEAD:refs/heads/main &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 echo "seed: 7" >>prompts/system.md &&
	 git commit -q --no-verify -a -m "drop the layout, edit the prompt" &&
	 test_must_fail git push -q ../remote.git HEAD:refs/heads/main 2>../err) &&
	grep "FAIL runs/2026-09-01/baseline/record.json: prompt prompts/system.md" err
'

test_expect_success 'pre-push: the layout removed with its records, nothing pinned edited: accepted' '
	(cd demo &&
	 git reset -q --hard HEAD~1 &&
	 printf "version: 1\n" >.ahd-replay.yml &&
	 git rm -q -r runs &&
	 git commit -q --no-verify -a -m "drop the layout and its runs" &&
	 git push -q ../remote.git HEAD:refs/heads/main 2>../err)
'

test_done
