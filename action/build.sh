#!/bin/sh
# Step "Build ahd-replay" of action.yml (on a cache miss): build the
# action's own source out of its checkout and install it under
# AHD_PREFIX, the cached directory.
set -eu

: "${GITHUB_ACTION_PATH:?}" "${AHD_PREFIX:?}" "${RUNNER_TEMP:?}"

work=$(mktemp -d "$RUNNER_TEMP/ahd-replay-src.XXXXXX")
cp -R "$GITHUB_ACTION_PATH/." "$work"
cd "$work"
autoreconf -fi
./configure -q --prefix="$AHD_PREFIX"
make -j"$(nproc 2>/dev/null || echo 2)"
make install
cd /
rm -rf "$work"
"$AHD_PREFIX/bin/ahd-replay" --version
