#!/bin/sh

test_description='verify --all: what a tree of reports costs in lookups,
and the roots it finds while saving them

The search lists each directory once, for the sidecars and for the
reports that lost theirs; a sidecar whose directory listed no
<sidecar>.sig is unsigned without a second look, while a .sig the listing
shows is read and checked.  Roots are found once per directory, with each
package.json read once per run and the repository learnt from a parent
directory when git would find the same one there: a nested repository
(its own .git), a directory that looks like a repository (a HEAD file)
and a symlinked directory are still asked of git, so each report gets the
root its own repository pins.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq STRACE 'strace -o /dev/null true'

test_expect_success 'setup: 24 reports in 6 directories, one with a planted .sig' '
	git init -q repo &&
	mkdir -p repo/tokens &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >repo/package.json &&
	printf "color: red\n" >repo/tokens/x.yml &&
	for d in a b c d e f
	do
		mkdir -p repo/docs/$d/deep &&
		for n in 1 2 3 4
		do
			(cd repo &&
			 write_sidecar docs/$d/deep/r$n.replay.json tokens/x.yml) &&
			printf "# R\n" >repo/docs/$d/deep/r$n.md || return 1
		done
	done &&
	printf "not a signature\n" >repo/docs/c/deep/r2.replay.json.sig &&
	git -C repo add . &&
	git -C repo commit -q -m reports
'

test_expect_success STRACE 'an unsigned report: its .sig is not looked for again' '
	(
		cd repo &&
		under_strace -f -o ../trace ahd-replay verify --all \
			>../out 2>../err;
		echo $? >../status
	) &&
	echo 1 >expect &&
	test_cmp expect status &&
	test_grep "^24 reports: 23 intact, 0 drifted, 0 errors, 1 untrusted" out &&
	grep "\.sig\"" trace >sig-lookups &&
	test_grep "docs/c/deep/r2.replay.json.sig" sig-lookups &&
	test_grep ! "docs/c/deep/r1.replay.json.sig" sig-lookups &&
	test_grep ! "docs/a/" sig-lookups
'

test_expect_success STRACE 'each directory is listed once: one search serves the sidecars and the reports without one' '
	grep "O_DIRECTORY" trace | grep "docs/c/deep\"" >listings &&
	test_line_count = 1 listings
'

test_expect_success 'a report that lost its sidecar is still found by that search' '
	cp repo/docs/a/deep/r1.md repo/docs/a/deep/lost.md &&
	printf "\n\`\`\`yaml ahd-replay\nx: 1\n\`\`\`\n" >>repo/docs/a/deep/lost.md &&
	test_when_finished "rm -f repo/docs/a/deep/lost.md" &&
	(cd repo && test_expect_code 1 ahd-replay verify --all) >out 2>err &&
	test_grep "docs/a/deep/lost.md" out &&
	test_grep "missing sidecar" out
'

test_expect_success STRACE 'each package.json is read once per run' '
	grep "package.json\"" trace | grep -v ENOENT >pkg-opens &&
	grep "open.*/repo/package.json\"" pkg-opens >top-opens &&
	test_line_count = 1 top-opens
'

test_expect_success STRACE 'the repository is not opened again for each directory' '
	(
		cd repo &&
		under_strace -f -o ../trace-six ahd-replay verify docs \
			>../out-six 2>../err;
		under_strace -f -o ../trace-one ahd-replay verify docs/a \
			>../out-one 2>../err
	) &&
	test_grep "^24 reports: 23 intact" out-six &&
	test_grep "^4 reports: 4 intact" out-one &&
	grep "openat(.*/repo/.git/config\"" trace-six >config-six &&
	grep "openat(.*/repo/.git/config\"" trace-one >config-one &&
	test_line_count = $(wc -l <config-one) config-six
'

# verify reads a dozen settings (the cache, trusted keys, required
# sidecars, signatures, ...): the configuration is read when a repository
# is opened, not once for each setting.
test_expect_success STRACE 'the git configuration is not read again for each setting' '
	grep "openat(.*/repo/.git/config\"" trace >config-all &&
	test_line_count -le 10 config-all
'

test_expect_success 'setup: a nested repository and a symlink into it, each pinned' '
	git init -q outer &&
	mkdir -p outer/pin/tokens outer/docs/x outer/sub &&
	printf "color: outer\n" >outer/pin/tokens/t.yml &&
	git -C outer config ahd-replay.root pin &&
	git init -q outer/sub &&
	mkdir -p outer/sub/pin2/tokens outer/sub/docs/y &&
	printf "color: inner\n" >outer/sub/pin2/tokens/t.yml &&
	git -C outer/sub config ahd-replay.root pin2 &&
	(cd outer/pin && write_sidecar ../docs/x/o.replay.json tokens/t.yml) &&
	(cd outer/sub/pin2 &&
	 write_sidecar ../docs/y/i.replay.json tokens/t.yml) &&
	printf "# O\n" >outer/docs/x/o.md &&
	printf "# I\n" >outer/sub/docs/y/i.md &&
	ln -s sub/docs/y outer/link
'

test_expect_success 'each report gets the root its own repository pins' '
	(cd outer && ahd-replay verify --all) >out 2>err &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors" out &&
	(cd outer && ahd-replay verify docs/x/o.md sub/docs/y/i.md) >out 2>err &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors" out
'

test_expect_success 'through a symlinked directory, the repository it leads to' '
	(cd outer && ahd-replay verify docs/x/o.md link/i.md) >out 2>err &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors" out
'

test_expect_success 'a directory with a HEAD file is asked of git' '
	mkdir -p outer/docs/x/looks &&
	printf "ref: refs/heads/main\n" >outer/docs/x/looks/HEAD &&
	cp outer/docs/x/o.replay.json outer/docs/x/looks/o.replay.json &&
	printf "# O\n" >outer/docs/x/looks/o.md &&
	(cd outer && ahd-replay verify docs/x/o.md docs/x/looks/o.md) \
		>out 2>err &&
	test_grep "^2 reports: 2 intact, 0 drifted, 0 errors" out
'

test_done
