#ifndef PROGRESS_H
#define PROGRESS_H

/*
 * A progress line on stderr, as git's progress.c behaves (the code is
 * ours): "<title>: <percent>% (<n>/<total>)" redrawn in place with a carriage return,
 * only when stderr is a terminal, at most every PROGRESS_INTERVAL_MS
 * (the first count and the last at once), and cleared before any other
 * line is printed, so that a result never shares a line with it.
 *
 * Every function accepts NULL, which is what progress_start() returns
 * when there is to be no progress (stderr not a terminal, or quiet), so
 * callers need no "if".
 */

#include <stddef.h>

#define PROGRESS_INTERVAL_MS 100

struct progress;

/*
 * A progress line titled title (not copied: a literal) counting to
 * total, or NULL when show is 0 or stderr is not a terminal.
 */
struct progress *progress_start(const char *title, size_t total, int show);

/* The count is now n: redrawn unless the last drawing is too recent. */
void progress_update(struct progress *p, size_t n);

/*
 * Erase the line, and flush stdout, before printing anything else (to
 * stdout or stderr); the next progress_update() draws it again.
 */
void progress_clear(struct progress *p);

/* Erase the line and free p; *p becomes NULL. */
void progress_stop(struct progress **p);

#endif
