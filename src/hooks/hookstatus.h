#ifndef HOOKSTATUS_H
#define HOOKSTATUS_H

#include <stdio.h>
#include "git/hooksdir.h"

/*
 * `ahd-replay hooks status`: for each hook type we install, whether git
 * will run ours ("active"), and if not why ("inert": not executable,
 * shadowed by core.hooksPath, left where no hook manager runs it;
 * "broken": the binary it runs is gone; "not installed"), with the files
 * that say so; before them, the config-defined hooks (hook.<name>.*,
 * git 2.54 and later) and where they would run the check twice or
 * never.  Prints to fp, warnings to stderr.  Returns 0, 1 when a hook of
 * ours is installed but git will not run it, 2 when a hook cannot be
 * read (the reason is printed).
 */
int hook_status(const struct hooks_dir *hd, FILE *fp);

#endif
