#ifndef INPUTPATH_H
#define INPUTPATH_H

#include "git/treepath.h"
#include "strbuf.h"

/*
 * Where a sidecar's recorded token and brief paths lead (SPEC section 5):
 * relative to the root, absolute paths recorded on CI re-rooted by their
 * longest existing suffix, and everything kept inside the root (".."
 * escapes, absolute paths elsewhere, symlinks out of it and into a
 * .git directory refused).
 *
 * Inputs are read from the work tree, or with a tree from a commit's
 * blobs (verify --at) or the index: struct input_tree (git/treepath.h).
 */

enum input_status {
	INPUT_OK,
	INPUT_NOT_FOUND,
	INPUT_OUTSIDE,		/* leaves the root */
	INPUT_LOOP,		/* a symlink loop */
	INPUT_AMBIGUOUS,	/* several suffixes of an absolute path match */
	INPUT_BAD,		/* not a regular file, unreadable, ... */
};

struct resolved_input {
	enum input_status status;
	struct strbuf shown;	/* what the reference would show: path.resolve(root, recorded) */
	struct strbuf rel;	/* relative to the root, when inside it */
	struct strbuf file;	/* the file to read: its real path (work tree),
				   where the tree's symlinks led (tree) */
	int rerooted;		/* an absolute recorded path, found by suffix */
	struct strbuf why;	/* details when status is not INPUT_OK */
};
#define RESOLVED_INPUT_INIT { INPUT_OK, STRBUF_INIT, STRBUF_INIT, \
			      STRBUF_INIT, 0, STRBUF_INIT }

/*
 * Resolve `recorded` against `root` (absolute, symlink-free).  tree is
 * NULL for the work tree.  allow_outside lifts the containment rules.
 * Fills out (release it with resolved_input_release()); out->status says
 * how it went.
 */
void input_resolve(struct resolved_input *out, const char *root,
		   const char *recorded, const struct input_tree *tree,
		   int allow_outside);
void resolved_input_release(struct resolved_input *in);

/*
 * Where the search for re-rooting candidates starts in an absolute
 * recorded path: each '/' from the returned pointer on begins a suffix
 * tried under root.  A name longer than PATH_MAX names no file (open()
 * refuses it, a checkout cannot write it), so only the suffixes that fit
 * after root are tried: at most PATH_MAX / 2 of them, each at most
 * PATH_MAX bytes, which keeps the cost of a recorded path linear in its
 * length whatever it holds.
 */
const char *reroot_start(const char *recorded, const char *root);

/*
 * Read a resolved input (status INPUT_OK) into buf, at most max bytes
 * (0: no limit).  From a tree or the index, a git-lfs pointer reads as
 * its object, as a checkout writes it (lfs.h); an object that is absent
 * or does not match its pointer is an error.  Reads no more than max + 64
 * KiB of a work tree file.  Returns 0, or INPUT_READ_TOOBIG (over max) or
 * -1 (any other failure) with a reason in err.
 */
#define INPUT_READ_TOOBIG (-2)
int input_read(struct strbuf *buf, const struct resolved_input *in,
	       const struct input_tree *tree, size_t max, struct strbuf *err);

/*
 * The raw hash of a resolved input (status INPUT_OK), its text repaired
 * as SPEC 4.1 says, into out ("sha256:<64 hex>", HASH_HEX_MAX bytes).
 * A work tree file is streamed, in memory that does not depend on its
 * size; one small enough to be a git-lfs pointer is read as input_read()
 * reads it, and so is a blob from a tree or the index (libgit2 holds a
 * blob in memory whole), without a repaired copy.  Returns 0, or -1 with
 * a reason in err.
 */
int input_hash_raw(char *out, const struct resolved_input *in,
		   const struct input_tree *tree, struct strbuf *err);

#endif
