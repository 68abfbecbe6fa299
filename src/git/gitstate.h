#ifndef GITSTATE_H
#define GITSTATE_H

#include "strbuf.h"

/*
 * The git state a run records in its sidecar (SPEC section 6, capture):
 * ahd_commit, what `git rev-parse HEAD` prints, and git_dirty, whether
 * `git status --porcelain` would print anything.  Read with libgit2;
 * git itself is never run.
 */

#define GITSTATE_HEXSZ 40

struct gitstate {
	/* HEAD's id in lower-case hex; "" stands for null */
	char commit[GITSTATE_HEXSZ + 1];
	/* 1 dirty, 0 clean, -1 null (exactly when commit is "") */
	int dirty;
};
#define GITSTATE_INIT { "", -1 }

/*
 * Read the state of the repository that contains `dir`, found as git
 * finds it (repo_open(): GIT_DIR if set, else searching upwards from
 * dir, honouring GIT_WORK_TREE, core.worktree, GIT_CEILING_DIRECTORIES
 * and the rest).  Linked
 * worktrees, a detached HEAD, sparse checkouts and config.worktree
 * (extensions.worktreeConfig) read as git reads them.
 *
 * Outside a repository, on an unborn branch and in a bare repository
 * (where `git status` refuses to run) both fields are null.  Otherwise
 * commit is HEAD's id and dirty is 1 exactly when `git status
 * --porcelain` would list something: staged or unstaged changes,
 * conflicts, untracked files and directories that are not ignored
 * (unless status.showUntrackedFiles is "no"), and submodules with new
 * commits, modified or untracked content (as their "ignore" setting
 * allows).
 *
 * Needs repo_library_init().  Returns 0, or -1 with a one-line reason
 * in err when there is a repository that cannot be read: one libgit2
 * refuses to open (an unknown extension, an owner that safe.directory
 * does not allow), a corrupt HEAD or index, an invalid
 * status.showUntrackedFiles.  out is set to nulls in that case.
 */
int gitstate_read(struct gitstate *out, const char *dir, struct strbuf *err);

#endif
