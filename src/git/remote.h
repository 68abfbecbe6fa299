#ifndef REMOTE_H
#define REMOTE_H

#include "repo.h"
#include "strbuf.h"

/*
 * The remotes configured in a repository (remote.<name>.url and
 * .pushurl), as the pre-push hook looks for the one git is pushing to.
 */

struct remote_entry {
	char *name;
	char *url;		/* NULL when unset */
	char *pushurl;		/* NULL when unset */
};

struct remote_list {
	struct remote_entry *v;
	size_t nr, alloc;
};
#define REMOTE_LIST_INIT { NULL, 0, 0 }

/*
 * Every configured remote of r, in the order `git remote` lists them.  A
 * remote whose settings libgit2 refuses (an invalid URL, say) is listed
 * by name, without URLs.  Returns 0, or -1 with a reason in err.
 * Release out with remote_list_release() either way.
 */
int remote_list_read(struct remote_list *out, struct repo *r,
		     struct strbuf *err);
void remote_list_release(struct remote_list *l);

#endif
