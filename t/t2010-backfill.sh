#!/bin/sh

test_description='backfill: sidecars for old reports, from git history

A fixture repository built here holds one report per case of SPEC
section 6 "backfill": every header variant (eval, eval-image, critique
with (n=K) counts and a critic: line, critique with model lines, no Brief
line, a markdown brief that parses as YAML, a brief that is not YAML, a
brief absent at the commit), a token absent at the commit, an untracked
report, an existing sidecar, a header that does not parse, an invalid
date, no sample count; reports edited later, changed on a merged side
branch, whose token changed after them, in nested directories.

1. Without node: every written sidecar is compared byte for byte with
   one this script writes from hashes it computes itself (`ahd-replay
   hash` of `git show <commit>:<path>`, cross-checked with sha256sum for
   the raw ones), and stdout with the expected report list.
2. With node, yaml and zod (t/oracle/node_modules, installed by `npm ci`
   when missing, as t9100 does): every written file and stdout are
   compared with t/oracle/backfill-standin.mjs, a stand-in for the
   reference script (its "built replay does not validate" reason is
   shorter than ours: those lines are compared by that prefix).
3. Options and bad input: --dry-run, --force, --commit-of=first, exit
   status, a shallow clone, a missing object, a reports directory outside
   the repository.'

# npm keeps using the real home directory (its cache and configuration);
# test-lib.sh points HOME at the trash directory.
oracle_npm_home=${HOME:-}

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

ORACLE_SRC=$TEST_SRC_DIR/t/oracle
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

# ---------------------------------------------------------------------
# The stand-in needs node with yaml@2.8.3 and zod (t/oracle/package.json).

. "$TEST_SRC_DIR/t/lib-oracle.sh"
oracle_setup
if test -z "$oracle_skip"
then
	test_set_prereq STANDIN
else
	echo "# SKIPPING the comparisons with the backfill stand-in: $oracle_skip"
	echo "# (the self-checks without node still run)"
fi

# ---------------------------------------------------------------------
# Helpers

# standin DIR [ARGS...]: the stand-in on the repository DIR (its root).
standin () {
	standin_dir_=$1
	shift
	(cd "$standin_dir_" && "$NODE" "$oracle_dir/backfill-standin.mjs" . "$@")
}

# shorten FILE: the stand-in gives no detail after "built replay does not
# validate"; drop ours.
shorten () {
	sed 's/^\(  - .*: built replay does not validate\):.*/\1/' "$1"
}

# same_output OURS THEIRS: stdout of both, the validation reasons by prefix.
same_output () {
	shorten "$1" >"$1.short" &&
	shorten "$2" >"$2.short" &&
	test_cmp "$2.short" "$1.short"
}

# same_files A B: the two trees hold the same files with the same bytes
# (outside .git).
same_files () {
	(cd "$1" && find . -path ./.git -prune -o -type f -print | sort) >files.a &&
	(cd "$2" && find . -path ./.git -prune -o -type f -print | sort) >files.b &&
	test_cmp files.a files.b &&
	while read -r f
	do
		cmp "$1/$f" "$2/$f" || return 1
	done <files.a
}

# copy NAME: a fresh copy of the fixture repository.
copy () {
	rm -rf "$1" && cp -R repo "$1"
}

# sidecars DIR: the sidecar files under DIR, sorted.
sidecars () {
	(cd "$1" && find . -path ./.git -prune -o -name "*.replay.json" -print |
		sort)
}

# struct_hash REV PATH: the structured hash of PATH at REV.
struct_hash () {
	git -C repo show "$1:$2" >hash.in &&
	ahd-replay hash hash.in >hash.out &&
	sed "s/  hash.in\$//" hash.out
}

# sidecar KIND VERSION COMMIT RUN_AT TOKEN TOKEN_HASH BRIEF BRIEF_HASH N
#	[ID PROVIDER]...
# The sidecar backfill writes, as JSON.stringify(v, null, 2) + "\n"
# lays it out.  An empty BRIEF: "brief": null.
sidecar () {
	printf '{\n'
	printf '  "schema_version": 1,\n'
	printf '  "kind": "%s",\n' "$1"
	printf '  "ahd_version": "%s",\n' "$2"
	printf '  "ahd_commit": "%s",\n' "$3"
	printf '  "git_dirty": false,\n'
	printf '  "node_version": "unknown",\n'
	printf '  "platform": "unknown",\n'
	printf '  "invoked_at": "%s",\n' "$4"
	printf '  "argv": [],\n'
	printf '  "token": {\n    "path": "%s",\n    "hash": "%s"\n  },\n' \
		"$5" "$6"
	if test -n "$7"
	then
		printf '  "brief": {\n    "path": "%s",\n    "hash": "%s"\n  },\n' \
			"$7" "$8"
	else
		printf '  "brief": null,\n'
	fi
	printf '  "sampling": {\n    "n": %s,\n' "$9"
	printf '    "temperature": null,\n    "seed": null\n  },\n'
	sidecar_kind_=$1
	shift 9
	if test $# = 0
	then
		printf '  "models": [],\n'
	else
		printf '  "models": [\n'
		while test $# -ge 2
		do
			printf '    {\n      "id": "%s",\n' "$1"
			printf '      "provider": "%s",\n' "$2"
			printf '      "provider_request_ids": []\n    }'
			shift 2
			if test $# -gt 0
			then
				printf ',\n'
			else
				printf '\n'
			fi
		done
		printf '  ],\n'
	fi
	if test "$sidecar_kind_" = critique
	then
		printf '  "conditions": {\n    "requested": [],\n    "effective": []\n  },\n'
	else
		printf '  "conditions": {\n'
		printf '    "requested": [\n      "raw",\n      "compiled"\n    ],\n'
		printf '    "effective": [\n      "raw",\n      "compiled"\n    ]\n'
		printf '  },\n'
	fi
	printf '  "backfilled": true\n}\n'
}

# ---------------------------------------------------------------------
# The fixture

# report FILE: a report from stdin, in docs/evals.
report () {
	mkdir -p "docs/evals/$(dirname "$1")" &&
	cat >"docs/evals/$1"
}

test_expect_success 'setup: the fixture repository' '
	git init -q repo &&
	(
		cd repo &&
		git symbolic-ref HEAD refs/heads/main &&
		mkdir -p tokens briefs &&

		# C1: before package.json existed
		printf "name: swiss\npalette: [red, white]\ngrid: 12\n" \
			>tokens/swiss.yml &&
		printf "title: Landing\nsections:\n  - hero\n  - pricing\n" \
			>briefs/landing.yml &&
		report early.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-05T10:00:00Z

		- Brief: `briefs/landing.yml`
		- Samples per cell: **4**
		- Models:
		  - `Claude` (anthropic) · spec `claude-x`
		EOF
		git add -A && test_tick && git commit -q -m C1 &&

		# C2: most reports
		printf "{\n  \"name\": \"ahd\",\n  \"version\": \"1.2.3\"\n}\n" \
			>package.json &&
		printf "name: brutal\nweights: {b: 2, a: 1}\n" >tokens/brutal.yml &&
		printf "name: edited\nv: 1\n" >tokens/edited.yml &&
		printf "name: spaced\n" >"tokens/my token.yml" &&
		printf "name: lost\n" >tokens/lost.yml &&
		printf "# Poster\n\nA short brief for a poster.\n" >briefs/poster.md &&
		printf "# Raw\n\n- first\nsecond: line\n" >briefs/raw.md &&
		report eval.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-06T10:00:00Z

		- Brief: `briefs/landing.yml`
		- Samples per cell: **8**
		- Models:
		  - `Claude` (anthropic) · spec `claude-x`
		  - `GPT` (openai) · spec `gpt-y`
		EOF
		report image.md <<-\EOF &&
		# ahd eval-image · brutal · 2026-01-06T11:00:00.250Z

		- Brief: `briefs/poster.md`
		- Samples per cell: **2**
		  - `Flux` (bfl) · spec `flux-pro`
		EOF
		report critique-counts.md <<-\EOF &&
		# ahd critique · swiss · 2026-01-07T09:00:00Z

		- Brief: `briefs/landing.yml`
		critic: `judge-1`

		| sample | score |
		|---|---|
		| a (n=3) | 0.5 |
		| b (n=5) | 0.7 |
		| c (n=x) | - |
		EOF
		report critique-models.md <<-\EOF &&
		# ahd critique · brutal · 2026-01-07T10:00:00Z

		critic: `judge-1`
		Counts: (n=2) and (n=10)
		  - `Claude` (anthropic) · spec `claude-x`
		  - `Gemini` (google) · spec `gemini-z`
		EOF
		report no-brief.md <<-\EOF &&
		# ahd eval · brutal · 2026-01-08T00:00:00Z

		- Samples per cell: **1**
		EOF
		report brief-raw.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-08T01:00:00Z

		- Brief: `briefs/raw.md`
		- Samples per cell: **3**
		EOF
		report brief-missing.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-08T02:00:00Z

		- Brief: `briefs/later.yml`
		- Samples per cell: **3**
		EOF
		report token-absent.md <<-\EOF &&
		# ahd eval · late · 2026-01-08T03:00:00Z

		- Samples per cell: **3**
		EOF
		report bad-date.md <<-\EOF &&
		# ahd eval · swiss · 2026-02-30T00:00:00Z

		- Samples per cell: **3**
		EOF
		report no-n.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-08T04:00:00Z

		- Brief: `briefs/landing.yml`
		EOF
		report bad-header.md <<-\EOF &&
		# ahd evaluation of swiss, 2026-01-08

		- Samples per cell: **3**
		EOF
		report header-space.md <<-\EOF &&
		Some text before the header.
		# ahd eval  my token   ·  2026-01-08T05:00:00Z  trailing words
		# ahd eval · brutal · 2026-01-09T00:00:00Z

		- Samples per cell: **5** (n=100)
		EOF
		report lost.md <<-\EOF &&
		# ahd eval · lost · 2026-01-08T06:00:00Z

		- Samples per cell: **2**
		EOF
		report edited-later.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-09T01:00:00Z

		- Samples per cell: **6**
		EOF
		report token-edited.md <<-\EOF &&
		# ahd eval · edited · 2026-01-09T02:00:00Z

		- Brief: `briefs/landing.yml`
		- Samples per cell: **6**
		EOF
		report side.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-09T03:00:00Z

		- Samples per cell: **7**
		EOF
		report has-sidecar.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-09T04:00:00Z

		- Samples per cell: **7**
		EOF
		report weekly/2026-01-12.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-12T00:00:00Z

		- Brief: `briefs/poster.md`
		- Samples per cell: **9**
		EOF
		report nested/a/b/deep.md <<-\EOF &&
		# ahd critique · brutal · 2026-01-12T01:00:00Z

		critic: `judge-2`
		one sample (n=1)
		EOF
		git add -A && test_tick && git commit -q -m C2 &&

		# C3: unrelated
		echo readme >README && git add README &&
		test_tick && git commit -q -m C3 &&

		# C4: token, brief, package.json and one report change
		printf "name: edited\nv: 2\n" >tokens/edited.yml &&
		printf "name: late\n" >tokens/late.yml &&
		printf "title: Later\n" >briefs/later.yml &&
		printf "{\"version\": \"1.3.0\"}\n" >package.json &&
		echo "Edited." >>docs/evals/edited-later.md &&
		git add -A && test_tick && git commit -q -m C4 &&

		# C5: side.md changed on a side branch, merged
		git checkout -q -b side &&
		echo "Changed on the side." >>docs/evals/side.md &&
		git add -A && test_tick && git commit -q -m C5-side &&
		git checkout -q main &&
		echo more >>README && git add README &&
		test_tick && git commit -q -m C5-main &&
		test_tick && git merge -q --no-ff -m M side &&

		# not committed
		report untracked.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-13T00:00:00Z

		- Samples per cell: **1**
		EOF
		printf "{\"existing\": true}\n" >docs/evals/has-sidecar.replay.json
	) &&
	c1=$(git -C repo rev-parse HEAD~5) &&
	c2=$(git -C repo rev-parse HEAD~4) &&
	c4=$(git -C repo rev-parse HEAD~2) &&
	c5side=$(git -C repo rev-parse HEAD^2) &&
	test "$(git -C repo log -1 --format=%s $c1)" = C1 &&
	test "$(git -C repo log -1 --format=%s $c2)" = C2 &&
	test "$(git -C repo log -1 --format=%s $c4)" = C4 &&
	test "$(git -C repo log -1 --format=%s $c5side)" = C5-side &&
	c2_12=$(echo $c2 | cut -c1-12) &&
	cp repo/docs/evals/has-sidecar.replay.json has-sidecar.orig
'

test_expect_success 'setup: the expected sidecars, from our own hashes' '
	mkdir expect &&
	swiss2=$(struct_hash $c2 tokens/swiss.yml) &&
	swiss4=$(struct_hash $c4 tokens/swiss.yml) &&
	brutal2=$(struct_hash $c2 tokens/brutal.yml) &&
	landing2=$(struct_hash $c2 briefs/landing.yml) &&
	poster2=$(struct_hash $c2 briefs/poster.md) &&
	raw2=$(committed_raw_hash repo $c2 briefs/raw.md) &&
	git -C repo show $c2:briefs/raw.md >raw.in &&
	test_must_fail ahd-replay hash raw.in &&
	edited2=$(struct_hash $c2 tokens/edited.yml) &&
	edited4=$(struct_hash $c4 tokens/edited.yml) &&
	test "$edited2" != "$edited4" &&
	spaced2=$(struct_hash $c2 "tokens/my token.yml") &&
	lost2=$(struct_hash $c2 tokens/lost.yml) &&
	swiss1=$(struct_hash $c1 tokens/swiss.yml) &&
	landing1=$(struct_hash $c1 briefs/landing.yml) &&
	test "$swiss1" = "$swiss2" &&

	sidecar eval-live unknown $c1 2026-01-05T10:00:00Z \
		tokens/swiss.yml $swiss1 briefs/landing.yml $landing1 4 \
		claude-x anthropic >expect/early.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-06T10:00:00Z \
		tokens/swiss.yml $swiss2 briefs/landing.yml $landing2 8 \
		claude-x anthropic gpt-y openai >expect/eval.replay.json &&
	sidecar eval-image 1.2.3 $c2 2026-01-06T11:00:00.250Z \
		tokens/brutal.yml $brutal2 briefs/poster.md $poster2 2 \
		flux-pro bfl >expect/image.replay.json &&
	sidecar critique 1.2.3 $c2 2026-01-07T09:00:00Z \
		tokens/swiss.yml $swiss2 "" "" 8 \
		judge-1 critic >expect/critique-counts.replay.json &&
	sidecar critique 1.2.3 $c2 2026-01-07T10:00:00Z \
		tokens/brutal.yml $brutal2 "" "" 12 \
		claude-x anthropic gemini-z google \
		>expect/critique-models.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-08T00:00:00Z \
		tokens/brutal.yml $brutal2 "" "" 1 >expect/no-brief.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-08T01:00:00Z \
		tokens/swiss.yml $swiss2 briefs/raw.md $raw2 3 \
		>expect/brief-raw.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-08T02:00:00Z \
		tokens/swiss.yml $swiss2 "" "" 3 >expect/brief-missing.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-08T05:00:00Z \
		"tokens/my token.yml" $spaced2 "" "" 5 \
		>expect/header-space.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-08T06:00:00Z \
		tokens/lost.yml $lost2 "" "" 2 >expect/lost.replay.json &&
	sidecar eval-live 1.3.0 $c4 2026-01-09T01:00:00Z \
		tokens/swiss.yml $swiss4 "" "" 6 >expect/edited-later.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-09T02:00:00Z \
		tokens/edited.yml $edited2 briefs/landing.yml $landing2 6 \
		>expect/token-edited.replay.json &&
	sidecar eval-live 1.3.0 $c5side 2026-01-09T03:00:00Z \
		tokens/swiss.yml $swiss4 "" "" 7 >expect/side.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-12T00:00:00Z \
		tokens/swiss.yml $swiss2 briefs/poster.md $poster2 9 \
		>expect/2026-01-12.replay.json &&
	sidecar critique 1.2.3 $c2 2026-01-12T01:00:00Z \
		tokens/brutal.yml $brutal2 "" "" 1 judge-2 critic \
		>expect/deep.replay.json &&
	sidecar eval-live 1.2.3 $c2 2026-01-09T04:00:00Z \
		tokens/swiss.yml $swiss2 "" "" 7 >expect/has-sidecar.replay.json
'

# Our stdout for a full run of the fixture (the sidecar lines are "wrote"
# or "would write").
expected_stdout () {
	for f in brief-missing brief-raw critique-counts critique-models \
		early edited-later eval header-space image lost
	do
		echo "$1 docs/evals/$f.replay.json"
	done
	echo "$1 docs/evals/nested/a/b/deep.replay.json"
	for f in no-brief side token-edited
	do
		echo "$1 docs/evals/$f.replay.json"
	done
	echo "$1 docs/evals/weekly/2026-01-12.replay.json"
	echo
	echo "backfill: scanned=21 written=15 skipped=1 failed=5"
	echo "failures:"
	echo "  - docs/evals/bad-date.md: built replay does not validate: /invoked_at: invoked_at must be an ISO-8601 datetime string."
	echo "  - docs/evals/bad-header.md: header did not match the expected pattern (need # ahd <kind> · <token> · <runAt>)"
	echo "  - docs/evals/no-n.md: built replay does not validate: /sampling/n: must be an integer > 0"
	echo "  - docs/evals/token-absent.md: token file tokens/late.yml not present at commit $c2_12"
	echo "  - docs/evals/untracked.md: no git commit found for the report; needs to be tracked first"
}

# check_written DIR: every sidecar backfill should have written in DIR
# equals the expected one; no other was written; the existing one is
# untouched.
check_written () {
	for f in brief-missing brief-raw critique-counts critique-models \
		early edited-later eval header-space image lost no-brief side \
		token-edited
	do
		test_cmp expect/$f.replay.json "$1/docs/evals/$f.replay.json" ||
			return 1
	done &&
	test_cmp expect/2026-01-12.replay.json \
		"$1/docs/evals/weekly/2026-01-12.replay.json" &&
	test_cmp expect/deep.replay.json \
		"$1/docs/evals/nested/a/b/deep.replay.json" &&
	cmp has-sidecar.orig "$1/docs/evals/has-sidecar.replay.json" &&
	sidecars "$1" >written &&
	test_line_count "=" 16 written
}

# ---------------------------------------------------------------------
# Self-checks: no node

test_expect_success 'backfill writes the expected sidecars, exit 1 for the failures' '
	copy run &&
	(cd run && test_expect_code 1 ahd-replay backfill >../out 2>../err) &&
	expected_stdout wrote >expect.out &&
	test_cmp expect.out out &&
	test_must_be_empty err &&
	check_written run
'

test_expect_success 'the written sidecars validate' '
	(
		cd run &&
		for f in $(sidecars .)
		do
			case $f in *has-sidecar*) continue ;; esac
			ahd-replay validate "$f" || return 1
		done
	)
'

test_expect_success 'the written sidecars verify at their commit; drift after it shows' '
	(
		cd run &&
		for f in $(sidecars .)
		do
			case $f in *has-sidecar*) continue ;; esac
			commit=$(sed -n "s/^  \"ahd_commit\": \"\(.*\)\",\$/\1/p" $f) &&
			ahd-replay verify --at=$commit "$f" >out || {
				cat out &&
				return 1
			}
		done &&
		ahd-replay verify docs/evals/eval.md &&
		test_expect_code 1 ahd-replay verify docs/evals/token-edited.md
	)
'

test_expect_success 'the token hash is the hash of the token at the commit' '
	for f in $(sidecars run)
	do
		case $f in *has-sidecar*) continue ;; esac
		commit=$(sed -n "s/^  \"ahd_commit\": \"\\(.*\\)\",\$/\\1/p" run/$f) &&
		token=$(sed -n "/^  \"token\": {/,/}/s/^    \"path\": \"\\(.*\\)\",\$/\\1/p" run/$f) &&
		hash=$(sed -n "/^  \"token\": {/,/}/s/^    \"hash\": \"\\(.*\\)\"\$/\\1/p" run/$f) &&
		test -n "$commit" && test -n "$token" && test -n "$hash" &&
		test "$(struct_hash $commit "$token")" = "$hash" || {
			echo "$f: $commit:$token is not $hash" >&2
			return 1
		}
	done
'

test_expect_success 'a token edited after the report is hashed at the report commit' '
	grep "\"hash\": \"$edited2\"" run/docs/evals/token-edited.replay.json &&
	! grep "$edited4" run/docs/evals/token-edited.replay.json &&
	grep "\"ahd_commit\": \"$c2\"" run/docs/evals/token-edited.replay.json
'

test_expect_success 'a report edited later takes the later commit; a side-branch change its commit' '
	grep "\"ahd_commit\": \"$c4\"" run/docs/evals/edited-later.replay.json &&
	grep "\"ahd_version\": \"1.3.0\"" run/docs/evals/edited-later.replay.json &&
	grep "\"ahd_commit\": \"$c5side\"" run/docs/evals/side.replay.json &&
	(
		cd repo &&
		test "$(git log -1 --format=%H -- docs/evals/edited-later.md)" = $c4 &&
		test "$(git log -1 --format=%H -- docs/evals/side.md)" = $c5side
	)
'

test_expect_success 'a second run skips everything it wrote' '
	(cd run && test_expect_code 1 ahd-replay backfill >../out2) &&
	test_grep "^backfill: scanned=21 written=0 skipped=16 failed=5$" out2 &&
	check_written run
'

test_expect_success '--dry-run writes nothing and exits 0' '
	copy dry &&
	(cd dry && git status --porcelain --ignored >../status.before) &&
	(cd dry && ahd-replay backfill --dry-run >../out 2>../err) &&
	(cd dry && git status --porcelain --ignored >../status.after) &&
	test_cmp status.before status.after &&
	expected_stdout "would write" >expect.out &&
	test_cmp expect.out out &&
	test_must_be_empty err &&
	sidecars dry >written &&
	echo ./docs/evals/has-sidecar.replay.json >expect.written &&
	test_cmp expect.written written
'

test_expect_success '--dry-run and no failures: exit 0; no failures: exit 0' '
	copy ok &&
	(
		cd ok &&
		rm docs/evals/bad-date.md docs/evals/bad-header.md \
			docs/evals/no-n.md docs/evals/token-absent.md \
			docs/evals/untracked.md &&
		ahd-replay backfill --dry-run >../out &&
		ahd-replay backfill >../out
	) &&
	test_grep "^backfill: scanned=16 written=15 skipped=1 failed=0$" out &&
	! grep "^failures:" out &&
	check_written ok
'

test_expect_success '--force keeps a sidecar backfill did not write' '
	(cd run && test_expect_code 1 ahd-replay backfill --force >../out) &&
	test_grep "^backfill: scanned=21 written=15 skipped=1 failed=5$" out &&
	test_grep "^kept docs/evals/has-sidecar.replay.json: it does not load" out &&
	test_grep "^kept 1 sidecar " out &&
	cmp has-sidecar.orig run/docs/evals/has-sidecar.replay.json
'

test_expect_success '--force rewrites a sidecar backfill wrote' '
	cp expect/eval.replay.json run/docs/evals/has-sidecar.replay.json &&
	(cd run && test_expect_code 1 ahd-replay backfill --force >../out) &&
	test_grep "^backfill: scanned=21 written=16 skipped=0 failed=5$" out &&
	! grep "^kept" out &&
	test_cmp expect/has-sidecar.replay.json \
		run/docs/evals/has-sidecar.replay.json &&
	test_cmp expect/eval.replay.json run/docs/evals/eval.replay.json
'

test_expect_success '--force: a sidecar symlink out of the root is refused, not followed' '
	cp expect/eval.replay.json outside.replay.json &&
	cp outside.replay.json outside.orig &&
	mv run/docs/evals/has-sidecar.replay.json has-sidecar.kept &&
	ln -s ../../../outside.replay.json \
		run/docs/evals/has-sidecar.replay.json &&
	(cd run && test_expect_code 2 ahd-replay backfill --force >../out 2>../err) &&
	test_cmp outside.orig outside.replay.json &&
	test -h run/docs/evals/has-sidecar.replay.json &&
	test_grep "has-sidecar.replay.json.* -> .../../../outside.replay.json. leads out of the root" err &&
	rm run/docs/evals/has-sidecar.replay.json &&
	mv has-sidecar.kept run/docs/evals/has-sidecar.replay.json
'

test_expect_success '--commit-of=first: the commit that added the report' '
	copy first &&
	(cd first && test_expect_code 1 ahd-replay backfill --commit-of=first >../out) &&
	grep "\"ahd_commit\": \"$c2\"" first/docs/evals/edited-later.replay.json &&
	grep "\"ahd_version\": \"1.2.3\"" first/docs/evals/edited-later.replay.json &&
	grep "\"ahd_commit\": \"$c2\"" first/docs/evals/side.replay.json &&
	grep "\"ahd_commit\": \"$c1\"" first/docs/evals/early.replay.json &&
	test_cmp expect/eval.replay.json first/docs/evals/eval.replay.json &&
	test_cmp expect/token-edited.replay.json \
		first/docs/evals/token-edited.replay.json &&
	(
		cd repo &&
		git log --format=%H -- docs/evals/side.md | tail -n 1 >../first.side &&
		echo $c2 >../expect.side
	) &&
	test_cmp expect.side first.side
'

test_expect_success 'usage errors exit 2' '
	(
		cd run &&
		test_expect_code 2 ahd-replay backfill --commit-of=middle 2>../err &&
		test_grep "commit-of" ../err &&
		test_expect_code 2 ahd-replay backfill a b 2>../err &&
		test_expect_code 2 ahd-replay backfill --no-such-option 2>../err
	)
'

test_expect_success 'a reports directory given on the command line' '
	copy sub &&
	(cd sub && ahd-replay backfill docs/evals/nested >../out) &&
	cat >expect.out <<-EOF &&
	wrote docs/evals/nested/a/b/deep.replay.json

	backfill: scanned=1 written=1 skipped=0 failed=0
	EOF
	test_cmp expect.out out &&
	test_cmp expect/deep.replay.json sub/docs/evals/nested/a/b/deep.replay.json
'

# ---------------------------------------------------------------------
# Bad input

# The test before this one expected the boundary commit as ahd_commit in
# a depth-1 clone: false provenance, which a full clone shows as drift.
test_expect_success 'a shallow clone: truncated reports fail, nothing is written for them' '
	git clone -q --depth 1 "file://$TRASH_DIRECTORY/repo" shallow &&
	(cd shallow && test_expect_code 1 ahd-replay backfill >../out 2>../err) &&
	test_grep "^  - docs/evals/eval.md: its history is truncated (a shallow clone)" out &&
	test_grep "^backfill: scanned=20 written=0 " out &&
	test_path_is_missing shallow/docs/evals/eval.replay.json &&
	(cd shallow && ahd-replay backfill --dry-run --commit-of=first \
		>../out 2>../err) &&
	test_grep "^  - docs/evals/eval.md: its history is truncated" out &&
	test_grep "^backfill: scanned=20 written=0 " out
'

test_expect_success 'a shallow clone: --allow-shallow skips them with a warning' '
	(cd shallow && test_expect_code 1 ahd-replay backfill --allow-shallow \
		>../out 2>../err) &&
	test_grep "docs/evals/eval.md: skipped: its history is truncated" err &&
	test_grep ! "truncated" out &&
	test_grep "^backfill: scanned=20 written=0 " out &&
	test_path_is_missing shallow/docs/evals/eval.replay.json &&
	git clone -q --depth 1 "file://$TRASH_DIRECTORY/repo" shallow-one &&
	(cd shallow-one && ahd-replay backfill --allow-shallow \
		docs/evals/weekly >../out 2>../err) &&
	test_grep "skipped: its history is truncated" err &&
	test_grep "^backfill: scanned=1 written=0 skipped=1 failed=0$" out
'

test_expect_success 'a deeper shallow clone: reports changed after the boundary are written as in a full clone' '
	git clone -q --depth 3 "file://$TRASH_DIRECTORY/repo" shallow3 &&
	(cd shallow3 && test_might_fail ahd-replay backfill >../out 2>../err) &&
	test_grep "its history is truncated" out &&
	written=$(sed -n "s/^wrote //p" out) &&
	test -n "$written" &&
	for f in $written
	do
		test_cmp expect/$(basename $f) shallow3/$f || return 1
	done
'

test_expect_success 'a missing blob: that report fails, the others are written' '
	copy broken &&
	(
		cd broken &&
		blob=$(git rev-parse $c2:tokens/lost.yml) &&
		obj=.git/objects/$(echo $blob | sed "s|^..|&/|") &&
		test -f $obj &&
		rm -f $obj &&
		test_must_fail git cat-file -e $blob &&
		test_expect_code 1 ahd-replay backfill >../out 2>../err
	) &&
	test_grep "^  - docs/evals/lost.md: token file tokens/lost.yml not present at commit $c2_12$" out &&
	test_grep "^backfill: scanned=21 written=14 skipped=1 failed=6$" out &&
	test_path_is_missing broken/docs/evals/lost.replay.json &&
	test_cmp expect/eval.replay.json broken/docs/evals/eval.replay.json
'

# A missing tree in a full clone (the root tree of C3 is gone): git log
# fails, and so must backfill, never naming a commit that did not
# change the report.
test_expect_success 'a missing root tree: no crash' '
	copy broken-tree &&
	(
		cd broken-tree &&
		tree=$(git rev-parse HEAD~3^{tree}) &&
		test "$(git log -1 --format=%s HEAD~3)" = C3 &&
		rm .git/objects/$(echo $tree | sed "s|^..|&/|") &&
		test_expect_code 128 git log -1 --format=%H -- docs/evals/eval.md &&
		test_might_fail ahd-replay backfill >../out 2>../err
	)
'

test_expect_success 'a missing root tree: the walk fails, no sidecar names a wrong commit' '
	copy broken-tree &&
	(
		cd broken-tree &&
		tree=$(git rev-parse HEAD~3^{tree}) &&
		rm .git/objects/$(echo $tree | sed "s|^..|&/|") &&
		test_expect_code 2 ahd-replay backfill >../out 2>../err
	) &&
	test_grep "cannot read" err &&
	test_path_is_missing broken-tree/docs/evals/eval.replay.json
'

test_expect_success 'a missing subtree: the walk fails with a message' '
	copy broken-subtree &&
	(
		cd broken-subtree &&
		tree=$(git rev-parse $c4:docs) &&
		rm .git/objects/$(echo $tree | sed "s|^..|&/|") &&
		test_expect_code 128 git log -1 --format=%H -- docs/evals/eval.md &&
		test_expect_code 2 ahd-replay backfill >../out 2>../err
	) &&
	test_grep "cannot read a tree" err &&
	test_path_is_missing broken-subtree/docs/evals/eval.replay.json
'

test_expect_success 'a reports directory outside the repository' '
	mkdir -p outside &&
	cp repo/docs/evals/eval.md outside/ &&
	cat >expect.out <<-\EOF &&

	backfill: scanned=1 written=0 skipped=0 failed=1
	failures:
	  - ../outside/eval.md: no git commit found for the report; needs to be tracked first
	EOF
	(cd repo && ahd-replay backfill --dry-run ../outside >../out) &&
	test_cmp expect.out out &&
	(cd repo && test_expect_code 1 ahd-replay backfill ../outside >../out) &&
	test_cmp expect.out out &&
	test_path_is_missing outside/eval.replay.json
'

test_expect_success 'a reports directory that does not exist; outside any repository' '
	(cd repo && test_expect_code 2 ahd-replay backfill no/such/dir 2>../err) &&
	test_grep "no/such/dir" err &&
	mkdir -p norepo/docs/evals &&
	cp repo/docs/evals/eval.md norepo/docs/evals/ &&
	(
		cd norepo &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 1 ahd-replay backfill --root . >../out 2>../err
	) &&
	test_grep "^  - docs/evals/eval.md: no git commit found for the report; needs to be tracked first$" out &&
	test_path_is_missing norepo/docs/evals/eval.replay.json
'

# A second fixture: package.json in every shape the version is read from,
# and report texts with CRLF line ends, Unicode spaces and invalid UTF-8.
test_expect_success 'setup: package.json variants and odd report texts' '
	git init -q pkg &&
	(
		cd pkg &&
		git symbolic-ref HEAD refs/heads/main &&
		mkdir -p tokens docs/evals &&
		printf "a: 1\n" >tokens/t.yml &&
		for v in "{\"name\": \"x\"}" "{ not json" "{\"version\": 2}" \
			"{\"version\": \"\"}" "{\"version\": null}" \
			"[\"version\"]" "{\"version\": \"2.0.0-rc.1\"}"
		do
			i=$((${i:-0} + 1)) &&
			printf "%s\n" "$v" >package.json &&
			printf "# ahd eval · t · 2026-03-0${i}T00:00:00Z\n- Samples per cell: **1**\n" \
				>docs/evals/pkg-$i.md &&
			git add -A && test_tick && git commit -q -m "pkg $i" || return 1
		done &&
		git rm -q package.json &&
		printf "# ahd eval · t · 2026-03-09T00:00:00Z\r\n- Brief: \`b.md\`\r\n- Samples per cell: **2**\r\n  - \`M\` (p) · spec \`s\`\r\n" \
			>docs/evals/crlf.md &&
		printf "# ahd eval ·\302\240t\342\200\203·\343\200\2002026-03-10T00:00:00Z\n- Samples per cell: **3**\n" \
			>docs/evals/unicode-space.md &&
		printf "# ahd eval · t · 2026-03-11T00:00:00Z \377\376\n- Samples per cell: **4** \300\n" \
			>docs/evals/invalid-utf8.md &&
		printf "# ahd critique · t · 2026-03-12T00:00:00Z\n(n=9007199254740993) (n=1)\n" \
			>docs/evals/big-n.md &&
		printf "# Brief\n" >b.md &&
		git add -A && test_tick && git commit -q -m odd
	)
'

test_expect_success 'package.json: the version at the commit, "unknown" when absent' '
	(cd pkg && test_expect_code 1 ahd-replay backfill >../pkg.out) &&
	grep "\"ahd_version\": \"unknown\"" pkg/docs/evals/pkg-1.replay.json &&
	grep "\"ahd_version\": \"unknown\"" pkg/docs/evals/pkg-2.replay.json &&
	test_grep "^  - docs/evals/pkg-3.md: built replay does not validate" pkg.out &&
	test_grep "^  - docs/evals/pkg-4.md: built replay does not validate" pkg.out &&
	grep "\"ahd_version\": \"unknown\"" pkg/docs/evals/pkg-5.replay.json &&
	grep "\"ahd_version\": \"unknown\"" pkg/docs/evals/pkg-6.replay.json &&
	grep "\"ahd_version\": \"2.0.0-rc.1\"" pkg/docs/evals/pkg-7.replay.json &&
	grep "\"ahd_version\": \"unknown\"" pkg/docs/evals/crlf.replay.json &&
	grep "\"id\": \"s\"" pkg/docs/evals/crlf.replay.json &&
	grep "\"invoked_at\": \"2026-03-09T00:00:00Z\"" pkg/docs/evals/crlf.replay.json
'

# ---------------------------------------------------------------------
# With node: the stand-in of the reference script

test_expect_success STANDIN 'stand-in: the same files and stdout on the fixture' '
	copy theirs &&
	rm -f theirs/docs/evals/has-sidecar.replay.json &&
	cp has-sidecar.orig theirs/docs/evals/has-sidecar.replay.json &&
	copy ours &&
	(cd ours && test_expect_code 1 ahd-replay backfill >../ours.out) &&
	test_expect_code 1 standin theirs >theirs.out &&
	same_output ours.out theirs.out &&
	same_files ours theirs
'

test_expect_success STANDIN 'stand-in: our expected sidecars are what the reference writes' '
	check_written theirs
'

test_expect_success STANDIN 'stand-in: --dry-run' '
	copy theirs-dry &&
	copy ours-dry &&
	(cd ours-dry && ahd-replay backfill --dry-run >../ours.out) &&
	standin theirs-dry --dry-run >theirs.out &&
	same_output ours.out theirs.out &&
	same_files ours-dry theirs-dry &&
	same_files ours-dry repo
'

test_expect_success STANDIN 'stand-in: --force rewrites as the reference writes a new sidecar' '
	copy theirs-force &&
	rm theirs-force/docs/evals/has-sidecar.replay.json &&
	test_expect_code 1 standin theirs-force >/dev/null &&
	test_cmp theirs-force/docs/evals/has-sidecar.replay.json \
		run/docs/evals/has-sidecar.replay.json
'

# The reference records the boundary commit of a shallow clone as the
# report's commit; we write nothing for such reports (see above).
test_expect_success STANDIN 'stand-in: a shallow clone (the reference writes false provenance; we do not)' '
	rm -rf shallow-ours shallow-theirs &&
	git clone -q --depth 1 "file://$TRASH_DIRECTORY/repo" shallow-ours &&
	git clone -q --depth 1 "file://$TRASH_DIRECTORY/repo" shallow-theirs &&
	(cd shallow-ours && test_expect_code 1 ahd-replay backfill >../ours.out 2>/dev/null) &&
	test_expect_code 1 standin shallow-theirs >theirs.out &&
	head=$(git -C shallow-theirs rev-parse HEAD) &&
	grep "\"ahd_commit\": \"$head\"" shallow-theirs/docs/evals/eval.replay.json &&
	test_path_is_missing shallow-ours/docs/evals/eval.replay.json &&
	test_grep "^backfill: scanned=20 written=0 " ours.out
'

test_expect_success STANDIN 'stand-in: package.json variants and odd report texts' '
	rm -rf pkg-ours pkg-theirs &&
	git clone -q pkg pkg-ours &&
	git clone -q pkg pkg-theirs &&
	(cd pkg-ours && test_expect_code 1 ahd-replay backfill >../ours.out) &&
	test_expect_code 1 standin pkg-theirs >theirs.out &&
	same_output ours.out theirs.out &&
	same_files pkg-ours pkg-theirs
'

test_expect_success STANDIN 'stand-in: a missing blob' '
	blob=$(git -C repo rev-parse $c2:tokens/lost.yml) &&
	obj=.git/objects/$(echo $blob | sed "s|^..|&/|") &&
	copy broken-ours &&
	copy broken-theirs &&
	rm broken-ours/$obj broken-theirs/$obj &&
	(cd broken-ours && test_expect_code 1 ahd-replay backfill >../ours.out) &&
	test_expect_code 1 standin broken-theirs >theirs.out &&
	same_output ours.out theirs.out &&
	same_files broken-ours broken-theirs
'

test_expect_success STANDIN 'stand-in: a reports directory outside the repository' '
	(cd repo && "$NODE" "$oracle_dir/backfill-standin.mjs" . ../outside \
		--dry-run >../theirs.out) &&
	(cd repo && ahd-replay backfill --dry-run ../outside >../ours.out) &&
	same_output ours.out theirs.out
'

test_done
