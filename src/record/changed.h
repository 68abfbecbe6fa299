#ifndef CHANGED_H
#define CHANGED_H

#include "root/inputpath.h"
#include "strbuf.h"

/*
 * verify --changed-since: did a report's files change between a revision
 * and the state being checked?  The pull request's view: the base is the
 * merge base of the revision and the checked commit (HEAD, or --at's),
 * so commits that reached the revision after the branch left it do not
 * count, and a merge of the base branch into the branch does not either.
 * The comparison is by content (what the path reads, symlinks followed
 * in both), so a file renamed away from its recorded path, or added,
 * or deleted, counts as changed; uncommitted changes count too.
 *
 * What cannot be compared (outside the repository, unreadable, an input
 * that does not resolve) counts as changed: such a report is checked.
 */

struct changed_base;

/*
 * The base for reports under root (absolute, symlink-free): opened once
 * per root and kept in *memo (a list the caller frees with
 * changed_memo_free()).  at is --at's revision (the checked commit), or
 * NULL for HEAD.  NULL with a reason in err when rev or the repository
 * cannot be used.
 */
struct changed_memo;
const struct changed_base *changed_base_for(struct changed_memo **memo,
					    const char *root, const char *rev,
					    const char *at, struct strbuf *err);
void changed_memo_free(struct changed_memo *memo);

/* "1a2b3c4d5e6f": the merge base compared with. */
const char *changed_base_name(const struct changed_base *b);

/* Has the work tree file path (as the user sees it) changed?  1 or 0. */
int changed_file(const struct changed_base *b, const char *path);

/*
 * Has the input recorded as `recorded` (resolved against root as verify
 * resolves it, in tree or the work tree) changed?  1 or 0.
 */
int changed_input(const struct changed_base *b, const char *root,
		  const char *recorded, const struct input_tree *tree,
		  int allow_outside);

/*
 * Has anything a report reads changed: the sidecar, its .sig, the
 * markdown report, or the inputs sc records?  1 or 0.
 */
struct sidecar;
int changed_report(const struct changed_base *b, const char *root,
		   const char *sidecar_path, const char *markdown,
		   const struct sidecar *sc, const struct input_tree *tree,
		   int allow_outside);

#endif
