#!/bin/sh

test_description='shell completion: bash and zsh offer what the parser accepts

The completion scripts list no command and no option themselves: they
read `ahd-replay --list-cmds` and `ahd-replay <command> --list-opts`
(the command table and each command'"'"'s parse-options table).  These tests
drive the real scripts and compare what they offer with the usage text
that `-h` prints from the same tables.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

bash_script=$TEST_SRC_DIR/contrib/completion/bash/ahd-replay
zsh_script=$TEST_SRC_DIR/contrib/completion/zsh/_ahd-replay
bash_completion=${BASH_COMPLETION_SCRIPT:-/usr/share/bash-completion/bash_completion}

test_lazy_prereq BASH_COMPLETION '
	command -v bash >/dev/null && test -f "$bash_completion"
'
test_lazy_prereq ZSH 'command -v zsh >/dev/null'

# The binary under test, as the completion scripts run it: words[0].
bin=$TEST_BUILD_DIR/ahd-replay

# complete_bash "LINE": what bash would offer at the end of LINE, one per
# line, sorted.  Words split at blanks and at "=", as readline does.
complete_bash () {
	bash -c '
		. "$1" && . "$2" || exit 1
		line=$3 w=() cur=
		for ((i = 0; i < ${#line}; i++)); do
			c=${line:i:1}
			case $c in
			" ") [[ $cur ]] && w+=("$cur"); cur= ;;
			=) [[ $cur ]] && w+=("$cur"); w+=("="); cur= ;;
			*) cur+=$c ;;
			esac
		done
		w+=("$cur")
		COMP_WORDS=("${w[@]}") COMP_CWORD=$((${#w[@]} - 1))
		COMP_LINE=$line COMP_POINT=${#line} COMPREPLY=()
		_ahd_replay
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$bash_completion" "$bash_script" "$1" >complete.raw &&
	sed "/^$/d" complete.raw | sort
}

# help_options CMD: the options `ahd-replay CMD -h` lists, one per line
# ("--all", "--root=", "-q").
help_options () {
	ahd-replay $1 -h >help.out &&
	awk '
		/^    -/ {
			for (i = 1; i <= NF && $i ~ /^-/; i++) {
				o = $i
				sub(/,$/, "", o)
				if (sub(/\[?=.*/, "=", o) == 0 && $(i + 1) ~ /^</)
					o = o "="
				print o
			}
		}
	' help.out | sort
}

test_expect_success 'setup: files of each kind' '
	mkdir dir &&
	touch report.md report.replay.json notes.txt log.jsonl receipt.json \
		key.pem dir/inner.md
'

test_expect_success '--list-cmds is every command of --help, and help' '
	ahd-replay --help >help &&
	sed -n "/^commands:/,/^$/s/^    \([a-z-]*\) .*/\1/p" help >expect &&
	echo help >>expect &&
	ahd-replay --list-cmds >actual &&
	test_cmp expect actual
'

test_expect_success '--list-opts is honoured as the first argument only' '
	ahd-replay verify --list-opts >table &&
	test_grep "^command	verify$" table &&
	test_must_fail ahd-replay hash notes.txt --list-opts >out 2>err &&
	! grep "^command" out
'

test_expect_success BASH_COMPLETION 'bash: every command' '
	ahd-replay --list-cmds >cmds &&
	sort cmds >expect &&
	complete_bash "$bin " >actual &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'bash: every option of verify, as -h lists them' '
	help_options verify >expect &&
	test_line_count -gt 6 expect &&
	complete_bash "$bin verify -" >actual.all &&
	sed "/^--help$/d" actual.all >actual &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'bash: the options of each command, as -h lists them' '
	ahd-replay --list-cmds >cmds &&
	for cmd in $(cat cmds)
	do
		test $cmd = help && continue
		help_options $cmd >expect &&
		complete_bash "$bin $cmd -" >actual.all &&
		sed "/^--help$/d" actual.all >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success BASH_COMPLETION 'bash: verify operands are reports, sidecars and directories' '
	complete_bash "$bin verify " >actual &&
	printf "%s\n" dir report.md report.replay.json >expect &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'bash: options after an operand; after --, files only' '
	complete_bash "$bin verify dir --no-attr" >actual &&
	echo --no-attribution >expect &&
	test_cmp expect actual &&
	complete_bash "$bin replay report.md --run -- --r" >actual &&
	test_must_be_empty actual &&
	complete_bash "$bin replay report.md --run -- rep" >actual &&
	printf "%s\n" report.md report.replay.json >expect &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'bash: option values by kind' '
	ahd-replay verify -h >help.out &&
	sed -n "s/^ *--format=\([a-z|]*\).*/\1/p" help.out | tr "|" "\n" |
		sort >expect &&
	test_line_count -ge 3 expect &&
	complete_bash "$bin verify --format=" >actual &&
	test_cmp expect actual &&
	complete_bash "$bin verify --root=" >actual &&
	echo dir >expect &&
	test_cmp expect actual &&
	complete_bash "$bin sign --key=" >actual &&
	test_grep "^key.pem$" actual &&
	test_grep "^notes.txt$" actual &&
	complete_bash "$bin log verify --receipt=" >actual &&
	printf "%s\n" dir receipt.json report.replay.json >expect &&
	test_cmp expect actual
'

test_expect_success BASH_COMPLETION 'bash: subcommands and keywords' '
	complete_bash "$bin log " >actual &&
	echo verify >expect &&
	test_cmp expect actual &&
	complete_bash "$bin hooks " >actual &&
	echo status >expect &&
	test_cmp expect actual &&
	complete_bash "$bin hook " >actual &&
	printf "%s\n" pre-commit pre-merge-commit pre-push >expect &&
	test_cmp expect actual &&
	complete_bash "$bin log verify " >actual &&
	printf "%s\n" dir log.jsonl >expect &&
	test_cmp expect actual
'

# zsh: _arguments and compadd replaced by stubs that print what they are
# given; the specs must name every option of verify.
test_expect_success ZSH 'zsh: every command, and every option of verify' '
	zsh -fc "
		compadd () { print -rl -- \"\$@\" }
		words=($bin \"\") CURRENT=2 PREFIX=
		. $zsh_script
	" >zsh.cmds &&
	ahd-replay --list-cmds >expect &&
	grep -v "^--$" zsh.cmds >actual &&
	test_cmp expect actual &&
	zsh -fc "
		_arguments () { print -rl -- \"\$@\" }
		words=($bin verify \"\") CURRENT=3 PREFIX=
		. $zsh_script
	" >zsh.specs &&
	sed -n "s/^\(--*[a-z][a-z-]*=*\).*/\1/p" zsh.specs | sort >actual &&
	help_options verify >expect &&
	test_cmp expect actual &&
	test_grep "^\*:argument:_ahd_replay_complete report sidecar dir$" zsh.specs
'

test_done
