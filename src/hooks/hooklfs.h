#ifndef HOOKLFS_H
#define HOOKLFS_H

#include <stdio.h>
#include "hooks.h"
#include "strbuf.h"

/*
 * git-lfs beside our hooks.  git-lfs needs four hooks of its own
 * (pre-push uploads the objects a push needs; post-checkout, post-commit
 * and post-merge keep locked files read-only), and `git lfs install`
 * refuses to write one where another hook is, so installing ours first
 * left LFS without its pre-push.  When git-lfs is in use, install-hooks
 * therefore writes them itself, each a short hook that runs
 * `git lfs <type> "$@"` as git-lfs's own do: pre-push as
 * pre-push.ahd-replay-prev, which our shim runs first with the same
 * arguments and stdin (the chain hooks.h describes, the same state as
 * `git lfs install` followed by install-hooks), and the other three in
 * their own names when nothing is there.  uninstall-hooks puts the
 * pre-push back as the hook, so LFS keeps working without us.
 */

/* The hooks git-lfs needs besides pre-push, NULL-terminated. */
extern const char *const hook_lfs_types[];

/*
 * Whether git-lfs is in use for the work tree workdir (may be empty: a
 * bare repository): git's configuration has its filter (what
 * `git lfs install`, with or without --skip-repo, sets), or the work
 * tree's .gitattributes has "filter=lfs".  git-lfs merely on PATH is
 * not enough: a repository that does not use it gets no hook of its.
 */
int hook_lfs_wanted(const char *workdir);

/* Append our hook of type that runs `git lfs <type> "$@"`. */
void hook_lfs_render(struct strbuf *out, const char *type);

/* Whether the hook file runs `git lfs <type>` (its own, or ours). */
int hook_lfs_runs(const struct hook_file *hf, const char *type);

/*
 * Write the hooks of hook_lfs_types[] that are missing in dir, saying so
 * on stdout unless quiet; warn about one that is there but does not run
 * git-lfs.  Returns 0, or -1 when one could not be written.
 */
int hook_lfs_install(const char *dir, int quiet);

/* For hooks status: a line per hook of hook_lfs_types[] that runs LFS. */
void hook_lfs_status(const char *dir, FILE *fp);

#endif
