#!/bin/sh

test_description='collection keys and %YAML 1.1 documents, as the reference reads them

yaml@2.8.3 turns a mapping key that is a map or sequence into the text its
flow stringifier prints ("{ a: 1 }", "[ a, b ]"), and reads a document
that starts with "%YAML 1.1" with its YAML 1.1 schema (y/yes/on booleans,
0777 octal, 190:20:30, timestamps, << merges).  Expected texts come from
the Node oracle (t/oracle/oracle.mjs), never from our binary.

1. Hand-picked documents, canonical text checked.
2. The checked-in vectors t/vectors/yaml-keys/ (keys.mjs and yaml11.mjs
   corpora with the oracle'"'"'s verdicts) run without Node: no wrong hash,
   no hash where the reference errors, few refusals.
3. With Node, fresh corpora from both generators: AHD_KEYS_SEED (default
   t9110) and AHD_KEYS_COUNT (default 2000 of each).'

oracle_npm_home=${HOME:-}

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

ORACLE_SRC=$TEST_SRC_DIR/t/oracle
VECTORS=$TEST_SRC_DIR/t/vectors/yaml-keys
BATCH=$TEST_BUILD_DIR/t/helper/test-hash-batch
COMPARE=$ORACLE_SRC/compare.sh
keys_seed=${AHD_KEYS_SEED:-t9110}
keys_count=${AHD_KEYS_COUNT:-2000}

# Refusals allowed, in percent of the records: the generators pick
# constructs still refused on purpose (timestamps as object keys, whose
# text depends on the reference's time zone, about 11% of the yaml11
# documents; comments inside keys; !!set/!!omap/!!pairs in merges).
keys_max=1
yaml11_max=15

# check_canon TEXT EXPECTED: canon prints EXPECTED for a file holding TEXT.
check_canon () {
	printf "%s\n" "$1" >in.yml &&
	printf "%s\n" "$2" >expect &&
	ahd-replay canon in.yml >actual &&
	test_cmp expect actual
}

test_expect_success 'a template placeholder {{x}} as a value and as a key' '
	check_canon "data: {{config_data}}" "{\"data\":{\"{ config_data }\":null}}" &&
	check_canon "{{x}}: y" "{\"{ ? { x } }\":\"y\"}"
'

test_expect_success 'flow and block collections as keys' '
	check_canon "$(printf "? [a, b]\n: c")" "{\"[ a, b ]\":\"c\"}" &&
	check_canon "{a: 1}: x" "{\"{ a: 1 }\":\"x\"}" &&
	check_canon "$(printf "? - a\n  - {b: 1}\n: v")" "{\"[ a, { b: 1 } ]\":\"v\"}" &&
	check_canon "{a, b: }: v" "{\"{ a, b: }\":\"v\"}"
'

test_expect_success 'scalars inside keys keep their written form' '
	check_canon "[~, Null, 0x1F, 1.50, 1e3, True, .NaN, -0, '"'"'it'"'"''"'"'s'"'"', \"q\", a b]: k" \
		"{\"[ ~, Null, 0x1f, 1.50, 1e+3, True, .nan, -0, '"'"'it'"'"''"'"'s'"'"', \\\"q\\\", a b ]\":\"k\"}" &&
	check_canon "[&x a, *x, !!str 1, !foo b]: k" \
		"{\"[ &x a, *x, !!str \\\"1\\\", !foo b ]\":\"k\"}"
'

test_expect_success 'a key longer than a line prints one item per line' '
	check_canon "[aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbb, cccccccccccccccccccc, dddddddddddddddd]: k" \
		"{\"[\\n  aaaaaaaaaaaaaaaaaaaa,\\n  bbbbbbbbbbbbbbbbbbbb,\\n  cccccccccccccccccccc,\\n  dddddddddddddddd\\n]\":\"k\"}"
'

test_expect_success 'collection keys are never duplicates of each other' '
	check_canon "$(printf "[a]: 1\n\"[ a ]\": 2")" "{\"[ a ]\":2}"
'

test_expect_success 'comments inside a block collection key print as yaml prints them' '
	check_canon "$(printf "? - a # c\n  - b\n: v")" \
		"{\"[\\n  a, # c\\n  b\\n]\":\"v\"}" &&
	check_canon "$(printf "? k: v # c\n  j: w\n: v")" \
		"{\"{\\n  k: v, # c\\n  j: w\\n}\":\"v\"}"
'

test_expect_success 'comments yaml moves between items are refused' '
	printf "? [a, # c\n  b]\n: v\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a comment or blank lines inside a collection key" err &&
	printf "? - | # c\n    x\n: v\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a comment or blank lines inside a collection key" err
'

test_expect_success 'blank lines inside a collection key print as an empty line' '
	check_canon "$(printf "? - a\n\n  - |\n    x\n\n  - b\n: v")" \
		"{\"[\\n  a,\\n\\n  \\\"x\\\\n\\\",\\n\\n  b\\n]\":\"v\"}" &&
	printf "? a:\n\n    b\n: v\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a comment or blank lines inside a collection key" err
'

test_expect_success '%YAML 1.1: booleans, octal, sexagesimal, timestamps, merges' '
	check_canon "$(printf "%%YAML 1.1\n---\nbase: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\nflags: [y, yes, On, no, OFF, 0777, 0b101, 1_000, 190:20:30, 2001-12-14]")" \
		"{\"base\":{\"true\":2,\"x\":1},\"flags\":[true,true,true,false,false,511,5,1000,685230,{}],\"use\":{\"true\":3,\"x\":1}}" &&
	check_canon "$(printf "%%YAML 1.1\n---\na: {<<: [{k: 1}, {k: 2, ~: n}]}")" \
		"{\"a\":{\"k\":1,\"null\":false}}"
'

test_expect_success 'a timestamp as a key is refused: its text depends on the time zone' '
	printf "%%YAML 1.1\n---\n2001-12-14: x\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a timestamp as a mapping key" err &&
	printf "!!timestamp 2001-12-14: x\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "unsupported YAML construct: a timestamp as a mapping key" err
'

test_expect_success '%YAML 1.1: a merge source that is not a map is an error' '
	printf "%%YAML 1.1\n---\n<<: 5\n" >in.yml &&
	test_expect_code 2 ahd-replay canon in.yml 2>err &&
	test_grep "invalid YAML: merge sources must be maps or map aliases" err
'

test_expect_success 'test-hash-batch is built' '
	test -x "$BATCH"
'

. "$TEST_SRC_DIR/t/lib-oracle.sh"
test_checked_in_vectors keys yaml11

oracle_prereq

test_expect_success NODE,ORACLE 'checked-in vectors match the generators' '
	for gen in keys yaml11
	do
		n=$(grep -c "" "$VECTORS/$gen.txt") &&
		"$NODE" "$oracle_dir/$gen.mjs" --seed vectors-$gen --count $n \
			--out v.bin &&
		cmp v.bin "$VECTORS/$gen.bin" || {
			echo "stale vectors: run t/oracle/make-key-vectors.sh" >&2
			return 1
		}
	done
'

for gen in keys yaml11
do
	eval "max=\$${gen}_max"
	test_expect_success NODE,ORACLE "live: $keys_count $gen documents, seed $keys_seed" '
		"$NODE" "$oracle_dir/$gen.mjs" --seed "$keys_seed" \
			--count "$keys_count" --out live-$gen.bin &&
		"$NODE" "$oracle_dir/oracle.mjs" live-$gen.bin >live-$gen.expected &&
		"$BATCH" live-$gen.bin >live-$gen.ours &&
		sh "$COMPARE" --corpus live-$gen.bin --max-unsupported $max \
			live-$gen.expected live-$gen.ours >live-$gen.compare ||
		{ cat live-$gen.compare; false; }
	'
	if test -f "$TRASH_DIRECTORY/live-$gen.compare"
	then
		sed -n -e "/^$/q" -e "s/^/# live $gen: /p" "$TRASH_DIRECTORY/live-$gen.compare"
	fi
done

test_done
