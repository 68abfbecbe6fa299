#ifndef CHECKEDOUT_H
#define CHECKEDOUT_H

/*
 * Whether a work tree file is what a checkout wrote for it, in the two
 * shapes where its bytes are not the file's: a path outside a sparse
 * checkout (skip-worktree: nothing, or a stale file, is there) and a
 * symlink of the index written as a text file holding its target
 * (core.symlinks=false, git's default on Windows).  verify says so and
 * stops, as for an unfetched LFS object, instead of "file not found" or
 * drift on a clean tree.
 */
enum checkedout {
	CHECKEDOUT_AS_WRITTEN = 0,	/* or untracked, or unknown */
	CHECKEDOUT_SPARSE,		/* outside the sparse checkout */
	CHECKEDOUT_LINK_AS_FILE,	/* a symlink, as a text file */
};

/*
 * The state of root/rel (root absolute, symlinks resolved; rel below
 * it), from the index of the repository around root.
 */
enum checkedout checkedout_state(const char *root, const char *rel);

/* A sentence for the state ("not checked out (sparse checkout)"...). */
const char *checkedout_reason(enum checkedout state);

#endif
