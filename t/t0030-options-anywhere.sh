#!/bin/sh

test_description='options anywhere: before, between and after operands

Every command reads its options wherever they stand on the command line,
as git, cobra and argparse do; "--" ends them, so an operand that starts
with "-" goes after it.  replay and capture keep "-- <program>": the
words after it are the program'"'"'s, options or not.  Subcommands
("log verify", "hooks status") are found first, then their options are
read anywhere too.  (hook is left out: the words after the hook'"'"'s
name are git'"'"'s arguments, passed on as they are.)'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

# validate's schema, also from an out-of-tree build
AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

test_expect_success 'setup: a repository with a report, a token edited after its run' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "color: red\n" >repo/tokens/t.yml &&
	printf "# Brief\n" >repo/briefs/b.md &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m "token red" &&
	(cd repo && write_sidecar --commit="$(git rev-parse HEAD)" \
		docs/r.replay.json tokens/t.yml briefs/b.md) &&
	printf "# R\n" >repo/docs/r.md &&
	cp repo/docs/r.replay.json repo/docs/s.replay.json &&
	printf "# S\n" >repo/docs/s.md &&
	git -C repo add . &&
	test_tick && git -C repo commit -q -m "reports" &&
	printf "color: blue\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "token blue"
'

test_expect_success 'verify: --format=json after the report prints JSON' '
	(
		cd repo &&
		test_expect_code 1 ahd-replay verify --format=json docs/r.md >../before.json &&
		test_expect_code 1 ahd-replay verify docs/r.md --format=json >../after.json
	) &&
	test_cmp before.json after.json &&
	test_grep "^  \"reports\": \[" after.json
'

test_expect_success 'verify: --no-attribution and -q after and between operands' '
	(
		cd repo &&
		test_expect_code 1 ahd-replay verify --no-attribution -q docs/r.md docs/s.md >../before &&
		test_expect_code 1 ahd-replay verify docs/r.md --no-attribution docs/s.md -q >../after
	) &&
	test_cmp before after &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/r.md docs/s.md >../plain) &&
	test_grep "note: token" plain &&
	test_grep ! "note: token" after
'

test_expect_success 'verify: after --, a word that looks like an option is an operand' '
	(
		cd repo &&
		test_expect_code 2 ahd-replay verify -- --format=json >../out 2>../err
	) &&
	test_grep "format=json" err &&
	test_grep ! "^{" out
'

test_expect_success 'hash and canon: options after the files; -- for a file named like an option' '
	printf "a: 1\n" >t.yml &&
	printf "{\"b\": 2, \"a\": 1}" >t.json &&
	printf "x: 1\n" >./--raw &&
	ahd-replay hash --raw t.yml >before &&
	ahd-replay hash t.yml --raw >after &&
	test_cmp before after &&
	ahd-replay canon --jcs t.json >before &&
	ahd-replay canon t.json --jcs >after &&
	test_cmp before after &&
	ahd-replay hash -- --raw >out &&
	test_grep "  --raw$" out &&
	ahd-replay hash --raw -- --raw t.yml >out &&
	test_line_count = 2 out
'

test_expect_success 'validate and render: options after the sidecar' '
	(
		cd repo &&
		ahd-replay validate --format=json docs/r.replay.json >../before &&
		ahd-replay validate docs/r.replay.json --format=json >../after &&
		ahd-replay render --allow-outside-root docs/r.replay.json >../render.before &&
		ahd-replay render docs/r.replay.json --allow-outside-root >../render.after
	) &&
	test_cmp before after &&
	test_cmp render.before render.after
'

test_expect_success 'diff: --format=json after the two sidecars' '
	(
		cd repo &&
		ahd-replay diff --format=json docs/r.replay.json docs/s.replay.json >../before &&
		ahd-replay diff docs/r.replay.json docs/s.replay.json --format=json >../after
	) &&
	test_cmp before after &&
	test_grep "^{" after
'

test_expect_success 'backfill: --dry-run after the directory' '
	(
		cd repo &&
		ahd-replay backfill docs --dry-run >../out 2>../err
	) &&
	test_grep "^backfill: scanned=" out &&
	git -C repo status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'keygen and sign: --key after the report' '
	ahd-replay keygen --out key >/dev/null &&
	(
		cd repo &&
		ahd-replay sign docs/r.md --key="$TRASH_DIRECTORY/key" >../out
	) &&
	test_path_is_file repo/docs/r.replay.json.sig
'

test_expect_success 'log verify: the subcommand first, options after the log' '
	: >empty.jsonl &&
	test_expect_code 2 ahd-replay log verify empty.jsonl --format=json >out 2>err &&
	test_grep "empty log" out
'

test_expect_success 'replay: options after the report, and -- still starts the program' '
	(
		cd repo &&
		ahd-replay replay docs/r.md --worktree=../wt1 --format=json >../out
	) &&
	test_grep "\"worktree\": \"$(pwd -P)/wt1\"" out &&
	cat >prog.sh <<-\EOF &&
	#!/bin/sh
	printf "%s\n" "$@" >"$ARGS_OUT"
	EOF
	chmod +x prog.sh &&
	(
		cd repo &&
		ARGS_OUT=$TRASH_DIRECTORY/args ahd-replay replay docs/r.md --worktree=../wt2 \
			--run -- "$TRASH_DIRECTORY/prog.sh" --format=json -q >../out
	) &&
	test_write_lines --format=json -q >expect &&
	test_cmp expect args &&
	test_grep ! "^{" out
'

test_expect_success 'replay: a program after the report needs --' '
	(
		cd repo &&
		test_expect_code 2 ahd-replay replay docs/r.md --run true 2>../err
	) &&
	test_grep "goes after --" err
'

test_expect_success 'capture: the words after -- are the run'"'"'s argv, options or not' '
	(
		cd repo &&
		ahd-replay capture --kind=eval-live --token=tokens/t.yml --n=1 \
			--out=../c.replay.json -- ahd eval --n 2 --out=x
	) &&
	tr -d " \n" <c.replay.json >flat &&
	test_grep "\"argv\":\[\"ahd\",\"eval\",\"--n\",\"2\",\"--out=x\"\]" flat &&
	test_grep "\"n\":1," flat
'

test_expect_success 'commands without operands still refuse one' '
	(
		cd repo &&
		test_expect_code 2 ahd-replay install-hooks stray --force 2>../err1 &&
		test_expect_code 2 ahd-replay hooks status stray 2>../err2 &&
		test_expect_code 2 ahd-replay keygen stray --out=k 2>../err3
	) &&
	test_grep "stray" err1 &&
	test_grep "stray" err2 &&
	test_grep "keygen takes no operands" err3
'

test_done
