#ifndef READFILE_H
#define READFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include "strbuf.h"

/*
 * Reading input files.  "-" names standard input.
 */

enum {
	INPUT_EOPEN = -1,	/* cannot open or read */
	INPUT_ETOOBIG = -2,	/* larger than the limit */
};

/*
 * Append the whole file to out, refusing files over max bytes (0: no
 * limit).  On failure appends a reason to err ("cannot open: ...",
 * "larger than the ... limit") and returns INPUT_EOPEN or INPUT_ETOOBIG.
 */
int read_file_limited(struct strbuf *out, const char *path, size_t max,
		      struct strbuf *err);

/*
 * read_file_limited() for the file open at fd, which this takes over and
 * closes.  st is the file's fstat() when the caller has it (a regular
 * file is then sized without another), or NULL.
 */
int read_fd_limited(struct strbuf *out, int fd, const struct stat *st,
		    size_t max, struct strbuf *err);

/* Open path for reading ("-" is stdin); NULL with err set on failure. */
FILE *input_open(const char *path, struct strbuf *err);
void input_close(FILE *fp);

/* "64 MiB", "1.5 GiB", "100 bytes": a size for messages. */
void format_size(struct strbuf *sb, size_t n);

#endif
