#!/bin/sh

test_description='every reader hashes a file as a checkout writes it

The recorded hash is of the bytes a checkout writes: what the reference
hashed in the work tree of its run.  For each end-of-line and filter
setting, a brief is committed, checked out afresh, captured there, and
the sidecar committed through the pre-commit hook; then verify in the
work tree, verify --at=HEAD, verify --at in a fresh clone and the hook
must agree with the checkout: intact.  A filter= driver the tool cannot
run, or a working-tree-encoding it does not perform, is an error that
says so, never a hash.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z
export AHD_REPLAY_NOW

# setup_case NAME ATTRIBUTES [CONFIG...]: repo NAME with .gitattributes
# ATTRIBUTES, each CONFIG (key=value) set, a brief committed and then
# checked out afresh, captured, and the sidecar committed with the hook.
setup_case () {
	sc_name=$1 sc_attr=$2 &&
	shift 2 &&
	git init -q "$sc_name" &&
	for kv in "$@"
	do
		git -C "$sc_name" config "${kv%%=*}" "${kv#*=}" || return 1
	done &&
	mkdir -p "$sc_name/tokens" "$sc_name/briefs" "$sc_name/docs" &&
	printf "name: t\n" >"$sc_name/tokens/t.yml" &&
	printf "# Brief\n\nline one\nline two \$Id\$\n" >"$sc_name/briefs/b.md" &&
	printf "%s\n" "$sc_attr" >"$sc_name/.gitattributes" &&
	(cd "$sc_name" && git add . && git commit -q -m brief &&
		rm briefs/b.md && git checkout -- briefs/b.md &&
		ahd-replay install-hooks >/dev/null &&
		ahd-replay capture --kind=eval-live --token=tokens/t.yml \
			--brief=briefs/b.md --n=1 --report=docs/r.md \
			-- ahd eval 2>/dev/null ||
		ahd-replay capture --kind=eval-live --token=tokens/t.yml \
			--brief=briefs/b.md --n=1 --out=docs/r.replay.json \
			-- ahd eval) >/dev/null &&
	printf "# R\n" >"$sc_name/docs/r.md" &&
	(cd "$sc_name" && git add docs && git commit -q -m "the run")
}

# agree NAME: verify intact in the work tree, at HEAD, and in a clone.
agree () {
	(cd "$1" && ahd-replay verify docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	(cd "$1" && ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	rm -rf "$1-clone" &&
	git clone -q "$1" "$1-clone" &&
	for kv in $(git -C "$1" config --local --get-regexp "^core\.(autocrlf|eol)" | tr " " =)
	do
		git -C "$1-clone" config "${kv%%=*}" "${kv#*=}" || return 1
	done &&
	(cd "$1-clone" && rm briefs/b.md && git checkout -- briefs/b.md &&
		ahd-replay verify docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	(cd "$1-clone" && ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out
}

# differs NAME: the checkout wrote other bytes than the blob holds.
differs () {
	git -C "$1" cat-file blob HEAD:briefs/b.md >blob &&
	! cmp -s blob "$1/briefs/b.md"
}

test_expect_success 'eol=crlf' '
	setup_case crlf "*.md text eol=crlf" &&
	differs crlf &&
	agree crlf
'

test_expect_success 'eol=lf' '
	setup_case lf "*.md text eol=lf" &&
	agree lf
'

test_expect_success 'text=auto with core.eol=crlf' '
	setup_case auto "*.md text=auto" core.eol=crlf &&
	differs auto &&
	agree auto
'

test_expect_success 'core.autocrlf=true' '
	setup_case autocrlf "" core.autocrlf=true &&
	differs autocrlf &&
	agree autocrlf
'

test_expect_success 'core.autocrlf=input' '
	setup_case input "" core.autocrlf=input &&
	agree input
'

test_expect_success 'ident' '
	setup_case ident "*.md ident" &&
	differs ident &&
	agree ident
'

test_expect_success 'the hook agrees: a changed line end in the index is drift' '
	(cd crlf && printf "# Brief\n\nline one\nline 2 \$Id\$\n" >briefs/b.md &&
		git add briefs/b.md && test_must_fail git commit -q -m change) 2>err &&
	test_grep "drift" err &&
	git -C crlf reset -q --hard
'

test_expect_success '--at reads the commit'"'"'s attributes, not the work tree'"'"'s or the index'"'"'s' '
	printf "*.md text eol=lf\n" >crlf/.gitattributes &&
	(cd crlf && ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	git -C crlf add .gitattributes &&
	(cd crlf && ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	printf "*.md working-tree-encoding=UTF-16LE\n" >crlf/.gitattributes &&
	(cd crlf && ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	git -C crlf reset -q --hard
'

test_expect_success 'core.autocrlf=true, an LF file git counts unmodified: the hook agrees with verify' '
	git init -q lfwt &&
	git -C lfwt config core.autocrlf true &&
	mkdir -p lfwt/tokens lfwt/briefs lfwt/docs &&
	printf "name: t\n" >lfwt/tokens/t.yml &&
	printf "# Brief\n\nline one\n" >lfwt/briefs/b.md &&
	(cd lfwt && git add . && git commit -q -m brief &&
		ahd-replay install-hooks >/dev/null &&
		ahd-replay capture --kind=eval-live --token=tokens/t.yml \
			--brief=briefs/b.md --n=1 --out=docs/r.replay.json \
			-- ahd eval) >/dev/null &&
	printf "# Brief\n\nline one\n" >expect &&
	test_cmp expect lfwt/briefs/b.md &&
	git -C lfwt status --porcelain >st &&
	test_grep ! "briefs/b.md" st &&
	(cd lfwt && ahd-replay verify docs/r.replay.json) >out &&
	test_grep "replay inputs intact" out &&
	printf "# R\n" >lfwt/docs/r.md &&
	(cd lfwt && git add docs && git commit -q -m "the run") &&
	(cd lfwt && ahd-replay verify docs/r.md) >out &&
	test_grep "replay inputs intact" out
'

test_expect_success 'the same file changed after it was staged: the hook judges what is staged' '
	(cd lfwt && printf "# Brief\n\nline 1\n" >briefs/b.md &&
		git add briefs/b.md &&
		printf "# Brief\n\nline one\n" >briefs/b.md &&
		test_must_fail git commit -q -m change) 2>err &&
	test_grep "drift" err &&
	git -C lfwt reset -q --hard
'

test_expect_success 'a filter= driver the tool cannot run: said so, exit 2, no hash' '
	git init -q filt &&
	mkdir -p filt/tokens filt/briefs filt/docs &&
	printf "name: t\n" >filt/tokens/t.yml &&
	printf "# Brief\n" >filt/briefs/b.md &&
	printf "*.md filter=upper\n" >filt/.gitattributes &&
	git -C filt config filter.upper.smudge "tr a-z A-Z" &&
	git -C filt config filter.upper.clean cat &&
	(cd filt && git add . && git commit -q -m brief &&
		rm briefs/b.md && git checkout -- briefs/b.md &&
		ahd-replay capture --kind=eval-live --token=tokens/t.yml \
			--brief=briefs/b.md --n=1 --out=docs/r.replay.json \
			-- ahd eval && printf "# R\n" >docs/r.md &&
		git add docs && git commit -q -m run) &&
	(cd filt && ahd-replay verify docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	(cd filt && test_expect_code 2 ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "filter=upper, a driver this tool does not run" out
'

test_expect_success 'a filter= driver that is not configured: passed through, as git does' '
	git -C filt config --unset filter.upper.smudge &&
	git -C filt config --unset filter.upper.clean &&
	(cd filt && rm briefs/b.md && git checkout -- briefs/b.md &&
		ahd-replay capture --kind=eval-live --token=tokens/t.yml \
			--brief=briefs/b.md --n=1 --force \
			--out=docs/r.replay.json -- ahd eval &&
		ahd-replay verify --at=HEAD docs/r.md >/dev/null;
		git add docs && git commit -q --no-verify -m rerun &&
		ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "replay inputs intact" out
'

test_expect_success 'working-tree-encoding: said so in --at and the hook, no hash' '
	git init -q wte &&
	mkdir -p wte/tokens wte/briefs wte/docs &&
	printf "name: t\n" >wte/tokens/t.yml &&
	# "# Brief\n" in UTF-16LE
	printf "#\000 \000B\000r\000i\000e\000f\000\n\000" >wte/briefs/b.md &&
	printf "briefs/*.md working-tree-encoding=UTF-16LE\n" >wte/.gitattributes &&
	(cd wte && git add . && git commit -q -m brief &&
		rm briefs/b.md && git checkout -- briefs/b.md &&
		ahd-replay install-hooks >/dev/null &&
		ahd-replay capture --kind=eval-live --token=tokens/t.yml \
			--brief=briefs/b.md --n=1 --out=docs/r.replay.json \
			-- ahd eval && printf "# R\n" >docs/r.md &&
		git add docs) &&
	git -C wte commit -q -m run 2>err &&
	test_grep "brief briefs/b.md" err &&
	test_grep "cannot hash" err &&
	(cd wte && ahd-replay verify docs/r.md) >out &&
	test_grep "replay inputs intact" out &&
	(cd wte && test_expect_code 2 ahd-replay verify --at=HEAD docs/r.md) >out &&
	test_grep "working-tree-encoding=UTF-16LE, a re-encoding this tool does not perform" out &&
	test_grep ! "actual   sha256" out
'

test_done
