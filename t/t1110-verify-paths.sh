#!/bin/sh

test_description='verify: recorded paths (re-rooting, containment) and bad sidecars

SPEC sections 5 and 7: absolute paths recorded on CI runners are re-rooted
to the suffix that exists under the root; paths that leave the root, by
"..", by an absolute path or through a symlink, are refused unless
--allow-outside-root; and every unusable sidecar gets a one-line error and
exit status 2.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# token_hash FILE: the structured hash `ahd-replay hash` prints.
token_hash () {
	th_=$(ahd-replay hash "$1") &&
	printf '%s\n' "${th_%% *}"
}

# verify_fails CODE PHRASE SIDECAR [OPTIONS...]: verify (in repo) exits
# with CODE, its text output shows one FAIL line containing PHRASE,
# nothing on stderr, and "verdict: could not verify" (CODE 2) or "verdict:
# drift detected" (CODE 1).
verify_fails () {
	vf_code_=$1 vf_phrase_=$2 vf_sidecar_=$3
	shift 3
	(cd repo && test_expect_code "$vf_code_" ahd-replay verify "$@" \
		"$vf_sidecar_") >actual 2>err &&
	test_must_be_empty err &&
	grep "^  FAIL  " actual >fails &&
	test_line_count '=' 1 fails &&
	test_grep -F -e "$vf_phrase_" fails &&
	if test "$vf_code_" = 2
	then
		test_grep "^verdict: could not verify$" actual
	else
		test_grep "^verdict: drift detected$" actual
	fi
}

# sidecar_fails PHRASE OPERAND [SIDECAR]: verify (in repo) refuses the
# sidecar of OPERAND (default: OPERAND itself): exit 2, nothing on stdout,
# one line on stderr naming the sidecar and containing PHRASE.
sidecar_fails () {
	# the one error line; t0050 checks the backfill hint a missing one adds
	(cd repo && AHD_REPLAY_ADVICE=0 test_expect_code 2 ahd-replay verify "$2") >out 2>err &&
	test_must_be_empty out &&
	test_line_count '=' 1 err &&
	test_grep -F "ahd-replay: ${3:-$2}: " err &&
	test_grep -F -e "$1" err
}

# The secret outside the root: not valid YAML, so that an implementation
# that read it would be tempted to quote it in a parse error.
SECRET=TOP-SECRET-0f1e2d

test_expect_success 'setup: a repository, and files outside it' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs/evals outside &&
	printf "name: x\nsize: 12\n" >repo/tokens/x.yml &&
	printf "# Brief\n\nA page.\n" >repo/briefs/b.md &&
	printf "password: [%s\n" "$SECRET" >secret.yml &&
	printf "name: outside\n" >outside/o.yml &&
	x_hash=$(token_hash repo/tokens/x.yml) &&
	b_hash=$(file_sha256 repo/briefs/b.md) &&
	o_hash=$(token_hash outside/o.yml) &&
	(
		cd repo &&
		write_sidecar docs/evals/plain.replay.json tokens/x.yml briefs/b.md &&
		git add . && git commit -q -m initial
	) &&
	(cd repo && ahd-replay verify docs/evals/plain.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

# Re-rooting of absolute paths recorded on CI (SPEC section 5)

test_expect_success 'a CI path is re-rooted to the suffix that exists, with a note' '
	(
		cd repo &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/x.yml \
			docs/evals/ci.replay.json tokens/x.yml briefs/b.md
	) &&
	cat >expect <<-EOF &&
	ahd verify-replay · docs/evals/ci.replay.json
	replay: docs/evals/ci.replay.json
	  kind: eval-live
	  ahd_version: 0.11.0
	  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db
	  invoked_at: 2026-08-03T09:57:42.291Z

	  ok    token hash matches
	  ok    brief hash matches

	  note: token path re-rooted: /home/runner/work/ahd/ahd/tokens/x.yml -> tokens/x.yml

	verdict: replay inputs intact
	EOF
	(cd repo && ahd-replay verify docs/evals/ci.replay.json) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'token and brief both re-rooted: a note each' '
	(
		cd repo &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/x.yml \
			--brief-path=/Users/someone/src/ahd/briefs/b.md \
			docs/evals/ci2.replay.json tokens/x.yml briefs/b.md
	) &&
	(cd repo && ahd-replay verify docs/evals/ci2.replay.json) >actual &&
	test_grep "^  note: token path re-rooted: /home/runner/work/ahd/ahd/tokens/x\.yml -> tokens/x\.yml$" actual &&
	test_grep "^  note: brief path re-rooted: /Users/someone/src/ahd/briefs/b\.md -> briefs/b\.md$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a re-rooted token that drifted: FAIL, the note, exit 1' '
	(
		cd repo &&
		write_sidecar --token-hash=$o_hash \
			--token-path=/home/runner/work/ahd/ahd/tokens/x.yml \
			docs/evals/ci-drift.replay.json tokens/x.yml briefs/b.md
	) &&
	verify_fails 1 "token: token contents have changed since the run; re-hash differs" \
		docs/evals/ci-drift.replay.json &&
	test_grep "^  note: token path re-rooted: .* -> tokens/x\.yml$" actual
'

test_expect_success 'a CI path with no suffix under the root: not found, exit 1' '
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash \
			--token-path=/home/runner/work/ahd/ahd/tokens/gone.yml \
			docs/evals/ci-gone.replay.json tokens/x.yml briefs/b.md
	) &&
	verify_fails 1 "token: token file not found at /home/runner/work/ahd/ahd/tokens/gone.yml" \
		docs/evals/ci-gone.replay.json &&
	test_grep ! "re-rooted" actual
'

test_expect_success 'an absolute path inside the root is used as it is' '
	(
		cd repo &&
		write_sidecar --token-path="$TRASH_DIRECTORY/repo/tokens/x.yml" \
			docs/evals/abs.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay verify docs/evals/abs.replay.json
	) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep ! "note:" actual
'

test_expect_success 'ambiguous suffixes: exit 2, naming both candidates' '
	mkdir -p repo/ahd/tokens &&
	cp repo/tokens/x.yml repo/ahd/tokens/x.yml &&
	test_when_finished "rm -rf repo/ahd" &&
	verify_fails 2 "several files under the root match the recorded path" \
		docs/evals/ci.replay.json &&
	test_grep -F "/home/runner/work/ahd/ahd/tokens/x.yml" fails &&
	test_grep -F "ahd/tokens/x.yml, tokens/x.yml" fails &&
	test_grep ! "re-rooted" actual
'

test_expect_success 'a suffix that is a symlink out of the root is not a candidate' '
	mkdir -p repo/evil &&
	ln -s "$TRASH_DIRECTORY/outside/o.yml" repo/evil/o.yml &&
	test_when_finished "rm -rf repo/evil" &&
	(
		cd repo &&
		write_sidecar --token-hash=$o_hash \
			--token-path=/home/runner/work/ahd/ahd/evil/o.yml \
			docs/evals/ci-evil.replay.json tokens/x.yml
	) &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/ci-evil.replay.json) \
		>actual &&
	test_grep ! "re-rooted" actual &&
	test_grep "^  FAIL  token: token file not found at /home/runner/work/ahd/ahd/evil/o\.yml$" actual
'

# Containment: every refusal names the path, exits 2, never shows content.

test_expect_success 'a hostile sidecar pointing at an absolute path outside the root never reads it' '
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash \
			--token-path="$TRASH_DIRECTORY/secret.yml" \
			docs/evals/hostile.replay.json tokens/x.yml
	) &&
	(cd repo && test_must_fail ahd-replay verify docs/evals/hostile.replay.json) \
		>actual 2>err &&
	test_grep ! "$SECRET" actual &&
	test_grep ! "$SECRET" err &&
	test_grep "^  FAIL  token: " actual &&
	test_grep "^        actual   <none>$" actual
'

# The file exists, outside the root: this is a containment refusal (exit
# 2, "outside the root"), not a missing input ("token file not found",
# exit 1, is for a CI path that names nothing).
test_expect_success 'a hostile sidecar pointing at a file outside the root: refused, exit 2' '
	verify_fails 2 "outside the root" docs/evals/hostile.replay.json &&
	test_grep ! "$SECRET" actual
'

test_lazy_prereq ETC_PASSWD '
	test -r /etc/passwd && test -s /etc/passwd
'

test_expect_success ETC_PASSWD 'a sidecar pointing at /etc/passwd: its content never appears' '
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=/etc/passwd \
			docs/evals/passwd.replay.json tokens/x.yml
	) &&
	head -n 1 /etc/passwd >first &&
	(cd repo && test_must_fail ahd-replay verify docs/evals/passwd.replay.json) \
		>actual 2>err &&
	test_grep ! -F -f first actual &&
	test_grep ! -F -f first err &&
	(cd repo && test_must_fail ahd-replay verify --format=json docs/evals/passwd.replay.json) \
		>actual 2>err &&
	test_grep ! -F -f first actual &&
	test_grep ! -F -f first err
'

test_expect_success ETC_PASSWD 'a sidecar pointing at /etc/passwd: refused as outside the root, exit 2' '
	verify_fails 2 "outside the root" docs/evals/passwd.replay.json
'

test_expect_success 'a ../ escape: refused, exit 2' '
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=../secret.yml \
			docs/evals/dotdot.replay.json tokens/x.yml
	) &&
	verify_fails 2 "token: token path ../secret.yml is outside the root $TRASH_DIRECTORY/repo (the path leaves the root; --allow-outside-root to allow)" \
		docs/evals/dotdot.replay.json &&
	test_grep ! "$SECRET" actual
'

test_expect_success 'a ../ escape through a subdirectory: refused, exit 2' '
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash \
			--token-path=tokens/../../secret.yml \
			docs/evals/dotdot2.replay.json tokens/x.yml
	) &&
	verify_fails 2 "is outside the root" docs/evals/dotdot2.replay.json &&
	test_grep ! "$SECRET" actual
'

test_expect_success 'a ../ that leaves and comes back in through the root name resolves inside' '
	(
		cd repo &&
		write_sidecar --token-path=../repo/tokens/x.yml \
			docs/evals/dotdot3.replay.json tokens/x.yml &&
		ahd-replay verify docs/evals/dotdot3.replay.json
	) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a ../ that stays inside the root is fine' '
	(
		cd repo &&
		write_sidecar --token-path=docs/../tokens/./x.yml \
			docs/evals/inside.replay.json tokens/x.yml &&
		ahd-replay verify docs/evals/inside.replay.json
	) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a symlink inside the root pointing out of it: refused, exit 2' '
	ln -s ../../secret.yml repo/tokens/link-out.yml &&
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=tokens/link-out.yml \
			docs/evals/link-out.replay.json tokens/x.yml
	) &&
	verify_fails 2 "token: token path tokens/link-out.yml is outside the root $TRASH_DIRECTORY/repo (a symlink leads out of the root; --allow-outside-root to allow)" \
		docs/evals/link-out.replay.json &&
	test_grep ! "$SECRET" actual
'

test_expect_success 'an absolute symlink out of the root: refused, exit 2' '
	ln -s "$TRASH_DIRECTORY/outside/o.yml" repo/tokens/link-abs.yml &&
	(
		cd repo &&
		write_sidecar --token-hash=$o_hash --token-path=tokens/link-abs.yml \
			docs/evals/link-abs.replay.json tokens/x.yml
	) &&
	verify_fails 2 "a symlink leads out of the root" docs/evals/link-abs.replay.json
'

test_expect_success 'a symlinked directory leading out of the root: refused, exit 2' '
	ln -s ../outside repo/ext &&
	(
		cd repo &&
		write_sidecar --token-hash=$o_hash --token-path=ext/o.yml \
			docs/evals/link-dir.replay.json tokens/x.yml
	) &&
	verify_fails 2 "a symlink leads out of the root" docs/evals/link-dir.replay.json
'

test_expect_success 'a brief symlinked out of the root: refused, exit 2' '
	(
		cd repo &&
		write_sidecar --brief-hash=$b_hash --brief-path=tokens/link-out.yml \
			docs/evals/link-brief.replay.json tokens/x.yml briefs/b.md
	) &&
	verify_fails 2 "brief: brief path tokens/link-out.yml is outside the root" \
		docs/evals/link-brief.replay.json &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep ! "$SECRET" actual
'

test_expect_success 'a symlink inside the root to a file inside it is followed' '
	ln -s x.yml repo/tokens/alias.yml &&
	(
		cd repo &&
		write_sidecar --token-path=tokens/alias.yml \
			docs/evals/alias.replay.json tokens/x.yml &&
		ahd-replay verify docs/evals/alias.replay.json
	) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a symlink loop: refused, exit 2' '
	ln -s loop-b.yml repo/tokens/loop-a.yml &&
	ln -s loop-a.yml repo/tokens/loop-b.yml &&
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=tokens/loop-a.yml \
			docs/evals/loop.replay.json tokens/x.yml
	) &&
	verify_fails 2 "token: cannot use the token path tokens/loop-a.yml: symlink loop" \
		docs/evals/loop.replay.json
'

test_expect_success 'a symlink to itself: refused, exit 2' '
	ln -s self.yml repo/tokens/self.yml &&
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=tokens/self.yml \
			docs/evals/self.replay.json tokens/x.yml
	) &&
	verify_fails 2 "symlink loop" docs/evals/self.replay.json
'

test_expect_success 'a dangling symlink: not found, exit 1' '
	ln -s nothing.yml repo/tokens/dangling.yml &&
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=tokens/dangling.yml \
			docs/evals/dangling.replay.json tokens/x.yml
	) &&
	verify_fails 1 "token file not found at $TRASH_DIRECTORY/repo/tokens/dangling.yml" \
		docs/evals/dangling.replay.json
'

test_expect_success 'a directory as the token path: refused, exit 2' '
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=tokens \
			docs/evals/dir.replay.json tokens/x.yml
	) &&
	verify_fails 2 "token: cannot use the token path tokens: not a regular file" \
		docs/evals/dir.replay.json
'

test_lazy_prereq MKFIFO '
	mkfifo fifo
'

test_expect_success MKFIFO 'a FIFO as the token path: refused, exit 2, no hang' '
	mkfifo repo/tokens/fifo.yml &&
	(
		cd repo &&
		write_sidecar --token-hash=$x_hash --token-path=tokens/fifo.yml \
			docs/evals/fifo.replay.json tokens/x.yml
	) &&
	verify_fails 2 "not a regular file" docs/evals/fifo.replay.json
'

# --allow-outside-root

test_expect_success '--allow-outside-root: a ../ path is read' '
	(
		cd repo &&
		write_sidecar --token-hash=$o_hash --token-path=../outside/o.yml \
			docs/evals/allow-dotdot.replay.json tokens/x.yml &&
		test_expect_code 2 ahd-replay verify docs/evals/allow-dotdot.replay.json &&
		ahd-replay verify --allow-outside-root docs/evals/allow-dotdot.replay.json
	) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success '--allow-outside-root: a symlink out of the root is followed' '
	(
		cd repo &&
		ahd-replay verify --allow-outside-root docs/evals/link-abs.replay.json &&
		ahd-replay verify --allow-outside-root docs/evals/link-dir.replay.json
	) >actual &&
	test_grep ! "FAIL" actual
'

test_expect_success '--allow-outside-root: an absolute path outside the root is read' '
	(
		cd repo &&
		write_sidecar --token-hash=$o_hash \
			--token-path="$TRASH_DIRECTORY/outside/o.yml" \
			docs/evals/allow-abs.replay.json tokens/x.yml &&
		ahd-replay verify --allow-outside-root docs/evals/allow-abs.replay.json
	) >actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	test_grep ! "re-rooted" actual
'

test_expect_success '--allow-outside-root: re-rooting still comes first' '
	(cd repo && ahd-replay verify --allow-outside-root docs/evals/ci.replay.json) >actual &&
	test_grep "^  note: token path re-rooted: " actual
'

test_expect_success '--allow-outside-root: a secret that is not YAML fails to parse, exit 1' '
	(
		cd repo &&
		test_expect_code 1 ahd-replay verify --allow-outside-root docs/evals/dotdot.replay.json
	) >actual &&
	test_grep "^  FAIL  token: " actual &&
	test_grep "^verdict: drift detected$" actual
'

test_expect_success '--allow-outside-root: the parse failure names the file outside' '
	(
		cd repo &&
		test_expect_code 1 ahd-replay verify --allow-outside-root docs/evals/dotdot.replay.json
	) >actual &&
	test_grep "^  FAIL  token: failed to parse token at $TRASH_DIRECTORY/secret\.yml: " actual
'

test_expect_success '--allow-outside-root does not lift the symlink-loop refusal' '
	(cd repo && test_expect_code 2 ahd-replay verify --allow-outside-root \
		docs/evals/loop.replay.json) >actual &&
	test_grep "symlink loop" actual
'

# The sidecar itself (SPEC section 7)

test_expect_success 'truncated JSON: exit 2, invalid JSON' '
	head -c 200 repo/docs/evals/plain.replay.json >repo/docs/evals/trunc.replay.json &&
	sidecar_fails "docs/evals/trunc.replay.json: invalid JSON: " docs/evals/trunc.replay.json
'

test_expect_success 'an empty sidecar: exit 2, invalid JSON' '
	: >repo/docs/evals/empty.replay.json &&
	sidecar_fails "invalid JSON" docs/evals/empty.replay.json
'

test_expect_success 'a JSON array instead of an object: exit 2, must be an object' '
	echo "[1, 2, 3]" >repo/docs/evals/array.replay.json &&
	sidecar_fails "must be an object" docs/evals/array.replay.json
'

test_expect_success 'a JSON string or null instead of an object: must be an object' '
	echo "\"sidecar\"" >repo/docs/evals/string.replay.json &&
	sidecar_fails "must be an object" docs/evals/string.replay.json &&
	echo null >repo/docs/evals/null.replay.json &&
	sidecar_fails "must be an object" docs/evals/null.replay.json
'

test_expect_success 'schema_version 2: refused as written by a newer version' '
	sed "s/\"schema_version\": 1,/\"schema_version\": 2,/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/v2.replay.json &&
	sidecar_fails "written by a newer version; this tool understands 1" \
		docs/evals/v2.replay.json
'

test_expect_success 'schema_version 0 or "1": refused' '
	sed "s/\"schema_version\": 1,/\"schema_version\": 0,/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/v0.replay.json &&
	sidecar_fails "/schema_version: " docs/evals/v0.replay.json &&
	sed "s/\"schema_version\": 1,/\"schema_version\": \"1\",/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/vs.replay.json &&
	sidecar_fails "/schema_version: " docs/evals/vs.replay.json
'

test_expect_success 'schema_version 1.0 is 1 (JSON.parse)' '
	sed "s/\"schema_version\": 1,/\"schema_version\": 1.0,/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/v10.replay.json &&
	(cd repo && ahd-replay verify docs/evals/v10.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a wrong hash prefix: exit 2, must be sha256:' '
	sed "s/\"hash\": \"sha256:/\"hash\": \"sha1:/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/sha1.replay.json &&
	sidecar_fails "/token/hash: must be sha256:" docs/evals/sha1.replay.json
'

test_expect_success 'a hash of the wrong length: exit 2' '
	sed "s/\(\"hash\": \"sha256:[0-9a-f]*\)[0-9a-f]\"/\1\"/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/short.replay.json &&
	sidecar_fails "/token/hash: must be sha256:" docs/evals/short.replay.json
'

test_expect_success 'a wrong brief hash prefix: exit 2, names /brief/hash' '
	sed "s/\"hash\": \"$b_hash\"/\"hash\": \"md5:${b_hash#sha256:}\"/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/md5.replay.json &&
	test_grep "\"md5:${b_hash#sha256:}\"" repo/docs/evals/md5.replay.json &&
	sidecar_fails "/brief/hash: must be sha256:" docs/evals/md5.replay.json
'

test_expect_success 'binary garbage: exit 2, one line, no raw control bytes' '
	printf "\377\376\000\001garbage\033[2J\r\n\000\302" >repo/docs/evals/garbage.replay.json &&
	sidecar_fails "invalid JSON" docs/evals/garbage.replay.json &&
	test_grep ! "$(printf "\033")" err
'

test_expect_success 'a NUL byte inside the JSON: exit 2' '
	printf "{\"schema_version\": 1,\000 \"kind\": \"eval-live\"}" \
		>repo/docs/evals/nul.replay.json &&
	sidecar_fails "invalid JSON" docs/evals/nul.replay.json
'

test_expect_success 'JSON nested thousands of levels deep: exit 2, no crash' '
	awk "BEGIN { for (i = 0; i < 100000; i++) printf \"[\"; print \"\" }" \
		>repo/docs/evals/deep.replay.json &&
	sidecar_fails "invalid JSON" docs/evals/deep.replay.json
'

test_expect_success 'a sidecar larger than any real one: refused, exit 2' '
	{
		printf "{\"pad\": \"" &&
		awk "BEGIN { s = \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"; for (i = 0; i < 300000; i++) print s }" | tr -d "\n" &&
		printf "\"}"
	} >repo/docs/evals/huge.replay.json &&
	sidecar_fails "larger than" docs/evals/huge.replay.json
'

test_expect_success 'a missing sidecar: exit 2, no replay sidecar found at' '
	echo "# a report without its sidecar" >repo/docs/evals/lonely.md &&
	sidecar_fails "no replay sidecar found at docs/evals/lonely.replay.json" \
		docs/evals/lonely.md docs/evals/lonely.replay.json
'

test_expect_success 'an unreadable sidecar: exit 2' '
	cp repo/docs/evals/plain.replay.json repo/docs/evals/locked.replay.json &&
	chmod 000 repo/docs/evals/locked.replay.json &&
	test_when_finished "chmod 644 repo/docs/evals/locked.replay.json" &&
	if cat repo/docs/evals/locked.replay.json >/dev/null 2>&1
	then
		: running as root, the file is readable anyway
	else
		sidecar_fails "locked.replay.json" docs/evals/locked.replay.json
	fi
'

test_expect_success 'a sidecar that is a directory: exit 2' '
	mkdir -p repo/docs/evals/adir.replay.json &&
	sidecar_fails "adir.replay.json" docs/evals/adir.md docs/evals/adir.replay.json
'

test_expect_success 'a directory operand named *.replay.json is a directory' '
	(cd repo && ahd-replay verify --allow-empty docs/evals/adir.replay.json) >actual &&
	echo "0 reports: 0 intact, 0 drifted, 0 errors" >expect &&
	test_cmp expect actual
'

test_expect_success 'schema violations: exit 2 with the JSON path' '
	sed "/\"kind\"/d" repo/docs/evals/plain.replay.json >repo/docs/evals/nokind.replay.json &&
	sidecar_fails "/kind: is required" docs/evals/nokind.replay.json &&
	sed "s/\"kind\": \"eval-live\"/\"kind\": \"eval\"/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/badkind.replay.json &&
	sidecar_fails "/kind: must be one of" docs/evals/badkind.replay.json &&
	sed "s/\"path\": \"tokens\/x.yml\"/\"path\": \"\"/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/nopath.replay.json &&
	sidecar_fails "/token/path: must not be empty" docs/evals/nopath.replay.json &&
	sed "s/\"path\": \"tokens\/x.yml\",/\"path\": \"tokens\/x.yml\", \"mode\": \"raw\",/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/tokenkey.replay.json &&
	sidecar_fails "/token: unexpected key" docs/evals/tokenkey.replay.json &&
	sed "s/\"n\": 3/\"n\": 0/" \
		repo/docs/evals/plain.replay.json >repo/docs/evals/n0.replay.json &&
	sidecar_fails "/sampling/n: " docs/evals/n0.replay.json
'

test_expect_success 'a token of null is a schema violation, a brief of null is a critique' '
	sed "/\"token\": {/,/}/c\\
  \"token\": null," repo/docs/evals/plain.replay.json >repo/docs/evals/notoken.replay.json &&
	test_grep "\"token\": null" repo/docs/evals/notoken.replay.json &&
	sidecar_fails "/token: must be an object" docs/evals/notoken.replay.json
'

test_expect_success 'unknown fields: verify succeeds and notes them' '
	(
		cd repo &&
		write_sidecar --extra="
  \"future_field\": {\"x\": 1},
  \"signature\": \"abc\"," \
			docs/evals/unknown.replay.json tokens/x.yml briefs/b.md
	) &&
	cat >expect <<-EOF &&
	ahd verify-replay · docs/evals/unknown.replay.json
	replay: docs/evals/unknown.replay.json
	  kind: eval-live
	  ahd_version: 0.11.0
	  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db
	  invoked_at: 2026-08-03T09:57:42.291Z

	  ok    token hash matches
	  ok    brief hash matches

	  note: ignoring unknown fields in the sidecar: future_field, signature

	verdict: replay inputs intact
	EOF
	(cd repo && ahd-replay verify docs/evals/unknown.replay.json) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'backfilled: true is a known field' '
	(
		cd repo &&
		write_sidecar --extra="
  \"backfilled\": true," \
			docs/evals/backfilled.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay verify docs/evals/backfilled.replay.json
	) >actual &&
	test_grep ! "note:" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a repeated key keeps its last value (JSON.parse)' '
	(
		cd repo &&
		write_sidecar --extra="
  \"kind\": \"eval-image\"," \
			docs/evals/repeat.replay.json tokens/x.yml briefs/b.md &&
		ahd-replay verify docs/evals/repeat.replay.json
	) >actual &&
	test_grep "^  kind: eval-live$" actual
'

test_expect_success 'a bad sidecar among good ones: the others still verify' '
	(cd repo && test_expect_code 2 ahd-replay verify docs/evals/plain.replay.json \
		docs/evals/v2.replay.json docs/evals/ci.replay.json) >actual 2>err &&
	test_grep "^3 reports: 2 intact, 0 drifted, 1 error" actual &&
	test_line_count = 1 err &&
	test_grep "v2.replay.json: .*newer version" err
'

test_done
