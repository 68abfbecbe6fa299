#ifndef HOOKRUN_H
#define HOOKRUN_H

#include <stdio.h>

/*
 * What `ahd-replay hook <type>` runs, which the shims exec: the check of
 * hookcheck.h on what git is about to record or send, its findings and
 * the ways forward printed to stderr.  Both only read: no index, work
 * tree, ref, config or lock is written.
 *
 * The repository is the one git runs the hook in (GIT_DIR,
 * GIT_WORK_TREE, core.worktree as git resolves them);
 * `git config ahd-replay.strict true` refuses drift that was there
 * before as well.  Each returns the exit status: 0 to let git go on, 1
 * to refuse, 2 when the check could not be made (git stops then too).
 */

/*
 * pre-commit and pre-merge-commit (type): the index git is committing
 * (GIT_INDEX_FILE when set) against HEAD.
 */
int hook_run_pre_commit(const char *type);

/*
 * pre-push: each tip that git's lines on in ("<local ref> <local id>
 * <remote ref> <remote id>") push, against what the destination (remote
 * and url, as git passes them; NULL when not given) already has.  The
 * pre-commit framework passes no lines but names the remote and the
 * range in PRE_COMMIT_REMOTE_NAME, PRE_COMMIT_REMOTE_URL,
 * PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF; with neither, HEAD is
 * checked.
 */
int hook_run_pre_push(const char *remote, const char *url, FILE *in);

#endif
