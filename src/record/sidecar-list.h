#ifndef SIDECAR_LIST_H
#define SIDECAR_LIST_H

#include <stddef.h>

/*
 * The sidecars a verify run covers, each with the report it is shown
 * by: the user's operand, or for a sidecar found in a directory its
 * X.md when that exists.
 */

struct path_list {
	char **items;
	size_t nr, alloc;
};

struct sidecar_list {
	struct path_list reports;	/* as shown */
	struct path_list sidecars;	/* the files to read */
	struct path_list errors;	/* why part of the scope was not searched */
	/*
	 * Per sidecar: 1 when its directory's listing had no <sidecar>.sig
	 * at all (dirlist_absent()), so verify need not look for one; 0
	 * when there is one, or the listing cannot say, or the sidecar was
	 * an operand.
	 */
	unsigned char *sig_absent;
	size_t sig_alloc;
	/*
	 * When the search covered the work tree's top (no operands or
	 * all, no root given): top as the paths start with ("." or its
	 * absolute path), and every *.md it met whose sidecar the listing
	 * did not have, for require-sidecar.h, which need not walk the
	 * tree again.  top is NULL otherwise.
	 */
	char *top;
	struct path_list unpaired;
};
#define SIDECAR_LIST_INIT { { NULL, 0, 0 }, { NULL, 0, 0 }, { NULL, 0, 0 }, \
			    NULL, 0, NULL, { NULL, 0, 0 } }

/*
 * Turn operands (reports, sidecars, directories) into pairs.  Without
 * operands, or with all, every *.replay.json of the repository too: the
 * root directory when given, else the work tree around the current
 * directory.  Directories are searched without entering .git,
 * node_modules or symlinked directories, on threads threads
 * (sidecar-search.h); what is found is sorted by name, and so are the
 * reasons a part was not searched.  Returns 0, or -1 when part of the scope could not be searched
 * (a directory that cannot be read, an entry that cannot be looked at,
 * a tree deeper than the search goes): each reason is in out->errors,
 * for the caller to print where its format says, and what could be
 * listed still is.  A sidecar missed that way could hide drift, so this
 * is never only a warning.
 */
int sidecar_list_collect(struct sidecar_list *out, int argc, char **argv,
			 int all, const char *root, size_t threads);
void sidecar_list_release(struct sidecar_list *l);

#endif
