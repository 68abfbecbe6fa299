#ifndef LFS_H
#define LFS_H

#include <git2.h>
#include <stdint.h>
#include "strbuf.h"

/*
 * Files tracked by git-lfs: the index and commits hold a pointer file
 * (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md) and the
 * content lives in <commondir>/lfs/objects/aa/bb/<oid> once fetched.
 * A checkout writes the content, so that is what an input hashes to.
 *
 * A blob is read as a pointer only when both hold: the path's
 * gitattributes say filter=lfs, and the blob parses strictly as a
 * pointer (version line first, then oid and size, nothing else).  A file
 * that merely looks like a pointer is content.
 */

/* A pointer file is shorter than this; a longer file is content. */
#define LFS_POINTER_MAX 1024

struct lfs_pointer {
	char oid[65];		/* 64 lower-case hex digits: the content's SHA-256 */
	uint64_t size;
};

/*
 * 1 when buf is a pointer (filled into p), 0 when it is not, -1 when it
 * is a pointer with extensions (ext-N-name keys: its oid is not the
 * checked-out content's, so it cannot be read here).
 */
int lfs_pointer_parse(struct lfs_pointer *p, const char *buf, size_t len);

enum lfs_read {
	LFS_CONTENT = 0,	/* not a pointer: the blob is the content */
	LFS_SMUDGED = 1,	/* out holds the object's bytes, checked */
	LFS_ABSENT = 2,		/* a pointer whose object is not here */
	LFS_ERROR = -1,		/* err says why */
};

/*
 * What a checkout writes for the blob at path (repository-relative):
 * with the attributes of commit (NULL: of the index), a pointer is
 * replaced by its object's bytes, whose SHA-256 and size must be the
 * pointer's (an object that differs is an error, never content).  On
 * LFS_CONTENT out is untouched (the caller has the blob); ptr is filled
 * on LFS_SMUDGED and LFS_ABSENT.  Objects over max bytes (0: no limit)
 * are an error.
 */
int lfs_read(struct strbuf *out, struct lfs_pointer *ptr,
	     git_repository *repo, const git_oid *commit, const char *path,
	     const void *blob, size_t len, size_t max, struct strbuf *err);

/*
 * The same for a work tree file: path relative to the work tree, the
 * attributes as git reads them for the work tree (its .gitattributes,
 * then the index's).  A pointer there was never checked out
 * (GIT_LFS_SKIP_SMUDGE, a CI checkout without LFS).
 */
int lfs_read_worktree(struct strbuf *out, struct lfs_pointer *ptr,
		      git_repository *repo, const char *path,
		      const void *data, size_t len, size_t max,
		      struct strbuf *err);

/*
 * lfs_read_worktree() for a file wherever it lies: file is its absolute
 * real path, data its bytes.  The work tree that holds it (the
 * repository found from file's directory) gives the attributes; a file
 * that is no pointer, or in no work tree, is LFS_CONTENT.  On
 * LFS_ABSENT rel receives file's path relative to that work tree, for
 * lfs_absent_reason().
 */
int lfs_read_file(struct strbuf *out, struct strbuf *rel,
		  struct lfs_pointer *ptr, const char *file,
		  const void *data, size_t len, size_t max,
		  struct strbuf *err);

/* "sha256:<oid>": the raw hash of the content, without reading it. */
void lfs_raw_hash(char out[72], const struct lfs_pointer *p);

/* A sentence for an absent object: which one, and how to get it. */
void lfs_absent_reason(struct strbuf *out, const char *path,
		       const struct lfs_pointer *p);

#endif
