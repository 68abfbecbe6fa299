#ifndef ATOMICFILE_H
#define ATOMICFILE_H

#include <stddef.h>
#include <sys/types.h>
#include "strbuf.h"

/*
 * Replace path with len bytes of buf atomically: write a temporary file
 * in the same directory, flush it to disk, give it mode (less the
 * umask), and rename it over path.  Nothing is left behind on failure.
 * Returns 0 or -1 with a reason in err.
 */
int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, struct strbuf *err);

/*
 * The same replacement for output too large to hold: open, write any
 * number of times, then commit (flush, rename) or abort (unlink).  After
 * a failed write or commit the temporary file is already gone; abort is
 * still safe to call and releases what open allocated.
 */
struct atomic_file {
	int fd;
	mode_t mode;
	const char *path;
	struct strbuf tmp;
};

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct strbuf *err);
int atomic_file_write(struct atomic_file *af, const void *buf, size_t len,
		      struct strbuf *err);
int atomic_file_commit(struct atomic_file *af, struct strbuf *err);
void atomic_file_abort(struct atomic_file *af);

#endif
