#ifndef WORKPATH_H
#define WORKPATH_H

#include "repo.h"
#include "strbuf.h"

/*
 * A file of a work tree as the user names it: which repository holds
 * it, where it is in that repository, whether the index tracks it.  The
 * repository is the one around the file, not the one around the current
 * directory: a trust file or a sidecar may live in another checkout.
 */

enum workpath_status {
	WORKPATH_OK = 0,
	WORKPATH_NO_REPO = 1,	/* its directory is in no repository */
	WORKPATH_OUTSIDE = 2,	/* not below the top of a work tree */
};

/*
 * Open in r the repository that holds path (relative to the current
 * directory, its ".." and "." resolved lexically, symlinks kept), found
 * from path's directory (repo_open()), and append path relative to the
 * work tree's top to rel.  Returns WORKPATH_OK; WORKPATH_NO_REPO;
 * WORKPATH_OUTSIDE when the repository is bare or path is the top
 * itself or lies elsewhere; -1 with a reason in err (no current
 * directory, a repository that cannot be opened).  Release r with
 * repo_release() in every case.
 */
int workpath_open(struct repo *r, struct strbuf *rel, const char *path,
		  struct strbuf *err);

/*
 * Is the file at path (symlinks resolved) tracked in the index of the
 * repository whose work tree holds it?  1 with the top of that work
 * tree appended to workdir; 0 when it is untracked, outside any work
 * tree, or anything cannot be read.
 */
int workpath_tracked(const char *path, struct strbuf *workdir);

#endif
