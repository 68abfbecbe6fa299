#!/bin/sh

test_description='install-hooks: a chained hook runs under the name and beside the files it had

Hooks that choose what to run from $0 (a dispatcher symlinked as
pre-commit that runs pre-commit.d/*, husky'\''s _/ hooks that source a
helper beside them and run ../<name>) ran nothing when the shim ran them
as pre-commit.ahd-replay-prev, and a failing check passed.  Real git,
real commits and pushes; the check is the binary under test, on
repositories without reports, so that only the chained hooks refuse.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# Temporary files of the hooks go here, to be counted.
mkdir tmp &&
TMPDIR=$TRASH_DIRECTORY/tmp &&
export TMPDIR || exit 1

# libgit2 1.5 leaks the PCRE2 match data of regexes that do not match,
# which `hook pre-push` meets here; t3110 suppresses the same.
printf "leak:libpcre2-8.so\nleak:git_repository_set_workdir\n" \
	>"$TRASH_DIRECTORY/lsan.supp" &&
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TRASH_DIRECTORY/lsan.supp:print_suppressions=0 &&
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
export LSAN_OPTIONS ASAN_OPTIONS || exit 1

# snapshot DIR: every entry below DIR, with type, mode and content.
snapshot () {
	(
		cd "$1" &&
		find . -print | LC_ALL=C sort | while read -r f
		do
			if test -L "$f"
			then
				echo "$f link $(readlink "$f")"
			elif test -f "$f"
			then
				echo "$f file $(stat -c %a "$f") $(test_sha256 "$f")"
			else
				echo "$f dir $(stat -c %a "$f")"
			fi || exit 1
		done
	)
}

# new_repo DIR: a repository with one commit on main.
new_repo () {
	git init -q -b main "$1" &&
	echo one >"$1/file" &&
	git -C "$1" add file &&
	git -C "$1" commit -q --no-verify -m one
}

# write_check FILE: a check that logs "<name of FILE> <its $0>" and
# fails while $TRASH_DIRECTORY/fail exists.
write_check () {
	cat >"$1" <<-\EOF &&
	#!/bin/sh
	printf "%s\n" "$0" >>"$TRASH_DIRECTORY/calls"
	! test -e "$TRASH_DIRECTORY/fail"
	EOF
	chmod 755 "$1"
}

# no_runs DIR: no run directory of the shim is left beside DIR's hooks.
no_runs () {
	find "$1" -name ".ahd-replay-run.*" >runs &&
	test_must_be_empty runs
}

test_expect_success 'setup: a dispatcher symlinked as the hook, its hooks in <hook>.d' '
	new_repo disp &&
	mkdir -p disp/tools/githooks &&
	cat >disp/tools/githooks/dispatch <<-\EOF &&
	#!/bin/sh
	# runs every hook in <the hook'\''s directory>/<its name>.d
	name=$(basename "$0")
	for h in "$(dirname "$0")/$name.d"/*
	do
		test -x "$h" || continue
		"$h" "$@" || exit
	done
	EOF
	chmod 755 disp/tools/githooks/dispatch &&
	git -C disp add tools &&
	git -C disp commit -q --no-verify -m dispatcher &&
	ln -s ../../tools/githooks/dispatch disp/.git/hooks/pre-commit &&
	mkdir disp/.git/hooks/pre-commit.d &&
	write_check disp/.git/hooks/pre-commit.d/lint &&
	: >fail &&
	test_must_fail git -C disp commit -q --allow-empty -m before 2>err &&
	rm fail &&
	git -C disp commit -q --allow-empty -m before-ok &&
	test_line_count = 2 calls
'

test_expect_success 'dispatcher: after install, a failing check still refuses the commit' '
	snapshot disp/.git/hooks >before &&
	(cd disp && ahd-replay install-hooks >../out) &&
	test_grep "pre-commit: installed; the hook that was there (a symbolic link) is kept as pre-commit.ahd-replay-prev and runs first, under its own name" out &&
	rm -f calls &&
	: >fail &&
	test_must_fail git -C disp commit -q --allow-empty -m refused &&
	test "$(git -C disp log -1 --format=%s)" = before-ok &&
	test_line_count = 1 calls &&
	test_grep "/pre-commit.d/lint\$" calls &&
	rm fail &&
	git -C disp commit -q --allow-empty -m allowed &&
	test "$(git -C disp log -1 --format=%s)" = allowed &&
	test_line_count = 2 calls &&
	no_runs disp/.git
'

test_expect_success 'dispatcher: the hook sees its own name, in a directory beside the hooks' '
	head -n 1 calls >first &&
	d=$(dirname "$(cat first)") &&
	test "$(basename "$d")" = pre-commit.d &&
	run=$(dirname "$d") &&
	case $(basename "$run") in
	.ahd-replay-run.*) ;;
	*) echo "ran from $run"; false ;;
	esac &&
	test "$(cd disp/.git && pwd -P)" = "$(dirname "$run")"
'

test_expect_success 'dispatcher: uninstall restores the hooks directory byte for byte' '
	(cd disp && ahd-replay uninstall-hooks >../out) &&
	test_grep "pre-commit: restored pre-commit.ahd-replay-prev as pre-commit" out &&
	snapshot disp/.git/hooks >after &&
	test_cmp before after
'

test_expect_success 'a dispatcher that finds its hooks beside its real file (readlink -f)' '
	new_repo real &&
	mkdir -p real/tools/githooks &&
	cat >real/tools/githooks/dispatch <<-\EOF &&
	#!/bin/sh
	self=$(readlink -f "$0")
	for h in "${self%/*}/$(basename "$0").d"/*
	do
		test -x "$h" || continue
		"$h" "$@" || exit
	done
	EOF
	chmod 755 real/tools/githooks/dispatch &&
	mkdir real/tools/githooks/pre-commit.d &&
	write_check real/tools/githooks/pre-commit.d/lint &&
	ln -s ../../tools/githooks/dispatch real/.git/hooks/pre-commit &&
	(cd real && ahd-replay install-hooks >../out) &&
	rm -f calls &&
	: >fail &&
	test_must_fail git -C real commit -q --allow-empty -m refused &&
	rm fail &&
	git -C real commit -q --allow-empty -m allowed &&
	test_line_count = 2 calls &&
	no_runs real/.git
'

test_expect_success 'setup: a husky-like _/ directory (core.hooksPath)' '
	new_repo hk &&
	mkdir -p hk/.husky/_ &&
	cat >hk/.husky/_/h <<-\EOF &&
	#!/bin/sh
	n=$(basename "$0")
	s=$(dirname "$(dirname "$0")")/$n
	test -f "$s" || exit 0
	sh -e "$s" "$@"
	EOF
	printf "*\n" >hk/.husky/_/.gitignore &&
	for n in pre-commit pre-push
	do
		printf "#!/bin/sh\n. \"\${0%%/*}/h\"\n" >hk/.husky/_/$n &&
		chmod 755 hk/.husky/_/$n || return 1
	done &&
	cat >hk/.husky/pre-commit <<-\EOF &&
	# what a hook running `git add -A` would add
	git status --porcelain -uall >>"$TRASH_DIRECTORY/status-during"
	printf "%s\n" "$0" >>"$TRASH_DIRECTORY/calls"
	! test -e "$TRASH_DIRECTORY/fail"
	EOF
	write_check hk/.husky/pre-push &&
	git -C hk add .husky/pre-commit .husky/pre-push &&
	git -C hk commit -q --no-verify -m husky &&
	git -C hk config core.hooksPath .husky/_ &&
	git init -q --bare hk-remote.git &&
	git -C hk remote add origin ../hk-remote.git &&
	: >fail &&
	test_must_fail git -C hk commit -q --allow-empty -m before &&
	rm fail
'

test_expect_success 'husky-like: after install, failing checks still refuse commit and push' '
	snapshot hk/.husky >before &&
	(cd hk && ahd-replay install-hooks --hooks-path=use >../out 2>../err) &&
	test_grep "pre-commit: installed; the hook that was there (husky.s)" out &&
	test_grep "pre-push: installed; the hook that was there (husky.s)" out &&
	rm -f calls &&
	: >fail &&
	test_must_fail git -C hk commit -q --allow-empty -m refused &&
	test_line_count = 1 calls &&
	test_must_fail git -C hk push -q origin main &&
	test_must_fail git --git-dir=hk-remote.git rev-parse -q --verify main &&
	test_line_count = 2 calls &&
	rm fail &&
	git -C hk commit -q --allow-empty -m allowed &&
	git -C hk push -q origin main &&
	test "$(git --git-dir=hk-remote.git rev-parse main)" = "$(git -C hk rev-parse main)" &&
	test_line_count = 4 calls &&
	no_runs hk &&
	git -C hk status --porcelain >status &&
	test_must_be_empty status &&
	test_grep ! ahd-replay-run status-during &&
	ls -A tmp >left &&
	test_must_be_empty left
'

test_expect_success 'husky-like: uninstall restores the directory byte for byte' '
	(cd hk && ahd-replay uninstall-hooks >../out) &&
	snapshot hk/.husky >after &&
	test_cmp before after
'

test_expect_success 'a hooks directory in the work tree: its parent and it are mirrored in TMPDIR' '
	new_repo wt &&
	mkdir -p wt/.githooks/pre-commit.d &&
	cp disp/tools/githooks/dispatch wt/.githooks/pre-commit &&
	cat >wt/.githooks/pre-commit.d/lint <<-\EOF &&
	#!/bin/sh
	git status --porcelain -uall >>"$TRASH_DIRECTORY/status-wt"
	printf "%s\n" "$0" >>"$TRASH_DIRECTORY/calls"
	test -f "$(dirname "$0")/../../file" &&
	! test -e "$TRASH_DIRECTORY/fail"
	EOF
	chmod 755 wt/.githooks/pre-commit.d/lint &&
	git -C wt config core.hooksPath .githooks &&
	(cd wt && ahd-replay install-hooks >../out 2>../err) &&
	rm -f calls &&
	: >fail &&
	test_must_fail git -C wt commit -q --allow-empty -m refused &&
	rm fail &&
	git -C wt commit -q --allow-empty -m allowed &&
	test_line_count = 2 calls &&
	test_grep "/tmp/ahd-replay-run\.[^/]*/.githooks/pre-commit.d/lint\$" calls &&
	test_grep ! ahd-replay-run status-wt &&
	ls -A tmp >left &&
	test_must_be_empty left
'

test_expect_success 'upgrade from template 1: the hook kept aside now runs under its name' '
	new_repo up &&
	mkdir up/.git/hooks/pre-commit.d &&
	write_check up/.git/hooks/pre-commit.d/lint &&
	cp disp/tools/githooks/dispatch up/.git/hooks/pre-commit.ahd-replay-prev &&
	sed "s|@AHD_REPLAY@|$AHD_REPLAY|" \
		"$TEST_SRC_DIR/t/t3010/pre-commit-template-1" >up/.git/hooks/pre-commit &&
	chmod 755 up/.git/hooks/pre-commit &&
	: >fail &&
	git -C up commit -q --allow-empty -m "template 1 runs nothing" &&
	(cd up && ahd-replay install-hooks >../out) &&
	test_grep "^pre-commit: upgraded from template 1 to 2\$" out &&
	test_grep "^# ahd-replay hook: pre-commit, template 2\$" up/.git/hooks/pre-commit &&
	test_must_fail git -C up commit -q --allow-empty -m refused &&
	rm fail &&
	git -C up commit -q --allow-empty -m allowed &&
	(cd up && ahd-replay uninstall-hooks >../out) &&
	test_cmp disp/tools/githooks/dispatch up/.git/hooks/pre-commit
'

test_expect_success 'template 1 of pre-push is recognised and upgraded in place' '
	sed "s|@AHD_REPLAY@|$AHD_REPLAY|" \
		"$TEST_SRC_DIR/t/t3010/pre-push-template-1" >up/.git/hooks/pre-push &&
	chmod 755 up/.git/hooks/pre-push &&
	(cd up && ahd-replay hooks status >../out) &&
	test_grep "template 1 (install-hooks upgrades it)" out &&
	(cd up && ahd-replay install-hooks >../out) &&
	test_grep "^pre-push: upgraded from template 1 to 2\$" out
'

test_expect_success 'a run directory a killed run left is removed after a day, a fresh one kept' '
	mkdir disp/.git/.ahd-replay-run.OLD1x2 disp/.git/.ahd-replay-run.NEW1x2 &&
	ln -s /nonexistent disp/.git/.ahd-replay-run.OLD1x2/pre-commit &&
	touch -d "2 days ago" disp/.git/.ahd-replay-run.OLD1x2 &&
	(cd disp && ahd-replay install-hooks >../out) &&
	git -C disp commit -q --allow-empty -m again &&
	test_path_is_missing disp/.git/.ahd-replay-run.OLD1x2 &&
	test_path_is_dir disp/.git/.ahd-replay-run.NEW1x2 &&
	rmdir disp/.git/.ahd-replay-run.NEW1x2
'

test_expect_success 'SIGTERM while the chained hook runs: refused, the run directory removed' '
	new_repo sig &&
	cat >sig/.git/hooks/pre-commit <<-\EOF &&
	#!/bin/sh
	echo "$PPID" >"$TRASH_DIRECTORY/shim.pid"
	while ! test -e "$TRASH_DIRECTORY/go"
	do
		sleep 1
	done
	EOF
	chmod 755 sig/.git/hooks/pre-commit &&
	(cd sig && ahd-replay install-hooks >../out) &&
	sig_head=$(git -C sig rev-parse HEAD) &&
	rm -f shim.pid go &&
	{
		(
			git -C sig commit -q --allow-empty -m killed 2>sig.err
			echo $? >rc
		) &
	} &&
	i=0 &&
	while ! test -s shim.pid && test $i -lt 300
	do
		sleep 0.1 && i=$((i + 1)) || return 1
	done &&
	ls -d sig/.git/.ahd-replay-run.* >runs &&
	test_line_count = 1 runs &&
	kill -TERM "$(cat shim.pid)" &&
	: >go &&
	wait &&
	test "$(cat rc)" != 0 &&
	test "$(git -C sig rev-parse HEAD)" = "$sig_head" &&
	no_runs sig/.git
'

test_done
