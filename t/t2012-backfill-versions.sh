#!/bin/sh

test_description='backfill: each version of an input hashed once, as its commit checks it out

Backfill keeps what it made of a token, a brief or package.json at one
commit for the next reports that pin the same version: it is known by
what the bytes a checkout writes depend on (the blob, where the path
leads, the .gitattributes of every directory on the way).  The same blob
under other attributes (eol=crlf for the brief, from the top; ident for
the token, from tokens/.gitattributes) is read again: every report gets
the hashes of the files a checkout of its own commit writes.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# report NAME DAY: a report pinning token t and brief briefs/b.md.
report () {
	mkdir -p docs/evals &&
	printf "# ahd eval · t · 2026-01-0%sT10:00:00Z\n\n" "$2" \
		>"docs/evals/$1.md" &&
	printf -- "- Brief: \`briefs/b.md\`\n- Samples per cell: **2**\n" \
		>>"docs/evals/$1.md"
}

# expect_hashes REPORT: the token's and the brief's hash in the files a
# checkout of the commit that last changed REPORT writes.
expect_hashes () {
	commit=$(git -C repo log -1 --format=%H -- "docs/evals/$1.md") &&
	rm -rf co &&
	git clone -q --no-checkout repo co &&
	git -C co checkout -q "$commit" &&
	ahd-replay hash co/tokens/t.yml >token.out &&
	ahd-replay hash --raw co/briefs/b.md >brief.out &&
	sed "s/  .*//" token.out brief.out >"expect.$1"
}

# sidecar_hashes REPORT: the token's and the brief's hash in its sidecar.
sidecar_hashes () {
	sed -n "s/^    \"hash\": \"\(.*\)\"\$/\1/p" \
		"repo/docs/evals/$1.replay.json" >"actual.$1"
}

test_expect_success 'setup: one token and one brief, their attributes changed' '
	git init -q repo &&
	(
		cd repo &&
		mkdir -p tokens briefs &&
		printf "name: t\nrev: \"\$Id\$\"\n" >tokens/t.yml &&
		printf "# Brief\n\n- one\nGoal: two\n" >briefs/b.md &&
		printf "{\"version\": \"1.0.0\"}\n" >package.json &&
		report a 1 &&
		git add -A && test_tick && git commit -q -m A &&
		printf "briefs/*.md eol=crlf\n" >.gitattributes &&
		report b 2 &&
		git add -A && test_tick && git commit -q -m B &&
		printf "t.yml ident\n" >tokens/.gitattributes &&
		report c 3 &&
		git add -A && test_tick && git commit -q -m C &&
		printf "x\n" >unrelated &&
		report d 4 &&
		git add -A && test_tick && git commit -q -m D
	) &&
	for r in a b c d
	do
		expect_hashes $r || return 1
	done &&
	! test_cmp expect.a expect.b &&
	! test_cmp expect.b expect.c &&
	test_cmp expect.c expect.d
'

test_expect_success 'each report has the hashes of its own commit' '
	(cd repo && ahd-replay backfill >../out) &&
	test_grep "scanned=4 written=4 skipped=0 failed=0" out &&
	for r in a b c d
	do
		sidecar_hashes $r &&
		test_cmp "expect.$r" "actual.$r" || return 1
	done
'

test_done
