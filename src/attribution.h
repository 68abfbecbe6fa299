#ifndef ATTRIBUTION_H
#define ATTRIBUTION_H

#include <git2.h>
#include "strbuf.h"

/*
 * Drift attribution: when an input no longer hashes as recorded, which
 * commit last had the recorded content and which commit changed it.
 */

enum attribution_hash {
	ATTRIBUTE_STRUCTURED,	/* tokens */
	ATTRIBUTE_RAW_OR_STRUCTURED,	/* briefs: either hash may match */
};

/*
 * Walk the history of path (relative to the work tree) from start and
 * append one sentence to out, naming the commits with short id, date and
 * subject, or saying that the recorded hash never occurs, that the
 * change is not committed, or that the history is truncated.  field is
 * "token" or "brief".  Returns 0, or -1 with a reason in err.
 */
int attribute_drift(struct strbuf *out, git_repository *repo,
		    const git_oid *start, const char *path,
		    const char *recorded, enum attribution_hash how,
		    const char *field, struct strbuf *err);


/*
 * A version of path whose content has the recorded hash, for restoring
 * it (replay): the newest commit on path's history from start (what
 * `git log -- <path>` lists) whose version matches as attribute_drift()
 * matches, with the bytes a checkout of it writes (symlinks followed,
 * git-lfs pointers read through).  Returns 1 with out filled, 0 when no
 * version matches (out->truncated says whether a shallow clone's
 * boundary was met), or -1 with a reason in err.
 */
struct attribution_version {
	git_oid commit;
	struct strbuf content;
	int truncated;
};
#define ATTRIBUTION_VERSION_INIT { { { 0 } }, STRBUF_INIT, 0 }
int attribution_find(struct attribution_version *out, git_repository *repo,
		     const git_oid *start, const char *path,
		     const char *recorded, enum attribution_hash how,
		     struct strbuf *err);
void attribution_version_release(struct attribution_version *v);

/*
 * The newest commit on the history of path from start whose version
 * hashes to recorded, as attribute_drift() matches versions: 1 with it in
 * *found, 0 when there is none, -1 with a reason in err.  (verify
 * --explain compares that version with today's.)
 */
int attribute_find_version(git_oid *found, git_repository *repo,
			   const git_oid *start, const char *path,
			   const char *recorded, enum attribution_hash how,
			   struct strbuf *err);

#endif
