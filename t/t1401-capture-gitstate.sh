#!/bin/sh

test_description='capture: ahd_commit and git_dirty against real git

For each state of a repository, capture records ahd_commit and git_dirty
with libgit2; they must be what `git rev-parse HEAD` prints and whether
`git status --porcelain` prints anything (both null outside a repository
and on an unborn branch).  Each test also says which answer the state
should give, so that a broken setup cannot pass by agreeing with itself.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z
export AHD_REPLAY_NOW
SQ="'"

# new_repo DIR: a copy of the fixture repository: files a, b, d/c, an
# executable script, a .gitignore for *.log and the token, two commits.
# The copy's files are new to its index; refreshing it keeps commands
# such as sparse-checkout from taking them for modified.
new_repo () {
	rm -rf "$1" &&
	cp -R base "$1" &&
	git -C "$1" update-index -q --refresh
}

# new_super DIR: a copy of the repository with submodule "sm".
new_super () {
	rm -rf "$1" &&
	cp -R super "$1" &&
	git -C "$1" update-index -q --refresh &&
	git -C "$1/sm" update-index -q --refresh
}

# git_says DIR: what git reports, as the two lines capture writes.
git_says () {
	if gs_commit=$(git -C "$1" rev-parse -q --verify HEAD)
	then
		gs_status=$(git -C "$1" status --porcelain) || return 1
		if test -n "$gs_status"
		then
			gs_dirty=true
		else
			gs_dirty=false
		fi
		printf '  "ahd_commit": "%s",\n  "git_dirty": %s,\n' \
			"$gs_commit" "$gs_dirty"
	else
		printf '  "ahd_commit": null,\n  "git_dirty": null,\n'
	fi
}

# test_state DIR WANT: capture with the root DIR records what git says,
# and git_dirty is WANT (true, false or null).  The sidecar is written
# outside DIR so that it does not change the state.
test_state () {
	git_says "$1" >expect &&
	test_grep "^  \"git_dirty\": $2,$" expect &&
	ahd-replay capture --kind=critique --token="$1/token.yml" --n=1 \
		--root="$1" --out="$TRASH_DIRECTORY/state.replay.json" \
		--force &&
	grep -E "^  \"(ahd_commit|git_dirty)\": " \
		"$TRASH_DIRECTORY/state.replay.json" >actual &&
	test_cmp expect actual
}

# libgit2 1.5 leaks in two places we cannot avoid: the match data of
# every regex that does not match (while opening a repository of format
# version 1, for one; pcre2 serves only libgit2 here) and in
# git_repository_set_workdir() (GIT_DIR, GIT_WORK_TREE).  Tell
# LeakSanitizer, when it runs, about those two only; full stacks let it
# see the function through libgit2's frames.
test_expect_success 'setup' '
	cat >"$TRASH_DIRECTORY/lsan.supp" <<-\EOF &&
	leak:libpcre2-8.so
	leak:git_repository_set_workdir
	EOF
	supp=suppressions=$TRASH_DIRECTORY/lsan.supp &&
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}$supp &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
	export LSAN_OPTIONS ASAN_OPTIONS &&
	git init -q base &&
	(
		cd base &&
		echo a >a &&
		echo b >b &&
		mkdir d &&
		echo c >d/c &&
		printf "#!/bin/sh\n" >run.sh &&
		chmod +x run.sh &&
		echo "*.log" >.gitignore &&
		echo "name: t" >token.yml &&
		git add . &&
		git commit -q -m first &&
		test_tick &&
		echo a2 >>a &&
		git commit -q -a -m second
	) &&
	git init -q sub &&
	(
		cd sub &&
		echo s >s &&
		git add s &&
		git commit -q -m sub
	) &&
	new_repo super &&
	(
		cd super &&
		git -c protocol.file.allow=always submodule add -q \
			"$TRASH_DIRECTORY/sub" sm &&
		git commit -q -m "add sm"
	)
'

test_expect_success 'clean' '
	new_repo r &&
	test_state r false
'

test_expect_success 'staged change' '
	new_repo r &&
	echo more >>r/a &&
	git -C r add a &&
	test_state r true
'

test_expect_success 'unstaged change' '
	new_repo r &&
	echo more >>r/b &&
	test_state r true
'

test_expect_success 'staged, then changed back in the work tree' '
	new_repo r &&
	cp r/a a.orig &&
	echo more >>r/a &&
	git -C r add a &&
	cp a.orig r/a &&
	test_state r true
'

test_expect_success 'untracked file' '
	new_repo r &&
	echo new >r/new &&
	test_state r true
'

test_expect_success 'untracked directory' '
	new_repo r &&
	mkdir -p r/e/f &&
	echo new >r/e/f/new &&
	test_state r true
'

test_expect_success 'only ignored files (and an ignored directory)' '
	new_repo r &&
	echo x >r/x.log &&
	mkdir -p r/logs/deep &&
	echo y >r/logs/deep/y.log &&
	echo "scratch/" >>r/.git/info/exclude &&
	mkdir r/scratch &&
	echo z >r/scratch/z &&
	test_state r false
'

test_expect_success 'empty untracked directories' '
	new_repo r &&
	mkdir -p r/empty r/e1/e2 &&
	test_state r false
'

test_expect_success 'a touched file with the same content' '
	new_repo r &&
	cp r/a a.copy &&
	cp a.copy r/a &&
	touch r/b &&
	test_state r false
'

test_expect_success 'deleted file' '
	new_repo r &&
	rm r/b &&
	test_state r true
'

test_expect_success 'deleted file, staged' '
	new_repo r &&
	git -C r rm -q b &&
	test_state r true
'

test_expect_success 'rename, staged' '
	new_repo r &&
	git -C r mv b b2 &&
	test_state r true
'

test_expect_success 'rename in the work tree' '
	new_repo r &&
	mv r/b r/b2 &&
	test_state r true
'

test_expect_success 'file mode change (chmod +x)' '
	new_repo r &&
	chmod +x r/a &&
	test_state r true
'

test_expect_success 'file mode change (chmod -x)' '
	new_repo r &&
	chmod -x r/run.sh &&
	test_state r true
'

test_expect_success 'file mode change with core.fileMode=false' '
	new_repo r &&
	git -C r config core.fileMode false &&
	chmod +x r/a &&
	test_state r false
'

test_expect_success 'a file replaced by a symlink' '
	new_repo r &&
	rm r/b &&
	ln -s a r/b &&
	test_state r true
'

test_expect_success 'intent to add' '
	new_repo r &&
	echo n >r/n &&
	git -C r add -N n &&
	test_state r true
'

test_expect_success 'assume-unchanged and skip-worktree files' '
	new_repo r &&
	git -C r update-index --assume-unchanged a &&
	echo changed >>r/a &&
	git -C r update-index --skip-worktree b &&
	rm r/b &&
	test_state r false
'

test_expect_success 'a merge conflict' '
	new_repo r &&
	(
		cd r &&
		git checkout -q -b other &&
		echo theirs >a &&
		git commit -q -a -m theirs &&
		git checkout -q - &&
		echo ours >a &&
		git commit -q -a -m ours &&
		test_must_fail git merge -q other >/dev/null 2>&1
	) &&
	test_state r true
'

test_expect_success 'status.showUntrackedFiles=no hides untracked files' '
	new_repo r &&
	git -C r config status.showUntrackedFiles no &&
	echo new >r/new &&
	test_state r false &&
	echo more >>r/a &&
	test_state r true
'

test_expect_success 'status.showUntrackedFiles=all' '
	new_repo r &&
	git -C r config status.showUntrackedFiles all &&
	mkdir r/e &&
	echo new >r/e/new &&
	test_state r true
'

test_expect_success 'an invalid status.showUntrackedFiles fails as git does' '
	new_repo r &&
	git -C r config status.showUntrackedFiles bogus &&
	test_expect_code 128 git -C r status --porcelain &&
	test_expect_code 2 ahd-replay capture --kind=critique \
		--token=r/token.yml --n=1 --root=r --out=x.replay.json 2>err &&
	test_grep "invalid status.showUntrackedFiles ${SQ}bogus${SQ}" err &&
	test_path_is_missing x.replay.json
'

test_expect_success 'an untracked nested repository, even an empty one' '
	new_repo r &&
	git init -q r/nested &&
	test_state r true &&
	new_repo r &&
	mkdir -p r/deep/er &&
	git init -q r/deep/er/nested &&
	test_state r true &&
	new_repo r &&
	git init -q --separate-git-dir="$TRASH_DIRECTORY/sep.git" r/linked &&
	test_state r true
'

test_expect_success 'an ignored nested repository; a fake .git' '
	new_repo r &&
	echo "vendor/" >>r/.git/info/exclude &&
	git init -q r/vendor/lib &&
	mkdir -p r/fake/.git &&
	test_state r false
'

test_expect_success 'submodule: clean' '
	new_super r &&
	test_state r false
'

test_expect_success 'submodule: modified content' '
	new_super r &&
	echo more >>r/sm/s &&
	test_state r true
'

test_expect_success 'submodule: untracked content' '
	new_super r &&
	echo u >r/sm/u &&
	test_state r true
'

test_expect_success 'submodule: new commits' '
	new_super r &&
	(
		cd r/sm &&
		echo t >t &&
		git add t &&
		git commit -q -m t
	) &&
	test_state r true &&
	git -C r add sm &&
	test_state r true
'

test_expect_success 'submodule: detached at the recorded commit' '
	new_super r &&
	git -C r/sm checkout -q --detach &&
	test_state r false
'

test_expect_success 'submodule: directory removed, replaced by a file' '
	new_super r &&
	rm -rf r/sm &&
	test_state r true &&
	echo file >r/sm &&
	test_state r true
'

test_expect_success 'submodule: not checked out' '
	rm -rf clone &&
	git clone -q super clone &&
	test_path_is_dir clone/sm &&
	test_state clone false
'

test_expect_success 'submodule: ignore settings' '
	new_super r &&
	echo u >r/sm/u &&
	git -C r config -f .gitmodules submodule.sm.ignore untracked &&
	git -C r commit -q -a -m "ignore untracked" &&
	test_state r false &&
	echo more >>r/sm/s &&
	test_state r true &&
	git -C r config submodule.sm.ignore dirty &&
	test_state r false &&
	git -C r config submodule.sm.ignore all &&
	rm -rf r/sm &&
	test_state r false
'

test_expect_success 'submodule: diff.ignoreSubmodules and its override' '
	new_super r &&
	echo u >r/sm/u &&
	git -C r config diff.ignoreSubmodules all &&
	test_state r false &&
	git -C r config submodule.sm.ignore none &&
	test_state r true
'

test_expect_success 'submodule: a staged commit shows even under ignore=all' '
	new_super r &&
	git -C r config submodule.sm.ignore all &&
	(
		cd r/sm &&
		echo t >t &&
		git add t &&
		git commit -q -m t
	) &&
	test_state r false &&
	git -C r add sm &&
	test_state r true
'

test_expect_success 'submodule: untracked content under showUntrackedFiles=no' '
	new_super r &&
	git -C r config status.showUntrackedFiles no &&
	echo u >r/sm/u &&
	test_state r false &&
	echo more >>r/sm/s &&
	test_state r true
'

test_expect_success 'submodule: its own showUntrackedFiles=no' '
	new_super r &&
	git -C r/sm config status.showUntrackedFiles no &&
	echo u >r/sm/u &&
	test_state r false
'

test_expect_success 'a nested submodule with untracked content' '
	rm -rf mid &&
	git init -q mid &&
	(
		cd mid &&
		echo m >m &&
		git add m &&
		git -c protocol.file.allow=always submodule add -q \
			"$TRASH_DIRECTORY/sub" inner &&
		git commit -q -m mid
	) &&
	new_repo r &&
	(
		cd r &&
		git -c protocol.file.allow=always submodule add -q \
			"$TRASH_DIRECTORY/mid" mid &&
		git -c protocol.file.allow=always submodule update -q \
			--init --recursive &&
		git commit -q -m mid
	) &&
	test_state r false &&
	echo u >r/mid/inner/u &&
	test_state r true &&
	git -C r config submodule.mid.ignore untracked &&
	test_state r false &&
	echo more >>r/mid/inner/s &&
	test_state r true
'

test_expect_success 'sparse checkout' '
	new_repo r &&
	git -C r sparse-checkout set --no-cone "/d/" "/token.yml" &&
	test_path_is_missing r/b &&
	test_state r false &&
	echo b >r/b &&
	test_state r false &&
	echo other >r/b &&
	test_state r true
'

test_expect_success 'unborn branch' '
	rm -rf r &&
	git init -q r &&
	echo "name: t" >r/token.yml &&
	test_state r null &&
	git -C r add token.yml &&
	test_state r null
'

test_expect_success 'detached HEAD' '
	new_repo r &&
	git -C r checkout -q --detach HEAD~1 &&
	test_state r false &&
	echo more >>r/b &&
	test_state r true
'

test_expect_success 'linked worktree' '
	new_repo r &&
	rm -rf wt &&
	git -C r worktree add -q "$TRASH_DIRECTORY/wt" HEAD~1 &&
	test_state wt false &&
	echo more >>wt/b &&
	test_state wt true &&
	test_state r false &&
	echo new >r/new &&
	git -C wt checkout -q -- b &&
	test_state wt false
'

test_expect_success 'a subdirectory of the work tree as the root' '
	new_repo r &&
	cp r/token.yml r/d/token.yml &&
	git -C r add d/token.yml &&
	git -C r commit -q -m sub &&
	test_state r/d false &&
	echo new >r/new &&
	test_state r/d true
'

test_expect_success 'not a repository: both null' '
	rm -rf norepo &&
	mkdir norepo &&
	echo "name: t" >norepo/token.yml &&
	GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
	export GIT_CEILING_DIRECTORIES &&
	test_when_finished "unset GIT_CEILING_DIRECTORIES" &&
	test_expect_code 128 git -C norepo rev-parse --git-dir &&
	test_state norepo null
'

test_expect_success 'a bare repository: both null (git status refuses)' '
	rm -rf bare.git &&
	git clone -q --bare base bare.git &&
	echo "name: t" >bare.git/token.yml &&
	test_expect_code 128 git -C bare.git status --porcelain &&
	ahd-replay capture --kind=critique --token=bare.git/token.yml --n=1 \
		--root=bare.git --out=x.replay.json --force &&
	test_grep "^  \"ahd_commit\": null,$" x.replay.json &&
	test_grep "^  \"git_dirty\": null,$" x.replay.json
'

test_expect_success 'GIT_DIR and GIT_WORK_TREE are honoured' '
	new_repo r &&
	rm -rf elsewhere &&
	mkdir elsewhere &&
	echo "name: t" >elsewhere/token.yml &&
	(
		GIT_DIR=$TRASH_DIRECTORY/r/.git &&
		GIT_WORK_TREE=$TRASH_DIRECTORY/r &&
		export GIT_DIR GIT_WORK_TREE &&
		test_state elsewhere false &&
		echo more >>r/a &&
		test_state elsewhere true
	)
'

test_expect_success 'a repository libgit2 cannot open is an error' '
	new_repo r &&
	git -C r config core.repositoryformatversion 1 &&
	git -C r config extensions.frobnicate true &&
	test_expect_code 128 git -C r status --porcelain &&
	test_expect_code 2 ahd-replay capture --kind=critique \
		--token=r/token.yml --n=1 --root=r --out=x.replay.json \
		--force 2>err &&
	test_grep "cannot open the git repository around .*frobnicate" err
'

test_expect_success 'extensions.worktreeConfig: config.worktree is read' '
	new_repo r &&
	git -C r config core.repositoryformatversion 1 &&
	git -C r config extensions.worktreeConfig true &&
	git -C r config --worktree status.showUntrackedFiles no &&
	echo new >r/new &&
	test_state r false
'

test_done
