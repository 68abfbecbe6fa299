#!/bin/sh

test_description='validate: sidecars against schema/replay.schema.json

Every violation is listed as "FILE: /json/pointer: message"; exit 0 when
all files are valid, 1 when any violates the schema, 2 for usage errors
and files that are not JSON at all.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

AHD_REPLAY_SCHEMA=$TEST_SRC_DIR/schema/replay.schema.json
export AHD_REPLAY_SCHEMA

H0=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
H1=sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210

# sidecar FILE [SED-EXPRESSION]: write the good sidecar, edited by sed.
sidecar () {
	sed -e "${2:-}" good.replay.json >"$1"
}

# test_violation FILE 'expected lines': validate FILE must exit 1 and
# print exactly the expected lines, nothing on stderr.
test_violation () {
	printf '%s\n' "$2" >expect &&
	test_expect_code 1 ahd-replay validate "$1" >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
}

# test_unusable FILE PHRASE: exit 2, nothing on stdout, one line on
# stderr naming the file.
test_unusable () {
	test_expect_code 2 ahd-replay validate "$1" >out 2>err &&
	test_must_be_empty out &&
	test_line_count "=" 1 err &&
	test_grep -F "ahd-replay: $1: $2" err
}

test_expect_success 'setup' '
	cat >good.replay.json <<-EOF &&
	{
	  "schema_version": 1,
	  "kind": "eval-live",
	  "ahd_version": "0.11.0",
	  "ahd_commit": "905b740756a181d64097b96f42f6d9c0f52093db",
	  "git_dirty": true,
	  "node_version": "v22.22.2",
	  "platform": "darwin-arm64",
	  "invoked_at": "2026-08-03T09:57:42.291Z",
	  "argv": [
	    "/usr/bin/node",
	    "ahd",
	    "eval",
	    "--n",
	    "30"
	  ],
	  "token": {
	    "path": "tokens/swiss-editorial.yml",
	    "hash": "$H0"
	  },
	  "brief": {
	    "path": "briefs/landing.yml",
	    "hash": "$H1"
	  },
	  "sampling": {
	    "n": 30,
	    "temperature": null,
	    "seed": null
	  },
	  "models": [
	    {
	      "id": "cf:@cf/google/gemma-4-26b-a4b-it",
	      "provider": "cloudflare-workers-ai",
	      "provider_request_ids": [
	        "req_1",
	        "req_2"
	      ]
	    }
	  ],
	  "conditions": {
	    "requested": [
	      "raw",
	      "compiled"
	    ],
	    "effective": [
	      "raw",
	      "compiled"
	    ]
	  }
	}
	EOF
	cat >backfilled.replay.json <<-EOF
	{
	  "schema_version": 1,
	  "kind": "critique",
	  "ahd_version": "unknown",
	  "ahd_commit": null,
	  "git_dirty": null,
	  "node_version": "unknown",
	  "platform": "unknown",
	  "invoked_at": "2026-04-22T10:00:00Z",
	  "argv": [],
	  "token": {
	    "path": "tokens/swiss-editorial.yml",
	    "hash": "$H0"
	  },
	  "brief": null,
	  "sampling": {
	    "n": 1,
	    "temperature": 0.7,
	    "seed": 42
	  },
	  "models": [],
	  "conditions": {
	    "requested": [],
	    "effective": []
	  },
	  "backfilled": true
	}
	EOF
'

test_expect_success 'a valid sidecar: "FILE: valid", exit 0' '
	echo "good.replay.json: valid" >expect &&
	ahd-replay validate good.replay.json >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'a backfilled critique sidecar with nulls is valid' '
	echo "backfilled.replay.json: valid" >expect &&
	ahd-replay validate backfilled.replay.json >actual &&
	test_cmp expect actual
'

test_expect_success 'a report operand checks its sidecar' '
	cp good.replay.json report.replay.json &&
	echo "report.replay.json: valid" >expect &&
	ahd-replay validate report.md >actual &&
	test_cmp expect actual
'

test_expect_success 'standard input' '
	echo "-: valid" >expect &&
	ahd-replay validate - <good.replay.json >actual &&
	test_cmp expect actual
'

test_expect_success 'a repeated key keeps its last value, as JSON.parse does' '
	sidecar dup.replay.json "s/\"kind\": \"eval-live\",/\"kind\": 5, \"kind\": \"critique\",/" &&
	echo "dup.replay.json: valid" >expect &&
	ahd-replay validate dup.replay.json >actual &&
	test_cmp expect actual
'

test_expect_success 'an unknown top-level key is an error' '
	sidecar extra.replay.json "s/^{/{ \"note\": \"hi\",/" &&
	test_violation extra.replay.json \
		"extra.replay.json: /note: is not allowed (additional property)"
'

test_expect_success 'an unknown key inside token' '
	sidecar extra-token.replay.json "s|\"path\": \"tokens/|\"size\": 3, \"path\": \"tokens/|" &&
	test_violation extra-token.replay.json \
		"extra-token.replay.json: /token/size: is not allowed (additional property)"
'

test_expect_success 'a missing required property' '
	sidecar no-hash.replay.json "/\"hash\": \"$H0\"/d; s|\"tokens/swiss-editorial.yml\",|\"tokens/swiss-editorial.yml\"|" &&
	test_violation no-hash.replay.json \
		"no-hash.replay.json: /token: must have required property '"'"'hash'"'"'"
'

test_expect_success 'a missing top-level property' '
	sidecar no-models.replay.json "/\"models\": \[/,/^  \],/d" &&
	test_violation no-models.replay.json \
		"no-models.replay.json: (root): must have required property '"'"'models'"'"'"
'

test_expect_success 'wrong hash prefix' '
	sidecar sha1.replay.json "s/\"$H0\"/\"sha1:0123\"/" &&
	test_violation sha1.replay.json \
		"sha1.replay.json: /token/hash: must match pattern \"^sha256:[0-9a-f]{64}\$\""
'

test_expect_success 'upper-case hex in a hash' '
	sidecar upper.replay.json "s/\"$H1\"/\"sha256:FEDCBA9876543210fedcba9876543210fedcba9876543210fedcba9876543210\"/" &&
	test_violation upper.replay.json \
		"upper.replay.json: /brief/hash: must match pattern \"^sha256:[0-9a-f]{64}\$\""
'

test_expect_success 'kind outside the enum' '
	sidecar kind.replay.json "s/\"eval-live\"/\"eval\"/" &&
	test_violation kind.replay.json \
		"kind.replay.json: /kind: must be one of \"eval-live\", \"critique\", \"eval-image\""
'

test_expect_success 'a value of the wrong type' '
	sidecar type.replay.json "s/\"git_dirty\": true/\"git_dirty\": \"yes\"/" &&
	test_violation type.replay.json \
		"type.replay.json: /git_dirty: must be boolean or null"
'

test_expect_success 'an empty string where minLength is 1' '
	sidecar empty.replay.json "s/\"v22.22.2\"/\"\"/" &&
	test_violation empty.replay.json \
		"empty.replay.json: /node_version: must not be empty"
'

test_expect_success 'ahd_commit not 40 hex digits' '
	sidecar commit.replay.json "s/905b740756a181d64097b96f42f6d9c0f52093db/905b740/" &&
	test_violation commit.replay.json \
		"commit.replay.json: /ahd_commit: must match pattern \"^[0-9a-f]{40}\$\""
'

test_expect_success 'sampling.n of 0 (exclusiveMinimum)' '
	sidecar n0.replay.json "s/\"n\": 30/\"n\": 0/" &&
	test_violation n0.replay.json "n0.replay.json: /sampling/n: must be > 0"
'

test_expect_success 'sampling.n not an integer, seed not an integer' '
	sidecar n-frac.replay.json "s/\"n\": 30/\"n\": 2.5/; s/\"seed\": null/\"seed\": 1e-3/" &&
	test_violation n-frac.replay.json "n-frac.replay.json: /sampling/n: must be integer
n-frac.replay.json: /sampling/seed: must be integer or null"
'

test_expect_success 'sampling.n written 30.0 is an integer (JSON.parse)' '
	sidecar n-real.replay.json "s/\"n\": 30/\"n\": 30.0/" &&
	ahd-replay validate n-real.replay.json >actual &&
	echo "n-real.replay.json: valid" >expect &&
	test_cmp expect actual
'

test_expect_success 'invoked_at that is not an RFC 3339 date-time' '
	sidecar date.replay.json "s/2026-08-03T09:57:42.291Z/2026-08-03 09:57/" &&
	test_violation date.replay.json \
		"date.replay.json: /invoked_at: must be an RFC 3339 date-time"
'

test_expect_success 'brief neither an object nor null (anyOf)' '
	sidecar brief.replay.json "s|\"brief\": {|\"brief\": [], \"x\": {|" &&
	test_violation brief.replay.json \
		"brief.replay.json: /brief: must be object or null
brief.replay.json: /x: is not allowed (additional property)"
'

test_expect_success 'brief with a bad hash reports inside the object branch' '
	sidecar brief-hash.replay.json "s/\"$H1\"/\"\"/" &&
	test_violation brief-hash.replay.json \
		"brief-hash.replay.json: /brief/hash: must match pattern \"^sha256:[0-9a-f]{64}\$\""
'

test_expect_success 'array items: argv and provider_request_ids' '
	sidecar items.replay.json "s/\"--n\",/7,/; s/\"req_2\"/null/" &&
	test_violation items.replay.json "items.replay.json: /argv/3: must be string
items.replay.json: /models/0/provider_request_ids/1: must be string"
'

test_expect_success 'every violation of a file is listed, in document order' '
	sidecar many.replay.json "s/\"eval-live\"/\"x\"/; s/\"n\": 30/\"n\": -1/; s/\"darwin-arm64\"/\"\"/" &&
	test_violation many.replay.json "many.replay.json: /kind: must be one of \"eval-live\", \"critique\", \"eval-image\"
many.replay.json: /platform: must not be empty
many.replay.json: /sampling/n: must be > 0"
'

test_expect_success 'a key with a slash or a tilde is escaped in the path' '
	sidecar escape.replay.json "s|^{|{ \"a/b~c\": 1,|" &&
	test_violation escape.replay.json \
		"escape.replay.json: /a~1b~0c: is not allowed (additional property)"
'

test_expect_success 'a control character in a key stays on one line' '
	sidecar ctl.replay.json "s|^{|{ \"a\\\\nb\": 1,|" &&
	test_violation ctl.replay.json \
		"ctl.replay.json: /a\\x0ab: is not allowed (additional property)"
'

test_expect_success 'schema_version 2: refused, and the message says why' '
	sidecar v2.replay.json "s/\"schema_version\": 1/\"schema_version\": 2/" &&
	test_violation v2.replay.json \
		"v2.replay.json: /schema_version: must be 1 (schema_version 2 was written by a newer version; this tool understands 1)"
'

test_expect_success 'schema_version as a string' '
	sidecar v-str.replay.json "s/\"schema_version\": 1/\"schema_version\": \"1\"/" &&
	test_violation v-str.replay.json \
		"v-str.replay.json: /schema_version: must be number"
'

test_expect_success 'a JSON array instead of an object' '
	echo "[1, 2]" >array.replay.json &&
	test_violation array.replay.json "array.replay.json: (root): must be object"
'

test_expect_success 'a JSON scalar instead of an object' '
	echo "null" >null.replay.json &&
	test_violation null.replay.json "null.replay.json: (root): must be object"
'

test_expect_success 'an empty object lists every required property' '
	echo "{}" >obj.replay.json &&
	test_expect_code 1 ahd-replay validate obj.replay.json >actual &&
	test_line_count = 14 actual &&
	test_grep -F "obj.replay.json: (root): must have required property '"'"'schema_version'"'"'" actual &&
	test_grep -F "obj.replay.json: (root): must have required property '"'"'conditions'"'"'" actual
'

test_expect_success 'truncated JSON: exit 2, one line on stderr' '
	head -c 200 good.replay.json >trunc.replay.json &&
	test_unusable trunc.replay.json "invalid JSON: "
'

test_expect_success 'binary garbage: exit 2' '
	printf "\377\376\000\001\002garbage\200\n" >garbage.replay.json &&
	test_unusable garbage.replay.json "invalid JSON: "
'

test_expect_success 'an empty file: exit 2' '
	: >empty-file.replay.json &&
	test_unusable empty-file.replay.json "invalid JSON: "
'

test_expect_success 'a missing file: exit 2' '
	test_unusable missing.replay.json "cannot open"
'

test_expect_success 'a directory: exit 2' '
	mkdir dir.replay.json &&
	test_unusable dir.replay.json "cannot open"
'

test_expect_success 'several files: one block each and a summary line' '
	cat >expect <<-\EOF &&
	good.replay.json: valid
	n0.replay.json: /sampling/n: must be > 0
	backfilled.replay.json: valid
	3 sidecars: 2 valid, 1 invalid, 0 errors
	EOF
	test_expect_code 1 ahd-replay validate good.replay.json n0.replay.json \
		backfilled.replay.json >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'several files, all valid: exit 0' '
	ahd-replay validate good.replay.json backfilled.replay.json >actual &&
	test_grep "^2 sidecars: 2 valid, 0 invalid, 0 errors$" actual
'

test_expect_success 'several files with an unreadable one: the rest still checked, exit 2' '
	cat >expect <<-\EOF &&
	good.replay.json: valid
	n0.replay.json: /sampling/n: must be > 0
	3 sidecars: 1 valid, 1 invalid, 1 errors
	EOF
	test_expect_code 2 ahd-replay validate good.replay.json \
		trunc.replay.json n0.replay.json >actual 2>err &&
	test_cmp expect actual &&
	test_line_count "=" 1 err &&
	test_grep "^ahd-replay: trunc.replay.json: invalid JSON: " err
'

test_expect_success '--format json: one document for all files' '
	cat >expect <<-\EOF &&
	[
	  {
	    "file": "good.replay.json",
	    "valid": true,
	    "errors": []
	  },
	  {
	    "file": "many.replay.json",
	    "valid": false,
	    "errors": [
	      {
	        "path": "/kind",
	        "message": "must be one of \"eval-live\", \"critique\", \"eval-image\""
	      },
	      {
	        "path": "/platform",
	        "message": "must not be empty"
	      },
	      {
	        "path": "/sampling/n",
	        "message": "must be > 0"
	      }
	    ]
	  },
	  {
	    "file": "array.replay.json",
	    "valid": false,
	    "errors": [
	      {
	        "path": "",
	        "message": "must be object"
	      }
	    ]
	  }
	]
	EOF
	test_expect_code 1 ahd-replay validate --format=json good.replay.json \
		many.replay.json array.replay.json >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success '--format json with an unusable file: an "error" member, exit 2' '
	cat >expect <<-\EOF &&
	[
	  {
	    "file": "missing.replay.json",
	    "valid": false,
	    "errors": [],
	    "error": "cannot open: No such file or directory"
	  }
	]
	EOF
	test_expect_code 2 ahd-replay validate --format json missing.replay.json \
		>actual 2>err &&
	test_cmp expect actual &&
	test_grep "^ahd-replay: missing.replay.json: cannot open" err
'

test_expect_success '--format json, all valid: exit 0' '
	ahd-replay validate --format json good.replay.json >actual &&
	test_grep "\"valid\": true" actual
'

test_expect_success '--schema: another schema file' '
	echo "{\"type\": \"object\", \"required\": [\"x\"]}" >x.schema.json &&
	echo "{\"x\": 1}" >x.json &&
	echo "x.json: valid" >expect &&
	ahd-replay validate --schema x.schema.json x.json >actual &&
	test_cmp expect actual &&
	echo "good.replay.json: (root): must have required property '"'"'x'"'"'" >expect &&
	test_expect_code 1 ahd-replay validate --schema=x.schema.json \
		good.replay.json >actual &&
	test_cmp expect actual
'

test_expect_success 'a schema with a keyword we do not implement is refused' '
	echo "{\"oneOf\": [{}]}" >bad.schema.json &&
	test_expect_code 2 ahd-replay validate --schema bad.schema.json \
		good.replay.json >out 2>err &&
	test_must_be_empty out &&
	test_grep "unsupported keyword .oneOf." err
'

test_expect_success 'a schema with a pattern we cannot translate exactly is refused' '
	echo "{\"pattern\": \"^.+\$\"}" >dot.schema.json &&
	test_expect_code 2 ahd-replay validate --schema dot.schema.json \
		good.replay.json >out 2>err &&
	test_grep "/pattern: unsupported pattern construct" err
'

test_expect_success 'AHD_REPLAY_SCHEMA naming a missing file: exit 2' '
	test_expect_code 2 env AHD_REPLAY_SCHEMA=nowhere.json \
		ahd-replay validate good.replay.json >out 2>err &&
	test_must_be_empty out &&
	test_grep "nowhere.json: cannot open" err
'

test_expect_success 'the schema beside an uninstalled in-tree binary is found' '
	mkdir -p fake/schema &&
	cp "$AHD_REPLAY" fake/ahd-replay &&
	echo "{\"required\": [\"fake\"]}" >fake/schema/replay.schema.json &&
	test_expect_code 1 env -u AHD_REPLAY_SCHEMA fake/ahd-replay validate \
		good.replay.json >actual &&
	test_grep "required property .fake." actual
'

test_expect_success 'validate -h prints the usage on stdout, exit 0' '
	ahd-replay validate -h >out 2>err &&
	test_must_be_empty err &&
	head -n 1 out >first &&
	echo "usage: ahd-replay validate [--schema=<file>] [--format=text|json|github|sarif|junit] [--output=<format>:<file>]... [--quiet] [--allow-outside-root] [<sidecar>...]" >expect &&
	test_cmp expect first &&
	ahd-replay help validate >help &&
	test_cmp out help
'

test_expect_success 'the man page SYNOPSIS matches validate -h' '
	sed -n "/^\.SH SYNOPSIS/,/^\.SH/p" "$TEST_SRC_DIR/doc/ahd-replay-validate.1" |
	grep "^\\\\fBahd" |
	sed -e "s/\\\\f[BIR]//g" -e "s/\\\\-/-/g" -e "s/^/usage: /" >synopsis &&
	ahd-replay validate -h >out &&
	head -n 1 out >first &&
	test_cmp first synopsis
'

test_expect_success 'usage errors: exit 2' '
	test_expect_code 2 ahd-replay validate >out 2>err &&
	test_grep "no sidecar given" err &&
	test_expect_code 2 ahd-replay validate --bogus good.replay.json 2>err &&
	test_grep "unknown option .--bogus." err &&
	test_expect_code 2 ahd-replay validate --format=xml good.replay.json 2>err &&
	test_grep "unknown --format .xml." err &&
	test_expect_code 2 ahd-replay validate --schema 2>err &&
	test_grep "option .--schema. needs a value" err
'

test_expect_success 'validate is listed in --help' '
	ahd-replay --help >out &&
	test_grep "^    validate " out
'

# The pattern translation must agree with ECMAScript's RegExp exactly;
# compare with node on patterns and strings chosen to catch byte-versus-
# character and anchoring mistakes.
test_expect_success NODE 'patterns match exactly as RegExp.prototype.test' '
	cat >patterns.txt <<-\EOF &&
	^sha256:[0-9a-f]{64}$
	^[0-9a-f]{40}$
	a+
	^a*$
	^(?:ab|cd)+$
	^\d{2,3}$
	^\w+$
	^[\w.-]+$
	^[a-c-e]$
	café+
	^x{2}y?$
	^(é|ü)+$
	\$\^
	[\]\\]
	EOF
	cat >strings.json <<-\EOF &&
	["", "a", "aa", "ab", "abcd", "cdab", "12", "123", "1234", "a_Z9",
	 "a-b", "é", "éé", "caf\u00e9", "cafe\u0301", "cafééé", "xx", "xxy",
	 "xxyy", "\n", "a\n", "éü", "ü", "$^", "]", "\\",
	 "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	 "905b740756a181d64097b96f42f6d9c0f52093db", "\u00e9a", "ab\u0000"]
	EOF
	while IFS= read -r p
	do
		"$NODE" -e "
			const fs = require(\"fs\");
			const p = process.argv[1];
			const s = JSON.parse(fs.readFileSync(\"strings.json\", \"utf8\"));
			fs.writeFileSync(\"schema.json\", JSON.stringify({ items: { pattern: p } }));
			const re = new RegExp(p);
			const bad = s.map((x, i) => re.test(x) ? null : i).filter(i => i !== null);
			console.log(bad.map(i => \"/\" + i).join(\"\\n\"));
		" "$p" >expect.raw &&
		sed "/^\$/d" expect.raw >expect &&
		test_might_fail ahd-replay validate --schema schema.json \
			--format json strings.json >out.json &&
		"$NODE" -e "
			const r = JSON.parse(require(\"fs\").readFileSync(\"out.json\", \"utf8\"));
			for (const e of r[0].errors) console.log(e.path);
		" >actual &&
		test_cmp expect actual || return 1
	done <patterns.txt
'

test_done
