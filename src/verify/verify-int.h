#ifndef VERIFY_INT_H
#define VERIFY_INT_H

/*
 * Shared by verify.c and the files that take a job off it
 * (verify-since.c, verify-attribution.c, verify-explain.c) only.
 */
#include "git/repo.h"
#include "git/revision.h"
#include "record/changed.h"
#include "root/inputpath.h"
#include "verify.h"

/* The root for reports in dir, memoised; its origin, or -1 and err. */
int verify_find_root(struct verify_memos *memos, struct strbuf *out,
		     const char *dir, const char *given, struct strbuf *err);

/* The --changed-since base for r's root, or NULL with r->error set. */
const struct changed_base *verify_since_base(struct verify_run *run,
					     struct verify_report *r);

/*
 * r, which --require-sidecar names, has no sidecar: 1 with r->error
 * saying so, or 0 when --changed-since skips it or an error is set.
 */
int verify_missing_sidecar(struct verify_run *run, struct verify_report *r);

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
 * (quote.h): notes quote paths, keys and commit subjects
 * (verify-text.c).
 */
void verify_add_note(struct verify_report *r, const char *label,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
