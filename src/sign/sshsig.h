#ifndef SSHSIG_H
#define SSHSIG_H

#include "sshkey.h"
#include "strbuf.h"

/*
 * OpenSSH's detached signature format (PROTOCOL.sshsig), as
 * `ssh-keygen -Y sign` writes it and git stores it in a commit's gpgsig
 * header: armour, a blob naming the key, namespace and hash, and the
 * signature over "SSHSIG", the namespace, an empty reserved string, the
 * hash algorithm and the message's hash.  Parsed from untrusted text:
 * sizes are bounded, every length checked, nothing trailing accepted.
 */

#define SSHSIG_BEGIN "-----BEGIN SSH SIGNATURE-----"
#define SSHSIG_END "-----END SSH SIGNATURE-----"
#define SSHSIG_MAX_ARMOUR ((size_t)64 << 10)

struct sshsig {
	struct sshkey key;
	struct strbuf ns;	/* the namespace, checked to hold no NUL */
	int sha512;		/* hash algorithm: sha512, else sha256 */
	struct strbuf blob;	/* the decoded blob */
	size_t sig_off, sig_len;	/* the signature, inside blob */
};
#define SSHSIG_INIT { SSHKEY_INIT, STRBUF_INIT, 0, STRBUF_INIT, 0, 0 }

/* Whether text starts as an armoured SSH signature does. */
int sshsig_is_armoured(const char *text, size_t len);

/*
 * Read an armoured signature from text.  *end (when not NULL) receives
 * the offset just past the footer's line, where anything after the
 * armour starts.  Returns 0 with *out filled (initialised by the
 * caller), or -1 with a reason in err.
 */
int sshsig_parse_armoured(struct sshsig *out, const char *text, size_t len,
			  size_t *end, struct strbuf *err);

/*
 * Read a decoded blob.  The signature's key is read and checked, not
 * built (see sshkey_parse_blob()): the caller looks it up in its trust
 * first, and checks the signature with the trusted copy.
 */
int sshsig_parse_blob(struct sshsig *out, const void *blob, size_t len,
		      struct strbuf *err);

/*
 * Check the signature over msg with key: a built key equal to the one
 * the signature names (sshkey_equal()), taken from the caller's trust
 * (or built with sshkey_build() when the signature is trusted already).
 * The namespace is not checked here (compare out->ns).  Returns 1 when
 * it verifies, 0 when it does not, -1 with a reason in err when it
 * cannot be checked.
 */
int sshsig_verify(const struct sshsig *sig, const struct sshkey *key,
		  const void *msg, size_t len, struct strbuf *err);

void sshsig_release(struct sshsig *sig);

#endif
