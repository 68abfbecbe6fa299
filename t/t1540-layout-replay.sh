#!/bin/sh

test_description='replay the records of a layout

A record of a layout of .ahd-replay.yml is replayed as a sidecar is: a
worktree at the commit its commit pointer names, each pinned input
restored by its hash, the record copied in, and the command its command
pointer names (argv, a JSON array of strings) run with --run only under
replay'"'"'s trust rules.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-runs-repo.sh
long=runs/2026-09-03/long-context/record.json
nightly=runs/2026-09-02/nightly/record.json

# record FILE COMMIT COMMAND-JSON: a run record pinning cfg.txt as it is.
record () {
	sum_=$(test_sha256 repo/cfg.txt) &&
	printf "{\"commit\": \"%s\", \"command\": %s,\n \"inputs\": [{\"name\": \"cfg\", \"path\": \"cfg.txt\", \"sha256\": \"%s\"}]}\n" \
		"$2" "$3" "$sum_" >"repo/$1"
}

test_expect_success 'setup: the demo repository' '
	lsan_ignore_libgit2_leaks &&
	sh "$make_demo" demo &&
	git -C demo show HEAD~5:configs/long-context.yaml >long.orig
'

test_expect_success 'replay: the drifted input is restored from the record'"'"'s commit' '
	(cd demo && ahd-replay replay --worktree=../wt-long $long >../out) &&
	commit=$(git -C demo rev-parse HEAD~5) &&
	test_grep "^replay $long at $(echo $commit | cut -c1-12) (exact)$" out &&
	test_grep "^  config    configs/long-context.yaml  restored from history: the version at the record'"'"'s commit (the work tree'"'"'s copy changed since)$" out &&
	test_grep "^  prompt    prompts/system.md  as the record'"'"'s commit has it$" out &&
	test_grep "^  command   python -m harness.run long-context$" out &&
	test_cmp long.orig wt-long/configs/long-context.yaml &&
	test_cmp demo/$long wt-long/$long &&
	(cd wt-long && ahd-replay verify $long >../verify) &&
	test_grep "^verdict: replay inputs intact$" verify
'

test_expect_success 'the receipt names the layout and the record by its bytes' '
	test_grep "\"source\":{\"layout\":\"runs\",\"record\":\"$long\",\"record_sha256\":\"sha256:$(test_sha256 demo/$long)\"}" wt-long/replay-receipt.json &&
	test_grep "\"argv\":\\[\"python\",\"-m\",\"harness.run\",\"long-context\"\\]" wt-long/replay-receipt.json &&
	test_grep "\"ahd_commit\":\"$(git -C demo rev-parse HEAD~5)\"" wt-long/replay-receipt.json
'

test_expect_success 'a CI record: absolute input paths re-rooted' '
	(cd demo && ahd-replay replay --worktree=../wt-ci $nightly >../out) &&
	test_grep "^  config    configs/eval.yaml  as the record'"'"'s commit has it$" out
'

test_expect_success '--override is AHD'"'"'s: refused for a record, exit 2' '
	(cd demo && test_expect_code 2 ahd-replay replay --worktree=../wt-ov \
		--mode=with-overrides --override=token=configs/eval.yaml $long 2>../err) &&
	test_grep "a record of a layout is replayed with its recorded inputs only" err &&
	test_path_is_missing wt-ov
'

test_expect_success 'setup: a repository whose records name a runnable command' '
	git init -q -b main repo &&
	mkdir repo/runs &&
	cat >repo/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: runs
	    records: "runs/*.json"
	    commit: /commit
	    command: /command
	    inputs:
	      - name: input
	        label: /inputs/*/name
	        path: /inputs/*/path
	        hash: /inputs/*/sha256
	        mode: raw
	        spelling: hex
	EOF
	echo "setting: 1" >repo/cfg.txt &&
	printf "#!/bin/sh\ncat cfg.txt >ran-\$1\n" >repo/run.sh &&
	chmod +x repo/run.sh &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m base &&
	TRUSTED=$(git -C repo rev-parse HEAD) &&
	git -C repo checkout -q -b attacker &&
	printf "#!/bin/sh\necho attacker >../pwned\n" >repo/run.sh &&
	test_tick && git -C repo commit -q -am attacker &&
	EVIL=$(git -C repo rev-parse HEAD) &&
	git -C repo checkout -q main &&
	record runs/ok.json $TRUSTED "[\"./run.sh\", \"ok\"]" &&
	record runs/evil.json $EVIL "[\"./run.sh\", \"evil\"]" &&
	record runs/string.json $TRUSTED "\"./run.sh ok\"" &&
	record runs/object.json $TRUSTED "{\"argv\": [\"./run.sh\"]}" &&
	record runs/nocommand.json $TRUSTED "null" &&
	echo "setting: 2" >repo/cfg.txt
'

test_expect_success '--run: a program of the trusted commit runs, said first' '
	(cd repo && ahd-replay replay --worktree=../wt-ok --run runs/ok.json >../out) &&
	test_grep "^running .*/wt-ok/run.sh ok (the record'"'"'s commit [0-9a-f]* is in refs/heads/main)$" out &&
	echo "setting: 1" >expect &&
	test_cmp expect wt-ok/ran-ok &&
	test_grep "^only AHD'"'"'s sidecar has a field stability table: no stable fields to compare$" out &&
	test_grep "\"run\":{\"argv\":\\[\"./run.sh\",\"ok\"\\]" wt-ok/replay-receipt.json
'

test_expect_success '--run: a commit outside the trusted history is refused' '
	(cd repo && test_expect_code 2 ahd-replay replay --worktree=../wt-evil \
		--run runs/evil.json >../out 2>../err) &&
	test_grep "refusing to run .*run.sh evil: the record'"'"'s commit [0-9a-f]* is not in the history of the trusted ref refs/heads/main; --allow-untrusted-run runs it anyway" err &&
	test_path_is_missing pwned &&
	test_path_is_missing wt-evil/ran-evil
'

test_expect_success '--run --allow-untrusted-run: the user chose to run it' '
	(cd repo && ahd-replay replay --worktree=../wt-evil2 --run \
		--allow-untrusted-run runs/evil.json >../out) &&
	test_grep "(untrusted, run by --allow-untrusted-run)" out &&
	test_path_is_file pwned &&
	rm pwned
'

test_expect_success 'a signature by a trusted key makes the record trusted' '
	ahd-replay keygen --out key >/dev/null &&
	mkdir keys && cp key.pub keys/ &&
	(cd repo && ahd-replay sign -q --key ../key runs/evil.json &&
	 ahd-replay replay --worktree=../wt-signed --run --trusted-keys ../keys \
		runs/evil.json >../out) &&
	test_grep "(the record is signed by sha256:" out &&
	test_path_is_file pwned &&
	rm pwned
'

test_expect_success 'a signed record edited after signing is not trusted' '
	cp repo/runs/evil.json evil.saved &&
	sed "s/evil\"]/evil\", \"x\"]/" evil.saved >repo/runs/evil.json &&
	(cd repo && test_expect_code 2 ahd-replay replay --worktree=../wt-edited \
		--run --trusted-keys ../keys runs/evil.json 2>../err) &&
	test_grep "is not in the history of the trusted ref" err &&
	test_path_is_missing pwned &&
	cp evil.saved repo/runs/evil.json
'

test_expect_success 'a signature does not vouch for the layout: its command pointer moved' '
	echo "setting: 1" >cfg.committed &&
	sum_=$(test_sha256 cfg.committed) &&
	printf "{\"commit\": \"%s\", \"command\": [\"./run.sh\", \"ok\"], \"note\": [\"sh\", \"-c\", \"echo attacker >../pwned\"],\n \"inputs\": [{\"name\": \"cfg\", \"path\": \"cfg.txt\", \"sha256\": \"%s\"}]}\n" \
		"$TRUSTED" "$sum_" >repo/runs/noted.json &&
	(cd repo && ahd-replay sign -q --key ../key runs/noted.json) &&
	cp repo/.ahd-replay.yml rc.saved &&
	test_when_finished "cp rc.saved repo/.ahd-replay.yml" &&
	sed "s|command: /command|command: /note|" rc.saved >repo/.ahd-replay.yml &&
	(cd repo && test_expect_code 2 ahd-replay replay --worktree=../wt-noted \
		--run --trusted-keys ../keys runs/noted.json 2>../err) &&
	test_grep "refusing to run .*sh -c" err &&
	test_grep "is neither the recorded interpreter (node) running a script of the worktree nor in ahd-replay.runAllow" err &&
	test_path_is_missing pwned
'

test_expect_success 'a command that is a string is refused, exit 2' '
	(cd repo && test_expect_code 2 ahd-replay replay --worktree=../wt-str \
		runs/string.json 2>../err) &&
	test_grep "the command at /command is not a list of strings (argv); replay runs no shell to split a string" err &&
	test_path_is_missing wt-str
'

test_expect_success 'a command that is an object is refused, exit 2' '
	(cd repo && test_expect_code 2 ahd-replay replay --worktree=../wt-obj \
		runs/object.json 2>../err) &&
	test_grep "the command at /command is not a list of strings" err
'

test_expect_success 'a record without a command: replayed, not run' '
	sed "s/\"command\": null,//" repo/runs/nocommand.json >tmp &&
	mv tmp repo/runs/nocommand.json &&
	(cd repo && ahd-replay replay --worktree=../wt-none runs/nocommand.json >../out &&
	 test_expect_code 2 ahd-replay replay --worktree=../wt-none2 --run \
		runs/nocommand.json 2>../err) &&
	test_grep "^  command   (none recorded" out &&
	test_grep "the record names no command at /command: nothing to run" err
'

test_expect_success 'a record without a commit cannot be re-issued, exit 1' '
	sed "s/\"commit\": \"[0-9a-f]*\",//" repo/runs/ok.json >repo/runs/nocommit.json &&
	(cd repo && test_expect_code 1 ahd-replay replay --worktree=../wt-nc \
		runs/nocommit.json 2>../err) &&
	test_grep "the record names no commit at /commit" err
'

test_expect_success 'an input no version has: exact mode refuses, exit 1' '
	sed "s/\"sha256\": \"[0-9a-f]*\"/\"sha256\": \"$(printf %064d 0)\"/" \
		repo/runs/ok.json >repo/runs/lost.json &&
	(cd repo && test_expect_code 1 ahd-replay replay --worktree=../wt-lost \
		runs/lost.json 2>../err) &&
	test_grep "cannot restore the cfg: no version of cfg.txt" err
'

test_done
