#!/bin/sh

test_description='hook pre-commit: real git commit judges the index being committed

Every test runs a real `git commit` (plain, -a, with paths, after
add -p-style partial staging, merges, linked worktrees, explicit GIT_DIR)
in a clone of one fixture repository, with minimal hook shims that exec
`ahd-replay hook pre-commit` (and pre-merge-commit).  The fixture pins
two tokens and two briefs from three reports; one sidecar was recorded on
CI with absolute /home/runner/work/ahd/ahd/ paths.  Hashes in sidecars
come from `ahd-replay hash`.  A hook run must never write: status, the
index checksum, the stash list and every file under .git are compared
before and after.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

ci_prefix=/home/runner/work/ahd/ahd

# install_real REPO: `ahd-replay install-hooks --pre-merge-commit`, run
# in REPO as a user would; the hooks must be where git runs them.
install_real () {
	(cd "$1" && ahd-replay install-hooks --pre-merge-commit) >/dev/null &&
	ir_hooks=$(cd "$1" && git rev-parse --path-format=absolute --git-path hooks) &&
	test_grep "ahd-replay hook: pre-commit" "$ir_hooks/pre-commit" >/dev/null &&
	test_grep "ahd-replay hook: pre-merge-commit" "$ir_hooks/pre-merge-commit" >/dev/null
}

# write_hook FILE ARGS: a minimal hook shim, for the set-ups where only
# the environment names the repository (GIT_DIR, no .git where git
# looks).  `ahd-replay` on PATH is the test-lib wrapper.
write_hook () {
	printf '#!/bin/sh\nexec ahd-replay hook %s\n' "$2" >"$1" &&
	chmod +x "$1"
}

# install_hooks HOOKS-DIR: minimal pre-commit and pre-merge-commit shims.
install_hooks () {
	mkdir -p "$1" &&
	write_hook "$1/pre-commit" pre-commit &&
	write_hook "$1/pre-merge-commit" pre-merge-commit
}

# new_clone DIR: a clone of the fixture with the hooks installed.
new_clone () {
	git clone -q base "$1" &&
	install_real "$1"
}

# snapshot DIR OUT: what a hook run must not change: status, the index
# checksum, the stash list, the refs, and whether a lock exists.
snapshot () {
	(
		cd "$1" &&
		git --no-optional-locks status --porcelain=v1 -uall &&
		echo "index $(test_sha256 "$(git rev-parse --git-path index)")" &&
		echo "stash:" && git stash list &&
		git for-each-ref &&
		echo "HEAD $(git rev-parse -q --verify HEAD)" &&
		find "$(git rev-parse --git-common-dir)" "$(git rev-parse --git-dir)" \
			-name "*.lock" | sed "s/^/lock /"
	) >"$2"
}

# git_dir_sums DIR OUT: a checksum of every file under DIR's .git
# (hooks aside): a hook run writes nothing there but the content cache
# (ahd-replay/cache/, which any run may refresh; t3180 tests it), so not
# the index, a ref, a lock or the config.
git_dir_sums () {
	(
		cd "$1/.git" &&
		find . \( -path ./hooks -o -path ./ahd-replay/cache \) -prune \
			-o -type f -print | LC_ALL=C sort |
		while read -r f
		do
			printf '%s %s\n' "$(test_sha256 "$f")" "$f"
		done
	) >"$2"
}

# settle DIR: make the index of DIR's work tree not racily clean (work
# tree files older than the index) and give it its cache tree, so that
# git itself has no reason to rewrite it while committing; what changes
# it then is the hook.
settle () {
	(
		cd "$1" &&
		settle_top=$(git rev-parse --show-toplevel) &&
		find "$settle_top" -path "$settle_top/.git" -prune -o -type f \
			-exec touch -d @1600000000 {} + &&
		git update-index -q --refresh >/dev/null
		git write-tree >/dev/null 2>&1
	)
	return 0
}

# commit_refused DIR GIT-COMMIT-ARGS...: `git commit` in DIR must fail
# (stderr in DIR.err) and change nothing that `snapshot` sees.
commit_refused () {
	cr_dir=$1
	shift
	settle "$cr_dir" &&
	snapshot "$cr_dir" "$cr_dir.before" &&
	(cd "$cr_dir" && test_must_fail git commit -q "$@") 2>"$cr_dir.err" &&
	cat "$cr_dir.err" &&
	snapshot "$cr_dir" "$cr_dir.after" &&
	test_cmp "$cr_dir.before" "$cr_dir.after"
}

# commit_allowed DIR GIT-COMMIT-ARGS...: `git commit` in DIR succeeds
# and moves HEAD; stderr in DIR.err.
commit_allowed () {
	ca_dir=$1
	shift
	ca_old=$(git -C "$ca_dir" rev-parse -q --verify HEAD) || ca_old=
	(cd "$ca_dir" && git commit -q "$@") 2>"$ca_dir.err"
	ca_ret=$?
	cat "$ca_dir.err"
	test "$ca_ret" = 0 &&
	test "$(git -C "$ca_dir" rev-parse HEAD)" != "$ca_old"
}

# libgit2 1.5 leaks the PCRE2 match data of regexes that do not match
# (opening a repository of format version 1 does that) and in
# git_repository_set_workdir() (GIT_DIR with a work tree elsewhere), as
# t1401 notes.  Tell LeakSanitizer, when it runs, about those two only.
test_expect_success 'setup: a fixture repository with reports that pin inputs' '
	cat >"$TRASH_DIRECTORY/lsan.supp" <<-\EOF &&
	leak:libpcre2-8.so
	leak:git_repository_set_workdir
	EOF
	supp=suppressions=$TRASH_DIRECTORY/lsan.supp:print_suppressions=0 &&
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}$supp &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
	export LSAN_OPTIONS ASAN_OPTIONS &&
	git init -q -b main base &&
	mkdir -p base/tokens base/briefs base/docs/evals/weekly base/src &&
	cat >base/package.json <<-\EOF &&
	{ "name": "@adastracomputing/ahd", "version": "0.11.0" }
	EOF
	cat >base/tokens/swiss.yml <<-\EOF &&
	# Swiss editorial: a strict grid and one accent colour.
	# Owner: design systems.
	name: swiss-editorial
	version: 3
	grid:
	  columns: 12
	  gutter: 24
	type:
	  family: Helvetica
	  scale: [12, 16, 24, 36]
	spacing: 8
	radius: 0
	border: 1
	shadow: none
	accent: "#d00000"
	EOF
	cat >base/tokens/brutalist.yml <<-\EOF &&
	name: brutalist-grid
	border: 2
	font: system-ui
	EOF
	cat >base/tokens/ci.yml <<-\EOF &&
	name: ci-token
	density: compact
	EOF
	cat >base/briefs/landing.md <<-\EOF &&
	# Landing page

	Build a landing page for a bakery: hero, menu, opening hours.
	EOF
	cat >base/briefs/pricing.yml <<-\EOF &&
	# the pricing brief
	title: Pricing
	sections: [plans, faq]
	EOF
	echo "An evaluation repository." >base/README.md &&
	echo "app v1" >base/src/app.txt &&
	(
		cd base &&
		swiss=$(hash_of tokens/swiss.yml) &&
		brut=$(hash_of tokens/brutalist.yml) &&
		ci=$(hash_of tokens/ci.yml) &&
		landing=$(hash_of --raw briefs/landing.md) &&
		pricing=$(hash_of briefs/pricing.yml) &&
		echo "# Swiss x landing" >docs/evals/swiss-landing.md &&
		write_sidecar_pinned docs/evals/swiss-landing.replay.json \
			tokens/swiss.yml $swiss briefs/landing.md $landing &&
		echo "# Brutalist x pricing" >docs/evals/brut-pricing.md &&
		write_sidecar_pinned docs/evals/brut-pricing.replay.json \
			tokens/brutalist.yml $brut briefs/pricing.yml $pricing &&
		echo "# Weekly (CI)" >docs/evals/weekly/ci.md &&
		write_sidecar_pinned docs/evals/weekly/ci.replay.json \
			$ci_prefix/tokens/ci.yml $ci &&
		ahd-replay verify --all >../verify.out &&
		git add . &&
		test_tick &&
		git commit -q -m "fixture"
	) &&
	swiss_v1=$(hash_of base/tokens/swiss.yml) &&
	test_grep "3 reports: 3 intact" verify.out
'

test_expect_success 'a plain commit of a drifting token change is refused' '
	new_clone plain &&
	sed "s/#d00000/#0000d0/" plain/tokens/swiss.yml >tmp &&
	mv tmp plain/tokens/swiss.yml &&
	swiss_v2=$(hash_of plain/tokens/swiss.yml) &&
	git -C plain add tokens/swiss.yml &&
	commit_refused plain -m "bluer accent" &&
	test_grep "docs/evals/swiss-landing.md" plain.err &&
	test_grep "token tokens/swiss.yml" plain.err &&
	test_grep "recorded $(short $swiss_v1)" plain.err &&
	test_grep "HEAD $(short $swiss_v1)" plain.err &&
	test_grep "staged $(short $swiss_v2)" plain.err &&
	test_grep "re-run" plain.err &&
	test_grep "new name" plain.err &&
	test_grep "git commit --no-verify" plain.err &&
	test_grep ! "brut-pricing" plain.err &&
	test "$(git -C plain rev-parse HEAD)" = "$(git -C base rev-parse HEAD)"
'

test_expect_success 'a hook run writes nothing under .git, refusing or not' '
	git_dir_sums plain sums.before &&
	(
		cd plain &&
		GIT_INDEX_FILE=.git/index &&
		export GIT_INDEX_FILE &&
		test_expect_code 1 ahd-replay hook pre-commit
	) 2>err &&
	test_grep "this change makes the report drift" err &&
	git_dir_sums plain sums.after &&
	test_cmp sums.before sums.after &&
	git -C plain reset -q --hard &&
	git_dir_sums plain sums.before &&
	(cd plain && ahd-replay hook pre-commit) 2>err &&
	test_must_be_empty err &&
	git_dir_sums plain sums.after &&
	test_cmp sums.before sums.after
'

test_expect_success 'an unrelated commit passes quietly' '
	new_clone unrelated &&
	echo "app v2" >unrelated/src/app.txt &&
	git -C unrelated add src/app.txt &&
	commit_allowed unrelated -m "app v2" &&
	test_must_be_empty unrelated.err
'

test_expect_success 'a markdown brief is judged by its bytes' '
	new_clone mdbrief &&
	echo "Mention the gluten-free range." >>mdbrief/briefs/landing.md &&
	git -C mdbrief add briefs/landing.md &&
	commit_refused mdbrief -m "brief: gluten-free" &&
	test_grep "docs/evals/swiss-landing.md: brief briefs/landing.md" mdbrief.err
'

test_expect_success 'a YAML brief recorded structured: a comment is not drift, a value is' '
	new_clone ymlbrief &&
	sed "s/^# the pricing brief$/# the pricing brief, reviewed/" \
		ymlbrief/briefs/pricing.yml >tmp &&
	mv tmp ymlbrief/briefs/pricing.yml &&
	git -C ymlbrief add briefs/pricing.yml &&
	commit_allowed ymlbrief -m "brief: comment" &&
	test_must_be_empty ymlbrief.err &&
	echo "footer: true" >>ymlbrief/briefs/pricing.yml &&
	git -C ymlbrief add briefs/pricing.yml &&
	commit_refused ymlbrief -m "brief: footer" &&
	test_grep "docs/evals/brut-pricing.md: brief briefs/pricing.yml" ymlbrief.err
'

test_expect_success 'git commit -a: the index git builds (index.lock) is judged' '
	new_clone all &&
	sed "s/#d00000/#0000d0/" all/tokens/swiss.yml >tmp &&
	mv tmp all/tokens/swiss.yml &&
	echo "app v2" >all/src/app.txt &&
	commit_refused all -a -m "everything" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" all.err &&
	test_grep "staged $(short $swiss_v2)" all.err &&
	test_path_is_missing all/.git/index.lock &&
	git -C all checkout -q tokens/swiss.yml &&
	commit_allowed all -a -m "app only" &&
	test_must_be_empty all.err
'

test_expect_success 'the work tree is never judged: unstaged drift, staged unrelated' '
	new_clone wt1 &&
	sed "s/#d00000/#0000d0/" wt1/tokens/swiss.yml >tmp &&
	mv tmp wt1/tokens/swiss.yml &&
	echo "app v2" >wt1/src/app.txt &&
	git -C wt1 add src/app.txt &&
	commit_allowed wt1 -m "app only" &&
	test_must_be_empty wt1.err &&
	git -C wt1 diff --quiet HEAD -- src/app.txt &&
	test_must_fail git -C wt1 diff --quiet -- tokens/swiss.yml
'

test_expect_success 'the work tree is never judged: staged drift, work tree restored' '
	new_clone wt2 &&
	cp wt2/tokens/swiss.yml orig.yml &&
	sed "s/#d00000/#0000d0/" orig.yml >wt2/tokens/swiss.yml &&
	git -C wt2 add tokens/swiss.yml &&
	cp orig.yml wt2/tokens/swiss.yml &&
	commit_refused wt2 -m "looks harmless" &&
	test_grep "staged $(short $swiss_v2)" wt2.err
'

test_expect_success 'git commit PATHS: the temporary index with those paths is judged' '
	new_clone paths &&
	sed "s/#d00000/#0000d0/" paths/tokens/swiss.yml >tmp &&
	mv tmp paths/tokens/swiss.yml &&
	echo "app v2" >paths/src/app.txt &&
	commit_refused paths -m "token by path" tokens/swiss.yml &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" paths.err &&
	commit_allowed paths -m "app by path" src/app.txt &&
	test_must_be_empty paths.err &&
	test_path_is_missing paths/.git/index.lock &&
	ls paths/.git >ls &&
	test_grep ! "next-index" ls
'

test_expect_success 'git commit PATHS: drift staged in the real index is not committed, so allowed' '
	new_clone paths2 &&
	sed "s/#d00000/#0000d0/" paths2/tokens/swiss.yml >tmp &&
	mv tmp paths2/tokens/swiss.yml &&
	git -C paths2 add tokens/swiss.yml &&
	echo "app v2" >paths2/src/app.txt &&
	commit_allowed paths2 -m "app by path" src/app.txt &&
	test_must_be_empty paths2.err &&
	git -C paths2 diff --cached --name-only >staged &&
	echo tokens/swiss.yml >expect &&
	test_cmp expect staged
'

# The token has two hunks far apart: a comment at the top (not drift: the
# structured hash ignores it) and the accent at the bottom (drift).
two_hunks () {
	sed -e "1s/.*/# Swiss editorial: one grid, one accent./" \
		-e "s/#d00000/#0000d0/" "$1/tokens/swiss.yml" >tmp &&
	mv tmp "$1/tokens/swiss.yml" &&
	git -C "$1" diff tokens/swiss.yml >"$1.diff" &&
	test "$(grep -c "^@@" "$1.diff")" = 2
}

test_expect_success 'add -p: only the harmless hunk staged, the drift left in the work tree: allowed' '
	new_clone partial1 &&
	two_hunks partial1 &&
	(cd partial1 && printf "y\nn\n" | git add -p tokens/swiss.yml) >/dev/null &&
	git -C partial1 diff --cached tokens/swiss.yml >staged.diff &&
	test_grep "^+# Swiss editorial: one grid" staged.diff &&
	test_grep ! "0000d0" staged.diff &&
	commit_allowed partial1 -m "token: comment only" &&
	test_must_be_empty partial1.err &&
	git -C partial1 show HEAD:tokens/swiss.yml >committed &&
	test_grep "#d00000" committed &&
	test_grep "#0000d0" partial1/tokens/swiss.yml
'

test_expect_success 'git apply --cached of the drifting hunk only, the harmless one unstaged: refused' '
	new_clone partial2 &&
	two_hunks partial2 &&
	# keep the header and the second hunk of the patch
	awk "/^@@/ { n++ } n != 1" partial2.diff >drift-hunk.diff &&
	test "$(grep -c "^@@" drift-hunk.diff)" = 1 &&
	git -C partial2 apply --cached ../drift-hunk.diff &&
	git -C partial2 diff tokens/swiss.yml >unstaged.diff &&
	test_grep "^+# Swiss editorial: one grid" unstaged.diff &&
	test_grep ! "0000d0" unstaged.diff &&
	commit_refused partial2 -m "token: accent" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" partial2.err
'

test_expect_success 'deleting a referenced input is refused' '
	new_clone del &&
	git -C del rm -q tokens/swiss.yml &&
	commit_refused del -m "drop the swiss token" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" del.err &&
	test_grep "recorded $(short $swiss_v1), HEAD $(short $swiss_v1)" del.err &&
	test_grep "deletes" del.err &&
	test_grep "git commit --no-verify" del.err
'

test_expect_success 'git rm --cached: deleted from the index, still in the work tree: refused' '
	new_clone delcached &&
	git -C delcached rm -q --cached briefs/landing.md &&
	test_path_is_file delcached/briefs/landing.md &&
	commit_refused delcached -m "untrack the brief" &&
	test_grep "docs/evals/swiss-landing.md: brief briefs/landing.md" delcached.err &&
	test_grep "deletes" delcached.err
'

test_expect_success 'renaming a referenced input is refused' '
	new_clone ren &&
	git -C ren mv tokens/swiss.yml tokens/swiss-v3.yml &&
	commit_refused ren -m "rename the token" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" ren.err &&
	test_grep "moves" ren.err
'

test_expect_success 'a key-reordered token with the same value is not drift' '
	new_clone reorder &&
	cat >reorder/tokens/swiss.yml <<-\EOF &&
	# Reordered by a formatter; same values.
	accent: "#d00000"
	border: 1
	grid: {gutter: 24, columns: 12}
	name: swiss-editorial
	radius: 0
	shadow: none
	spacing: 8
	type:
	  scale:
	    - 12
	    - 16
	    - 24
	    - 36
	  family: Helvetica
	version: 3
	EOF
	test "$(hash_of reorder/tokens/swiss.yml)" = "$swiss_v1" &&
	git -C reorder add tokens/swiss.yml &&
	commit_allowed reorder -m "token: reformat" &&
	test_must_be_empty reorder.err
'

test_expect_success 'a new sidecar that does not verify against the staged inputs is refused' '
	new_clone newsc &&
	echo "# new run" >newsc/docs/evals/new.md &&
	write_sidecar_pinned newsc/docs/evals/new.replay.json tokens/brutalist.yml \
		sha256:0000000000000000000000000000000000000000000000000000000000000000 &&
	git -C newsc add docs/evals &&
	commit_refused newsc -m "a new report" &&
	test_grep "docs/evals/new.md: token tokens/brutalist.yml" newsc.err &&
	test_grep "recorded sha256:000000000000" newsc.err &&
	test_grep "staged $(short $(hash_of newsc/tokens/brutalist.yml))" newsc.err &&
	test_grep "new or changed" newsc.err
'

test_expect_success 'a new sidecar that verifies against the staged inputs is allowed' '
	new_clone newsc2 &&
	echo "# new run" >newsc2/docs/evals/new.md &&
	write_sidecar_pinned newsc2/docs/evals/new.replay.json tokens/brutalist.yml \
		$(hash_of newsc2/tokens/brutalist.yml) briefs/landing.md \
		$(hash_of --raw newsc2/briefs/landing.md) &&
	git -C newsc2 add docs/evals &&
	commit_allowed newsc2 -m "a new report" &&
	test_must_be_empty newsc2.err
'

test_expect_success 'a new sidecar is checked against the staged input, not the work tree copy' '
	new_clone newsc3 &&
	echo "shadow: hard" >>newsc3/tokens/brutalist.yml &&
	echo "# new run" >newsc3/docs/evals/new.md &&
	write_sidecar_pinned newsc3/docs/evals/new.replay.json tokens/brutalist.yml \
		$(hash_of newsc3/tokens/brutalist.yml) &&
	git -C newsc3 add docs/evals &&
	commit_refused newsc3 -m "a report of an unstaged token" &&
	test_grep "docs/evals/new.md: token tokens/brutalist.yml" newsc3.err &&
	old=$(git -C base show HEAD:tokens/brutalist.yml | hash_of -) &&
	test_grep "staged $(short $old)" newsc3.err
'

test_expect_success 'a new sidecar whose input is not committed is refused' '
	new_clone newsc4 &&
	cp newsc4/tokens/swiss.yml newsc4/tokens/untracked.yml &&
	echo "# new run" >newsc4/docs/evals/new.md &&
	write_sidecar_pinned newsc4/docs/evals/new.replay.json tokens/untracked.yml $swiss_v1 &&
	git -C newsc4 add docs/evals &&
	commit_refused newsc4 -m "a report of an untracked token" &&
	test_grep "docs/evals/new.md: token tokens/untracked.yml" newsc4.err &&
	test_grep "not in what is committed" newsc4.err
'

test_expect_success 'a re-run: the token changes and its sidecar records the new hash: allowed' '
	new_clone rerun &&
	sed "s/#d00000/#0000d0/" rerun/tokens/swiss.yml >tmp &&
	mv tmp rerun/tokens/swiss.yml &&
	sed "s/$swiss_v1/$swiss_v2/" rerun/docs/evals/swiss-landing.replay.json >tmp &&
	mv tmp rerun/docs/evals/swiss-landing.replay.json &&
	git -C rerun add -u &&
	commit_allowed rerun -m "re-run swiss x landing" &&
	test_must_be_empty rerun.err
'

test_expect_success 'a changed sidecar that does not match the staged input is refused' '
	new_clone badsc &&
	sed "s/$swiss_v1/$swiss_v2/" badsc/docs/evals/swiss-landing.replay.json >tmp &&
	mv tmp badsc/docs/evals/swiss-landing.replay.json &&
	git -C badsc add -u &&
	commit_refused badsc -m "edit the sidecar by hand" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" badsc.err &&
	test_grep "recorded $(short $swiss_v2)" badsc.err &&
	test_grep "staged $(short $swiss_v1)" badsc.err
'

test_expect_success 'a sidecar that does not load is refused when it comes in' '
	new_clone broken &&
	echo "{ not json" >broken/docs/evals/broken.replay.json &&
	git -C broken add docs/evals &&
	commit_refused broken -m "a broken sidecar" &&
	test_grep "docs/evals/broken.replay.json" broken.err
'

test_expect_success 'setup: drift already at HEAD (committed with --no-verify)' '
	new_clone old &&
	sed "s/#d00000/#0000d0/" old/tokens/swiss.yml >tmp &&
	mv tmp old/tokens/swiss.yml &&
	git -C old commit -q --no-verify -a -m "bluer accent, reports be damned" &&
	sed "s/#0000d0/#0000ff/" old/tokens/swiss.yml >tmp &&
	mv tmp old/tokens/swiss.yml &&
	swiss_v3=$(hash_of old/tokens/swiss.yml) &&
	git -C old add tokens/swiss.yml
'

test_expect_success 'drift already at HEAD: a warning, and the commit is allowed' '
	commit_allowed old -m "bluest accent" &&
	test_grep "warning" old.err &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" old.err &&
	test_grep "recorded $(short $swiss_v1), HEAD $(short $swiss_v2), staged $(short $swiss_v3)" old.err &&
	test_grep "drifted already" old.err
'

test_expect_success 'drift already at HEAD: refused with ahd-replay.strict true' '
	git -C old config ahd-replay.strict true &&
	sed "s/#0000ff/#0000ee/" old/tokens/swiss.yml >tmp &&
	mv tmp old/tokens/swiss.yml &&
	git -C old add tokens/swiss.yml &&
	commit_refused old -m "an even different accent" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" old.err &&
	test_grep "git commit --no-verify" old.err &&
	git -C old config ahd-replay.strict false &&
	commit_allowed old -m "an even different accent"
'

test_expect_success 'restoring the recorded input is allowed, quietly' '
	git -C old show HEAD~3:tokens/swiss.yml >old/tokens/swiss.yml &&
	git -C old config ahd-replay.strict true &&
	git -C old add tokens/swiss.yml &&
	commit_allowed old -m "back to the recorded accent" &&
	test_must_be_empty old.err
'

test_expect_success 'the first commit on an unborn branch: sidecars must verify' '
	git init -q -b main unborn &&
	install_real unborn &&
	mkdir -p unborn/tokens unborn/docs/evals &&
	cp base/tokens/swiss.yml base/tokens/brutalist.yml unborn/tokens/ &&
	write_sidecar_pinned unborn/docs/evals/good.replay.json tokens/swiss.yml $swiss_v1 &&
	write_sidecar_pinned unborn/docs/evals/bad.replay.json tokens/brutalist.yml $swiss_v1 &&
	git -C unborn add . &&
	commit_refused unborn -m "first" &&
	test_grep "docs/evals/bad.md: token tokens/brutalist.yml" unborn.err &&
	test_grep ! "docs/evals/good.md" unborn.err &&
	test_must_fail git -C unborn rev-parse -q --verify HEAD &&
	git -C unborn rm -q --cached docs/evals/bad.replay.json &&
	commit_allowed unborn -m "first" &&
	test_must_be_empty unborn.err
'

test_expect_success 'a CI-recorded absolute path is re-rooted against the index' '
	new_clone ci &&
	echo "density: airy" >>ci/tokens/ci.yml &&
	git -C ci add tokens/ci.yml &&
	commit_refused ci -m "airier CI token" &&
	test_grep "docs/evals/weekly/ci.md: token $ci_prefix/tokens/ci.yml" ci.err &&
	test_grep "this change makes the report drift" ci.err
'

test_expect_success 'a new CI sidecar: its input found in the index, not in the work tree' '
	new_clone ci2 &&
	printf "name: staged-only\n" >ci2/tokens/staged.yml &&
	staged_hash=$(hash_of ci2/tokens/staged.yml) &&
	git -C ci2 add tokens/staged.yml &&
	rm ci2/tokens/staged.yml &&
	write_sidecar_pinned ci2/docs/evals/weekly/ci2.replay.json \
		$ci_prefix/tokens/staged.yml $staged_hash &&
	git -C ci2 add docs/evals &&
	commit_allowed ci2 -m "weekly 2" &&
	test_must_be_empty ci2.err
'

test_expect_success 'a new CI sidecar whose input is only in the work tree is refused' '
	new_clone ci3 &&
	printf "name: unstaged\n" >ci3/tokens/unstaged.yml &&
	write_sidecar_pinned ci3/docs/evals/weekly/ci3.replay.json \
		$ci_prefix/tokens/unstaged.yml $(hash_of ci3/tokens/unstaged.yml) &&
	git -C ci3 add docs/evals &&
	commit_refused ci3 -m "weekly 3" &&
	test_grep "docs/evals/weekly/ci3.md: token $ci_prefix/tokens/unstaged.yml" ci3.err
'

test_expect_success 'setup: a markdown brief checked out with CRLF (eol=crlf), a sidecar recorded from it' '
	new_clone crlf &&
	(
		cd crlf &&
		echo "briefs/*.md text eol=crlf" >.gitattributes &&
		printf "# About page\n\nA page about the bakery.\n" >briefs/about.md &&
		git add .gitattributes briefs/about.md &&
		git commit -q -m "about brief" &&
		rm briefs/about.md &&
		git checkout -q briefs/about.md &&
		printf "\r\n" >crlf &&
		grep -q "$(cat crlf)" briefs/about.md &&
		rm crlf &&
		echo "# Swiss x about" >docs/evals/about.md &&
		write_sidecar_pinned docs/evals/about.replay.json \
			tokens/swiss.yml $swiss_v1 \
			briefs/about.md $(hash_of --raw briefs/about.md) &&
		ahd-replay verify docs/evals/about.md >../crlf.verify &&
		git add docs/evals
	) &&
	test_grep "replay inputs intact" crlf.verify
'

# The reference hashes the checked-out bytes (CRLF), so the hook hashes
# blobs through the checkout filters, as they would be written.
test_expect_success 'a sidecar recorded from a CRLF checkout verifies against the staged brief' '
	commit_allowed crlf -m "about: a run" &&
	test_must_be_empty crlf.err
'

test_expect_success 'editing a brief checked out with CRLF is refused like any other' '
	git -C crlf commit -q --no-verify -m "about: a run" 2>/dev/null;
	git -C crlf diff --cached --quiet &&
	printf "Mention the opening hours.\r\n" >>crlf/briefs/about.md &&
	git -C crlf add briefs/about.md &&
	commit_refused crlf -m "about: hours" &&
	test_grep "docs/evals/about.md: brief briefs/about.md" crlf.err &&
	test_grep "this change makes the report drift" crlf.err
'

test_expect_success 'setup: a side branch that drifts, merged cleanly into main' '
	new_clone merge &&
	(
		cd merge &&
		git checkout -q -b side &&
		sed "s/#d00000/#0000d0/" tokens/swiss.yml >tmp &&
		mv tmp tokens/swiss.yml &&
		test_tick &&
		git commit -q --no-verify -a -m "side: bluer accent" &&
		git checkout -q -b harmless main &&
		echo "app v3" >src/app.txt &&
		test_tick &&
		git commit -q -a -m "harmless: app v3" &&
		git checkout -q main &&
		echo "more" >>README.md &&
		test_tick &&
		git commit -q -a -m "main: readme"
	)
'

test_expect_success 'git merge: the pre-merge-commit hook refuses the drifting merge' '
	(cd merge && test_tick && test_must_fail git merge -q --no-edit side) 2>merge.err &&
	cat merge.err &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" merge.err &&
	test "$(git -C merge rev-list --count --merges HEAD)" = 0
'

test_expect_success 'and finishing that merge with git commit runs pre-commit: refused' '
	git -C merge rev-parse -q --verify MERGE_HEAD &&
	commit_refused merge --no-edit &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" merge.err &&
	git -C merge merge --abort
'

test_expect_success 'git merge --no-commit, then git commit: refused' '
	(cd merge && git merge -q --no-commit side) &&
	commit_refused merge --no-edit &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" merge.err &&
	git -C merge merge --abort
'

test_expect_success 'a merge that does not drift is allowed' '
	(cd merge && test_tick && git merge -q --no-edit harmless) 2>merge.err &&
	test_must_be_empty merge.err &&
	test "$(git -C merge rev-list --count --merges HEAD)" = 1
'

test_expect_success 'setup: a work tree whose git directory is elsewhere' '
	git clone -q --bare base gitdirs.git &&
	mkdir sepwt &&
	(
		cd sepwt &&
		GIT_DIR=../gitdirs.git &&
		export GIT_DIR &&
		git config core.bare false &&
		git config core.worktree "$TRASH_DIRECTORY/sepwt" &&
		git reset -q --hard
	) &&
	git clone -q --separate-git-dir="$TRASH_DIRECTORY/gitfile.git" base gitfile &&
	install_real gitfile &&
	test_path_is_file gitfile.git/hooks/pre-commit &&
	install_hooks gitdirs.git/hooks &&
	test_path_is_file gitfile/.git &&
	git clone -q --bare base envdirs.git &&
	install_hooks envdirs.git/hooks &&
	mkdir envwt &&
	git --git-dir=envdirs.git config core.bare false &&
	git --git-dir=envdirs.git --work-tree=envwt reset -q --hard &&
	test_path_is_file envwt/tokens/swiss.yml
'

test_expect_success 'a .git file (git clone --separate-git-dir): an unrelated commit is allowed' '
	echo "app v2" >gitfile/src/app.txt &&
	(cd gitfile && git commit -q -a -m app) 2>err &&
	test_must_be_empty err &&
	test "$(git -C gitfile log -1 --format=%s)" = app
'

# git runs the hook with GIT_DIR=<the separate git dir> and the work tree
# as the current directory: the work tree is where the hook runs.
test_expect_success 'a .git file (git clone --separate-git-dir): drift refused' '
	sed "s/#d00000/#0000d0/" gitfile/tokens/swiss.yml >tmp &&
	mv tmp gitfile/tokens/swiss.yml &&
	git -C gitfile add tokens/swiss.yml &&
	commit_refused gitfile -m drift &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" gitfile.err
'

test_expect_success 'GIT_DIR set explicitly (relative), core.worktree in the config: drift refused' '
	sed "s/#d00000/#0000d0/" sepwt/tokens/swiss.yml >tmp &&
	mv tmp sepwt/tokens/swiss.yml &&
	(
		cd sepwt &&
		GIT_DIR=../gitdirs.git &&
		export GIT_DIR &&
		test_must_fail git commit -q -a -m drift
	) 2>err &&
	cat err &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" err &&
	git --git-dir=gitdirs.git --work-tree=sepwt checkout -q tokens/swiss.yml
'

test_expect_success 'GIT_DIR set explicitly (relative), from a subdirectory: an unrelated commit is allowed' '
	echo "app v2" >sepwt/src/app.txt &&
	(
		cd sepwt/src &&
		GIT_DIR=../../gitdirs.git &&
		export GIT_DIR &&
		git commit -q -a -m "app v2"
	) 2>err &&
	test_must_be_empty err &&
	test "$(git --git-dir=gitdirs.git log -1 --format=%s)" = "app v2"
'

test_expect_success 'GIT_DIR and GIT_WORK_TREE set explicitly (relative): an unrelated commit is allowed' '
	(
		cd envwt &&
		GIT_DIR=../envdirs.git GIT_WORK_TREE=. &&
		export GIT_DIR GIT_WORK_TREE &&
		echo "app v2" >src/app.txt &&
		git commit -q -a -m "app v2"
	) 2>err
	ret=$?
	cat err &&
	test $ret = 0 &&
	test_must_be_empty err &&
	test "$(git --git-dir=envdirs.git log -1 --format=%s)" = "app v2"
'

test_expect_success 'GIT_DIR and GIT_WORK_TREE set explicitly (relative): drift refused as drift' '
	(
		cd envwt &&
		GIT_DIR=../envdirs.git GIT_WORK_TREE=. &&
		export GIT_DIR GIT_WORK_TREE &&
		sed "s/#d00000/#0000d0/" tokens/swiss.yml >../tmp &&
		mv ../tmp tokens/swiss.yml &&
		test_must_fail git commit -q -a -m drift
	) 2>err &&
	cat err &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" err
'

test_expect_success 'git --git-dir --work-tree: the hook runs (it refuses rather than be skipped)' '
	(
		cd envwt &&
		test_must_fail git --git-dir=../envdirs.git --work-tree=. \
			commit -q -a -m drift
	) 2>err &&
	cat err &&
	test_grep "ahd-replay" err &&
	test "$(git --git-dir=envdirs.git log -1 --format=%s)" != drift
'

test_expect_success 'GIT_INDEX_FILE set by the user (relative): that index is judged, not .git/index' '
	new_clone altindex &&
	cp altindex/.git/index altindex/alt.idx &&
	sed "s/#d00000/#0000d0/" altindex/tokens/swiss.yml >tmp &&
	mv tmp altindex/tokens/swiss.yml &&
	(
		cd altindex &&
		GIT_INDEX_FILE=alt.idx &&
		export GIT_INDEX_FILE &&
		git add tokens/swiss.yml &&
		test_must_fail git commit -q -m "drift in the other index"
	) 2>err &&
	cat err &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" err &&
	test_grep "staged $(short $swiss_v2)" err &&
	git -C altindex diff --cached --quiet &&
	echo "app v2" >altindex/src/app.txt &&
	git -C altindex add src/app.txt &&
	commit_allowed altindex -m "app v2, from .git/index" &&
	test_must_be_empty altindex.err
'

test_expect_success 'a linked worktree: the hooks of the common directory judge its index' '
	new_clone linked &&
	git -C linked worktree add -q ../linked-wt -b wt &&
	sed "s/#d00000/#0000d0/" linked-wt/tokens/swiss.yml >tmp &&
	mv tmp linked-wt/tokens/swiss.yml &&
	git -C linked-wt add tokens/swiss.yml &&
	echo "app v2" >linked/src/app.txt &&
	git -C linked add src/app.txt &&
	commit_refused linked-wt -m "drift in the worktree" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" linked-wt.err &&
	test_grep "staged $(short $swiss_v2)" linked-wt.err &&
	commit_allowed linked -m "main: app v2" &&
	test_must_be_empty linked.err &&
	git -C linked-wt reset -q --hard &&
	echo "more" >>linked-wt/README.md &&
	git -C linked-wt add README.md &&
	commit_allowed linked-wt -m "wt: readme" &&
	test_must_be_empty linked-wt.err
'

test_expect_success 'a linked worktree: its own index, not the main one, is judged' '
	sed "s/#d00000/#0000d0/" linked/tokens/swiss.yml >tmp &&
	mv tmp linked/tokens/swiss.yml &&
	git -C linked add tokens/swiss.yml &&
	echo "even more" >>linked-wt/README.md &&
	git -C linked-wt add README.md &&
	commit_allowed linked-wt -m "wt: readme again" &&
	test_must_be_empty linked-wt.err &&
	commit_refused linked -m "main: drift" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" linked.err
'

# git sets GIT_COMMON_DIR for linked worktrees; libgit2 reads the
# commondir file instead, which names the same directory.
test_expect_success 'GIT_DIR and GIT_COMMON_DIR set explicitly (relative), in a linked worktree' '
	git -C linked-wt reset -q --hard &&
	echo "still more" >>linked-wt/README.md &&
	(
		cd linked-wt &&
		GIT_DIR=../linked/.git/worktrees/linked-wt &&
		GIT_COMMON_DIR=../linked/.git &&
		export GIT_DIR GIT_COMMON_DIR &&
		git add README.md &&
		git commit -q -m "wt: readme, common dir from the environment"
	) 2>err
	ret=$?
	cat err &&
	test $ret = 0 &&
	test_must_be_empty err &&
	test "$(git -C linked-wt log -1 --format=%s)" = "wt: readme, common dir from the environment"
'

test_expect_success 'a submodule: its own hooks judge its own index' '
	git init -q -b main super &&
	(
		cd super &&
		git -c protocol.file.allow=always submodule --quiet add \
			"$TRASH_DIRECTORY/base" evals &&
		git commit -q -m "add the evals submodule"
	) &&
	install_real super/evals &&
	test_path_is_file super/.git/modules/evals/hooks/pre-commit &&
	sed "s/#d00000/#0000d0/" super/evals/tokens/swiss.yml >tmp &&
	mv tmp super/evals/tokens/swiss.yml &&
	git -C super/evals add tokens/swiss.yml &&
	commit_refused super/evals -m "drift in the submodule" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" super/evals.err &&
	git -C super/evals reset -q --hard &&
	echo "app v2" >super/evals/src/app.txt &&
	git -C super/evals add src/app.txt &&
	commit_allowed super/evals -m "app v2" &&
	test_must_be_empty super/evals.err
'

test_expect_success 'AHD_REPLAY_SKIP=1: one line says the check was skipped; allowed' '
	new_clone skip &&
	sed "s/#d00000/#0000d0/" skip/tokens/swiss.yml >tmp &&
	mv tmp skip/tokens/swiss.yml &&
	(cd skip && AHD_REPLAY_SKIP=1 git commit -q -a -m "skipped") 2>err &&
	test_line_count = 1 err &&
	test_grep "skip" err &&
	git -C skip show HEAD:tokens/swiss.yml >committed &&
	test_grep "#0000d0" committed
'

test_expect_success 'AHD_REPLAY_SKIP=1 in the binary itself (a hand-written hook): one line, exit 0' '
	new_clone skip2 &&
	(
		cd skip2 &&
		sed "s/#d00000/#0000d0/" tokens/swiss.yml >../tmp &&
		mv ../tmp tokens/swiss.yml &&
		git add tokens/swiss.yml &&
		test_expect_code 1 ahd-replay hook pre-commit 2>/dev/null &&
		AHD_REPLAY_SKIP=1 ahd-replay hook pre-commit &&
		AHD_REPLAY_SKIP=1 ahd-replay hook pre-merge-commit
	) 2>err &&
	test_line_count = 2 err &&
	test_grep "AHD_REPLAY_SKIP.*skipped" err
'

test_expect_success 'AHD_REPLAY_SKIP other than 1, and CI=true, do not skip' '
	new_clone noskip &&
	sed "s/#d00000/#0000d0/" noskip/tokens/swiss.yml >tmp &&
	mv tmp noskip/tokens/swiss.yml &&
	git -C noskip add tokens/swiss.yml &&
	AHD_REPLAY_SKIP=0 commit_refused noskip -m one &&
	test_grep "this change makes the report drift" noskip.err &&
	CI=true GITHUB_ACTIONS=true commit_refused noskip -m two &&
	test_grep "this change makes the report drift" noskip.err
'

test_expect_success 'git commit --no-verify bypasses the hook' '
	new_clone noverify &&
	sed "s/#d00000/#0000d0/" noverify/tokens/swiss.yml >tmp &&
	mv tmp noverify/tokens/swiss.yml &&
	(cd noverify && git commit -q --no-verify -a -m "bypassed") 2>err &&
	test_must_be_empty err &&
	git -C noverify show HEAD:tokens/swiss.yml >committed &&
	test_grep "#0000d0" committed
'

test_expect_success 'a repository libgit2 cannot open (unknown extension) blocks, saying why' '
	new_clone ext &&
	git -C ext config core.repositoryformatversion 1 &&
	git -C ext config extensions.frobnicate true &&
	(cd ext && test_expect_code 2 ahd-replay hook pre-commit) 2>err &&
	cat err &&
	test_grep "^ahd-replay: .*repository" err &&
	test_grep "frobnicate" err
'

test_expect_success 'a split index (core.splitIndex) blocks the commit, saying why' '
	new_clone split &&
	git -C split update-index --split-index &&
	echo "app v2" >split/src/app.txt &&
	git -C split add src/app.txt &&
	commit_refused split -m "app v2" &&
	test_grep "^ahd-replay: " split.err &&
	test_grep "link" split.err
'

test_expect_success 'when the repository cannot be read, the message says how to go ahead' '
	(cd ext && test_expect_code 2 ahd-replay hook pre-commit) 2>err &&
	test_grep "no-verify\|AHD_REPLAY_SKIP" err &&
	test_must_fail git -C split commit -q -m "app v2" 2>err &&
	test_grep "no-verify\|AHD_REPLAY_SKIP" err
'

test_expect_success 'a sparse checkout is checked' '
	new_clone sparse &&
	git -C sparse sparse-checkout set --no-cone "/*" "!/src/" &&
	test_path_is_missing sparse/src/app.txt &&
	echo "more" >>sparse/README.md &&
	git -C sparse add README.md &&
	commit_allowed sparse -m "readme" &&
	test_must_be_empty sparse.err &&
	sed "s/#d00000/#0000d0/" sparse/tokens/swiss.yml >tmp &&
	mv tmp sparse/tokens/swiss.yml &&
	git -C sparse add tokens/swiss.yml &&
	commit_refused sparse -m "drift" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" sparse.err
'

test_expect_success 'a partial clone (--filter=blob:none) is checked' '
	git -C base config uploadpack.allowFilter true &&
	git clone -q --filter=blob:none "file://$TRASH_DIRECTORY/base" partial &&
	install_real partial &&
	test "$(git -C partial config remote.origin.promisor)" = true &&
	echo "more" >>partial/README.md &&
	git -C partial add README.md &&
	commit_allowed partial -m "readme" &&
	test_must_be_empty partial.err &&
	sed "s/#d00000/#0000d0/" partial/tokens/swiss.yml >tmp &&
	mv tmp partial/tokens/swiss.yml &&
	git -C partial add tokens/swiss.yml &&
	commit_refused partial -m "drift" &&
	test_grep "docs/evals/swiss-landing.md: token tokens/swiss.yml" partial.err
'

# git reads these repositories (extensions.worktreeConfig is what
# `git config --worktree` needs; newer git writes it for sparse
# checkouts), so the hook must not block them.
test_expect_success 'repositoryformatversion 1 with extensions.worktreeConfig: checked, not blocked' '
	new_clone wtconfig &&
	git -C wtconfig config core.repositoryformatversion 1 &&
	git -C wtconfig config extensions.worktreeConfig true &&
	echo "more" >>wtconfig/README.md &&
	git -C wtconfig add README.md &&
	commit_allowed wtconfig -m "readme" &&
	test_must_be_empty wtconfig.err
'

test_lazy_prereq CHOWN '
	mkdir d && chown 65534 d 2>/dev/null && test "$(stat -c %u d)" = 65534
'

test_expect_success CHOWN 'a repository owned by someone else (safe.directory): the message says so' '
	git init -q owned &&
	chown -R 65534 owned &&
	(cd owned && test_expect_code 2 ahd-replay hook pre-commit) 2>err &&
	cat err &&
	test_grep "owne" err &&
	test_grep "safe.directory" err
'

test_expect_success CHOWN 'safe.directory trusts a repository owned by someone else, as in git' '
	test_when_finished "git config --global --unset-all safe.directory" &&
	git config --global --add safe.directory "$TRASH_DIRECTORY/owned" &&
	(cd owned && ahd-replay hook pre-commit) 2>err &&
	test_must_be_empty err
'

test_expect_success 'run again by a shim further up the chain: the check runs once' '
	git init -q chained &&
	mkdir chained/tokens chained/docs &&
	printf "a: 1\n" >chained/tokens/t.yml &&
	h=$(cd chained && hash_of tokens/t.yml) &&
	cat >chained/docs/r.replay.json <<-EOF &&
	{"schema_version": 1, "kind": "critique", "ahd_version": "1",
	 "ahd_commit": null, "git_dirty": null, "node_version": "v22",
	 "platform": "linux-x64", "invoked_at": "2026-08-03T09:57:42.291Z",
	 "argv": [], "token": {"path": "tokens/t.yml", "hash": "$h"},
	 "brief": null, "sampling": {"n": 1, "temperature": null, "seed": null},
	 "models": [], "conditions": {"requested": [], "effective": []}}
	EOF
	git -C chained add . &&
	git -C chained commit -q --no-verify -m one &&
	printf "a: 2\n" >chained/tokens/t.yml &&
	git -C chained add tokens/t.yml &&
	(cd chained && test_expect_code 1 ahd-replay hook pre-commit) 2>err &&
	test_grep "this change makes the report drift" err &&
	(
		cd chained &&
		AHD_REPLAY_HOOK_ACTIVE="pre-commit:$(pwd -P)" &&
		export AHD_REPLAY_HOOK_ACTIVE &&
		ahd-replay hook pre-commit
	) 2>err &&
	test_must_be_empty err &&
	(
		cd chained &&
		AHD_REPLAY_HOOK_ACTIVE="pre-commit:/somewhere/else" &&
		export AHD_REPLAY_HOOK_ACTIVE &&
		test_expect_code 1 ahd-replay hook pre-commit
	) 2>err &&
	test_grep "this change makes the report drift" err
'

test_done
