/*
 * Checking <sidecar>.sig (see signature.h): which kind of file it is,
 * whether it verifies, whose key made it, and what it covers.
 */
#include "config.h"
#include "signature.h"
#include "allowedsigners.h"
#include "datetime.h"
#include "json/jsonload.h"
#include "json/jsonout.h"
#include "fs/readfile.h"
#include "sshsig.h"
#include "sshwire.h"
#include "strutil.h"
#include "usage.h"
#include "json/jval.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ED25519_SIG_LEN 64
#define SIG_MAX_SIZE ((size_t)64 << 10)
#define SSH_NAMESPACE "ahd-replay"

const char *sig_status_name(enum sig_status status)
{
	static const char *const names[] = {
		"ok", "unsigned", "changed", "bad-signature", "unknown-key",
		"malformed", "misplaced", "not-allowed", "trust-unavailable",
	};

	return names[status];
}

void sig_result_init(struct sig_result *res)
{
	res->status = SIG_UNSIGNED;
	res->kind = NULL;
	res->sidecar_only = 0;
	strbuf_init(&res->sig_path, 0);
	strbuf_init(&res->key_id, 0);
	strbuf_init(&res->principal, 0);
	strbuf_init(&res->expected, 0);
	strbuf_init(&res->actual, 0);
	strbuf_init(&res->reason, 0);
}

void sig_result_release(struct sig_result *res)
{
	strbuf_release(&res->sig_path);
	strbuf_release(&res->key_id);
	strbuf_release(&res->principal);
	strbuf_release(&res->expected);
	strbuf_release(&res->actual);
	strbuf_release(&res->reason);
}

static const EVP_PKEY *keyring_find(const struct sig_keyring *kr,
				    const char *id)
{
	size_t i;

	for (i = 0; i < kr->nr; i++)
		if (!strcmp(kr->keys[i].id, id))
			return kr->keys[i].key;
	return NULL;
}

/* 1 when sig verifies over msg with key, 0 when it does not, -1 error. */
static int ed25519_verify(const EVP_PKEY *key, const unsigned char *sig,
			  const char *msg, size_t len, struct strbuf *err)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int rc = -1;

	if (!md || EVP_DigestVerifyInit(md, NULL, NULL, NULL,
					(EVP_PKEY *)key) != 1) {
		strbuf_addstr(err, "cannot set up verification");
		goto out;
	}
	rc = EVP_DigestVerify(md, sig, ED25519_SIG_LEN,
			      (const unsigned char *)msg, len) == 1;
out:
	/* A mismatch queues an error we have no use for. */
	ERR_clear_error();
	EVP_MD_CTX_free(md);
	return rc;
}

/* Exactly one 64-byte signature in canonical base64. */
static int decode_sig(unsigned char out[ED25519_SIG_LEN], const char *s)
{
	struct strbuf raw = STRBUF_INIT;
	int ok = !base64_decode(&raw, s, strlen(s), 0) &&
		raw.len == ED25519_SIG_LEN;

	if (ok)
		memcpy(out, raw.buf, ED25519_SIG_LEN);
	strbuf_release(&raw);
	return ok ? 0 : -1;
}

static enum sig_status set_status(struct sig_result *res,
				   enum sig_status status)
{
	res->status = status;
	return status;
}

/* Version 1: the sidecar's canonical form alone, its hash recorded. */
static void check_v1(struct sig_result *res, const struct sig_keyring *kr,
		     const char *key_id, const unsigned char *sig,
		     struct jval *doc, const char *sidecar)
{
	struct strbuf canon = STRBUF_INIT, why = STRBUF_INIT;
	char hash[DIGEST_HEX_MAX];
	const char *expected;
	struct jval *member;
	const EVP_PKEY *key;
	int rc;

	res->sidecar_only = 1;
	if (jval_member(&member, doc, "sidecar_hash", JVAL_STRING, &why) ||
	    !is_sha256_hash(expected = jval_string_value(member),
			    HEX_LOWER)) {
		strbuf_addf(&res->reason, "%s: sidecar_hash must be "
			    "sha256:<64 hex digits>", res->sig_path.buf);
		goto out;
	}
	strbuf_addstr(&res->expected, expected);
	if (sig_canonical_sidecar(&canon, sidecar, &why)) {
		strbuf_addbuf(&res->reason, &why);
		goto out;
	}
	if (digest_buffer_hex(hash, canon.buf, canon.len)) {
		strbuf_addstr(&res->reason, "cannot compute the sidecar's "
			      "SHA-256");
		goto out;
	}
	strbuf_addstr(&res->actual, hash);
	key = keyring_find(kr, key_id);
	if (!key) {
		set_status(res, SIG_UNKNOWN_KEY);
		strbuf_addf(&res->reason, "unknown key %s", key_id);
		goto out;
	}
	rc = ed25519_verify(key, sig, canon.buf, canon.len, &res->reason);
	if (rc < 0)
		goto out;
	if (strcmp(hash, expected)) {
		/*
		 * A signature that still verifies means the .sig's own record
		 * of the hash was edited, not the sidecar.
		 */
		set_status(res, rc ? SIG_BAD : SIG_CHANGED);
		strbuf_addstr(&res->reason, rc ? "the signature file's "
			      "sidecar_hash was altered" :
			      "sidecar changed after signing");
	} else if (!rc) {
		set_status(res, SIG_BAD);
		strbuf_addstr(&res->reason, "signature does not verify");
	} else
		set_status(res, SIG_OK);
out:
	strbuf_release(&canon);
	strbuf_release(&why);
}

/*
 * The signature verified over signed_; is that what holds now?  Sets
 * the status and reason from the difference.
 */
static void compare_statements(struct sig_result *res,
			       const struct statement *signed_,
			       const struct statement *now)
{
	statement_explain(&res->reason, signed_, now);
	if (!res->reason.len)
		set_status(res, SIG_OK);
	else if (strstr(res->reason.buf, "changed after signing"))
		set_status(res, SIG_CHANGED);
	else
		set_status(res, SIG_MISPLACED);
}

/* Version 2: the statement, recorded in the file and signed. */
static void check_v2(struct sig_result *res, const struct sig_keyring *kr,
		     const char *key_id, const unsigned char *sig,
		     struct jval *doc, const struct statement *now)
{
	struct statement recorded;
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct jval *st = jval_object_get(doc, "statement");
	const EVP_PKEY *key;
	int rc;

	statement_init(&recorded);
	if (!jval_is_object(st)) {
		strbuf_addf(&res->reason, "%s: no statement", res->sig_path.buf);
		goto out;
	}
	jsonout_write(&text, st, JSONOUT_COMPACT, 0);
	if (statement_parse(&recorded, text.buf, text.len, &why)) {
		strbuf_addf(&res->reason, "%s: %s", res->sig_path.buf, why.buf);
		goto out;
	}
	key = keyring_find(kr, key_id);
	if (!key) {
		set_status(res, SIG_UNKNOWN_KEY);
		strbuf_addf(&res->reason, "unknown key %s", key_id);
		goto out;
	}
	rc = ed25519_verify(key, sig, recorded.text.buf, recorded.text.len,
			    &res->reason);
	if (rc < 0)
		goto out;
	if (!rc) {
		set_status(res, SIG_BAD);
		strbuf_addstr(&res->reason, "signature does not verify");
		goto out;
	}
	compare_statements(res, &recorded, now);
out:
	statement_release(&recorded);
	strbuf_release(&text);
	strbuf_release(&why);
}

/*
 * The members of a JSON .sig: version an integer, the others strings;
 * -1 with "<sig>: <why>" in res->reason at the first that is missing or
 * of another type.
 */
static int sig_members(struct sig_result *res, const struct jval *doc,
		       int64_t *version, const char **algorithm,
		       const char **key_id, const char **b64)
{
	static const char *const keys[] = { "algorithm", "key_id",
					     "signature" };
	const char **outs[] = { algorithm, key_id, b64 };
	struct strbuf why = STRBUF_INIT;
	struct jval *v;
	size_t i;
	int ret = -1;

	if (jval_member(&v, doc, "version", JVAL_INTEGER, &why))
		goto out;
	*version = jval_integer_value(v);
	for (i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		if (jval_member(&v, doc, keys[i], JVAL_STRING, &why))
			goto out;
		*outs[i] = jval_string_value(v);
	}
	ret = 0;
out:
	if (ret)
		strbuf_addf(&res->reason, "%s: %s", res->sig_path.buf,
			    why.buf);
	strbuf_release(&why);
	return ret;
}

static void check_json(struct sig_result *res, const struct sig_keyring *kr,
		       const struct strbuf *raw, const struct sig_subject *subj,
		       const struct statement *now)
{
	unsigned char sig[ED25519_SIG_LEN];
	const char *algorithm, *key_id, *b64;
	int64_t version;
	struct jval_error jerr;
	struct jval *doc;

	res->kind = "ed25519";
	doc = jval_loadb(raw->buf, raw->len, JVAL_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		/* jansson's text can quote the file: describe it ourselves. */
		strbuf_addf(&res->reason, "%s is not valid JSON (nor an SSH "
			    "signature): ", res->sig_path.buf);
		jsonload_describe_error(&res->reason, &jerr);
		return;
	}
	if (sig_members(res, doc, &version, &algorithm, &key_id, &b64)) {
		;
	} else if (version != 1 && version != 2) {
		strbuf_addf(&res->reason, "%s: unsupported version %lld",
			    res->sig_path.buf, (long long)version);
	} else if (strcmp(algorithm, "ed25519")) {
		strbuf_addf(&res->reason, "%s: unsupported algorithm '",
			    res->sig_path.buf);
		sshwire_add_quoted(&res->reason, algorithm, strlen(algorithm));
		strbuf_addch(&res->reason, '\'');
	} else if (!is_sha256_hash(key_id, HEX_LOWER)) {
		strbuf_addf(&res->reason, "%s: key_id must be "
			    "sha256:<64 hex digits>", res->sig_path.buf);
	} else if (decode_sig(sig, b64)) {
		strbuf_addf(&res->reason, "%s: the signature is not 64 bytes "
			    "of base64", res->sig_path.buf);
	} else if (version == 1 && subj->layout) {
		/* version 1 predates layouts: it never signed a record */
		strbuf_addf(&res->reason, "%s: a version 1 signature cannot "
			    "sign a record of a layout", res->sig_path.buf);
	} else {
		strbuf_addstr(&res->key_id, key_id);
		if (version == 1)
			check_v1(res, kr, key_id, sig, doc, subj->sidecar);
		else if (now)
			check_v2(res, kr, key_id, sig, doc, now);
	}
	jval_decref(doc);
}

/* The SSHSIG's key and the allowed signers at the sidecar's time. */
static void check_signer(struct sig_result *res, const struct sig_keyring *kr,
			 const struct sshsig *sig, const char *invoked_at)
{
	const char *principals = NULL;
	int64_t when = (int64_t)time(NULL);

	if (!kr->have_ssh) {
		set_status(res, SIG_UNKNOWN_KEY);
		strbuf_addf(&res->reason, "key %s: no allowed signers file "
			    "(--allowed-signers, ahd-replay.allowedSignersFile "
			    "or gpg.ssh.allowedSignersFile)", res->key_id.buf);
		return;
	}
	if (invoked_at && datetime_parse(invoked_at, strlen(invoked_at),
					 DATETIME_RFC3339, &when, NULL)) {
		strbuf_addstr(&res->reason, "the sidecar's invoked_at is not a "
			      "date-time, so the key's validity cannot be "
			      "checked");
		return;
	}
	switch (allowed_signers_check(&kr->ssh, &sig->key, SSH_NAMESPACE, when,
				      &principals, &res->reason)) {
	case SIGNER_OK:
		/* As written: the printers quote what files hold. */
		strbuf_addstr(&res->principal, principals);
		set_status(res, SIG_OK);
		break;
	case SIGNER_UNKNOWN:
		set_status(res, SIG_UNKNOWN_KEY);
		break;
	case SIGNER_NO_TRUST:
		set_status(res, SIG_NO_TRUST);
		break;
	default:
		set_status(res, SIG_NOT_ALLOWED);
	}
}

static void check_ssh(struct sig_result *res, const struct sig_keyring *kr,
		      const struct strbuf *raw, const struct sig_subject *subj,
		      const struct statement *now)
{
	struct sshsig sig = SSHSIG_INIT;
	struct statement recorded;
	struct strbuf why = STRBUF_INIT;
	const struct sshkey *key;
	size_t end = 0;
	int rc;

	res->kind = "ssh";
	statement_init(&recorded);
	if (sshsig_parse_armoured(&sig, raw->buf, raw->len, &end, &why)) {
		strbuf_addf(&res->reason, "%s: %s", res->sig_path.buf, why.buf);
		goto out;
	}
	sshkey_fingerprint(&res->key_id, &sig.key);
	if (strcmp(sig.ns.buf, SSH_NAMESPACE)) {
		set_status(res, SIG_BAD);
		strbuf_addstr(&res->reason, "signed in the namespace '");
		sshwire_add_quoted(&res->reason, sig.ns.buf, sig.ns.len);
		strbuf_addstr(&res->reason, "', not '" SSH_NAMESPACE "'");
		goto out;
	}
	if (!now)
		goto out;
	/*
	 * The key is looked up as bytes before anything is built from it:
	 * a key nobody allows (or a revoked one) is reported as such and
	 * costs no key construction and no signature check.  A listed key
	 * is checked with the allowed signers' copy.
	 */
	key = kr->have_ssh ? allowed_signers_find(&kr->ssh, &sig.key) : NULL;
	if (!key) {
		check_signer(res, kr, &sig, subj->invoked_at);
		/* Never "ok" for a signature that was not checked. */
		if (res->status == SIG_OK)
			set_status(res, SIG_NOT_ALLOWED);
		goto out;
	}
	rc = sshsig_verify(&sig, key, now->text.buf, now->text.len, &why);
	if (rc < 0) {
		strbuf_addf(&res->reason, "%s: %s", res->sig_path.buf, why.buf);
		goto out;
	}
	if (!rc) {
		/*
		 * The statement after the armour, if any, says what the
		 * signature was made over; it counts only if the signature
		 * verifies over it.
		 */
		if (end < raw->len &&
		    !statement_parse(&recorded, raw->buf + end, raw->len - end,
				     &why) &&
		    sshsig_verify(&sig, key, recorded.text.buf,
				  recorded.text.len, &why) == 1) {
			compare_statements(res, &recorded, now);
		} else {
			set_status(res, SIG_BAD);
			strbuf_addstr(&res->reason, "signature does not verify "
				      "over this report and sidecar");
		}
		goto out;
	}
	check_signer(res, kr, &sig, subj->invoked_at);
out:
	sshsig_release(&sig);
	statement_release(&recorded);
	strbuf_release(&why);
}

enum sig_status sig_check_sidecar(struct sig_result *res,
				  const struct sig_keyring *kr,
				  const struct sig_subject *subj)
{
	struct strbuf raw = STRBUF_INIT, why = STRBUF_INIT;
	struct statement now;
	int have_now;

	statement_init(&now);
	strbuf_addf(&res->sig_path, "%s%s", subj->sidecar, SIGNATURE_SUFFIX);
	if (subj->sig_absent ||
	    (access(res->sig_path.buf, F_OK) && errno == ENOENT)) {
		set_status(res, SIG_UNSIGNED);
		goto out;
	}
	set_status(res, SIG_MALFORMED);
	if (read_file_limited(&raw, res->sig_path.buf, SIG_MAX_SIZE, &why)) {
		strbuf_addf(&res->reason, "cannot read %s: %s",
			    res->sig_path.buf, why.buf);
		goto out;
	}
	strbuf_reset(&why);
	if (subj->layout)
		have_now = !statement_for_record(&now, subj->root, subj->layout,
						 subj->report ? subj->report :
						 subj->sidecar, subj->report ?
						 subj->sidecar : NULL, &why);
	else
		have_now = !statement_for(&now, subj->root, subj->report,
					  subj->sidecar, &why);
	if (sshsig_is_armoured(raw.buf, raw.len))
		check_ssh(res, kr, &raw, subj, have_now ? &now : NULL);
	else
		check_json(res, kr, &raw, subj, have_now ? &now : NULL);
	/* Only signatures over a statement need one. */
	if (!have_now && !res->sidecar_only && !res->reason.len)
		strbuf_addf(&res->reason, "cannot state what the signature "
			    "must cover: %s", why.buf);
out:
	statement_release(&now);
	strbuf_release(&raw);
	strbuf_release(&why);
	return res->status;
}
