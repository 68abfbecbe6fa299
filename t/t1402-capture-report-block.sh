#!/bin/sh

test_description='capture --report: only a replay block that is exactly ours is replaced

The block capture puts in a report is replaced on the next capture only
when it is, at the top level of the markdown, exactly what capture
writes: the ```yaml ahd-replay block, "Replay this run:" and its ```sh
block.  A yaml ahd-replay block followed by anything else, or two
blocks, is refused with the report unchanged; a block inside another
fenced block (an example) is the author'\''s text; fences nest as
CommonMark says.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

BT='```'
SQ="'"
AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z
export AHD_REPLAY_NOW

# capture_into REPORT: capture a critique run with REPORT as --report.
capture_into () {
	(cd proj && ahd-replay capture --kind=critique --token=tokens/t.yml \
		--n=1 --force --report="$1" -- ahd critique)
}

# block_of REPORT: the block capture rendered for REPORT, and a newline.
block_of () {
	ahd-replay render "proj/$1" && echo
}

test_expect_success 'setup' '
	git init -q proj &&
	mkdir -p proj/tokens proj/docs &&
	printf "name: t\n" >proj/tokens/t.yml &&
	(cd proj && git add . && git commit -q -m init)
'

test_expect_success 'a yaml block not followed by its command block: refused, nothing changed' '
	cat >proj/docs/a.md <<-EOF &&
	# Report

	${BT}yaml ahd-replay
	schema_version: 1
	${BT}

	## How to reproduce

	Our own words, and a table:

	| a | b |
	|---|---|

	${BT}sh
	make reproduce
	${BT}

	The end.
	EOF
	cp proj/docs/a.md a.orig &&
	test_expect_code 2 capture_into docs/a.md 2>err &&
	test_grep "yaml ahd-replay block at line 3 is not followed" err &&
	test_cmp a.orig proj/docs/a.md &&
	test_path_is_missing proj/docs/a.replay.json
'

test_expect_success 'an example inside a longer fence is kept; the block goes under the title' '
	cat >proj/docs/b.md <<-EOF &&
	# Report

	How a report looks:

	${BT}\`markdown
	${BT}yaml ahd-replay
	schema_version: 1
	${BT}

	Replay this run:

	${BT}sh
	ahd eval
	${BT}
	${BT}\`

	Tail.
	EOF
	cp proj/docs/b.md b.orig &&
	capture_into docs/b.md &&
	{ printf "# Report\n\n" && block_of docs/b.md && echo &&
	  sed 1,2d b.orig; } >expect &&
	test_cmp expect proj/docs/b.md &&
	capture_into docs/b.md &&
	test_cmp expect proj/docs/b.md
'

test_expect_success 'examples in tilde fences and indented longer fences' '
	cat >proj/docs/c.md <<-EOF &&
	# Report

	~~~
	${BT}yaml ahd-replay
	~~~

	  ${BT}\`
	${BT}yaml ahd-replay
	${BT}
	  ${BT}\`\`
	EOF
	cp proj/docs/c.md c.orig &&
	capture_into docs/c.md &&
	{ printf "# Report\n\n" && block_of docs/c.md && echo &&
	  sed 1,2d c.orig; } >expect &&
	test_cmp expect proj/docs/c.md
'

test_expect_success 'a fence closed by a longer run: what follows is outside it' '
	printf "# R\n\n${BT}text\n${BT}\`\n${BT}yaml ahd-replay\n${BT}\n" \
		>proj/docs/i.md &&
	cp proj/docs/i.md i.orig &&
	test_expect_code 2 capture_into docs/i.md 2>err &&
	test_grep "block at line 5 is not followed" err &&
	test_cmp i.orig proj/docs/i.md
'

test_expect_success 'a fence left open hides what follows it' '
	printf "# R\n\n${BT}\`\n${BT}yaml ahd-replay\nx\n" >proj/docs/d.md &&
	cp proj/docs/d.md d.orig &&
	capture_into docs/d.md &&
	{ printf "# R\n\n" && block_of docs/d.md && echo &&
	  sed 1,2d d.orig; } >expect &&
	test_cmp expect proj/docs/d.md
'

test_expect_success 'our own block is replaced, the text around it kept' '
	printf "# R\n\nBefore.\n" >proj/docs/e.md &&
	capture_into docs/e.md &&
	printf "\nAfter.\n" >>proj/docs/e.md &&
	cp proj/docs/e.md e.first &&
	(cd proj && ahd-replay capture --kind=critique --token=tokens/t.yml \
		--n=7 --force --report=docs/e.md -- ahd critique) &&
	sed "s/^  n: 1$/  n: 7/" e.first >expect &&
	test_cmp expect proj/docs/e.md
'

test_expect_success 'a report with two of our blocks: refused' '
	{ cat proj/docs/e.md && printf "\n" && block_of docs/e.md; } >proj/docs/f.md &&
	cp proj/docs/f.md f.orig &&
	test_expect_code 2 capture_into docs/f.md 2>err &&
	test_grep "two replay blocks, at lines 3 and " err &&
	test_cmp f.orig proj/docs/f.md
'

test_expect_success 'a block changed by hand (an edited closing fence): refused' '
	sed "s/^Replay this run:$/Replay this run, please:/" proj/docs/e.md \
		>proj/docs/g.md &&
	cp proj/docs/g.md g.orig &&
	test_expect_code 2 capture_into docs/g.md 2>err &&
	test_cmp g.orig proj/docs/g.md
'

test_expect_success 'CRLF: our block is found and written with CRLF' '
	sed "s/\$/\r/" proj/docs/e.md >proj/docs/h.md &&
	cp proj/docs/h.md h.first &&
	(cd proj && ahd-replay capture --kind=critique --token=tokens/t.yml \
		--n=9 --force --report=docs/h.md -- ahd critique) &&
	sed "s/^  n: 7\r$/  n: 9\r/" h.first >expect &&
	test_cmp expect proj/docs/h.md &&
	(cd proj && ahd-replay verify docs/h.md >../out 2>../err) &&
	test_grep ! "differs" err
'

test_expect_success 'a symlinked report: its target is rewritten, mode kept; a hard link: refused' '
	cp proj/docs/e.md proj/docs/real.md &&
	chmod 640 proj/docs/real.md &&
	ln -s real.md proj/docs/link.md &&
	capture_into docs/link.md &&
	test -h proj/docs/link.md &&
	test "$(ls -l proj/docs/real.md | cut -c1-10)" = "-rw-r-----" &&
	ln proj/docs/e.md proj/docs/hard.md &&
	cp proj/docs/e.md hard.orig &&
	test_expect_code 2 capture_into docs/hard.md 2>err &&
	test_grep "hard links" err &&
	test_cmp hard.orig proj/docs/e.md
'

test_expect_success 'an argument holding a line break and a fence is replaced whole' '
	printf "# Q\n\nText.\n" >proj/docs/q.md &&
	(cd proj && ahd-replay capture --kind=critique --token=tokens/t.yml \
		--n=1 --force --report=docs/q.md -- "$(printf "a${SQ}\n${BT}\nb")" c) &&
	capture_into docs/q.md &&
	{ printf "# Q\n\n" && block_of docs/q.md && printf "\nText.\n"; } >expect &&
	test_cmp expect proj/docs/q.md
'

test_expect_success 'capture --force over a symlinked sidecar rewrites its target' '
	printf "# S\n" >proj/docs/s.md &&
	echo "{}" >proj/docs/kept.json &&
	ln -s kept.json proj/docs/s.replay.json &&
	capture_into docs/s.md &&
	test -h proj/docs/s.replay.json &&
	test_grep "\"kind\": \"critique\"" proj/docs/kept.json
'

test_done
