#!/bin/sh

test_description='verify: a directory of the scope that cannot be searched

A sidecar in a directory verify cannot read could hide drift, so such a
directory is an error (exit 2) in every format, never a passing run;
--format=json puts the reason in its document and writes nothing to
standard error.  Root reads every directory, so the unreadable cases run
verify as an unprivileged user (setpriv), and skip, saying why, without
one or when that user cannot reach the trash directory.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

SQ="'"

# as_user CMD...: run CMD where permissions apply: as ourselves when not
# root, else as nobody through setpriv.  nobody must be able to reach
# the trash directory: a clone under a 0700 directory (mktemp -d) or a
# 0750 home is not searchable by others, and then the unreadable cases
# skip, saying why, while the rest runs as root.
as_nobody () {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
unpriv_reason=
if test "$(id -u)" != 0
then
	as_user () { "$@"; }
elif ! command -v setpriv >/dev/null 2>&1 ||
	! as_nobody true 2>/dev/null
then
	as_user () { "$@"; }
	unpriv_reason="running as root, and setpriv cannot drop to nobody"
elif ! as_nobody sh -c 'cd "$1"' - "$TRASH_DIRECTORY" 2>/dev/null
then
	as_user () { "$@"; }
	unpriv_reason="nobody cannot reach the trash directory $TRASH_DIRECTORY (a directory above it is not searchable by others, as under mktemp -d)"
else
	as_user () { as_nobody "$@"; }
fi
if test -z "$unpriv_reason"
then
	test_set_prereq UNPRIV
else
	echo "# SKIPPING the unreadable-directory cases (UNPRIV): $unpriv_reason"
fi

test_expect_success 'setup: reports in a tree readable by everyone' '
	mkdir -p scope/tokens scope/docs/a scope/docs/b &&
	echo "a: 1" >scope/tokens/t.yml &&
	(
		cd scope &&
		write_sidecar docs/a/one.replay.json tokens/t.yml &&
		write_sidecar docs/b/two.replay.json tokens/t.yml
	) &&
	chmod -R a+rX . &&
	cp "$AHD_REPLAY" ahd-replay-bin &&
	chmod 755 ahd-replay-bin &&
	as_user ./ahd-replay-bin verify --all --root scope >out 2>err &&
	test_grep "2 reports: 2 intact" out &&
	test_must_be_empty err
'

test_expect_success UNPRIV 'a directory that cannot be read: exit 2, text' '
	chmod 000 scope/docs/b &&
	test_when_finished "chmod 755 scope/docs/b" &&
	test_expect_code 2 as_user ./ahd-replay-bin verify --all \
		--root scope >out 2>err &&
	test_grep "cannot read directory ${SQ}scope/docs/b${SQ}: Permission denied" err &&
	test_grep "verdict: replay inputs intact" out
'

test_expect_success UNPRIV 'a directory that can be listed but not entered: exit 2' '
	chmod 644 scope/docs/b &&
	test_when_finished "chmod 755 scope/docs/b" &&
	test_expect_code 2 as_user ./ahd-replay-bin verify --root scope \
		scope >out 2>err &&
	test_grep "cannot look at ${SQ}scope/docs/b/two.replay.json${SQ}" err
'

test_expect_success UNPRIV 'github format: exit 2 and the reason' '
	chmod 000 scope/docs/b &&
	test_when_finished "chmod 755 scope/docs/b" &&
	test_expect_code 2 as_user ./ahd-replay-bin verify --all \
		--format=github --root scope >out 2>err &&
	test_grep "cannot read directory ${SQ}scope/docs/b${SQ}" err
'

test_expect_success UNPRIV 'json format: exit 2, the reason in the document, stderr empty' '
	chmod 000 scope/docs/b &&
	test_when_finished "chmod 755 scope/docs/b" &&
	test_expect_code 2 as_user ./ahd-replay-bin verify --all \
		--format=json --root scope >out.json 2>err &&
	test_must_be_empty err &&
	test_grep "\"exit_status\": 2" out.json &&
	test_grep "cannot read directory ${SQ}scope/docs/b${SQ}: Permission denied" out.json
'

test_expect_success UNPRIV,PYTHON3 'json format: the errors member, parsed' '
	chmod 000 scope/docs/b &&
	test_when_finished "chmod 755 scope/docs/b" &&
	test_expect_code 2 as_user ./ahd-replay-bin verify --all \
		--format=json --root scope >out.json 2>err &&
	python3 - out.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["errors"] == ["cannot read directory \x27scope/docs/b\x27: Permission denied"], d["errors"]
	assert d["summary"]["reports"] == 1 and d["exit_status"] == 2
	PY
'

test_expect_success PYTHON3 'json format: no errors is an empty list' '
	ahd-replay verify --all --format=json --root scope >ok.json 2>err &&
	test_must_be_empty err &&
	python3 -c "import json, sys; d = json.load(open(\"ok.json\")); sys.exit(d[\"errors\"] != [])"
'

test_expect_success 'a tree deeper than the search goes is an error, not a pass' '
	d=deep &&
	i=0 &&
	while test $i -lt 70
	do
		d=$d/d &&
		i=$((i + 1)) || return 1
	done &&
	mkdir -p "$d" &&
	test_expect_code 2 ahd-replay verify --root scope deep >out 2>err &&
	test_grep "more than 64 directories deep" err
'

test_expect_success 'json format: a missing scope goes in the document' '
	test_expect_code 2 ahd-replay verify --all --format=json \
		--root no-such-dir >missing.json 2>err &&
	test_must_be_empty err &&
	test_grep "cannot read ${SQ}no-such-dir${SQ}: No such file or directory" missing.json
'

test_done
