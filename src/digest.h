#ifndef DIGEST_H
#define DIGEST_H

#include <stddef.h>

/* SHA-256 through OpenSSL's EVP interface, printed as "sha256:<hex>". */

#define DIGEST_HEX_MAX 72	/* "sha256:" + 64 hex digits + NUL */

struct digest {
	void *ctx;	/* EVP_MD_CTX */
};
#define DIGEST_INIT { NULL }

/* Dies (status 2) when OpenSSL cannot provide SHA-256. */
void digest_init(struct digest *d);
void digest_update(struct digest *d, const void *data, size_t len);
/* Finish, write "sha256:<64 lower hex>" to out, and release. */
void digest_final_hex(struct digest *d, char out[DIGEST_HEX_MAX]);
void digest_release(struct digest *d);

/* One-shot form for a buffer. */
void digest_buffer_hex(char out[DIGEST_HEX_MAX], const void *data, size_t len);

#endif
