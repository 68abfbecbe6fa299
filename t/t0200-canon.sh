#!/bin/sh

test_description='canon: the canonical text of SPEC 4.3 and RFC 8785

Expected texts come from the specification (checked once against the
reference: yaml@2.8.3 parse, then JSON.stringify(canonicalizeJson(v))),
never from our binary.  Each check also hashes the file and compares with
sha256sum of the expected text.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# check_canon INPUT EXPECT [OPTION]: `canon` prints EXPECT (a file: the
# canonical text and one newline), and `hash` prints the SHA-256 of the
# canonical text without that newline.
check_canon () {
	ahd-replay canon $3 "$1" >actual 2>err &&
	test_cmp "$2" actual &&
	test_must_be_empty err &&
	printf "%s" "$(cat "$2")" >expect.bytes &&
	printf 'sha256:%s  %s\n' "$(test_sha256 expect.bytes)" "$1" >expect.hash &&
	ahd-replay hash $3 "$1" >actual.hash &&
	test_cmp expect.hash actual.hash
}

test_expect_success 'keys sorted, compact, one trailing newline' '
	cat >in.yml <<-\EOF &&
	{b: 1, a: [true, null]}
	EOF
	cat >expect <<-\EOF &&
	{"a":[true,null],"b":1}
	EOF
	check_canon in.yml expect
'

test_expect_success 'canon - reads standard input' '
	echo "{b: 1, a: [true, null]}" >in.yml &&
	echo "{\"a\":[true,null],\"b\":1}" >expect &&
	ahd-replay canon - <in.yml >actual &&
	test_cmp expect actual
'

test_expect_success 'a realistic token' '
	cat >token.yml <<-\EOF &&
	# Swiss editorial
	name: swiss-editorial
	version: 3
	color:
	  ink: "#111111"
	  paper: "#fafaf7"
	  accent: {red: "#d0021b", muted: "#8b1a1a"}
	type:
	  family: "Neue Haas Grotesk, Helvetica, Arial, sans-serif"
	  scale: [12, 14, 16, 20, 25, 31.25, 39.0625]
	  leading: 1.35
	spacing:
	  unit: 8
	  steps: [0, 0.5, 1, 2, 3, 5, 8]
	rules:
	  - id: grid
	    columns: 12
	    gutter: 24px
	  - id: contrast
	    min_ratio: 4.5
	    enabled: true
	notes: |
	  Flush left, ragged right.
	  No centred headlines.
	EOF
	cat >expect <<-\EOF &&
	{"color":{"accent":{"muted":"#8b1a1a","red":"#d0021b"},"ink":"#111111","paper":"#fafaf7"},"name":"swiss-editorial","notes":"Flush left, ragged right.\nNo centred headlines.\n","rules":[{"columns":12,"gutter":"24px","id":"grid"},{"enabled":true,"id":"contrast","min_ratio":4.5}],"spacing":{"steps":[0,0.5,1,2,3,5,8],"unit":8},"type":{"family":"Neue Haas Grotesk, Helvetica, Arial, sans-serif","leading":1.35,"scale":[12,14,16,20,25,31.25,39.0625]},"version":3}
	EOF
	check_canon token.yml expect
'

test_expect_success 'integer-like keys come first, in numeric order' '
	cat >in.yml <<-\EOF &&
	{b: 1, "10": x, "2": y, a: z}
	EOF
	cat >expect <<-\EOF &&
	{"2":"y","10":"x","a":"z","b":1}
	EOF
	check_canon in.yml expect
'

test_expect_success 'array-index keys: up to 4294967294, no sign, no leading 0' '
	cat >in.yml <<-\EOF &&
	{"4294967295": a, "4294967294": b, "01": c, "-1": d, "0": e, "1": f}
	EOF
	cat >expect <<-\EOF &&
	{"0":"e","1":"f","4294967294":"b","-1":"d","01":"c","4294967295":"a"}
	EOF
	check_canon in.yml expect
'

# U+1F600 is D83D DE00 in UTF-16, so it sorts before U+E000; by code
# point or by UTF-8 bytes it would sort after.
test_expect_success 'other keys sort by UTF-16 code units' '
	printf "\"\\\\uE000\": 1\n\"\\\\U0001F600\": 2\n" >in.yml &&
	printf "{\"\360\237\230\200\":2,\"\356\200\200\":1}\n" >expect &&
	check_canon in.yml expect
'

test_expect_success '__proto__ is dropped' '
	cat >in.yml <<-\EOF &&
	{__proto__: 1, a: 2}
	EOF
	cat >expect <<-\EOF &&
	{"a":2}
	EOF
	check_canon in.yml expect
'

test_expect_success '__proto__ with a map value is dropped too' '
	cat >in.yml <<-\EOF &&
	__proto__: {x: 1}
	a: 2
	EOF
	cat >expect <<-\EOF &&
	{"a":2}
	EOF
	check_canon in.yml expect
'

test_expect_success 'non-string keys become strings' '
	cat >in.yml <<-\EOF &&
	1: a
	EOF
	echo "{\"1\":\"a\"}" >expect &&
	check_canon in.yml expect &&
	cat >in.yml <<-\EOF &&
	null: x
	EOF
	echo "{\"\":\"x\"}" >expect &&
	check_canon in.yml expect &&
	cat >in.yml <<-\EOF &&
	true: x
	~: y
	EOF
	echo "{\"\":\"y\",\"true\":\"x\"}" >expect &&
	check_canon in.yml expect
'

test_expect_success '1 and "1" do not collide: the later value wins' '
	cat >in.yml <<-\EOF &&
	{1: a, "1": b}
	EOF
	echo "{\"1\":\"b\"}" >expect &&
	check_canon in.yml expect
'

# Numbers: IEEE-754 doubles printed by ECMAScript Number::toString.
while read -r input output
do
	test_expect_success "number: $input prints $output" '
		printf "v: %s\n" "$input" >in.yml &&
		printf "{\"v\":%s}\n" "$output" >expect &&
		check_canon in.yml expect
	'
done <<\EOF
12345678901234567890 12345678901234567000
1e21 1e+21
1e20 100000000000000000000
-0 0
.inf null
-.Inf null
.NaN null
0x1F 31
012 12
0o17 15
1e-7 1e-7
0.000001 0.000001
.5 0.5
+12 12
1.0 1
1.50 1.5
-1.5e-10 -1.5e-10
5e-324 5e-324
0X1F "0X1F"
0b101 "0b101"
1_000 "1_000"
EOF

# Plain scalars resolve by the YAML 1.2 core schema.
while read -r input output
do
	test_expect_success "scalar: $input is $output" '
		printf "v: %s\n" "$input" >in.yml &&
		printf "{\"v\":%s}\n" "$output" >expect &&
		check_canon in.yml expect
	'
done <<\EOF
yes "yes"
on "on"
off "off"
y "y"
Yes "Yes"
true true
True true
FALSE false
null null
NULL null
~ null
"true" "true"
'null' "null"
EOF

test_expect_success 'an empty value is null' '
	printf "v:\n" >in.yml &&
	echo "{\"v\":null}" >expect &&
	check_canon in.yml expect
'

test_expect_success 'strings escape as JSON.stringify does' '
	printf "s: \"\\\\x01\\\\t\\\\n\\\\x7f\\\\u2028\\\\\\\\\\\\\"\\\\u00e9\"\n" >in.yml &&
	printf "{\"s\":\"\\\\u0001\\\\t\\\\n\177\342\200\250\\\\\\\\\\\\\"\303\251\"}\n" \
		>expect &&
	check_canon in.yml expect
'

test_expect_success 'a lone surrogate prints as \udxxx, a pair as UTF-8' '
	printf "s: \"\\\\ud800x\"\nt: \"\\\\uDBFF\\\\uDFFF\"\n" >in.yml &&
	printf "{\"s\":\"\\\\ud800x\",\"t\":\"\364\217\277\277\"}\n" >expect &&
	check_canon in.yml expect
'

test_expect_success 'aliases expand to a copy' '
	cat >in.yml <<-\EOF &&
	a: &x {k: 1}
	b: *x
	EOF
	echo "{\"a\":{\"k\":1},\"b\":{\"k\":1}}" >expect &&
	check_canon in.yml expect
'

test_expect_success '<< is an ordinary key (no merge in YAML 1.2)' '
	cat >in.yml <<-\EOF &&
	base: &b {x: 1}
	m:
	  <<: *b
	  y: 2
	EOF
	echo "{\"base\":{\"x\":1},\"m\":{\"<<\":{\"x\":1},\"y\":2}}" >expect &&
	check_canon in.yml expect
'

test_expect_success 'block scalars and chomping' '
	cat >in.yml <<-\EOF &&
	a: |
	  line1
	  line2
	b: >-
	  folded
	  text
	c: |-
	  keep

	d: |+
	  plus

	EOF
	cat >expect <<-\EOF &&
	{"a":"line1\nline2\n","b":"folded text","c":"keep","d":"plus\n\n"}
	EOF
	check_canon in.yml expect
'

test_expect_success 'tags: !!str, !!int, unknown tags stay strings' '
	cat >in.yml <<-\EOF &&
	a: !!str 123
	c: !custom x
	e: !!int "42"
	f: !!bool "true"
	g: !!null ""
	EOF
	cat >expect <<-\EOF &&
	{"a":"123","c":"x","e":42,"f":true,"g":null}
	EOF
	check_canon in.yml expect
'

test_expect_success '!!binary becomes an object of index to byte' '
	cat >in.yml <<-\EOF &&
	d: !!binary aGk=
	EOF
	echo "{\"d\":{\"0\":104,\"1\":105}}" >expect &&
	check_canon in.yml expect
'

test_expect_success 'an empty document is null' '
	: >in.yml &&
	echo null >expect &&
	check_canon in.yml expect &&
	printf -- "---\n" >in.yml &&
	check_canon in.yml expect &&
	printf -- "--- \n...\n" >in.yml &&
	check_canon in.yml expect
'

test_expect_success 'a document of one scalar' '
	printf -- "--- |\n  text\n" >in.yml &&
	printf "%s\n" "\"text\\n\"" >expect &&
	check_canon in.yml expect
'

test_expect_success 'explicit document markers change nothing' '
	printf -- "---\na: 1\n...\n" >in.yml &&
	echo "{\"a\":1}" >expect &&
	check_canon in.yml expect
'

test_expect_success 'a leading BOM and CRLF parse like the clean file' '
	printf "\357\273\277a: 1\r\nb:\r\n  - x\r\n  - \"y z\"\r\n" >in.yml &&
	echo "{\"a\":1,\"b\":[\"x\",\"y z\"]}" >expect &&
	check_canon in.yml expect
'

test_expect_success 'invalid UTF-8 is repaired before parsing' '
	printf "s: a\377b\n" >in.yml &&
	printf "{\"s\":\"a\357\277\275b\"}\n" >expect &&
	check_canon in.yml expect
'

# Errors: canon fails like hash does, and prints nothing on stdout.

test_expect_success 'errors: exit 2, one line on stderr, nothing on stdout' '
	printf "a: 1\na: 2\n" >dup.yml &&
	printf "a: 1\n---\nb: 2\n" >two.yml &&
	printf "a: [1, 2\n" >syntax.yml &&
	for f in dup.yml two.yml syntax.yml missing.yml
	do
		test_expect_code 2 ahd-replay canon $f >out 2>err &&
		test_must_be_empty out &&
		test_line_count = 1 err &&
		test_grep "^ahd-replay: $f: " err || return 1
	done
'

test_expect_success 'canon takes exactly one FILE' '
	test_expect_code 2 ahd-replay canon >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 2 ahd-replay canon in.yml in.yml >out 2>err &&
	test_must_be_empty out
'

# --jcs: RFC 8785.

test_expect_success 'canon --jcs reproduces the RFC 8785 vectors' '
	vectors=$TEST_DIRECTORY/vectors/jcs &&
	for name in arrays french structures unicode values weird
	do
		cp "$vectors/input/$name.json" $name.json &&
		{ cat "$vectors/output/$name.json" && echo; } >expect.$name &&
		check_canon $name.json expect.$name --jcs || return 1
	done
'

test_expect_success 'the RFC 8785 vectors match their hex dumps' '
	vectors=$TEST_DIRECTORY/vectors/jcs &&
	for name in arrays french structures unicode values weird
	do
		od -An -v -tx1 "$vectors/output/$name.json" | tr -d " \n" >od.hex &&
		tr -d " \n" <"$vectors/outhex/$name.txt" >want.hex &&
		test_cmp want.hex od.hex || return 1
	done
'

test_expect_success '--jcs: no array-index rule, numbers as in ECMAScript' '
	printf "{\"b\": [1E2, -0, 0.1e-6, 4.50], \"10\": 1, \"2\": 2}" >in.json &&
	echo "{\"10\":1,\"2\":2,\"b\":[100,0,1e-7,4.5]}" >expect &&
	check_canon in.json expect --jcs
'

test_expect_success '--jcs refuses input that is not JSON' '
	printf "a: 1\n" >in.yml &&
	test_expect_code 2 ahd-replay canon --jcs in.yml >out 2>err &&
	test_must_be_empty out &&
	test_grep -i "invalid JSON" err
'

test_expect_success '--jcs refuses duplicate keys' '
	printf "{\"a\": 1, \"a\": 2}" >dup.json &&
	test_expect_code 2 ahd-replay canon --jcs dup.json >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err
'

test_done
