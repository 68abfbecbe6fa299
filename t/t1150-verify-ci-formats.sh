#!/bin/sh

test_description='verify, validate and log verify in the CI formats

--format=sarif (checked against the SARIF 2.1.0 schema), --format=junit
(well-formed, counted right), --output=<format>:<file> (atomic, never
over a file that is not an earlier output), --format=github (a line on
every annotation, a group per report, the job summary, the cap note).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# validate's own schema, also from an out-of-tree build
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA
SCHEMA=$TEST_SRC_DIR/t/sarif/sarif-schema-2.1.0.json
VALIDATE=$TEST_SRC_DIR/t/sarif/validate.py

test_lazy_prereq PYJSONSCHEMA 'python3 -c "import jsonschema"'

# sarif_valid FILE: FILE validates against the SARIF 2.1.0 schema.
sarif_valid () {
	python3 "$VALIDATE" "$SCHEMA" "$1"
}

# py FILE EXPR: evaluate a Python expression over the JSON in FILE (d).
py_json () {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

# line_of FILE TEXT: the first line of FILE holding TEXT.
line_of () {
	grep -n -F "$2" "$1" | head -n 1 | cut -d: -f1
}

test_expect_success 'setup: reports with every kind of finding' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "color:\n  accent: \"#1a1a1a\"\n" >repo/tokens/t.yml &&
	printf "# Brief\n\nA bakery.\n" >repo/briefs/b.md &&
	t1=$(hash_of repo/tokens/t.yml) && b1=$(hash_of --raw repo/briefs/b.md) &&
	git -C repo add . && test_tick && git -C repo commit -q -m "inputs" &&
	printf "color:\n  accent: \"#222\"\n" >repo/tokens/t.yml &&
	printf "# Brief\n\nA bakery, again.\n" >repo/briefs/b.md &&
	git -C repo add . && test_tick && git -C repo commit -q -m "token and brief move on" &&
	(
		cd repo &&
		write_sidecar docs/ok.replay.json tokens/t.yml briefs/b.md &&
		write_sidecar --token-hash=$t1 docs/tdrift.replay.json tokens/t.yml briefs/b.md &&
		write_sidecar --brief-hash=$b1 docs/bdrift.replay.json tokens/t.yml briefs/b.md &&
		write_sidecar --token-path=tokens/gone.yml docs/gone.replay.json tokens/t.yml &&
		write_sidecar --token-path=../out.yml docs/out.replay.json tokens/t.yml &&
		echo "{" >docs/broken.replay.json &&
		for n in ok tdrift bdrift gone out broken
		do
			echo "# $n" >docs/$n.md || return 1
		done &&
		echo "# orphan" >docs/orphan.md
	) &&
	git -C repo add . && test_tick && git -C repo commit -q -m "reports" &&
	(cd repo && test_expect_code 2 ahd-replay verify --require-sidecar="docs/*.md") >text &&
	test_grep "^7 reports: 1 intact, 3 drifted, 2 errors, 1 missing sidecars$" text
'

test_expect_success PYJSONSCHEMA 'the vendored schema rejects what it should' '
	echo "{\"version\": \"2.1.0\", \"runs\": [{}]}" >bad.sarif &&
	test_must_fail sarif_valid bad.sarif
'

test_expect_success PYJSONSCHEMA '--format=sarif validates, one result per finding with its rule' '
	(cd repo && test_expect_code 2 ahd-replay verify --format=sarif --require-sidecar="docs/*.md") >v.sarif &&
	sarif_valid v.sarif &&
	py_json v.sarif "sorted(r[\"ruleId\"] for r in d[\"runs\"][0][\"results\"]) == [\"brief-drift\", \"invalid-sidecar\", \"missing-input\", \"missing-sidecar\", \"outside-root\", \"token-drift\"]" &&
	py_json v.sarif "all(d[\"runs\"][0][\"tool\"][\"driver\"][\"rules\"][r[\"ruleIndex\"]][\"id\"] == r[\"ruleId\"] for r in d[\"runs\"][0][\"results\"])" &&
	py_json v.sarif "d[\"runs\"][0][\"invocations\"][0][\"exitCode\"] == 2"
'

test_expect_success PYJSONSCHEMA 'SARIF results sit on the sidecar line holding the recorded hash' '
	t=$(sed -n "s/.*\"hash\": \"\(sha256:[0-9a-f]*\)\".*/\1/p" repo/docs/tdrift.replay.json | head -n 1) &&
	b=$(sed -n "s/.*\"hash\": \"\(sha256:[0-9a-f]*\)\".*/\1/p" repo/docs/bdrift.replay.json | tail -n 1) &&
	tl=$(line_of repo/docs/tdrift.replay.json "$t") &&
	bl=$(line_of repo/docs/bdrift.replay.json "$b") &&
	test "$tl" != "$bl" &&
	py_json v.sarif "[(r[\"locations\"][0][\"physicalLocation\"][\"artifactLocation\"][\"uri\"], r[\"locations\"][0][\"physicalLocation\"][\"region\"][\"startLine\"]) for r in d[\"runs\"][0][\"results\"] if r[\"ruleId\"] in (\"token-drift\", \"brief-drift\")] == [(\"docs/bdrift.replay.json\", $bl), (\"docs/tdrift.replay.json\", $tl)]"
'

test_expect_success PYJSONSCHEMA 'fingerprints follow a finding across commits, and tell findings apart' '
	py_json v.sarif "len(set(r[\"partialFingerprints\"][\"ahdReplayFinding/v1\"] for r in d[\"runs\"][0][\"results\"])) == 6" &&
	printf "color:\n  accent: \"#333\"\n" >repo/tokens/t.yml &&
	git -C repo commit -q -am "token again" &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=sarif docs/tdrift.md) >again.sarif &&
	python3 -c "
import json
a = json.load(open(\"v.sarif\"))[\"runs\"][0][\"results\"]
b = json.load(open(\"again.sarif\"))[\"runs\"][0][\"results\"]
fa = [r[\"partialFingerprints\"] for r in a if r[\"ruleId\"] == \"token-drift\"]
fb = [r[\"partialFingerprints\"] for r in b if r[\"ruleId\"] == \"token-drift\"]
assert fa == fb, (fa, fb)
" &&
	git -C repo reset -q --hard HEAD~1
'

test_expect_success PYTHON3 '--format=junit is well-formed and counted right' '
	(cd repo && test_expect_code 2 ahd-replay verify --format=junit --require-sidecar="docs/*.md") >v.xml &&
	python3 -c "
import xml.etree.ElementTree as ET
root = ET.parse(\"v.xml\").getroot()
assert root.tag == \"testsuites\"
suite = root.find(\"testsuite\")
cases = suite.findall(\"testcase\")
n = lambda tag: sum(1 for c in cases if c.find(tag) is not None)
for el in (root, suite):
    assert int(el.get(\"tests\")) == len(cases), el.attrib
    assert int(el.get(\"failures\")) == n(\"failure\"), el.attrib
    assert int(el.get(\"errors\")) == n(\"error\"), el.attrib
    assert int(el.get(\"skipped\")) == n(\"skipped\"), el.attrib
# ok: token and brief pass; tdrift: token fails, brief passes; bdrift the
# reverse; gone: token fails; out: token errors; broken: sidecar errors;
# orphan: sidecar fails
assert len(cases) == 10, len(cases)
assert n(\"failure\") == 4 and n(\"error\") == 2, (n(\"failure\"), n(\"error\"))
f = {(c.get(\"classname\"), c.get(\"name\")): c.find(\"failure\") for c in cases}
assert f[(\"docs/tdrift.md\", \"token\")].get(\"type\") == \"token-drift\"
assert f[(\"docs/orphan.md\", \"sidecar\")].get(\"type\") == \"missing-sidecar\"
assert \"token contents have changed\" in f[(\"docs/tdrift.md\", \"token\")].text
"
'

test_expect_success PYTHON3 'junit: reports left out by --changed-since are skipped cases' '
	(cd repo && ahd-replay verify --format=junit --changed-since=HEAD docs/ok.md docs/tdrift.md) >s.xml &&
	python3 -c "
import xml.etree.ElementTree as ET
s = ET.parse(\"s.xml\").getroot().find(\"testsuite\")
assert s.get(\"tests\") == \"2\" and s.get(\"skipped\") == \"2\", s.attrib
"
'

test_expect_success PYTHON3 'junit: markup and control characters in messages are escaped' '
	mkdir -p "repo/x" &&
	(cd repo && write_sidecar --token-path="tokens/<a href=\\\"&\\\">\\u0001.yml" x/e.replay.json tokens/t.yml) &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=junit x/e.replay.json) >e.xml &&
	python3 -c "
import xml.etree.ElementTree as ET
c = ET.parse(\"e.xml\").getroot().find(\"testsuite\").find(\"testcase\")
assert \"<a href=\" in c.find(\"failure\").get(\"message\"), c.find(\"failure\").attrib
" &&
	rm -r repo/x
'

test_expect_success PYJSONSCHEMA 'validate and log verify write valid SARIF too' '
	(cd repo && test_expect_code 2 ahd-replay validate --format=sarif docs/broken.replay.json docs/ok.replay.json) >val.sarif 2>err &&
	sarif_valid val.sarif &&
	py_json val.sarif "[r[\"ruleId\"] for r in d[\"runs\"][0][\"results\"]] == [\"invalid-sidecar\"]" &&
	(cd repo && ahd-replay validate --format=sarif docs/ok.replay.json) >val-ok.sarif &&
	sarif_valid val-ok.sarif &&
	printf "{\"event\":\"ReplayHeader\",\"replay_version\":1}\nnot json\n" >log.jsonl &&
	test_expect_code 1 ahd-replay log verify --format=sarif log.jsonl >log.sarif &&
	sarif_valid log.sarif &&
	py_json log.sarif "d[\"runs\"][0][\"results\"][0][\"locations\"][0][\"physicalLocation\"][\"region\"][\"startLine\"] == 2" &&
	test_expect_code 1 ahd-replay log verify --format=junit log.jsonl >log.xml &&
	test_grep "<testsuites name=\"ahd-replay log verify\"" log.xml
'

test_expect_success PYJSONSCHEMA 'validate: a violation is located at its key' '
	sed "s/\"n\": 3/\"n\": -1/" repo/docs/ok.replay.json >neg.replay.json &&
	test_expect_code 1 ahd-replay validate --format=sarif neg.replay.json >neg.sarif &&
	sarif_valid neg.sarif &&
	l=$(line_of neg.replay.json "\"n\": -1") &&
	py_json neg.sarif "[r[\"locations\"][0][\"physicalLocation\"][\"region\"][\"startLine\"] for r in d[\"runs\"][0][\"results\"]] == [$l]"
'

test_expect_success '--output: several formats in one run, each as --format writes it' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=json \
		--output=sarif:../o.sarif --output=junit:../o.xml \
		--output=json:../o.json docs/tdrift.md docs/ok.md) >stdout.json &&
	test_cmp stdout.json o.json &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=sarif docs/tdrift.md docs/ok.md) >direct.sarif &&
	test_cmp direct.sarif o.sarif &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=junit docs/tdrift.md docs/ok.md) >direct.xml &&
	test_cmp direct.xml o.xml
'

test_expect_success '--output replaces an earlier output of ours, and nothing else' '
	(cd repo && test_expect_code 1 ahd-replay verify -q --output=sarif:../o.sarif docs/tdrift.md) >/dev/null &&
	cp repo/docs/ok.replay.json precious.json &&
	cp precious.json keep.json &&
	(cd repo && test_expect_code 2 ahd-replay verify --output=json:../precious.json docs/ok.md) >out 2>err &&
	test_grep "precious.json exists and is not an earlier json output of ahd-replay; not replaced" err &&
	test_must_be_empty out &&
	test_cmp keep.json precious.json &&
	(cd repo && test_expect_code 2 ahd-replay verify --output=sarif:../o.xml docs/ok.md) 2>err &&
	test_grep "not an earlier sarif output" err &&
	ln -s precious.json link.sarif &&
	(cd repo && test_expect_code 2 ahd-replay verify --output=sarif:../link.sarif docs/ok.md) 2>err &&
	test_grep "link.sarif exists and is not an earlier sarif output" err &&
	test -h link.sarif &&
	test_cmp keep.json precious.json &&
	(cd repo && test_expect_code 2 ahd-replay verify --output=sarif:../n.sarif --output=junit:../n.sarif docs/ok.md) 2>err &&
	test_grep "names ../n.sarif twice" err &&
	test_path_is_missing n.sarif &&
	mkdir dir.sarif &&
	(cd repo && test_expect_code 2 ahd-replay verify --output=sarif:../dir.sarif docs/ok.md) 2>err &&
	test_grep "is not a regular file" err &&
	: >empty.sarif &&
	(cd repo && ahd-replay verify --output=sarif:../empty.sarif docs/ok.md) >/dev/null &&
	test_grep "\"name\": \"ahd-replay\"" empty.sarif &&
	test_expect_code 2 ahd-replay verify --output=yaml:x docs/ok.md 2>err &&
	test_grep "unknown format .yaml." err &&
	test_expect_code 2 ahd-replay log verify --output=json:x log.jsonl 2>err &&
	test_grep "log verify writes json to stdout only" err
'

test_expect_success '--output leaves no temporary file behind' '
	mkdir outdir &&
	(cd repo && ahd-replay verify --output=junit:../outdir/fresh.xml docs/ok.md) >/dev/null &&
	ls -A outdir >after &&
	echo fresh.xml >expect &&
	test_cmp expect after
'

test_expect_success '--format=github: a line on every annotation and a group per report' '
	(cd repo && test_expect_code 2 ahd-replay verify --format=github --require-sidecar="docs/*.md") >gh &&
	test_grep -c "^::group::" gh >groups && echo 7 >seven && test_cmp seven groups &&
	test_grep -c "^::endgroup::$" gh >ends && test_cmp seven ends &&
	test_grep "^::error " gh >annotations &&
	test_grep ! -v ",line=[1-9][0-9]*,title=" annotations &&
	test_grep "^::error file=docs/orphan.md,line=1,title=replay missing sidecar::" gh
'

test_expect_success '--format=github: GITHUB_STEP_SUMMARY gets a row per report, appended' '
	echo "earlier step" >summary.md &&
	(cd repo && GITHUB_STEP_SUMMARY=../summary.md test_expect_code 2 ahd-replay verify --format=github) >gh &&
	test_grep "^earlier step$" summary.md &&
	test_grep "^### ahd-replay verify$" summary.md &&
	test_grep "^| report | result | token | brief | notes |$" summary.md &&
	test_grep -c "^| docs" summary.md >rows && echo 6 >six && test_cmp six rows &&
	test_grep -F "| docs/ok\\.md | intact | ok | ok |  |" summary.md &&
	test_grep -F "| docs/tdrift\\.md | drifted | drift | ok | token\\: tokens/t\\.yml last had the recorded hash at " summary.md &&
	test_grep -F "\\\"token and brief move on\\\"\\) |" summary.md
'

test_expect_success '--format=github: the summary is inert markdown' '
	mkdir -p "repo/y" &&
	(cd repo && write_sidecar --token-path="tokens/[x](http://evil)<img>|.yml" "y/e.replay.json" tokens/t.yml) &&
	(cd repo && GITHUB_STEP_SUMMARY=../s2.md test_expect_code 1 ahd-replay verify --format=github y/e.replay.json) >/dev/null &&
	test_grep ! "\[x\](http" s2.md &&
	test_grep ! "<img>" s2.md &&
	test_grep "\\\\\\[x\\\\\\]\\\\(http" s2.md &&
	rm -r repo/y
'

test_expect_success '--format=github: more errors than GitHub shows are said to be capped' '
	mkdir -p repo/many &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12
	do
		(cd repo && write_sidecar --token-path=tokens/none$i.yml many/r$i.replay.json tokens/t.yml) || return 1
	done &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=github many) >gh &&
	test_grep "^ahd-replay: 12 error annotations; GitHub shows the first 10 of a step" gh &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=github many/r1.replay.json) >gh1 &&
	test_grep ! "GitHub shows" gh1 &&
	rm -r repo/many
'

test_expect_success 'log verify --format=github: a line on each, and the cap said' '
	{
		echo "{\"event\":\"ReplayHeader\",\"replay_version\":1}" &&
		for i in 1 2 3 4 5 6 7 8 9 10 11 12
		do
			echo "not json $i" || return 1
		done
	} >many.jsonl &&
	test_expect_code 1 ahd-replay log verify --format=github many.jsonl >gh &&
	test_grep -c "^::error file=many.jsonl,line=[0-9]*,title=replay log json::" gh >n &&
	echo 12 >expect && test_cmp expect n &&
	test_grep "^ahd-replay: 12 error annotations; GitHub shows the first 10 of a step" gh
'

test_expect_success '--format=github: a name cannot start a workflow command' '
	mkdir -p repo/z &&
	nl="
" &&
	(cd repo && write_sidecar --token-path=tokens/t.yml "z/a${nl}::error::x.replay.json" tokens/t.yml) &&
	(cd repo && ahd-replay verify --format=github "z/a${nl}::error::x.replay.json") >gh &&
	test_grep ! "^::error::x" gh &&
	rm -r repo/z
'

test_done
