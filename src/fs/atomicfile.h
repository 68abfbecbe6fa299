#ifndef ATOMICFILE_H
#define ATOMICFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "strbuf.h"

/*
 * Writing a file so that readers see the old bytes or the new ones,
 * never a half-written file, and so that no temporary file is ever left
 * where `git status` sees it.
 *
 * The temporary file goes into "ahd-replay-tmp/" of the git directory
 * that holds the target (found by walking up from the target's
 * directory to a `.git` directory or `.git` file), when that is on the
 * target's file system; else beside the target.  Its name carries the
 * writing process's id: a temporary of a process that no longer runs is
 * stale and removed by the next write into the same place (as is a
 * `<target>.tmp-XXXXXX` left beside the target by older versions, once
 * it is a minute old).  SIGINT, SIGTERM and SIGHUP remove the temporary
 * files being written before the process dies of the signal.
 */

/*
 * Replace path with len bytes of buf atomically: write a temporary
 * file, flush it to disk, give it mode (less the umask), and rename it
 * over path (a symlink at path is replaced, not followed).  Nothing is
 * left behind on failure.  Returns 0 or -1 with a reason in err.
 */
int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, struct strbuf *err);

/*
 * Write n files that belong together (a key and its public key): all
 * of them or none.  Each is written in full and flushed before any is
 * put in place, created with its mode (less the umask) from the start.
 * Without replace, a path where anything exists (even a dangling
 * symlink) is refused and nothing is written; with it, the files are
 * replaced, and when putting one in place fails the ones already put
 * are taken back (the old files restored).  Returns 0 or -1 with a
 * reason in err.
 */
struct atomic_content {
	const char *path;
	const char *buf;
	size_t len;
	mode_t mode;
};
int write_files_together(const struct atomic_content *files, size_t n,
			 int replace, struct strbuf *err);

/*
 * Rewrite the existing file at path atomically, in place: a symlink is
 * followed to the file it names, which is the one replaced; its mode,
 * owner and group are kept.  A file with more than one hard link is
 * refused (the rename would detach it from its other names), as is one
 * whose owner cannot be kept.  Returns 0 or -1 with a reason in err.
 */
int write_file_in_place(const char *path, const char *buf, size_t len,
			struct strbuf *err);

/*
 * The same replacements for output too large to hold: open, write any
 * number of times, then commit (flush, rename) or abort (unlink).  After
 * a failed write or commit the temporary file is already gone; abort is
 * still safe to call and releases what open allocated.
 *
 * For several files that must appear together, prepare each (flush the
 * temporary, keep it), then install each; install with exclusive set
 * creates the target only when nothing is at its path (link(2), no
 * rename).
 */
struct atomic_file {
	int fd;
	mode_t mode;
	const char *path;	/* as given */
	struct strbuf target;	/* the file replaced */
	struct strbuf tmp;	/* the temporary file, empty once gone */
	int in_place;
	uid_t uid;
	gid_t gid;
	int slot;		/* in the signal handler's list, or -1 */
	/*
	 * Set by atomic_file_open_at(): the directory the target is put in,
	 * held open so that the rename goes into the directory that was
	 * checked, whatever its path names by then; -1 otherwise.
	 */
	int dirfd;
	struct strbuf name;	/* the target's name in dirfd */
	/*
	 * Set after open: prepare does not flush the temporary to disk;
	 * the caller does, for many files at once, before installing any.
	 */
	int sync_later;
	/*
	 * Set after atomic_file_open_at(): dirfd is the caller's, kept
	 * open by it until install (many files of one directory share
	 * one); abort and install leave it open.
	 */
	int dirfd_borrowed;
};

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct strbuf *err);
int atomic_file_open_in_place(struct atomic_file *af, const char *path,
			      struct strbuf *err);
/*
 * atomic_file_open() for the entry name of the directory open at dirfd
 * (which af takes over and closes): install renames into dirfd, not by
 * path.  target is the entry's absolute path (where the temporary goes
 * is chosen from it).  With existing (the entry's lstat(), a regular
 * file) its mode, owner and group are kept, as in place; else mode,
 * less the umask.
 */
int atomic_file_open_at(struct atomic_file *af, int dirfd, const char *name,
			const char *target, const struct stat *existing,
			mode_t mode, struct strbuf *err);
int atomic_file_write(struct atomic_file *af, const void *buf, size_t len,
		      struct strbuf *err);
int atomic_file_commit(struct atomic_file *af, struct strbuf *err);
int atomic_file_prepare(struct atomic_file *af, struct strbuf *err);
/*
 * After prepare, for a caller that holds many files until it installs
 * them: close the temporary's descriptor (af->fd is -1 after), which
 * install does not need (it opens the temporary again by its name if
 * it must copy it to another file system).  Returns 0, or -1 with a
 * reason in err when close() fails (the temporary is gone then).
 */
int atomic_file_close_fd(struct atomic_file *af, struct strbuf *err);
int atomic_file_install(struct atomic_file *af, int exclusive,
			struct strbuf *err);
void atomic_file_abort(struct atomic_file *af);

/*
 * Make the directory path and its missing parents (mode 0777 less the
 * umask), as `mkdir -p` does; an existing directory is fine, anything
 * else in the way is an error.  Returns 0 or -1 with a reason in err.
 */
int mkdir_p(const char *path, struct strbuf *err);

#endif
