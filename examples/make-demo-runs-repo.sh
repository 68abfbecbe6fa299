#!/bin/sh
#
# make-demo-runs-repo.sh DIR: build, in DIR, a model-eval repository that
# is not AHD's: its harness writes each run's record as JSON beside the
# runs, and .ahd-replay.yml tells ahd-replay where the pinned inputs are.
#
#   configs/eval.yaml, configs/long-context.yaml   harness settings (YAML)
#   prompts/system.md                              the system prompt
#   data/manifest.json                             the dataset manifest
#   runs/<date>/<name>/record.json                 one record per run:
#       "git": {"commit": ...}   the commit the run was made at
#       "inputs": [{"role", "path", "sha256"}]   bare-hex SHA-256 of the
#                                bytes, as sha256sum prints it
#
# The runs:
#
#   runs/2026-09-01/baseline       intact
#   runs/2026-09-02/nightly        recorded on CI: absolute paths under
#                                  /home/runner/work/evals/evals/; intact
#                                  once re-rooted
#   runs/2026-09-03/long-context   its config was edited two days after
#                                  the run (max_tokens): real drift
#
# and, on the branch legacy-import (main stays as above), a run the old
# harness recorded before it wrote pins: runs/2026-09-04/sweep names
# its inputs but neither their hashes nor the commit, and the layout
# says backfill may fill both (backfill: [commit, hash]).  backfill
# fills them from history, as the harness writes them.
#
# Commits have fixed authors and dates, so their ids (and the commits the
# records name) are the same on every machine.  No ahd-replay binary is
# needed: the harness hashes with sha256sum.
#
# Exit status: 0 when built, 2 on a usage error or any failure.

set -eu

me=make-demo-runs-repo.sh

die () {
	printf '%s: %s\n' "$me" "$*" >&2
	exit 2
}

case ${1-} in
-h|--help)
	echo "usage: $me DIR"
	exit 0 ;;
esac
test $# = 1 || {
	echo "usage: $me DIR" >&2
	exit 2
}
command -v git >/dev/null 2>&1 || die "git is required"
if command -v sha256sum >/dev/null 2>&1
then
	sha () { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1
then
	sha () { shasum -a 256 "$1" | cut -d' ' -f1; }
else
	die "sha256sum or shasum is required"
fi
if test -e "$1" && { ! test -d "$1" || test -n "$(ls -A "$1")"; }
then
	die "'$1' exists and is not an empty directory"
fi
mkdir -p "$1" || die "cannot create '$1'"
dir=$(cd "$1" && pwd -P)

# The caller's git set-up must not change the commits.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CEILING_DIRECTORIES GIT_CONFIG \
	GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_NAMESPACE GIT_PREFIX \
	GIT_TEMPLATE_DIR GIT_AUTHOR_DATE GIT_COMMITTER_DATE
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
GIT_AUTHOR_NAME='Eval Harness'
GIT_COMMITTER_NAME='Eval Harness'
GIT_AUTHOR_EMAIL=harness@example.com
GIT_COMMITTER_EMAIL=harness@example.com
LC_ALL=C
TZ=UTC
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_AUTHOR_NAME \
	GIT_COMMITTER_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL LC_ALL TZ

cd "$dir"
git -c init.defaultBranch=main init -q .
git config core.autocrlf false
git config commit.gpgsign false

# commit DATE MESSAGE PATH...
commit () {
	GIT_AUTHOR_DATE=$1 GIT_COMMITTER_DATE=$1
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
	msg_=$2
	shift 2
	git add -- "$@"
	git commit -q --no-verify -m "$msg_"
}

# old_record DIR NAME ROLE=PATH...: the old harness's record: the branch
# it ran on, each input's path, no hash, no commit.
old_record () {
	rdir_=$1 name_=$2
	shift 2
	mkdir -p "$rdir_"
	{
		printf '{\n  "name": "%s",\n' "$name_"
		printf '  "git": {\n    "branch": "main"\n  },\n'
		printf '  "command": ["python", "-m", "harness.run", "%s"],\n' \
			"$name_"
		printf '  "inputs": [\n'
		sep_=
		for pair_
		do
			role_=${pair_%%=*} path_=${pair_#*=}
			printf '%s    {\n      "role": "%s",\n' "$sep_" "$role_"
			printf '      "path": "%s"\n    }' "$path_"
			sep_=',
'
		done
		printf '\n  ],\n  "results": {\n    "accuracy": 0.79\n  }\n}\n'
	} >"$rdir_/record.json"
}

# record DIR NAME COMMIT PREFIX ROLE=PATH...: the harness's record of a
# run at COMMIT, each input's path recorded as PREFIX/PATH (PREFIX empty:
# relative to the top), its hash that of the file now.
record () {
	rdir_=$1 name_=$2 at_=$3 prefix_=$4
	shift 4
	mkdir -p "$rdir_"
	{
		printf '{\n  "name": "%s",\n' "$name_"
		printf '  "git": {\n    "commit": "%s"\n  },\n' "$at_"
		printf '  "command": ["python", "-m", "harness.run", "%s"],\n' \
			"$name_"
		printf '  "inputs": [\n'
		sep_=
		for pair_
		do
			role_=${pair_%%=*} path_=${pair_#*=}
			printf '%s    {\n      "role": "%s",\n' "$sep_" "$role_"
			printf '      "path": "%s%s",\n' "$prefix_" "$path_"
			printf '      "sha256": "%s"\n    }' "$(sha "$path_")"
			sep_=',
'
		done
		printf '\n  ],\n  "results": {\n    "accuracy": 0.81\n  }\n}\n'
	} >"$rdir_/record.json"
}

mkdir -p configs prompts data
cat >.ahd-replay.yml <<'YML'
# Where this repository's run records keep their pinned inputs.
version: 1
layouts:
  - name: runs
    records: "runs/*/*/record.json"
    commit: /git/commit
    command: /command
    inputs:
      - name: input
        label: /inputs/*/role
        path: /inputs/*/path
        hash: /inputs/*/sha256
        mode: raw
        spelling: hex
YML
cat >configs/eval.yaml <<'YML'
model: small-7b
temperature: 0.2
max_tokens: 1024
suites:
  - arithmetic
  - reading
YML
cat >configs/long-context.yaml <<'YML'
model: small-7b
temperature: 0.0
max_tokens: 4096
context_window: 32768
suites:
  - needle
YML
cat >prompts/system.md <<'MD'
# System prompt

You are a careful assistant.  Answer with the final result only.
MD
cat >data/manifest.json <<'JSON'
{
  "name": "eval-set",
  "version": 3,
  "files": [
    {"path": "arithmetic.jsonl", "sha256": "5d41402abc4b2a76b9719d911017c592"},
    {"path": "reading.jsonl", "sha256": "7d793037a0760186574b0282f2f435e7"}
  ]
}
JSON
cat >README.md <<'MD'
# An eval repository

Run records live under runs/; .ahd-replay.yml says where their inputs are.
MD
commit '2026-09-01T09:00:00Z' 'Harness settings, prompt and dataset' \
	.ahd-replay.yml configs prompts data README.md
base=$(git rev-parse HEAD)

record runs/2026-09-01/baseline baseline "$base" '' \
	config=configs/eval.yaml prompt=prompts/system.md \
	dataset=data/manifest.json
commit '2026-09-01T12:00:00Z' 'Run baseline' runs/2026-09-01/baseline

record runs/2026-09-02/nightly nightly "$base" \
	/home/runner/work/evals/evals/ \
	config=configs/eval.yaml prompt=prompts/system.md \
	dataset=data/manifest.json
commit '2026-09-02T03:00:00Z' 'Run nightly (CI)' runs/2026-09-02/nightly

record runs/2026-09-03/long-context long-context "$base" '' \
	config=configs/long-context.yaml prompt=prompts/system.md \
	dataset=data/manifest.json
commit '2026-09-03T10:00:00Z' 'Run long-context' runs/2026-09-03/long-context

# After the run: its config changes under it.
sed 's/^max_tokens: 4096$/max_tokens: 8192/' configs/long-context.yaml \
	>configs/long-context.yaml.new
mv configs/long-context.yaml.new configs/long-context.yaml
commit '2026-09-05T16:00:00Z' 'long-context: allow longer answers' \
	configs/long-context.yaml

printf '\nSee runs/ for the records.\n' >>README.md
commit '2026-09-06T08:00:00Z' 'README: where the records are' README.md

# The old harness's run, imported on a branch with the layout's
# permission to backfill it.
git checkout -q -b legacy-import
sed 's|^    command: /command$|&\
    backfill: [commit, hash]|' .ahd-replay.yml >.ahd-replay.yml.new
mv .ahd-replay.yml.new .ahd-replay.yml
old_record runs/2026-09-04/sweep sweep \
	config=configs/eval.yaml prompt=prompts/system.md
commit '2026-09-07T09:00:00Z' 'Import the sweep run from the old harness' \
	.ahd-replay.yml runs/2026-09-04/sweep
git checkout -q main
