#!/bin/sh
# Step "Release binary" of action.yml.  On a version tag (uses:
# <owner>/ahd-replay@v1.2.0), download that release's static binary and
# its SHA256SUMS, check the checksum, and install the binary under
# RUNNER_TEMP: no apt, no build.  Any other ref (a branch, a full commit
# SHA) builds from source in the steps after, as does a tag with no
# release binary (a moving major tag such as v1) and a runner other than
# Linux x86_64.  A binary whose checksum does not match is never run:
# the step fails.
#
#   AHD_ACTION_REF         github.action_ref (given through env: in a
#                          composite action; else taken from
#                          GITHUB_ACTION_PATH, which ends in the ref)
#   AHD_ACTION_REPOSITORY  github.action_repository (likewise)
#   AHD_RELEASE_BASE       where releases are downloaded from (default:
#                          https://github.com/<repository>/releases/download)
#
# Output: binary=<path>, or binary= (empty) to build from source.
set -eu

: "${GITHUB_ACTION_PATH:?}" "${GITHUB_OUTPUT:?}" "${RUNNER_TEMP:?}"

asset=ahd-replay-linux-x86_64
# .../_actions/<owner>/<repository>/<ref>
path_ref=$(basename "$GITHUB_ACTION_PATH")
path_repo=$(basename "$(dirname "$(dirname "$GITHUB_ACTION_PATH")")")/$(basename "$(dirname "$GITHUB_ACTION_PATH")")
ref=${AHD_ACTION_REF:-$path_ref}
repo=${AHD_ACTION_REPOSITORY:-$path_repo}

build () {
	echo "ahd-replay: $1; building from source"
	echo "binary=" >>"$GITHUB_OUTPUT"
	exit 0
}

case $ref in
v[0-9]*) ;;
*) build "the action's ref '$ref' is not a version tag" ;;
esac
case $ref in
*/*|*[!A-Za-z0-9._+-]*) build "the action's ref '$ref' is not a plain tag name" ;;
esac
case "${RUNNER_OS:-Linux}/${RUNNER_ARCH:-X64}" in
Linux/X64) ;;
*) build "no release binary for ${RUNNER_OS:-}/${RUNNER_ARCH:-}" ;;
esac
if ! command -v curl >/dev/null 2>&1 || ! command -v sha256sum >/dev/null 2>&1
then
	build "curl or sha256sum is missing"
fi

base=${AHD_RELEASE_BASE:-https://github.com/$repo/releases/download}
dir=$RUNNER_TEMP/ahd-replay-release-$ref
rm -rf "$dir"
mkdir -p "$dir/bin"
if ! curl -fsSL --retry 3 -o "$dir/SHA256SUMS" "$base/$ref/SHA256SUMS" ||
	! curl -fsSL --retry 3 -o "$dir/$asset" "$base/$ref/$asset"
then
	build "no release binary for $ref at $base/$ref"
fi

# The one line for our asset ("<hash>  <name>" or "<hash> *<name>").
if ! awk -v a="$asset" '$2 == a || $2 == "*" a { print $1 "  " a; n++ }
	END { exit n != 1 }' "$dir/SHA256SUMS" >"$dir/want"
then
	echo "::error title=ahd-replay::the SHA256SUMS of release $ref has no single line for $asset; refusing the binary"
	exit 2
fi
if ! (cd "$dir" && sha256sum -c --status want)
then
	echo "::error title=ahd-replay::the $asset of release $ref does not match its SHA256SUMS; refusing to run it"
	exit 2
fi
mv "$dir/$asset" "$dir/bin/ahd-replay"
chmod 755 "$dir/bin/ahd-replay"
version=$("$dir/bin/ahd-replay" --version)
case $ref in
v[0-9]*.[0-9]*.[0-9]*)
	if test "$version" != "ahd-replay ${ref#v}"
	then
		echo "::error title=ahd-replay::release $ref holds '$version'; refusing it"
		exit 2
	fi ;;
esac
echo "ahd-replay: $version, the release binary of $ref (sha256 $(cut -d' ' -f1 "$dir/want"))"
echo "binary=$dir/bin/ahd-replay" >>"$GITHUB_OUTPUT"
