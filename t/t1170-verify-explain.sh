#!/bin/sh

test_description='verify --explain: what changed in a drifted input

The version with the recorded hash is found in the history; a token is
compared as canonical values (JSON Pointer paths changed, added,
removed, bounded), a markdown brief as a unified diff (bounded, and
checked by applying it with patch(1)).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq PATCH 'patch --version'

test_expect_success 'setup: a token and a brief, committed, then changed' '
	git init -q repo &&
	mkdir repo/tokens repo/briefs repo/docs &&
	cat >repo/tokens/t.yml <<-\EOF &&
	color:
	  accent: "#1a1a1a"
	  muted: "#999"
	"a/b~c": 1
	spacing: [1, 2, 3]
	EOF
	printf "# Brief\n\nline a\nline b\nline c\n" >repo/briefs/b.md &&
	(cd repo && write_sidecar docs/r.replay.json tokens/t.yml briefs/b.md) &&
	git -C repo add . && test_tick && git -C repo commit -q -m "run" &&
	cat >repo/tokens/t.yml <<-\EOF &&
	# a comment changes nothing
	color:
	  accent: "#222"
	  border: 2
	"a/b~c": 2
	spacing: [1, 5]
	EOF
	printf "# Brief\n\nline a\nline B\nline c\nline d\n" >repo/briefs/b.md &&
	test_tick && git -C repo commit -q -am "change both"
'

test_expect_success '--explain names the changed, added and removed keys' '
	(cd repo && test_expect_code 1 ahd-replay verify --explain docs/r.md) >actual &&
	from=$(git -C repo rev-parse HEAD~1 | cut -c1-12) &&
	cat >expect <<-EOF &&
	        changes from $from:
	          changed  /a~1b~0c: 1 -> 2
	          changed  /color/accent: "#1a1a1a" -> "#222"
	          added    /color/border: 2
	          removed  /color/muted: "#999"
	          changed  /spacing/1: 2 -> 5
	          removed  /spacing/2: 3
	EOF
	sed -n "/changes from/,/removed  \/spacing\/2/p" actual >got &&
	test_cmp expect got
'

test_expect_success '--explain: a markdown brief as a unified diff' '
	from=$(git -C repo rev-parse HEAD~1 | cut -c1-12) &&
	cat >expect <<-EOF &&
	        diff from $from:
	          @@ -1,5 +1,6 @@
	           # Brief
	           
	           line a
	          -line b
	          +line B
	           line c
	          +line d
	EOF
	sed -n "/diff from/,/^$/p" actual | sed "\$d" >got &&
	test_cmp expect got
'

test_expect_success PYTHON3 '--explain in --format=json' '
	(cd repo && test_expect_code 1 ahd-replay verify --explain --format=json docs/r.md) >out.json &&
	python3 -c "
import json
d = json.load(open(\"out.json\"))
t, b = d[\"reports\"][0][\"checks\"]
e = t[\"explain\"]
assert e[\"kind\"] == \"structured\", e
assert {\"op\": \"changed\", \"path\": \"/color/accent\", \"old\": \"\\\"#1a1a1a\\\"\", \"new\": \"\\\"#222\\\"\"} in e[\"changes\"], e
assert {\"op\": \"added\", \"path\": \"/color/border\", \"new\": \"2\"} in e[\"changes\"], e
assert {\"op\": \"removed\", \"path\": \"/color/muted\", \"old\": \"\\\"#999\\\"\"} in e[\"changes\"], e
assert e[\"more\"] == 0
assert b[\"explain\"][\"kind\"] == \"text\" and \"+line d\" in b[\"explain\"][\"diff\"], b
"
'

test_expect_success 'without --explain, nothing of it' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/r.md) >actual &&
	test_grep ! "changes from" actual &&
	(cd repo && test_expect_code 1 ahd-replay verify --format=json docs/r.md) >out.json &&
	test_grep ! "\"explain\"" out.json
'

test_expect_success 'many changes are bounded, with a count of the rest' '
	for i in $(seq 1 30)
	do
		echo "k$i: $i" || return 1
	done >repo/tokens/t.yml &&
	(cd repo && write_sidecar docs/many.replay.json tokens/t.yml) &&
	git -C repo add . && test_tick && git -C repo commit -q -m many &&
	for i in $(seq 1 30)
	do
		echo "k$i: x$i" || return 1
	done >repo/tokens/t.yml &&
	(cd repo && test_expect_code 1 ahd-replay verify --explain docs/many.replay.json) >actual &&
	test_grep -c "^          changed  /k" actual >n &&
	echo 20 >expect && test_cmp expect n &&
	test_grep "^          \.\.\. 10 more changes$" actual
'

test_expect_success 'a value that is not a mapping is compared whole' '
	echo "just a string" >repo/tokens/s.yml &&
	(cd repo && write_sidecar docs/s.replay.json tokens/s.yml) &&
	git -C repo add . && test_tick && git -C repo commit -q -m s &&
	echo "[1]" >repo/tokens/s.yml &&
	(cd repo && test_expect_code 1 ahd-replay verify --explain docs/s.replay.json) >actual &&
	test_grep "^          changed  (the whole value): \"just a string\" -> \[1\]$" actual
'

test_expect_success 'a hash that never occurs in the history is said' '
	(cd repo && write_sidecar --token-hash=sha256:$(printf x | sha256sum | cut -c1-64) docs/never.replay.json tokens/s.yml) &&
	(cd repo && test_expect_code 1 ahd-replay verify --explain docs/never.replay.json) >actual &&
	test_grep "^        cannot explain: no version in the history has the recorded hash$" actual
'

test_expect_success 'control characters in keys do not reach the terminal' '
	printf "\"a\\\\u001b[31m\": 1\n" >repo/tokens/c.yml &&
	(cd repo && write_sidecar docs/c.replay.json tokens/c.yml) &&
	git -C repo add . && test_tick && git -C repo commit -q -m c &&
	printf "\"a\\\\u001b[31m\": 2\n" >repo/tokens/c.yml &&
	(cd repo && test_expect_code 1 ahd-replay verify --explain docs/c.replay.json) >actual &&
	test_grep "changed  /a\\\\x1b\[31m: 1 -> 2" actual &&
	! grep -q "$(printf "\033")" actual
'

test_expect_success PATCH 'the diffs apply: random edits of a brief, checked with patch(1)' '
	i=0 &&
	while test $i -lt 25
	do
		i=$((i + 1)) &&
		awk -v seed=$i "BEGIN { srand(seed); n = int(rand() * 30); for (j = 0; j < n; j++) print \"l\" int(rand() * 6) }" >old.md &&
		awk -v seed=$((i + 1000)) "BEGIN { srand(seed); n = int(rand() * 30); for (j = 0; j < n; j++) print \"l\" int(rand() * 6) }" >new.md &&
		cp old.md repo/briefs/r.md &&
		(cd repo && write_sidecar docs/rnd.replay.json tokens/s.yml briefs/r.md) &&
		git -C repo add . && git -C repo commit -q -m "rnd $i" &&
		cp new.md repo/briefs/r.md &&
		(cd repo && test_might_fail ahd-replay verify --explain --format=json docs/rnd.replay.json) >rnd.json &&
		python3 -c "
import json, sys
c = json.load(open(\"rnd.json\"))[\"reports\"][0][\"checks\"][1]
if c[\"ok\"]:
    sys.exit(0)
e = c[\"explain\"]
assert e[\"kind\"] == \"text\" and e[\"more_lines\"] == 0, e
open(\"p.diff\", \"w\").write(\"--- a/old.md\n+++ b/old.md\n\" + e[\"diff\"])
" &&
		if test -s p.diff
		then
			cp old.md patched.md &&
			patch -s patched.md <p.diff &&
			test_cmp new.md patched.md
		fi &&
		rm -f p.diff || return 1
	done
'

test_expect_success 'a NUL in a markdown brief: shown escaped, kept in JSON' '
	printf "x\\000y\\n" >repo/briefs/nul.md &&
	(cd repo && write_sidecar docs/nul.replay.json tokens/s.yml briefs/nul.md) &&
	git -C repo add . && test_tick && git -C repo commit -q -m nul &&
	printf "x\\000z\\n" >repo/briefs/nul.md &&
	(cd repo && test_expect_code 1 ahd-replay verify --explain docs/nul.replay.json) >actual &&
	test_grep "^          -x\\\\x00y$" actual &&
	test_grep "^          +x\\\\x00z$" actual &&
	(cd repo && test_expect_code 1 ahd-replay verify --explain --format=json docs/nul.replay.json) >out.json &&
	test_grep "+x\\\\u0000z" out.json
'

test_done
