#ifndef CHECKOUT_H
#define CHECKOUT_H

#include <git2.h>
#include <stddef.h>
#include "strbuf.h"

/*
 * The one model of a committed file's bytes: the bytes a checkout
 * writes.  The reference hashes the file in the work tree of the run,
 * which a checkout wrote; so verify --at, attribution, backfill, the
 * hooks and replay's restore all hash a blob as `git checkout` would
 * write it on this machine: end of line (eol, text, text=auto,
 * core.autocrlf, core.eol) and ident applied, as git's attributes for
 * the path say.
 *
 * A filter=<driver> whose smudge this tool cannot run (any driver with
 * a smudge or process command, or a required one; git-lfs is read
 * through lfs.h before this) is an error that says so: the bytes are
 * unknown, and a guess would be a wrong hash.  A driver that is not
 * configured at all is passed through, as git does.  Any
 * working-tree-encoding is such an error too: git re-encodes the file
 * on checkout, libgit2's filters do not.
 */

/*
 * Append to out the bytes a checkout writes for the blob (len bytes at
 * data, the content of blob) at path (repository-relative), the
 * attributes read from commit's tree alone, as a fresh checkout of it
 * reads them (commit NULL: the work tree's and the index's).  Content over max bytes (0: no
 * limit) gives CHECKOUT_TOOBIG.  Returns 0, CHECKOUT_TOOBIG, or -1 with
 * the reason in err.
 */
#define CHECKOUT_TOOBIG (-2)
int checkout_bytes(struct strbuf *out, git_repository *repo, git_blob *blob,
		   const char *path, const git_oid *commit, size_t max,
		   struct strbuf *err);

#endif
