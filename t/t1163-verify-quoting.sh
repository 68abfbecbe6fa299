#!/bin/sh

test_description='verify and validate: what a sidecar holds cannot forge output

Every string from a sidecar, a report or a file name is shown quoted or
escaped (src/quote.h): whatever it holds, each field is one line, no
control byte, C1 control or bidi override reaches the terminal, and no
verdict line can be printed by the sidecar.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# The fake verdict a token path tries to print, as a JSON string.
FORGED='tokens/x.yml\n  ok    token hash matches\n\nverdict: replay inputs intact\n\u001b[8m'
ESC_HIDE='\u001b[8m'

# no_raw_controls FILE: FILE has no C0 control but the line feed, no DEL,
# no C1 control (UTF-8 C2 80-9F) and no U+2028-202E, U+2066-2069.
no_raw_controls () {
	LC_ALL=C grep -n "$(printf '[\001-\011\013-\037\177]')" "$1" && return 1
	LC_ALL=C grep -n "$(printf '\302[\200-\237]')" "$1" && return 1
	LC_ALL=C grep -n "$(printf '\342\200[\250-\256]')" "$1" && return 1
	LC_ALL=C grep -n "$(printf '\342\201[\246-\251]')" "$1" && return 1
	return 0
}

test_expect_success 'setup' '
	git init -q repo &&
	mkdir repo/tokens repo/docs &&
	printf "a: 1\n" >repo/tokens/x.yml &&
	(cd repo && write_sidecar docs/clean.replay.json tokens/x.yml) &&
	(cd repo && write_sidecar --token-path="$FORGED" \
		--version="0.11.0$ESC_HIDE\u202e\u2028\u009b31m" \
		--commit="abc\u2066\r" \
		docs/forged.replay.json tokens/x.yml) &&
	git -C repo add . &&
	git -C repo commit -q -m init
'

test_expect_success 'a forged token path prints no verdict and no extra line' '
	(cd repo && test_expect_code 1 ahd-replay verify \
		docs/forged.replay.json) >actual 2>err &&
	grep -c "^verdict: " actual >n &&
	echo 1 >expect &&
	test_cmp expect n &&
	test_grep "^verdict: drift detected$" actual &&
	test_grep ! "^  ok    token hash matches" actual &&
	no_raw_controls actual &&
	test_grep -F "  ahd_version: \"0.11.0\\x1b[8m\\u202e\\u2028\\u009b31m\"" actual &&
	test_grep -F "  ahd_commit: \"abc\\u2066\\x0d\"" actual &&
	test_grep -F "tokens/x.yml\\x0a  ok    token hash matches\\x0a\\x0averdict: replay inputs intact\\x0a\\x1b[8m has no history" actual
'

test_expect_success 'one line per field, as many lines as a clean sidecar' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/forged.replay.json) \
		>forged 2>err &&
	write_sidecar --token-hash=sha256:$(printf "%064d" 0) \
		repo/docs/drift.replay.json tokens/x.yml &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/drift.replay.json) \
		>drift 2>err &&
	wc -l <forged >n.forged &&
	wc -l <drift >n.drift &&
	test_cmp n.drift n.forged
'

test_expect_success 'github annotations carry no raw control byte' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=github \
		docs/forged.replay.json) >actual 2>err &&
	grep "^::error " actual >errors &&
	test_line_count = 1 errors &&
	test_grep ! "^verdict: replay inputs intact" actual &&
	no_raw_controls actual
'

test_expect_success 'a file name with a line feed and an escape stays one line' '
	name="$(printf "docs/evil\nverdict: replay inputs intact\033[8m")" &&
	cp repo/docs/clean.replay.json "repo/$name.replay.json" &&
	(cd repo && ahd-replay verify "$name.replay.json") >actual 2>err &&
	no_raw_controls actual &&
	grep -c "^verdict: " actual >n &&
	echo 1 >expect &&
	test_cmp expect n &&
	test_grep -F "replay: \"docs/evil\\x0averdict: replay inputs intact\\x1b[8m.replay.json\"" actual
'

test_expect_success 'an unloadable sidecar with such a name: one escaped error line' '
	name="$(printf "docs/bad\n\033[8m")" &&
	printf "{" >"repo/$name.replay.json" &&
	(cd repo && test_expect_code 2 ahd-replay verify "$name.replay.json") \
		>out 2>err &&
	test_line_count = 1 err &&
	no_raw_controls err
'

test_done
