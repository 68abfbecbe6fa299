#ifndef VERIFY_INT_H
#define VERIFY_INT_H

/* Shared by verify.c and verify-since.c only. */
#include "changed.h"
#include "inputpath.h"
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

/*
 * --explain: for each drifted check of r whose input has a history in
 * repo (from start; prefix is the root below the work tree), find the
 * version that had the recorded hash and set the check's explanation.
 * tree is --at's, or NULL for the work tree.
 */
void verify_explain(struct verify_report *r, git_repository *repo,
		    const git_oid *start, const char *prefix,
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
