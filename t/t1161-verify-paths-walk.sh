#!/bin/sh

# t1110 (recorded paths, re-rooting, symlinks) again with openat2() turned off (fs/rootdir.h): the walk that
# stands in for it where the kernel lacks it (ENOSYS) must refuse and
# follow the same symlinks, with the same messages.
AHD_REPLAY_NO_OPENAT2=1
export AHD_REPLAY_NO_OPENAT2

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/t1110-verify-paths.sh"
