#ifndef HOOKREPORT_H
#define HOOKREPORT_H

#include <stdio.h>

struct hooks_dir;

/*
 * What `hooks status` says beside the hook files: the config-defined
 * hooks (hook.<name>.*, git 2.54+) with warnings where the check would
 * run twice (one of them runs `ahd-replay hook <type>` and our hook is
 * installed for that type too), never (no event, no command), or for
 * another event than its own; and a warning when core.hooksPath names a
 * directory that does not exist in this worktree (git then runs no
 * hook, so no check runs).  types: the hook types we install,
 * NULL-terminated.  Warnings go to stderr.
 */
void hooks_report(const struct hooks_dir *hd, const char *const *types,
		  FILE *fp);

#endif
