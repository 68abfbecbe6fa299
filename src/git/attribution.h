#ifndef ATTRIBUTION_H
#define ATTRIBUTION_H

#include <git2.h>
#include "commitinfo.h"
#include "repo.h"
#include "strbuf.h"

/*
 * Drift attribution: when an input no longer hashes as recorded, which
 * commit last had the recorded content and which commit changed it.
 */

enum attribution_hash {
	ATTRIBUTE_STRUCTURED,	/* tokens */
	ATTRIBUTE_RAW_OR_STRUCTURED,	/* briefs: either hash may match */
	ATTRIBUTE_RAW,		/* a layout's input pinned by its bytes */
};

/*
 * One drifted input's question: which commit had this recorded hash.
 * The caller sets recorded, how and field; attribute_drifts() fills in
 * msg (a sentence) and the fields after it, which are its own.
 */
struct attribution_want {
	const char *recorded;		/* borrowed */
	enum attribution_hash how;
	const char *field;		/* "token" or "brief", borrowed */
	struct strbuf msg;
	int hit;			/* a commit had it */
	int seen;			/* changes looked at until then */
	int unread;			/* of those, how many could not be read */
	git_oid found;			/* the newest commit that had it */
	git_oid newer;			/* the change just after found */
};
#define ATTRIBUTION_WANT_INIT { NULL, ATTRIBUTE_STRUCTURED, NULL, \
				STRBUF_INIT, 0, 0, 0, { { 0 } }, { { 0 } } }
void attribution_want_release(struct attribution_want *w);

/*
 * Walk the history of path (relative to the work tree) from start once
 * for all n wants, and append one sentence to each want's msg, naming
 * the commits with short id, date and subject, or saying that the
 * recorded hash never occurs, that the change is not committed, or that
 * the history is truncated.  Each commit that changed the path is read
 * and hashed once, however many hashes are wanted of it; the walk stops
 * when every want is answered.  Returns 0, or -1 with a reason in err
 * (for all the wants).
 */
int attribute_drifts(git_repository *repo, const git_oid *start,
		     const char *path, struct attribution_want *wants,
		     size_t n, struct strbuf *err);

/*
 * A version of path whose content has the recorded hash, for restoring
 * it (replay): the newest commit on path's history from start (a full
 * commit id in hex; what `git log -- <path>` lists) whose version
 * matches as attribute_drifts() matches, with the bytes a checkout of it
 * writes (symlinks followed, git-lfs pointers read through).  Returns 1
 * with out filled, 0 when no version matches (out->truncated says
 * whether a shallow clone's boundary was met), or -1 with a reason in
 * err.
 */
struct attribution_version {
	char commit[COMMIT_HEX_MAX];	/* hex */
	struct strbuf content;
	int truncated;
};
#define ATTRIBUTION_VERSION_INIT { "", STRBUF_INIT, 0 }
int attribution_find(struct attribution_version *out, const struct repo *r,
		     const char *start, const char *path,
		     const char *recorded, enum attribution_hash how,
		     struct strbuf *err);
void attribution_version_release(struct attribution_version *v);

#endif
