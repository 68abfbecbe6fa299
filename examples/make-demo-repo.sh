#!/bin/sh
#
# make-demo-repo.sh DIR: build, in DIR, a small AHD-style evaluation
# repository with history, for trying `ahd-replay verify` on.
#
# DIR is created; it must not exist or must be empty.  The repository
# holds the files of examples/demo/ (two style tokens, a YAML brief and a
# markdown brief), a package.json naming @adastracomputing/ahd (the root
# marker the reference looks for), and six eval reports under docs/evals/,
# each with its .replay.json sidecar and, under the report's heading, the
# ```yaml ahd-replay block rendered from that sidecar:
#
#   2026-07-28-swiss-editorial-landing   eval-live, YAML brief; the token
#                                        was edited two days after the
#                                        run: real drift
#   2026-08-03-swiss-editorial-landing   eval-live, YAML brief, intact
#                                        (the brief gained a comment
#                                        since: raw hash differs,
#                                        structured hash matches)
#   2026-08-04-brutalist-grid-pricing    eval-live, markdown brief, intact
#   critique/2026-08-05-brutalist-grid   critique (brief null), intact
#   2026-08-06-swiss-editorial-pricing   intact, but its markdown block
#                                        was edited by hand afterwards
#   weekly/2026-08-10                    recorded on CI with absolute
#                                        /home/runner/work/ahd/ahd/ paths;
#                                        intact once re-rooted
#
# Every commit has fixed author, committer and dates, so the commit ids
# (and the ahd_commit recorded in the sidecars) are the same on every
# machine.  Sidecar hashes are computed by `ahd-replay hash` (structured
# for tokens and the YAML brief, --raw for the markdown brief), from
# $AHD_REPLAY, else the first ahd-replay in PATH, else the binary built
# in the source tree above this script.  Sidecars are written as the
# reference writes them: JSON.stringify(value, null, 2) + "\n".
#
# Exit status: 0 when built, 2 on a usage error or any failure.

set -eu

me=make-demo-repo.sh

die () {
	printf '%s: %s\n' "$me" "$*" >&2
	exit 2
}

test $# = 1 || {
	echo "usage: $me DIR" >&2
	exit 2
}
case $1 in
-h|--help)
	echo "usage: $me DIR"
	exit 0 ;;
esac

here=$(cd "$(dirname "$0")" && pwd -P) || die "cannot find the script's directory"
demo=$here/demo
for f in tokens/swiss-editorial.yml tokens/brutalist-grid.yml \
	briefs/landing.yml briefs/pricing.md
do
	test -f "$demo/$f" || die "missing $demo/$f"
done

bin=${AHD_REPLAY:-}
if test -z "$bin"
then
	bin=$(command -v ahd-replay 2>/dev/null) || bin=
fi
if test -z "$bin" && test -x "$here/../ahd-replay"
then
	bin=$here/../ahd-replay
fi
test -n "$bin" || die "no ahd-replay binary: set AHD_REPLAY or put ahd-replay in PATH"
case $bin in
*/*) ;;
*) bin=$(command -v "$bin") || die "'$bin' not found" ;;
esac
"$bin" hash --raw "$demo/briefs/pricing.md" >/dev/null ||
	die "'$bin' cannot hash (is it ahd-replay?)"
command -v git >/dev/null 2>&1 || die "git is required"

if test -e "$1" && ! test -d "$1"
then
	die "'$1' exists and is not a directory"
fi
if test -d "$1" && test -n "$(ls -A "$1")"
then
	die "'$1' is not empty"
fi
mkdir -p "$1" || die "cannot create '$1'"
dir=$(cd "$1" && pwd -P)

# On failure, leave DIR as empty as it was: everything in it is ours.
cleanup () {
	cleanup_status_=$?
	if test "$cleanup_status_" != 0
	then
		cd / && rm -rf "${dir:?}"/* "${dir:?}"/.[!.]* "${dir:?}"/..?*
		printf '%s: failed; %s left empty\n' "$me" "$dir" >&2
	fi
	exit "$cleanup_status_"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
case $bin in
/*) ;;
*/*) bin=$(pwd -P)/$bin ;;
esac

# Nothing of the caller's git set-up may change the commits: no global or
# system configuration (hooks, templates, signing, autocrlf), no
# repository inherited from the environment.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CEILING_DIRECTORIES GIT_CONFIG \
	GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_NAMESPACE GIT_PREFIX \
	GIT_TEMPLATE_DIR GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
	GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
LC_ALL=C
TZ=UTC
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL LC_ALL TZ

cd "$dir"
git -c init.defaultBranch=main init -q . || die "git init failed in '$dir'"
git config core.autocrlf false
git config commit.gpgsign false

# ---------------------------------------------------------------------
# Helpers

# identity NAME EMAIL: the author and committer of the following commits.
identity () {
	GIT_AUTHOR_NAME=$1 GIT_COMMITTER_NAME=$1
	GIT_AUTHOR_EMAIL=$2 GIT_COMMITTER_EMAIL=$2
	export GIT_AUTHOR_NAME GIT_COMMITTER_NAME GIT_AUTHOR_EMAIL \
		GIT_COMMITTER_EMAIL
}

# commit DATE MESSAGE PATH...: stage the paths and commit them.
commit () {
	GIT_AUTHOR_DATE=$1 GIT_COMMITTER_DATE=$1
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
	commit_msg_=$2
	shift 2
	git add -- "$@"
	git commit -q --no-verify -m "$commit_msg_"
	ncommits=$((ncommits + 1))
}
ncommits=0

# hash_of [--raw] FILE: the hash `ahd-replay hash` prints for FILE.
hash_of () {
	hash_out_=$("$bin" hash "$@") || die "ahd-replay hash $* failed"
	case $hash_out_ in
	sha256:*) printf '%s\n' "${hash_out_%% *}" ;;
	*) die "unexpected output of ahd-replay hash $*: $hash_out_" ;;
	esac
}

# A run is described by a record, one field per line, tab-separated:
#
#	kind|ahd_version|ahd_commit|git_dirty|node_version|platform|
#	invoked_at|n|temperature|seed	VALUE	(JSON text for ahd_commit's
#						null, git_dirty, n,
#						temperature, seed)
#	argv	ARG				(one line per argument)
#	token	PATH	HASH
#	brief	PATH	HASH		("brief" alone: null)
#	model	ID	PROVIDER	COUNT	STYLE	SEED
#					(COUNT request ids of STYLE cf,
#					openai or none, from SEED)
#	requested|effective	CONDITION	(one line per condition)
#
# and turned into the sidecar (mode=json) or into the markdown block the
# reference's renderReplayMarkdown() prints (mode=md) by this program.
# shellcheck disable=SC2016
render_awk='
BEGIN { FS = "\t"; nargv = 0; nmod = 0; nreq = 0; neff = 0; hasbrief = 0 }
{
	if ($0 ~ /[\001-\010\012-\037]/ || index($0, "\\") || index($0, "\""))
		fail("characters this writer does not escape: " $0)
}
$1 == "argv" { argv[++nargv] = substr($0, 6); next }
$1 == "token" { tpath = $2; thash = $3; next }
$1 == "brief" { if (NF >= 3) { hasbrief = 1; bpath = $2; bhash = $3 }; next }
$1 == "model" {
	nmod++
	mid[nmod] = $2; mprov[nmod] = $3; mcount[nmod] = $4
	mstyle[nmod] = $5; mseed[nmod] = $6
	next
}
$1 == "requested" { req[++nreq] = $2; next }
$1 == "effective" { eff[++neff] = $2; next }
{ f[$1] = $2 }

function fail(msg) { print "render: " msg > "/dev/stderr"; failed = 1; exit 2 }
function q(s) { return "\"" s "\"" }

# MINSTD: exact in double arithmetic.
function rnd() { x = (x * 48271) % 2147483647; return x }
function hex8() { return sprintf("%08x", rnd()) }
function request_ids(k,    i, n, colos, c) {
	n = mcount[k] + 0
	x = mseed[k] + 0
	split("AMS FRA CDG LHR ARN", colos, " ")
	for (i = 1; i <= n; i++) {
		if (mstyle[k] == "cf") {
			c = colos[1 + rnd() % 5]
			ids[k, i] = hex8() hex8() "-" c
		} else if (mstyle[k] == "openai")
			ids[k, i] = "req_" hex8() hex8() hex8() hex8()
		else
			fail("request ids of unknown style " mstyle[k])
	}
	return n
}

# A JSON array of strings, items at indent "ind" + 2 spaces.
function strarr(a, n, ind,    s, i) {
	if (n == 0)
		return "[]"
	s = "[\n"
	for (i = 1; i <= n; i++)
		s = s ind "  " q(a[i]) (i < n ? ",\n" : "\n")
	return s ind "]"
}

function json(    i, k, n, r) {
	print "{"
	print "  \"schema_version\": 1,"
	print "  \"kind\": " q(f["kind"]) ","
	print "  \"ahd_version\": " q(f["ahd_version"]) ","
	print "  \"ahd_commit\": " (f["ahd_commit"] == "null" ? "null" : q(f["ahd_commit"])) ","
	print "  \"git_dirty\": " f["git_dirty"] ","
	print "  \"node_version\": " q(f["node_version"]) ","
	print "  \"platform\": " q(f["platform"]) ","
	print "  \"invoked_at\": " q(f["invoked_at"]) ","
	print "  \"argv\": " strarr(argv, nargv, "  ") ","
	print "  \"token\": {"
	print "    \"path\": " q(tpath) ","
	print "    \"hash\": " q(thash)
	print "  },"
	if (hasbrief) {
		print "  \"brief\": {"
		print "    \"path\": " q(bpath) ","
		print "    \"hash\": " q(bhash)
		print "  },"
	} else
		print "  \"brief\": null,"
	print "  \"sampling\": {"
	print "    \"n\": " f["n"] ","
	print "    \"temperature\": " f["temperature"] ","
	print "    \"seed\": " f["seed"]
	print "  },"
	if (nmod == 0)
		print "  \"models\": [],"
	else {
		print "  \"models\": ["
		for (k = 1; k <= nmod; k++) {
			print "    {"
			print "      \"id\": " q(mid[k]) ","
			print "      \"provider\": " q(mprov[k]) ","
			n = mcount[k] + 0
			if (n > 0)
				request_ids(k)
			for (i = 1; i <= n; i++)
				r[i] = ids[k, i]
			print "      \"provider_request_ids\": " strarr(r, n, "      ")
			print "    }" (k < nmod ? "," : "")
		}
		print "  ],"
	}
	print "  \"conditions\": {"
	print "    \"requested\": " strarr(req, nreq, "    ") ","
	print "    \"effective\": " strarr(eff, neff, "    ")
	print "  }"
	print "}"
}

# One argument as the reference quotes it for a shell.
function shq(s,    out, i, c) {
	if (s == "")
		return "\047\047"
	if (s ~ /^[A-Za-z0-9_.\/:@=,+-]+$/)
		return s
	out = "\047"
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (c == "\047" ? "\047\\\047\047" : c)
	}
	return out "\047"
}

function short(h) { return substr(h, 1, 7 + 12) }

function join(a, n,    s, i) {
	s = ""
	for (i = 1; i <= n; i++)
		s = s (i > 1 ? ", " : "") a[i]
	return s
}

function md(    k, s) {
	print "```yaml ahd-replay"
	print "schema_version: 1"
	print "kind: " f["kind"]
	print "ahd_version: " f["ahd_version"]
	print "ahd_commit: " f["ahd_commit"]
	if (f["git_dirty"] == "true")
		print "git_dirty: true"
	print "node_version: " f["node_version"]
	print "platform: " f["platform"]
	print "invoked_at: " f["invoked_at"]
	print "token:"
	print "  path: " tpath
	print "  hash: " short(thash)
	if (hasbrief) {
		print "brief:"
		print "  path: " bpath
		print "  hash: " short(bhash)
	}
	print "sampling:"
	print "  n: " f["n"]
	print "  temperature: " f["temperature"]
	print "  seed: " f["seed"]
	print "models:"
	for (k = 1; k <= nmod; k++) {
		print "  - id: " mid[k]
		print "    provider: " mprov[k]
		print "    provider_request_ids: " (mcount[k] + 0) " captured"
	}
	print "conditions:"
	print "  requested: [" join(req, nreq) "]"
	print "  effective: [" join(eff, neff) "]"
	print "```"
	print ""
	print "Replay this run:"
	print ""
	print "```sh"
	if (f["ahd_commit"] != "null") {
		print "git checkout " substr(f["ahd_commit"], 1, 12)
		print "npm ci && npm run build"
	} else
		print "# install ahd@" f["ahd_version"]
	s = ""
	for (k = 1; k <= nargv; k++)
		s = s (k > 1 ? " " : "") shq(argv[k])
	print s
	printf "%s", "```"
}

END {
	if (failed)
		exit 2
	if (mode == "json")
		json()
	else
		md()
}
'

# write_run REPORT HEADER BODY: from the record in $dir/.git/run.rec,
# write REPORT's sidecar, and REPORT itself: HEADER, a blank line, the
# rendered block, a blank line, BODY (read from the file BODY).
write_run () {
	sidecar_=${1%.md}.replay.json
	mkdir -p "$(dirname "$1")"
	awk -v mode=json "$render_awk" <"$dir/.git/run.rec" >"$sidecar_.tmp" ||
		die "cannot write $sidecar_"
	mv "$sidecar_.tmp" "$sidecar_"
	{
		printf '%s\n\n' "$2"
		awk -v mode=md "$render_awk" <"$dir/.git/run.rec"
		printf '\n\n'
		cat "$3"
	} >"$1.tmp" || die "cannot write $1"
	mv "$1.tmp" "$1"
	rm -f "$dir/.git/run.rec" "$3"
	nreports=$((nreports + 1))
}
nreports=0

# rec FIELD VALUE...: one line of the record.
rec () {
	(IFS='	'; printf '%s\n' "$*") >>"$dir/.git/run.rec"
}

# run_common KIND AHD_COMMIT GIT_DIRTY NODE PLATFORM INVOKED_AT
run_common () {
	: >"$dir/.git/run.rec"
	rec kind "$1"
	rec ahd_version 0.11.0
	rec ahd_commit "$2"
	rec git_dirty "$3"
	rec node_version "$4"
	rec platform "$5"
	rec invoked_at "$6"
}

# argv ARG...: the run's process.argv.
argv () {
	for argv_
	do
		rec argv "$argv_"
	done
}

conditions () {
	for c in raw compiled
	do
		rec requested "$c"
	done
	for c in raw compiled
	do
		rec effective "$c"
	done
}

mac_node=/opt/homebrew/Cellar/node/22.22.2/bin/node
mac_cli=/Users/mara/src/ahd/dist/cli.js
opus=claude-code:claude-opus-4-7
gemma=cf:@cf/google/gemma-4-26b-a4b-it
gpt=openai:gpt-5

# shellcheck disable=SC2016
opus_line='  - `claude-opus-4-7` (anthropic) · spec `claude-code:claude-opus-4-7`'
# shellcheck disable=SC2016
gemma_line='  - `@cf/google/gemma-4-26b-a4b-it` (cloudflare-workers-ai) · spec `cf:@cf/google/gemma-4-26b-a4b-it`'
# shellcheck disable=SC2016
gpt_line='  - `gpt-5` (openai) · spec `openai:gpt-5`'

body=$dir/.git/run.body

# ---------------------------------------------------------------------
# History

identity 'Mara Lindqvist' 'mara@adastra.example'

mkdir tokens briefs docs docs/evals
cat >package.json <<\EOF
{
  "name": "@adastracomputing/ahd",
  "version": "0.11.0",
  "description": "Artificial Human Design: evaluate how well models follow a design style",
  "license": "MIT",
  "type": "module",
  "bin": {
    "ahd": "dist/cli.js"
  },
  "scripts": {
    "build": "tsc -p .",
    "test": "vitest run"
  },
  "engines": {
    "node": ">=20"
  }
}
EOF
cat >.gitignore <<\EOF
node_modules/
dist/
out/
EOF
cat >README.md <<\EOF
# ahd

Style tokens (`tokens/`), briefs (`briefs/`) and published eval reports
(`docs/evals/`).  Every report has a `.replay.json` sidecar pinning the
token and brief it ran on; check them with `ahd verify-replay REPORT` or
`ahd-replay verify --all`.
EOF
# The landing brief before its header comment (added on 2026-08-01).
sed 1d "$demo/briefs/landing.yml" >briefs/landing.yml
# Swiss editorial v2, before the 2026-07-30 edit.
sed -e 's/^version: 3$/version: 2/' \
	-e 's/primary: "#d0021b"/primary: "#e4002b"/' \
	-e '/^  - id: no-centred-headlines$/,/^    severity: error$/d' \
	"$demo/tokens/swiss-editorial.yml" >tokens/swiss-editorial.yml
cmp -s tokens/swiss-editorial.yml "$demo/tokens/swiss-editorial.yml" &&
	die "the v2 token did not come out different"
commit '2026-07-20T09:12:00+0200' 'Initial import: package.json, swiss-editorial token, landing brief' \
	package.json .gitignore README.md tokens/swiss-editorial.yml briefs/landing.yml

cp "$demo/tokens/brutalist-grid.yml" tokens/
cp "$demo/briefs/pricing.md" briefs/
commit '2026-07-21T16:40:00+0200' 'Add the brutalist-grid token and the pricing brief (markdown)' \
	tokens/brutalist-grid.yml briefs/pricing.md

# Report 1: swiss-editorial v2 x landing.  Its token changes afterwards.
head=$(git rev-parse HEAD)
run_common eval-live "$head" false v22.22.2 darwin-arm64 2026-07-28T08:14:03.517Z
argv "$mac_node" "$mac_cli" eval-live swiss-editorial --brief briefs/landing.yml \
	--n 30 --models "$opus,$gemma" --out docs/evals/2026-07-28-swiss-editorial-landing.md
h=$(hash_of tokens/swiss-editorial.yml)
rec token tokens/swiss-editorial.yml "$h"
h=$(hash_of briefs/landing.yml)
rec brief briefs/landing.yml "$h"
rec n 30
rec temperature null
rec seed null
rec model "$opus" anthropic 0 none 0
rec model "$gemma" cloudflare-workers-ai 60 cf 1728
conditions
cat >"$body" <<EOF
- Brief: \`briefs/landing.yml\`
- Samples per cell: **30**
- Conditions: raw, compiled
- Models:
$opus_line
$gemma_line

## Results

| model | condition | n | mean score | pass rate | p50 latency |
|---|---|---:|---:|---:|---:|
| claude-opus-4-7 | raw | 30 | 6.4 | 53% | 48.1 s |
| claude-opus-4-7 | compiled | 30 | 7.9 | 80% | 51.7 s |
| gemma-4-26b-a4b-it | raw | 30 | 4.1 | 20% | 9.3 s |
| gemma-4-26b-a4b-it | compiled | 30 | 5.6 | 37% | 10.2 s |

Compiling the token into the prompt lifts both models; the largest gain
is on \`flush-left\` (Opus 63% -> 93%).
EOF
write_run docs/evals/2026-07-28-swiss-editorial-landing.md \
	'# ahd eval · swiss-editorial · 2026-07-28T08:14:03.517Z' "$body"
commit '2026-07-28T11:02:00+0200' 'eval: swiss-editorial x landing, n=30' \
	docs/evals/2026-07-28-swiss-editorial-landing.md \
	docs/evals/2026-07-28-swiss-editorial-landing.replay.json

# The token edit that makes report 1 drift.
cp "$demo/tokens/swiss-editorial.yml" tokens/
commit '2026-07-30T14:25:00+0200' 'tokens/swiss-editorial: v3, darker accent, no centred headlines' \
	tokens/swiss-editorial.yml

# A comment in the landing brief: its raw bytes change, its parsed value
# (and so its structured hash) does not.
cp "$demo/briefs/landing.yml" briefs/
commit '2026-08-01T10:05:00+0200' 'briefs/landing: say what the brief is for' \
	briefs/landing.yml

# Report 2: swiss-editorial v3 x landing, run with local changes around.
head=$(git rev-parse HEAD)
run_common eval-live "$head" true v22.22.2 darwin-arm64 2026-08-03T09:57:42.291Z
argv "$mac_node" "$mac_cli" eval-live swiss-editorial --brief briefs/landing.yml \
	--n 30 --models "$opus,$gemma" --label 'swiss v3 × landing' \
	--out docs/evals/2026-08-03-swiss-editorial-landing.md
h=$(hash_of tokens/swiss-editorial.yml)
rec token tokens/swiss-editorial.yml "$h"
h=$(hash_of briefs/landing.yml)
rec brief briefs/landing.yml "$h"
rec n 30
rec temperature null
rec seed null
rec model "$opus" anthropic 0 none 0
rec model "$gemma" cloudflare-workers-ai 60 cf 90210
conditions
cat >"$body" <<EOF
- Brief: \`briefs/landing.yml\`
- Samples per cell: **30**
- Conditions: raw, compiled
- Models:
$opus_line
$gemma_line

## Results

| model | condition | n | mean score | pass rate | p50 latency |
|---|---|---:|---:|---:|---:|
| claude-opus-4-7 | raw | 30 | 6.1 | 47% | 47.5 s |
| claude-opus-4-7 | compiled | 30 | 8.2 | 87% | 52.0 s |
| gemma-4-26b-a4b-it | raw | 30 | 3.8 | 17% | 9.0 s |
| gemma-4-26b-a4b-it | compiled | 30 | 5.9 | 40% | 10.6 s |

The v3 token forbids centred headlines; \`no-centred-headlines\` fails in
9 of 30 raw Opus samples and in none of the compiled ones.
EOF
write_run docs/evals/2026-08-03-swiss-editorial-landing.md \
	'# ahd eval · swiss-editorial · 2026-08-03T09:57:42.291Z' "$body"
commit '2026-08-03T12:30:00+0200' 'eval: swiss-editorial x landing on the v3 token' \
	docs/evals/2026-08-03-swiss-editorial-landing.md \
	docs/evals/2026-08-03-swiss-editorial-landing.replay.json

# Report 3: brutalist-grid x the markdown brief, fixed temperature and seed.
head=$(git rev-parse HEAD)
run_common eval-live "$head" false v22.22.2 darwin-arm64 2026-08-04T07:41:19.008Z
argv "$mac_node" "$mac_cli" eval-live brutalist-grid --brief briefs/pricing.md \
	--n 20 --temperature 0.7 --seed 1234 --models "$opus,$gpt" \
	--system-prompt '' --out docs/evals/2026-08-04-brutalist-grid-pricing.md
h=$(hash_of tokens/brutalist-grid.yml)
rec token tokens/brutalist-grid.yml "$h"
h=$(hash_of --raw briefs/pricing.md)
rec brief briefs/pricing.md "$h"
rec n 20
rec temperature 0.7
rec seed 1234
rec model "$opus" anthropic 0 none 0
rec model "$gpt" openai 40 openai 4242
conditions
cat >"$body" <<EOF
- Brief: \`briefs/pricing.md\`
- Samples per cell: **20**
- Conditions: raw, compiled
- Models:
$opus_line
$gpt_line

## Results

| model | condition | n | mean score | pass rate | p50 latency |
|---|---|---:|---:|---:|---:|
| claude-opus-4-7 | raw | 20 | 5.2 | 35% | 44.9 s |
| claude-opus-4-7 | compiled | 20 | 7.4 | 75% | 46.3 s |
| gpt-5 | raw | 20 | 5.0 | 30% | 21.4 s |
| gpt-5 | compiled | 20 | 7.1 | 70% | 23.0 s |

\`visible-borders\` is the rule most often broken in raw runs: cards drawn
with shadows instead of a 3px border.
EOF
write_run docs/evals/2026-08-04-brutalist-grid-pricing.md \
	'# ahd eval · brutalist-grid · 2026-08-04T07:41:19.008Z' "$body"
commit '2026-08-04T10:15:00+0200' 'eval: brutalist-grid x pricing, n=20, t=0.7' \
	docs/evals/2026-08-04-brutalist-grid-pricing.md \
	docs/evals/2026-08-04-brutalist-grid-pricing.replay.json

# Report 4: a critique of the brutalist-grid pages; no brief.
head=$(git rev-parse HEAD)
run_common critique "$head" false v22.22.2 darwin-arm64 2026-08-05T15:03:56.730Z
argv "$mac_node" "$mac_cli" critique brutalist-grid --critic "$opus" \
	--pages out/brutalist-grid/pricing --out docs/evals/critique/2026-08-05-brutalist-grid.md
h=$(hash_of tokens/brutalist-grid.yml)
rec token tokens/brutalist-grid.yml "$h"
rec brief
rec n 6
rec temperature null
rec seed null
rec model "$opus" anthropic 0 none 0
cat >"$body" <<EOF
- critic: \`$opus\`
- Pages: \`out/brutalist-grid/pricing\`

## Findings (n=6)

| rule | severity | pages failing |
|---|---|---:|
| visible-borders | error | 2 of 6 |
| no-images-as-decoration | warning | 1 of 6 |
| label-case | warning | 4 of 6 |

Labels are set in the body face on four pages; the token asks for
\`ui-monospace\` in upper case.
EOF
write_run docs/evals/critique/2026-08-05-brutalist-grid.md \
	'# ahd critique · brutalist-grid · 2026-08-05T15:03:56.730Z' "$body"
commit '2026-08-05T17:20:00+0200' 'critique: brutalist-grid pricing pages' \
	docs/evals/critique/2026-08-05-brutalist-grid.md \
	docs/evals/critique/2026-08-05-brutalist-grid.replay.json

# Report 5: swiss-editorial x pricing; its block is edited by hand later.
head=$(git rev-parse HEAD)
run_common eval-live "$head" false v22.22.2 darwin-arm64 2026-08-06T08:30:11.442Z
argv "$mac_node" "$mac_cli" eval-live swiss-editorial --brief briefs/pricing.md \
	--n 12 --models "$opus" --note "Fieldbook's pricing page, first pass" \
	--out docs/evals/2026-08-06-swiss-editorial-pricing.md
h=$(hash_of tokens/swiss-editorial.yml)
rec token tokens/swiss-editorial.yml "$h"
h=$(hash_of --raw briefs/pricing.md)
rec brief briefs/pricing.md "$h"
rec n 12
rec temperature null
rec seed null
rec model "$opus" anthropic 0 none 0
rec requested raw
rec requested compiled
rec effective compiled
cat >"$body" <<EOF
- Brief: \`briefs/pricing.md\`
- Samples per cell: **12**
- Conditions: compiled (raw skipped: budget)
- Models:
$opus_line

## Results

| model | condition | n | mean score | pass rate | p50 latency |
|---|---|---:|---:|---:|---:|
| claude-opus-4-7 | compiled | 12 | 7.7 | 83% | 50.2 s |
EOF
write_run docs/evals/2026-08-06-swiss-editorial-pricing.md \
	'# ahd eval · swiss-editorial · 2026-08-06T08:30:11.442Z' "$body"
commit '2026-08-06T11:45:00+0200' 'eval: swiss-editorial x pricing, compiled only' \
	docs/evals/2026-08-06-swiss-editorial-pricing.md \
	docs/evals/2026-08-06-swiss-editorial-pricing.replay.json

# Report 6: the weekly run on CI, which records absolute paths.
identity 'ahd-ci[bot]' 'ci@adastra.example'
head=$(git rev-parse HEAD)
ci=/home/runner/work/ahd/ahd
run_common eval-live "$head" false v22.22.2 linux-x64 2026-08-10T03:17:45.903Z
argv /opt/hostedtoolcache/node/22.22.2/x64/bin/node "$ci/dist/cli.js" eval-live \
	brutalist-grid --brief "$ci/briefs/pricing.md" --n 12 --models "$gpt,$gemma" \
	--out docs/evals/weekly/2026-08-10.md
h=$(hash_of tokens/brutalist-grid.yml)
rec token "$ci/tokens/brutalist-grid.yml" "$h"
h=$(hash_of --raw briefs/pricing.md)
rec brief "$ci/briefs/pricing.md" "$h"
rec n 12
rec temperature null
rec seed null
rec model "$gpt" openai 24 openai 777
rec model "$gemma" cloudflare-workers-ai 23 cf 31337
conditions
cat >"$body" <<EOF
- Brief: \`$ci/briefs/pricing.md\`
- Samples per cell: **12**
- Conditions: raw, compiled
- Models:
$gpt_line
$gemma_line

## Results

| model | condition | n | mean score | pass rate | p50 latency |
|---|---|---:|---:|---:|---:|
| gpt-5 | raw | 12 | 5.1 | 33% | 20.8 s |
| gpt-5 | compiled | 12 | 7.3 | 75% | 22.6 s |
| gemma-4-26b-a4b-it | raw | 12 | 3.9 | 17% | 8.7 s |
| gemma-4-26b-a4b-it | compiled | 11 | 5.2 | 36% | 9.9 s |

One compiled Gemma sample timed out (23 of 24 calls answered).
EOF
write_run docs/evals/weekly/2026-08-10.md \
	'# ahd eval · brutalist-grid · 2026-08-10T03:17:45.903Z' "$body"
commit '2026-08-10T05:19:00+0200' 'weekly eval 2026-08-10 (CI)' \
	docs/evals/weekly/2026-08-10.md docs/evals/weekly/2026-08-10.replay.json

# The hand edit: the JSON says temperature null (the provider default);
# someone "corrects" the markdown.  The sidecar is authoritative.
identity 'Mara Lindqvist' 'mara@adastra.example'
sed 's/^  temperature: null$/  temperature: 0.7/' \
	docs/evals/2026-08-06-swiss-editorial-pricing.md >"$body"
cmp -s "$body" docs/evals/2026-08-06-swiss-editorial-pricing.md &&
	die "the hand edit did not change the report"
mv "$body" docs/evals/2026-08-06-swiss-editorial-pricing.md
commit '2026-08-11T09:00:00+0200' 'docs: state the temperature in the swiss x pricing report' \
	docs/evals/2026-08-06-swiss-editorial-pricing.md

test -z "$(git status --porcelain)" || die "the work tree is not clean after building"

echo "make-demo-repo: built $dir: $ncommits commits, $nreports reports" \
	"(5 intact, one of them recorded on CI with absolute paths and one" \
	"with a hand-edited markdown block; 1 drifted: token edited after the run)"
