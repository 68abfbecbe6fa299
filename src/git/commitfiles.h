#ifndef COMMIT_FILES_H
#define COMMIT_FILES_H

#include "commitinfo.h"
#include "repo.h"
#include "strbuf.h"

/*
 * A commit's files, for the code outside src/git/ that reads what a
 * commit holds: backfill reads the inputs as a report's commit had them
 * (as a checkout writes them), the signature checks read trust files as
 * a trusted commit has them (as stored, symlinks refused).
 */

struct commit_files {
	git_repository *repo;	/* borrowed from the struct repo */
	git_commit *commit;	/* owned */
	git_tree *tree;		/* owned */
	char hex[COMMIT_HEX_MAX];	/* the commit's id */
};
#define COMMIT_FILES_INIT { NULL, NULL, NULL, "" }

/*
 * The commit rev names in r (anything `git rev-parse` takes, a full id
 * included, peeled to a commit).  Returns 0, or -1 with libgit2's reason
 * in err.  Release s with commit_files_release() either way; r must outlive
 * it.
 */
int commit_files_open(struct commit_files *s, const struct repo *r, const char *rev,
		  struct strbuf *err);
void commit_files_release(struct commit_files *s);

/*
 * What a checkout of the commit writes at path (repository-relative):
 * symlinks stored in the tree followed, a git-lfs pointer read through
 * (treepath_read()).  Returns 0 with the bytes appended to out; 1 when
 * nothing is there (no such path, or its blob is missing); -1 with a
 * reason in err when the path leads to no file (a directory, a
 * submodule, a symlink loop or one that leaves the repository:
 * "<path>: <why>") or cannot be read.
 */
int commit_files_read(struct strbuf *out, const struct commit_files *s,
		  const char *path, struct strbuf *err);

/*
 * What the bytes commit_files_read() gives for path depend on, appended
 * to key: where path leads (symlinks followed), the blob there and its
 * mode, and the .gitattributes entry (id and mode, or none) of every
 * directory from the top down to the file's.  The rest of what a
 * checkout's bytes depend on (info/attributes, the configuration, the
 * git-lfs objects) is the same for every commit of a run: two commits
 * whose keys for path are equal give equal bytes, so a caller reading
 * many commits may keep what it made of them by key.  Returns 0, or 1
 * when path leads to no file (key unchanged: read it to learn why).
 */
int commit_files_key(struct strbuf *key, const struct commit_files *s,
		     const char *path);

enum commit_files_stored {
	COMMIT_FILES_OK = 0,
	COMMIT_FILES_MISSING,	/* no entry at the path */
	COMMIT_FILES_NOT_FILE,	/* a symlink, a directory, a submodule */
	COMMIT_FILES_TOO_LARGE,
	COMMIT_FILES_NOT_DIR,	/* commit_files_each_file(): not a directory */
};

/*
 * The regular (or executable) file stored at path exactly: no symlink
 * followed, no filter applied.  Returns COMMIT_FILES_OK with its bytes
 * appended to out, or COMMIT_FILES_MISSING, COMMIT_FILES_NOT_FILE (a blob that
 * cannot be read included) or COMMIT_FILES_TOO_LARGE (over max bytes).
 */
enum commit_files_stored commit_files_read_stored(struct strbuf *out,
					  const struct commit_files *s,
					  const char *path, size_t max);

/*
 * Call fn for each entry directly in the directory dir (repository-
 * relative), in the tree's order, with the entry's repository-relative
 * path and its name.  Returns
 * COMMIT_FILES_MISSING or COMMIT_FILES_NOT_DIR when dir is no directory there,
 * fn's value when it returns non-zero (which stops the walk), else 0.
 */
int commit_files_each_file(const struct commit_files *s, const char *dir,
		       int (*fn)(void *data, const char *path,
				 const char *name),
		       void *data);

#endif
