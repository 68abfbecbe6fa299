#ifndef REVISION_H
#define REVISION_H

#include <git2.h>
#include "repo.h"
#include "strbuf.h"

/*
 * A commit that a revision names, with its tree: what verify --at and
 * diff --at read inputs and sidecars from, and where drift attribution
 * starts its walks (HEAD).
 */

/* An object id as hex, with its NUL. */
#define REVISION_HEX_SIZE (GIT_OID_HEXSZ + 1)

struct revision {
	git_commit *commit;	/* owned */
	git_tree *tree;		/* owned: the commit's */
	git_oid id;		/* the commit's */
	char hex[REVISION_HEX_SIZE];	/* id in hex */
	char short_id[13];	/* its first 12 digits, as notes show it */
};
#define REVISION_INIT { NULL, NULL, { { 0 } }, "", "" }

/*
 * Resolve rev (what `git rev-parse` takes, peeled to a commit) in repo.
 * Returns 0, or -1 with "cannot resolve '<rev>' to a commit: <why>" in
 * err.  Release out with revision_release() either way.
 */
int revision_resolve(struct revision *out, struct repo *repo, const char *rev,
		     struct strbuf *err);
void revision_release(struct revision *r);

/*
 * git_revparse_single() as `git rev-parse` reads rev: HEAD@{<n>} is the
 * n-th entry of HEAD's reflog (libgit2 alone would read the current
 * branch's); HEAD@{<date>} is refused rather than answered from another
 * reflog.  0, or -1 with the reason in why.
 */
int revision_parse(git_object **obj, git_repository *g, const char *rev,
		   struct strbuf *why);

/*
 * Where dir (absolute, symlinks resolved) lies in repo's work tree, as a
 * prefix of the paths in a tree: appends "" for the top and "sub/dir/"
 * below it, and returns 0; -1 when dir is not inside the work tree.
 */
int revision_prefix(struct strbuf *out, const struct repo *repo,
		    const char *dir);

/* An object id (a commit's, a blob's) in hex, into out. */
void revision_hex(char out[REVISION_HEX_SIZE], const git_oid *id);

#endif
