#!/bin/sh

test_description='replay: re-issue a run at its version with its inputs

A repository where a token is edited after a run, a run made with
uncommitted changes (committed later), a run whose token is in no
commit, a run without ahd_commit and one recorded on CI.  replay must
make a detached worktree at ahd_commit holding the inputs the run read,
never touch the user'"'"'s work tree, index, HEAD or stash, write
byte-identical receipts, and compare what a re-issued run writes.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# Everything of the user's that a replay must leave alone.
snapshot () {
	(
		cd repo &&
		git rev-parse HEAD &&
		cat .git/HEAD &&
		sha256sum .git/index &&
		git stash list &&
		git status --porcelain --untracked-files=all &&
		find . -path ./.git -prune -o -type f -print | sort |
			xargs sha256sum
	)
}

commit_of () {
	git -C repo rev-parse "$1"
}

test_expect_success 'setup: a token edited after a run, a dirty run' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs repo/bin &&
	printf "color: red\n" >repo/tokens/t.yml &&
	printf "# Brief\n\nMake it.\n" >repo/briefs/b.md &&
	printf "#!/bin/sh\nexit 0\n" >repo/bin/ahd.js &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m "token red" &&
	A=$(commit_of HEAD) &&
	(cd repo && write_sidecar --commit="$A" \
		--argv="[\"/opt/hostedtoolcache/node/22/x64/bin/node\", \"/home/runner/work/ahd/ahd/bin/ahd.js\", \"eval\", \"--out\", \"/home/runner/work/ahd/ahd/docs/one.md\"]" \
		docs/one.replay.json tokens/t.yml briefs/b.md) &&
	printf "# One\n\nresults\n" >repo/docs/one.md &&
	printf "color: blue\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "token blue" &&
	B=$(commit_of HEAD) &&
	printf "color: green\n" >repo/tokens/t.yml &&
	(cd repo && write_sidecar --commit="$B" --dirty=true \
		docs/two.replay.json tokens/t.yml briefs/b.md) &&
	printf "# Two\n" >repo/docs/two.md &&
	git -C repo add docs &&
	test_tick && git -C repo commit -q -am "token green, reports" &&
	C=$(commit_of HEAD) &&
	printf "color: white\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "token white" &&
	(cd repo && write_sidecar --commit="$A" \
		--token-hash="sha256:$(printf nothing | sha256sum | cut -c1-64)" \
		docs/lost.replay.json tokens/t.yml briefs/b.md &&
		write_sidecar --commit=null docs/nocommit.replay.json \
			tokens/t.yml briefs/b.md) &&
	git -C repo add docs &&
	test_tick && git -C repo commit -q -m "more reports" &&
	echo "local edit" >>repo/briefs/b.md &&
	echo stashed >repo/stash-me && git -C repo add stash-me &&
	git -C repo stash -q &&
	echo "untracked" >repo/scratch.txt &&
	echo "A=$A B=$B C=$C" >ids &&
	snapshot >before
'

. ./ids 2>/dev/null

test_expect_success 'the token edited after the run: worktree at ahd_commit, verify passes there' '
	. ./ids &&
	test_must_fail ahd-replay verify repo/docs/one.md >drift.out &&
	ahd-replay replay --worktree=wt1 repo/docs/one.md >out &&
	test_grep "at $(printf %s "$A" | cut -c1-12) (exact)" out &&
	test_grep "token     tokens/t.yml  restored from history: the version at ahd_commit (the work tree.s copy changed since)" out &&
	test_grep "brief     briefs/b.md  as ahd_commit has it" out &&
	test "$(git -C wt1 rev-parse HEAD)" = "$A" &&
	test "$(git -C wt1 symbolic-ref -q HEAD || echo detached)" = detached &&
	git -C repo worktree list --porcelain >list &&
	test_grep "worktree $(cd wt1 && pwd -P)" list &&
	(cd wt1 && ahd-replay verify docs/one.md >../v.out) &&
	test_grep "replay inputs intact" v.out &&
	test_path_is_file wt1/replay-receipt.json &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success 'the worktree is clean for git: only the replayed files are new' '
	git -C wt1 status --porcelain --untracked-files=all >st &&
	cat >expect <<-\EOF &&
	?? docs/one.md
	?? docs/one.replay.json
	?? replay-receipt.json
	EOF
	test_cmp expect st
'

test_expect_success 'the recorded CI command is mapped onto the worktree' '
	test_grep "command   node bin/ahd.js eval --out docs/one.md" out &&
	test_grep "\"argv\":\[\"node\",\"bin/ahd.js\",\"eval\",\"--out\",\"docs/one.md\"\]" \
		wt1/replay-receipt.json
'

test_expect_success 'a dirty run: the token is restored from the commit that has it' '
	. ./ids &&
	ahd-replay replay --worktree=wt2 repo/docs/two.md >out2 &&
	test "$(git -C wt2 rev-parse HEAD)" = "$B" &&
	test_grep "token     tokens/t.yml  restored from history: $(printf %s "$C" | cut -c1-12)" out2 &&
	test_grep "git_dirty: true" out2 &&
	test "$(cat wt2/tokens/t.yml)" = "color: green" &&
	test_grep "\"commit\":\"$C\",\"kind\":\"token\"" wt2/replay-receipt.json &&
	(cd wt2 && ahd-replay verify docs/two.md >../v2.out) &&
	test_grep "replay inputs intact" v2.out &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success 'two replays give byte-identical receipts' '
	ahd-replay replay --worktree=wt3 --receipt=r3.json repo/docs/two.md &&
	ahd-replay replay --worktree=wt4 --receipt=r4.json repo/docs/two.md &&
	test_cmp r3.json r4.json &&
	test_cmp r3.json wt2/replay-receipt.json &&
	test_cmp r3.json wt4/replay-receipt.json
'

test_expect_success 'the receipt is RFC 8785 and names sidecar, commit, mode and materials' '
	ahd-replay canon --jcs r3.json >r3.canon &&
	printf "%s" "$(cat r3.canon)" >r3.canon.nonl &&
	test_cmp r3.canon.nonl r3.json &&
	. ./ids &&
	sh_=$(ahd-replay hash --jcs repo/docs/two.replay.json) &&
	test_grep "\"sidecar_sha256\":\"${sh_%% *}\"" r3.json &&
	test_grep "\"ahd_commit\":\"$B\"" r3.json &&
	test_grep "\"mode\":\"exact\"" r3.json &&
	test_grep "\"overrides\":\[\]" r3.json
'

test_expect_success 'the receipt gives the hash of an input restored from history' '
	th_=$(sed -n "/\"token\"/,/}/s/.*\"hash\": \"\(sha256:[0-9a-f]*\)\".*/\1/p" \
		repo/docs/two.replay.json) &&
	test -n "$th_" &&
	test_grep "\"kind\":\"token\",\"path\":\"tokens/t.yml\",\"sha256\":\"$th_\",\"source\":\"history\"" \
		r3.json
'

test_expect_success 'exact mode: an input in no commit fails and leaves nothing behind' '
	ls repo/.git/worktrees >wts.before &&
	test_expect_code 1 ahd-replay replay --worktree=wt5 repo/docs/lost.md \
		>out5 2>err5 &&
	test_grep "cannot restore the token: no version of tokens/t.yml" err5 &&
	test_grep "exact mode never uses other bytes" err5 &&
	test_path_is_missing wt5 &&
	ls repo/.git/worktrees >wts.after &&
	test_cmp wts.before wts.after &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success '--keep keeps the failed worktree' '
	test_expect_code 1 ahd-replay replay --keep --worktree=wt6 \
		repo/docs/lost.md 2>err6 &&
	test_grep "kept at" err6 &&
	test_path_is_dir wt6 &&
	git -C repo worktree remove --force "$(cd wt6 && pwd -P)" &&
	test_path_is_missing wt6
'

test_expect_success 'with overrides: the given file, and a delta with both hashes' '
	printf "color: black\n" >black.yml &&
	test_must_fail ahd-replay replay --override=token=black.yml \
		repo/docs/lost.md 2>err &&
	test_grep "needs --mode=with-overrides" err &&
	ahd-replay replay --mode=with-overrides --override=token=black.yml \
		--reason="token lost" --worktree=wt7 repo/docs/lost.md >out7 &&
	test "$(cat wt7/tokens/t.yml)" = "color: black" &&
	after_=$(hash_of black.yml) &&
	before_=$(sed -n "/\"token\"/,/}/s/.*\"hash\": \"\(.*\)\".*/\1/p" \
		repo/docs/lost.replay.json) &&
	test_grep "\"overrides\":\[{\"after_sha256\":\"$after_\",\"before_sha256\":\"$before_\",\"override_key\":\"input:token\",\"path\":\"tokens/t.yml\",\"reason\":\"token lost\"}\]" \
		wt7/replay-receipt.json &&
	test_grep "\"mode\":\"with_overrides\"" wt7/replay-receipt.json &&
	test_grep "overridden: $before_ -> $after_" out7
'

test_expect_success 'no ahd_commit: explained, nothing made' '
	test_expect_code 1 ahd-replay replay --worktree=wt8 \
		repo/docs/nocommit.md 2>err8 &&
	test_grep "records no ahd_commit" err8 &&
	test_path_is_missing wt8
'

test_expect_success 'a shallow clone without ahd_commit says so' '
	git clone -q --depth 1 "file://$(pwd)/repo" shallow &&
	test_expect_code 1 ahd-replay replay --worktree=wt9 \
		shallow/docs/one.md 2>err9 &&
	test_grep "not in this shallow clone" err9 &&
	test_path_is_missing wt9
'

test_expect_success 'the default worktree is under the git directory, listed by git' '
	ahd-replay replay repo/docs/one.md >out10 &&
	. ./ids &&
	dir_=$(sed -n "s/^  worktree  //p" out10) &&
	case "$dir_" in
	"$(cd repo/.git && pwd -P)"/ahd-replay-worktrees/one-*) ;;
	*) false ;;
	esac &&
	git -C repo worktree list >list10 &&
	test_grep "$dir_" list10 &&
	ahd-replay replay repo/docs/one.md >out11 &&
	dir2_=$(sed -n "s/^  worktree  //p" out11) &&
	test "$dir_" != "$dir2_" &&
	git -C repo worktree remove --force "$dir_" &&
	git -C repo worktree remove --force "$dir2_" &&
	snapshot >after &&
	test_cmp before after
'

# A program that re-issues the run: it writes a new sidecar for the
# report, changing what the sed expression says.
cat >rerun.sh <<'EOF'
#!/bin/sh
sed "$1" docs/one.replay.json >docs/one.replay.json.new &&
mv docs/one.replay.json.new docs/one.replay.json
exit ${2:-0}
EOF
chmod +x rerun.sh

test_expect_success '--run: stable fields held when only volatile ones change' '
	ahd-replay replay --worktree=wt12 --run repo/docs/one.md -- \
		"$(pwd)/rerun.sh" "s/2026-08-03T09:57:42.291Z/2026-11-23T00:00:00.000Z/" \
		>out12 &&
	test_grep "stable fields: all held" out12
'

test_expect_success '--run: a changed stable field is named, exit 1' '
	test_expect_code 1 ahd-replay replay --worktree=wt13 --run \
		repo/docs/one.md -- "$(pwd)/rerun.sh" "s/\"n\": 3/\"n\": 4/" \
		>out13 &&
	test_grep "stable fields: 1 changed" out13 &&
	test_grep "changed  sampling.n" out13
'

test_expect_success '--run passes a failing command'"'"'s status through' '
	test_expect_code 3 ahd-replay replay --worktree=wt14 --run \
		repo/docs/one.md -- "$(pwd)/rerun.sh" "s/x/x/" 3
'

test_expect_success '--run with no command recorded explains' '
	(cd repo && write_sidecar --commit="$(git rev-parse HEAD)" --argv="[]" \
		docs/empty.replay.json tokens/t.yml briefs/b.md) &&
	ahd-replay replay --worktree=wt15 repo/docs/empty.replay.json >out15 &&
	test_grep "none recorded" out15 &&
	test_expect_code 2 ahd-replay replay --worktree=wt16 --run \
		repo/docs/empty.replay.json 2>err16 &&
	test_grep "argv is empty" err16 &&
	rm repo/docs/empty.replay.json
'

test_expect_success '--format=json gives the worktree and the receipt' '
	ahd-replay replay --worktree=wt17 --format=json repo/docs/two.md >j &&
	test_grep "\"worktree\": \"$(pwd -P)/wt17\"" j &&
	test_grep "\"source\": \"history\"" j
'

test_expect_success 'usage errors' '
	test_expect_code 2 ahd-replay replay &&
	test_expect_code 2 ahd-replay replay --mode=sloppy repo/docs/one.md &&
	test_expect_code 2 ahd-replay replay repo/docs/one.md -- true &&
	test_expect_code 2 ahd-replay replay --mode=with-overrides \
		--override=model=x repo/docs/one.md
'

test_expect_success 'the demo: the report whose token was edited after its run' '
	sh "$TEST_SRC_DIR/examples/make-demo-repo.sh" demo >/dev/null &&
	r_=docs/evals/2026-07-28-swiss-editorial-landing.md &&
	test_must_fail ahd-replay verify "demo/$r_" >demo.verify &&
	ahd-replay replay --worktree=demo-wt "demo/$r_" >demo.out &&
	test_grep "token     tokens/swiss-editorial.yml  restored from history" \
		demo.out &&
	(cd demo-wt && ahd-replay verify "$r_" >../demo-wt.verify) &&
	test_grep "replay inputs intact" demo-wt.verify
'

test_expect_success 'a symlink of the commit never leads a write out of the worktree' '
	git init -q sym &&
	mkdir sym/tokens outside &&
	printf "a: 1\n" >sym/tokens/t.yml &&
	ln -s "$(pwd)/outside" sym/docs &&
	git -C sym add . &&
	test_tick && git -C sym commit -q -m "docs is a link" &&
	A_=$(git -C sym rev-parse HEAD) &&
	git -C sym rm -q docs &&
	mkdir sym/docs &&
	(cd sym && write_sidecar --commit="$A_" docs/s.replay.json tokens/t.yml) &&
	echo "# S" >sym/docs/s.md &&
	git -C sym add docs &&
	test_tick && git -C sym commit -q -m "real docs" &&
	mkdir wt-sym-parent &&
	test_expect_code 2 ahd-replay replay --worktree=wt-sym-parent/wt \
		sym/docs/s.md 2>err.sym &&
	test_grep "a symlink of the commit leads out of the worktree" err.sym &&
	test -z "$(ls -A outside)" &&
	test -z "$(ls -A wt-sym-parent)"
'

test_expect_success 'a receipt the commit plants as a symlink is replaced, not followed' '
	git init -q rs &&
	mkdir rs/tokens &&
	printf "a: 1\n" >rs/tokens/t.yml &&
	ln -s ../receipt-target rs/replay-receipt.json &&
	git -C rs add . &&
	test_tick && git -C rs commit -q -m "a planted receipt" &&
	A_=$(git -C rs rev-parse HEAD) &&
	mkdir rs/docs &&
	(cd rs && write_sidecar --commit="$A_" docs/r.replay.json tokens/t.yml) &&
	echo "# R" >rs/docs/r.md &&
	git -C rs add docs &&
	test_tick && git -C rs commit -q -m "the report" &&
	echo mine >receipt-target &&
	ahd-replay replay --worktree=wt-rs rs/docs/r.md >out.rs &&
	test_path_is_file wt-rs/replay-receipt.json &&
	! test -h wt-rs/replay-receipt.json &&
	test_grep "\"sidecar\":\"docs/r.replay.json\"" wt-rs/replay-receipt.json &&
	echo mine >expect &&
	test_cmp expect receipt-target
'

test_expect_success 'a report that leads out of the work tree is not copied' '
	echo secret >secret.txt &&
	cp repo/docs/one.md one.md.save &&
	rm repo/docs/one.md &&
	ln -s ../../secret.txt repo/docs/one.md &&
	test_when_finished "rm -f repo/docs/one.md && cp one.md.save repo/docs/one.md" &&
	test_expect_code 2 ahd-replay replay --worktree=wt-leak repo/docs/one.md \
		2>err.leak &&
	test_grep "leads out of the work tree" err.leak &&
	test_path_is_missing wt-leak
'

test_expect_success 'ahd_commit: an abbreviation, a tree, a blob or a tag is refused' '
	git init -q ids-repo &&
	mkdir ids-repo/tokens ids-repo/docs &&
	printf "a: 1\n" >ids-repo/tokens/t.yml &&
	git -C ids-repo add . &&
	test_tick && git -C ids-repo commit -q -m one &&
	git -C ids-repo tag -a -m t vtag &&
	full=$(git -C ids-repo rev-parse HEAD) &&
	short=$(printf %s "$full" | cut -c1-7) &&
	(cd ids-repo && write_sidecar --commit="$short" \
		docs/short.replay.json tokens/t.yml) &&
	test_expect_code 1 ahd-replay replay --worktree=wt-short \
		ids-repo/docs/short.replay.json 2>err.short &&
	test_grep "not a commit id (40 lowercase hex digits)" err.short &&
	test_path_is_missing wt-short &&
	for rev in HEAD^{tree} HEAD:tokens/t.yml vtag
	do
		id=$(git -C ids-repo rev-parse "$rev") &&
		(cd ids-repo && write_sidecar --commit="$id" \
			docs/obj.replay.json tokens/t.yml) &&
		test_expect_code 1 ahd-replay replay --worktree=wt-obj \
			ids-repo/docs/obj.replay.json 2>err.obj &&
		test_grep "is a [a-z]* of this repository, not a commit" err.obj &&
		test_path_is_missing wt-obj || return 1
	done
'

test_expect_success '--run: a recorded program name never reaches the terminal raw' '
	(cd ids-repo && write_sidecar --commit="$(git rev-parse HEAD)" \
		--argv="[\"/nowhere/run\u001b]0;owned\u0007\"]" \
		docs/esc.replay.json tokens/t.yml) &&
	test_expect_code 2 ahd-replay replay --worktree=wt-esc --run \
		ids-repo/docs/esc.replay.json >out.esc 2>err.esc &&
	test_grep "cannot find .run.x1b.0;owned.x07. on PATH" err.esc &&
	! grep "$(printf "\033")" err.esc &&
	! grep "$(printf "\033")" out.esc
'

test_expect_success 'a recorded input path never reaches the terminal raw' '
	sed "s#\"tokens/t.yml\"#\"tokens/t\\\\u001b[31m.yml\"#" \
		ids-repo/docs/esc.replay.json >ids-repo/docs/pesc.replay.json &&
	grep u001b ids-repo/docs/pesc.replay.json &&
	test_expect_code 1 ahd-replay replay --worktree=wt-pesc \
		ids-repo/docs/pesc.replay.json >out.pesc 2>err.pesc &&
	test_grep "no version of tokens/t.x1b.31m.yml" err.pesc &&
	! grep "$(printf "\033")" err.pesc &&
	sed "s#\"tokens/t.yml\"#\"/nowhere/t\\\\u001b[31m.yml\"#" \
		ids-repo/docs/esc.replay.json >ids-repo/docs/pesc.replay.json &&
	test_expect_code 2 ahd-replay replay --worktree=wt-pesc \
		ids-repo/docs/pesc.replay.json >out.pesc 2>err.pesc &&
	test_grep "cannot tell where the token /nowhere/t.x1b.31m.yml" err.pesc &&
	! grep "$(printf "\033")" err.pesc
'

test_expect_success 'a signal while the worktree is being made leaves nothing behind' '
	ls repo/.git/worktrees >wts.sig.before &&
	mkfifo slow-token &&
	# the override is read after the checkout: the fifo holds replay there
	{
		ahd-replay replay --mode=with-overrides --override=token=slow-token \
			--worktree=wt-sig repo/docs/one.md >out.sig 2>&1 &
	} &&
	pid_=$! &&
	n_=0 &&
	while ! test -f wt-sig/.git && test $n_ -lt 200
	do
		sleep 0.05 && n_=$((n_ + 1)) || return 1
	done &&
	test -f wt-sig/.git &&
	kill -TERM $pid_ &&
	{ wait $pid_; test $? = 143; } &&
	test_path_is_missing wt-sig &&
	ls repo/.git/worktrees >wts.sig.after &&
	test_cmp wts.sig.before wts.sig.after
'

test_expect_success 'after everything: the user'"'"'s files, index, HEAD and stash as before' '
	snapshot >after &&
	test_cmp before after
'

test_done
