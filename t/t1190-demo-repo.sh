#!/bin/sh

test_description='the demo repository of examples/make-demo-repo.sh

Builds the bundled example repository into the trash directory and checks,
with `ahd-replay hash` and git, that it holds what examples/README.md
promises: intact reports whose sidecars pin the inputs in the work tree,
one sidecar recorded on CI with absolute paths, one report whose token was
edited after its run, rendered markdown blocks, and reproducible commits.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-repo.sh
demo_src=$TEST_SRC_DIR/examples/demo
evals=demo/docs/evals
ci_prefix=/home/runner/work/ahd/ahd/

# input_field SIDECAR token|brief path|hash: a field of the sidecar's
# token or brief object, from the JSON.stringify(v, null, 2) layout.
input_field () {
	awk -v sect="$2" -v key="$3" '
		$0 == "  \"" sect "\": {" { inside = 1; next }
		inside && /^  }/ { exit }
		inside && $1 == "\"" key "\":" {
			v = $2; sub(/^"/, "", v); sub(/",?$/, "", v); print v; exit
		}
	' "$1"
}

# top_field SIDECAR KEY: a top-level scalar, as its JSON text.
top_field () {
	sed -n "s/^  \"$2\": \\(.*\\),\$/\\1/p" "$1"
}

# expect_hash_line SIDECAR token|brief FILE: what `ahd-replay hash` prints
# for FILE if the sidecar's recorded hash matches it.
expect_hash_line () {
	printf '%s  %s\n' "$(input_field "$1" "$2" hash)" "$3"
}

# check_intact SIDECAR: token and brief (if any) hash as recorded, under
# their recorded paths with the CI prefix removed: token structured,
# brief raw and else structured, as verify checks them.
check_intact () {
	check_sc_=$evals/$1.replay.json &&
	check_tok_=$(input_field "$check_sc_" token path) &&
	check_tok_=${check_tok_#"$ci_prefix"} &&
	expect_hash_line "$check_sc_" token "$check_tok_" >expect &&
	(cd demo && ahd-replay hash "$check_tok_") >actual &&
	test_cmp expect actual &&
	if test "$(top_field "$check_sc_" brief)" = null
	then
		return 0
	fi &&
	check_brief_=$(input_field "$check_sc_" brief path) &&
	check_brief_=${check_brief_#"$ci_prefix"} &&
	expect_hash_line "$check_sc_" brief "$check_brief_" >expect &&
	(cd demo && ahd-replay hash --raw "$check_brief_") >raw &&
	(cd demo && ahd-replay hash "$check_brief_") >structured &&
	if ! cmp -s expect raw
	then
		test_cmp expect structured
	fi
}

reports='2026-07-28-swiss-editorial-landing
2026-08-03-swiss-editorial-landing
2026-08-04-brutalist-grid-pricing
critique/2026-08-05-brutalist-grid
2026-08-06-swiss-editorial-pricing
weekly/2026-08-10'

test_expect_success 'setup: build the demo repository' '
	sh "$make_demo" demo >out 2>err &&
	test_line_count = 1 out &&
	test_grep "^make-demo-repo: built .*/demo: 11 commits, 6 reports" out &&
	test_must_be_empty err
'

test_expect_success 'the repository is committed, clean, with fixed identities' '
	git -C demo status --porcelain >status &&
	test_must_be_empty status &&
	git -C demo rev-list --count HEAD >count &&
	echo 11 >expect &&
	test_cmp expect count &&
	git -C demo log --format="%an <%ae> %cn %ad" --date=iso >log &&
	test_grep "^ahd-ci\\[bot\\] <ci@adastra.example> ahd-ci\\[bot\\] 2026-08-10 05:19:00 +0200$" log &&
	test_grep "^Mara Lindqvist <mara@adastra.example> Mara Lindqvist 2026-07-20 09:12:00 +0200$" log
'

test_expect_success 'package.json names the reference, version 0.11.0' '
	test_grep "\"name\": \"@adastracomputing/ahd\"" demo/package.json &&
	test_grep "\"version\": \"0.11.0\"" demo/package.json
'

test_expect_success 'the inputs in the work tree are those of examples/demo' '
	for f in tokens/swiss-editorial.yml tokens/brutalist-grid.yml \
		briefs/landing.yml briefs/pricing.md
	do
		test_cmp "$demo_src/$f" "demo/$f" || return 1
	done
'

test_expect_success 'every report has a sidecar and a rendered block' '
	(cd demo && find docs/evals -name "*.md" | sort) >actual &&
	printf "docs/evals/%s.md\n" $reports | sort >expect &&
	test_cmp expect actual &&
	for r in $reports
	do
		test_path_is_file "$evals/$r.replay.json" &&
		test_grep -x "\`\`\`yaml ahd-replay" "$evals/$r.md" &&
		test_grep -x "Replay this run:" "$evals/$r.md" || return 1
	done
'

test_expect_success 'building again gives the same commits' '
	sh "$make_demo" again >out 2>err &&
	git -C demo rev-parse HEAD >expect &&
	git -C again rev-parse HEAD >actual &&
	test_cmp expect actual
'

test_expect_success 'a directory that is not empty is refused' '
	mkdir full &&
	: >full/keep &&
	test_expect_code 2 sh "$make_demo" full >out 2>err &&
	test_grep "not empty" err &&
	test_path_is_file full/keep &&
	test_path_is_missing full/.git
'

test_expect_success NODE 'sidecars are written as JSON.stringify(v, null, 2) + "\n"' '
	for r in $reports
	do
		"$NODE" -e "
			const fs = require(\"fs\");
			const s = fs.readFileSync(process.argv[1], \"utf8\");
			const v = JSON.parse(s);
			if (JSON.stringify(v, null, 2) + \"\\n\" !== s) process.exit(1);
			const keys = [\"schema_version\", \"kind\", \"ahd_version\",
				\"ahd_commit\", \"git_dirty\", \"node_version\", \"platform\",
				\"invoked_at\", \"argv\", \"token\", \"brief\", \"sampling\",
				\"models\", \"conditions\"];
			if (Object.keys(v).join() !== keys.join()) process.exit(1);
		" "$evals/$r.replay.json" || return 1
	done
'

for r in 2026-08-03-swiss-editorial-landing 2026-08-04-brutalist-grid-pricing \
	critique/2026-08-05-brutalist-grid 2026-08-06-swiss-editorial-pricing
do
	test_expect_success "intact: $r" '
		check_intact '"$r"'
	'
done

test_expect_success 'the YAML brief is intact by its structured hash only' '
	sc=$evals/2026-08-03-swiss-editorial-landing.replay.json &&
	expect_hash_line "$sc" brief briefs/landing.yml >expect &&
	(cd demo && ahd-replay hash --raw briefs/landing.yml) >raw &&
	(cd demo && ahd-replay hash briefs/landing.yml) >structured &&
	! cmp -s expect raw &&
	test_cmp expect structured
'

test_expect_success 'the markdown brief is intact by its raw hash' '
	sc=$evals/2026-08-04-brutalist-grid-pricing.replay.json &&
	test "$(input_field "$sc" brief path)" = briefs/pricing.md &&
	expect_hash_line "$sc" brief briefs/pricing.md >expect &&
	(cd demo && ahd-replay hash --raw briefs/pricing.md) >actual &&
	test_cmp expect actual
'

test_expect_success 'the critique has no brief' '
	sc=$evals/critique/2026-08-05-brutalist-grid.replay.json &&
	test "$(top_field "$sc" kind)" = "\"critique\"" &&
	test "$(top_field "$sc" brief)" = null
'

test_expect_success 'the CI sidecar records absolute paths, intact once re-rooted' '
	sc=$evals/weekly/2026-08-10.replay.json &&
	test "$(input_field "$sc" token path)" = "${ci_prefix}tokens/brutalist-grid.yml" &&
	test "$(input_field "$sc" brief path)" = "${ci_prefix}briefs/pricing.md" &&
	test "$(top_field "$sc" platform)" = "\"linux-x64\"" &&
	check_intact weekly/2026-08-10
'

test_expect_success 'drift: the 2026-07-28 token was edited after the run' '
	sc=$evals/2026-07-28-swiss-editorial-landing.replay.json &&
	test "$(input_field "$sc" token path)" = tokens/swiss-editorial.yml &&
	expect_hash_line "$sc" token tokens/swiss-editorial.yml >expect &&
	(cd demo && ahd-replay hash tokens/swiss-editorial.yml) >actual &&
	! cmp -s expect actual &&
	git -C demo log --format=%s -- tokens/swiss-editorial.yml >log &&
	test_line_count = 2 log &&
	test_grep "^tokens/swiss-editorial: v3" log
'

test_expect_success 'drift: its brief is still intact' '
	sc=$evals/2026-07-28-swiss-editorial-landing.replay.json &&
	expect_hash_line "$sc" brief briefs/landing.yml >expect &&
	(cd demo && ahd-replay hash briefs/landing.yml) >actual &&
	test_cmp expect actual
'

test_expect_success 'every recorded hash is the input at the recorded ahd_commit' '
	for r in $reports
	do
		sc=$evals/$r.replay.json &&
		commit=$(top_field "$sc" ahd_commit | tr -d "\"") &&
		for input in token brief
		do
			if test "$(top_field "$sc" $input)" = null
			then
				continue
			fi &&
			path=$(input_field "$sc" $input path) &&
			path=${path#"$ci_prefix"} &&
			git -C demo show "$commit:$path" >blob &&
			case $path in
			*.md) ahd-replay hash --raw blob >actual ;;
			*) ahd-replay hash blob >actual ;;
			esac &&
			expect_hash_line "$sc" $input blob >expect &&
			test_cmp expect actual || return 1
		done || return 1
	done
'

test_expect_success 'ahd_commit is the commit the report was added on top of' '
	for r in $reports
	do
		sc=$evals/$r.replay.json &&
		git -C demo log --diff-filter=A --format=%P -- "docs/evals/$r.md" >parent &&
		top_field "$sc" ahd_commit | tr -d "\"" >commit &&
		test_cmp parent commit || return 1
	done
'

test_expect_success 'blocks show the sidecar hashes, shortened' '
	for r in $reports
	do
		sc=$evals/$r.replay.json &&
		h=$(input_field "$sc" token hash) &&
		short=$(printf "%s" "$h" | cut -c1-19) &&
		test_grep -x "  hash: $short" "$evals/$r.md" || return 1
	done
'

test_expect_success 'the hand-edited block says 0.7 where its sidecar says null' '
	r=$evals/2026-08-06-swiss-editorial-pricing &&
	test_grep -x "    \"temperature\": null," $r.replay.json &&
	test_grep -x "  temperature: 0.7" $r.md &&
	git -C demo log --format=%s -- docs/evals/2026-08-06-swiss-editorial-pricing.md >log &&
	test_line_count = 2 log
'

test_lazy_prereq RENDER '
	ahd-replay render "$TRASH_DIRECTORY/$evals/weekly/2026-08-10.replay.json"
'

# The block in the report, from its opening line through the closing fence
# of the sh block, without the final newline (as render prints it).
extract_block () {
	awk '
		/^```yaml ahd-replay$/ { p = 1 }
		p { printf "%s%s", sep, $0; sep = "\n" }
		p && sh && /^```$/ { exit }
		p && /^```sh$/ { sh = 1 }
	' "$1"
}

test_expect_success RENDER 'blocks are what render prints, but for the hand edit' '
	for r in $reports
	do
		ahd-replay render "$evals/$r.replay.json" >expect &&
		extract_block "$evals/$r.md" >actual &&
		case $r in
		2026-08-06-swiss-editorial-pricing)
			! cmp -s expect actual &&
			sed "s/^  temperature: null\$/  temperature: 0.7/" expect >fixed &&
			test_cmp fixed actual ;;
		*)
			test_cmp expect actual ;;
		esac || return 1
	done
'

# Issue 11's acceptance on the demo.
test_lazy_prereq PYJSONSCHEMA 'python3 -c "import jsonschema"'

test_expect_success 'verify --explain names the changed keys of the drifted token' '
	(cd demo && test_expect_code 1 ahd-replay verify --all --explain) >actual &&
	test_grep "^          changed  /color/accent/primary: \"#e4002b\" -> \"#d0021b\"$" actual &&
	test_grep "^          added    /rules/2: " actual &&
	test_grep "^          changed  /version: 2 -> 3$" actual
'

test_expect_success PYJSONSCHEMA 'verify --format=sarif validates against the SARIF 2.1.0 schema' '
	(cd demo && test_expect_code 1 ahd-replay verify --all --format=sarif) >demo.sarif &&
	python3 "$TEST_SRC_DIR/t/sarif/validate.py" \
		"$TEST_SRC_DIR/t/sarif/sarif-schema-2.1.0.json" demo.sarif &&
	test_grep "\"ruleId\": \"token-drift\"" demo.sarif
'

test_expect_success 'verify --changed-since=HEAD~1 checks fewer reports than --all, and says so' '
	(cd demo && test_expect_code 1 ahd-replay verify --all) >all &&
	test_grep "^6 reports: 5 intact, 1 drifted, 0 errors$" all &&
	(cd demo && ahd-replay verify --changed-since=HEAD~1) >since &&
	test_grep -c "^ahd verify-replay" since >n &&
	echo 1 >one && test_cmp one n &&
	test_grep "^5 reports unchanged since HEAD~1 (merge base [0-9a-f]\{12\}) not checked$" since
'

test_done
