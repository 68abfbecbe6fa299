#!/bin/sh

test_description='hash: output format, stdin, several files, --raw, --jcs, errors

Every expected value here is computed without our binary: from sha256sum
of bytes that the test writes with printf, following SPEC section 4 (and
checked once against the reference, yaml@2.8.3).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# hash_line FILE NAME: what `hash` prints for a file whose hashed bytes
# are FILE's, reported under NAME.
hash_line () {
	printf 'sha256:%s  %s\n' "$(test_sha256 "$1")" "$2"
}

# test_hash_error PHRASE FILE [OPTION...]: hash FILE must fail with exit
# status 2, print nothing on stdout, and one line on stderr naming the
# file and containing PHRASE.
test_hash_error () {
	test_hash_error_phrase_=$1
	test_hash_error_file_=$2
	shift 2
	test_expect_code 2 ahd-replay hash "$@" "$test_hash_error_file_" \
		>out 2>err &&
	test_must_be_empty out &&
	test_line_count '=' 1 err &&
	test_grep -F "ahd-replay: $test_hash_error_file_: " err &&
	test_grep -i -F -e "$test_hash_error_phrase_" err
}

# test_hash_error_or_exact PHRASE FILE CANON: either the error above, or
# exactly the reference's hash (the canonical text CANON); never another
# hash.  For inputs that an implementation may reproduce or refuse.
test_hash_error_or_exact () {
	printf '%s' "$3" >expect.bytes &&
	hash_line expect.bytes "$2" >expect.line &&
	if ahd-replay hash "$2" >out 2>err
	then
		test_cmp expect.line out
	else
		test_hash_error "$1" "$2"
	fi
}

test_expect_success 'setup' '
	cat >token.yml <<-\EOF &&
	{b: 1, a: [true, null]}
	EOF
	printf "%s" "{\"a\":[true,null],\"b\":1}" >token.canon &&
	: >empty.yml &&
	printf null >null.canon &&
	printf "# Brief\n\nCaf\303\251 \342\202\254 \360\237\230\200 text.\n" >brief.md
'

test_expect_success 'structured hash: one line, sha256:<hex>, two spaces, name' '
	hash_line token.canon token.yml >expect &&
	ahd-replay hash token.yml >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	test_grep -E "^sha256:[0-9a-f]{64}  token\.yml$" actual
'

test_expect_success 'an empty file hashes as null' '
	hash_line null.canon empty.yml >expect &&
	ahd-replay hash empty.yml >actual &&
	test_cmp expect actual
'

test_expect_success 'a file of comments only hashes as null' '
	printf "# nothing here\n\n# at all\n" >comments.yml &&
	hash_line null.canon comments.yml >expect &&
	ahd-replay hash comments.yml >actual &&
	test_cmp expect actual
'

test_expect_success '- reads standard input and prints as -' '
	hash_line token.canon - >expect &&
	ahd-replay hash - <token.yml >actual &&
	test_cmp expect actual
'

test_expect_success 'several files print in the order given' '
	{
		hash_line token.canon token.yml &&
		hash_line null.canon empty.yml &&
		hash_line token.canon token.yml
	} >expect &&
	ahd-replay hash token.yml empty.yml token.yml >actual &&
	test_cmp expect actual
'

test_expect_success 'a path with a directory and a space prints as given' '
	mkdir -p "sub dir" &&
	cp token.yml "sub dir/my token.yml" &&
	hash_line token.canon "sub dir/my token.yml" >expect &&
	ahd-replay hash "sub dir/my token.yml" >actual &&
	test_cmp expect actual
'

test_expect_success '-- ends the options' '
	cp token.yml ./-dash.yml &&
	hash_line token.canon -dash.yml >expect &&
	ahd-replay hash -- -dash.yml >actual &&
	test_cmp expect actual
'

test_expect_success 'a missing file fails, the others still print, exit 2' '
	{
		hash_line token.canon token.yml &&
		hash_line null.canon empty.yml
	} >expect &&
	test_expect_code 2 ahd-replay hash token.yml missing.yml empty.yml \
		>actual 2>err &&
	test_cmp expect actual &&
	test_line_count = 1 err &&
	test_grep "^ahd-replay: missing\.yml: .*cannot open" err
'

test_expect_success 'an invalid file fails, the others still print, exit 2' '
	printf "a: 1\na: 2\n" >dup.yml &&
	{
		hash_line null.canon empty.yml &&
		hash_line token.canon token.yml
	} >expect &&
	test_expect_code 2 ahd-replay hash empty.yml dup.yml token.yml \
		>actual 2>err &&
	test_cmp expect actual &&
	test_line_count = 1 err &&
	test_grep "^ahd-replay: dup\.yml: " err
'

test_expect_success 'two failing files: two errors, exit 2' '
	hash_line token.canon token.yml >expect &&
	test_expect_code 2 ahd-replay hash missing1.yml token.yml missing2.yml \
		>actual 2>err &&
	test_cmp expect actual &&
	test_line_count = 2 err &&
	test_grep "^ahd-replay: missing1\.yml: " err &&
	test_grep "^ahd-replay: missing2\.yml: " err
'

test_expect_success 'a directory is not a file' '
	mkdir -p adir &&
	test_expect_code 2 ahd-replay hash adir >out 2>err &&
	test_must_be_empty out &&
	test_grep "^ahd-replay: adir: " err
'

# The example of the README's first command; the hashes are the
# reference's (yaml@2.8.3), to be renewed whenever examples/demo changes.
test_expect_success 'the bundled example hashes as the reference does' '
	demo=$TEST_SRC_DIR/examples/demo &&
	cp -R "$demo" demo &&
	cat >expect <<-\EOF &&
	sha256:6b37ae6f109245c3ff88210bcd762f457087d6052c4689754c4069353614e96f  demo/tokens/brutalist-grid.yml
	sha256:5dd3d7c10b616afbed71bf488cccb12935b15f43473314f242404a3d5bddf909  demo/tokens/swiss-editorial.yml
	sha256:df06f1e6ae593f8cbd0e6c3d1afc112de4d09e07c55649420654336c8f22e39f  demo/briefs/landing.yml
	sha256:91255e1dd69608d67ec5c82be48a539cdeb28dcc49251e6274bd7b1d52c5eee8  demo/briefs/pricing.md
	EOF
	ahd-replay hash demo/tokens/brutalist-grid.yml \
		demo/tokens/swiss-editorial.yml demo/briefs/landing.yml \
		demo/briefs/pricing.md >actual &&
	test_cmp expect actual &&
	hash_line demo/briefs/pricing.md demo/briefs/pricing.md >expect &&
	ahd-replay hash --raw demo/briefs/pricing.md >actual &&
	test_cmp expect actual
'

# Usage errors

test_expect_success 'no FILE is a usage error' '
	test_expect_code 2 ahd-replay hash >out 2>err &&
	test_must_be_empty out &&
	test_grep "usage: ahd-replay hash" err
'

test_expect_success '--raw with --jcs is a usage error' '
	test_expect_code 2 ahd-replay hash --raw --jcs token.yml >out 2>err &&
	test_must_be_empty out &&
	test_expect_code 2 ahd-replay hash --jcs --raw token.yml >out 2>err &&
	test_must_be_empty out
'

test_expect_success '--max-size wants a number' '
	test_expect_code 2 ahd-replay hash --max-size=lots token.yml >out 2>err &&
	test_must_be_empty out
'

# --raw

test_expect_success '--raw of valid UTF-8 equals sha256sum' '
	hash_line brief.md brief.md >expect &&
	ahd-replay hash --raw brief.md >actual &&
	test_cmp expect actual
'

test_expect_success '--raw hashes the bytes of a YAML file, not its value' '
	hash_line token.yml token.yml >expect &&
	ahd-replay hash --raw token.yml >actual &&
	test_cmp expect actual
'

test_expect_success '--raw of a 0-byte file is the hash of nothing' '
	: >zero.md &&
	echo "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  zero.md" >expect &&
	ahd-replay hash --raw zero.md >actual &&
	test_cmp expect actual
'

test_expect_success '--raw reads standard input' '
	hash_line brief.md - >expect &&
	ahd-replay hash --raw - <brief.md >actual &&
	test_cmp expect actual
'

# Each maximal invalid subsequence becomes U+FFFD (EF BF BD), as the
# WHATWG decoder does: a lone FF; C3 before an ASCII byte; a truncated
# E2 82; a surrogate ED A0 80 (three); an overlong C0 80 (two); F4 90
# beyond U+10FFFF (two); a truncated F0 9F 98 at the end (one).
test_expect_success '--raw of invalid UTF-8 hashes the repaired text' '
	printf "a\377b\303(c\342\202d\355\240\200e\300\200f\364\220g\360\237\230" \
		>bad.md &&
	R="\357\277\275" &&
	printf "a${R}b${R}(c${R}d${R}${R}${R}e${R}${R}f${R}${R}g${R}" >repaired &&
	hash_line repaired bad.md >expect &&
	ahd-replay hash --raw bad.md >actual &&
	test_cmp expect actual
'

test_expect_success '--raw keeps a leading BOM (valid UTF-8 is hashed as is)' '
	printf "\357\273\277# Title\r\n" >bom.md &&
	hash_line bom.md bom.md >expect &&
	ahd-replay hash --raw bom.md >actual &&
	test_cmp expect actual
'

# Structured input details

test_expect_success 'a leading BOM and CRLF line breaks hash like the clean file' '
	printf "a: 1\nb:\n  - x\n  - \"y z\"\n" >clean.yml &&
	printf "\357\273\277a: 1\r\nb:\r\n  - x\r\n  - \"y z\"\r\n" >dirty.yml &&
	printf "%s" "{\"a\":1,\"b\":[\"x\",\"y z\"]}" >clean.canon &&
	{
		hash_line clean.canon clean.yml &&
		hash_line clean.canon dirty.yml
	} >expect &&
	ahd-replay hash clean.yml dirty.yml >actual &&
	test_cmp expect actual
'

test_expect_success 'JSON input hashes as YAML' '
	printf "{\"b\": 1, \"a\": [true, null]}\n" >token.json &&
	hash_line token.canon token.json >expect &&
	ahd-replay hash token.json >actual &&
	test_cmp expect actual
'

test_expect_success 'a scalar anchor may be aliased 99 times' '
	{
		echo "a: &x 1" &&
		echo "l:" &&
		i=0 &&
		while test $i -lt 99
		do
			echo "  - *x" &&
			i=$((i + 1)) || return 1
		done
	} >alias99.yml &&
	{
		printf "{\"a\":1,\"l\":[1" &&
		i=1 &&
		while test $i -lt 99
		do
			printf ",1" &&
			i=$((i + 1)) || return 1
		done &&
		printf "]}"
	} >alias99.canon &&
	hash_line alias99.canon alias99.yml >expect &&
	ahd-replay hash alias99.yml >actual &&
	test_cmp expect actual
'

test_expect_success '--max-size above the size is fine' '
	hash_line token.canon token.yml >expect &&
	ahd-replay hash --max-size=1000 token.yml >actual &&
	test_cmp expect actual
'

test_expect_success '--raw streams files over --max-size' '
	i=0 &&
	while test $i -lt 20
	do
		echo "key$i: value number $i" || return 1
		i=$((i + 1))
	done >big.yml &&
	hash_line big.yml big.yml >expect &&
	ahd-replay hash --raw --max-size=100 big.yml >actual &&
	test_cmp expect actual
'

# Error classes: each is exit 2, one line on stderr, nothing on stdout.

test_expect_success 'error: duplicate keys' '
	printf "a: 1\nb: 2\na: 3\n" >dup-keys.yml &&
	test_hash_error "must be unique" dup-keys.yml
'

test_expect_success 'error: 1 and 1.0 are duplicate keys' '
	printf "1: a\n1.0: b\n" >dup-num.yml &&
	test_hash_error "must be unique" dup-num.yml
'

test_expect_success 'error: ~ and null are duplicate keys' '
	printf "~: a\nnull: b\n" >dup-null.yml &&
	test_hash_error "must be unique" dup-null.yml
'

test_expect_success 'error: 0x1 and 1 are duplicate keys' '
	printf "0x1: a\n1: b\n" >dup-hex.yml &&
	test_hash_error "must be unique" dup-hex.yml
'

test_expect_success 'error: two documents' '
	printf "a: 1\n---\nb: 2\n" >two-docs.yml &&
	test_hash_error "more than one document" two-docs.yml
'

test_expect_success 'error: an empty second document' '
	printf "a: 1\n---\n" >empty-second.yml &&
	test_hash_error "more than one document" empty-second.yml
'

test_expect_success 'error: a syntax error' '
	printf "a: [1, 2\n" >syntax.yml &&
	test_hash_error "invalid YAML" syntax.yml
'

test_expect_success 'error: tab indentation' '
	printf "a:\n\tb: 1\n" >tab.yml &&
	test_hash_error "invalid YAML" tab.yml
'

test_expect_success 'error: an implicit key over 1024 characters' '
	awk "BEGIN { for (i = 0; i < 1100; i++) printf \"k\"; print \": 1\" }" \
		>long-key.yml &&
	test_expect_code 2 ahd-replay hash long-key.yml >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err
'

test_expect_success 'error: an alias bomb' '
	cat >bomb.yml <<-\EOF &&
	a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
	b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
	c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
	d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
	e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
	f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
	g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
	h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
	i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
	EOF
	test_hash_error "alias" bomb.yml
'

test_expect_success 'error: a scalar anchor aliased 100 times' '
	{
		echo "a: &x 1" &&
		echo "l:" &&
		i=0 &&
		while test $i -lt 100
		do
			echo "  - *x" &&
			i=$((i + 1)) || return 1
		done
	} >alias100.yml &&
	test_hash_error "alias" alias100.yml
'

test_expect_success 'error: 2,000 levels of nesting' '
	awk "BEGIN { for (i = 0; i < 2000; i++) printf \"[\";
		for (i = 0; i < 2000; i++) printf \"]\"; print \"\" }" >deep.yml &&
	test_hash_error "nesting" deep.yml
'

test_expect_success 'error: 2,000 levels of nested block mappings' '
	awk "BEGIN { for (i = 0; i < 2000; i++) {
		for (j = 0; j < i; j++) printf \" \"; print \"k:\" } }" >deep-map.yml &&
	test_hash_error "nesting" deep-map.yml
'

test_expect_success 'error: a file over --max-size' '
	test_hash_error "limit" big.yml --max-size=100
'

test_expect_success 'error: a missing file' '
	test_hash_error "cannot open" no-such-file.yml
'

test_expect_success 'error: %YAML 1.1 is refused (or reproduced exactly)' '
	printf "%%YAML 1.1\n---\na: yes\n" >yaml11.yml &&
	test_hash_error_or_exact "unsupported YAML construct" yaml11.yml \
		"{\"a\":true}"
'

test_expect_success 'error: invalid JSON with --jcs' '
	printf "{\"a\": 1,}\n" >trailing-comma.json &&
	test_hash_error "invalid JSON" trailing-comma.json --jcs
'

test_expect_success 'error: YAML that is not JSON with --jcs' '
	test_hash_error "invalid JSON" token.yml --jcs
'

# The reference hashes a NUL inside a plain scalar as "\u0000"; libyaml
# refuses it.  Either that exact hash or a one-line error, never another
# hash.
test_expect_success 'a NUL byte gives one error line (or the exact hash)' '
	printf "a: b\000c\n" >nul.yml &&
	test_hash_error_or_exact "" nul.yml "{\"a\":\"b\\u0000c\"}"
'

test_expect_success 'a file of one NUL byte: one error line (or the exact hash)' '
	printf "\000" >nul-only.yml &&
	test_hash_error_or_exact "" nul-only.yml "\"\\u0000\""
'

# --jcs: RFC 8785 on the published vectors.

test_expect_success '--jcs hashes the RFC 8785 vectors' '
	vectors=$TEST_DIRECTORY/vectors/jcs &&
	for name in arrays french structures unicode values weird
	do
		cp "$vectors/input/$name.json" $name.json &&
		hash_line "$vectors/output/$name.json" $name.json >>expect.jcs ||
		return 1
	done &&
	ahd-replay hash --jcs arrays.json french.json structures.json \
		unicode.json values.json weird.json >actual.jcs &&
	test_cmp expect.jcs actual.jcs
'

test_expect_success '--jcs has no array-index rule' '
	printf "{\"10\": 1, \"2\": 2, \"a\": 3}" >idx.json &&
	printf "%s" "{\"10\":1,\"2\":2,\"a\":3}" >idx.jcs &&
	printf "%s" "{\"2\":2,\"10\":1,\"a\":3}" >idx.canon &&
	{
		hash_line idx.jcs idx.json &&
		hash_line idx.canon idx.json
	} >expect &&
	ahd-replay hash --jcs idx.json >actual &&
	ahd-replay hash idx.json >>actual &&
	test_cmp expect actual
'

test_done
