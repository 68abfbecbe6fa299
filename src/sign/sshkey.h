#ifndef SSHKEY_H
#define SSHKEY_H

#include "strbuf.h"

/*
 * OpenSSL's EVP_PKEY, named by its struct tag so that the code that
 * includes this header does not see OpenSSL's (src/sign/ is its door).
 */
struct evp_pkey_st;

/*
 * OpenSSH public keys, read from their wire form ("ssh-ed25519" and 32
 * bytes, RFC 8709; "ecdsa-sha2-nistp256/384/521", RFC 5656; "ssh-rsa",
 * RFC 4253) or from an authorized_keys-style line ("<type> <base64>
 * [comment]"), and SSH signatures checked against them with OpenSSL.
 * Certificates and security-key ("sk-") types are refused by name.
 * Everything read here is untrusted: lengths are checked before use and
 * a key must be exactly its wire form (no trailing bytes).
 */

enum sshkey_type {
	SSHKEY_ED25519,
	SSHKEY_ECDSA_P256,
	SSHKEY_ECDSA_P384,
	SSHKEY_ECDSA_P521,
	SSHKEY_RSA,
};

struct sshkey {
	enum sshkey_type type;
	struct evp_pkey_st *pkey;	/* EVP_PKEY; NULL until built */
	struct strbuf blob;	/* the wire form: keys are equal when these are */
};
#define SSHKEY_INIT { SSHKEY_ED25519, NULL, STRBUF_INIT }

/* RSA keys shorter than this are refused, as too weak to vouch for anything. */
#define SSHKEY_RSA_MIN_BITS 2048

/*
 * Read a key from its wire form.  Returns 0 with the key in *out
 * (initialised by the caller, released with sshkey_release()), or -1
 * with a reason in err naming a refused type.
 */
int sshkey_from_blob(struct sshkey *out, const void *blob, size_t len,
		     struct strbuf *err);

/*
 * As sshkey_from_blob(), with every check of the wire form (type,
 * lengths, an RSA key's size) but without building the OpenSSL key:
 * out->pkey is left NULL.  For a key from an untrusted signature,
 * compared as bytes (sshkey_equal()) with the trusted keys before
 * anything is built from it.
 */
int sshkey_parse_blob(struct sshkey *out, const void *blob, size_t len,
		      struct strbuf *err);

/* Build the OpenSSL key of a key read by sshkey_parse_blob(); 0 or -1. */
int sshkey_build(struct sshkey *key, struct strbuf *err);

/*
 * Read "<type> <base64>" from *line (leading blanks skipped), leaving
 * *line after the base64 (at the comment, if any).  Returns 0, or -1
 * with a reason in err; *line is then unchanged.
 */
int sshkey_from_line(struct sshkey *out, const char **line,
		     struct strbuf *err);

/* Whether the word at s (up to a blank) names a key type we know of. */
int sshkey_is_type_word(const char *s);

/* The key's type as OpenSSH names it ("ssh-ed25519", ...). */
const char *sshkey_type_name(const struct sshkey *key);

/* Append "SHA256:<base64 of the blob's SHA-256, unpadded>", as ssh-keygen -l. */
void sshkey_fingerprint(struct strbuf *out, const struct sshkey *key);

/* Keys are equal when their wire forms are; neither need be built. */
int sshkey_equal(const struct sshkey *a, const struct sshkey *b);

/*
 * Check an SSH signature blob (string algorithm, string signature) over
 * data.  Returns 1 when it verifies, 0 when it does not, -1 with a
 * reason in err when the blob is malformed or of the wrong algorithm
 * for the key (RSA: rsa-sha2-256 or rsa-sha2-512 only), or when the key
 * is not built.
 */
int sshkey_verify(const struct sshkey *key, const void *sig, size_t sig_len,
		  const void *data, size_t len, struct strbuf *err);

void sshkey_release(struct sshkey *key);

#endif
