#ifndef COMMITSIG_H
#define COMMITSIG_H

#include "allowedsigners.h"
#include "strbuf.h"

/*
 * Signed-commit provenance for a sidecar (verify --require-signed-commit):
 * the commit that last changed it (as `git log -1 -- <sidecar>` finds
 * it, from HEAD) must carry an SSH signature in the namespace "git", as
 * `git commit -S` with gpg.format=ssh makes it, over the commit object
 * without its gpgsig header, by a key the allowed-signers file allows
 * for "git" at the commit's committer time (as git verifies it).
 */

struct commitsig_result {
	int ok;
	char commit[13];		/* abbreviated id, "" when none */
	struct strbuf principal;	/* who signed, when ok */
	struct strbuf reason;		/* why not, when not ok */
};
void commitsig_result_init(struct commitsig_result *res);
void commitsig_result_release(struct commitsig_result *res);

/*
 * Check the commit that last changed the file at path (as the user
 * named it).  as is the allowed-signers file, NULL when there is none.
 * Fills res; returns res->ok.
 */
int commitsig_check(struct commitsig_result *res, const char *path,
		    const struct allowed_signers *as);

#endif
