#!/bin/sh

test_description='backfill: a layout'"'"'s records filled from history

On the demo'"'"'s branch legacy-import (examples/make-demo-runs-repo.sh)
a run the old harness recorded names its inputs but neither their
hashes nor the commit, and .ahd-replay.yml says backfill may fill both.
backfill fills them as the harness writes them (byte for byte), a
second run changes nothing, nothing with a value is overwritten, and
config check refuses what cannot be filled, with the line.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-runs-repo.sh
sweep=runs/2026-09-04/sweep/record.json

# sha FILE: the bare hex sha256sum prints
sha () {
	sha256sum "$1" | cut -d" " -f1
}

test_expect_success 'setup: the demo, on the branch with the old run' '
	lsan_ignore_libgit2_leaks &&
	sh "$make_demo" demo &&
	git -C demo switch -q legacy-import &&
	git -C demo rev-parse main~5 >base &&
	cp demo/$sweep sweep.orig
'

test_expect_success 'before backfill the old run cannot be verified, exit 2' '
	(cd demo && test_expect_code 2 ahd-replay verify $sweep 2>../err >../out) &&
	grep "has no SHA-256 hash spelt as bare hex" err
'

test_expect_success 'backfill --dry-run shows what it would write, writes nothing' '
	(cd demo && ahd-replay backfill --dry-run >../dry) &&
	cat >expect <<-EOF &&
	would write $sweep
	  /git/commit: $(cat base)
	  /inputs/0/sha256: $(sha demo/configs/eval.yaml)
	  /inputs/1/sha256: $(sha demo/prompts/system.md)

	backfill: scanned=4 written=1 skipped=3 failed=0
	EOF
	test_cmp expect dry &&
	test_cmp sweep.orig demo/$sweep
'

test_expect_success 'backfill fills the commit and the hashes, as the harness writes them' '
	(cd demo && ahd-replay backfill >../wrote) &&
	grep -x "wrote $sweep" wrote &&
	cat >expect <<-EOF &&
	{
	  "name": "sweep",
	  "git": {
	    "branch": "main",
	    "commit": "$(cat base)"
	  },
	  "command": ["python", "-m", "harness.run", "sweep"],
	  "inputs": [
	    {
	      "role": "config",
	      "path": "configs/eval.yaml",
	      "sha256": "$(sha demo/configs/eval.yaml)"
	    },
	    {
	      "role": "prompt",
	      "path": "prompts/system.md",
	      "sha256": "$(sha demo/prompts/system.md)"
	    }
	  ],
	  "results": {
	    "accuracy": 0.79
	  }
	}
	EOF
	test_cmp expect demo/$sweep
'

test_expect_success 'the commit is the last one before the record to change its inputs' '
	(cd demo && git log -1 --format=%H -- configs/eval.yaml prompts/system.md) >want &&
	test_cmp base want &&
	(cd demo && ahd-replay verify $sweep >../ok) &&
	grep -x "verdict: replay inputs intact" ok
'

test_expect_success 'a second run changes nothing, byte for byte' '
	cp demo/$sweep first &&
	(cd demo && ahd-replay backfill -v >../second) &&
	test_cmp first demo/$sweep &&
	grep -x "skipped $sweep: it has every field backfill fills" second &&
	grep -x "backfill: scanned=4 written=0 skipped=4 failed=0" second
'

test_expect_success 'the filled record commits through the pre-commit hook' '
	cp -R demo hooked &&
	(cd hooked && ahd-replay install-hooks >/dev/null &&
	 git commit -q -a -m "backfill the sweep run" 2>../hook) &&
	test_must_be_empty hook
'

test_expect_success 'a record operand: that record only' '
	cp sweep.orig demo/$sweep &&
	mkdir -p demo/docs/evals &&
	echo "# not a report" >demo/docs/evals/x.md &&
	(cd demo && ahd-replay backfill $sweep >../one) &&
	grep -x "backfill: scanned=1 written=1 skipped=0 failed=0" one &&
	test_cmp first demo/$sweep &&
	rm -r demo/docs
'

test_expect_success 'a layout without the backfill key: its records are left alone' '
	git -C demo checkout -q -- runs &&
	git -C demo switch -q main &&
	cp demo/runs/2026-09-01/baseline/record.json baseline.before &&
	(cd demo && ahd-replay backfill >../main) &&
	grep -x "backfill: scanned=3 written=0 skipped=3 failed=0" main &&
	test_cmp baseline.before demo/runs/2026-09-01/baseline/record.json &&
	git -C demo switch -q legacy-import
'

test_expect_success 'setup: records that lack some fields' '
	mkdir -p demo/runs/2026-09-08/named demo/runs/2026-09-08/wrong &&
	cat >demo/runs/2026-09-08/named/record.json <<-EOF &&
	{"git":{"commit":"$(cat base)"},"inputs":[{"role":"config","path":"configs/long-context.yaml","sha256":null}]}
	EOF
	cat >demo/runs/2026-09-08/wrong/record.json <<-EOF &&
	{
	  "inputs": [
	    {"role": "config", "path": "configs/eval.yaml", "sha256": "$(sha demo/prompts/system.md)"},
	    {"role": "prompt", "path": "prompts/system.md"}
	  ]
	}
	EOF
	git -C demo add runs/2026-09-08 &&
	git -C demo commit -q --no-verify -m "two more" &&
	cp demo/runs/2026-09-08/wrong/record.json wrong.before
'

test_expect_success 'a record that names its commit: the hash of the input at that commit, null replaced' '
	(cd demo && test_expect_code 1 ahd-replay backfill >../mixed) &&
	git -C demo show "$(cat base)":configs/long-context.yaml >old.yaml &&
	cat >expect <<-EOF &&
	{"git":{"commit":"$(cat base)"},"inputs":[{"role":"config","path":"configs/long-context.yaml","sha256":"$(sha old.yaml)"}]}
	EOF
	test_cmp expect demo/runs/2026-09-08/named/record.json
'

test_expect_success 'a recorded hash that does not match at the commit found: nothing filled, exit 1' '
	grep "runs/2026-09-08/wrong/record.json: its input configs/eval.yaml does not have its recorded hash at commit" mixed &&
	grep -x "backfill: scanned=6 written=2 skipped=3 failed=1" mixed &&
	test_cmp wrong.before demo/runs/2026-09-08/wrong/record.json
'

test_expect_success 'an untracked record fails (0 with --dry-run)' '
	mkdir -p demo/runs/2026-09-09/new &&
	cp sweep.orig demo/runs/2026-09-09/new/record.json &&
	(cd demo && ahd-replay backfill --dry-run runs/2026-09-09/new/record.json >../dry2) &&
	grep "runs/2026-09-09/new/record.json: no git commit found for the record; needs to be tracked first" dry2 &&
	(cd demo && test_expect_code 1 ahd-replay backfill runs/2026-09-09/new/record.json) &&
	test_cmp sweep.orig demo/runs/2026-09-09/new/record.json &&
	rm -r demo/runs/2026-09-09
'

test_expect_success 'a structured input spelt sha256:<hex>: hashed as ahd-replay hash does' '
	git init -q st &&
	mkdir st/cfg st/rec &&
	printf "a: 1\nb: [x, y]\n" >st/cfg/one.yml &&
	cat >st/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: rec
	    records: "rec/*.json"
	    commit: /commit
	    backfill: [commit, hash]
	    inputs:
	      - name: config
	        path: /config/path
	        hash: /config/hash
	        mode: structured
	EOF
	git -C st add . &&
	git -C st commit -q -m inputs &&
	printf "{\n\t\"config\": {\"path\": \"cfg/one.yml\"}\n}\n" >st/rec/r.json &&
	git -C st add rec &&
	git -C st commit -q -m record &&
	(cd st && ahd-replay backfill >../st.out && ahd-replay hash cfg/one.yml >../st.hash) &&
	printf "{\n\t\"config\": {\"path\": \"cfg/one.yml\", \"hash\": \"%s\"},\n\t\"commit\": \"%s\"\n}\n" \
		"$(cut -d" " -f1 st.hash)" "$(git -C st rev-parse HEAD~1)" >expect &&
	test_cmp expect st/rec/r.json &&
	(cd st && ahd-replay verify rec/r.json >../st.verify) &&
	grep -x "verdict: replay inputs intact" st.verify
'

test_expect_success 'config check: what backfill cannot fill is refused with the line' '
	mkdir bad &&
	git -C bad init -q &&
	cat >bad/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: a
	    records: "a/*.json"
	    backfill: [commit, hash, hashes]
	    inputs:
	      - name: x
	        path: /inputs/*/path
	        hash: /hash
	  - name: b
	    records: "b/*.json"
	    commit: /runs/*/commit
	    backfill: yes
	    inputs:
	      - name: x
	        path: /x/path
	        hash: /x/hash
	  - name: c
	    records: "c/*.json"
	    commit: /runs/*/commit
	    backfill: [commit]
	    inputs:
	      - name: x
	        path: /x/path
	        hash: /x/hash
	EOF
	(cd bad && test_expect_code 1 ahd-replay config check 2>../check) &&
	grep ".ahd-replay.yml:5:30: backfill field .hashes.: commit or hash" check &&
	grep ".ahd-replay.yml:5:15: backfill of the commit needs the layout.s .commit. pointer" check &&
	grep ".ahd-replay.yml:5:15: backfill of input .x.: its .hash. pointer ./hash. must have as many .\*. as its .path. ./inputs/\*/path." check &&
	grep ".ahd-replay.yml:13:15: .backfill. wants a list of fields: commit, hash" check &&
	grep ".ahd-replay.yml:21:15: backfill of the commit needs a .commit. pointer without .\*., not ./runs/\*/commit." check
'

test_done
