#!/bin/sh

test_description='hook managers: the documented set-ups run the check

For each hook manager the README documents (the pre-commit framework with
.pre-commit-hooks.yaml, lefthook, husky, git'"'"'s config-defined hooks), the
real tool is set up from the snippet shipped in the tree, in a clone of
the demo repository; a commit that makes published reports drift must be
refused, a harmless one accepted, and a push of a drifting commit
refused.  A tool that is not installed (or too old) skips its tests:
pre-commit >= 3.2, lefthook and husky on PATH (npm install -g lefthook
husky), git >= 2.54 for config-defined hooks.  `hooks status` lists
config-defined hooks and warns about a missing core.hooksPath with any
git.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

snippets=$TEST_SRC_DIR/contrib/hook-managers

# version_at_least "X.Y.Z" "A.B": X.Y.Z >= A.B
version_at_least () {
	printf '%s\n%s\n' "$2" "$1" | sort -t. -k1,1n -k2,2n -k3,3n -C
}

test_lazy_prereq PRE_COMMIT '
	v=$(pre-commit --version 2>/dev/null) &&
	version_at_least "${v#pre-commit }" 3.2
'
test_lazy_prereq LEFTHOOK 'lefthook version >/dev/null 2>&1'
test_lazy_prereq HUSKY 'command -v husky >/dev/null'
test_lazy_prereq CONFIG_HOOKS '
	v=$(git --version) && v=${v#git version } &&
	version_at_least "${v%% *}" 2.54
'

# The hooks run `ahd-replay` from PATH: the binary under test.
mkdir -p bin &&
ln -sf "$AHD_REPLAY" bin/ahd-replay &&
PATH=$TRASH_DIRECTORY/bin:$PATH &&
export PATH

# new_clone DIR: a clone of the demo repository with a bare remote.
new_clone () {
	git clone -q --bare demo "$1.git" &&
	git clone -q "$1.git" "$1"
}

# check_manager DIR: a drifting commit refused, a harmless commit
# accepted, a push of a drifting commit refused.
check_manager () {
	(
		cd "$1" &&
		echo "extra: 1" >>tokens/brutalist-grid.yml &&
		test_must_fail git commit -qam drift 2>../err &&
		test_grep "this commit makes published reports drift" ../err &&
		git checkout -q -- tokens/brutalist-grid.yml &&
		echo notes >notes.txt && git add notes.txt &&
		git commit -qm notes 2>../err &&
		echo "extra: 1" >>tokens/brutalist-grid.yml &&
		git commit -q --no-verify -am drift &&
		test_must_fail git push -q origin HEAD:refs/heads/drift 2>../err &&
		test_grep "makes published reports drift" ../err
	)
}

test_expect_success 'setup: the demo repository' '
	AHD_REPLAY=$AHD_REPLAY sh "$TEST_SRC_DIR/examples/make-demo-repo.sh" demo
'

test_expect_success '.pre-commit-hooks.yaml is at the root, with both stages' '
	manifest=$TEST_SRC_DIR/.pre-commit-hooks.yaml &&
	test_grep "^-   id: ahd-replay-pre-commit$" "$manifest" &&
	test_grep "^-   id: ahd-replay-pre-push$" "$manifest" &&
	test_grep "stages: \[pre-commit\]" "$manifest" &&
	test_grep "stages: \[pre-push\]" "$manifest" &&
	test_grep "entry: ahd-replay hook pre-push$" "$manifest"
'

# The framework clones a hook repository at a rev: a repository holding
# the manifest as the root of this tree.
test_expect_success PRE_COMMIT 'pre-commit framework: the manifest at the root' '
	git init -q hookrepo &&
	cp "$TEST_SRC_DIR/.pre-commit-hooks.yaml" hookrepo/ &&
	(cd hookrepo && git add . && git commit -qm manifest) &&
	rev=$(git -C hookrepo rev-parse HEAD) &&
	new_clone pc &&
	cat >pc/.pre-commit-config.yaml <<-EOF &&
	repos:
	-   repo: $TRASH_DIRECTORY/hookrepo
	    rev: $rev
	    hooks:
	    -   id: ahd-replay-pre-commit
	    -   id: ahd-replay-pre-push
	EOF
	(cd pc && git add .pre-commit-config.yaml && git commit -qm config &&
	 PRE_COMMIT_HOME=$TRASH_DIRECTORY/pc-cache pre-commit install \
		--hook-type pre-commit --hook-type pre-push) &&
	PRE_COMMIT_HOME=$TRASH_DIRECTORY/pc-cache check_manager pc
'

test_expect_success LEFTHOOK 'lefthook: the snippet, with use_stdin for pre-push' '
	new_clone lh &&
	cp "$snippets/lefthook.yml" lh/lefthook.yml &&
	(cd lh && git add lefthook.yml && git commit -qm lefthook &&
	 lefthook install) &&
	check_manager lh
'

test_expect_success HUSKY 'husky: the snippets in .husky/' '
	new_clone hu &&
	mkdir hu/.husky &&
	cp "$snippets/husky/pre-commit" "$snippets/husky/pre-push" hu/.husky/ &&
	(cd hu && husky && git add .husky && git commit -qm husky) &&
	test "$(git -C hu config core.hooksPath)" = .husky/_ &&
	check_manager hu
'

test_expect_success CONFIG_HOOKS 'git config-defined hooks: the snippet' '
	new_clone gc &&
	git -C gc config include.path "$snippets/gitconfig" &&
	check_manager gc
'

test_expect_success 'hooks status lists config-defined hooks, and a check that runs twice' '
	new_clone st &&
	(cd st &&
	 git config include.path "$snippets/gitconfig" &&
	 ahd-replay hooks status >../out 2>../err) &&
	test_grep "^config-defined hooks" out &&
	test_grep "^  hook.ahd-replay-pre-commit: event pre-commit, command ahd-replay hook pre-commit (local config)$" out &&
	test_grep "^  hook.ahd-replay-pre-push: event pre-push, command ahd-replay hook pre-push (local config)$" out &&
	test_must_be_empty err &&
	(cd st && ahd-replay install-hooks >/dev/null &&
	 ahd-replay hooks status >../out 2>../err) &&
	test_grep "the pre-commit check runs twice: from hook.ahd-replay-pre-commit" err &&
	test_grep "the pre-push check runs twice: from hook.ahd-replay-pre-push" err
'

test_expect_success 'hooks status: a config hook with no event, or the wrong one' '
	new_clone st2 &&
	(cd st2 &&
	 git config hook.lonely.command "ahd-replay hook pre-commit" &&
	 git config hook.wrong.event pre-commit &&
	 git config hook.wrong.command "ahd-replay hook pre-push" &&
	 ahd-replay hooks status >../out 2>../err) &&
	test_grep "hook.lonely has no event: git never runs it" err &&
	test_grep "hook.wrong runs the pre-push check but is not a pre-push hook" err
'

test_expect_success 'hooks status warns when core.hooksPath is missing in this worktree' '
	new_clone st3 &&
	(cd st3 && git config core.hooksPath .husky/_ &&
	 ahd-replay hooks status >../out 2>../err) &&
	test_grep "core.hooksPath names $TRASH_DIRECTORY/st3/.husky/_, which does not exist in this worktree" err
'

test_done
