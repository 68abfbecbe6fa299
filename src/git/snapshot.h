#ifndef SNAPSHOT_H
#define SNAPSHOT_H

#include <git2.h>
#include "lfs.h"
#include "repo.h"
#include "strbuf.h"
#include "treepath.h"

/*
 * The files of a repository in one state, as the hooks and
 * `verify --changed-since` compare them: a commit's tree (HEAD, a pushed
 * tip, what a remote has, a merge base), the index being committed, or
 * nothing (before the first commit; a destination that has none of the
 * history).  What changed between two states, which files a state
 * holds, and what a checkout of one of them writes, read from objects
 * alone: the work tree, the index file and the refs are never written.
 *
 * Ids cross this door as lower-case hex (SNAPSHOT_HEX_MAX bytes with the
 * NUL).
 */

#define SNAPSHOT_HEX_MAX (GIT_OID_HEXSZ + 1)

struct snapshot {
	git_repository *repo;	/* borrowed */
	git_tree *tree;		/* a commit's tree, or NULL ... */
	git_index *index;	/* ... the index; both NULL: no files */
	git_oid commit;		/* tree's commit (its gitattributes) ... */
	int has_commit;		/* ... when known */
	int borrowed;		/* tree and index are someone else's */
};
#define SNAPSHOT_INIT { NULL, NULL, NULL, { { 0 } }, 0, 0 }

/*
 * Read objects from now on without re-hashing each one to check its id,
 * as git reads them (libgit2 checks by default): the hooks read many,
 * and run on every commit and push.
 */
void snapshot_trust_object_ids(void);

/*
 * HEAD's tree and commit; no files on an unborn branch (the first
 * commit).  Returns 0, or -1 with a reason in err.
 */
int snapshot_head(struct snapshot *out, struct repo *r, struct strbuf *err);

/*
 * The index: what `git commit` is about to record.  It is the file
 * GIT_INDEX_FILE names when set (repo_open() applies it: index.lock
 * during `git commit -a`, a temporary index during `git commit <paths>`).
 * Returns 0, or -1 with a reason in err.
 */
int snapshot_index(struct snapshot *out, struct repo *r, struct strbuf *err);

/*
 * The tree of the object whose id is hex (a commit, or a tag of one,
 * peeled), with its commit.  Returns 0; 1 when it peels to no tree (a
 * tag of a blob); -1 with a reason in err when it cannot be read.
 */
int snapshot_at(struct snapshot *out, struct repo *r, const char *hex,
		struct strbuf *err);

/*
 * A snapshot of a tree or an index that someone else owns (commit may
 * be NULL); snapshot_release() leaves them alone.
 */
void snapshot_view(struct snapshot *out, git_repository *repo,
		   git_tree *tree, git_index *index, const git_oid *commit);

/* Release what s owns; s is SNAPSHOT_INIT again. */
void snapshot_release(struct snapshot *s);

/* Are a and b states of the same repository?  1 or 0. */
int snapshot_same_repo(const struct snapshot *a, const struct snapshot *b);

/*
 * What changed from base to next (base is a tree or nothing; next a
 * tree or the index), path by path, as `git diff-index --cached` or
 * `git diff-tree -r` lists it (no rename detection): fn is called with
 * each changed path and link set when either side of the change is a
 * symbolic link; it returns 0 to go on.  Returns 0, -1 with libgit2's
 * reason in err (the caller says what it compared), or what fn
 * returned.
 */
int snapshot_diff(const struct snapshot *base, const struct snapshot *next,
		  int (*fn)(void *data, const char *path, int link),
		  void *data, struct strbuf *err);

/*
 * Every file of s (regular, executable or a symbolic link; stage 0 of
 * the index, which is all of it when git commits), in the order git
 * lists them: fn gets the repository-relative path, the blob's id and
 * whether it is a link, and returns 0 to go on.  Returns 0, -1 with a
 * reason in err, or what fn returned.
 */
int snapshot_each_file(const struct snapshot *s,
		       int (*fn)(void *data, const char *path,
				 const char *hex, int link),
		       void *data, struct strbuf *err);

/* The bytes of the blob hex, as stored.  Returns 0, or -1 and err. */
int snapshot_read_blob(struct strbuf *out, const struct snapshot *s,
		       const char *hex, struct strbuf *err);

/*
 * The bytes stored at path itself in s, when that is a regular or
 * executable file (no symbolic link followed, none read).  Returns 1
 * with them appended to out, 0 when path holds no such file, -1 with a
 * reason in err when it cannot be read.
 */
int snapshot_read_file(struct strbuf *out, const struct snapshot *s,
		       const char *path, struct strbuf *err);

/*
 * Where path (repository-relative) leads in s, its symbolic links
 * followed as a checkout would (treepath.h).  Returns as
 * treepath_resolve().  s must hold files.
 */
int snapshot_resolve(struct treepath *out, const struct snapshot *s,
		     const char *path);

/* The id of the blob that tp found (status TREEPATH_OK), as hex. */
void snapshot_blob_hex(char *out, const struct treepath *tp);

#define SNAPSHOT_LFS_ABSENT 1

/*
 * The bytes a checkout of s writes for the file tp found in s: git's
 * filters applied (end of line, ident) as the work tree's attributes
 * say, as verify reads the checked-out file; a git-lfs pointer read
 * through to its object instead (lfs.h), with s's commit's attributes.
 * Returns 0 with the bytes appended to out, SNAPSHOT_LFS_ABSENT with
 * the pointer in ptr when its object is not here, or -1 with a reason
 * in err.
 */
int snapshot_checkout(struct strbuf *out, struct lfs_pointer *ptr,
		      const struct snapshot *s, const struct treepath *tp,
		      struct strbuf *err);

/*
 * Are buf and len (the work tree's bytes of the file tp found in s) that
 * file unmodified, as `git status` would say: cleaned as `git add`
 * cleans them (end of line, as the attributes of tp's path say), are
 * they tp's blob?  A checkout may have written other bytes for it (an
 * LF file under core.autocrlf=true): git counts it unmodified all the
 * same.  Returns 1 or 0, or -1 with a reason in err.
 */
int snapshot_worktree_unmodified(const struct snapshot *s,
				 const struct treepath *tp, const char *buf,
				 size_t len, struct strbuf *err);

/*
 * The id the bytes of the file at path (in the file system) would have
 * as a blob of s's repository, hashed as they are: no filter applied,
 * so that a checkout that writes other bytes for the same blob counts
 * as different.  Returns 0, or -1 with a reason in err.
 */
int snapshot_hash_file(char *out, const struct snapshot *s, const char *path,
		       struct strbuf *err);

#endif
