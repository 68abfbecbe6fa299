#ifndef ROOTFILE_H
#define ROOTFILE_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Opening the files a command reads besides the recorded inputs (a
 * sidecar, its report, its .sig) under the same rule as the inputs
 * (SPEC section 5, inputpath.h): a pull request can make any of them a
 * symlink, so the file's real path must stay inside the root and out of
 * any .git directory, unless --allow-outside-root lifts the rule.  A
 * refused file is never opened, so no message can quote a byte of it.
 *
 * The root is the report's (root.h).  A file the user named that lies
 * outside the root as named (an explicit path elsewhere, no repository
 * around it) is held to its own directory instead: only the symlinks on
 * the way are untrusted, not the name the user typed.
 *
 * The file is opened by descriptor beneath the root (fs/rootdir.h), so
 * the kernel keeps the symlinks inside it; the name as typed is made
 * absolute and resolved lexically first ("docs/../x" is "x").
 */

enum rootfile_status {
	ROOTFILE_OK = 0,
	ROOTFILE_MISSING = -1,	/* does not exist (a dangling symlink too) */
	ROOTFILE_OUTSIDE = -2,	/* leads out of the root or into .git */
	ROOTFILE_BAD = -3,	/* not a regular file, unreadable, too big */
};

/*
 * Check path (as the user or a listing named it; "-" is standard input
 * and always passes) against root and store the file to open, its real
 * path, in real (may be NULL).  The file is opened to be checked, and
 * closed.  Returns ROOTFILE_OK or a negative status with a one-line
 * reason in err ("cannot open: ...", "leads out of the root ..."; the
 * caller names path) that never names the target.
 */
int rootfile_check(const char *root, const char *path, int allow_outside,
		   struct strbuf *real, struct strbuf *err);

/*
 * rootfile_check(), then read the whole file into out (at most max
 * bytes, 0: no limit; readfile.h) from the descriptor that was checked,
 * so nothing can swap the file in between.  Returns ROOTFILE_OK or a
 * negative status with the reason in err.
 */
int rootfile_read(struct strbuf *out, const char *root, const char *path,
		  int allow_outside, size_t max, struct strbuf *err);

/*
 * Close the root this thread keeps open between calls (the last one a
 * file was opened beneath).  A thread that opened files calls it before
 * it ends; the next call opens a root again.
 */
void rootfile_forget(void);

/*
 * The root for a file path a command was given (root.h's root_find()
 * from the file's directory, given as --root or NULL).  Returns the
 * origin, or -1 with a reason in err.
 */
int rootfile_root_for(struct strbuf *root, const char *path,
		      const char *given, struct strbuf *err);

#endif
