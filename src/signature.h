#ifndef SIGNATURE_H
#define SIGNATURE_H

#include <openssl/evp.h>
#include "digest.h"
#include "strbuf.h"

/*
 * Detached Ed25519 signatures over a sidecar's RFC 8785 canonical form.
 *
 * A signature lives beside the sidecar in <sidecar>.sig, a JSON document:
 *
 *	{
 *	  "version": 1,
 *	  "algorithm": "ed25519",
 *	  "key_id": "sha256:<hex of the raw 32-byte public key>",
 *	  "sidecar_hash": "sha256:<hex of the canonical form>",
 *	  "signature": "<base64 of the 64-byte signature>"
 *	}
 *
 * Signing the canonical form rather than the bytes lets a sidecar be
 * re-indented or have its keys reordered without losing its signature;
 * any change of content breaks it.  Keys are PEM files: PKCS#8 for the
 * private key (never readable by group or others), SPKI for the public.
 * Every function here refuses keys that are not Ed25519.
 */

#define SIGNATURE_SUFFIX ".sig"

/* Generate a new Ed25519 key pair in *out (free with EVP_PKEY_free). */
int sig_keygen(EVP_PKEY **out, struct strbuf *err);

/* Append the PKCS#8 (private) or SPKI (public) PEM text of key to out. */
int sig_private_pem(struct strbuf *out, EVP_PKEY *key, struct strbuf *err);
int sig_public_pem(struct strbuf *out, EVP_PKEY *key, struct strbuf *err);

/*
 * Load a private key from path.  Refuses a file whose mode grants group
 * or others any access, an encrypted key, and any key but Ed25519.
 * Returns 0 with the key in *out, or -1 with a reason in err.
 */
int sig_load_private(EVP_PKEY **out, const char *path, struct strbuf *err);
/* Load an SPKI PEM public key (Ed25519 only). */
int sig_load_public(EVP_PKEY **out, const char *path, struct strbuf *err);

/* "sha256:<hex>" of key's raw public key. */
int sig_key_id(char out[DIGEST_HEX_MAX], EVP_PKEY *key, struct strbuf *err);

/*
 * Append the RFC 8785 canonical form of the sidecar at path to out,
 * decoded as sidecar_load() decodes it (SPEC 4.1).  Returns 0 or -1.
 */
int sig_canonical_sidecar(struct strbuf *out, const char *path,
			  struct strbuf *err);

/*
 * Sign the sidecar at sidecar_path and replace <sidecar_path>.sig
 * atomically.  The sidecar itself is only read.
 */
int sig_sign_sidecar(EVP_PKEY *key, const char *sidecar_path,
		     struct strbuf *err);

/* Public keys trusted for verification, by key id. */
struct sig_keyring {
	struct sig_trusted {
		char id[DIGEST_HEX_MAX];
		EVP_PKEY *key;
	} *keys;
	size_t nr, alloc;
	size_t skipped;		/* *.pub files that could not be used */
};
#define SIG_KEYRING_INIT { NULL, 0, 0, 0 }

/*
 * Add every *.pub file in dir.  A file that is not an Ed25519 SPKI PEM
 * key (unreadable, junk, a private key) is named in an error message
 * and counted in kr->skipped; the others are used (the caller decides
 * what a broken store means for its exit status).  Returns -1 with a
 * reason in err only when dir cannot be read.
 */
int sig_keyring_load_dir(struct sig_keyring *kr, const char *dir,
			 struct strbuf *err);
void sig_keyring_release(struct sig_keyring *kr);

enum sig_status {
	SIG_OK,
	SIG_UNSIGNED,		/* no .sig file */
	SIG_CHANGED,		/* the sidecar's content is not what was signed */
	SIG_BAD,		/* the signature does not verify */
	SIG_UNKNOWN_KEY,	/* signed by a key not in the keyring */
	SIG_MALFORMED,		/* the .sig file cannot be read or is invalid */
};

/* A short name for JSON output: "ok", "unsigned", "changed", ... */
const char *sig_status_name(enum sig_status status);

struct sig_result {
	enum sig_status status;
	struct strbuf sig_path;
	struct strbuf key_id;		/* as recorded; empty if unknown */
	struct strbuf expected;		/* the signed sidecar_hash */
	struct strbuf actual;		/* the sidecar's hash now */
	struct strbuf reason;		/* one line, for anything but SIG_OK */
};
void sig_result_init(struct sig_result *res);
void sig_result_release(struct sig_result *res);

/*
 * Check <sidecar_path>.sig against the sidecar and the keyring and fill
 * res (initialised by the caller).  Returns res->status.
 */
enum sig_status sig_check_sidecar(struct sig_result *res,
				  const struct sig_keyring *kr,
				  const char *sidecar_path);

#endif
