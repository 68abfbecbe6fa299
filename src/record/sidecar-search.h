#ifndef SIDECAR_SEARCH_H
#define SIDECAR_SEARCH_H

#include "sidecar-list.h"

/*
 * The search of a tree for sidecars, for sidecar-list.c: every
 * *.replay.json below a directory, not entering .git, node_modules or
 * symlinked directories, each with the report it is shown by (its X.md
 * when the listing has one) and whether the listing had a .sig beside
 * it; optionally every *.md regular file whose sidecar the listing does
 * not have.  Directories are listed on several threads at once (a tree
 * of reports has hundreds); the answers do not depend on how many.
 */

struct sidecar_found {
	char *sidecar, *report;
	int sig_absent;
};

struct sidecar_search {
	struct sidecar_found *v;	/* sorted by sidecar */
	size_t nr, alloc;
	struct path_list errors;	/* why parts were not searched, sorted */
	struct path_list unpaired;	/* with want_unpaired, sorted */
};
#define SIDECAR_SEARCH_INIT { NULL, 0, 0, { NULL, 0, 0 }, { NULL, 0, 0 } }

/*
 * Search dir on threads threads (at least one: the caller's).  Returns
 * 0, or -1 when part of the tree could not be searched (the reasons in
 * out->errors), after searching the rest.  out owns what it holds; the
 * caller takes the strings or calls sidecar_search_release().
 */
int sidecar_search(struct sidecar_search *out, const char *dir,
		   int want_unpaired, size_t threads);
void sidecar_search_release(struct sidecar_search *s);

/* Free l's strings and empty it. */
void path_list_clear(struct path_list *l);

/* from's strings appended to to, which takes them; from is emptied. */
void path_list_take(struct path_list *to, struct path_list *from);

/* Append a formatted message to l; returns -1, for error paths. */
int path_list_addf(struct path_list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
