#!/bin/sh

test_description='install-hooks, uninstall-hooks, hooks status, and the shims

Real git throughout: hooks must land where `git rev-parse --git-path
hooks` says, and commits, merges and pushes (to a local bare remote) run
them.  The shims run a stand-in for the binary: install-hooks is run as
$BIN, a symbolic link to the binary under test, so that the hooks embed
$BIN; then $BIN becomes a script that logs its arguments, its stdin and
AHD_REPLAY_HOOK_ACTIVE.  The checks themselves (`ahd-replay hook ...`)
are tested elsewhere.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

BIN=$TRASH_DIRECTORY/bin/ahd-replay
LOG=$TRASH_DIRECTORY/log
ZERO=0000000000000000000000000000000000000000

# with_real CMD ARGS...: run the binary under test as $BIN, so that the
# hooks it installs embed $BIN; afterwards $BIN is the logging fake.
with_real () {
	rm -f "$BIN" && ln -s "$AHD_REPLAY" "$BIN" || return 1
	"$BIN" "$@"
	with_real_rc_=$?
	rm -f "$BIN" && cp "$TRASH_DIRECTORY/fake-ahd-replay" "$BIN" || return 1
	return "$with_real_rc_"
}

# reset_log: forget what the fakes logged.
reset_log () {
	rm -rf "$LOG" && mkdir "$LOG" && : >"$LOG/calls"
}

# hooks_of DIR: the absolute hooks directory git uses in DIR.
hooks_of () {
	git -C "$1" rev-parse --path-format=absolute --git-path hooks
}

# snapshot DIR: one line per entry below DIR: type, mode, inode, target
# or checksum.  Equal snapshots: nothing was written, renamed or chmod-ed.
snapshot () {
	(
		cd "$1" &&
		find . -print | LC_ALL=C sort | while read -r f
		do
			if test -L "$f"
			then
				echo "$f link $(stat -c %i "$f") $(readlink "$f")"
			elif test -f "$f"
			then
				echo "$f file $(stat -c '%a %i' "$f") $(test_sha256 "$f")"
			else
				echo "$f dir $(stat -c %a "$f")"
			fi || exit 1
		done
	)
}

# stamp FILE: type, mode and content of one file, for before/after.
stamp () {
	if test -L "$1"
	then
		echo "link $(readlink "$1")"
	else
		echo "$(stat -c '%F %a' "$1") $(test_sha256 "$1")"
	fi
}

# is_ours FILE TYPE: FILE is our shim for TYPE, running $BIN.
is_ours () {
	test -f "$1" && test -x "$1" &&
	sed -n 2p "$1" >is_ours.line &&
	echo "# ahd-replay hook: $2, template 2" >is_ours.want &&
	test_cmp is_ours.want is_ours.line &&
	test_grep "^ahd_replay='$BIN'\$" "$1"
}

# new_repo DIR: a repository with one commit on main.
new_repo () {
	git init -q -b main "$1" &&
	echo one >"$1/file" &&
	git -C "$1" add file &&
	git -C "$1" commit -q --no-verify -m one
}

# write_prev FILE [MODE]: a foreign hook that logs its arguments and
# stdin and exits $PREV_STATUS.
write_prev () {
	cat >"$1" <<-\EOF &&
	#!/bin/sh
	printf 'prev %s\n' "$*" >>"$TRASH_DIRECTORY/log/calls"
	cat >>"$TRASH_DIRECTORY/log/prev-stdin"
	exit "${PREV_STATUS:-0}"
	EOF
	chmod "${2:-755}" "$1"
}

test_expect_success 'setup' '
	mkdir bin &&
	cat >fake-ahd-replay <<-\EOF &&
	#!/bin/sh
	printf "ahd-replay %s\n" "$*" >>"$TRASH_DIRECTORY/log/calls"
	cat >>"$TRASH_DIRECTORY/log/stdin"
	printf "%s\n" "${AHD_REPLAY_HOOK_ACTIVE:-}" >>"$TRASH_DIRECTORY/log/active"
	exit "${FAKE_STATUS:-0}"
	EOF
	chmod +x fake-ahd-replay &&
	cp fake-ahd-replay "$BIN" &&
	reset_log &&
	GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
	export GIT_CEILING_DIRECTORIES
'

# --- the templates ---------------------------------------------------------

for hook in pre-commit pre-push pre-merge-commit
do
	test_expect_success "hooks/$hook is what --print prints" '
		ahd-replay install-hooks --print '"$hook"' >printed &&
		sed "s|^ahd_replay=.*|ahd_replay='"'"'@AHD_REPLAY@'"'"'|" \
			printed >actual &&
		test_cmp "$TEST_SRC_DIR/hooks/'"$hook"'" actual || {
			echo "regenerate hooks/'"$hook"' with: ahd-replay install-hooks --print '"$hook"' | sed ..." >&2
			return 1
		}
	'

	test_expect_success "hooks/$hook: sh, LF, mode 0755, marker, type named" '
		f="$TEST_SRC_DIR/hooks/'"$hook"'" &&
		# 0755 (0555 in a read-only tree, as make distcheck makes it)
		case $(stat -c %A "$f") in
		-r?xr-xr-x) ;;
		*) echo "mode of $f: $(stat -c %A "$f")"; false ;;
		esac &&
		test "$(head -n 1 "$f")" = "#!/bin/sh" &&
		test "$(sed -n 2p "$f")" = "# ahd-replay hook: '"$hook"', template 2" &&
		! grep -q "$(printf "\r")" "$f" &&
		test_grep "^exec \"\$run\" hook '"$hook"' \"\$@\"\$" "$f" &&
		test_grep "'"$hook"'.ahd-replay-prev" "$f" &&
		sh -n "$f"
	'
done

test_expect_success '--print embeds the absolute path of the binary' '
	with_real install-hooks --print pre-push >printed &&
	test_grep "^ahd_replay='"'$BIN'"'\$" printed
'

test_expect_success 'a binary path with a quote and a space is quoted for sh' '
	mkdir "odd dir" &&
	ln -s "$AHD_REPLAY" "odd dir/it'"'"'s" &&
	"$TRASH_DIRECTORY/odd dir/it'"'"'s" install-hooks --print pre-commit >printed &&
	sh -c "$(sed -n "s/^ahd_replay=/x=/p" printed); printf %s \"\$x\"" >value &&
	printf %s "$TRASH_DIRECTORY/odd dir/it'"'"'s" >want &&
	test_cmp want value &&
	git init -q oddrepo &&
	(cd oddrepo && "$TRASH_DIRECTORY/odd dir/it'"'"'s" install-hooks) &&
	(cd oddrepo && "$TRASH_DIRECTORY/odd dir/it'"'"'s" install-hooks >../out) &&
	test_grep "^pre-commit: up to date\$" out &&
	(cd oddrepo && ahd-replay hooks status >../out) &&
	test_grep "^  runs: $TRASH_DIRECTORY/odd dir/it.s hook pre-commit\$" out
'

test_expect_success '--print needs no repository; an unknown hook is a usage error' '
	(cd / && ahd-replay install-hooks --print pre-commit >"$TRASH_DIRECTORY/out") &&
	test -s out &&
	test_expect_code 2 ahd-replay install-hooks --print post-commit 2>err &&
	test_grep "post-commit" err &&
	test_expect_code 2 ahd-replay install-hooks --print 2>err &&
	test_grep "needs a value" err
'

# --- usage -----------------------------------------------------------------

for cmd in install-hooks uninstall-hooks "hooks"
do
	test_expect_success "$cmd -h prints the usage to stdout and exits 0" '
		ahd-replay '"$cmd"' -h >out 2>err &&
		test_must_be_empty err &&
		test "$(head -n 1 out | cut -d" " -f1-3)" = "usage: ahd-replay '"$cmd"'" &&
		ahd-replay help '"$cmd"' >help.out &&
		test_cmp out help.out
	'
done

test_expect_success 'unknown options and arguments are usage errors' '
	test_expect_code 2 ahd-replay install-hooks --frob 2>err &&
	test_grep "usage: ahd-replay install-hooks" err &&
	test_expect_code 2 ahd-replay install-hooks --hooks-path=maybe 2>err &&
	test_grep "hooks-path" err &&
	test_expect_code 2 ahd-replay uninstall-hooks extra 2>err &&
	test_expect_code 2 ahd-replay hooks 2>err &&
	test_expect_code 2 ahd-replay hooks frob 2>err &&
	test_grep "frob" err
'

test_expect_success GROFF 'the man page synopsis matches -h' '
	groff -man -Tascii -rLL=300n -P-cbou \
		"$TEST_SRC_DIR/doc/ahd-replay-install-hooks.1" >man.raw 2>man.err &&
	test_must_be_empty man.err &&
	tr -s " \n" "  " <man.raw >man.txt &&
	for cmd in install-hooks uninstall-hooks hooks
	do
		ahd-replay $cmd -h >usage.$cmd &&
		sed -n "1s/^usage: //p" usage.$cmd | tr -s " " " " >want.$cmd &&
		grep -F -f want.$cmd man.txt >/dev/null || {
			echo "synopsis of $cmd not in the man page: $(cat want.$cmd)"
			return 1
		}
	done
'

test_expect_success 'outside a repository: exit 2' '
	mkdir norepo &&
	(cd norepo && test_expect_code 2 ahd-replay install-hooks 2>../err) &&
	test_grep "not in a git repository" err &&
	(cd norepo && test_expect_code 2 ahd-replay hooks status 2>../err) &&
	test_path_is_missing norepo/.git
'

# --- where hooks go --------------------------------------------------------

test_expect_success 'default: the git directory hooks/, config untouched' '
	new_repo repo &&
	git init -q --bare remote.git &&
	git -C repo remote add origin ../remote.git &&
	cp repo/.git/config config.before &&
	(cd repo && with_real install-hooks >../out 2>../err) &&
	test_must_be_empty err &&
	dir=$(hooks_of repo) &&
	test "$dir" = "$TRASH_DIRECTORY/repo/.git/hooks" &&
	is_ours "$dir/pre-commit" pre-commit &&
	is_ours "$dir/pre-push" pre-push &&
	test_path_is_missing "$dir/pre-merge-commit" &&
	test "$(stat -c %a "$dir/pre-commit")" = 755 &&
	test_grep "^hooks directory: $dir\$" out &&
	test_grep "^pre-commit: installed\$" out &&
	test_grep "^pre-push: installed\$" out &&
	test_cmp config.before repo/.git/config &&
	test_path_is_missing .gitconfig
'

test_expect_success 'installing twice changes nothing' '
	snapshot repo/.git/hooks >before &&
	(cd repo && with_real install-hooks >../out) &&
	snapshot repo/.git/hooks >after &&
	test_cmp before after &&
	test_grep "^pre-commit: up to date\$" out &&
	test_grep "^pre-push: up to date\$" out
'

test_expect_success 'a commit runs `hook pre-commit` once' '
	reset_log &&
	git -C repo commit -q --allow-empty -m two &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

test_expect_success 'the check failing refuses the commit' '
	reset_log &&
	test_must_fail env FAKE_STATUS=1 git -C repo commit -q --allow-empty -m refused &&
	test "$(git -C repo log -1 --format=%s)" = two
'

test_expect_success 'a push runs `hook pre-push <remote> <url>` with the refs on stdin' '
	reset_log &&
	git -C repo push -q origin main &&
	echo "ahd-replay hook pre-push origin ../remote.git" >want &&
	test_cmp want log/calls &&
	echo "refs/heads/main $(git -C repo rev-parse main) refs/heads/main $ZERO" >want &&
	test_cmp want log/stdin
'

test_expect_success 'install from a subdirectory and with GIT_DIR' '
	mkdir -p repo/sub/deeper &&
	(cd repo/sub/deeper && with_real install-hooks >out) &&
	test_grep "^pre-commit: up to date" repo/sub/deeper/out &&
	rm -r repo/sub &&
	(GIT_DIR=repo/.git && export GIT_DIR && with_real install-hooks >out) &&
	test_grep "^hooks directory: $TRASH_DIRECTORY/repo/.git/hooks\$" out
'

test_expect_success 'core.hooksPath relative (local): against the top of the work tree' '
	new_repo rel &&
	git -C rel config core.hooksPath .githooks &&
	mkdir rel/sub &&
	(cd rel/sub && with_real install-hooks >../../out) &&
	test "$(hooks_of rel)" = "$TRASH_DIRECTORY/rel/.githooks" &&
	is_ours rel/.githooks/pre-commit pre-commit &&
	is_ours rel/.githooks/pre-push pre-push &&
	test_path_is_missing rel/.git/hooks/pre-commit &&
	test_grep "core.hooksPath = .\.githooks. (local config" out &&
	reset_log &&
	git -C rel commit -q --allow-empty -m x &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

test_expect_success 'core.hooksPath absolute, inside the git directory' '
	new_repo abs &&
	git -C abs config core.hooksPath "$TRASH_DIRECTORY/abs/.git/my-hooks" &&
	(cd abs && with_real install-hooks) &&
	test "$(hooks_of abs)" = "$TRASH_DIRECTORY/abs/.git/my-hooks" &&
	is_ours abs/.git/my-hooks/pre-commit pre-commit
'

test_expect_success 'core.hooksPath with ~ in global config, outside: exit 2, nothing written' '
	new_repo glob &&
	test_when_finished "rm -f .gitconfig" &&
	git config --global core.hooksPath "~/global-hooks" &&
	snapshot glob >before &&
	(cd glob && test_expect_code 2 with_real install-hooks >../out 2>../err) &&
	test_must_be_empty out &&
	test_grep "core.hooksPath = .~/global-hooks. (global config, $TRASH_DIRECTORY/.gitconfig)" err &&
	test_grep "outside the repository" err &&
	test_grep "nothing was written" err &&
	test_path_is_missing global-hooks &&
	snapshot glob >after &&
	test_cmp before after
'

test_expect_success '--hooks-path=use writes there; it is where git looks' '
	test_when_finished "rm -f .gitconfig" &&
	git config --global core.hooksPath "~/global-hooks" &&
	cp .gitconfig gitconfig.before &&
	(cd glob && with_real install-hooks --hooks-path=use >../out 2>../err) &&
	test "$(hooks_of glob)" = "$TRASH_DIRECTORY/global-hooks" &&
	is_ours global-hooks/pre-commit pre-commit &&
	test_grep "hooks-path=use" err &&
	test_cmp gitconfig.before .gitconfig
'

test_expect_success 'core.hooksPath in the XDG config file names that scope' '
	test_when_finished "rm -rf .config" &&
	mkdir -p .config/git &&
	printf "[core]\n\thooksPath = /nowhere/hooks\n" >.config/git/config &&
	(cd glob && test_expect_code 2 ahd-replay install-hooks 2>../err) &&
	test_grep "(xdg config, $TRASH_DIRECTORY/.config/git/config)" err &&
	test_path_is_missing /nowhere/hooks
'

test_expect_success 'the local setting beats the global one, as in git' '
	test_when_finished "rm -f .gitconfig" &&
	git config --global core.hooksPath /nowhere/hooks &&
	new_repo both &&
	git -C both config core.hooksPath .git/local-hooks &&
	(cd both && with_real install-hooks) &&
	test "$(hooks_of both)" = "$TRASH_DIRECTORY/both/.git/local-hooks" &&
	is_ours both/.git/local-hooks/pre-push pre-push
'

test_expect_success 'core.hooksPath in worktree config (extensions.worktreeConfig)' '
	new_repo wtc &&
	git -C wtc config extensions.worktreeConfig true &&
	git -C wtc config --worktree core.hooksPath /nowhere/wt-hooks &&
	(cd wtc && test_expect_code 2 ahd-replay install-hooks 2>../err) &&
	test_grep "(worktree config, $TRASH_DIRECTORY/wtc/.git/config.worktree)" err
'

test_expect_success 'core.hooksPath at a tracked directory: exit 2 naming it; --hooks-path=use' '
	new_repo tracked &&
	mkdir tracked/githooks &&
	echo "#!/bin/sh" >tracked/githooks/commit-msg &&
	git -C tracked add githooks &&
	git -C tracked commit -q --no-verify -m hooks &&
	git -C tracked config core.hooksPath githooks &&
	snapshot tracked >before &&
	(cd tracked && test_expect_code 2 with_real install-hooks >../out 2>../err) &&
	test_grep "core.hooksPath = .githooks. (local config" err &&
	test_grep "a directory git tracks" err &&
	test_grep "ahd-replay hook pre-commit" err &&
	test_must_be_empty out &&
	snapshot tracked >after &&
	test_cmp before after &&
	(cd tracked && with_real install-hooks --hooks-path=use) &&
	is_ours tracked/githooks/pre-commit pre-commit
'

test_expect_success 'an untracked core.hooksPath in the work tree is used, with a warning' '
	new_repo untracked &&
	git -C untracked config core.hooksPath hooks-here &&
	(cd untracked && with_real install-hooks 2>../err) &&
	is_ours untracked/hooks-here/pre-commit pre-commit &&
	test_grep "do not commit these hooks" err
'

test_expect_success 'a linked worktree shares the common directory hooks' '
	git -C repo worktree add -q ../linked &&
	test "$(hooks_of linked)" = "$TRASH_DIRECTORY/repo/.git/hooks" &&
	snapshot repo/.git/hooks >before &&
	(cd linked && with_real install-hooks >../out) &&
	test_grep "^hooks directory: $TRASH_DIRECTORY/repo/.git/hooks\$" out &&
	test_grep "^pre-commit: up to date\$" out &&
	snapshot repo/.git/hooks >after &&
	test_cmp before after &&
	test_path_is_missing repo/.git/worktrees/linked/hooks &&
	reset_log &&
	git -C linked commit -q --allow-empty -m in-linked &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

test_expect_success 'GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR, relative, as git takes them' '
	(
		GIT_DIR=repo/.git/worktrees/linked &&
		GIT_WORK_TREE=linked &&
		GIT_COMMON_DIR=repo/.git &&
		export GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR &&
		git rev-parse --path-format=absolute --git-path hooks >want &&
		ahd-replay hooks status >out &&
		sed -n "s/^hooks directory: //p" out >actual &&
		test_cmp want actual
	)
'

test_expect_success 'a submodule has its own hooks' '
	new_repo subsrc &&
	new_repo super &&
	git -C super -c protocol.file.allow=always submodule add -q ../subsrc sub &&
	sub_hooks=$(hooks_of super/sub) &&
	test "$sub_hooks" = "$TRASH_DIRECTORY/super/.git/modules/sub/hooks" &&
	(cd super/sub && with_real install-hooks >../../out) &&
	test_grep "^hooks directory: $sub_hooks\$" out &&
	is_ours "$sub_hooks/pre-commit" pre-commit &&
	test_path_is_missing super/.git/hooks/pre-commit &&
	reset_log &&
	git -C super/sub commit -q --allow-empty -m in-sub &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

# --- hooks that were there before -----------------------------------------

# setup_foreign NAME: repo NAME with a pre-commit hook in one form.
setup_foreign () {
	new_repo "$1" &&
	h=$1/.git/hooks/pre-commit &&
	case $1 in
	f-script)
		write_prev "$h" ;;
	f-binary)
		printf "\177ELF\002\001\001\000\000\000\377\376binary\n" >"$h" &&
		chmod 755 "$h" ;;
	f-noexec)
		write_prev "$h" 644 ;;
	f-symlink)
		write_prev "$TRASH_DIRECTORY/elsewhere-hook" &&
		ln -s "$TRASH_DIRECTORY/elsewhere-hook" "$h" ;;
	f-odd-mode)
		write_prev "$h" 700 ;;
	esac
}

for form in script binary noexec symlink odd-mode
do
	test_expect_success "a foreign hook ($form) is moved aside and restored byte for byte" '
		setup_foreign f-'"$form"' &&
		d=f-'"$form"'/.git/hooks &&
		stamp $d/pre-commit >before &&
		snapshot $d >dir.before &&
		(cd f-'"$form"' && with_real install-hooks >../out) &&
		test_grep "^pre-commit: installed; the hook that was there" out &&
		is_ours $d/pre-commit pre-commit &&
		stamp $d/pre-commit.ahd-replay-prev >moved &&
		test_cmp before moved &&
		(cd f-'"$form"' && with_real install-hooks >../out) &&
		test_grep "^pre-commit: up to date" out &&
		test_path_is_missing $d/pre-commit.ahd-replay-prev.ahd-replay-prev &&
		(cd f-'"$form"' && with_real uninstall-hooks >../out) &&
		test_grep "^pre-commit: restored pre-commit.ahd-replay-prev as pre-commit\$" out &&
		snapshot $d >dir.after &&
		test_cmp dir.before dir.after
	'
done

test_expect_success 'the previous hook runs first, then the check' '
	(cd f-script && with_real install-hooks) &&
	reset_log &&
	git -C f-script commit -q --allow-empty -m x &&
	printf "prev \nahd-replay hook pre-commit\n" >want &&
	test_cmp want log/calls
'

test_expect_success 'a failing previous hook fails the hook; the check does not run' '
	reset_log &&
	test_must_fail env PREV_STATUS=3 git -C f-script commit -q --allow-empty -m no &&
	echo "prev " >want &&
	test_cmp want log/calls
'

test_expect_success 'a non-executable previous hook is skipped, as git skips it' '
	(cd f-noexec && with_real install-hooks) &&
	reset_log &&
	git -C f-noexec commit -q --allow-empty -m x &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

test_expect_success 'pre-push: the previous hook gets the arguments and byte-identical stdin' '
	new_repo pp &&
	git init -q --bare pp-remote.git &&
	git -C pp remote add up ../pp-remote.git &&
	write_prev pp/.git/hooks/pre-push &&
	(cd pp && with_real install-hooks) &&
	git -C pp tag -a -m annotated v1 &&
	git -C pp branch other &&
	reset_log &&
	git -C pp push -q up main other v1 &&
	printf "prev up ../pp-remote.git\nahd-replay hook pre-push up ../pp-remote.git\n" >want &&
	test_cmp want log/calls &&
	test_cmp log/prev-stdin log/stdin &&
	test_line_count = 3 log/stdin &&
	test_grep "^refs/tags/v1 $(git -C pp rev-parse v1) refs/tags/v1 $ZERO\$" log/stdin &&
	ls "${TMPDIR:-/tmp}" >tmp.list &&
	! grep "^ahd-replay-pre-push\." tmp.list
'

test_expect_success 'pre-push: a failing previous hook refuses the push' '
	git -C pp commit -q --allow-empty --no-verify -m more &&
	reset_log &&
	test_must_fail env PREV_STATUS=1 git -C pp push -q up main &&
	echo "prev up ../pp-remote.git" >want &&
	test_cmp want log/calls &&
	test "$(git -C pp-remote.git rev-parse main)" != "$(git -C pp rev-parse main)"
'

test_expect_success 'pre-push: the check sees the same stdin after a big previous read' '
	for i in $(seq 1 400)
	do
		git -C pp branch b$i || return 1
	done &&
	reset_log &&
	git -C pp push -q up "refs/heads/b*:refs/heads/b*" &&
	test_line_count = 400 log/stdin &&
	test_cmp log/prev-stdin log/stdin
'

test_expect_success 'the name for the previous hook is taken: refuse, nothing written' '
	new_repo taken &&
	write_prev taken/.git/hooks/pre-commit &&
	echo old >taken/.git/hooks/pre-commit.ahd-replay-prev &&
	snapshot taken/.git/hooks >before &&
	(cd taken && test_expect_code 2 with_real install-hooks >../out 2>../err) &&
	test_grep "pre-commit.ahd-replay-prev. is taken" err &&
	test_grep "nothing was written" err &&
	snapshot taken/.git/hooks >after &&
	test_cmp before after &&
	stamp taken/.git/hooks/pre-commit >hook.stamp &&
	(cd taken && with_real install-hooks --force >../out) &&
	test_grep "discarded" out &&
	stamp taken/.git/hooks/pre-commit.ahd-replay-prev >moved &&
	test_cmp hook.stamp moved
'

test_expect_success 'an edited copy of ours is refused; --force replaces it' '
	new_repo edited &&
	(cd edited && with_real install-hooks) &&
	echo "echo extra" >>edited/.git/hooks/pre-commit &&
	snapshot edited/.git/hooks >before &&
	(cd edited && test_expect_code 2 with_real install-hooks 2>../err) &&
	test_grep "edited by hand" err &&
	snapshot edited/.git/hooks >after &&
	test_cmp before after &&
	(cd edited && test_expect_code 2 with_real uninstall-hooks >../out 2>../err) &&
	test_grep "left .*pre-commit.: it carries the ahd-replay marker but was edited" err &&
	test_path_is_file edited/.git/hooks/pre-commit &&
	test_path_is_missing edited/.git/hooks/pre-push &&
	(cd edited && with_real install-hooks --force >../out) &&
	is_ours edited/.git/hooks/pre-commit pre-commit
'

test_expect_success 'a copy of ours for another binary is brought up to date in place' '
	new_repo otherbin &&
	h=otherbin/.git/hooks/pre-commit &&
	(cd otherbin && with_real install-hooks) &&
	sed "s|^ahd_replay=.*|ahd_replay='"'"'/old/place/ahd-replay'"'"'|" $h >tmp &&
	cat tmp >$h &&
	(cd otherbin && with_real install-hooks >../out) &&
	test_grep "^pre-commit: updated to run $BIN\$" out &&
	is_ours $h pre-commit &&
	test_path_is_missing $h.ahd-replay-prev
'

test_expect_success 'a hook of a newer template version is left alone' '
	new_repo newer &&
	h=newer/.git/hooks/pre-commit &&
	printf "#!/bin/sh\n# ahd-replay hook: pre-commit, template 99\nexit 0\n" >$h &&
	chmod 755 $h &&
	stamp $h >before &&
	(cd newer && with_real install-hooks >../out) &&
	test_grep "^pre-commit: left as it is: written by a newer ahd-replay (template 99)" out &&
	stamp $h >after &&
	test_cmp before after
'

test_expect_success 'a hook that is not executable is made executable again' '
	chmod -x repo/.git/hooks/pre-push &&
	(cd repo && with_real install-hooks >../out) &&
	test_grep "^pre-push: made executable again\$" out &&
	test -x repo/.git/hooks/pre-push
'

# --- other hook managers ---------------------------------------------------

# write_framework FILE TYPE: a stand-in for the pre-commit framework's
# hook: its marker line; runs TYPE.legacy beside it first (as
# hook-impl does, with the refs on stdin for pre-push), then, as a
# .pre-commit-config.yaml using contrib/.pre-commit-hooks.yaml would,
# `ahd-replay hook TYPE`.
write_framework () {
	cat >"$1" <<-EOF &&
	#!/bin/sh
	# File generated by pre-commit: https://pre-commit.com
	# ID: 138fd403232d2ddd5efb44317e38bf03
	printf "framework %s\n" "\$*" >>"\$TRASH_DIRECTORY/log/calls"
	legacy="\${0%/*}/$2.legacy"
	if test -x "\$legacy"
	then
		PRE_COMMIT_RUNNING_LEGACY=1 "\$legacy" "\$@" || exit
	fi
	test -z "\${RUN_CONTRIB:-}" || ahd-replay hook $2 "\$@"
	EOF
	chmod 755 "$1"
}

test_expect_success 'the pre-commit framework in front: moved aside, the check runs once' '
	new_repo pcf &&
	write_framework pcf/.git/hooks/pre-commit pre-commit &&
	(cd pcf && with_real install-hooks >../out) &&
	test_grep "^pre-commit: installed; the hook that was there (the pre-commit framework.s) is kept as pre-commit.ahd-replay-prev and runs first, under its own name" out &&
	reset_log &&
	git -C pcf commit -q --allow-empty -m x &&
	printf "framework \nahd-replay hook pre-commit\n" >want &&
	test_cmp want log/calls
'

test_expect_success 'the framework also running ahd-replay sees AHD_REPLAY_HOOK_ACTIVE' '
	reset_log &&
	PATH=$TRASH_DIRECTORY/bin:$PATH RUN_CONTRIB=1 git -C pcf commit -q --allow-empty -m x &&
	printf "framework \nahd-replay hook pre-commit\nahd-replay hook pre-commit\n" >want &&
	test_cmp want log/calls &&
	printf "pre-commit:%s\n\n" "$TRASH_DIRECTORY/pcf" >want &&
	test_cmp want log/active
'

test_expect_success 'ours as the framework .legacy: kept there, the check runs once' '
	new_repo pcl &&
	(cd pcl && with_real install-hooks) &&
	d=pcl/.git/hooks &&
	mv $d/pre-commit $d/pre-commit.legacy &&
	write_framework $d/pre-commit pre-commit &&
	snapshot $d >before &&
	(cd pcl && with_real install-hooks >../out) &&
	test_grep "^pre-commit: up to date (the pre-commit framework runs it as pre-commit.legacy)" out &&
	snapshot $d >after &&
	test_cmp before after &&
	reset_log &&
	git -C pcl commit -q --allow-empty -m x &&
	printf "framework \nahd-replay hook pre-commit\n" >want &&
	test_cmp want log/calls &&
	(cd pcl && ahd-replay hooks status >../out) &&
	test_grep "^pre-commit: active\$" out
'

test_expect_success 'framework over ours over a foreign hook: each runs once; uninstall restores' '
	new_repo pc3 &&
	d=pc3/.git/hooks &&
	write_prev $d/pre-commit &&
	stamp $d/pre-commit >orig &&
	(cd pc3 && with_real install-hooks) &&
	mv $d/pre-commit $d/pre-commit.legacy &&
	write_framework $d/pre-commit pre-commit &&
	(cd pc3 && with_real install-hooks >../out) &&
	test_grep "^pre-commit: up to date (the pre-commit framework" out &&
	reset_log &&
	git -C pc3 commit -q --allow-empty -m x &&
	printf "framework \nprev \nahd-replay hook pre-commit\n" >want &&
	test_cmp want log/calls &&
	(cd pc3 && with_real uninstall-hooks >../out) &&
	test_grep "restored pre-commit.ahd-replay-prev as pre-commit.legacy" out &&
	stamp $d/pre-commit.legacy >restored &&
	test_cmp orig restored &&
	test_grep "File generated by pre-commit" $d/pre-commit
'

test_expect_success 'the framework pre-push in front gets the refs too' '
	new_repo pcp &&
	git init -q --bare pcp-remote.git &&
	git -C pcp remote add origin ../pcp-remote.git &&
	cat >pcp/.git/hooks/pre-push <<-\EOF &&
	#!/bin/sh
	# File generated by pre-commit: https://pre-commit.com
	printf "framework %s\n" "$*" >>"$TRASH_DIRECTORY/log/calls"
	cat >>"$TRASH_DIRECTORY/log/prev-stdin"
	EOF
	chmod 755 pcp/.git/hooks/pre-push &&
	(cd pcp && with_real install-hooks) &&
	reset_log &&
	git -C pcp push -q origin main &&
	test_cmp log/prev-stdin log/stdin &&
	test_line_count = 1 log/stdin
'

test_expect_success 'lefthook put ours aside as .old: status says inert; install puts ours in front' '
	new_repo lh &&
	d=lh/.git/hooks &&
	(cd lh && with_real install-hooks) &&
	mv $d/pre-commit $d/pre-commit.old &&
	cat >$d/pre-commit <<-\EOF &&
	#!/bin/sh
	if [ "$LEFTHOOK" = "0" ]; then
	  exit 0
	fi
	printf "lefthook %s\n" "$*" >>"$TRASH_DIRECTORY/log/calls"
	EOF
	chmod 755 $d/pre-commit &&
	(cd lh && test_expect_code 1 ahd-replay hooks status >../out) &&
	test_grep "^pre-commit: inert: lefthook does not run pre-commit.old" out &&
	(cd lh && with_real install-hooks >../out) &&
	test_grep "^pre-commit: installed; the hook that was there (lefthook.s)" out &&
	test_path_is_missing $d/pre-commit.old &&
	reset_log &&
	git -C lh commit -q --allow-empty -m x &&
	printf "lefthook \nahd-replay hook pre-commit\n" >want &&
	test_cmp want log/calls
'

# Its hooks find the script to run by their own name, which the shim
# keeps (t3010 runs one): only the directory, which husky rewrites, needs
# --hooks-path=use.
test_expect_success 'husky: its hooks directory is refused; --hooks-path=use chains its hooks' '
	new_repo hk &&
	mkdir -p hk/.husky/_ &&
	: >hk/.husky/_/husky.sh &&
	printf "*\n" >hk/.husky/_/.gitignore &&
	printf "#!/usr/bin/env sh\n. \"\${0%%/*}/h\"\n" >hk/.husky/_/pre-commit &&
	chmod 755 hk/.husky/_/pre-commit &&
	git -C hk config core.hooksPath .husky/_ &&
	snapshot hk/.husky >before &&
	(cd hk && test_expect_code 2 with_real install-hooks 2>../err) &&
	test_grep "husky" err &&
	snapshot hk/.husky >after &&
	test_cmp before after &&
	(cd hk && with_real install-hooks --hooks-path=use >../out 2>../err) &&
	test_grep "^pre-commit: installed; the hook that was there (husky.s) is kept as pre-commit.ahd-replay-prev" out &&
	is_ours hk/.husky/_/pre-commit pre-commit
'

# --- the re-entry guard and the bypasses -----------------------------------

test_expect_success 'a previous hook that leads back to our shim: the check runs once' '
	new_repo loop &&
	d=loop/.git/hooks &&
	(cd loop && with_real install-hooks) &&
	ln -s pre-commit $d/pre-commit.ahd-replay-prev &&
	reset_log &&
	git -C loop commit -q --allow-empty -m x &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

test_expect_success 'AHD_REPLAY_SKIP=1: one line, success, no check' '
	reset_log &&
	AHD_REPLAY_SKIP=1 git -C repo commit -q --allow-empty -m skipped 2>err &&
	echo "ahd-replay: AHD_REPLAY_SKIP is set; replay check skipped" >want &&
	test_cmp want err &&
	test_must_be_empty log/calls &&
	AHD_REPLAY_SKIP=1 git -C repo push -q origin main 2>err &&
	test_cmp want err &&
	test_must_be_empty log/calls
'

test_expect_success 'AHD_REPLAY_SKIP=1 still runs the hook that was there first' '
	reset_log &&
	AHD_REPLAY_SKIP=1 git -C f-script commit -q --allow-empty -m skipped 2>err &&
	echo "prev " >want &&
	test_cmp want log/calls
'

test_expect_success 'other values of AHD_REPLAY_SKIP do not skip' '
	reset_log &&
	AHD_REPLAY_SKIP=yes git -C repo commit -q --allow-empty -m checked &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

test_lazy_prereq NO_AHD_REPLAY_IN_SYSTEM_PATH '
	! PATH=/usr/bin:/bin command -v ahd-replay
'

test_expect_success NO_AHD_REPLAY_IN_SYSTEM_PATH 'the binary missing: the hook fails closed and says what to do' '
	test_when_finished "cp fake-ahd-replay \"\$BIN\"" &&
	rm "$BIN" &&
	reset_log &&
	git_dir=$(dirname "$(command -v git)") &&
	test_must_fail env PATH="$git_dir:/usr/bin:/bin" \
		git -C repo commit -q --allow-empty -m refused 2>err &&
	test_grep "cannot run the pre-commit check: $BIN is missing and ahd-replay is not on PATH" err &&
	test_grep "to commit without the check: AHD_REPLAY_SKIP=1 git commit\$" err &&
	test_grep ! "no-verify" err &&
	test_grep "ahd-replay uninstall-hooks" err &&
	test "$(git -C repo log -1 --format=%s)" != refused &&
	(cd repo && test_expect_code 1 env PATH="$git_dir:/usr/bin:/bin" .git/hooks/pre-push origin x </dev/null 2>../err) &&
	test_grep "to push without the check: AHD_REPLAY_SKIP=1 git push\$" err &&
	test_grep ! "no-verify" err &&
	AHD_REPLAY_SKIP=1 PATH="$git_dir:/usr/bin:/bin" git -C repo commit -q --allow-empty -m bypassed &&
	git -C repo commit -q --no-verify --allow-empty -m no-verify
'

test_expect_success 'the binary moved: the hook falls back to ahd-replay on PATH' '
	test_when_finished "cp fake-ahd-replay \"\$BIN\"" &&
	mkdir -p pathbin &&
	mv "$BIN" pathbin/ahd-replay &&
	reset_log &&
	PATH=$TRASH_DIRECTORY/pathbin:$PATH git -C repo commit -q --allow-empty -m via-path &&
	echo "ahd-replay hook pre-commit" >want &&
	test_cmp want log/calls
'

# --- pre-merge-commit --------------------------------------------------------

test_expect_success '--pre-merge-commit installs it; a clean merge runs it' '
	new_repo merge &&
	(cd merge && with_real install-hooks >../out) &&
	test_path_is_missing merge/.git/hooks/pre-merge-commit &&
	(cd merge && with_real install-hooks --pre-merge-commit >../out) &&
	test_grep "^pre-merge-commit: installed\$" out &&
	is_ours merge/.git/hooks/pre-merge-commit pre-merge-commit &&
	git -C merge checkout -q -b side &&
	echo side >merge/side &&
	git -C merge add side &&
	git -C merge commit -q --no-verify -m side &&
	git -C merge checkout -q main &&
	echo main >merge/other &&
	git -C merge add other &&
	git -C merge commit -q --no-verify -m main &&
	reset_log &&
	git -C merge merge -q --no-edit side &&
	echo "ahd-replay hook pre-merge-commit" >want &&
	test_cmp want log/calls &&
	(cd merge && with_real install-hooks >../out) &&
	test_grep "^pre-merge-commit: up to date\$" out
'

# --- hooks status ------------------------------------------------------------

test_expect_success 'status: active hooks, exit 0' '
	(cd repo && with_real install-hooks) &&
	(cd repo && ahd-replay hooks status >../out) &&
	test_grep "^hooks directory: $TRASH_DIRECTORY/repo/.git/hooks\$" out &&
	test_grep "^pre-commit: active\$" out &&
	test_grep "^pre-push: active\$" out &&
	test_grep "^  runs: $BIN hook pre-push\$" out &&
	test_grep "^pre-merge-commit: not installed\$" out
'

test_expect_success 'status: a hook that is not executable is inert, exit 1' '
	test_when_finished "chmod +x repo/.git/hooks/pre-commit" &&
	chmod -x repo/.git/hooks/pre-commit &&
	(cd repo && test_expect_code 1 ahd-replay hooks status >../out) &&
	test_grep "^pre-commit: inert: not executable\$" out &&
	test_grep "^pre-push: active\$" out
'

test_expect_success 'status: shadowed by core.hooksPath, exit 1' '
	test_when_finished "git -C repo config --unset core.hooksPath" &&
	git -C repo config core.hooksPath .git/elsewhere &&
	(cd repo && test_expect_code 1 ahd-replay hooks status >../out) &&
	test_grep "^hooks directory: $TRASH_DIRECTORY/repo/.git/elsewhere\$" out &&
	test_grep "^pre-commit: inert: shadowed by core.hooksPath = .\.git/elsewhere. (local config" out &&
	test_grep "shadowed: git runs hooks from $TRASH_DIRECTORY/repo/.git/elsewhere" out
'

test_expect_success 'status: the binary gone and none on PATH is broken, exit 1' '
	test_when_finished "cp fake-ahd-replay \"\$BIN\"" &&
	rm "$BIN" &&
	# a PATH of git alone: an ahd-replay installed in /usr/bin (a
	# Debian package) must not count as "on PATH"
	mkdir -p only-git &&
	ln -sf "$(command -v git)" only-git/git &&
	(cd repo && test_expect_code 1 env PATH="$TRASH_DIRECTORY/only-git" "$AHD_REPLAY" hooks status >../out) &&
	test_grep "^pre-commit: broken: $BIN is missing" out
'

test_expect_success 'status: nothing installed, or a foreign hook: exit 0' '
	new_repo plain &&
	(cd plain && ahd-replay hooks status >../out) &&
	test_grep "^pre-commit: not installed\$" out &&
	write_prev plain/.git/hooks/pre-push &&
	(cd plain && ahd-replay hooks status >../out) &&
	test_grep "^pre-push: not installed (git runs another hook)\$" out
'

test_expect_success 'status: the previous hook is listed' '
	(cd f-script && ahd-replay hooks status >../out) &&
	test_grep "^  $TRASH_DIRECTORY/f-script/.git/hooks/pre-commit.ahd-replay-prev: .*; runs first\$" out
'

# --- uninstall-hooks ---------------------------------------------------------

test_expect_success 'uninstall removes only our hooks and leaves others' '
	new_repo un &&
	write_prev un/.git/hooks/post-commit &&
	(cd un && with_real install-hooks --pre-merge-commit) &&
	(cd un && with_real uninstall-hooks >../out) &&
	test_path_is_missing un/.git/hooks/pre-commit &&
	test_path_is_missing un/.git/hooks/pre-push &&
	test_path_is_missing un/.git/hooks/pre-merge-commit &&
	test_path_is_file un/.git/hooks/post-commit &&
	(cd un && with_real uninstall-hooks >../out) &&
	test_grep "^no ahd-replay hooks in" out
'

test_expect_success 'uninstall also removes copies that core.hooksPath shadows' '
	new_repo unsh &&
	(cd unsh && with_real install-hooks) &&
	git -C unsh config core.hooksPath .git/other &&
	(cd unsh && with_real uninstall-hooks >../out) &&
	test_path_is_missing unsh/.git/hooks/pre-commit &&
	test_path_is_missing unsh/.git/hooks/pre-push
'

test_expect_success 'uninstall: a previous hook with nowhere to go is left, exit 2' '
	new_repo strand &&
	write_prev strand/.git/hooks/pre-commit &&
	(cd strand && with_real install-hooks) &&
	write_prev strand/.git/hooks/pre-commit &&
	(cd strand && test_expect_code 2 with_real uninstall-hooks 2>../err) &&
	test_grep "left .*pre-commit.ahd-replay-prev" err &&
	test_path_is_file strand/.git/hooks/pre-commit.ahd-replay-prev
'

test_expect_success 'uninstall: our hook deleted by hand, the previous one comes back' '
	new_repo gone &&
	write_prev gone/.git/hooks/pre-commit &&
	stamp gone/.git/hooks/pre-commit >orig &&
	(cd gone && with_real install-hooks) &&
	rm gone/.git/hooks/pre-commit &&
	(cd gone && with_real uninstall-hooks) &&
	stamp gone/.git/hooks/pre-commit >restored &&
	test_cmp orig restored
'

test_done
