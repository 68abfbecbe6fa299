#ifndef HOOKPUSH_H
#define HOOKPUSH_H

#include "git/repo.h"
#include "git/snapshot.h"
#include "strbuf.h"

/*
 * The range a pre-push covers: for each pushed tip, what the destination
 * already has of its history, so that only the commits it lacks are
 * judged (hookcheck.h compares the two states).
 */

/*
 * Where a push goes.  git passes the remote's name and URL, or the URL
 * twice for `git push <url>`: the tracking refs of a configured remote
 * with that URL say what the destination has; a URL no remote has is a
 * destination we know nothing of.
 */
struct hook_push_dest {
	char *remote;		/* the configured remote, or NULL */
	int unknown;		/* a URL no configured remote has */
	const char *url;	/* as git passed it (borrowed) */
};
#define HOOK_PUSH_DEST_INIT { NULL, 0, NULL }

/*
 * Find the configured remote git is pushing to: by name, else by URL
 * (push URLs too), a URL's trailing slashes and ".git" aside.  Without a
 * name (run by hand) every remote's tracking refs stand for the
 * destination.  Remotes that cannot be listed make an unknown
 * destination (with a warning): every pushed commit then counts as new.
 */
void hook_push_dest_find(struct hook_push_dest *d, struct repo *r,
			 const char *remote, const char *url);
void hook_push_dest_release(struct hook_push_dest *d);

/*
 * What the destination has of tip's history: its old tip (remote_hex,
 * as git sent it) when this repository has that commit, merged with ours
 * or not (a forced push); else the newest merge base of tip with the
 * destination's tracking refs; else nothing.  Returns 1 with the commit
 * in out, or 0; appends to desc which it was, for the messages.
 */
int hook_push_base(char *out, struct repo *r, const struct hook_push_dest *d,
		   const char *tip, const char *remote_hex, struct strbuf *desc);

/* Is hex all zeros (git's "no object": a deletion, a new ref)? */
int hook_push_id_is_zero(const char *hex);

#endif
