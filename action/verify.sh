#!/bin/bash
# Step "Verify" of action.yml: run ahd-replay verify with the action's
# inputs (passed in AHD_* variables, never pasted into the script), write
# the step's outputs, and end with the status fail-on asks for.
#
#   AHD_REPLAY              the binary
#   AHD_PATHS               reports, sidecars or directories, one a line
#                           (empty: every report of the repository)
#   AHD_TRUSTED_KEYS        --trusted-keys
#   AHD_REQUIRE_SIGNATURE   true or false
#   AHD_CHANGED_SINCE       a revision; empty: the pull request's base
#                           (GITHUB_BASE_REF), else every report; "all":
#                           every report
#   AHD_REQUIRE_SIDECAR     globs, one a line
#   AHD_SARIF               a file to write SARIF to, or empty
#   AHD_FAIL_ON             drift (default), error or never
set -u

die () {
	echo "::error title=ahd-replay action::$1"
	exit 2
}

: "${AHD_REPLAY:?}" "${GITHUB_OUTPUT:?}"
args=(verify --format=github)

case "${AHD_REQUIRE_SIGNATURE:-false}" in
true|yes|1) args+=(--require-signature) ;;
false|no|0|'') ;;
*) die "require-signature must be true or false" ;;
esac
case "${AHD_FAIL_ON:-drift}" in
drift|error|never) ;;
*) die "fail-on must be drift, error or never" ;;
esac
if test -n "${AHD_TRUSTED_KEYS:-}"
then
	args+=(--trusted-keys="$AHD_TRUSTED_KEYS")
fi
while IFS= read -r glob
do
	glob=${glob#"${glob%%[![:space:]]*}"}
	glob=${glob%"${glob##*[![:space:]]}"}
	if test -n "$glob"
	then
		args+=(--require-sidecar="$glob")
	fi
done <<<"${AHD_REQUIRE_SIDECAR:-}"

# The pull request's view: its base branch, fetched when the checkout
# does not have it; a history too shallow for a merge base checks every
# report rather than guessing.
since=${AHD_CHANGED_SINCE:-}
if test -z "$since" && test -n "${GITHUB_BASE_REF:-}"
then
	since=origin/$GITHUB_BASE_REF
	if ! git rev-parse -q --verify "$since^{commit}" >/dev/null
	then
		git fetch -q --no-tags origin \
			"+refs/heads/$GITHUB_BASE_REF:refs/remotes/origin/$GITHUB_BASE_REF" ||
			echo "::warning title=ahd-replay::cannot fetch the base branch $GITHUB_BASE_REF"
	fi
fi
if test "$since" = all
then
	since=
fi
if test -n "$since"
then
	if git merge-base "$since" HEAD >/dev/null 2>&1
	then
		args+=(--changed-since="$since")
	else
		echo "::warning title=ahd-replay::no merge base with $since (a shallow checkout? use fetch-depth: 0); checking every report"
	fi
fi
if test -n "${AHD_SARIF:-}"
then
	args+=(--output=sarif:"$AHD_SARIF")
fi
paths=()
while IFS= read -r p
do
	if test -n "$p"
	then
		paths+=("$p")
	fi
done <<<"${AHD_PATHS:-}"

status=0
"$AHD_REPLAY" "${args[@]}" -- "${paths[@]}" || status=$?
{
	printf 'exit-status=%s\n' "$status"
	printf 'sarif=%s\n' "${AHD_SARIF:-}"
} >>"$GITHUB_OUTPUT"

case "${AHD_FAIL_ON:-drift}" in
drift) exit "$status" ;;
error) test "$status" -ge 2 && exit "$status"; exit 0 ;;
never) exit 0 ;;
esac
