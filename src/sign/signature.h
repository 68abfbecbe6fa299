#ifndef SIGNATURE_H
#define SIGNATURE_H

#include "allowedsigners.h"
#include "hash/digest.h"
#include "record/layout.h"
#include "record/sidecar.h"
#include "statement.h"
#include "strbuf.h"

/*
 * Detached signatures of a report and its sidecar, in <sidecar>.sig.
 * What is signed is the statement (statement.h) naming both files by
 * root-relative path and hash.  Two kinds of file:
 *
 * - an armoured SSH signature (sshsig.h) in the namespace "ahd-replay",
 *   made by `ssh-keygen -Y sign`, trusted through an allowed-signers
 *   file (allowedsigners.h).  Ours append the statement's text on the
 *   line after the armour, which ssh-keygen ignores and verify reads
 *   only to say what changed when the signature fails;
 *
 * - a JSON document made with a key from `ahd-replay keygen`, trusted
 *   through a directory of *.pub files:
 *
 *	{
 *	  "version": 2,
 *	  "algorithm": "ed25519",
 *	  "key_id": "sha256:<hex of the raw 32-byte public key>",
 *	  "statement": { the statement },
 *	  "signature": "<base64 of the 64-byte signature of its RFC 8785 text>"
 *	}
 *
 *   Version 1 signed the sidecar's RFC 8785 form alone ("sidecar_hash"
 *   instead of "statement"); it still verifies, reported as covering
 *   the sidecar only, which does not satisfy --require-signature.
 *
 * Keys are PEM files: PKCS#8 for the private key (never readable by
 * group or others), SPKI for the public.  Every function here refuses
 * keys that are not Ed25519.
 */

/* <sidecar>.sig; record/sidecar.h names it, for the sidecar search */
#define SIGNATURE_SUFFIX SIDECAR_SIGNATURE_SUFFIX

/*
 * keygen: make a new Ed25519 key pair and write the private key to path
 * (PKCS#8 PEM, mode 0600) and the public key to <path>.pub (SPKI PEM),
 * both or neither, replacing existing files only with force (the
 * private key's text is wiped from memory after).  Returns 0 with the
 * key id ("sha256:<hex>" of the raw public key) in key_id, or -1 with a
 * reason in err.
 */
int sig_keygen_files(char key_id[DIGEST_HEX_MAX], const char *path,
		     int force, struct strbuf *err);

/* A private key to sign with; only signature.c sees inside. */
struct sig_private_key;

/*
 * Load a private key from path.  Refuses a file whose mode grants group
 * or others any access, an encrypted key, and any key but Ed25519.
 * Returns 0 with the key in *out (free with sig_private_key_free()), or
 * -1 with a reason in err.
 */
int sig_load_private(struct sig_private_key **out, const char *path,
		     struct strbuf *err);
void sig_private_key_free(struct sig_private_key *key);

/*
 * Append the RFC 8785 canonical form of the sidecar at path to out,
 * decoded as sidecar_load() decodes it (SPEC 4.1).  Returns 0 or -1.
 */
int sig_canonical_sidecar(struct strbuf *out, const char *path,
			  struct strbuf *err);

/*
 * The statement for operand (a report or a sidecar), with the root
 * found as verify finds it (given_root when not NULL).  sidecar
 * receives the sidecar's path.  Needs repo_library_init().
 */
int sig_statement(struct statement *out, struct strbuf *sidecar,
		  const char *operand, const char *given_root,
		  struct strbuf *err);

/*
 * The record statement (statement.h) for record, a record of the
 * layout lay, with the root found as verify finds it (given_root when
 * not NULL).  sidecar receives the path of the JSON file the .sig goes
 * beside: the record's sidecar when its layout gives it one, else the
 * record itself.  Only a record verify can read is vouched for.
 * Needs repo_library_init().
 */
int sig_record_statement(struct statement *out, struct strbuf *sidecar,
			 const struct layout *lay, const char *record,
			 const char *given_root, struct strbuf *err);

/*
 * Sign the statement st about the sidecar at sidecar_path and replace
 * <sidecar_path>.sig atomically (version 2) beneath root (fs/write.h:
 * a .sig that is a symlink out of root is refused, not written
 * through).  The sidecar is only read.
 */
int sig_sign_sidecar(const struct sig_private_key *key,
		     const struct statement *st, const char *root,
		     const char *sidecar_path, struct strbuf *err);

/*
 * Public keys trusted for verification: our Ed25519 keys by key id, and
 * the allowed signers of SSH signatures (when have_ssh).
 */
struct sig_keyring {
	struct sig_trusted {
		char id[DIGEST_HEX_MAX];
		struct evp_pkey_st *key;	/* EVP_PKEY (sshkey.h) */
	} *keys;
	size_t nr, alloc;
	size_t skipped;		/* *.pub files that could not be used */
	struct allowed_signers ssh;
	int have_ssh;
};
#define SIG_KEYRING_INIT { NULL, 0, 0, 0, ALLOWED_SIGNERS_INIT, 0 }

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

/*
 * Add the Ed25519 SPKI PEM key in pem[0..len), named name in messages
 * (a key read from a commit, say).  Returns 0, or -1 with a reason in
 * err that quotes nothing of pem.
 */
int sig_keyring_add_pem(struct sig_keyring *kr, const char *name,
			const char *pem, size_t len, struct strbuf *err);

enum sig_status {
	SIG_OK,
	SIG_UNSIGNED,		/* no .sig file */
	SIG_CHANGED,		/* the sidecar's content is not what was signed */
	SIG_BAD,		/* the signature does not verify */
	SIG_UNKNOWN_KEY,	/* signed by a key not in the keyring */
	SIG_MALFORMED,		/* the .sig file cannot be read or is invalid */
	SIG_MISPLACED,		/* made for another report or sidecar */
	SIG_NOT_ALLOWED,	/* a listed key, but revoked, expired, not
				   yet valid or not for this namespace */
	SIG_NO_TRUST,		/* a trust source it depends on did not load */
};

/* A short name for JSON output: "ok", "unsigned", "changed", ... */
const char *sig_status_name(enum sig_status status);

struct sig_result {
	enum sig_status status;
	const char *kind;		/* "ssh", "ed25519", NULL: not read */
	int sidecar_only;		/* a version 1 signature */
	struct strbuf sig_path;
	struct strbuf key_id;		/* as recorded, or the SSH key's
					   fingerprint; empty if unknown */
	struct strbuf principal;	/* SSH: who signed, as allowed */
	struct strbuf expected;		/* the signed sidecar_hash */
	struct strbuf actual;		/* the sidecar's hash now */
	struct strbuf reason;		/* one line, for anything but SIG_OK */
};
void sig_result_init(struct sig_result *res);
void sig_result_release(struct sig_result *res);

/*
 * What a signature is checked against.  For a record of a layout, layout
 * names it and the statement is a record statement (statement.h): the
 * record is report when the layout gives it a sidecar, else sidecar (the
 * JSON file, beside which the .sig is in both cases).
 */
struct sig_subject {
	const char *sidecar;
	const char *report;
	const char *root;	/* absolute, symlink-free */
	const char *invoked_at;	/* the sidecar's: when an SSH key must be
				   valid (valid-after, valid-before); NULL
				   (a layout's record says no time): now */
	const struct layout *layout;	/* NULL: AHD's sidecar */
	int sig_absent;	/* the sidecar's directory was listed without a
			   <sidecar>.sig: unsigned, without asking again */
};

/*
 * Check <sidecar>.sig against the subject and the keyring and fill res
 * (initialised by the caller).  Returns res->status.
 */
enum sig_status sig_check_sidecar(struct sig_result *res,
				  const struct sig_keyring *kr,
				  const struct sig_subject *subj);

#endif
