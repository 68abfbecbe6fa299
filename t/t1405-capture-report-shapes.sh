#!/bin/sh

test_description='capture --report: blocks and headings as CommonMark sees them

The replay block goes after the first heading a renderer shows: a "# "
line inside an HTML block (a comment) is not one.  Every byte of the
report outside the block is kept, in the report'\''s own line breaks
(LF, CRLF or a lone CR), and verify then finds the block it wrote
unchanged.  A block indented one to three spaces is still a top-level
fence: it is recognised, never followed by a second block.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z
export AHD_REPLAY_NOW

capture_into () {
	(cd proj && ahd-replay capture --kind=critique --token=tokens/t.yml \
		--n=1 --force --report="$1" -- ahd critique)
}

test_expect_success 'setup' '
	git init -q proj &&
	mkdir -p proj/tokens proj/docs &&
	printf "name: t\n" >proj/tokens/t.yml &&
	(cd proj && git add . && git commit -q -m init)
'

test_expect_success 'a CRLF report: the block in CRLF, and verify finds it unchanged' '
	printf "# Report\r\n\r\nText.\r\n" >proj/docs/crlf.md &&
	capture_into docs/crlf.md &&
	(cd proj && ahd-replay verify docs/crlf.md) >out 2>err &&
	test_grep "replay inputs intact" out &&
	! grep "differs" out err &&
	tr -d "\r" <proj/docs/crlf.md >lf &&
	test $(grep -c "" lf) = $(tr -cd "\r" <proj/docs/crlf.md | wc -c) &&
	head -c 20 proj/docs/crlf.md | od -c >head &&
	test_grep "#       R   e   p   o   r   t  \\\\r  \\\\n  \\\\r  \\\\n" head
'

test_expect_success 'a heading inside an HTML comment is not the heading' '
	printf "<!--\n# Not shown\n-->\n\n# Shown\n\nText.\n" >proj/docs/html.md &&
	capture_into docs/html.md &&
	sed -n "1,5p" proj/docs/html.md >first &&
	printf "<!--\n# Not shown\n-->\n\n# Shown\n" >expect &&
	test_cmp expect first &&
	sed -n "7p" proj/docs/html.md >line7 &&
	echo "\`\`\`yaml ahd-replay" >expect &&
	test_cmp expect line7
'

test_expect_success 'a lone-CR report stays one: no LF added' '
	printf "# Report\r\rText.\r" >proj/docs/cr.md &&
	capture_into docs/cr.md &&
	test $(tr -cd "\n" <proj/docs/cr.md | wc -c) = 0 &&
	tr "\r" "\n" <proj/docs/cr.md >as-lf &&
	test_grep "^\`\`\`yaml ahd-replay$" as-lf &&
	test_grep "^Text.$" as-lf
'

test_expect_success 'the author bytes after the heading are kept' '
	printf "# Report\n\n\n\nText.\n" >proj/docs/blank.md &&
	capture_into docs/blank.md &&
	sed -n "/^Replay this run:/,\$p" proj/docs/blank.md >tail &&
	tail -n 4 tail >end &&
	printf "\`\`\`\n\n\nText.\n" >expect &&
	head -n 2 proj/docs/blank.md >start &&
	printf "# Report\n\n" >expect2 &&
	test_cmp expect2 start &&
	test_cmp expect end
'

test_expect_success 'a block indented two spaces is ours: replaced, not doubled' '
	printf "# Report\n\nText.\n" >proj/docs/ind.md &&
	capture_into docs/ind.md &&
	sed "s/^\`\`\`/  \`\`\`/" proj/docs/ind.md >proj/docs/ind2.md &&
	mv proj/docs/ind2.md proj/docs/ind.md &&
	rm -f proj/docs/ind.replay.json &&
	capture_into docs/ind.md 2>err || test $? = 2 &&
	test $(grep -c "yaml ahd-replay" proj/docs/ind.md) = 1
'

test_done
