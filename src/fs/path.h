#ifndef FS_PATH_H
#define FS_PATH_H

#include "strbuf.h"

/*
 * Paths as strings: the one copy of "absolute", "relative", "resolve"
 * and "is this inside that" every caller uses.  These never touch the
 * file system but for path_absolute()'s getcwd().
 */

/*
 * The absolute form of path, with ".", ".." and repeated slashes
 * resolved lexically, as Node's path.resolve(base, path) does.  A
 * relative path is taken from base, which must then be absolute (a
 * relative one is a BUG).  Appends to out.
 */
void path_resolve(struct strbuf *out, const char *base, const char *path);

/*
 * Is path dir itself or below it?  Compares the strings: both absolute,
 * in the same form (both with symlinks resolved, say); dir may end in
 * '/'.
 */
int path_is_within(const char *path, const char *dir);

/*
 * path_resolve() from the current directory.  Returns 0, or -1 with a
 * reason in err when the current directory cannot be found (removed
 * under us, say).
 */
int path_absolute(struct strbuf *out, const char *path, struct strbuf *err);

/* Node's path.relative(from, to) for absolute, normalised paths. */
void path_relative(struct strbuf *out, const char *from, const char *to);

#endif
