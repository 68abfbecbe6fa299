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

#endif
