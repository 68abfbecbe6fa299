#ifndef DIGEST_H
#define DIGEST_H

#include <stddef.h>

/*
 * SHA-256 through OpenSSL's EVP interface, printed as "sha256:<hex>".
 * OpenSSL may be unable to give SHA-256 (a provider configuration that
 * lacks it, memory exhausted): the functions then report OpenSSL's
 * reason with error() and return -1, and leave no hash in out.
 */

#define DIGEST_MUST_CHECK __attribute__((warn_unused_result))

#define DIGEST_HEX_MAX 72	/* "sha256:" + 64 hex digits + NUL */

struct digest {
	void *ctx;	/* EVP_MD_CTX */
	int failed;	/* an update failed; digest_final_hex() says so */
};
#define DIGEST_INIT { NULL, 0 }

/* Returns 0, or -1 when OpenSSL cannot provide SHA-256. */
int digest_init(struct digest *d) DIGEST_MUST_CHECK;
/*
 * Add bytes.  A failure is remembered for digest_final_hex(), so that
 * callbacks that cannot return one (canon_out's flush) may call this.
 */
void digest_update(struct digest *d, const void *data, size_t len);
/*
 * Finish, write "sha256:<64 lower hex>" to out, and release.  Returns
 * 0, or -1 (out is then "") when this or an earlier update failed.
 */
int digest_final_hex(struct digest *d, char out[DIGEST_HEX_MAX])
	DIGEST_MUST_CHECK;
void digest_release(struct digest *d);

/* One-shot form for a buffer; returns 0 or -1 as digest_final_hex(). */
int digest_buffer_hex(char out[DIGEST_HEX_MAX], const void *data,
		      size_t len) DIGEST_MUST_CHECK;

/*
 * digest_buffer_hex() with a context kept in d between calls, so that
 * hashing one message per line of a large file creates one context, not
 * one per line.  d starts as DIGEST_INIT; after any call it holds a
 * finished context (or none, after a failure) until digest_release().
 */
int digest_buffer_hex_reuse(struct digest *d, char out[DIGEST_HEX_MAX],
			    const void *data, size_t len) DIGEST_MUST_CHECK;

/*
 * Git's blob id of len bytes: SHA-1 of "blob <len>\0" and the bytes, as
 * `git hash-object` computes it, into out as 40 lower hex digits and a
 * NUL.  The cache's keys (cache/cache.h) are these ids of the bytes a
 * caller read, never of what a stat() says about a file.  Returns 0, or
 * -1 (out is then "") when OpenSSL cannot give SHA-1.
 */
#define DIGEST_BLOB_ID_HEX 41
int digest_blob_id(char out[DIGEST_BLOB_ID_HEX], const void *data,
		   size_t len) DIGEST_MUST_CHECK;

#endif
