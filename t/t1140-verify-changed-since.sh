#!/bin/sh

test_description='verify --changed-since and --require-sidecar

A pull request'"'"'s view: only the reports whose sidecar, token or brief
changed since the merge base of a revision are checked, through merges
and renames, and the skipped ones are counted.  Markdown reports that
--require-sidecar names must have a sidecar.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: three reports on main, a branch, main moves on and is merged' '
	git init -q -b main repo &&
	mkdir repo/tokens repo/docs &&
	for n in a b c
	do
		printf "color:\n  accent: \"#%s%s%s\"\n" $n $n $n >repo/tokens/$n.yml &&
		echo "# report $n" >repo/docs/$n.md &&
		(cd repo && write_sidecar docs/$n.replay.json tokens/$n.yml) ||
		return 1
	done &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m base &&
	git -C repo tag base &&
	git -C repo checkout -q -b feature &&
	echo "spacing: 4" >>repo/tokens/a.yml &&
	test_tick && git -C repo commit -q -am "feature: token a" &&
	git -C repo checkout -q main &&
	echo "spacing: 8" >>repo/tokens/b.yml &&
	test_tick && git -C repo commit -q -am "main: token b" &&
	git -C repo checkout -q feature &&
	test_tick && git -C repo merge -q --no-edit main
'

test_expect_success '--all checks every report' '
	(cd repo && test_expect_code 1 ahd-replay verify --all) >actual &&
	test_grep "^3 reports: 1 intact, 2 drifted, 0 errors$" actual
'

test_expect_success '--changed-since=main: after the merge, only the branch'"'"'s change' '
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=main) >actual &&
	test_grep "^ahd verify-replay · docs/a.md$" actual &&
	test_grep ! "docs/b.md" actual &&
	mb=$(git -C repo merge-base main HEAD | cut -c1-12) &&
	test_grep "^2 reports unchanged since main (merge base $mb) not checked$" actual
'

test_expect_success '--changed-since=base: both tokens changed since' '
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=base) >actual &&
	test_grep "^2 reports: 0 intact, 2 drifted, 0 errors$" actual &&
	test_grep "^1 reports unchanged since base (merge base [0-9a-f]*) not checked$" actual
'

test_expect_success 'the merge base, not the revision: main moving on does not count' '
	git -C repo checkout -q main &&
	echo "spacing: 2" >>repo/tokens/c.yml &&
	test_tick && git -C repo commit -q -am "main: token c" &&
	git -C repo checkout -q feature &&
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=main) >actual &&
	test_grep "^ahd verify-replay · docs/a.md$" actual &&
	test_grep "^2 reports unchanged since main" actual
'

test_expect_success 'a renamed report is checked' '
	git -C repo mv docs/c.md docs/c2.md &&
	git -C repo mv docs/c.replay.json docs/c2.replay.json &&
	test_tick && git -C repo commit -q -m "rename c" &&
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=main) >actual &&
	test_grep "^ahd verify-replay · docs/c2.md$" actual &&
	test_grep "^2 reports: 1 intact, 1 drifted, 0 errors$" actual &&
	test_grep "^1 reports unchanged since main" actual
'

test_expect_success 'a renamed token (the sidecar follows it) is checked' '
	git -C repo mv tokens/b.yml tokens/b2.yml &&
	sed "s,tokens/b.yml,tokens/b2.yml," repo/docs/b.replay.json >tmp &&
	mv tmp repo/docs/b.replay.json &&
	test_tick && git -C repo commit -q -am "rename token b" &&
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=HEAD~1) >actual &&
	test_grep "^ahd verify-replay · docs/b.md$" actual &&
	test_grep "^2 reports unchanged since HEAD~1" actual
'

test_expect_success 'uncommitted changes count; nothing changed checks nothing' '
	(cd repo && ahd-replay verify --changed-since=HEAD) >actual &&
	test_grep "^0 reports: 0 intact, 0 drifted, 0 errors$" actual &&
	test_grep "^3 reports unchanged since HEAD" actual &&
	echo "# edited" >>repo/docs/c2.md &&
	(cd repo && ahd-replay verify --changed-since=HEAD) >actual &&
	test_grep "^ahd verify-replay · docs/c2.md$" actual &&
	test_grep "^2 reports unchanged since HEAD" actual &&
	git -C repo checkout -q docs/c2.md
'

test_expect_success 'a .sig file added counts as a change' '
	echo sig >repo/docs/a.replay.json.sig &&
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=HEAD docs/a.md) >actual &&
	test_grep "^ahd verify-replay · docs/a.md$" actual &&
	rm repo/docs/a.replay.json.sig
'

test_expect_success '--changed-since in json: skipped and the merge base' '
	(cd repo && ahd-replay verify --format=json --changed-since=HEAD) >out.json &&
	test_grep "\"skipped\": 3" out.json &&
	test_grep "\"changed_since\": \"HEAD\"" out.json &&
	test_grep "\"merge_base\": \"[0-9a-f]\{12\}\"" out.json
'

test_expect_success 'a revision that does not resolve is an error' '
	(cd repo && test_expect_code 2 ahd-replay verify --changed-since=no-such-rev) >actual 2>err &&
	test_grep "cannot resolve .no-such-rev. to a commit" actual
'

test_expect_success 'a symlink retargeted (of the token or of its directory) is a change' '
	git init -q links &&
	mkdir links/v1 links/v2 links/docs &&
	echo "a: 1" >links/v1/t.yml && echo "a: 2" >links/v2/t.yml &&
	ln -s v1 links/tok && ln -s v1/t.yml links/t.yml &&
	(cd links && write_sidecar docs/d.replay.json tok/t.yml &&
	 write_sidecar docs/f.replay.json t.yml) &&
	git -C links add . && test_tick && git -C links commit -q -m links &&
	(cd links && ahd-replay verify --changed-since=HEAD) >actual &&
	test_grep "^2 reports unchanged since HEAD" actual &&
	rm links/tok links/t.yml && ln -s v2 links/tok && ln -s v2/t.yml links/t.yml &&
	(cd links && test_expect_code 1 ahd-replay verify --changed-since=HEAD) >actual &&
	test_grep "^2 reports: 0 intact, 2 drifted, 0 errors$" actual &&
	test_grep "^0 reports unchanged since HEAD" actual
'

test_expect_success 'a package.json that moves the root is a change' '
	git init -q pj &&
	mkdir -p pj/tokens pj/docs/sub/tokens &&
	echo "a: 1" >pj/tokens/t.yml &&
	echo "a: 9" >pj/docs/sub/tokens/t.yml &&
	(cd pj && write_sidecar docs/sub/s.replay.json tokens/t.yml) &&
	git -C pj add . && test_tick && git -C pj commit -q -m pj &&
	(cd pj && ahd-replay verify --changed-since=HEAD) >actual &&
	test_grep "^1 reports unchanged since HEAD" actual &&
	echo "{\"name\": \"@adastracomputing/ahd\"}" >pj/docs/sub/package.json &&
	(cd pj && test_expect_code 1 ahd-replay verify --changed-since=HEAD) >actual &&
	test_grep "^0 reports unchanged since HEAD" actual &&
	test_grep "FAIL  token" actual
'

test_expect_success 'a line-ending change of the checkout is a change' '
	printf "a: 1\r\n" >links/v2/t.yml &&
	git -C links add -A && test_tick && git -C links commit -q -m crlf &&
	(cd links && ahd-replay verify --changed-since=HEAD docs/f.replay.json) >actual &&
	test_grep "^1 reports unchanged since HEAD" actual &&
	printf "a: 1\n" >links/v2/t.yml &&
	(cd links && ahd-replay verify --changed-since=HEAD docs/f.replay.json) >actual &&
	test_grep "^ahd verify-replay · docs/f.replay.json$" actual
'

test_expect_success '--require-sidecar: a report without one fails, a kind of its own' '
	echo "# orphan" >repo/docs/orphan.md &&
	echo "# readme" >repo/README.md &&
	(cd repo && test_expect_code 1 ahd-replay verify --require-sidecar="docs/*.md" docs/c2.md) >actual &&
	test_grep "^  FAIL  missing sidecar: no replay sidecar for docs/orphan.md (reports matching docs/\*.md must have one)$" actual &&
	test_grep "^2 reports: 1 intact, 0 drifted, 0 errors, 1 missing sidecars$" actual &&
	test_grep ! README actual
'

test_expect_success '--require-sidecar in json and github' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=json --require-sidecar="docs/**/*.md" docs/c2.md) >out.json &&
	test_grep "\"status\": \"missing-sidecar\"" out.json &&
	test_grep "\"missing_sidecars\": 1" out.json &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=github --require-sidecar="**/orphan.md" docs/c2.md) >out.gh &&
	test_grep "^::error file=docs/orphan.md,line=1,title=replay missing sidecar::" out.gh
'

test_expect_success '--require-sidecar from git config, several values' '
	git -C repo config --add ahd-replay.requireSidecar "nothing/*.md" &&
	git -C repo config --add ahd-replay.requireSidecar "*.md" &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/c2.md) >actual &&
	test_grep "no replay sidecar for README.md (reports matching \*.md" actual &&
	test_grep ! "orphan" actual &&
	(cd repo/docs && test_expect_code 1 ahd-replay verify c2.md) >actual &&
	test_grep "no replay sidecar for .*/repo/README.md" actual &&
	git -C repo config --unset-all ahd-replay.requireSidecar
'

test_expect_success '--require-sidecar with --changed-since: an old report without one is left out' '
	git -C repo add docs/orphan.md README.md &&
	test_tick && git -C repo commit -q -m "orphan" &&
	(cd repo && ahd-replay verify --changed-since=HEAD --require-sidecar="docs/*.md") >actual &&
	test_grep "^4 reports unchanged since HEAD" actual &&
	echo "# new" >repo/docs/new.md &&
	(cd repo && test_expect_code 1 ahd-replay verify --changed-since=HEAD --require-sidecar="docs/*.md") >actual &&
	test_grep "no replay sidecar for docs/new.md" actual &&
	rm repo/docs/new.md
'

test_expect_success 'globs: classes, ** in the middle, quoting' '
	mkdir -p repo/x/y/z &&
	for f in x/a.md x/y/b.md x/y/z/c.md "x/[q].md"
	do
		echo "# $f" >"repo/$f" || return 1
	done &&
	(cd repo && test_expect_code 1 ahd-replay verify --require-sidecar="x/**/[bc].md" docs/c2.md) >actual &&
	test_grep "for x/y/b.md" actual &&
	test_grep "for x/y/z/c.md" actual &&
	test_grep ! "for x/a.md" actual &&
	(cd repo && test_expect_code 1 ahd-replay verify --require-sidecar="x/\[q].md" docs/c2.md) >actual &&
	test_grep "for x/\[q\].md" actual &&
	test_grep "1 missing sidecars" actual
'

test_done
