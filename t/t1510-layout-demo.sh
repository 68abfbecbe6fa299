#!/bin/sh

test_description='verify on a repository that is not AHD'"'"'s

examples/make-demo-runs-repo.sh builds a model-eval repository whose run
records (runs/<date>/<name>/record.json) pin a YAML config, a markdown
prompt and a JSON dataset manifest by bare-hex SHA-256, with the commit
in git.commit; .ahd-replay.yml declares that layout.  verify finds the
records, checks every pinned input, names the commit that caused the
drift, and speaks every format, as it does for AHD'"'"'s sidecars.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-runs-repo.sh
base=runs/2026-09-01/baseline/record.json
nightly=runs/2026-09-02/nightly/record.json
long=runs/2026-09-03/long-context/record.json

test_expect_success 'setup: the demo repository' '
	lsan_ignore_libgit2_leaks &&
	sh "$make_demo" demo &&
	git -C demo log --format=%s >subjects &&
	test_line_count = 6 subjects
'

test_expect_success 'the script refuses a directory that is not empty' '
	test_expect_code 2 sh "$make_demo" demo 2>err &&
	grep "not an empty directory" err
'

test_expect_success 'the records pin what sha256sum says of the inputs' '
	(cd demo && sha256sum configs/eval.yaml) >sum &&
	cut -d" " -f1 sum >want &&
	grep -c "$(cat want)" demo/$base >count &&
	echo 1 >one &&
	test_cmp one count
'

test_expect_success 'config check accepts the demo'"'"'s file' '
	(cd demo && ahd-replay config check)
'

test_expect_success 'verify --all: two intact, one drifted, exit 1' '
	(cd demo && test_expect_code 1 ahd-replay verify --all >../out) &&
	tail -n 1 out >summary &&
	echo "3 reports: 2 intact, 1 drifted, 0 errors" >expect &&
	test_cmp expect summary &&
	grep -x "ahd verify-replay · $base" out &&
	grep -x "  layout: runs" out &&
	grep -x "  FAIL  config: config contents have changed since the run; raw-bytes hash differs" out &&
	test $(grep -c "^verdict: replay inputs intact" out) = 2
'

test_expect_success 'no operand is --all' '
	(cd demo && test_expect_code 1 ahd-replay verify >../out2) &&
	test_cmp out out2
'

test_expect_success 'the drift names the commit that changed the input' '
	changed=$(git -C demo rev-parse --short=12 HEAD~1) &&
	grep "note: config: configs/long-context.yaml last had the recorded hash" out >note &&
	grep "changed by $changed (2026-09-05, \"long-context: allow longer answers\")" note
'

test_expect_success 'each role is named by the record'"'"'s label' '
	(cd demo && ahd-replay verify $base >../one) &&
	grep -x "  ok    config hash matches" one &&
	grep -x "  ok    prompt hash matches" one &&
	grep -x "  ok    dataset hash matches" one &&
	grep -x "  commit: $(git -C demo rev-parse HEAD~5)" one
'

test_expect_success 'the CI record: absolute paths re-rooted, intact' '
	(cd demo && ahd-replay verify $nightly >../ci) &&
	grep "note: prompt path re-rooted: /home/runner/work/evals/evals/prompts/system.md -> prompts/system.md" ci &&
	grep -x "verdict: replay inputs intact" ci
'

test_expect_success 'a directory operand: the records below it' '
	(cd demo && test_expect_code 1 ahd-replay verify runs/2026-09-03 >../dir) &&
	grep "^ahd verify-replay" dir >shown &&
	echo "ahd verify-replay · $long" >expect &&
	test_cmp expect shown
'

test_expect_success '--explain names the changed key' '
	(cd demo && test_expect_code 1 ahd-replay verify --explain $long >../ex) &&
	grep -x "          -max_tokens: 4096" ex &&
	grep -x "          +max_tokens: 8192" ex
'

test_expect_success '--at the commit the runs were made at: all intact' '
	(cd demo && ahd-replay verify --at HEAD~2 >../at) &&
	grep -x "3 reports: 3 intact, 0 drifted, 0 errors" at
'

test_expect_success '--changed-since: only the records whose record or inputs changed' '
	(cd demo && test_expect_code 1 ahd-replay verify --changed-since HEAD~2 >../since) &&
	grep "^ahd verify-replay" since >shown &&
	echo "ahd verify-replay · $long" >expect &&
	test_cmp expect shown &&
	grep "^2 reports unchanged since HEAD~2" since &&
	(cd demo && ahd-replay verify --changed-since HEAD >../none) &&
	grep "^3 reports unchanged since HEAD" none
'

test_expect_success '--format=json: the status, the commit and the layout' '
	(cd demo && test_expect_code 1 ahd-replay verify --format=json $long >../j) &&
	grep "\"status\": \"drift\"" j &&
	grep "\"ahd_commit\": \"$(git -C demo rev-parse HEAD~5)\"" j &&
	grep "\"layout\": \"runs\"" j
'

test_expect_success '--format=junit and sarif: the drifted input fails' '
	(cd demo && test_expect_code 1 ahd-replay verify --format=junit >../junit) &&
	grep "tests=\"9\" failures=\"1\" errors=\"0\"" junit &&
	(cd demo && test_expect_code 1 ahd-replay verify --format=sarif >../sarif) &&
	grep "\"uri\": \"$long\"" sarif
'

test_expect_success '--format=github: an error annotation on the record' '
	(cd demo && test_expect_code 1 ahd-replay verify --format=github >../gh) &&
	grep "^::error file=$long" gh
'

test_expect_success 'setup: hooks installed in a copy' '
	cp -R demo hooked &&
	(cd hooked && ahd-replay install-hooks >/dev/null)
'

test_expect_success 'pre-commit refuses a commit that edits a pinned input' '
	(cd hooked &&
	 echo "seed: 7" >>configs/eval.yaml &&
	 git add configs/eval.yaml &&
	 test_must_fail git commit -q -m "seed" 2>../refused) &&
	grep "FAIL runs/2026-09-01/baseline/record.json: config configs/eval.yaml" refused &&
	grep "FAIL runs/2026-09-02/nightly/record.json: config /home/runner/work/evals/evals/configs/eval.yaml" refused &&
	grep "this change makes the report drift" refused &&
	(cd hooked && git reset -q --hard)
'

test_expect_success 'pre-commit accepts a commit that edits nothing a record pins' '
	(cd hooked &&
	 echo "More notes." >>README.md &&
	 git commit -q -a -m "notes" 2>../accepted) &&
	test_must_be_empty accepted
'

test_expect_success 'pre-commit: an edit of an input that had drifted already warns' '
	(cd hooked &&
	 echo "# longer" >>configs/long-context.yaml &&
	 git commit -q -a -m "comment" 2>../warned) &&
	grep "warn runs/2026-09-03/long-context/record.json: config configs/long-context.yaml" warned
'

test_expect_success 'pre-commit: a new record whose input does not match is refused' '
	(cd hooked &&
	 mkdir -p runs/2026-09-07/bad &&
	 sed "s/\"sha256\": \"4c/\"sha256\": \"00/" \
		runs/2026-09-01/baseline/record.json >runs/2026-09-07/bad/record.json &&
	 git add runs/2026-09-07 &&
	 test_must_fail git commit -q -m "bad run" 2>../new) &&
	grep "the sidecar is new or changed here and does not match this input" new &&
	(cd hooked && git reset -q --hard && rm -rf runs/2026-09-07)
'

test_expect_success 'pre-push: the drifted run refuses the first push; an edit of a pinned input is refused' '
	git init -q --bare remote.git &&
	(cd hooked &&
	 test_must_fail git push -q ../remote.git HEAD:refs/heads/main 2>../first &&
	 git push -q --no-verify ../remote.git HEAD:refs/heads/main &&
	 echo "seed: 7" >>prompts/system.md &&
	 git commit -q --no-verify -a -m "prompt" &&
	 test_must_fail git push -q ../remote.git HEAD:refs/heads/main 2>../pushed) &&
	grep "runs/2026-09-03/long-context/record.json: config configs/long-context.yaml" first &&
	grep "FAIL runs/2026-09-01/baseline/record.json: prompt prompts/system.md" pushed
'

test_expect_success 'pre-push accepts a push that edits nothing a record pins' '
	(cd hooked &&
	 git reset -q --hard HEAD~1 &&
	 echo "Even more." >>README.md &&
	 git commit -q --no-verify -a -m "readme" &&
	 git push -q ../remote.git HEAD:refs/heads/main)
'

test_expect_success 'policy: requireSidecar from the file; git config and the command line override it' '
	cp -R demo pol &&
	mkdir pol/docs &&
	echo "# Notes" >pol/docs/notes.md &&
	printf "policy:\n  requireSidecar: \"docs/*.md\"\n" >>pol/.ahd-replay.yml &&
	(cd pol && ahd-replay config check &&
	 test_expect_code 1 ahd-replay verify >../req) &&
	grep "1 missing sidecars" req &&
	(cd pol && git config ahd-replay.requireSidecar "elsewhere/*.md" &&
	 test_expect_code 1 ahd-replay verify >../req2) &&
	! grep "missing sidecars" req2 &&
	(cd pol && git config --unset ahd-replay.requireSidecar &&
	 test_expect_code 1 ahd-replay verify --require-sidecar "other/*.md" >../req3) &&
	! grep "missing sidecars" req3
'

test_expect_success 'policy: requireSignature from the file; git config overrides it' '
	rm -r pol/docs &&
	printf "  requireSignature: true\n" >>pol/.ahd-replay.yml &&
	(cd pol && test_expect_code 1 ahd-replay verify $base >../sig) &&
	grep "^verdict: signature check failed" sig &&
	grep "FAIL  signature: no signature at $base.sig (--require-signature)" sig &&
	(cd pol && git config ahd-replay.requireSignature false &&
	 ahd-replay verify $base >../sig2) &&
	grep "^verdict: replay inputs intact" sig2
'

test_expect_success 'policy: strict from the file refuses old drift; git config overrides it' '
	printf "  strict: true\n" >>pol/.ahd-replay.yml &&
	(cd pol && git add .ahd-replay.yml && git commit -q --no-verify -m policy &&
	 ahd-replay install-hooks >/dev/null &&
	 echo "# longer" >>configs/long-context.yaml &&
	 test_must_fail git commit -q -a -m "comment" 2>../strict) &&
	grep "FAIL runs/2026-09-03/long-context/record.json" strict &&
	(cd pol && git config ahd-replay.strict false &&
	 git commit -q -a -m "comment" 2>../lax) &&
	grep "warn runs/2026-09-03/long-context/record.json" lax
'

test_expect_success 'a record whose input is missing fails, exit 1' '
	cp -R demo demo2 &&
	rm demo2/prompts/system.md &&
	(cd demo2 && test_expect_code 1 ahd-replay verify $base >../miss) &&
	grep "FAIL  prompt: prompt file not found at" miss
'

test_expect_success 'a record without a hash for an input: could not verify, exit 2' '
	sed "s/\"sha256\": \"[0-9a-f]*\"/\"sha256\": \"xyz\"/" demo2/$base >tmp &&
	mv tmp demo2/$base &&
	(cd demo2 && test_expect_code 2 ahd-replay verify $base 2>../bad >../bad.out) &&
	grep "has no SHA-256 hash spelt as bare hex" bad
'

test_expect_success 'without .ahd-replay.yml the records are not seen' '
	rm demo2/.ahd-replay.yml &&
	(cd demo2 && ahd-replay verify --allow-empty 2>../none >../none.out) &&
	grep "no replay sidecars found" none
'

test_expect_success 'a malformed .ahd-replay.yml: verify refuses, exit 2' '
	printf "layouts: 3\n" >demo2/.ahd-replay.yml &&
	(cd demo2 && test_expect_code 2 ahd-replay verify 2>../err) &&
	grep ".ahd-replay.yml:1:10: '"'"'layouts'"'"' wants a list" err
'

test_done
