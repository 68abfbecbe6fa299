#ifndef WRITEBATCH_H
#define WRITEBATCH_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>
#include "atomicfile.h"
#include "write.h"

/*
 * Many files written beneath one root (write.h's write_file_beneath()),
 * each replaced atomically, with one flush to disk for all of them:
 * each is written to its temporary file, then one syncfs(2) per file
 * system they are on (a mount point may lie beneath the root) flushes
 * them all, then each is renamed into place.  One fsync(2) per file is
 * one disk flush per file, and backfill writes thousands of sidecars.
 * No file is renamed into place before its bytes are on disk, so a
 * crash leaves each target as it was or as written, never empty.
 *
 * A file whose path held nothing when it was added is created only if
 * its path still holds nothing when the batch is committed (link(2),
 * not rename(2)): the window between the two spans the whole batch and
 * its flush, and a file that appears there meanwhile (a run writing its
 * own) is the user's, not to be replaced.
 *
 * The root is opened once a batch (by its first file, closed by the
 * commit), and each file's path opened beneath it by descriptor as
 * write_file_beneath() opens one.  A file holds no descriptor while it
 * waits: its temporary is closed once written (install finds it by its
 * name), and the directory it goes into is held once for all the files
 * of the batch that go there (the same directory: the same device and
 * inode as the one just opened for the file).
 *
 * At most WRITE_BATCH_MAX files wait, in at most as many directories as
 * the limit on open files leaves room for; adding one more commits
 * those first.  done is called once for each file added, in the order
 * they were added: with error NULL once it is in place, or with the
 * reason it is not (nothing of it is left then).
 */
#define WRITE_BATCH_MAX 512

typedef void (*write_batch_done_fn)(void *data, const char *path,
				    const char *error);
/*
 * Asked again just before a file that existed when it was added is
 * replaced (a batch holds it a while): 0 to replace it, or -1 with why
 * it is kept in why (then done is told that).
 */
typedef int (*write_batch_replace_fn)(void *data, const char *path,
				      struct strbuf *why);

struct write_batch {
	const char *root;
	/*
	 * The root, opened by the batch's first file and closed by its
	 * commit: once per batch, not per file.
	 */
	struct write_root wr;
	write_batch_done_fn done;
	write_batch_replace_fn may_replace;	/* NULL: always */
	struct write_batch_file {
		struct atomic_file af;
		char *path;
		void *data;
		int create;	/* nothing was at path when added */
		dev_t dev;	/* where its temporary is */
		/* which file it is, to know it again (an inode number
		   is reused once its file is gone: its ctime is not) */
		ino_t ino;
		struct timespec ctime;
	} v[WRITE_BATCH_MAX];
	size_t nr;
	/* the directories the files go into, held until the commit */
	struct write_batch_dir {
		dev_t dev;
		ino_t ino;
		int fd;
	} dirs[WRITE_BATCH_MAX];
	size_t nr_dirs, max_dirs;
};

void write_batch_init(struct write_batch *b, const char *root,
		      write_batch_done_fn done);

/*
 * Write len bytes of buf as path (beneath the batch's root; mode as
 * write_file_beneath() takes it); data is given back to done.  A file
 * that cannot be opened or written is done at once, with its error.
 */
void write_batch_add(struct write_batch *b, const char *path,
		     const char *buf, size_t len, mode_t mode, void *data);

/* Flush and put in place every file added since the last commit. */
void write_batch_commit(struct write_batch *b);

#endif
