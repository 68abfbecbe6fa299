# shellcheck shell=sh
#
# test-lib.sh: the harness of the shell tests in t/.
#
# Written for this project; it mirrors the behaviour and function names of
# git's t/test-lib.sh (and sharness), not their code.  A test script reads
#
#	#!/bin/sh
#	test_description='what this script covers'
#	. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
#
#	test_expect_success 'title' '
#		ahd-replay --version >actual &&
#		test_grep "^ahd-replay " actual
#	'
#
#	test_done
#
# and prints TAP (`ok N - title`, `not ok N - title`, `1..N` at the end)
# for automake's tap-driver.sh.  Each script runs in its own trash
# directory, "$TEST_BUILD_DIR/t/trash.<script>", which is also $HOME and
# the current directory of every test; it is removed when all tests pass.
#
# Environment (exported by `make check`; guessed when a script is run by
# hand from the source tree):
#	TEST_SRC_DIR	absolute top source directory
#	TEST_BUILD_DIR	absolute top build directory
#	AHD_REPLAY	the binary under test; `ahd-replay` on PATH runs it
#	NODE		node, or empty (prereq NODE)
#	TEST_VERBOSE=1	as -v;  TEST_WRAPPER="valgrind -q ..." runs the
#			binary under that command;  TEST_SKIP="t0100.3 t0200.*"
#			skips tests by script name and number (shell patterns)
#
# Options: -v/--verbose (show each test's output), -x (trace test bodies,
# implies -v), -i/--immediate (stop at the first failure), -d/--debug (keep
# the trash directory), -h/--help.

# ---------------------------------------------------------------------
# Options and paths

test_verbose=${TEST_VERBOSE:-}
test_trace=
test_immediate=
test_debug=
for test_lib_arg_ in "$@"
do
	case $test_lib_arg_ in
	-v|--verbose)
		test_verbose=1 ;;
	-x|--trace)
		test_trace=1 test_verbose=1 ;;
	-i|--immediate)
		test_immediate=1 ;;
	-d|--debug)
		test_debug=1 ;;
	-h|--help)
		echo "usage: $0 [-v | --verbose] [-x] [-i | --immediate] [-d | --debug]"
		test -n "${test_description:-}" && printf '\n%s\n' "$test_description"
		exit 0 ;;
	*)
		echo "Bail out! unknown option '$test_lib_arg_'"
		exit 1 ;;
	esac
done
test "$test_verbose" = 0 && test_verbose=

test_lib_abspath_ () {
	(cd "$1" 2>/dev/null && pwd -P)
}

if test -z "${TEST_SRC_DIR:-}"
then
	TEST_SRC_DIR=$(test_lib_abspath_ "$(dirname "$0")/..") || {
		echo "Bail out! cannot find the source directory from '$0'"
		exit 1
	}
fi
TEST_BUILD_DIR=${TEST_BUILD_DIR:-$TEST_SRC_DIR}
AHD_REPLAY=${AHD_REPLAY:-$TEST_BUILD_DIR/ahd-replay}
case $AHD_REPLAY in
/*) ;;
*) AHD_REPLAY=$(pwd)/$AHD_REPLAY ;;
esac
if test -z "${NODE+set}"
then
	NODE=$(command -v node 2>/dev/null) || NODE=
fi
# Fixtures of a script tNNNN-foo.sh live in "$TEST_DIRECTORY/tNNNN".
TEST_DIRECTORY=$TEST_SRC_DIR/t
export TEST_SRC_DIR TEST_BUILD_DIR AHD_REPLAY NODE TEST_DIRECTORY

test_name=$(basename "$0" .sh)
TRASH_DIRECTORY=$TEST_BUILD_DIR/t/trash.$test_name

# ---------------------------------------------------------------------
# A fixed environment: no settings of the person running the tests leak in.

unset AHD_VERSION AHD_REPLAY_SKIP CDPATH GIT_DIR GIT_WORK_TREE \
	GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
	GIT_CEILING_DIRECTORIES GIT_CONFIG GIT_CONFIG_GLOBAL \
	GIT_CONFIG_SYSTEM GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT \
	GIT_NAMESPACE GIT_PREFIX GIT_EXEC_PATH GIT_TEMPLATE_DIR \
	XDG_CONFIG_HOME EMAIL LANGUAGE LC_CTYPE LC_MESSAGES
LANG=C
LC_ALL=C
TZ=UTC
PAGER='cat'
GIT_PAGER='cat'
EDITOR=:
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL='author@example.com'
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL='committer@example.com'
GIT_AUTHOR_DATE='1700000000 +0000'
GIT_COMMITTER_DATE='1700000000 +0000'
export LANG LC_ALL TZ PAGER GIT_PAGER EDITOR GIT_CONFIG_NOSYSTEM \
	GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME \
	GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE

# ---------------------------------------------------------------------
# Reporting

test_count=0
test_success=0
test_failure=0
test_fixed=0
test_broken=0
test_skipped=0
test_lib_done_=

# A "#" in a title must not read as a TAP directive ("# SKIP", "# TODO").
test_lib_title_ () {
	printf '%s\n' "$1" | sed 's/#/\\#/g'
}

test_lib_say_ () {
	printf '%s\n' "$*" >&2
}

test_lib_comment_ () {
	printf '%s\n' "$1" | sed 's/^/# /'
}

test_lib_ok_ () {
	test_success=$((test_success + 1))
	printf 'ok %d - %s\n' "$test_count" "$(test_lib_title_ "$1")"
}

test_lib_failure_ () {
	test_failure=$((test_failure + 1))
	printf 'not ok %d - %s\n' "$test_count" "$(test_lib_title_ "$1")"
	test_lib_comment_ "$2"
	if test -z "$test_verbose" && test -s "$test_lib_output_"
	then
		echo "# output (last 40 lines):"
		tail -n 40 "$test_lib_output_" | sed 's/^/# | /'
	fi
	if test -n "$test_immediate"
	then
		echo "# stopping at the first failure (--immediate);" \
			"trash directory kept: $TRASH_DIRECTORY"
		test_lib_done_=1
		exit 1
	fi
}

test_lib_known_broken_ok_ () {
	test_fixed=$((test_fixed + 1))
	printf 'ok %d - %s # TODO known breakage vanished\n' "$test_count" \
		"$(test_lib_title_ "$1")"
}

test_lib_known_broken_failure_ () {
	test_broken=$((test_broken + 1))
	printf 'not ok %d - %s # TODO known breakage\n' "$test_count" \
		"$(test_lib_title_ "$1")"
}

test_lib_skip_ () {
	test_skipped=$((test_skipped + 1))
	printf 'ok %d # skip %s (%s)\n' "$test_count" "$(test_lib_title_ "$1")" "$2"
}

# BUG 'message': the test script itself is wrong.
BUG () {
	printf 'Bail out! BUG in %s: %s\n' "$test_name" "$*"
	test_lib_done_=1
	exit 1
}

# ---------------------------------------------------------------------
# Prerequisites

test_lib_satisfied_=' '
test_lib_unsatisfied_=' '
test_lib_lazy_=' '

# test_set_prereq NAME: declare NAME satisfied.
test_set_prereq () {
	case $1 in
	''|*[!A-Za-z0-9_]*)
		BUG "invalid prerequisite name '$1'" ;;
	esac
	test_lib_satisfied_="$test_lib_satisfied_$1 "
}

# test_lazy_prereq NAME 'script': NAME is satisfied if the script succeeds;
# it is run once, on first use, in a subshell inside a scratch directory.
test_lazy_prereq () {
	case $1 in
	''|*[!A-Za-z0-9_]*)
		BUG "invalid prerequisite name '$1'" ;;
	esac
	test_lib_lazy_="$test_lib_lazy_$1 "
	eval "test_lib_lazy_script_$1=\$2"
}

test_lib_check_one_prereq_ () {
	case $test_lib_satisfied_ in
	*" $1 "*) return 0 ;;
	esac
	case $test_lib_unsatisfied_ in
	*" $1 "*) return 1 ;;
	esac
	case $test_lib_lazy_ in
	*" $1 "*) ;;
	*) return 1 ;;
	esac
	eval "test_lib_script_=\$test_lib_lazy_script_$1"
	test_lib_scratch_=$test_lib_aux_/prereq-$1
	mkdir -p "$test_lib_scratch_" || BUG "cannot create '$test_lib_scratch_'"
	# shellcheck disable=SC2154
	if (
		cd "$test_lib_scratch_" &&
		eval "$test_lib_script_"
	) >"$test_lib_aux_/prereq.out" 2>&1 </dev/null
	then
		test_lib_satisfied_="$test_lib_satisfied_$1 "
		rm -rf "$test_lib_scratch_"
		return 0
	fi
	test_lib_unsatisfied_="$test_lib_unsatisfied_$1 "
	rm -rf "$test_lib_scratch_"
	return 1
}

# test_have_prereq 'A,!B': true if A is satisfied and B is not.
test_have_prereq () {
	test_lib_missing_=
	test_lib_saved_ifs_=$IFS
	IFS=,
	# shellcheck disable=SC2048,SC2086
	set -- $*
	IFS=$test_lib_saved_ifs_
	for test_lib_p_
	do
		case $test_lib_p_ in
		!*)
			if test_lib_check_one_prereq_ "${test_lib_p_#!}"
			then
				test_lib_missing_="$test_lib_missing_${test_lib_missing_:+,}$test_lib_p_"
			fi ;;
		*)
			if ! test_lib_check_one_prereq_ "$test_lib_p_"
			then
				test_lib_missing_="$test_lib_missing_${test_lib_missing_:+,}$test_lib_p_"
			fi ;;
		esac
	done
	test -z "$test_lib_missing_"
}

test_lazy_prereq NODE '
	test -n "$NODE" && "$NODE" -e "process.exit(0)"
'
test_lazy_prereq SHA256SUM '
	echo x | sha256sum
'
# python3 with the standard modules the tests use (fractions for the
# numfmt table, json and sys to parse output, xml.etree for JUnit).
test_lazy_prereq PYTHON3 '
	python3 -c "import fractions, json, sys, xml.etree.ElementTree"
'
# groff renders the man pages whose SYNOPSIS must match -h.
test_lazy_prereq GROFF '
	groff -v
'

# ---------------------------------------------------------------------
# Running tests

test_lib_cleanup_=:

# test_when_finished 'code': run code after the current test, whether it
# passed or not; if the code fails, the test fails.
test_when_finished () {
	test -n "$test_lib_in_test_" ||
		BUG "test_when_finished outside of a test"
	test_lib_cleanup_="{ $*
	} && (exit \"\$test_lib_eval_ret_\"); test_lib_eval_ret_=\$?; $test_lib_cleanup_"
}

# The body runs in this shell (so setup can set variables for later tests)
# inside a function (so `return 1` ends it), with stdin from /dev/null.
test_lib_eval_inner_ () {
	if test -n "$test_trace"
	then
		set -x
	fi
	eval "$1"
	test_lib_eval_ret_=$?
	if test -n "$test_trace"
	then
		set +x
	fi 2>/dev/null
	return "$test_lib_eval_ret_"
}

test_lib_run_ () {
	test_lib_cleanup_=:
	test_lib_in_test_=1
	if test -n "$test_verbose"
	then
		printf '# %s %s.%d %s:\n' "$3" "$test_name" "$test_count" \
			"'$1'" >&2
		test_lib_eval_inner_ "$2" </dev/null >&2 2>&2
		test_lib_eval_ret_=$?
		eval "$test_lib_cleanup_" </dev/null >&2 2>&2
	else
		test_lib_eval_inner_ "$2" </dev/null >"$test_lib_output_" 2>&1
		test_lib_eval_ret_=$?
		eval "$test_lib_cleanup_" </dev/null >>"$test_lib_output_" 2>&1
	fi
	test_lib_in_test_=
	# A test that changed directory must not move the tests after it.
	cd "$TRASH_DIRECTORY" || BUG "cannot return to '$TRASH_DIRECTORY'"
	return "$test_lib_eval_ret_"
}

# Decide whether test number $test_count is to be skipped; sets
# test_lib_skip_reason_.
test_lib_should_skip_ () {
	test_lib_skip_reason_=
	set -f
	for test_lib_pat_ in ${TEST_SKIP:-}
	do
		# shellcheck disable=SC2254
		case $test_name.$test_count in
		$test_lib_pat_)
			test_lib_skip_reason_="TEST_SKIP"
			set +f
			return 0 ;;
		esac
	done
	set +f
	if test -n "$1" && ! test_have_prereq "$1"
	then
		test_lib_skip_reason_="missing $test_lib_missing_"
		return 0
	fi
	return 1
}

test_lib_args_ () {
	case $1 in
	2) test_lib_prereq_= ;;
	3) test_lib_prereq_=$2 ;;
	*) BUG "$3 takes [PREREQ] 'title' 'code', not $1 arguments" ;;
	esac
	test -n "$test_lib_started_" || test_lib_start_
}

# test_expect_success [PREREQ] 'title' 'code'
test_expect_success () {
	test_lib_args_ $# "$1" test_expect_success
	test $# = 3 && shift
	test_count=$((test_count + 1))
	if test_lib_should_skip_ "$test_lib_prereq_"
	then
		test_lib_skip_ "$1" "$test_lib_skip_reason_"
	elif test_lib_run_ "$1" "$2" "expecting success of"
	then
		test_lib_ok_ "$1"
	else
		test_lib_failure_ "$1" "$2"
	fi
}

# test_expect_failure [PREREQ] 'title' 'code': a known breakage.
test_expect_failure () {
	test_lib_args_ $# "$1" test_expect_failure
	test $# = 3 && shift
	test_count=$((test_count + 1))
	if test_lib_should_skip_ "$test_lib_prereq_"
	then
		test_lib_skip_ "$1" "$test_lib_skip_reason_"
	elif test_lib_run_ "$1" "$2" "checking known breakage of"
	then
		test_lib_known_broken_ok_ "$1"
	else
		test_lib_known_broken_failure_ "$1"
	fi
}

# ---------------------------------------------------------------------
# Helpers for test bodies

# test_must_fail CMD ARGS...: CMD must exit with a status from 1 to 125.
# Success fails, and so does death by a signal or a sanitizer abort
# (126 and up), or a command that was not found.
test_must_fail () {
	"$@"
	test_lib_code_=$?
	if test "$test_lib_code_" -eq 0
	then
		test_lib_say_ "test_must_fail: command succeeded: $*"
		return 1
	elif test "$test_lib_code_" -eq 127
	then
		test_lib_say_ "test_must_fail: command not found: $*"
		return 1
	elif test "$test_lib_code_" -gt 125
	then
		test_lib_say_ "test_must_fail: died of a signal or abort (status $test_lib_code_): $*"
		return 1
	fi
	return 0
}

# test_might_fail CMD ARGS...: like test_must_fail, but success is fine.
test_might_fail () {
	"$@"
	test_lib_code_=$?
	if test "$test_lib_code_" -gt 125
	then
		test_lib_say_ "test_might_fail: died of a signal or abort (status $test_lib_code_): $*"
		return 1
	fi
	return 0
}

# test_expect_code N CMD ARGS...: CMD must exit with status N.
test_expect_code () {
	test_lib_want_=$1
	shift
	"$@"
	test_lib_code_=$?
	if test "$test_lib_code_" = "$test_lib_want_"
	then
		return 0
	fi
	test_lib_say_ "test_expect_code: command exited with $test_lib_code_, we wanted $test_lib_want_: $*"
	return 1
}

# test_cmp EXPECTED ACTUAL: the files are identical (diff -u otherwise).
test_cmp () {
	test $# = 2 || BUG "test_cmp takes two files"
	test -e "$1" || { test_lib_say_ "test_cmp: '$1' does not exist"; return 1; }
	test -e "$2" || { test_lib_say_ "test_cmp: '$2' does not exist"; return 1; }
	diff -u "$1" "$2"
}

# test_grep [!] [GREP OPTIONS] PATTERN FILE: like grep, but says what it
# looked at when it fails.  With !, the pattern must not match.
test_grep () {
	test_lib_negate_=
	if test "$1" = "!"
	then
		test_lib_negate_=1
		shift
	fi
	test $# -ge 2 || BUG "test_grep takes [!] [options] pattern file"
	eval "test_lib_file_=\${$#}"
	# shellcheck disable=SC2154
	test -f "$test_lib_file_" ||
		BUG "test_grep wants a file as its last argument, not '$test_lib_file_'"
	grep "$@"
	test_lib_code_=$?
	if test -z "$test_lib_negate_"
	then
		test "$test_lib_code_" = 0 && return 0
		test_lib_say_ "error: 'grep $*' found no match in:"
	else
		test "$test_lib_code_" = 1 && return 0
		test_lib_say_ "error: '! grep $*' found a match in:"
	fi
	sed 's/^/	/' "$test_lib_file_" >&2
	return 1
}

# test_must_be_empty FILE
test_must_be_empty () {
	test -f "$1" || { test_lib_say_ "'$1' is missing"; return 1; }
	if test -s "$1"
	then
		test_lib_say_ "'$1' is not empty, it contains:"
		cat "$1" >&2
		return 1
	fi
}

# test_line_count OP N FILE: e.g. test_line_count = 3 out
test_line_count () {
	test $# = 3 || BUG "test_line_count takes OP N FILE"
	test_lib_lines_=$(wc -l <"$3") || return 1
	if ! test "$test_lib_lines_" "$1" "$2"
	then
		test_lib_say_ "test_line_count: line count for '$3' ($test_lib_lines_) is not $1 $2"
		cat "$3" >&2
		return 1
	fi
}

test_path_is_file () {
	test -f "$1" || { test_lib_say_ "file '$1' does not exist"; return 1; }
}

test_path_is_dir () {
	test -d "$1" || { test_lib_say_ "directory '$1' does not exist"; return 1; }
}

test_path_is_missing () {
	if test -e "$1" || test -L "$1"
	then
		test_lib_say_ "path '$1' exists but should not"
		return 1
	fi
}

# test_write_lines A B C: one argument per line.
test_write_lines () {
	printf '%s\n' "$@"
}

# test_sha256 FILE: the lower-case hex SHA-256 of FILE ("-": stdin).
test_sha256 () {
	if command -v sha256sum >/dev/null 2>&1
	then
		test_lib_sum_=$(cat "$1" | sha256sum) || return 1
	elif command -v shasum >/dev/null 2>&1
	then
		test_lib_sum_=$(cat "$1" | shasum -a 256) || return 1
	else
		test_lib_sum_=$(cat "$1" | openssl dgst -sha256 -r) || return 1
	fi
	printf '%s\n' "${test_lib_sum_%% *}"
}

# test_tick: advance the fixed author and committer dates by a minute.
test_tick () {
	test_lib_tick_=$((${test_lib_tick_:-1700000000} + 60))
	GIT_AUTHOR_DATE="$test_lib_tick_ +0000"
	GIT_COMMITTER_DATE="$test_lib_tick_ +0000"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# ---------------------------------------------------------------------
# Set-up and the end

test_lib_started_=
test_lib_aux_=
test_lib_in_test_=

test_lib_exit_trap_ () {
	test_lib_status_=$1
	if test -z "$test_lib_done_"
	then
		echo "Bail out! $test_name exited unexpectedly with status" \
			"$test_lib_status_ (a test body called exit?)"
		test_lib_status_=1
	fi
	if test -n "$test_lib_aux_"
	then
		rm -rf "$test_lib_aux_"
	fi
	exit "$test_lib_status_"
}

test_lib_start_ () {
	test_lib_started_=1
	trap 'test_lib_exit_trap_ $?' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'test_lib_done_=1; exit 141' PIPE
	test_lib_aux_=$(mktemp -d "${TMPDIR:-/tmp}/ahd-test.XXXXXX") || {
		echo "Bail out! cannot create a temporary directory"
		test_lib_done_=1
		exit 1
	}
	test_lib_output_=$test_lib_aux_/output

	# `ahd-replay` on PATH runs "$AHD_REPLAY" (under $TEST_WRAPPER if
	# set), for test bodies and for anything they start, such as hooks.
	mkdir "$test_lib_aux_/bin" &&
	cat >"$test_lib_aux_/bin/ahd-replay" <<-\EOF &&
	#!/bin/sh
	exec ${TEST_WRAPPER:-} "$AHD_REPLAY" "$@"
	EOF
	chmod +x "$test_lib_aux_/bin/ahd-replay" || {
		echo "Bail out! cannot create the ahd-replay wrapper"
		test_lib_done_=1
		exit 1
	}
	PATH=$test_lib_aux_/bin:$PATH
	export PATH

	rm -rf "$TRASH_DIRECTORY" &&
	mkdir -p "$TRASH_DIRECTORY" &&
	cd -P "$TRASH_DIRECTORY" || {
		echo "Bail out! cannot create the trash directory '$TRASH_DIRECTORY'"
		test_lib_done_=1
		exit 1
	}
	TRASH_DIRECTORY=$(pwd -P)
	HOME=$TRASH_DIRECTORY
	# The trash lies in the source tree, itself a repository: a git
	# command that misses its test repository (a failed cd, a trash
	# removed under a running script) must find none, not the
	# project's own.
	GIT_CEILING_DIRECTORIES=${TRASH_DIRECTORY%/*}
	export HOME TRASH_DIRECTORY GIT_CEILING_DIRECTORIES
}

# test_done: print the plan and a summary; exit 0 only if no test failed.
# With skip_all='reason' set and no test run, the whole script is skipped.
test_done () {
	test_lib_done_=1
	if test -n "${skip_all:-}" && test "$test_count" = 0
	then
		printf '1..0 # SKIP %s\n' "$skip_all"
		if test -n "$test_lib_started_"
		then
			cd "$TEST_BUILD_DIR" && rm -rf "$TRASH_DIRECTORY"
		fi
		exit 0
	fi
	if test -n "${skip_all:-}"
	then
		echo "# skip_all set after $test_count test(s) ran: $skip_all"
	fi
	test -n "$test_lib_started_" || test_lib_start_
	if test "$test_fixed" != 0
	then
		echo "# $test_fixed known breakage(s) vanished; please update the test(s)"
	fi
	if test "$test_broken" != 0
	then
		echo "# still have $test_broken known breakage(s)"
	fi
	if test "$test_skipped" != 0
	then
		echo "# skipped $test_skipped test(s)"
	fi
	echo "1..$test_count"
	if test "$test_failure" = 0
	then
		echo "# passed all $test_count test(s)"
		cd "$TEST_BUILD_DIR" || exit 1
		if test -z "$test_debug"
		then
			rm -rf "$TRASH_DIRECTORY"
		fi
		exit 0
	fi
	echo "# failed $test_failure among $test_count test(s);" \
		"trash directory kept: $TRASH_DIRECTORY"
	exit 1
}

# A script that set skip_all before sourcing us stops here.
if test -n "${skip_all:-}"
then
	test_done
fi

test_lib_start_

# under_strace ARGS...: strace ARGS..., LeakSanitizer off in what it
# traces: a sanitizer build's leak check cannot run under ptrace and
# aborts the traced program.
under_strace () {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

# lsan_ignore_libgit2_leaks: libgit2 1.5 leaks the PCRE2 match data of
# regexes that do not match (opening a repository of format version 1
# does that) and in git_repository_set_workdir(); a sanitizer build's
# LeakSanitizer is told about those two only, for the rest of the script
# (the hooks git runs inherit it).
lsan_ignore_libgit2_leaks () {
	printf 'leak:libpcre2-8.so\nleak:git_repository_set_workdir\n' \
		>"$TRASH_DIRECTORY/lsan.supp" &&
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$TRASH_DIRECTORY/lsan.supp:print_suppressions=0 &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 &&
	export LSAN_OPTIONS ASAN_OPTIONS
}
