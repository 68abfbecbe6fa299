#!/bin/sh

test_description='verify: the text output, exit codes, operands, root discovery

Fixture repositories are built here.  Their sidecars are written by
write_sidecar with the hashes `ahd-replay hash` prints; the hashes in the
expected outputs are computed without our binary, from sha256sum of the
canonical text (SPEC section 4) or of the file bytes.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# canon_hash TEXT: sha256:<hex> of the bytes of TEXT (a canonical text).
canon_hash () {
	printf '%s' "$1" >canon.tmp &&
	printf 'sha256:%s\n' "$(test_sha256 canon.tmp)" &&
	rm -f canon.tmp
}

# header REPORT SIDECAR [COMMIT-LINE]: the first lines of a report's text
# output, with the sidecar fields write_sidecar writes by default.
header () {
	printf 'ahd verify-replay \302\267 %s\n' "$1" &&
	printf 'replay: %s\n' "$2" &&
	printf '  kind: %s\n' "${kind:-eval-live}" &&
	printf '  ahd_version: 0.11.0\n' &&
	if test $# -ge 3
	then
		test -z "$3" || printf '%s\n' "$3"
	else
		printf '  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db\n'
	fi &&
	printf '  invoked_at: 2026-08-03T09:57:42.291Z\n\n'
}

# described REV [DIR]: how drift attribution names a commit of the
# repository DIR (default repo): the first 12 hex digits of its id, its
# date and its subject.
described () {
	printf '%s (%s, "%s")' \
		"$(git -C "${2:-repo}" rev-parse "$1" | cut -c1-12)" \
		"$(git -C "${2:-repo}" log -1 --format=%cd --date=short "$1")" \
		"$(git -C "${2:-repo}" log -1 --format=%s "$1")"
}

test_expect_success 'setup: a repository with tokens, briefs and reports' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs/evals &&
	cat >repo/tokens/swiss.yml <<-\EOF &&
	# The Swiss editorial token
	name: swiss-editorial
	grid: 12
	fonts: [Helvetica, Akzidenz]
	EOF
	swiss_hash=$(canon_hash "{\"fonts\":[\"Helvetica\",\"Akzidenz\"],\"grid\":12,\"name\":\"swiss-editorial\"}") &&
	cat >repo/briefs/landing.md <<-\EOF &&
	# Landing page

	Build a landing page for a bakery: hero, menu, opening hours.
	EOF
	landing_hash=$(file_sha256 repo/briefs/landing.md) &&
	cat >repo/briefs/pricing.yml <<-\EOF &&
	title: Pricing
	sections: [plans, faq]
	EOF
	pricing_raw=$(file_sha256 repo/briefs/pricing.yml) &&
	pricing_structured=$(canon_hash "{\"sections\":[\"plans\",\"faq\"],\"title\":\"Pricing\"}") &&
	echo "# Weekly eval" >repo/docs/evals/intact.md &&
	(
		cd repo &&
		write_sidecar docs/evals/intact.replay.json tokens/swiss.yml \
			briefs/landing.md &&
		git add . &&
		git commit -q -m initial
	)
'

test_expect_success 'the sidecar helper records the independently computed hashes' '
	test_grep "\"hash\": \"$swiss_hash\"" repo/docs/evals/intact.replay.json &&
	test_grep "\"hash\": \"$landing_hash\"" repo/docs/evals/intact.replay.json
'

test_expect_success 'an intact report: token and markdown brief' '
	{
		header docs/evals/intact.md docs/evals/intact.replay.json &&
		cat <<-\EOF
		  ok    token hash matches
		  ok    brief hash matches

		verdict: replay inputs intact
		EOF
	} >expect &&
	(cd repo && ahd-replay verify docs/evals/intact.md) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'verify-replay is an alias of verify' '
	(cd repo && ahd-replay verify docs/evals/intact.md) >expect &&
	(cd repo && ahd-replay verify-replay docs/evals/intact.md) >actual &&
	test_cmp expect actual
'

test_expect_success 'the sidecar path as the operand: shown as given' '
	{
		header docs/evals/intact.replay.json docs/evals/intact.replay.json &&
		cat <<-\EOF
		  ok    token hash matches
		  ok    brief hash matches

		verdict: replay inputs intact
		EOF
	} >expect &&
	(cd repo && ahd-replay verify docs/evals/intact.replay.json) >actual &&
	test_cmp expect actual
'

test_expect_success 'a report path without .md names PATH.replay.json' '
	(cd repo && ahd-replay verify docs/evals/intact) >actual &&
	test_grep "^replay: docs/evals/intact\.replay\.json$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'the output does not depend on the current directory' '
	(cd repo/docs && ahd-replay verify evals/intact.md) >actual &&
	test_grep "^ahd verify-replay .* evals/intact\.md$" actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	(cd / && ahd-replay verify "$TRASH_DIRECTORY/repo/docs/evals/intact.md") >actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'setup: a token committed, then changed by a later commit' '
	(
		cd repo &&
		printf "name: drift\nsize: 10\n" >tokens/drift.yml &&
		git add tokens/drift.yml &&
		test_tick &&
		git commit -q -m "add the drift token" &&
		write_sidecar docs/evals/token-drift.replay.json \
			tokens/drift.yml briefs/landing.md &&
		printf "name: drift\nsize: 11\n" >tokens/drift.yml &&
		git add tokens/drift.yml &&
		test_tick &&
		git commit -q -m "grow the drift token" &&
		echo "# Token drift" >docs/evals/token-drift.md
	) &&
	drift_old=$(canon_hash "{\"name\":\"drift\",\"size\":10}") &&
	drift_new=$(canon_hash "{\"name\":\"drift\",\"size\":11}") &&
	drift_had=$(described HEAD~1) &&
	drift_changed=$(described HEAD)
'

test_expect_success 'a drifted token: FAIL with expected and actual, the commits, exit 1' '
	{
		header docs/evals/token-drift.md docs/evals/token-drift.replay.json &&
		cat <<-EOF
		  FAIL  token: token contents have changed since the run; re-hash differs
		        expected $drift_old
		        actual   $drift_new
		  ok    brief hash matches

		  note: token: tokens/drift.yml last had the recorded hash at $drift_had; changed by $drift_changed

		verdict: drift detected
		EOF
	} >expect &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/token-drift.md) \
		>actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'setup: a committed brief edited in the work tree, and a broken one' '
	(
		cd repo &&
		printf "Make a page for a bakery.\n" >briefs/drift.md &&
		git add briefs/drift.md &&
		test_tick &&
		git commit -q -m "add the drift brief" &&
		write_sidecar docs/evals/brief-drift.replay.json \
			tokens/swiss.yml briefs/drift.md &&
		printf "Make a page for a florist.\n" >briefs/drift.md &&
		printf "# Not YAML\n\nhours: [9, 17\n" >briefs/broken.md &&
		write_sidecar --brief-hash=$landing_hash \
			docs/evals/brief-broken.replay.json \
			tokens/swiss.yml briefs/broken.md
	) &&
	brief_old=$(printf "Make a page for a bakery.\n" | test_sha256 -) &&
	brief_new=$(canon_hash "\"Make a page for a florist.\"") &&
	brief_committed=$(described HEAD)
'

test_expect_success 'a drifted brief: neither raw-bytes nor canonical-YAML hash matches' '
	{
		header docs/evals/brief-drift.replay.json docs/evals/brief-drift.replay.json &&
		cat <<-EOF
		  ok    token hash matches
		  FAIL  brief: brief contents have changed since the run (neither raw-bytes nor canonical-YAML hash matches)
		        expected sha256:$brief_old
		        actual   $brief_new

		  note: brief: the committed briefs/drift.md at $brief_committed has the recorded hash; the change is not committed

		verdict: drift detected
		EOF
	} >expect &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/brief-drift.replay.json) \
		>actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'a drifted brief that is not YAML: FAIL, exit 1' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/brief-broken.replay.json) \
		>actual 2>err &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep "^  FAIL  brief: " actual &&
	test_grep "^        expected $landing_hash$" actual &&
	test_grep "^verdict: drift detected$" actual &&
	test_must_be_empty err
'

# Since "verify: memoise roots by directory and hashes by file or blob",
test_expect_success 'a drifted brief that is not YAML: the reason says so' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/brief-broken.replay.json) \
		>actual &&
	test_grep "^  FAIL  brief: brief is not valid YAML and the raw-bytes hash does not match: ." actual
'

test_expect_success 'a missing token: not found at its absolute path, exit 1' '
	(
		cd repo &&
		cp tokens/swiss.yml tokens/gone.yml &&
		git add tokens/gone.yml &&
		test_tick &&
		git commit -q -m "add the gone token" &&
		write_sidecar docs/evals/gone.replay.json tokens/gone.yml \
			briefs/landing.md &&
		git rm -q tokens/gone.yml &&
		test_tick &&
		git commit -q -m "remove the gone token"
	) &&
	{
		header docs/evals/gone.replay.json docs/evals/gone.replay.json &&
		cat <<-EOF
		  FAIL  token: token file not found at $TRASH_DIRECTORY/repo/tokens/gone.yml
		        expected $swiss_hash
		        actual   <none>
		  ok    brief hash matches

		  note: token: tokens/gone.yml last had the recorded hash at $(described HEAD~1); changed by $(described HEAD)

		verdict: drift detected
		EOF
	} >expect &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/gone.replay.json) \
		>actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'a missing brief: not found at its absolute path, exit 1' '
	(
		cd repo &&
		write_sidecar --brief-hash=$landing_hash \
			docs/evals/gone-brief.replay.json tokens/swiss.yml briefs/gone.md
	) &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/gone-brief.replay.json) \
		>actual &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep "^  FAIL  brief: brief file not found at $TRASH_DIRECTORY/repo/briefs/gone\.md$" actual
'

test_expect_success 'a critique report (brief null): only the token line' '
	(
		cd repo &&
		write_sidecar --kind=critique --conditions="{\"requested\": [], \"effective\": []}" \
			docs/evals/critique.replay.json tokens/swiss.yml
	) &&
	{
		kind=critique header docs/evals/critique.replay.json docs/evals/critique.replay.json &&
		cat <<-\EOF
		  ok    token hash matches

		verdict: replay inputs intact
		EOF
	} >expect &&
	(cd repo && ahd-replay verify docs/evals/critique.replay.json) >actual &&
	test_cmp expect actual
'

test_expect_success 'ahd_commit null: no ahd_commit line' '
	(
		cd repo &&
		write_sidecar --commit=null --dirty=null \
			docs/evals/nocommit.replay.json tokens/swiss.yml briefs/landing.md
	) &&
	{
		header docs/evals/nocommit.replay.json docs/evals/nocommit.replay.json "" &&
		cat <<-\EOF
		  ok    token hash matches
		  ok    brief hash matches

		verdict: replay inputs intact
		EOF
	} >expect &&
	(cd repo && ahd-replay verify docs/evals/nocommit.replay.json) >actual &&
	test_cmp expect actual
'

test_expect_success 'git_dirty true: (dirty) after the commit; false and null: nothing' '
	(
		cd repo &&
		write_sidecar --dirty=true docs/evals/dirty.replay.json \
			tokens/swiss.yml briefs/landing.md &&
		write_sidecar --dirty=null docs/evals/dirtynull.replay.json \
			tokens/swiss.yml briefs/landing.md &&
		ahd-replay verify docs/evals/dirty.replay.json >../dirty.out &&
		ahd-replay verify docs/evals/dirtynull.replay.json >../dirtynull.out &&
		ahd-replay verify docs/evals/intact.md >../clean.out
	) &&
	test_grep "^  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db (dirty)$" dirty.out &&
	test_grep "^  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db$" dirtynull.out &&
	test_grep "^  ahd_commit: 905b740756a181d64097b96f42f6d9c0f52093db$" clean.out &&
	test_grep ! "dirty" clean.out
'

test_expect_success 'YAML brief, raw hash recorded: ok' '
	(
		cd repo &&
		write_sidecar docs/evals/yaml-raw.replay.json tokens/swiss.yml \
			briefs/pricing.yml &&
		ahd-replay verify docs/evals/yaml-raw.replay.json >../actual
	) &&
	test_grep "\"hash\": \"$pricing_raw\"" repo/docs/evals/yaml-raw.replay.json &&
	test_grep "^  ok    brief hash matches$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'YAML brief, structured hash recorded: raw differs, structured matches: ok' '
	(
		cd repo &&
		write_sidecar --brief-structured docs/evals/yaml-structured.replay.json \
			tokens/swiss.yml briefs/pricing.yml &&
		ahd-replay verify docs/evals/yaml-structured.replay.json >../actual
	) &&
	test_grep "\"hash\": \"$pricing_structured\"" repo/docs/evals/yaml-structured.replay.json &&
	test_grep "^  ok    brief hash matches$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'YAML brief reformatted (same value) still matches its structured hash' '
	(
		cd repo &&
		cp briefs/pricing.yml briefs/pricing2.yml &&
		write_sidecar --brief-structured docs/evals/yaml-reformat.replay.json \
			tokens/swiss.yml briefs/pricing2.yml &&
		printf "# reformatted\nsections:\n  - plans\n  - faq\ntitle: \"Pricing\"\n" \
			>briefs/pricing2.yml &&
		ahd-replay verify docs/evals/yaml-reformat.replay.json >../actual
	) &&
	test_grep "^  ok    brief hash matches$" actual
'

test_expect_success 'a token whose keys were reordered (same value): still ok' '
	(
		cd repo &&
		printf "b: 2\na: {y: [1, 2], x: null}\n" >tokens/order.yml &&
		write_sidecar docs/evals/order.replay.json tokens/order.yml &&
		printf "# comments do not count\na:\n  x: ~\n  y:\n    - 1\n    - 2\nb: 2\n" \
			>tokens/order.yml &&
		ahd-replay verify docs/evals/order.replay.json >../actual
	) &&
	test_grep "^  ok    token hash matches$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_expect_success 'a token changed in value (a reordered list) drifts' '
	(
		cd repo &&
		printf "b: 2\na: {y: [2, 1], x: null}\n" >tokens/order.yml &&
		test_expect_code 1 ahd-replay verify docs/evals/order.replay.json >../actual
	) &&
	test_grep "^  FAIL  token: token contents have changed since the run; re-hash differs$" actual
'

test_expect_success 'a token that no longer parses: FAIL, actual <none>, exit 1' '
	(
		cd repo &&
		printf "a: 1\na: 2\n" >tokens/order.yml &&
		test_expect_code 1 ahd-replay verify docs/evals/order.replay.json >../actual
	) &&
	test_grep "^  FAIL  token: " actual &&
	test_grep "^        actual   <none>$" actual &&
	test_grep "^verdict: drift detected$" actual
'

# The same lost reason as above (HASH_EINVALID taken for "the check says
# why").
test_expect_success 'a token that no longer parses: failed to parse token at <path>: <why>' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/evals/order.replay.json) >actual &&
	test_grep "^  FAIL  token: failed to parse token at $TRASH_DIRECTORY/repo/tokens/order\.yml: ." actual
'

# Several reports

test_expect_success 'setup: a second repository with three reports' '
	git init -q multi &&
	mkdir -p multi/tokens multi/docs/evals/sub multi/node_modules/pkg/docs \
		multi/vendor &&
	printf "name: a\n" >multi/tokens/a.yml &&
	printf "name: b\n" >multi/tokens/b.yml &&
	(
		cd multi &&
		write_sidecar --kind=critique docs/evals/one.replay.json tokens/a.yml &&
		write_sidecar --kind=critique docs/evals/sub/two.replay.json tokens/b.yml &&
		write_sidecar --kind=critique vendor/three.replay.json tokens/a.yml &&
		echo "# one" >docs/evals/one.md &&
		echo "# two" >docs/evals/sub/two.md &&
		printf "{" >node_modules/pkg/docs/bad.replay.json &&
		printf "{" >.git/bad.replay.json &&
		printf "{" >.git/info/bad.replay.json &&
		git add . && git commit -q -m reports
	)
'

test_expect_success 'no operand: every sidecar of the repository, sorted, with a summary' '
	{
		kind=critique header docs/evals/one.md docs/evals/one.replay.json &&
		cat <<-\EOF &&
		  ok    token hash matches

		verdict: replay inputs intact

		EOF
		kind=critique header docs/evals/sub/two.md docs/evals/sub/two.replay.json &&
		cat <<-\EOF &&
		  ok    token hash matches

		verdict: replay inputs intact

		EOF
		kind=critique header vendor/three.replay.json vendor/three.replay.json &&
		cat <<-\EOF
		  ok    token hash matches

		verdict: replay inputs intact

		3 reports: 3 intact, 0 drifted, 0 errors
		EOF
	} >expect &&
	(cd multi && ahd-replay verify) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success '--all is the same; sidecars under .git and node_modules are not read' '
	(cd multi && ahd-replay verify --all) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	test_grep ! node_modules actual &&
	test_grep ! "\.git" actual
'

test_expect_success 'no operand in a subdirectory still covers the whole repository' '
	(cd multi/docs/evals/sub && ahd-replay verify) >actual 2>err &&
	test_grep "^3 reports: 3 intact, 0 drifted, 0 errors$" actual &&
	test_grep "one\.md$" actual &&
	test_grep "three\.replay\.json$" actual &&
	test_must_be_empty err
'

test_expect_success 'a directory operand: the sidecars below it' '
	(cd multi && ahd-replay verify docs) >actual &&
	test_grep "^ahd verify-replay .* docs/evals/one\.md$" actual &&
	test_grep "^ahd verify-replay .* docs/evals/sub/two\.md$" actual &&
	test_grep ! three actual &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors$" actual &&
	(cd multi && ahd-replay verify docs/evals/sub) >actual &&
	test_grep "^ahd verify-replay .* docs/evals/sub/two\.md$" actual &&
	test_grep ! "reports:" actual
'

# An empty run is an error unless --allow-empty (t7040): a job pointed at
# the wrong directory must not pass.
test_expect_success 'a directory without sidecars: 0 reports, exit 0 with --allow-empty' '
	mkdir -p multi/empty &&
	echo "0 reports: 0 intact, 0 drifted, 0 errors" >expect &&
	(cd multi && ahd-replay verify --allow-empty empty) >actual &&
	test_cmp expect actual &&
	(cd multi && test_expect_code 2 ahd-replay verify empty) >actual &&
	test_cmp expect actual
'

test_expect_success 'a repository without sidecars: 0 reports, a notice, exit 0 with --allow-empty' '
	git init -q nosidecars &&
	echo "# readme" >nosidecars/README.md &&
	echo "0 reports: 0 intact, 0 drifted, 0 errors" >expect &&
	(cd nosidecars && ahd-replay verify --allow-empty) >actual 2>err &&
	test_cmp expect actual &&
	test_grep "no replay sidecars found" err &&
	(cd nosidecars && ahd-replay verify --all --allow-empty --format=github) >actual &&
	test_cmp expect actual
'

test_expect_success 'several operands: each verified in order, then the summary' '
	(cd multi && ahd-replay verify vendor/three.replay.json docs/evals/one.md) >actual &&
	grep "^ahd verify-replay" actual >heads &&
	printf "ahd verify-replay \302\267 %s\n" vendor/three.replay.json docs/evals/one.md >expect &&
	test_cmp expect heads &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors$" actual
'

test_expect_success 'one drifted report among three: exit 1' '
	printf "name: b2\n" >multi/tokens/b.yml &&
	(cd multi && test_expect_code 1 ahd-replay verify) >actual 2>err &&
	test_grep "^3 reports: 2 intact, 1 drifted, 0 errors$" actual &&
	test_grep "^verdict: drift detected$" actual &&
	test_must_be_empty err
'

test_expect_success 'an unusable sidecar among them: exit 2, the others still verified' '
	printf "{\"schema_version\": 1" >multi/docs/evals/broken.replay.json &&
	(cd multi && test_expect_code 2 ahd-replay verify) >actual 2>err &&
	test_grep "^4 reports: 2 intact, 1 drifted, 1 error" actual &&
	test_grep "^ahd-replay: docs/evals/broken\.replay\.json: invalid JSON" err &&
	test_line_count = 1 err
'

test_expect_success 'a string holding \u0000 is refused as unsupported, not compared' '
	mkdir nul &&
	printf "{\"schema_version\": 1, \"kind\": \"eval-live\\\\u0000x\"}" >nul/n.replay.json &&
	test_expect_code 2 ahd-replay verify nul/n.replay.json >actual 2>err &&
	test_grep "n\.replay\.json: unsupported: a string holding .u0000" err
'

test_expect_success 'exit status 2 wins over 1 whatever the order' '
	(cd multi && test_expect_code 2 ahd-replay verify \
		docs/evals/broken.replay.json docs/evals/sub/two.md) >/dev/null 2>&1 &&
	(cd multi && test_expect_code 2 ahd-replay verify \
		docs/evals/sub/two.md docs/evals/broken.replay.json) >/dev/null 2>&1
'

test_expect_success '--quiet: one intact report prints nothing' '
	(cd multi && ahd-replay verify --quiet docs/evals/one.md) >actual 2>err &&
	test_must_be_empty actual &&
	test_must_be_empty err
'

test_expect_success '--quiet: only failures and the summary' '
	rm multi/docs/evals/broken.replay.json &&
	(cd multi && test_expect_code 1 ahd-replay verify --quiet) >actual 2>err &&
	test_grep ! "docs/evals/one" actual &&
	test_grep ! "three" actual &&
	test_grep "^ahd verify-replay .* docs/evals/sub/two\.md$" actual &&
	test_grep "^  FAIL  token: token contents have changed" actual &&
	test_grep "^3 reports: 2 intact, 1 drifted, 0 errors$" actual &&
	test_must_be_empty err
'

test_expect_success '-q is --quiet' '
	(cd multi && test_expect_code 1 ahd-replay verify --quiet) >expect &&
	(cd multi && test_expect_code 1 ahd-replay verify -q) >actual &&
	test_cmp expect actual
'

# With --quiet, the first thing printed is the first failure (or the
# summary): no blank separator for the intact reports left out.
test_expect_success '--quiet output does not start with a blank line' '
	{
		kind=critique header docs/evals/sub/two.md docs/evals/sub/two.replay.json &&
		cat <<-EOF
		  FAIL  token: token contents have changed since the run; re-hash differs
		        expected $(canon_hash "{\"name\":\"b\"}")
		        actual   $(canon_hash "{\"name\":\"b2\"}")

		  note: token: the committed tokens/b.yml at $(described HEAD multi) has the recorded hash; the change is not committed

		verdict: drift detected

		3 reports: 2 intact, 1 drifted, 0 errors
		EOF
	} >expect &&
	(cd multi && test_expect_code 1 ahd-replay verify --quiet) >actual &&
	test_cmp expect actual
'

test_expect_success '--quiet with every report intact prints only the summary line' '
	printf "name: b\n" >multi/tokens/b.yml &&
	echo "3 reports: 3 intact, 0 drifted, 0 errors" >expect &&
	(cd multi && ahd-replay verify --quiet) >actual &&
	test_cmp expect actual
'

test_expect_success 'a missing sidecar first: the output does not start with a blank line' '
	(cd multi && test_expect_code 2 ahd-replay verify docs/evals/nothing.md \
		docs/evals/one.md) >actual 2>err &&
	head -n 1 actual >first &&
	test_grep "^ahd verify-replay" first
'

test_expect_success 'setup: restore the drifted token' '
	printf "name: b\n" >multi/tokens/b.yml &&
	(cd multi && ahd-replay verify >/dev/null)
'

test_expect_success 'a missing sidecar: exit 2, no replay sidecar found at' '
	(cd multi && test_expect_code 2 ahd-replay verify docs/evals/nothing.md) \
		>actual 2>err &&
	test_grep "^ahd-replay: docs/evals/nothing\.replay\.json: no replay sidecar found at docs/evals/nothing\.replay\.json$" err &&
	test_line_count = 1 err
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 ahd-replay verify --format=xml multi >out 2>err &&
	test_must_be_empty out &&
	test_grep "unknown --format" err &&
	test_expect_code 2 ahd-replay verify --frobnicate >out 2>err &&
	test_must_be_empty out &&
	test_grep "usage: ahd-replay verify" err
'

test_expect_success 'verify -h prints the usage on stdout and exits 0' '
	ahd-replay verify -h >out 2>err &&
	test_grep "^usage: ahd-replay verify " out &&
	test_must_be_empty err &&
	ahd-replay help verify >out2 &&
	test_cmp out out2
'

# Root discovery (SPEC section 5)

test_expect_success 'setup: an ahd checkout inside a larger repository' '
	git init -q outer &&
	mkdir -p outer/tokens outer/ahd/tokens outer/ahd/docs/evals &&
	printf "name: outer\n" >outer/tokens/x.yml &&
	printf "name: inner\n" >outer/ahd/tokens/x.yml &&
	cat >outer/ahd/package.json <<-\EOF &&
	{
	  "name": "@adastracomputing/ahd",
	  "version": "0.11.0"
	}
	EOF
	(
		cd outer/ahd &&
		write_sidecar --kind=critique docs/evals/r.replay.json tokens/x.yml
	) &&
	echo "# r" >outer/ahd/docs/evals/r.md
'

test_expect_success 'package.json named @adastracomputing/ahd above the report wins over the git top' '
	(cd outer && ahd-replay verify ahd/docs/evals/r.md) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	(cd / && ahd-replay verify "$TRASH_DIRECTORY/outer/ahd/docs/evals/r.md") >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	ahd-replay verify --format=json outer/ahd/docs/evals/r.md >actual.json &&
	test_grep "\"root\": \"$TRASH_DIRECTORY/outer/ahd\"" actual.json &&
	test_grep "\"root_from\": \"package.json\"" actual.json
'

test_expect_success 'a package.json with another name is not a root' '
	sed "s|@adastracomputing/ahd|@someone/else|" outer/ahd/package.json >pkg &&
	mv pkg outer/ahd/package.json &&
	(cd outer && test_expect_code 1 ahd-replay verify ahd/docs/evals/r.md) >actual &&
	test_grep "^  FAIL  token: token contents have changed" actual &&
	test_expect_code 1 ahd-replay verify --format=json outer/ahd/docs/evals/r.md \
		>actual.json &&
	test_grep "\"root_from\": \"git work tree\"" actual.json
'

test_expect_success 'without package.json, the top of the git work tree' '
	rm outer/ahd/package.json &&
	test_expect_code 1 ahd-replay verify --format=json outer/ahd/docs/evals/r.md >actual.json &&
	test_grep "\"root\": \"$TRASH_DIRECTORY/outer\"" actual.json &&
	test_grep "\"root_from\": \"git work tree\"" actual.json
'

test_expect_success '--root DIR overrides discovery' '
	(cd outer && ahd-replay verify --root=ahd ahd/docs/evals/r.md) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	(cd outer && ahd-replay verify --root ahd ahd/docs/evals/r.md) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	ahd-replay verify --format=json --root=outer/ahd outer/ahd/docs/evals/r.md >actual.json &&
	test_grep "\"root_from\": \"--root\"" actual.json
'

test_expect_success '--root that does not exist: exit 2' '
	test_expect_code 2 ahd-replay verify --root=nowhere outer/ahd/docs/evals/r.md \
		>out 2>err &&
	cat out err >all &&
	test_grep "nowhere" all
'

test_expect_success 'package.json up to 8 levels above the report directory' '
	mkdir -p deep/a/b/c/d/e/f/g/h deep/tokens &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >deep/package.json &&
	printf "name: deep\n" >deep/tokens/x.yml &&
	(cd deep && write_sidecar --kind=critique a/b/c/d/e/f/g/r.replay.json tokens/x.yml) &&
	cp deep/a/b/c/d/e/f/g/r.replay.json deep/a/b/c/d/e/f/g/h/r.replay.json &&
	ahd-replay verify --format=json deep/a/b/c/d/e/f/g/r.replay.json >near.json &&
	test_grep "\"root_from\": \"package.json\"" near.json &&
	test_must_fail ahd-replay verify --format=json deep/a/b/c/d/e/f/g/h/r.replay.json \
		>far.json &&
	test_grep ! "\"root_from\": \"package.json\"" far.json
'

test_lazy_prereq NOT_IN_A_REPOSITORY '
	! git -C "$TRASH_DIRECTORY" rev-parse --git-dir
'

test_expect_success NOT_IN_A_REPOSITORY 'outside any git repository the root is the current directory' '
	mkdir -p plain/tokens plain/reports/x &&
	printf "name: plain\n" >plain/tokens/p.yml &&
	(cd plain && write_sidecar --kind=critique reports/x/r.replay.json tokens/p.yml) &&
	(cd plain && ahd-replay verify reports/x/r.replay.json) >actual &&
	test_grep "^  ok    token hash matches$" actual &&
	(cd plain/reports && test_expect_code 1 ahd-replay verify x/r.replay.json) >actual &&
	test_grep "^  FAIL  token: token file not found at $TRASH_DIRECTORY/plain/reports/tokens/p\.yml$" actual &&
	(cd plain/reports && ahd-replay verify --format=json --root=.. x/r.replay.json) >actual.json &&
	test_grep "\"root_from\": \"--root\"" actual.json
'

test_expect_success NOT_IN_A_REPOSITORY 'outside a repository, no operand verifies the current directory' '
	(cd plain && ahd-replay verify) >actual &&
	test_grep "^ahd verify-replay .* reports/x/r\.replay\.json$" actual &&
	test_grep "^verdict: replay inputs intact$" actual
'

test_done
