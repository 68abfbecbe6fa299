#!/bin/sh

test_description='verify --all: what a tree of reports costs in lookups,
and the roots it finds while saving them

The search lists each directory once, for the sidecars and for the
reports that lost theirs, on as many threads as verify runs (the output,
and the parts not searched, the same on one or eight); a sidecar whose directory listed no
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

test_expect_success 'setup: forty directories, and two trees deeper than the search goes' '
	git init -q wide &&
	mkdir -p wide/tokens &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >wide/package.json &&
	printf "color: red\n" >wide/tokens/x.yml &&
	for d in 00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 \
		 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
	do
		mkdir -p wide/docs/$d/in &&
		(cd wide &&
		 write_sidecar docs/$d/in/r.replay.json tokens/x.yml) &&
		printf "# R\n" >wide/docs/$d/in/r.md || return 1
	done &&
	printf "# R\n\n\`\`\`yaml ahd-replay\nx: 1\n\`\`\`\n" >wide/docs/07/lost.md &&
	deep=$(awk "BEGIN { for (i = 0; i < 66; i++) printf \"d/\" }") &&
	mkdir -p "wide/docs/a/$deep" "wide/docs/b/$deep"
'

for format in text json
do
	test_expect_success "--format=$format: the same output on one thread, two or eight" "
		(cd wide && test_expect_code 2 ahd-replay verify --all -j1 \
			--format=$format) >one 2>one.err &&
		(cd wide && test_expect_code 2 ahd-replay verify --all -j2 \
			--format=$format) >two 2>two.err &&
		(cd wide && test_expect_code 2 ahd-replay verify --all -j8 \
			--format=$format) >eight 2>eight.err &&
		test_cmp one two && test_cmp one eight &&
		test_cmp one.err two.err && test_cmp one.err eight.err &&
		test_grep 'docs/07/lost.md' one
	"
done

test_expect_success 'the parts not searched are named in name order' '
	(cd wide && test_expect_code 2 ahd-replay verify --all) >out 2>err &&
	grep "directories deep; not searched" err >deep-errors &&
	test_line_count = 2 deep-errors &&
	sort deep-errors >sorted &&
	test_cmp sorted deep-errors
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
