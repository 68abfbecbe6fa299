#ifndef FS_PATH_H
#define FS_PATH_H

#include "strbuf.h"

/*
 * Paths as strings: the one copy of "absolute", "relative", "resolve",
 * "is this inside that", "the directory of" and "one level up" every
 * caller uses.  These are the checks that keep what a command reads
 * inside the root, so there is one reviewed copy of each.  They never
 * touch the file system but for path_absolute()'s getcwd(); opening a
 * file beneath a directory is rootdir.h's job.
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
 * The part of path below dir, when path_is_within(path, dir): a pointer
 * into path past dir and the slashes after it ("" for dir itself; "b/c"
 * for "/a/b/c" below "/a" or "/").  NULL when path is not within dir.
 */
const char *path_inside(const char *path, const char *dir);

/*
 * Whether a component of rel (a path relative to a root, its slashes
 * repeated or not) is ".git" in any case: a case-insensitive file system
 * opens .GIT as .git, so a file there is in a git directory either way.
 */
int path_in_git_dir(const char *rel);

/*
 * Append the directory part of path to out: everything before its last
 * slash, "/" when that slash is the first byte, "." when there is none.
 * No component is resolved or dropped ("a/b/" gives "a/b").
 */
void path_dirname(struct strbuf *out, const char *path);

/*
 * One level up, in place: drop the last component of path and the slash
 * before it ("/a/b" becomes "/a", "/a" becomes "/", "a/b" becomes "a").
 * Returns 0, or -1 leaving path alone when there is no level above it
 * ("/", or a relative path of one component).
 */
int path_parent(struct strbuf *path);

/*
 * path_resolve() from the current directory.  Returns 0, or -1 with a
 * reason in err when the current directory cannot be found (removed
 * under us, say).
 */
int path_absolute(struct strbuf *out, const char *path, struct strbuf *err);

/* Node's path.relative(from, to) for absolute, normalised paths. */
void path_relative(struct strbuf *out, const char *from, const char *to);

#endif
