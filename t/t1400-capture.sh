#!/bin/sh

test_description='capture: the sidecar written for a run, byte for byte

A fixture repository holds the reference'\''s package.json, a token, a YAML
and a markdown brief and a report.  The expected sidecars are spelled out
here with a fixed AHD_VERSION, argv and clock (AHD_REPLAY_NOW); their
hashes are computed without our binary (sha256sum of the canonical text
or of the bytes) and checked against `ahd-replay hash` too.  The git
state itself is covered by t1401.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

NOW=2026-01-02T03:04:05.678Z
LATER=2026-02-03T04:05:06.789Z
GEMMA=cf:@cf/google/gemma-4-26b-a4b-it
SQ="'"
AHD_REPLAY_NOW=$NOW
export AHD_REPLAY_NOW

# Node's `${process.platform}-${process.arch}` for this machine.
node_platform () {
	case $(uname -s) in
	Linux) np_os=linux ;;
	Darwin) np_os=darwin ;;
	FreeBSD) np_os=freebsd ;;
	OpenBSD) np_os=openbsd ;;
	SunOS) np_os=sunos ;;
	*) np_os=$(uname -s | tr 'A-Z' 'a-z') ;;
	esac
	case $(uname -m) in
	x86_64|amd64) np_arch=x64 ;;
	aarch64|arm64) np_arch=arm64 ;;
	i?86) np_arch=ia32 ;;
	arm*) np_arch=arm ;;
	ppc64le|ppc64) np_arch=ppc64 ;;
	*) np_arch=$(uname -m | tr 'A-Z' 'a-z') ;;
	esac
	echo "$np_os-$np_arch"
}

# reset_run: the fixture report as it was, no sidecar beside it.
reset_run () {
	rm -f proj/scratch proj/docs/evals/run.replay.json &&
	cp run.md.orig proj/docs/evals/run.md
}

# hash_of FILE: the sha256:<hex> of FILE's bytes.
hash_of () {
	echo "sha256:$(test_sha256 "$1")"
}

# test_usage_error PHRASE ARGS...: capture ARGS fails with exit status 2,
# says PHRASE and writes no sidecar.
test_usage_error () {
	tue_phrase=$1
	shift
	(
		cd proj &&
		test_expect_code 2 ahd-replay capture "$@" >../out 2>../err
	) &&
	test_must_be_empty out &&
	test_grep -F -e "$tue_phrase" err &&
	test_path_is_missing proj/u.replay.json
}

test_expect_success 'setup' '
	git init -q proj &&
	(
		cd proj &&
		cat >package.json <<-\EOF &&
		{
		  "name": "@adastracomputing/ahd",
		  "version": "0.11.0"
		}
		EOF
		mkdir -p tokens briefs docs/evals &&
		cat >tokens/swiss.yml <<-\EOF &&
		# a style token
		name: swiss
		palette: [red, white]
		grid: 12
		EOF
		cat >briefs/landing.yml <<-\EOF &&
		goal: a landing page
		sections: 3
		EOF
		printf "# Landing\n\nCaf\303\251 brief.\n" >briefs/landing.md &&
		cat >docs/evals/run.md <<-\EOF &&
		# ahd eval · swiss · 2026-01-02T03:04:05.678Z

		- Brief: `briefs/landing.yml`

		## Results

		Fine.
		EOF
		git add . &&
		git commit -q -m fixture
	) &&
	printf "%s" "{\"grid\":12,\"name\":\"swiss\"," \
		"\"palette\":[\"red\",\"white\"]}" >token.canon &&
	printf "%s" "{\"goal\":\"a landing page\"," "\"sections\":3}" \
		>brief.canon &&
	TOKEN_HASH=$(hash_of token.canon) &&
	BRIEF_YML_HASH=$(hash_of brief.canon) &&
	BRIEF_MD_HASH=$(hash_of proj/briefs/landing.md) &&
	COMMIT=$(git -C proj rev-parse HEAD) &&
	PLATFORM=$(node_platform) &&
	cp proj/docs/evals/run.md run.md.orig
'

test_expect_success 'capture -h prints the usage and exits 0' '
	ahd-replay capture -h >out 2>err &&
	test_must_be_empty err &&
	test_grep "^usage: ahd-replay capture --kind=<kind> --token=" out &&
	ahd-replay help capture >help &&
	test_cmp out help &&
	ahd-replay --help >list &&
	test_grep "^    capture " list
'

test_expect_success 'the man page SYNOPSIS matches capture -h' '
	sed -n "/^\.SH SYNOPSIS/,/^\.SH/p" \
		"$TEST_SRC_DIR/doc/ahd-replay-capture.1" |
	grep "^\\\\fBahd" |
	sed -e "s/\\\\f[BIR]//g" -e "s/\\\\-/-/g" -e "s/^/usage: /" >synopsis &&
	ahd-replay capture -h >out &&
	head -n 1 out >first &&
	test_cmp first synopsis
'

test_expect_success 'the sidecar of an eval-live run, byte for byte' '
	test_when_finished "rm -f proj/docs/evals/run.replay.json" &&
	(
		cd proj &&
		AHD_VERSION=9.9.9 ahd-replay capture --kind=eval-live \
			--token=tokens/swiss.yml --brief=briefs/landing.yml \
			--n=30 --temperature=0.7 --seed=-42 \
			--model="$GEMMA=cloudflare-workers-ai:req_1,req_2" \
			--model=claude-x=anthropic \
			--condition=raw --condition=compiled --effective=raw \
			--out=docs/evals/run.replay.json \
			-- node dist/cli.js eval --token "it'\''s" "" \
			>../out 2>../err
	) &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	cat >expect <<-EOF &&
	{
	  "schema_version": 1,
	  "kind": "eval-live",
	  "ahd_version": "9.9.9",
	  "ahd_commit": "$COMMIT",
	  "git_dirty": false,
	  "node_version": "unknown",
	  "platform": "$PLATFORM",
	  "invoked_at": "$NOW",
	  "argv": [
	    "node",
	    "dist/cli.js",
	    "eval",
	    "--token",
	    "it'\''s",
	    ""
	  ],
	  "token": {
	    "path": "tokens/swiss.yml",
	    "hash": "$TOKEN_HASH"
	  },
	  "brief": {
	    "path": "briefs/landing.yml",
	    "hash": "$BRIEF_YML_HASH"
	  },
	  "sampling": {
	    "n": 30,
	    "temperature": 0.7,
	    "seed": -42
	  },
	  "models": [
	    {
	      "id": "cf:@cf/google/gemma-4-26b-a4b-it",
	      "provider": "cloudflare-workers-ai",
	      "provider_request_ids": [
	        "req_1",
	        "req_2"
	      ]
	    },
	    {
	      "id": "claude-x",
	      "provider": "anthropic",
	      "provider_request_ids": []
	    }
	  ],
	  "conditions": {
	    "requested": [
	      "raw",
	      "compiled"
	    ],
	    "effective": [
	      "raw"
	    ]
	  }
	}
	EOF
	test_cmp expect proj/docs/evals/run.replay.json
'

test_expect_success 'the hashes are what ahd-replay hash prints' '
	test_when_finished "rm -f proj/docs/evals/run.replay.json" &&
	(
		cd proj &&
		ahd-replay capture --kind=eval-live --token=tokens/swiss.yml \
			--brief=briefs/landing.yml --n=1 \
			--out=docs/evals/run.replay.json &&
		ahd-replay hash tokens/swiss.yml briefs/landing.yml >../hashes
	) &&
	sed -n "s/^    \"hash\": \"\(.*\)\"$/\1/p" \
		proj/docs/evals/run.replay.json >recorded &&
	cut -d " " -f 1 hashes >want &&
	test_cmp want recorded &&
	test_write_lines "$TOKEN_HASH" "$BRIEF_YML_HASH" >independent &&
	test_cmp independent recorded
'

test_expect_success 'a markdown brief is hashed raw' '
	test_when_finished "rm -f proj/x.replay.json" &&
	(
		cd proj &&
		ahd-replay capture --kind=eval-live --token=tokens/swiss.yml \
			--brief=briefs/landing.md --n=1 --out=x.replay.json &&
		ahd-replay hash --raw briefs/landing.md >../raw
	) &&
	cat >expect <<-EOF &&
	  "brief": {
	    "path": "briefs/landing.md",
	    "hash": "$BRIEF_MD_HASH"
	  },
	EOF
	sed -n "/^  \"brief\"/,/^  }/p" proj/x.replay.json >actual &&
	test_cmp expect actual &&
	echo "$BRIEF_MD_HASH  briefs/landing.md" >want &&
	test_cmp want raw
'

test_expect_success 'a brief of another extension is raw, .YAML structured' '
	test_when_finished "rm -f proj/x.replay.json proj/briefs/b.txt" &&
	test_when_finished "rm -f proj/briefs/B.YAML" &&
	cp proj/briefs/landing.yml proj/briefs/b.txt &&
	cp proj/briefs/landing.yml proj/briefs/B.YAML &&
	(
		cd proj &&
		ahd-replay capture --kind=eval-image --token=tokens/swiss.yml \
			--brief=briefs/b.txt --n=1 --out=x.replay.json &&
		grep "\"hash\"" x.replay.json >../txt &&
		ahd-replay capture --kind=eval-image --token=tokens/swiss.yml \
			--brief=briefs/B.YAML --n=1 --out=x.replay.json \
			--force &&
		grep "\"hash\"" x.replay.json >../upper
	) &&
	test_grep -F "$(hash_of proj/briefs/landing.yml)" txt &&
	test_grep -F "$BRIEF_YML_HASH" upper
'

test_expect_success 'critique: brief null, --brief refused' '
	test_when_finished "rm -f proj/c.replay.json" &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --model=critic-x=critic --out=c.replay.json \
			--argv-json="[\"node\", \"cli.js\", \"critique\"]" &&
		test_expect_code 2 ahd-replay capture --kind=critique \
			--token=tokens/swiss.yml --brief=briefs/landing.md \
			--n=1 --out=d.replay.json 2>../err
	) &&
	test_grep "critique runs have no brief" err &&
	test_path_is_missing proj/d.replay.json &&
	cat >expect <<-EOF &&
	{
	  "schema_version": 1,
	  "kind": "critique",
	  "ahd_version": "0.11.0",
	  "ahd_commit": "$COMMIT",
	  "git_dirty": false,
	  "node_version": "unknown",
	  "platform": "$PLATFORM",
	  "invoked_at": "$NOW",
	  "argv": [
	    "node",
	    "cli.js",
	    "critique"
	  ],
	  "token": {
	    "path": "tokens/swiss.yml",
	    "hash": "$TOKEN_HASH"
	  },
	  "brief": null,
	  "sampling": {
	    "n": 1,
	    "temperature": null,
	    "seed": null
	  },
	  "models": [
	    {
	      "id": "critic-x",
	      "provider": "critic",
	      "provider_request_ids": []
	    }
	  ],
	  "conditions": {
	    "requested": [],
	    "effective": []
	  }
	}
	EOF
	test_cmp expect proj/c.replay.json
'

test_expect_success 'what verify and validate make of the sidecar' '
	test_when_finished reset_run &&
	(
		cd proj &&
		ahd-replay capture --kind=eval-live --token=tokens/swiss.yml \
			--brief=briefs/landing.md --n=3 --condition=raw \
			--report=docs/evals/run.md -- ahd eval &&
		ahd-replay validate \
			--schema="$TEST_SRC_DIR/schema/replay.schema.json" \
			docs/evals/run.replay.json &&
		ahd-replay verify docs/evals/run.md >../verify.out \
			2>../verify.err
	) &&
	test_grep "^verdict: replay inputs intact" verify.out &&
	test_grep ! "differs" verify.err
'

test_expect_success 'AHD_NODE_VERSION; no package.json: ahd_version unknown' '
	mkdir -p bare/tok &&
	cp proj/tokens/swiss.yml bare/tok/ &&
	(
		cd bare &&
		GIT_CEILING_DIRECTORIES=$TRASH_DIRECTORY &&
		export GIT_CEILING_DIRECTORIES &&
		AHD_NODE_VERSION=v22.22.2 ahd-replay capture --kind=critique \
			--token=tok/swiss.yml --n=2 --out=s.replay.json --root=.
	) &&
	test_grep "^  \"ahd_version\": \"unknown\",$" bare/s.replay.json &&
	test_grep "^  \"node_version\": \"v22.22.2\",$" bare/s.replay.json &&
	test_grep "^    \"path\": \"tok/swiss.yml\",$" bare/s.replay.json &&
	test_grep "^  \"ahd_commit\": null,$" bare/s.replay.json &&
	test_grep "^  \"git_dirty\": null,$" bare/s.replay.json
'

test_expect_success 'without AHD_REPLAY_NOW, invoked_at is now' '
	test_when_finished "rm -f proj/n.replay.json" &&
	before=$(date -u +%Y-%m-%dT%H:%M) &&
	(
		cd proj &&
		unset AHD_REPLAY_NOW &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --out=n.replay.json
	) &&
	after=$(date -u +%Y-%m-%dT%H:%M) &&
	sed -n "s/^  \"invoked_at\": \"\(.*\)\",$/\1/p" proj/n.replay.json \
		>at &&
	d2="[0-9][0-9]" &&
	test_grep "^$d2$d2-$d2-${d2}T$d2:$d2:$d2\.[0-9]${d2}Z$" at &&
	minute=$(cut -c 1-16 at) &&
	{ test "$minute" = "$before" || test "$minute" = "$after"; }
'

test_expect_success 'an invalid AHD_REPLAY_NOW is refused' '
	(
		cd proj &&
		AHD_REPLAY_NOW=yesterday test_expect_code 2 ahd-replay capture \
			--kind=critique --token=tokens/swiss.yml --n=1 \
			--out=n.replay.json 2>../err
	) &&
	test_grep "invalid AHD_REPLAY_NOW" err &&
	test_path_is_missing proj/n.replay.json
'

# The block render prints for the sidecar capture wrote.
expect_block () {
	ahd-replay render "$1" >block &&
	echo >>block
}

test_expect_success '--report: the block goes under the first heading' '
	test_when_finished reset_run &&
	(
		cd proj &&
		ahd-replay capture --kind=eval-live --token=tokens/swiss.yml \
			--brief=briefs/landing.yml --n=30 \
			--model=claude-x=anthropic:req_1 --condition=raw \
			--report=docs/evals/run.md -- ahd eval swiss
	) &&
	cat >expect <<-EOF &&
	# ahd eval · swiss · 2026-01-02T03:04:05.678Z

	\`\`\`yaml ahd-replay
	schema_version: 1
	kind: eval-live
	ahd_version: 0.11.0
	ahd_commit: $COMMIT
	node_version: unknown
	platform: $PLATFORM
	invoked_at: $NOW
	token:
	  path: tokens/swiss.yml
	  hash: $(echo "$TOKEN_HASH" | cut -c 1-19)
	brief:
	  path: briefs/landing.yml
	  hash: $(echo "$BRIEF_YML_HASH" | cut -c 1-19)
	sampling:
	  n: 30
	  temperature: null
	  seed: null
	models:
	  - id: claude-x
	    provider: anthropic
	    provider_request_ids: 1 captured
	conditions:
	  requested: [raw]
	  effective: [raw]
	\`\`\`

	Replay this run:

	\`\`\`sh
	git checkout $(echo "$COMMIT" | cut -c 1-12)
	npm ci && npm run build
	ahd eval swiss
	\`\`\`

	- Brief: \`briefs/landing.yml\`

	## Results

	Fine.
	EOF
	test_cmp expect proj/docs/evals/run.md
'

# The first capture leaves the work tree dirty for the second; an
# untracked file makes both runs dirty, so that only what the test
# changes differs.
test_expect_success '--report again: the block is replaced, the rest kept' '
	test_when_finished reset_run &&
	: >proj/scratch &&
	(
		cd proj &&
		ahd-replay capture --kind=eval-live --token=tokens/swiss.yml \
			--n=30 --report=docs/evals/run.md -- ahd eval &&
		cp docs/evals/run.md ../first.md &&
		echo "More notes." >>docs/evals/run.md &&
		test_expect_code 2 ahd-replay capture --kind=eval-live \
			--token=tokens/swiss.yml --n=5 \
			--report=docs/evals/run.md 2>../err &&
		AHD_REPLAY_NOW=$LATER ahd-replay capture \
			--kind=eval-live --token=tokens/swiss.yml --n=5 \
			--force --report=docs/evals/run.md -- ahd eval --n 5
	) &&
	test_grep "already exists; use --force" err &&
	sed -e "s/^  n: 30$/  n: 5/" \
		-e "s/^invoked_at: $NOW$/invoked_at: $LATER/" \
		-e "s/^ahd eval$/ahd eval --n 5/" first.md >expect &&
	echo "More notes." >>expect &&
	test_cmp expect proj/docs/evals/run.md &&
	grep -c "^\`\`\`yaml ahd-replay$" proj/docs/evals/run.md >count &&
	echo 1 >one &&
	test_cmp one count
'

test_expect_success '--report twice with the same run changes nothing' '
	test_when_finished reset_run &&
	: >proj/scratch &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --report=docs/evals/run.md &&
		cp docs/evals/run.md ../once.md &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --force --report=docs/evals/run.md
	) &&
	test_cmp once.md proj/docs/evals/run.md
'

test_expect_success '--report without a heading: the block goes on top' '
	test_when_finished "rm -f proj/notes.md proj/notes.replay.json" &&
	printf "\n\nJust text.\n## Later heading\n" >proj/notes.md &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --report=notes.md
	) &&
	expect_block proj/notes.replay.json &&
	{
		cat block &&
		printf "\n\nJust text.\n## Later heading\n"
	} >expect &&
	test_cmp expect proj/notes.md
'

test_expect_success '--report: no headings in front matter or fences' '
	test_when_finished "rm -f proj/fm.md proj/fm.replay.json" &&
	cat >head.md <<-\EOF &&
	---
	# yaml comment
	title: x
	---
	~~~sh
	# shell comment
	~~~
	#hashtag is not a heading
	# The title
	EOF
	{
		cat head.md &&
		echo text
	} >proj/fm.md &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --report=fm.md
	) &&
	expect_block proj/fm.replay.json &&
	{
		cat head.md &&
		echo &&
		cat block &&
		echo &&
		echo text
	} >expect &&
	test_cmp expect proj/fm.md
'

test_expect_success '--report: a heading as the last line without newline' '
	test_when_finished "rm -f proj/h.md proj/h.replay.json" &&
	printf "# Title" >proj/h.md &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --report=h.md
	) &&
	expect_block proj/h.replay.json &&
	{
		printf "# Title\n\n" &&
		cat block
	} >expect &&
	test_cmp expect proj/h.md
'

test_expect_success '--report through a symlink keeps the symlink' '
	test_when_finished "rm -f proj/link.md proj/link.replay.json" &&
	test_when_finished reset_run &&
	ln -s docs/evals/run.md proj/link.md &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --report=link.md
	) &&
	test -h proj/link.md &&
	test_grep "^\`\`\`yaml ahd-replay$" proj/docs/evals/run.md &&
	test_path_is_file proj/link.replay.json
'

test_expect_success 'the report and the sidecar cannot be one file' '
	test_when_finished reset_run &&
	test_usage_error "the sidecar and the report are the same file" \
		--kind=critique --token=tokens/swiss.yml --n=1 \
		--report=docs/evals/run.md --out=./docs/evals/run.md --force &&
	test_cmp run.md.orig proj/docs/evals/run.md
'

test_expect_success 'a path that is not UTF-8 cannot be recorded' '
	name=$(printf "tokens/t\377.yml") &&
	test_when_finished "rm -f \"proj/$name\"" &&
	cp proj/tokens/swiss.yml "proj/$name" &&
	test_usage_error "is not valid UTF-8" --kind=critique \
		--token="$name" --n=1 --out=u.replay.json
'

test_expect_success 'an existing sidecar is not overwritten without --force' '
	test_when_finished "rm -f proj/keep.replay.json" &&
	echo precious >proj/keep.replay.json &&
	(
		cd proj &&
		test_expect_code 2 ahd-replay capture --kind=critique \
			--token=tokens/swiss.yml --n=1 --out=keep.replay.json \
			2>../err
	) &&
	test_grep "keep.replay.json already exists; use --force to replace" \
		err &&
	echo precious >expect &&
	test_cmp expect proj/keep.replay.json &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=1 --out=keep.replay.json --force
	) &&
	test_grep "\"schema_version\": 1" proj/keep.replay.json
'

test_expect_success 'bad --n' '
	for n in 0 -1 1.5 abc "" 1e3 9007199254740992 " 3"
	do
		test_usage_error "invalid --n" --kind=critique \
			--token=tokens/swiss.yml --n="$n" --out=u.replay.json ||
		return 1
	done &&
	test_usage_error "--n is required" --kind=critique \
		--token=tokens/swiss.yml --out=u.replay.json
'

test_expect_success 'the largest --n, and numbers as JavaScript prints them' '
	test_when_finished "rm -f proj/u.replay.json" &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--n=9007199254740991 --temperature=1e-7 --seed=0 \
			--out=u.replay.json
	) &&
	cat >expect <<-\EOF &&
	  "sampling": {
	    "n": 9007199254740991,
	    "temperature": 1e-7,
	    "seed": 0
	  },
	EOF
	sed -n "/^  \"sampling\"/,/^  }/p" proj/u.replay.json >actual &&
	test_cmp expect actual
'

test_expect_success 'bad --temperature and --seed' '
	for t in abc inf nan 0x10 1e999 "" . 1e
	do
		test_usage_error "invalid --temperature" --kind=critique \
			--token=tokens/swiss.yml --n=1 --temperature="$t" \
			--out=u.replay.json || return 1
	done &&
	for s in 1.5 x -- 9007199254740992
	do
		test_usage_error "invalid --seed" --kind=critique \
			--token=tokens/swiss.yml --n=1 --seed="$s" \
			--out=u.replay.json || return 1
	done
'

test_expect_success 'other usage errors' '
	test_usage_error "--kind is required" --token=tokens/swiss.yml --n=1 \
		--out=u.replay.json &&
	test_usage_error "invalid --kind ${SQ}eval${SQ}" --kind=eval \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json &&
	test_usage_error "--token is required" --kind=critique --n=1 \
		--out=u.replay.json &&
	test_usage_error "--out is required without --report" \
		--kind=critique --token=tokens/swiss.yml --n=1 &&
	test_usage_error "unknown option" --kind=critique --bogus \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json &&
	test_usage_error "needs a value" --kind=critique \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json --token &&
	test_usage_error "--kind given twice" --kind=critique --kind=critique \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json &&
	test_usage_error "unexpected argument" --kind=critique \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json stray &&
	test_usage_error "not both" --kind=critique --token=tokens/swiss.yml \
		--n=1 --out=u.replay.json --argv-json="[]" -- x &&
	test_usage_error "invalid --argv-json" --kind=critique \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json \
		--argv-json="[\"a\", 1]" &&
	test_usage_error "invalid --argv-json" --kind=critique \
		--token=tokens/swiss.yml --n=1 --out=u.replay.json \
		--argv-json="{}" &&
	for m in x =p x= x=:r x=p:a,,b x=p:a,
	do
		test_usage_error "invalid --model" --kind=critique \
			--token=tokens/swiss.yml --n=1 --out=u.replay.json \
			--model="$m" || return 1
	done &&
	test_usage_error "not its sidecar" --kind=critique \
		--token=tokens/swiss.yml --n=1 --report=u.replay.json
'

test_expect_success 'a missing token: exit 2, nothing written' '
	test_usage_error "cannot open token ${SQ}tokens/nope.yml${SQ}" \
		--kind=critique --token=tokens/nope.yml --n=1 \
		--out=u.replay.json &&
	test_usage_error "cannot open brief ${SQ}briefs/nope.md${SQ}" \
		--kind=eval-live --token=tokens/swiss.yml \
		--brief=briefs/nope.md --n=1 --out=u.replay.json &&
	test_usage_error "not a regular file" --kind=critique --token=tokens \
		--n=1 --out=u.replay.json &&
	test_usage_error "the token must be a file" --kind=critique --token=- \
		--n=1 --out=u.replay.json
'

test_expect_success 'a token that does not parse: exit 2, nothing written' '
	test_when_finished "rm -f proj/tokens/bad.yml proj/briefs/bad.yml" &&
	printf "a: 1\na: 2\n" >proj/tokens/bad.yml &&
	test_usage_error "tokens/bad.yml: invalid YAML" --kind=critique \
		--token=tokens/bad.yml --n=1 --out=u.replay.json &&
	printf "a: [\n" >proj/briefs/bad.yml &&
	test_usage_error "briefs/bad.yml: invalid YAML" --kind=eval-live \
		--token=tokens/swiss.yml --brief=briefs/bad.yml --n=1 \
		--out=u.replay.json
'

test_expect_success 'a missing report: exit 2, no sidecar' '
	test_usage_error "docs/evals/nope.md: cannot open" --kind=critique \
		--token=tokens/swiss.yml --n=1 --report=docs/evals/nope.md &&
	test_path_is_missing proj/docs/evals/nope.replay.json
'

test_expect_success 'inputs outside the root are refused' '
	test_when_finished "rm -f proj/tokens/link.yml" &&
	cp proj/tokens/swiss.yml outside.yml &&
	test_usage_error "is outside the root" --kind=critique \
		--token=../outside.yml --n=1 --out=u.replay.json &&
	ln -s ../../outside.yml proj/tokens/link.yml &&
	test_usage_error "is outside the root" --kind=critique \
		--token=tokens/link.yml --n=1 --out=u.replay.json &&
	test_usage_error "is outside the root" --kind=critique \
		--token=tokens/swiss.yml --root=docs --n=1 --out=u.replay.json
'

test_expect_success 'a symlink inside the root is recorded as itself' '
	test_when_finished "rm -f proj/tokens/alias.yml proj/u.replay.json" &&
	ln -s swiss.yml proj/tokens/alias.yml &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/alias.yml \
			--n=1 --out=u.replay.json
	) &&
	test_grep "^    \"path\": \"tokens/alias.yml\",$" proj/u.replay.json &&
	test_grep -F "\"hash\": \"$TOKEN_HASH\"" proj/u.replay.json
'

test_expect_success 'paths are relative to the root found from the report' '
	test_when_finished reset_run &&
	(
		cd proj/docs &&
		ahd-replay capture --kind=eval-live \
			--token=../tokens/swiss.yml --brief=../briefs/landing.md \
			--n=1 --report=evals/run.md
	) &&
	test_grep "^    \"path\": \"tokens/swiss.yml\",$" \
		proj/docs/evals/run.replay.json &&
	test_grep "^    \"path\": \"briefs/landing.md\",$" \
		proj/docs/evals/run.replay.json
'

test_expect_success '--root: paths relative to it' '
	test_when_finished "rm -f proj/u.replay.json" &&
	(
		cd proj &&
		ahd-replay capture --kind=critique --token=tokens/swiss.yml \
			--root=tokens --n=1 --out=u.replay.json
	) &&
	test_grep "^    \"path\": \"swiss.yml\",$" proj/u.replay.json
'

test_expect_success 'the git work tree is the root without package.json' '
	git init -q plain &&
	mkdir -p plain/a/b &&
	cp proj/tokens/swiss.yml plain/a/t.yml &&
	(
		cd plain/a/b &&
		ahd-replay capture --kind=critique --token=../t.yml --n=1 \
			--out=s.replay.json
	) &&
	test_grep "^    \"path\": \"a/t.yml\",$" plain/a/b/s.replay.json
'

test_done
