#ifndef SNAPSHOT_H
#define SNAPSHOT_H

#include "commitinfo.h"
#include "repo.h"
#include "strbuf.h"

/*
 * A commit's files, for the code outside src/git/ that reads what a
 * commit holds: backfill reads the inputs as a report's commit had them
 * (as a checkout writes them), the signature checks read trust files as
 * a trusted commit has them (as stored, symlinks refused).
 */

struct snapshot {
	git_repository *repo;	/* borrowed from the struct repo */
	git_commit *commit;	/* owned */
	git_tree *tree;		/* owned */
	char hex[COMMIT_HEX_MAX];	/* the commit's id */
};
#define SNAPSHOT_INIT { NULL, NULL, NULL, "" }

/*
 * The commit rev names in r (anything `git rev-parse` takes, a full id
 * included, peeled to a commit).  Returns 0, or -1 with libgit2's reason
 * in err.  Release s with snapshot_release() either way; r must outlive
 * it.
 */
int snapshot_open(struct snapshot *s, const struct repo *r, const char *rev,
		  struct strbuf *err);
void snapshot_release(struct snapshot *s);

/*
 * What a checkout of the commit writes at path (repository-relative):
 * symlinks stored in the tree followed, a git-lfs pointer read through
 * (treepath_read()).  Returns 0 with the bytes appended to out; 1 when
 * nothing is there (no such path, or its blob is missing); -1 with a
 * reason in err when the path leads to no file (a directory, a
 * submodule, a symlink loop or one that leaves the repository:
 * "<path>: <why>") or cannot be read.
 */
int snapshot_read(struct strbuf *out, const struct snapshot *s,
		  const char *path, struct strbuf *err);

enum snapshot_stored {
	SNAPSHOT_OK = 0,
	SNAPSHOT_MISSING,	/* no entry at the path */
	SNAPSHOT_NOT_FILE,	/* a symlink, a directory, a submodule */
	SNAPSHOT_TOO_LARGE,
	SNAPSHOT_NOT_DIR,	/* snapshot_each_file(): not a directory */
};

/*
 * The regular (or executable) file stored at path exactly: no symlink
 * followed, no filter applied.  Returns SNAPSHOT_OK with its bytes
 * appended to out, or SNAPSHOT_MISSING, SNAPSHOT_NOT_FILE (a blob that
 * cannot be read included) or SNAPSHOT_TOO_LARGE (over max bytes).
 */
enum snapshot_stored snapshot_read_stored(struct strbuf *out,
					  const struct snapshot *s,
					  const char *path, size_t max);

/*
 * Call fn for each entry directly in the directory dir (repository-
 * relative), in the tree's order, with the entry's repository-relative
 * path and its name.  Returns
 * SNAPSHOT_MISSING or SNAPSHOT_NOT_DIR when dir is no directory there,
 * fn's value when it returns non-zero (which stops the walk), else 0.
 */
int snapshot_each_file(const struct snapshot *s, const char *dir,
		       int (*fn)(void *data, const char *path,
				 const char *name),
		       void *data);

#endif
