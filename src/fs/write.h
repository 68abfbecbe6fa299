#ifndef FS_WRITE_H
#define FS_WRITE_H

#include <stddef.h>
#include <sys/types.h>
#include "atomicfile.h"
#include "rootdir.h"
#include "strbuf.h"

/*
 * The one way a command writes a file: what it writes is held to the
 * containment its reads are (rootdir.h), before a byte is written.
 *
 * Files of the repository (a sidecar, a report, a signature, a worktree
 * file) are written beneath a root:
 *
 *  - the path must be inside the root, and every directory on the way
 *    is opened by descriptor beneath it: a symlink that leaves the root
 *    (or leads into a .git directory) is refused, naming the path and
 *    the link;
 *  - a symlink at the path itself is followed when it stays beneath the
 *    root (the file it names is rewritten, as --force has always done)
 *    and refused when it leaves it or names nothing;
 *  - an existing file keeps its mode, owner and group; one with more
 *    than one hard link, or anything but a regular file, is refused;
 *  - the new bytes are renamed into the directory that was checked,
 *    held open, so that swapping a directory for a symlink after the
 *    check moves nothing out of the root.
 *
 * Output files named on the command line (--receipt, --output) are the
 * user's choice of place, not the repository's, and get the other rule
 * below: only a file this tool wrote before is replaced.
 */

/*
 * Open an atomic replacement of path (absolute, or relative to the
 * current directory) beneath root (an absolute directory): write to it
 * with atomic_file_write() and put it in place with atomic_file_commit()
 * (atomicfile.h).  A new file gets mode less the umask.  Returns 0, or
 * -1 with a reason in err naming the path (and the link, when one leads
 * out).
 */
int write_beneath_open(struct atomic_file *af, const char *root,
		       const char *path, mode_t mode, struct strbuf *err);

/*
 * A root opened once for many files written beneath it (a batch): its
 * real path found and its descriptor opened once, and the directories
 * the fallback walk opens kept for the files after (rootdir.h), rather
 * than a realpath() and an open of the root per file.  Each file's path
 * is still opened beneath the root by descriptor, as for a single file.
 */
struct write_root {
	struct rootdir rd;
	char *root;	/* as given */
	char *real;	/* its real path, the one opened */
};
#define WRITE_ROOT_INIT { ROOTDIR_INIT, NULL, NULL }

/*
 * Open root (an absolute directory) for writes beneath it.  Returns 0,
 * or -1 with a reason in err naming path (the file that was to be
 * written).  Release wr with write_root_release() either way.
 */
int write_root_open(struct write_root *wr, const char *root, const char *path,
		    struct strbuf *err);

/* write_beneath_open() beneath the root wr opened. */
int write_root_open_file(struct atomic_file *af, struct write_root *wr,
			 const char *path, mode_t mode, struct strbuf *err);

/* Close the root; wr is WRITE_ROOT_INIT again. */
void write_root_release(struct write_root *wr);

/* write_beneath_open(), then all of buf, then the commit. */
int write_file_beneath(const char *root, const char *path, const char *buf,
		       size_t len, mode_t mode, struct strbuf *err);

/*
 * Is text (an existing output file's first bytes, NUL-terminated) an
 * output this tool wrote before?
 */
typedef int (*output_recognise_fn)(const char *text, void *data);

/*
 * Write an output file a command-line option names:
 *
 *  - nothing there: the file is created (atomically, and never over a
 *    file that appears meanwhile);
 *  - a regular file: replaced atomically when it is empty or ours says
 *    it is an earlier output of ours; else refused, "exists and is not
 *    an earlier <what> of ahd-replay; not replaced";
 *  - a FIFO or character device (a terminal, /dev/null), or a symlink
 *    to one (/dev/stdout): written through, never renamed over;
 *  - a symlink to a regular file: that file, under the rule above,
 *    rewritten in place (the link kept);
 *  - anything else (a directory, a socket, a dangling link): refused.
 *
 * Returns 0, or -1 with a reason in err naming the path.
 */
int write_output_file(const char *path, const char *buf, size_t len,
		      mode_t mode, const char *what, output_recognise_fn ours,
		      void *data, struct strbuf *err);

/*
 * The check write_output_file() makes before writing, alone: 0 when path
 * may be written, -1 with the reason in err.  A command checks its
 * output files before any work, and write_output_file() checks again.
 */
int output_file_check(const char *path, const char *what,
		      output_recognise_fn ours, void *data,
		      struct strbuf *err);

#endif
