#ifndef BLOB_H
#define BLOB_H

#include <git2.h>
#include "repo.h"
#include "revision.h"
#include "strbuf.h"

/*
 * Files read out of commits: a path exactly as a tree stores it (diff
 * --at's sidecars), or as a checkout of the commit writes it (verify
 * --explain's old version of an input).
 */

/*
 * The bytes of the blob at path (repository-relative) in rev's tree,
 * appended to out; no symlink is followed.  Returns 0, or -1 when path
 * names no blob there (or it cannot be read).
 */
int blob_read_path(struct strbuf *out, struct repo *repo,
		   const struct revision *rev, const char *path);

/*
 * The bytes a checkout of the commit writes at path (repository-
 * relative): symlinks stored in the tree followed, a git-lfs pointer
 * read through (treepath_read()).  Appends them to out and returns 0,
 * or -1 with the reason in err.
 */
int blob_read_checkout(struct strbuf *out, struct repo *repo,
		       const git_oid *commit, const char *path,
		       struct strbuf *err);

#endif
