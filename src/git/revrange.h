#ifndef REVRANGE_H
#define REVRANGE_H

#include "repo.h"
#include "snapshot.h"
#include "strbuf.h"

/*
 * The ends of a range of history, as the pre-push hook and
 * `verify --changed-since` find them: revisions resolved to commits,
 * HEAD, merge bases, and what a remote's tracking refs say it has.  Ids
 * are lower-case hex in buffers of SNAPSHOT_HEX_MAX bytes.  A failure
 * leaves libgit2's reason alone in err, for the caller to phrase.
 */

/*
 * rev (a name or an id) resolved as `git rev-parse` does, not peeled.
 * Returns 0 with the id in out, or -1 and err.
 */
int revrange_resolve(char *out, struct repo *r, const char *rev,
		     struct strbuf *err);

/*
 * rev resolved and peeled to a commit (a tag of one is followed).
 * Returns 0 with it in out; 1 when rev names something else (a tag of
 * a tree or a blob), -1 when it names nothing: both with err.
 */
int revrange_commit(char *out, struct repo *r, const char *rev,
		    struct strbuf *err);

/* Is hex the id of a commit this repository has?  1 or 0. */
int revrange_has_commit(struct repo *r, const char *hex);

/*
 * HEAD's commit.  Returns 0 with it in out, 1 on an unborn branch, -1
 * and err.
 */
int revrange_head(char *out, struct repo *r, struct strbuf *err);

/*
 * The best merge base of commits a and b (hex), as `git merge-base`
 * prints it.  Returns 0 with it in out, 1 when they share no history,
 * -1 and err.
 */
int revrange_merge_base(char *out, struct repo *r, const char *a,
			const char *b, struct strbuf *err);

/*
 * Of the merge bases of commit tip with each ref that glob matches (all
 * of a remote's tracking refs, say; tags are peeled), the one with the
 * newest committer date: the newest commit of tip's history that those
 * refs reach.  A ref that names no commit, or whose history
 * cannot be read (a shallow clone's boundary), is passed over.  Returns
 * 1 with it in out, 0 when no ref shares history with tip, -1 and err
 * when the refs cannot be listed.
 */
int revrange_newest_base(char *out, struct repo *r, const char *tip,
			 const char *glob, struct strbuf *err);

#endif
