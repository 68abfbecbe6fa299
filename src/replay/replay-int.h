#ifndef REPLAY_INT_H
#define REPLAY_INT_H

/* The parts of a replay in their own files (replay.h says what they do). */

#include "replay.h"

/* rp->argv from the sidecar's argv, mapped onto the worktree. */
int replay_reroot_argv(struct replay *rp, struct strbuf *err);

/*
 * Write bytes at path (absolute, inside the worktree), beneath the
 * worktree as its own root (fs/write.h): a directory of the commit
 * swapped for a symlink after the check still moves nothing out, and a
 * symlink of the commit at path itself is replaced.  An existing file
 * keeps its mode.  Returns 0, or -1 with a reason in err.
 */
int replay_put_path(const struct replay *rp, const char *path,
		    const char *buf, size_t len, struct strbuf *err);

/*
 * rp->receipt and its RFC 8785 text, written to replay-receipt.json at
 * the worktree's top.  Returns 0, or -1 with a reason in err.
 */
int replay_write_receipt(struct replay *rp, const struct replay_options *opts,
			 struct strbuf *err);

#endif
