#ifndef VERIFY_INT_H
#define VERIFY_INT_H

/*
 * Shared by verify.c and the files that take a job off it
 * (verify-attribution.c, verify-explain.c) only.  verify.c defines the
 * commits and the notes below, verify-explain.c the explanation, and
 * verify-attribution.c uses both; neither of them calls the other or
 * attribution, so nothing of the folder goes round in a ring.
 */
#include "git/repo.h"
#include "git/revision.h"
#include "root/inputpath.h"
#include "verify.h"

/* A commit (--at's, or HEAD) opened for a root. */
struct at_commit {
	struct repo repo;	/* the repository around the root */
	struct revision rev;
	struct strbuf prefix;	/* the root in the work tree: "" or "dir/" */
};
#define AT_COMMIT_INIT { REPO_INIT, REVISION_INIT, STRBUF_INIT }

/*
 * Open the commit rev names, in the work tree around root (which must be
 * inside it), into at (AT_COMMIT_INIT; release it with
 * at_commit_release() either way).  Returns 0, or -1 with the reason in
 * err.
 */
int at_commit_open(struct at_commit *at, const char *root, const char *rev,
		   struct strbuf *err);
void at_commit_release(struct at_commit *at);

/* The tree of at, seen from its root, into out (borrowing from at). */
void at_commit_tree(struct input_tree *out, const struct at_commit *at);

/*
 * The commit --at names, as seen from root: opened and resolved once
 * for all the reports under that root (the memo owns it, and it stays
 * where it is for the whole run).  NULL with the reason in err.
 */
struct at_commit *verify_memo_at(struct verify_memos *m, const char *root,
				 const char *rev, struct strbuf *err);

/*
 * --explain for c, a drifted check of r whose input is path in repo
 * (repository-relative): found is the newest commit on the path's
 * history whose version had the recorded hash (drift attribution's walk
 * found it), or NULL with why saying there is none or the search failed.
 * Compares that version with today's and sets c->explain.  tree is
 * --at's, or NULL for the work tree.
 */
void verify_explain_check(struct verify_report *r, struct verify_check *c,
			  struct repo *repo, const git_oid *found,
			  const char *why, const char *path,
			  const struct input_tree *tree, int allow_outside);

/*
 * Add "  <label>: <text>" to r's notes, text escaped onto one line
 * (quote.h): notes quote paths, keys and commit subjects, and
 * verify-text.c prints them as they are.
 */
void verify_add_note(struct verify_report *r, const char *label,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
