#include "config.h"
#include "digest.h"
#include "usage.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <string.h>

static void die_openssl(const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[256] = "unknown error";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	while (ERR_get_error())
		;
	die("openssl: %s: %s", what, buf);
}

void digest_init(struct digest *d)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx)
		die_openssl("cannot allocate a digest context");
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		die_openssl("cannot initialise SHA-256");
	}
	d->ctx = ctx;
}

void digest_update(struct digest *d, const void *data, size_t len)
{
	if (len && EVP_DigestUpdate(d->ctx, data, len) != 1)
		die_openssl("SHA-256 update failed");
}

void digest_final_hex(struct digest *d, char out[DIGEST_HEX_MAX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (EVP_DigestFinal_ex(d->ctx, md, &n) != 1 || n != 32)
		die_openssl("SHA-256 final failed");
	memcpy(out, "sha256:", 7);
	for (i = 0; i < n; i++) {
		out[7 + 2 * i] = hex[md[i] >> 4];
		out[8 + 2 * i] = hex[md[i] & 0xF];
	}
	out[7 + 2 * n] = '\0';
	digest_release(d);
}

void digest_release(struct digest *d)
{
	EVP_MD_CTX_free(d->ctx);
	d->ctx = NULL;
}

void digest_buffer_hex(char out[DIGEST_HEX_MAX], const void *data, size_t len)
{
	struct digest d = DIGEST_INIT;

	digest_init(&d);
	digest_update(&d, data, len);
	digest_final_hex(&d, out);
}
