#!/bin/sh

test_description='the commands print through colour, hints and progress

verify colours ok, FAIL and its verdicts on a terminal (never when piped
or in a machine format); a report without a sidecar gets the hint that
names `ahd-replay backfill <report>`, a drift a pre-push refuses the one
that names `verify --explain`, each silenced by its key; backfill takes
-q and -v, and its progress line is on stderr, only on a terminal,
erased before any other line and throttled.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# validate reads the schema of the source tree (an out-of-tree build has
# none beside the binary).
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# the person's own settings stay out of these checks
unset NO_COLOR AHD_REPLAY_ADVICE

test_lazy_prereq SCRIPT '
	script -qec true /dev/null </dev/null >/dev/null
'

ESC=$(printf '\033')

# on_tty CMD: run the shell command CMD with stdin, stdout and stderr on
# a pseudo-terminal; what it printed in tty.out (carriage returns kept).
on_tty () {
	TERM=xterm script -qec "$1" /dev/null </dev/null >tty.out
}

test_expect_success 'setup: a report with its sidecar, one without, tracked' '
	git init -q -b main repo &&
	(
		cd repo &&
		mkdir -p tokens docs/evals &&
		echo "{ \"name\": \"ahd\", \"version\": \"0.11.0\" }" >package.json &&
		printf "name: swiss\ngrid: 12\n" >tokens/swiss.yml &&
		echo "# ok" >docs/evals/ok.md &&
		write_sidecar docs/evals/ok.replay.json tokens/swiss.yml &&
		cat >docs/evals/old.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-06T10:00:00Z

		- Samples per cell: **3**
		EOF
		git add -A &&
		test_tick &&
		git commit -q -m reports
	)
'

test_expect_success 'verify --color=always colours ok and the verdict' '
	(cd repo && ahd-replay verify --color=always docs/evals/ok.md >../out) &&
	test_grep "^  ${ESC}\[32mok  ${ESC}\[m  token hash matches$" out &&
	test_grep "^verdict: ${ESC}\[32mreplay inputs intact${ESC}\[m$" out
'

test_expect_success 'verify: no colour when piped, with --no-color, or in json' '
	(cd repo && TERM=xterm ahd-replay verify docs/evals/ok.md >../out) &&
	test_grep ! "$ESC" out &&
	(cd repo && ahd-replay verify --color --no-color docs/evals/ok.md >../out) &&
	test_grep ! "$ESC" out &&
	(cd repo && ahd-replay verify --format=json --color=always docs/evals/ok.md >../out) &&
	test_grep ! "$ESC" out &&
	(cd repo && ahd-replay verify --format=github docs/evals/ok.md --color=always >../out) &&
	test_grep ! "$ESC" out
'

test_expect_success SCRIPT 'verify on a terminal: colour, unless NO_COLOR or color.ui=never' '
	on_tty "cd repo && ahd-replay verify docs/evals/ok.md" &&
	test_grep "${ESC}\[32mok  " tty.out &&
	on_tty "cd repo && NO_COLOR=1 ahd-replay verify docs/evals/ok.md" &&
	test_grep ! "$ESC" tty.out &&
	git -C repo config color.ui never &&
	test_when_finished "git -C repo config --unset color.ui" &&
	on_tty "cd repo && ahd-replay verify docs/evals/ok.md" &&
	test_grep ! "$ESC" tty.out &&
	git -C repo config ahd-replay.color auto &&
	test_when_finished "git -C repo config --unset ahd-replay.color" &&
	on_tty "cd repo && ahd-replay verify docs/evals/ok.md" &&
	test_grep "${ESC}\[32mok  " tty.out
'

test_expect_success 'verify: FAIL and drift in red' '
	cp -R repo drifted &&
	echo "accent: red" >>drifted/tokens/swiss.yml &&
	(cd drifted && test_expect_code 1 ahd-replay verify --color=always \
		--no-attribution docs/evals/ok.md >../out) &&
	test_grep "^  ${ESC}\[31mFAIL${ESC}\[m  token: " out &&
	test_grep "^verdict: ${ESC}\[31mdrift detected${ESC}\[m$" out
'

test_expect_success 'a report without a sidecar: the hint names backfill, once' '
	(cd repo && test_expect_code 2 ahd-replay verify docs/evals/old.md \
		docs/evals/old.md >../out 2>../err) &&
	cat >expect <<-\EOF &&
	hint: docs/evals/old.md has no sidecar; to write one from the report'"'"'s git history:
	hint:   ahd-replay backfill docs/evals/old.md
	hint: (with --dry-run first to see what it would write)
	hint: Disable this message with "git config ahd-replay.advice.backfill false"
	EOF
	grep "^hint:" err >actual &&
	test_cmp expect actual
'

test_expect_success 'the command the hint names backfills that report alone' '
	(cd repo && ahd-replay backfill --dry-run docs/evals/old.md >../out) &&
	test_grep "^would write docs/evals/old.replay.json$" out &&
	test_grep "^backfill: scanned=1 " out
'

test_expect_success 'the backfill hint: on stderr with --format=json, silenced by its key' '
	(cd repo && test_expect_code 1 ahd-replay verify --format=json \
		--require-sidecar="docs/evals/*.md" >../out 2>../err) &&
	test_grep ! "hint" out &&
	test_grep "^hint:   ahd-replay backfill docs/evals/old.md$" err &&
	git -C repo config ahd-replay.advice.backfill false &&
	test_when_finished "git -C repo config --unset ahd-replay.advice.backfill" &&
	(cd repo && test_expect_code 2 ahd-replay verify docs/evals/old.md 2>../err) &&
	test_grep ! "^hint:" err
'

test_expect_success 'a pre-push refusing drift names verify --explain, which shows it' '
	git init -q --bare remote.git &&
	git clone -q remote.git pushrepo 2>/dev/null &&
	cp -R repo/tokens repo/docs repo/package.json pushrepo/ &&
	(
		cd pushrepo &&
		git add -A && test_tick && git commit -q -m reports &&
		git push -q origin HEAD:main 2>/dev/null &&
		ahd-replay install-hooks >/dev/null &&
		echo "accent: red" >>tokens/swiss.yml &&
		git add -A && test_tick && git commit -q --no-verify -m drift &&
		test_must_fail git push -q origin HEAD:main 2>../err
	) &&
	tip=$(git -C pushrepo rev-parse HEAD | cut -c1-12) &&
	test_grep "^hint: to see what changed in each drifted input" err &&
	test_grep "^hint:   ahd-replay verify --explain --at=$tip$" err &&
	test_grep "ahd-replay.advice.explainDrift false" err &&
	(cd pushrepo && test_expect_code 1 ahd-replay verify --explain \
		--at=$tip docs/evals/ok.md >../out) &&
	test_grep "^verdict: drift detected$" out &&
	test_grep "^ *added  *\/accent: \"red\"$" out &&
	git -C pushrepo config ahd-replay.advice.explainDrift false &&
	(cd pushrepo && test_must_fail git push -q origin HEAD:main 2>../err) &&
	test_grep "makes published reports drift" err &&
	test_grep ! "^hint:" err
'

test_expect_success 'backfill -q: no line per sidecar; -v: the reports it left alone' '
	(cd repo && ahd-replay backfill -q --dry-run >../out 2>../err) &&
	test_grep ! "would write" out &&
	test_grep "^backfill: scanned=2 written=1 skipped=1 failed=0$" out &&
	test_must_be_empty err &&
	(cd repo && ahd-replay backfill --dry-run -v >../out) &&
	test_grep "^would write docs/evals/old.replay.json$" out &&
	test_grep "^skipped docs/evals/ok.md: it has a sidecar$" out &&
	(cd repo && ahd-replay backfill --dry-run >../out) &&
	test_grep ! "^skipped" out
'

test_expect_success 'backfill: no progress when stderr is not a terminal' '
	(cd repo && ahd-replay backfill --dry-run >../out 2>../err) &&
	test_must_be_empty err
'

test_expect_success SCRIPT 'backfill on a terminal: the progress is erased before each line' '
	on_tty "cd repo && ahd-replay backfill --dry-run" &&
	test_grep "Backfilling reports: " tty.out &&
	# every result starts a line of its own: nothing is glued to the
	# progress, and the progress never follows text on a line
	tr "\r" "\n" <tty.out | sed "s/${ESC}\[K//g" >lines &&
	test_grep "^would write docs/evals/old.replay.json$" lines &&
	test_grep ! "[^ ]would write\|)would write" lines &&
	grep "Backfilling" lines >progress &&
	test_grep ! ".Backfilling" progress &&
	test_grep "^backfill: scanned=2 " lines &&
	on_tty "cd repo && ahd-replay backfill -q --dry-run" &&
	test_grep ! "Backfilling" tty.out
'

test_expect_success SCRIPT 'backfill progress is throttled' '
	mkdir -p many/docs/evals &&
	git -C many init -q &&
	echo "{ \"name\": \"ahd\", \"version\": \"0.11.0\" }" >many/package.json &&
	i=0 &&
	while test $i -lt 400
	do
		echo "# r$i" >many/docs/evals/r$i.md &&
		echo "{}" >many/docs/evals/r$i.replay.json &&
		i=$((i + 1)) || return 1
	done &&
	on_tty "cd many && ahd-replay backfill --dry-run" &&
	test_grep "^backfill: scanned=400 written=0 skipped=400 failed=0" tty.out &&
	tr "\r" "\n" <tty.out >lines &&
	grep -c "Backfilling reports: " lines >count &&
	test $(cat count) -ge 1 &&
	test $(cat count) -lt 100
'

test_expect_success '-q: install-hooks, uninstall-hooks, sign and validate say nothing on success' '
	cp -R repo quiet &&
	(cd quiet && ahd-replay install-hooks -q >../out 2>../err) &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_grep "ahd-replay hook: pre-push" "quiet/.git/hooks/pre-push" &&
	(cd quiet && ahd-replay uninstall-hooks --quiet >../out 2>../err) &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_path_is_missing quiet/.git/hooks/pre-push &&
	(cd quiet && ahd-replay uninstall-hooks -q >../out) &&
	test_must_be_empty out &&
	(cd quiet && ahd-replay validate -q docs/evals/ok.replay.json >../out) &&
	test_grep ! ": valid$" out &&
	ahd-replay keygen --out=key >/dev/null &&
	(cd quiet && ahd-replay sign -q --key=../key docs/evals/ok.md >../out) &&
	test_must_be_empty out &&
	test_path_is_file quiet/docs/evals/ok.replay.json.sig
'

test_done
