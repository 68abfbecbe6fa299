#ifndef ROOT_H
#define ROOT_H

#include "strbuf.h"

/*
 * The root that recorded input paths are relative to (SPEC section 5).
 */

enum root_origin {
	ROOT_GIVEN,		/* --root */
	ROOT_PACKAGE_JSON,	/* package.json named @adastracomputing/ahd */
	ROOT_GIT,		/* the work tree that holds the report */
	ROOT_CWD,		/* the current directory */
	ROOT_CONFIG,		/* git config ahd-replay.root */
};

/*
 * Find the root for a report in directory `dir`: `given` when not NULL;
 * else walking up from dir (the directory itself and at most 7 parents,
 * as the reference does) to a package.json whose "name" is
 * "@adastracomputing/ahd"; else the top of the git work tree containing
 * dir (repo_worktree_of(): the repository git would use there, GIT_DIR
 * and GIT_WORK_TREE included); else the current directory.  Stores the
 * absolute, symlink-free path in out.  Returns the origin, or -1 with a
 * reason in err (a --root that does not exist, say).  Needs
 * repo_library_init().
 */
int root_find(struct strbuf *out, const char *dir, const char *given,
	      struct strbuf *err);

/*
 * root_find() for the commands that check (verify, diff, the hooks):
 * when given is NULL and the repository around dir sets
 * ahd-replay.root (relative to its work tree's top), that directory is
 * the root (ROOT_CONFIG), so that a package.json a pull request plants
 * below the top cannot move it.  capture and backfill write what the
 * reference would and keep its rule (root_find()).  A pinned directory
 * that does not exist is an error.
 */
int root_find_pinned(struct strbuf *out, const char *dir, const char *given,
		     struct strbuf *err);

/*
 * root_find_pinned() for a caller that finds the root of many
 * directories in one run (the hooks, verify): ahd-replay.root is looked
 * up once per repository rather than once per directory, and each
 * directory's package.json once per run.  The answers are
 * root_find_pinned()'s: the repository around each directory is the one
 * repo_open() finds (repo_discover()), asked of git or, where git would
 * find its parent's (no .git, no HEAD, no symlink, no mount point, no
 * GIT_DIR or GIT_CEILING_DIRECTORIES), learnt from its parent's; and
 * none is opened again.
 * Not thread-safe: one memo per thread, or a lock around the calls.
 */
struct root_memo {
	struct root_memo_entry {
		char *gitdir;	/* repo_discover()'s key */
		int ret;	/* pinned_root()'s answer */
		char *value;	/* the pinned root, or the error */
	} *v;
	size_t nr, alloc;
	/*
	 * Each directory the walk up to a package.json looked at, by its
	 * absolute path: the reports of a tree share their parents, so
	 * each package.json is read once, not once per directory below.
	 */
	struct root_memo_dir **dirs;
	size_t dirs_nr, dirs_size;
};
#define ROOT_MEMO_INIT { NULL, 0, 0, NULL, 0, 0 }

int root_find_pinned_memo(struct strbuf *out, const char *dir,
			  struct root_memo *memo, struct strbuf *err);
void root_memo_release(struct root_memo *memo);

/*
 * When root (from root_find*(), its origin given) is not the top of the
 * work tree around it, append to note what it is and where it came
 * from ("docs/evals (package.json), not the work tree's top /x"), and,
 * when a package.json below the top set it, a warning to warning that
 * a pull request can plant one and how to pin the root.  Both stay
 * empty for the top itself and outside any work tree.
 */
void root_describe(struct strbuf *note, struct strbuf *warning,
		   const char *root, int origin);

/* A name for the origin, for messages and JSON output. */
const char *root_origin_name(int origin);

#endif
