#include "config.h"
#include "digest.h"
#include "usage.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Report OpenSSL's reason and drain its error queue; returns -1. */
static int openssl_error(const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[256] = "unknown error";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	while (ERR_get_error())
		;
	return error("openssl: %s: %s", what, buf);
}

/*
 * SHA-256 and SHA-1 looked up in OpenSSL's providers once.  Passing
 * EVP_sha256() instead makes OpenSSL 3 fetch the algorithm again at
 * every initialisation, under a lock every thread shares: with a hash
 * or two per report, the threads of a verify run then take turns.
 * When a fetch fails the legacy constant stands in, so errors come
 * from the same calls as before.
 */
static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;
static EVP_MD *fetched_sha256, *fetched_sha1;

static void fetch_digests(void)
{
	fetched_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
	fetched_sha1 = EVP_MD_fetch(NULL, "SHA1", NULL);
	/* a failed fetch leaves its reason queued: the legacy call says it */
	ERR_clear_error();
}

static const EVP_MD *md_sha256(void)
{
	pthread_once(&fetch_once, fetch_digests);
	return fetched_sha256 ? fetched_sha256 : EVP_sha256();
}

static const EVP_MD *md_sha1(void)
{
	pthread_once(&fetch_once, fetch_digests);
	return fetched_sha1 ? fetched_sha1 : EVP_sha1();
}

int digest_init(struct digest *d)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	d->failed = 0;
	if (!ctx)
		return openssl_error("cannot allocate a digest context");
	if (EVP_DigestInit_ex(ctx, md_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		return openssl_error("cannot initialise SHA-256");
	}
	d->ctx = ctx;
	return 0;
}

void digest_update(struct digest *d, const void *data, size_t len)
{
	if (d->failed || !len)
		return;
	if (EVP_DigestUpdate(d->ctx, data, len) != 1)
		d->failed = openssl_error("SHA-256 update failed");
}

/* Write the hash of d's message to out; d's context stays allocated. */
static int finish_hex(struct digest *d, char out[DIGEST_HEX_MAX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	int failed = d->failed;

	out[0] = '\0';
	if (!failed && (EVP_DigestFinal_ex(d->ctx, md, &n) != 1 || n != 32))
		failed = openssl_error("SHA-256 final failed");
	if (failed)
		return -1;
	memcpy(out, "sha256:", 7);
	for (i = 0; i < n; i++) {
		out[7 + 2 * i] = hex[md[i] >> 4];
		out[8 + 2 * i] = hex[md[i] & 0xF];
	}
	out[7 + 2 * n] = '\0';
	return 0;
}

int digest_final_hex(struct digest *d, char out[DIGEST_HEX_MAX])
{
	int ret = finish_hex(d, out);

	digest_release(d);
	return ret;
}

void digest_release(struct digest *d)
{
	EVP_MD_CTX_free(d->ctx);
	d->ctx = NULL;
	d->failed = 0;
}

int digest_buffer_hex(char out[DIGEST_HEX_MAX], const void *data, size_t len)
{
	struct digest d = DIGEST_INIT;

	out[0] = '\0';
	if (digest_init(&d))
		return -1;
	digest_update(&d, data, len);
	return digest_final_hex(&d, out);
}

int digest_buffer_hex_reuse(struct digest *d, char out[DIGEST_HEX_MAX],
			    const void *data, size_t len)
{
	out[0] = '\0';
	/*
	 * A finished context starts a new message with the digest it
	 * already holds: no new EVP_MD_CTX, no new lookup of SHA-256
	 * (OpenSSL 3.0 still renews its provider's small state inside).
	 */
	if (d->ctx && EVP_DigestInit_ex(d->ctx, NULL, NULL) != 1) {
		digest_release(d);
		return openssl_error("cannot restart SHA-256");
	}
	if (!d->ctx && digest_init(d))
		return -1;
	digest_update(d, data, len);
	if (finish_hex(d, out) < 0) {
		digest_release(d);
		return -1;
	}
	return 0;
}

int digest_blob_id(char out[DIGEST_BLOB_ID_HEX], const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	char head[32];
	int hlen = snprintf(head, sizeof(head), "blob %zu", len);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ret = -1;

	out[0] = '\0';
	if (!ctx)
		return openssl_error("cannot allocate a digest context");
	/* the header's NUL is part of what git hashes */
	if (EVP_DigestInit_ex(ctx, md_sha1(), NULL) != 1 ||
	    EVP_DigestUpdate(ctx, head, (size_t)hlen + 1) != 1 ||
	    (len && EVP_DigestUpdate(ctx, data, len) != 1) ||
	    EVP_DigestFinal_ex(ctx, md, &n) != 1 || n != 20) {
		openssl_error("cannot compute SHA-1");
		goto out;
	}
	for (i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 0xF];
	}
	out[2 * n] = '\0';
	ret = 0;
out:
	EVP_MD_CTX_free(ctx);
	return ret;
}
