#ifndef LINEDIFF_H
#define LINEDIFF_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Two texts compared by line as git compares them (libgit2's xdiff:
 * Myers's algorithm with git's heuristics, which keep its cost near
 * linear however far apart the texts are), written as a unified diff.
 */

/*
 * The unified diff of a and b with context lines of context: each hunk
 * "@@ -<start>,<lines> +<start>,<lines> @@", then its lines, each
 * prefixed ' ', '-' or '+' and ended by a line feed (a line without one
 * is followed by "\ No newline at end of file").  At most max_lines of
 * those lines go to out; *more counts the rest and *changed the lines
 * added and removed.  The texts are diffed as text whatever bytes they
 * hold.  Returns 0, or -1 with the reason in err.
 */
int linediff_unified(struct strbuf *out, size_t *more, size_t *changed,
		     const char *a, size_t alen, const char *b, size_t blen,
		     unsigned context, size_t max_lines, struct strbuf *err);

#endif
