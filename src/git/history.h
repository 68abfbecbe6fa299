#ifndef HISTORY_H
#define HISTORY_H

#include <git2.h>
#include "commitinfo.h"
#include "repo.h"
#include "strbuf.h"

/*
 * Which commit last changed a path, for many paths in one revision walk.
 *
 * The answer for each path is the one `git log -1 --format=%H -- <path>`
 * gives: git's default history simplification (a commit TREESAME to one
 * of its parents for that path follows only the first such parent, a
 * merge that differs from all its parents is shown), commits taken
 * newest first by committer date.  The walk is shared: a commit is read
 * once however many paths pass through it, and trees are compared by
 * path prefix so that subtrees with equal ids are skipped.
 */

enum history_mode {
	HISTORY_LAST,	/* the most recent commit that changed the path */
	HISTORY_FIRST,	/* the oldest one on the simplified history */
};

struct history_answer {
	git_oid commit;
	char hex[COMMIT_HEX_MAX];	/* the commit in hex, when found */
	int found;	/* 0: no commit on the walk changed the path */
	/*
	 * The path's walk reached a shallow clone's boundary: the answer
	 * (often the boundary commit itself, which git treats as a root)
	 * may not be what a full clone gives.
	 */
	int truncated;
};

/*
 * For each of the n repository-relative paths, find the commit in
 * answers[i] (same order as paths).  Walks from `start`.  Sets
 * *truncated when the walk met a commit whose parents are missing (a
 * shallow clone): answers past it may be incomplete.  Returns 0, or -1
 * with a reason in err.
 */
int history_find(git_repository *repo, const git_oid *start,
		 const char *const *paths, size_t n, enum history_mode mode,
		 struct history_answer *answers, int *truncated,
		 struct strbuf *err);

/*
 * history_find() in r from start, a full commit id in hex (commit_head()
 * gives HEAD's), for the code outside src/git/.
 */
int history_find_hex(const struct repo *r, const char *start,
		     const char *const *paths, size_t n,
		     enum history_mode mode, struct history_answer *answers,
		     int *truncated, struct strbuf *err);

/*
 * Every commit that changed one of the n paths on its simplified history
 * from start (what `git log --format=%H -- <path>` lists for each),
 * newest first by committer date; each is passed to fn once, which
 * returns non-zero to stop the walk.  Sets *truncated as history_find()
 * does.  Returns 0, or -1 with a reason in err.
 */
int history_changes(git_repository *repo, const git_oid *start,
		    const char *const *paths, size_t n,
		    int (*fn)(void *data, const git_oid *commit), void *data,
		    int *truncated, struct strbuf *err);

#endif
