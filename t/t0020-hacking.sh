#!/bin/sh

test_description='doc/HACKING.md: the module map names every source file

tools/check-module-map.sh reads the map as people do: a file is named by
its path under src/ ("git/repo.c", "parse-options.[ch]", "builtin/*.c"),
or by its bare name after its folder on the same line ("`git/`: `repo.c`,
`lfs.c`"); a bare name with no folder before it on its line is one of
src/ itself.  Every file under src/ must be named, and no name may be of a
file that is gone.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

map=$TEST_SRC_DIR/tools/check-module-map.sh

# The map still names the files where they were before the subsystem
# folders: a known breakage until it is rewritten folders-first.  Run with
# -v to see the differences.
test_expect_success 'HACKING.md names every file under src/ and none that is gone' '
	sh "$map" "$TEST_SRC_DIR/doc/HACKING.md" "$TEST_SRC_DIR/src"
'

test_expect_success 'setup: a small tree and a folders-first map of it' '
	mkdir -p src/builtin src/git src/yaml &&
	touch src/ahd-replay.c src/usage.c src/usage.h src/strbuf.c \
		src/strbuf.h src/builtin/hash.c src/builtin/verify.c \
		src/git/repo.c src/git/repo.h src/git/lfs.c src/git/lfs.h \
		src/yaml/yamlfix.c src/yaml/yamlfix.h src/yaml/yamlfix-bom.c \
		src/yaml/yamlfix-tabs.c &&
	cat >map.md <<-\EOF
	# Hacking

	| files | owns |
	|---|---|
	| `ahd-replay.c`, `usage.[ch]`, `src/strbuf.[ch]` | the base |
	| `builtin/*.c` | one file per command |
	| `git/`: `repo.[ch]` (opening), `lfs.[ch]` | the one door to libgit2 |

	- `src/yaml/`: `yamlfix.[ch]`, `yamlfix-{bom,tabs}.c`.

	A command is `src/builtin/frob.c`; each `src/foo.c` documents its API
	in `src/foo.h`, and includes `config.h` first.  The unit tests use
	`t/unit/tap.h`; `git/git builtin/*.c` is where the habit comes from.
	EOF
'

test_expect_success 'a map that names everything passes' '
	sh "$map" map.md src >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
'

test_expect_success 'a file the map does not name is missing' '
	test_when_finished "rm src/git/worktree.c src/hooks.c" &&
	touch src/git/worktree.c src/hooks.c &&
	sh "$map" map.md src >out 2>err
	test $? = 1 &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	missing: git/worktree.c
	missing: hooks.c
	EOF
	test_cmp expect out
'

test_expect_success 'a name of no file is gone' '
	cp map.md gone.md &&
	cat >>gone.md <<-\EOF &&
	`git/` `worktree.c`, `src/replay/*.c` and `yaml/yamlfix-{bom,dir}.c`;
	`repo.c` with no folder before it on its line is a file of src/.
	EOF
	sh "$map" gone.md src >out 2>err
	test $? = 1 &&
	test_must_be_empty err &&
	cat >expect <<-\EOF &&
	gone.md:14: gone: git/worktree.c
	gone.md:14: gone: replay/*.c
	gone.md:14: gone: yaml/yamlfix-dir.c
	gone.md:15: gone: repo.c
	EOF
	test_cmp expect out
'

test_expect_success 'usage errors exit 2' '
	sh "$map" map.md >out 2>err
	test $? = 2 &&
	test_grep "^usage:" err &&
	sh "$map" no-such.md src >out 2>err
	test $? = 2
'

test_done
