#!/bin/sh

test_description='tags, !!merge and the YAML 1.1 collections, as the reference reads them

A scalar tagged !!merge is a JavaScript Symbol in yaml@2.8.3: as a map key
it merges its value (which must be a map or a sequence of maps), as a map
value its pair is left out of the JSON, as a sequence item it prints as
null, as the whole document it has no JSON text.  !!set, !!omap and
!!pairs collections turn into a Set, a Map or pairs, also inside keys.
Expected results come from the Node oracle, never from our binary.

1. A few hand-picked documents, canonical text checked.
2. The checked-in vectors t/vectors/yaml-sem/ (semantic.mjs, every one
   reproduced; gen.mjs --only tags,yaml11,ckey, few refusals) run
   without Node.
3. With Node: the vectors are current, and a fresh generated corpus
   (AHD_SEM_SEED, default t9120; AHD_SEM_COUNT, default 2000) agrees.'

oracle_npm_home=${HOME:-}

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

ORACLE_SRC=$TEST_SRC_DIR/t/oracle
VECTORS=$TEST_SRC_DIR/t/vectors/yaml-sem
BATCH=$TEST_BUILD_DIR/t/helper/test-hash-batch
COMPARE=$TEST_SRC_DIR/t/oracle/compare.sh
sem_seed=${AHD_SEM_SEED:-t9120}
sem_count=${AHD_SEM_COUNT:-2000}

# Refusals allowed, in percent (compare.sh fails at or above it): none
# of the hand-picked documents; of the generated ones, timestamps as keys
# (their text depends on the reference's time zone) and the constructs
# the README lists.
hand_max=0.001
gen_max=3

# check_canon TEXT EXPECTED: canon prints EXPECTED for a file holding TEXT.
check_canon () {
	printf "%s\n" "$1" >in.yml &&
	printf "%s\n" "$2" >expect &&
	ahd-replay canon in.yml >actual &&
	test_cmp expect actual
}

test_expect_success '!!merge on a key merges, whatever the key says' '
	check_canon "$(printf "b: &b {x: 1}\nc: {!!merge <<: *b, y: 2}\nd:\n  !!merge any: [{p: 1}, {p: 2, q: 3}]")" \
		"{\"b\":{\"x\":1},\"c\":{\"x\":1,\"y\":2},\"d\":{\"p\":1,\"q\":3}}"
'

test_expect_success '!!merge as a value drops the pair, as an item is null' '
	check_canon "$(printf "c: !!merge x\nd: [!!merge <<, 1]\ne: 2")" \
		"{\"d\":[null,1],\"e\":2}"
'

test_expect_success 'an alias of a !!merge scalar as a key is "Symbol(<<)"' '
	check_canon "$(printf "a: &m !!merge x\n*m : 1")" "{\"Symbol(<<)\":1}"
'

test_expect_success 'a !!merge document and a non-map merge source are errors' '
	printf "!!merge x\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "invalid YAML: the document is a !!merge scalar" err &&
	printf "c: {!!merge <<: 1}\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "invalid YAML: merge sources must be maps or map aliases" err
'

test_expect_success 'a timestamp as an object key is refused: its text depends on the time zone' '
	printf "%%YAML 1.1\n---\n2001-12-14: x\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a timestamp as a mapping key" err &&
	printf "p: !!pairs [!!timestamp 2001-12-14]\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a timestamp as a mapping key" err
'

test_expect_success 'a timestamp as a Set, Map or collection key is not' '
	check_canon "$(printf "%%YAML 1.1\n---\ns: !!set {2001-12-14}\no: !!omap [2001-12-14: 1]\n[2001-12-14t21:59:43.10-05:00]: k")" \
		"{\"[ 2001-12-15T02:59:43.100Z ]\":\"k\",\"o\":{},\"s\":{}}"
'

test_expect_success 'test-hash-batch is built' '
	test -x "$BATCH"
'

. "$TEST_SRC_DIR/t/lib-oracle.sh"
test_checked_in_vectors hand gen

oracle_prereq

test_expect_success NODE,ORACLE 'checked-in vectors match the generators' '
	n=$(grep -c "" "$VECTORS/gen.txt") &&
	"$NODE" "$oracle_dir/semantic.mjs" --out h.bin &&
	"$NODE" "$oracle_dir/gen.mjs" --seed vectors-sem --count $n \
		--only tags,yaml11,ckey --out g.bin &&
	cmp h.bin "$VECTORS/hand.bin" &&
	cmp g.bin "$VECTORS/gen.bin" || {
		echo "stale vectors: run t/oracle/make-sem-vectors.sh" >&2
		return 1
	}
'

test_expect_success NODE,ORACLE "live: $sem_count documents, seed $sem_seed" '
	"$NODE" "$oracle_dir/gen.mjs" --seed "$sem_seed" --count "$sem_count" \
		--only tags,yaml11,ckey --out live.bin &&
	"$NODE" "$oracle_dir/oracle.mjs" live.bin >live.expected &&
	"$BATCH" live.bin >live.ours &&
	sh "$COMPARE" --corpus live.bin --max-unsupported $gen_max \
		live.expected live.ours >live.compare ||
	{ cat live.compare; false; }
'
if test -f "$TRASH_DIRECTORY/live.compare"
then
	sed -n -e "/^$/q" -e "s/^/# live: /p" "$TRASH_DIRECTORY/live.compare"
fi

test_done
