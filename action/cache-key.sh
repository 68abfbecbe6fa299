#!/bin/sh
# Step "Cache key" of action.yml: where the build is installed and the
# key it is cached under.  The key is the runner's system and the
# action's source: the content of the commit the workflow uses, hashed
# (a tag moved to another commit gets another build).
set -eu

: "${GITHUB_ACTION_PATH:?}" "${GITHUB_OUTPUT:?}" "${RUNNER_TEMP:?}"

src=$(cd "$GITHUB_ACTION_PATH" && find configure.ac Makefile.am src schema doc \
	-type f ! -name '*.o' ! -name '*.a' 2>/dev/null | LC_ALL=C sort |
	while IFS= read -r f
	do
		printf '%s\n' "$f"
		cat "$f"
	done | sha256sum | cut -c1-40)
key="ahd-replay-${RUNNER_OS:-unknown}-${RUNNER_ARCH:-unknown}-${ImageOS:-unknown}-$src"
prefix="$RUNNER_TEMP/ahd-replay-$src"
{
	printf 'key=%s\n' "$key"
	printf 'prefix=%s\n' "$prefix"
} >>"$GITHUB_OUTPUT"
echo "ahd-replay: build key $key"
