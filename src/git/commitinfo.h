#ifndef COMMITINFO_H
#define COMMITINFO_H

#include <stdint.h>
#include "repo.h"
#include "strbuf.h"

/*
 * Commits named by their full ids, for the code outside src/git/: is a
 * recorded id a commit of this repository, what HEAD is, a commit told
 * in a few words, and the signature a commit carries.  Ids go in and
 * out as lower-case hex text.
 */

/* A commit id in hex, with its NUL. */
#define COMMIT_HEX_MAX 41

/*
 * HEAD's commit in r into out.  Returns 0, or -1 (an unborn branch, a
 * broken HEAD) with libgit2's reason in why when why is not NULL.
 */
int commit_head(char out[COMMIT_HEX_MAX], const struct repo *r,
		struct strbuf *why);

enum commit_find {
	COMMIT_FOUND = 0,
	COMMIT_MISSING,		/* not there: detail says why */
	COMMIT_MISSING_SHALLOW,	/* not there, and the clone is shallow */
	COMMIT_NOT_COMMIT,	/* another object: detail names its type */
};

/*
 * Is hex (a full commit id, 40 hex digits) a commit of r?  Returns one
 * of enum commit_find; detail receives what that value says it does.
 */
enum commit_find commit_find(const struct repo *r, const char *hex,
			     struct strbuf *detail);

/*
 * The commit hex for people: its id abbreviated to 12 digits and, when
 * it can be read, its committer date (UTC) and subject:
 * `1a2b3c4d5e6f (2026-01-02, "subject")`.  The subject is the commit's
 * text, to be escaped by whoever prints it.
 */
void commit_describe(struct strbuf *out, const struct repo *r,
		     const char *hex);

/*
 * The signature commit hex carries (its gpgsig header, as `git
 * verify-commit` reads it) into sig, the bytes it signs (the commit
 * object without that header) into data, and the committer's time
 * (seconds since the epoch) into *when.  Returns 0; 1 when the commit
 * is not signed; -1 with libgit2's reason in err.
 */
int commit_signature(struct strbuf *sig, struct strbuf *data, int64_t *when,
		     const struct repo *r, const char *hex,
		     struct strbuf *err);

#endif
