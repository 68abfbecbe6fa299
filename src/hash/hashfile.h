#ifndef HASHFILE_H
#define HASHFILE_H

#include <stddef.h>
#include "strbuf.h"

/*
 * The hash contract of SPEC section 4, from file or buffer to canonical
 * text and digest.
 */

enum hash_mode {
	HASH_STRUCTURED,	/* YAML 1.2 parse, reference canonical JSON */
	HASH_RAW,		/* the decoded text's UTF-8 bytes */
	HASH_JCS,		/* JSON input, RFC 8785 output */
};

/* Return values of the functions below besides 0. */
enum {
	HASH_EINVALID = -1,	/* the reference throws too: bad input */
	HASH_EUNSUPPORTED = -2,	/* the reference hashes, we cannot match it */
	HASH_EIO = -3,		/* cannot read, or over the size limit */
};

/* Default limit for structured inputs; raw hashing streams any size. */
#define HASH_DEFAULT_MAX_SIZE ((size_t)64 << 20)

/*
 * Canonical text of `text`, `len` bytes of valid UTF-8 (already repaired
 * as SPEC 4.1 says), appended to `out`.  mode is HASH_STRUCTURED or
 * HASH_JCS.  On failure returns HASH_EINVALID or HASH_EUNSUPPORTED and
 * appends a one-line reason to `err` (for example "invalid YAML: map keys
 * must be unique (line 3, column 1)" or "unsupported YAML construct:
 * %YAML 1.1 directive").
 */
int canon_text(struct strbuf *out, const char *text, size_t len,
	       enum hash_mode mode, struct strbuf *err);

/*
 * Hash `text` as canon_text() would and write "sha256:<64 hex>" to out
 * (at least HASH_HEX_MAX bytes).  HASH_RAW hashes the bytes as they are.
 */
#define HASH_HEX_MAX 72
int hash_text(char *out, const char *text, size_t len, enum hash_mode mode,
	      struct strbuf *err);

/*
 * The raw hash of bytes as read (not yet repaired): repaired as SPEC 4.1
 * says and hashed a window at a time, so that no repaired copy of them
 * is made.  Writes "sha256:<64 hex>" to out; returns 0 or HASH_EIO.
 */
int hash_raw_bytes(char *out, const char *bytes, size_t len,
		   struct strbuf *err);

/*
 * Read the file at `path` ("-" is standard input), decode it as SPEC 4.1
 * says, and hash it.  Structured modes refuse files over max_size bytes;
 * HASH_RAW streams files of any size.
 */
int hash_file(char *out, const char *path, enum hash_mode mode,
	      size_t max_size, struct strbuf *err);

#endif
