#!/bin/sh

test_description='make install: the layout, and every installed piece works

Installs the build into a DESTDIR, then runs what was installed: the
binary on the demo repository, each man page through man -l, the bash
completion (with bash-completion) and the zsh completion.  make uninstall
must then leave no file behind.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

test_lazy_prereq MAN 'command -v man >/dev/null'
test_lazy_prereq BASH_COMPLETION '
	command -v bash >/dev/null &&
	test -f /usr/share/bash-completion/bash_completion
'

# sub_make ARGS: make in the build directory, as a user runs it: not as
# a child of the make running the tests, whose MAKEFLAGS (-j, -w) would
# print "Entering directory" into the output.
sub_make () {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -s \
		--no-print-directory -C "$TEST_BUILD_DIR" "$@"
}

# make_var NAME: a variable of the build's Makefile, expanded by make.
make_var () {
	printf 'print-var:\n\t@echo $(%s)\n' "$1" >"$TRASH_DIRECTORY/var.mk" &&
	sub_make -f Makefile -f "$TRASH_DIRECTORY/var.mk" print-var
}

test_expect_success 'make install DESTDIR=... installs' '
	dest=$PWD/dest &&
	sub_make install DESTDIR="$dest" >install.out 2>&1 &&
	bindir=$(make_var bindir) && mandir=$(make_var mandir) &&
	pkgdatadir=$(make_var pkgdatadir) &&
	bashdir=$(make_var BASH_COMPLETION_DIR) &&
	zshdir=$(make_var ZSH_COMPLETION_DIR) &&
	test -n "$bindir" && test -n "$mandir" &&
	echo "$dest$bindir/ahd-replay" >bin.path
'

test_expect_success 'the layout: binary, man pages, data, hooks, completion' '
	test -x "$dest$bindir/ahd-replay" &&
	(cd "$TEST_SRC_DIR/doc" && ls *.1) >man.expect &&
	(cd "$dest$mandir/man1" && ls) >man.actual &&
	test_cmp man.expect man.actual &&
	test_path_is_file "$dest$pkgdatadir/replay.schema.json" &&
	for hook in pre-commit pre-push pre-merge-commit
	do
		test -x "$dest$pkgdatadir/hooks/$hook" || return 1
	done &&
	if test -n "$bashdir"
	then
		test_path_is_file "$dest$bashdir/ahd-replay"
	fi &&
	if test -n "$zshdir"
	then
		test_path_is_file "$dest$zshdir/_ahd-replay"
	fi
'

test_expect_success 'the installed binary verifies the demo repository' '
	installed=$(cat bin.path) &&
	"$installed" --version >version &&
	ahd-replay --version >expect &&
	test_cmp expect version &&
	AHD_REPLAY=$installed sh "$TEST_SRC_DIR/examples/make-demo-repo.sh" demo &&
	test_expect_code 1 "$installed" verify --root demo --all >out &&
	test_grep "^6 reports: 5 intact, 1 drifted, 0 errors$" out
'

test_expect_success MAN 'each installed man page renders with man -l' '
	for page in "$dest$mandir"/man1/*.1
	do
		MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$page" >page.txt \
			2>page.err &&
		test_grep "^NAME" page.txt &&
		test_must_be_empty page.err || return 1
	done
'

test_expect_success BASH_COMPLETION 'the installed bash completion offers verify options' '
	test -n "$bashdir" || { echo "configured without bash completion"; return 0; } &&
	installed=$(cat bin.path) &&
	bash -c "
		. /usr/share/bash-completion/bash_completion &&
		. \"$dest$bashdir/ahd-replay\" &&
		COMP_WORDS=(\"$installed\" verify --) COMP_CWORD=2 &&
		COMP_LINE=\"\${COMP_WORDS[*]}\" COMP_POINT=\${#COMP_LINE} &&
		_ahd_replay; printf \"%s\n\" \"\${COMPREPLY[@]}\"
	" >offered &&
	test_grep "^--all$" offered &&
	test_grep "^--root=$" offered
'

test_expect_success 'the installed zsh completion parses' '
	test -n "$zshdir" || { echo "configured without zsh completion"; return 0; } &&
	if command -v zsh >/dev/null
	then
		zsh -n "$dest$zshdir/_ahd-replay"
	fi
'

test_expect_success 'make uninstall leaves no file behind' '
	sub_make uninstall DESTDIR="$dest" >uninstall.out 2>&1 &&
	find "$dest" -type f >left &&
	test_must_be_empty left
'

test_done
