#ifndef TREEPATH_H
#define TREEPATH_H

#include <git2.h>
#include "strbuf.h"

/*
 * A path looked up in a commit's tree or in the index the way a checkout
 * would see it: symlinks stored in the tree (mode 120000) are followed,
 * in any component, their targets read relative to the link's directory.
 *
 * The rules (what the work tree would give, minus what a tree cannot
 * hold): at most TREEPATH_MAX_HOPS links on the way (the kernel's
 * ELOOP bound), a target that is absolute or climbs above the repository
 * leaves it (refused: the commit does not say what is there), and a
 * component ".git" is the git directory, not tracked content (refused as
 * well).
 */

#define TREEPATH_MAX_HOPS 40

enum treepath_status {
	TREEPATH_OK,		/* a blob: a regular or executable file */
	TREEPATH_NOT_FOUND,
	TREEPATH_NOT_FILE,	/* a directory or a submodule */
	TREEPATH_LOOP,		/* more than TREEPATH_MAX_HOPS links */
	TREEPATH_OUTSIDE,	/* a link leaves the repository */
};

struct treepath {
	enum treepath_status status;
	struct strbuf path;	/* where it led, repository-relative */
	git_oid id;		/* the blob, when TREEPATH_OK */
	unsigned mode;
	char **links;		/* every link followed, in order */
	size_t nr_links, alloc_links;
	struct strbuf why;	/* a sentence when status is not OK */
};
#define TREEPATH_INIT { TREEPATH_OK, STRBUF_INIT, { { 0 } }, 0, NULL, 0, 0, \
			STRBUF_INIT }

/*
 * Resolve path (repository-relative, '/'-separated) in tree, or in index
 * when tree is NULL (stage 0 entries).  Fills out, whose status says how
 * it went; returns -1 only when an object cannot be read (reason in
 * out->why).  Release out with treepath_release().
 */
int treepath_resolve(struct treepath *out, git_repository *repo,
		     git_tree *tree, git_index *index, const char *path);
void treepath_release(struct treepath *tp);

/*
 * The bytes a checkout of commit (whose tree is tree) writes at path:
 * symlinks followed, a git-lfs pointer read through (lfs.h).  Returns 0
 * with the bytes appended to out; 1 when path leads to no file, or to a
 * blob that is missing (tp's status and why say so); -1 with a reason in
 * err (a link that cannot be read, an LFS object absent or not matching
 * its pointer).  tp is filled
 * either way; release it.
 */
int treepath_read(struct strbuf *out, struct treepath *tp,
		  git_repository *repo, git_tree *tree, const git_oid *commit,
		  const char *path, struct strbuf *err);

/*
 * Does the resolution of tp pass through path (a link it followed, or
 * the path it led to)?  For the hooks: an input is touched by a change to
 * any of them.
 */
int treepath_uses(const struct treepath *tp, const char *path);

/*
 * A commit's tree (verify --at, pre-push) or the index being committed
 * (pre-commit), seen from the root directory, for reading the inputs a
 * sidecar records (root/inputpath.h).  Exactly one of tree and index is
 * set.
 */
struct input_tree {
	git_repository *repo;	/* borrowed */
	git_tree *tree;		/* borrowed */
	git_index *index;	/* borrowed */
	const git_oid *commit;	/* tree's commit: its gitattributes (git-lfs) */
	const char *prefix;	/* the root relative to the work tree, "" or "dir/" */
};

/*
 * The blob that path (relative to the work tree) names in the tree or
 * index, with its file mode, following the symlinks stored there as a
 * checkout would (treepath_resolve()).  Returns 0, or -1 when there is
 * none.
 */
int input_tree_blob(const struct input_tree *t, const char *path,
		    git_oid *out, unsigned *mode);

#define INPUT_TREE_TOOBIG (-2)

/*
 * What a checkout of t writes at path (relative to the work tree): the
 * path resolved as input_tree_blob() resolves it, a git-lfs pointer read
 * through with the attributes of t's commit (of the index when t is the
 * index) and of where the symlinks led.  Content that is no pointer may
 * be at most max bytes (0: no limit).  Returns 0 with the bytes appended
 * to out; INPUT_TREE_TOOBIG when the content is larger (err untouched);
 * -1 with a reason in err: nothing to read there, an LFS object absent
 * or not matching its pointer.
 */
int input_tree_read(struct strbuf *out, const struct input_tree *t,
		    const char *path, size_t max, struct strbuf *err);

#endif
