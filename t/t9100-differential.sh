#!/bin/sh

test_description='differential test of structured hashing against the reference

Our side is t/helper/test-hash-batch; the reference side is the Node oracle
t/oracle/oracle.mjs (yaml@2.8.3 pinned by t/oracle/package-lock.json).
Every record falls in one class (t/oracle/compare.sh): agree-hash,
agree-error, WRONG-HASH, UNSUPPORTED, ACCEPTED-INVALID.  WRONG-HASH and
ACCEPTED-INVALID must be zero and UNSUPPORTED below 0.5%.

1. The checked-in vectors (t/vectors/differential/) run without Node.
2. With Node, a fresh corpus from the seeded generator t/oracle/gen.mjs,
   its hard classes included but for the known gaps listed below:
   AHD_DIFF_SEED (default t9100) and AHD_DIFF_COUNT (default 10000).
   The yaml package comes from t/oracle/node_modules, installed by
   `npm ci` from the lock file when missing (into a copy in the trash
   directory when the source tree is read-only, as in make distcheck); if
   that fails the live comparison is skipped with a message.
3. With Node, each known gap alone (30 documents): the gaps that pass
   by now are named in the output, to come off the list.
AHD_DIFF_DUMP=DIR writes every disagreeing record there.'

# npm keeps using the real home directory (its cache and configuration);
# test-lib.sh points HOME at the trash directory.
oracle_npm_home=${HOME:-}

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

ORACLE_SRC=$TEST_SRC_DIR/t/oracle
VECTORS=$TEST_SRC_DIR/t/vectors/differential
BATCH=$TEST_BUILD_DIR/t/helper/test-hash-batch
COMPARE=$ORACLE_SRC/compare.sh
diff_seed=${AHD_DIFF_SEED:-t9100}
diff_count=${AHD_DIFF_COUNT:-10000}
diff_dump=${AHD_DIFF_DUMP:-}

# Known gaps: generator classes and constructs (gen.mjs --list-classes)
# that the implementation does not reproduce yet, left out of the live
# corpus so that it guards everything else.  Each is a finding in the
# team's differential notes (its ID after the #); take an entry off when
# its fix lands: the "known gaps" test below names the ones that pass.
known_gaps=$(sed 's/#.*//' <<\EOF
yaml11                  # Y: %YAML 1.1 documents
EOF
)

# run_compare NAME CORPUS EXPECTED OURS [MAX-UNSUPPORTED-PERCENT]:
# classify; the report goes to NAME.compare (shown by show_counts after
# the test).
run_compare () {
	sh "$COMPARE" --corpus "$2" ${diff_dump:+--dump "$diff_dump/$1"} \
		--max-unsupported "${5:-0.5}" "$3" "$4" >"$1.compare"
	run_compare_ret_=$?
	cat "$1.compare"
	return "$run_compare_ret_"
}

# show_counts NAME TITLE: the class counts of a comparison as TAP comments.
show_counts () {
	if test -f "$TRASH_DIRECTORY/$1.compare"
	then
		echo "# $2:"
		sed -n -e '/^$/q' -e 's/^/#   /p' "$TRASH_DIRECTORY/$1.compare"
		sed -n -e '/^unsupported messages/,/^$/{' -e '/^$/d' \
			-e 's/^/#   /p' -e '}' "$TRASH_DIRECTORY/$1.compare"
	fi
}

test_expect_success 'test-hash-batch is built' '
	test -x "$BATCH" || {
		echo "missing $BATCH (built by make check)" >&2
		false
	}
'

test_expect_success 'compare.sh classifies every kind of record' '
	printf "#4\na: 1\n#0\n\n#3\na:b\n#4\nx: y\n#1\n[\n" >c.bin &&
	h1=sha256:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862 &&
	h2=sha256:74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b &&
	printf "ok %s\nok %s\nok %s\nok %s\nerror bad\n" $h1 $h2 $h1 $h2 >exp &&
	sh "$COMPARE" --corpus c.bin exp exp >out &&
	test_grep "^agree-hash: 4$" out &&
	test_grep "^agree-error: 1$" out &&
	test_grep "^result: PASS" out &&

	printf "ok %s\nok %s\nunsupported x\nok %s\nunsupported y\n" $h1 $h1 $h2 >ours &&
	test_expect_code 1 sh "$COMPARE" --corpus c.bin exp ours >out &&
	test_grep "^WRONG-HASH: 1$" out &&
	test_grep "^UNSUPPORTED: 1 " out &&
	test_grep "^agree-error: 1$" out &&
	test_grep "document (0 bytes)" out &&

	printf "ok %s\nok %s\nok %s\nok %s\nok %s\n" $h1 $h2 $h1 $h2 $h1 >ours &&
	test_expect_code 1 sh "$COMPARE" exp ours >out &&
	test_grep "^ACCEPTED-INVALID: 1$" out &&

	printf "ok %s\nok %s\nok %s\n" $h1 $h2 $h1 >ours &&
	test_expect_code 1 sh "$COMPARE" exp ours >out &&
	test_grep "^BAD-OUTPUT: 2 " out &&

	printf "ok %s\nok %s\nerror y\nok %s\nerror bad\n" $h1 $h2 $h2 >ours &&
	test_expect_code 1 sh "$COMPARE" --max-unsupported 20 exp ours >out &&
	test_grep "^UNSUPPORTED: 1 " out &&
	sh "$COMPARE" --max-unsupported 21 exp ours >out &&
	test_grep "^result: PASS" out &&

	printf "#9\na: 1\n" >bad.bin &&
	test_expect_code 1 sh "$COMPARE" --corpus bad.bin exp exp >out &&
	test_grep "^corpus: " out
'

# The hand-picked documents are dense in constructs that an implementation
# may refuse (SPEC 4.3: %YAML 1.1, collection keys, ...), so up to 10% of
# them may be unsupported; the generated ones follow the 0.5% rule.
test_expect_success 'checked-in vectors: hand-picked documents (corpus-0)' '
	"$BATCH" "$VECTORS/corpus-0.bin" >vectors-0.ours &&
	run_compare vectors-0 "$VECTORS/corpus-0.bin" \
		"$VECTORS/expected-0.txt" vectors-0.ours 10
'
show_counts vectors-0 'checked-in vectors, hand-picked documents (corpus-0)'

test_expect_success 'checked-in vectors: generated documents (corpus-1)' '
	"$BATCH" "$VECTORS/corpus-1.bin" >vectors-1.ours &&
	run_compare vectors-1 "$VECTORS/corpus-1.bin" \
		"$VECTORS/expected-1.txt" vectors-1.ours
'
show_counts vectors-1 'checked-in vectors, generated documents (corpus-1)'

# The live comparison needs node and the oracle's yaml package.
. "$TEST_SRC_DIR/t/lib-oracle.sh"
oracle_setup
if test -z "$oracle_skip"
then
	test_set_prereq ORACLE
else
	echo "# SKIPPING the live differential comparison: $oracle_skip"
	echo "# (only the checked-in vectors were compared)"
fi

test_expect_success NODE,ORACLE 'checked-in vectors match the generator and the oracle' '
	"$NODE" "$oracle_dir/handpicked.mjs" --out hp.bin &&
	cmp hp.bin "$VECTORS/corpus-0.bin" &&
	"$NODE" "$oracle_dir/oracle.mjs" hp.bin >hp.expected &&
	test_cmp "$VECTORS/expected-0.txt" hp.expected &&
	n=$(grep -c "" "$VECTORS/expected-1.txt") &&
	"$NODE" "$oracle_dir/gen.mjs" --seed vectors-1 --count "$n" --only base \
		--out v1.bin &&
	cmp v1.bin "$VECTORS/corpus-1.bin" || {
		echo "stale vectors: run t/oracle/make-vectors.sh" >&2
		false
	}
'

test_expect_success NODE,ORACLE "live: $diff_count generated documents, seed $diff_seed" '
	"$NODE" "$oracle_dir/gen.mjs" --seed "$diff_seed" --count "$diff_count" \
		--exclude "$known_gaps" --out live.bin &&
	"$NODE" "$oracle_dir/oracle.mjs" live.bin >live.expected &&
	"$BATCH" live.bin >live.ours &&
	run_compare live live.bin live.expected live.ours
'
show_counts live "live comparison, $diff_count documents, seed $diff_seed"

# Each known gap alone, 30 documents (3 of tabs.over-cap, whose thousands
# of lines each cost seconds while the workaround layer re-parses): the
# ones that pass are listed in gaps-fixed (and shown below) and should
# come off the list; this test fails only when the generator, the oracle
# or the helper does.
test_expect_success NODE,ORACLE 'known gaps: which ones pass by now' '
	: >gaps-fixed &&
	for gap in $known_gaps
	do
		case $gap in
		tabs.over-cap) n=3 ;;
		*) n=30 ;;
		esac &&
		"$NODE" "$oracle_dir/gen.mjs" --seed "$diff_seed" --count $n \
			--only "$gap" --out "gap-$gap.bin" &&
		"$NODE" "$oracle_dir/oracle.mjs" "gap-$gap.bin" >"gap-$gap.expected" &&
		"$BATCH" "gap-$gap.bin" >"gap-$gap.ours" || return 1
		if sh "$COMPARE" "gap-$gap.expected" "gap-$gap.ours" >"gap-$gap.compare"
		then
			echo "$gap" >>gaps-fixed
		fi
	done
'
if test -s "$TRASH_DIRECTORY/gaps-fixed"
then
	echo "# known gaps that pass now (take them off known_gaps in $0):"
	sed 's/^/#   /' "$TRASH_DIRECTORY/gaps-fixed"
fi

test_done
