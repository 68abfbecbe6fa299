#!/bin/sh

test_description='every command finds the repository as git does

One fixture repository with reports (one intact, one drifted, one with
no sidecar yet) is looked at from many places: from inside it and from a
subdirectory; from another repository with GIT_DIR and GIT_WORK_TREE
naming it (absolute and relative); with GIT_DIR alone or GIT_WORK_TREE
alone; from a linked worktree, also named by GIT_DIR, GIT_WORK_TREE and
GIT_COMMON_DIR; from a checkout whose git directory is elsewhere
(--separate-git-dir), also named by the environment.  verify (all
reports, named reports, --at), backfill (--dry-run and a real write),
diff (two sidecars, --at) and the pre-commit and pre-push hooks run by
real git must give the same verdicts, exit statuses and files in every
place as from inside the repository, paths aside.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

T=$TRASH_DIRECTORY

# run_to FILE CMD...: CMD's stdout and stderr, then its exit status, in
# FILE.
run_to () {
	rt_out=$1
	shift
	"$@" >"$rt_out" 2>&1
	echo "exit $?" >>"$rt_out"
}

# normalize FILE WORKTREE: FILE with the work tree's path taken out, and
# runs of spaces squeezed (diff aligns its columns to the names shown).
normalize () {
	sed -e "s|$2/||g" -e "s|$2|<wt>|g" -e "s/  */ /g" "$1"
}

# commands NAME WORKTREE: run every command from here, as the caller's
# directory and environment make it, into NAME.*; WORKTREE is the
# absolute path of the work tree the commands should use.
commands () {
	run_to "$T/$1.verify" ahd-replay verify &&
	run_to "$T/$1.verify-named" ahd-replay verify \
		"$2/docs/evals/swiss.md" "$2/docs/evals/brutal.md" &&
	run_to "$T/$1.verify-at" ahd-replay verify --at HEAD~1 \
		"$2/docs/evals/brutal.md" &&
	run_to "$T/$1.dry-run" ahd-replay backfill --dry-run &&
	test_path_is_missing "$2/docs/evals/old.replay.json" &&
	run_to "$T/$1.backfill" ahd-replay backfill &&
	mv "$2/docs/evals/old.replay.json" "$T/$1.written" &&
	run_to "$T/$1.diff" ahd-replay diff \
		"$2/docs/evals/swiss.replay.json" \
		"$2/docs/evals/brutal.replay.json" &&
	run_to "$T/$1.diff-at" ahd-replay diff --at HEAD~1 HEAD \
		"$2/docs/evals/swiss.md"
}

# same_as_inside NAME WORKTREE: NAME.* say what inside.* say.
same_as_inside () {
	for what in verify verify-named verify-at dry-run backfill diff \
		diff-at written
	do
		normalize "$T/inside.$what" "$T/repo" >expect &&
		normalize "$T/$1.$what" "$2" >actual &&
		test_cmp expect actual || return 1
	done
}

# libgit2 1.5 leaks in git_repository_set_workdir() (a work tree
# elsewhere than beside the git directory) and the PCRE2 match data of
# regexes that do not match, as t1401 notes.  Tell LeakSanitizer, when it
# runs, about those two only.
test_expect_success 'setup: a repository with an intact, a drifted and an unrecorded report' '
	cat >"$T/lsan.supp" <<-\EOF &&
	leak:libpcre2-8.so
	leak:git_repository_set_workdir
	EOF
	supp=suppressions=$T/lsan.supp:print_suppressions=0 &&
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}$supp &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
	export LSAN_OPTIONS ASAN_OPTIONS &&
	git init -q -b main repo &&
	(
		cd repo &&
		mkdir -p tokens briefs docs/evals src &&
		printf "name: swiss\ngrid: 12\n" >tokens/swiss.yml &&
		printf "name: brutal\nweights: {b: 2, a: 1}\n" >tokens/brutal.yml &&
		printf "title: Landing\n" >briefs/landing.yml &&
		echo app >src/app.txt &&
		for r in swiss brutal old
		do
			printf "# ahd eval · swiss · 2026-01-06T10:00:00Z\n\n- Brief: \`briefs/landing.yml\`\n- Samples per cell: **3**\n" \
				>docs/evals/$r.md || return 1
		done &&
		write_sidecar docs/evals/swiss.replay.json tokens/swiss.yml \
			briefs/landing.yml &&
		write_sidecar docs/evals/brutal.replay.json tokens/brutal.yml &&
		git add -A &&
		test_tick &&
		git commit -q -m C1 &&
		printf "name: brutal\nweights: {b: 3, a: 1}\n" >tokens/brutal.yml &&
		write_sidecar --sampling="{\"n\": 5, \"temperature\": 0.7, \"seed\": 1}" \
			docs/evals/swiss.replay.json tokens/swiss.yml \
			briefs/landing.yml &&
		git add -A &&
		test_tick &&
		git commit -q -m "C2: brutal changes"
	) &&
	git init -q -b main other &&
	mkdir -p other/sub other/docs/evals &&
	git -C repo worktree add -q ../linked &&
	git clone -q --separate-git-dir="$T/sep.git" repo sepwt
'

test_expect_success 'from inside the repository: the verdicts to match' '
	(cd repo && commands inside "$T/repo") &&
	test_grep "exit 1" inside.verify &&
	test_grep "2 reports: 1 intact, 1 drifted, 0 errors" inside.verify &&
	test_grep "exit 1" inside.verify-named &&
	test_grep "exit 0" inside.verify-at &&
	test_grep "would write" inside.dry-run &&
	test_grep "written=1" inside.backfill &&
	test_grep "\"ahd_commit\": \"$(git -C repo rev-parse HEAD~1)\"" inside.written &&
	test_grep "sampling" inside.diff-at &&
	test_grep "exit 1" inside.diff-at
'

test_expect_success 'from a subdirectory' '
	(cd repo/docs && commands subdir "$T/repo") &&
	same_as_inside subdir "$T/repo"
'

test_expect_success 'from another repository, GIT_DIR and GIT_WORK_TREE absolute' '
	(
		cd other &&
		GIT_DIR=$T/repo/.git GIT_WORK_TREE=$T/repo &&
		export GIT_DIR GIT_WORK_TREE &&
		commands env-abs "$T/repo"
	) &&
	same_as_inside env-abs "$T/repo"
'

test_expect_success 'from another repository, GIT_DIR and GIT_WORK_TREE relative' '
	(
		cd other/sub &&
		GIT_DIR=../../repo/.git GIT_WORK_TREE=../../repo &&
		export GIT_DIR GIT_WORK_TREE &&
		commands env-rel "$T/repo"
	) &&
	same_as_inside env-rel "$T/repo"
'

test_expect_success 'GIT_DIR alone: the current directory is the work tree' '
	(
		cd repo &&
		GIT_DIR=.git &&
		export GIT_DIR &&
		commands gitdir-only "$T/repo"
	) &&
	same_as_inside gitdir-only "$T/repo"
'

test_expect_success 'GIT_WORK_TREE alone, from a subdirectory' '
	(
		cd repo/docs &&
		GIT_WORK_TREE=.. &&
		export GIT_WORK_TREE &&
		commands worktree-only "$T/repo"
	) &&
	same_as_inside worktree-only "$T/repo"
'

test_expect_success 'from a linked worktree' '
	(cd linked && commands linked "$T/linked") &&
	same_as_inside linked "$T/linked"
'

test_expect_success 'a linked worktree named by GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR' '
	(
		cd other &&
		GIT_DIR=../repo/.git/worktrees/linked GIT_WORK_TREE=../linked &&
		GIT_COMMON_DIR=../repo/.git &&
		export GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR &&
		commands linked-env "$T/linked"
	) &&
	same_as_inside linked-env "$T/linked"
'

test_expect_success 'a checkout whose git directory is elsewhere (--separate-git-dir)' '
	(cd sepwt && commands separate "$T/sepwt") &&
	same_as_inside separate "$T/sepwt"
'

test_expect_success 'that checkout named by GIT_DIR and GIT_WORK_TREE' '
	(
		cd other &&
		GIT_DIR=$T/sep.git GIT_WORK_TREE=../sepwt &&
		export GIT_DIR GIT_WORK_TREE &&
		commands separate-env "$T/sepwt"
	) &&
	same_as_inside separate-env "$T/sepwt"
'

test_expect_success 'GIT_COMMON_DIR naming another repository is refused, not followed' '
	(
		cd linked &&
		GIT_DIR=../repo/.git/worktrees/linked GIT_COMMON_DIR=../sep.git &&
		export GIT_DIR GIT_COMMON_DIR &&
		test_expect_code 2 ahd-replay hook pre-commit
	) 2>err &&
	test_grep "GIT_COMMON_DIR .* is not the common directory" err
'

test_expect_success 'a bare repository: --root names the work tree, --at needs one' '
	git clone -q --bare repo bare.git &&
	(
		cd bare.git &&
		test_expect_code 1 ahd-replay verify --root "$T/repo" \
			"$T/repo/docs/evals/swiss.md" "$T/repo/docs/evals/brutal.md" &&
		ahd-replay verify --root "$T/repo" --at HEAD~1 \
			"$T/repo/docs/evals/brutal.md"
	) >out &&
	test_grep "2 reports: 1 intact, 1 drifted, 0 errors" out &&
	(
		cd repo &&
		GIT_DIR=../bare.git &&
		export GIT_DIR &&
		test_expect_code 2 ahd-replay verify --at HEAD docs/evals/brutal.md
	) >out &&
	test_grep "needs a git work tree" out
'

test_lazy_prereq CHOWN '
	mkdir d && chown 65534 d 2>/dev/null && test "$(stat -c %u d)" = 65534
'

test_expect_success CHOWN 'a repository owned by someone else: every command says so, naming its top' '
	cp -R repo owned &&
	chown -R 65534 owned &&
	(
		cd owned/docs &&
		test_expect_code 2 ahd-replay verify --at HEAD evals/brutal.md &&
		test_expect_code 2 ahd-replay diff --at HEAD~1 HEAD evals/swiss.md &&
		test_expect_code 2 ahd-replay backfill --dry-run &&
		test_expect_code 2 ahd-replay hooks status &&
		test_expect_code 2 ahd-replay capture --kind=eval-live \
			--token=../tokens/swiss.yml --n=1 --root=.. \
			--out="$T/owned.replay.json"
	) >out 2>&1 &&
	cat out &&
	test_path_is_missing owned.replay.json &&
	grep -c "the repository at .$T/owned. is owned by someone else.*safe.directory" out >count &&
	echo 5 >expect &&
	test_cmp expect count
'

test_expect_success CHOWN 'safe.directory trusts it, as in git' '
	test_when_finished "git config --global --unset-all safe.directory" &&
	git config --global --add safe.directory "$T/owned" &&
	(
		cd owned/docs &&
		test_expect_code 1 ahd-replay verify --at HEAD evals/brutal.md
	) >out &&
	test_grep "drift detected" out
'

# ---------------------------------------------------------------------
# The hooks, run by real git

# commit_in NAME WORKTREE [ENV...]: stage a drift of the swiss token in
# WORKTREE, then `git commit` as the caller's directory and ENV make it
# (must fail: stderr in NAME.refused); then a harmless commit (must
# pass: stderr in NAME.allowed), undone.
commit_in () {
	ci_name=$1 ci_wt=$2
	shift 2
	echo "more: 1" >>"$ci_wt/tokens/swiss.yml" &&
	git -C "$ci_wt" add tokens/swiss.yml &&
	ci_head=$(git -C "$ci_wt" rev-parse HEAD) &&
	(env "$@" git commit -q -m drift) 2>"$T/$ci_name.refused"
	ci_ret=$?
	cat "$T/$ci_name.refused" &&
	test $ci_ret != 0 &&
	test "$(git -C "$ci_wt" rev-parse HEAD)" = "$ci_head" &&
	git -C "$ci_wt" reset -q --hard &&
	echo "more" >>"$ci_wt/src/app.txt" &&
	git -C "$ci_wt" add src/app.txt &&
	(env "$@" git commit -q -m harmless) 2>"$T/$ci_name.allowed" &&
	test_must_be_empty "$T/$ci_name.allowed" &&
	test "$(git -C "$ci_wt" rev-parse HEAD~1)" = "$ci_head" &&
	git -C "$ci_wt" reset -q --hard HEAD~1
}

# push_in NAME WORKTREE [ENV...]: commit a drift (no hook) in WORKTREE
# and `git push` it to a new branch of origin as the caller's directory
# and ENV make it (must fail: stderr in NAME.push); then undo the commit.
push_in () {
	pi_name=$1 pi_wt=$2
	shift 2
	echo "more: 2" >>"$pi_wt/tokens/swiss.yml" &&
	git -C "$pi_wt" commit -q --no-verify -a -m drift &&
	(env "$@" git push -q origin HEAD:refs/heads/pushed) 2>"$T/$pi_name.push"
	pi_ret=$?
	cat "$T/$pi_name.push" &&
	test $pi_ret != 0 &&
	! git --git-dir="$T/remote.git" rev-parse -q --verify refs/heads/pushed &&
	git -C "$pi_wt" reset -q --hard HEAD~1
}

# same_hook_verdicts NAME WORKTREE: NAME's hook messages are inside's.
same_hook_verdicts () {
	for what in refused push
	do
		normalize "$T/inside.$what" "$T/repo" >expect &&
		normalize "$T/$1.$what" "$2" >actual &&
		test_cmp expect actual || return 1
	done
}

test_expect_success 'hooks: installed, and a remote to push to' '
	(cd repo && ahd-replay install-hooks) >/dev/null &&
	(cd sepwt && ahd-replay install-hooks) >/dev/null &&
	test_path_is_file repo/.git/hooks/pre-commit &&
	test_path_is_file sep.git/hooks/pre-push &&
	git clone -q --bare repo remote.git &&
	git -C repo remote add origin "$T/remote.git" &&
	git -C repo fetch -q origin &&
	git -C sepwt remote set-url origin "$T/remote.git" &&
	git -C sepwt fetch -q origin
'

test_expect_success 'hooks from inside the repository: the verdicts to match' '
	(cd repo && commit_in inside "$T/repo") &&
	test_grep "makes published reports drift" inside.refused &&
	test_grep "docs/evals/swiss.md" inside.refused &&
	(cd repo && push_in inside "$T/repo") &&
	test_grep "docs/evals/swiss.md" inside.push
'

test_expect_success 'hooks with GIT_DIR and GIT_WORK_TREE, from another repository' '
	(
		cd other &&
		commit_in env "$T/repo" GIT_DIR=$T/repo/.git GIT_WORK_TREE=$T/repo &&
		push_in env "$T/repo" GIT_DIR=../repo/.git GIT_WORK_TREE=../repo
	) &&
	same_hook_verdicts env "$T/repo"
'

test_expect_success 'hooks from a linked worktree' '
	(cd linked && commit_in linked "$T/linked" && push_in linked "$T/linked") &&
	same_hook_verdicts linked "$T/linked"
'

test_expect_success 'hooks from a checkout with a separate git directory' '
	(cd sepwt && commit_in separate "$T/sepwt" && push_in separate "$T/sepwt") &&
	same_hook_verdicts separate "$T/sepwt"
'

test_expect_success 'hooks in that checkout named by GIT_DIR and GIT_WORK_TREE' '
	(
		cd other/sub &&
		commit_in separate-env "$T/sepwt" GIT_DIR=$T/sep.git \
			GIT_WORK_TREE=$T/sepwt &&
		push_in separate-env "$T/sepwt" GIT_DIR=../../sep.git \
			GIT_WORK_TREE=../../sepwt
	) &&
	same_hook_verdicts separate-env "$T/sepwt"
'

test_done
