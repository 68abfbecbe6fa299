#!/bin/sh

test_description='hints: "did you mean", advice and its keys, colour

A mistyped command or option gets the closest names as a "hint:" line
on stderr.  Typed hints (advice) are said once per run and silenced by
git config ahd-replay.advice.<key> false or AHD_REPLAY_ADVICE=0; the
colour setting follows --color, ahd-replay.color, color.ui and NO_COLOR
as git does.  The advice and colour modules are driven through
t/helper/test-ui until the commands print through them.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

UI=$TEST_BUILD_DIR/t/helper/test-ui
# the person's own settings stay out of these checks
unset NO_COLOR AHD_REPLAY_ADVICE

test_lazy_prereq SCRIPT '
	script -qec true /dev/null </dev/null >/dev/null
'

test_expect_success 'a mistyped command: did you mean' '
	test_expect_code 2 ahd-replay verfy >out 2>err &&
	test_must_be_empty out &&
	test_grep "^ahd-replay: '\''verfy'\'' is not an ahd-replay command" err &&
	test_grep "^hint: did you mean '\''verify'\''?$" err &&
	test_expect_code 2 ahd-replay instal-hooks 2>err &&
	test_grep "^hint: did you mean '\''install-hooks'\''?$" err
'

test_expect_success 'a beginning names every command it starts' '
	test_expect_code 2 ahd-replay ver 2>err &&
	test_grep "^hint: did you mean '\''verify'\'' or '\''verify-replay'\''?$" err
'

test_expect_success 'nothing close: no hint' '
	test_expect_code 2 ahd-replay frob 2>err &&
	test_grep ! "^hint:" err
'

test_expect_success 'help with a mistyped command' '
	test_expect_code 2 ahd-replay help hsah >out 2>err &&
	test_must_be_empty out &&
	test_grep "^hint: did you mean '\''hash'\''?$" err
'

test_expect_success 'a mistyped global option, and a command written as one' '
	test_expect_code 2 ahd-replay --verison 2>err &&
	test_grep "^hint: did you mean '\''--version'\''?$" err &&
	test_expect_code 2 ahd-replay --verify 2>err &&
	test_grep "^hint: commands take no dashes: '\''ahd-replay verify'\''$" err
'

test_expect_success 'a mistyped option of a command: did you mean, before the usage' '
	test_expect_code 2 ahd-replay verify --formt=json 2>err &&
	test_grep "^ahd-replay: unknown option '\''--formt=json'\''$" err &&
	sed -n 2p err >line2 &&
	test_grep "^hint: did you mean '\''--format'\''?$" line2 &&
	test_expect_code 2 ahd-replay hash --jsc x 2>err &&
	test_grep "^hint: did you mean '\''--jcs'\''?$" err &&
	test_expect_code 2 ahd-replay backfill --dryrun 2>err &&
	test_grep "^hint: did you mean '\''--dry-run'\''?$" err
'

test_expect_success 'a long option with one dash' '
	test_expect_code 2 ahd-replay verify -format=json 2>err &&
	test_grep "^hint: did you mean '\''--format=json'\'' (with two dashes)?$" err &&
	test_expect_code 2 ahd-replay hash -raw x 2>err &&
	test_grep "^hint: did you mean '\''--raw'\'' (with two dashes)?$" err
'

test_expect_success 'an unknown letter in a group of short options: no guess' '
	test_expect_code 2 ahd-replay verify -qz 2>err &&
	test_grep "^ahd-replay: unknown option '\''-z'\''$" err &&
	test_grep ! "^hint:" err
'

test_expect_success 'advice: said once, then how to silence it' '
	git init -q repo &&
	(cd repo && "$UI" advise backfill "run ahd-replay backfill" >../out 2>../err) &&
	echo "ahd-replay.advice.backfill on" >expect &&
	test_cmp expect out &&
	cat >expect <<-\EOF &&
	hint: run ahd-replay backfill
	hint: Disable this message with "git config ahd-replay.advice.backfill false"
	EOF
	test_cmp expect err
'

test_expect_success 'advice: a multi-line hint has hint: on every line' '
	(cd repo && "$UI" advise explainDrift "one
two" >../out 2>../err) &&
	test_grep "^hint: one$" err &&
	test_grep "^hint: two$" err &&
	test_grep "ahd-replay.advice.explainDrift false" err
'

test_expect_success 'advice: the key silences it, in the repository or globally' '
	git -C repo config ahd-replay.advice.backfill false &&
	(cd repo && "$UI" advise backfill "x" >../out 2>../err) &&
	test_must_be_empty err &&
	test_grep "off$" out &&
	git -C repo config --unset ahd-replay.advice.backfill &&
	git config --global ahd-replay.advice.explainDrift no &&
	test_when_finished "git config --global --unset ahd-replay.advice.explainDrift" &&
	(cd repo && "$UI" advise explainDrift "x" 2>../err) &&
	test_must_be_empty err
'

test_expect_success 'advice: AHD_REPLAY_ADVICE=0 silences every hint' '
	(cd repo && AHD_REPLAY_ADVICE=0 "$UI" advise backfill "x" 2>../err) &&
	test_must_be_empty err &&
	(cd repo && AHD_REPLAY_ADVICE=1 "$UI" advise backfill "x" 2>../err) &&
	test_grep "^hint: x$" err
'

test_expect_success 'advice: an invalid key warns and keeps the hint' '
	git -C repo config ahd-replay.advice.backfill maybe &&
	test_when_finished "git -C repo config --unset ahd-replay.advice.backfill" &&
	(cd repo && "$UI" advise backfill "x" 2>../err) &&
	test_grep "warning: invalid ahd-replay.advice.backfill" err &&
	test_grep "^hint: x$" err
'

test_expect_success 'colour: never into a file or a pipe, whatever the default' '
	(cd repo && TERM=xterm "$UI" color >../out 2>../err) &&
	echo "stdout: plain, stderr: plain" >expect &&
	test_cmp expect out
'

test_expect_success 'colour: --color, --color=always, --no-color, --color=auto' '
	(cd repo && "$UI" color --color >../out) &&
	printf "stdout: color, stderr: color\033[31m\033[m\n" >expect &&
	test_cmp expect out &&
	(cd repo && "$UI" color --color=always >../out) &&
	test_cmp expect out &&
	(cd repo && "$UI" color --color --no-color >../out) &&
	echo "stdout: plain, stderr: plain" >expect &&
	test_cmp expect out &&
	(cd repo && "$UI" color --color=auto >../out) &&
	test_cmp expect out &&
	(cd repo && test_must_fail "$UI" color --color=sometimes 2>../err) &&
	test_grep "expects \"always\", \"auto\" or \"never\"" err
'

test_expect_success 'colour: color.ui, and ahd-replay.color over it' '
	git -C repo config color.ui always &&
	(cd repo && "$UI" color >../out) &&
	test_grep "^stdout: color" out &&
	git -C repo config ahd-replay.color never &&
	(cd repo && "$UI" color >../out) &&
	test_grep "^stdout: plain" out &&
	(cd repo && "$UI" color --color >../out) &&
	test_grep "^stdout: color" out &&
	git -C repo config ahd-replay.color true &&
	(cd repo && "$UI" color >../out) &&
	test_grep "^stdout: plain" out &&
	git -C repo config --unset ahd-replay.color &&
	git -C repo config --unset color.ui
'

test_expect_success 'colour: an invalid setting warns and is auto' '
	git -C repo config color.ui sometimes &&
	test_when_finished "git -C repo config --unset color.ui" &&
	(cd repo && "$UI" color >../out 2>../err) &&
	test_grep "warning: invalid color.ui '\''sometimes'\''" err &&
	test_grep "^stdout: plain" out
'

test_expect_success SCRIPT 'colour: auto on a terminal, unless TERM=dumb or NO_COLOR' '
	(cd repo && TERM=xterm script -qec "$UI color" /dev/null >../out) &&
	test_grep "^stdout: color, stderr: color" out &&
	(cd repo && TERM=dumb script -qec "$UI color" /dev/null >../out) &&
	test_grep "^stdout: plain, stderr: plain" out &&
	(cd repo && NO_COLOR=1 TERM=xterm script -qec "$UI color" /dev/null >../out) &&
	test_grep "^stdout: plain, stderr: plain" out &&
	(cd repo && NO_COLOR= TERM=xterm script -qec "$UI color" /dev/null >../out) &&
	test_grep "^stdout: color" out
'

test_expect_success SCRIPT 'colour: always wins over NO_COLOR; auto from the configuration does not' '
	(cd repo && NO_COLOR=1 "$UI" color --color=always >../out) &&
	test_grep "^stdout: color" out &&
	git -C repo config color.ui auto &&
	test_when_finished "git -C repo config --unset color.ui" &&
	(cd repo && NO_COLOR=1 TERM=xterm script -qec "$UI color" /dev/null >../out) &&
	test_grep "^stdout: plain" out
'

test_done
