#ifndef WORKTREE_H
#define WORKTREE_H

#include <git2.h>
#include "repo.h"
#include "strbuf.h"

/*
 * A linked worktree detached at a commit, made as `git worktree add
 * --detach <path> <commit>` makes one, so that `git worktree list` shows
 * it and `git worktree remove` or `git worktree prune` clean it up.  The
 * repository's own work tree, index and HEAD are never touched: only the
 * new directory and its administrative directory under the common git
 * directory's "worktrees/" are written.
 *
 * libgit2 1.5's git_worktree_add() always checks out a branch (it makes
 * one when given none), and a replay must not add branches to the
 * user's repository, so the files git writes are written here and
 * libgit2 does the checkout.
 */

struct worktree {
	struct strbuf path;	/* absolute, symlinks resolved */
	struct strbuf admin;	/* <commondir>/worktrees/<id> */
	git_repository *git;	/* the worktree opened, owned */
	int made_dir;		/* path did not exist before */
};

#define WORKTREE_INIT { STRBUF_INIT, STRBUF_INIT, NULL, 0 }

/*
 * Make the worktree at path (created with its parents; an existing
 * directory must be empty) for repository r, detached at commit (a full
 * id in hex), and check the commit's tree out in it.  Returns 0, or -1
 * with a reason in err after removing whatever was made.  Release wt
 * with worktree_release() either way.
 */
int worktree_add_detached(struct worktree *wt, const struct repo *r,
			  const char *path, const char *commit,
			  struct strbuf *err);

/*
 * Remove what worktree_add_detached() made: the files in the worktree
 * (symlinks removed, never followed), the directory itself when it was
 * made, and the administrative directory.  Returns 0, or -1 with a
 * reason in err.
 */
/*
 * From worktree_add_detached() until this (or worktree_remove()), a
 * SIGHUP, SIGINT, SIGQUIT or SIGTERM removes the worktree before the
 * process ends: call it once the worktree is complete, or is kept.
 */
void worktree_unguard(void);

int worktree_remove(struct worktree *wt, struct strbuf *err);

void worktree_release(struct worktree *wt);

#endif
