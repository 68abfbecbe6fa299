#include "config.h"
#include "jsonout.h"
#include "signature.h"
#include "jsonload.h"
#include "atomicfile.h"
#include "canon.h"
#include "hashfile.h"
#include "readfile.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ED25519_RAW_LEN 32
#define ED25519_SIG_LEN 64
#define SIG_B64_LEN 88		/* 4 * ceil(64 / 3) */
#define SIG_MAX_SIZE ((size_t)64 << 10)

/* Append OpenSSL's first queued error (or fallback) and drain the queue. */
static void add_ossl_error(struct strbuf *err, const char *fallback)
{
	unsigned long e = ERR_get_error();
	char buf[256];

	if (e) {
		ERR_error_string_n(e, buf, sizeof(buf));
		strbuf_addstr(err, buf);
	} else
		strbuf_addstr(err, fallback);
	ERR_clear_error();
}

static int ossl_fail(struct strbuf *err, const char *what)
{
	strbuf_addf(err, "%s: ", what);
	add_ossl_error(err, "unknown OpenSSL error");
	return -1;
}

static int require_ed25519(EVP_PKEY *key, const char *path,
			   struct strbuf *err)
{
	const char *type;

	switch (EVP_PKEY_base_id(key)) {
	case EVP_PKEY_ED25519:
		return 0;
	case EVP_PKEY_RSA:
		type = "an RSA";
		break;
	case EVP_PKEY_EC:
		type = "an EC";
		break;
	default:
		type = "another kind of";
	}
	strbuf_addf(err, "'%s' holds %s key; Ed25519 is required", path, type);
	return -1;
}

int sig_keygen(EVP_PKEY **out, struct strbuf *err)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	int ret = -1;

	*out = NULL;
	if (!ctx || EVP_PKEY_keygen_init(ctx) <= 0 ||
	    EVP_PKEY_keygen(ctx, out) <= 0) {
		ossl_fail(err, "cannot generate an Ed25519 key");
		goto out;
	}
	ret = 0;
out:
	EVP_PKEY_CTX_free(ctx);
	return ret;
}

static int bio_drain(struct strbuf *out, BIO *bio)
{
	char *data;
	long n = BIO_get_mem_data(bio, &data);

	if (n <= 0)
		return -1;
	strbuf_add(out, data, (size_t)n);
	return 0;
}

int sig_private_pem(struct strbuf *out, EVP_PKEY *key, struct strbuf *err)
{
	BIO *bio = BIO_new(BIO_s_mem());
	int ret = -1;

	if (!bio || PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL,
					     NULL) != 1 ||
	    bio_drain(out, bio)) {
		ossl_fail(err, "cannot encode the private key");
		goto out;
	}
	ret = 0;
out:
	/* The memory BIO held the private key: wipe it before freeing. */
	if (bio) {
		char *data;
		long n = BIO_get_mem_data(bio, &data);

		if (n > 0)
			OPENSSL_cleanse(data, (size_t)n);
	}
	BIO_free(bio);
	return ret;
}

int sig_public_pem(struct strbuf *out, EVP_PKEY *key, struct strbuf *err)
{
	BIO *bio = BIO_new(BIO_s_mem());
	int ret = -1;

	if (!bio || PEM_write_bio_PUBKEY(bio, key) != 1 ||
	    bio_drain(out, bio)) {
		ossl_fail(err, "cannot encode the public key");
		goto out;
	}
	ret = 0;
out:
	BIO_free(bio);
	return ret;
}

/* Refuse to prompt: an encrypted key cannot be used unattended. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	return -1;
}

/*
 * Whether the file behind fp (rewound) has a PEM or OpenSSH private key
 * header: a private key saved as a .pub, which deserves a plainer
 * message than OpenSSL's decoder error.
 */
static int holds_private_key(FILE *fp)
{
	char line[128];

	rewind(fp);
	while (fgets(line, sizeof(line), fp))
		if (starts_with(line, "-----BEGIN ") &&
		    strstr(line, "PRIVATE KEY-----"))
			return 1;
	return 0;
}

/*
 * Read one Ed25519 key in PEM form.  A private key must not be readable
 * by group or others: the mode is checked on the open file, so it is the
 * file read.
 */
static int load_key(EVP_PKEY **out, const char *path, int private,
		    struct strbuf *err)
{
	const char *what = private ? "private key" : "public key";
	FILE *fp;
	struct stat st;
	int ret = -1;

	*out = NULL;
	fp = fopen(path, "r");
	if (!fp) {
		strbuf_addf(err, "cannot open %s '%s': %s", what, path,
			    strerror(errno));
		return -1;
	}
	if (private && fstat(fileno(fp), &st)) {
		strbuf_addf(err, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if (private && (st.st_mode & (S_IRWXG | S_IRWXO))) {
		strbuf_addf(err, "private key '%s' is accessible by group or "
			    "others (mode %04o); chmod 600 it", path,
			    (unsigned)(st.st_mode & 07777));
		goto out;
	}
	*out = private ? PEM_read_PrivateKey(fp, NULL, no_passphrase, NULL) :
			 PEM_read_PUBKEY(fp, NULL, no_passphrase, NULL);
	if (!*out && !private && holds_private_key(fp)) {
		ERR_clear_error();
		strbuf_addf(err, "'%s' holds a private key, not a public key "
			    "(keep private keys out of the trusted keys)", path);
		goto out;
	}
	if (!*out) {
		strbuf_addf(err, "cannot read %s '%s': ", what, path);
		add_ossl_error(err, private ? "not a PEM private key" :
					      "not a PEM public key");
		goto out;
	}
	if (require_ed25519(*out, path, err))
		goto out;
	ret = 0;
out:
	if (ret) {
		EVP_PKEY_free(*out);
		*out = NULL;
	}
	fclose(fp);
	return ret;
}

int sig_load_private(EVP_PKEY **out, const char *path, struct strbuf *err)
{
	return load_key(out, path, 1, err);
}

int sig_load_public(EVP_PKEY **out, const char *path, struct strbuf *err)
{
	return load_key(out, path, 0, err);
}

int sig_key_id(char out[DIGEST_HEX_MAX], EVP_PKEY *key, struct strbuf *err)
{
	unsigned char raw[ED25519_RAW_LEN];
	size_t len = sizeof(raw);

	if (EVP_PKEY_get_raw_public_key(key, raw, &len) != 1 ||
	    len != sizeof(raw))
		return ossl_fail(err, "cannot read the raw public key");
	if (digest_buffer_hex(out, raw, len)) {
		strbuf_addstr(err, "cannot compute the key id");
		return -1;
	}
	return 0;
}

int sig_canonical_sidecar(struct strbuf *out, const char *path,
			  struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct canon_out co = { STRBUF_INIT, NULL, NULL };
	struct arena arena = ARENA_INIT;
	struct value *root = NULL;
	int ret = -1, rc;

	if (read_file_limited(&raw, path, HASH_DEFAULT_MAX_SIZE, &why)) {
		strbuf_addf(err, "cannot read '%s': %s", path, why.buf);
		goto out;
	}
	utf8_repair(&text, raw.buf, raw.len);
	/*
	 * Read as JSON.parse reads it, as verify and validate do: a
	 * repeated key keeps its last value, so a sidecar they accept can
	 * be signed, and what is signed is what they check.
	 */
	co.buf = *out;
	rc = json_load_parse(&root, &arena, text.buf, text.len, &why);
	if (!rc)
		rc = canon_write(&co, root, CANON_JCS, &why);
	*out = co.buf;
	if (rc) {
		strbuf_addf(err, "'%s' has no RFC 8785 canonical form: %s",
			    path, why.buf);
		goto out;
	}
	ret = 0;
out:
	arena_release(&arena);
	strbuf_release(&raw);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

static int b64_encode(struct strbuf *out, const unsigned char *data,
		      size_t len)
{
	size_t need = 4 * ((len + 2) / 3);

	strbuf_grow(out, need + 1);
	if ((size_t)EVP_EncodeBlock((unsigned char *)out->buf + out->len,
				    data, (int)len) != need)
		return -1;
	strbuf_setlen(out, out->len + need);
	return 0;
}

/*
 * Decode exactly one 64-byte signature.  EVP_DecodeBlock is lenient
 * (whitespace, padding counted as data), so accept only text that
 * encodes back to itself.
 */
static int b64_decode_sig(unsigned char out[ED25519_SIG_LEN], const char *s)
{
	unsigned char buf[SIG_B64_LEN];
	struct strbuf again = STRBUF_INIT;
	int ok;

	if (strlen(s) != SIG_B64_LEN ||
	    EVP_DecodeBlock(buf, (const unsigned char *)s, SIG_B64_LEN) !=
	    ED25519_SIG_LEN + 2)
		return -1;
	memcpy(out, buf, ED25519_SIG_LEN);
	ok = !b64_encode(&again, out, ED25519_SIG_LEN) &&
		!strcmp(again.buf, s);
	strbuf_release(&again);
	return ok ? 0 : -1;
}

int sig_sign_sidecar(EVP_PKEY *key, const char *sidecar_path,
		     struct strbuf *err)
{
	struct strbuf canon = STRBUF_INIT, b64 = STRBUF_INIT;
	struct strbuf sig_path = STRBUF_INIT, text = STRBUF_INIT;
	struct sidecar sc = SIDECAR_INIT;
	unsigned char sig[ED25519_SIG_LEN];
	size_t sig_len = sizeof(sig);
	char key_id[DIGEST_HEX_MAX], hash[DIGEST_HEX_MAX];
	EVP_MD_CTX *md = NULL;
	json_t *doc = NULL;
	int ret = -1;

	/* Only a sidecar verify would accept is worth vouching for. */
	if (sidecar_load(&sc, sidecar_path, err))
		goto out;
	if (sig_canonical_sidecar(&canon, sidecar_path, err) ||
	    sig_key_id(key_id, key, err))
		goto out;
	md = EVP_MD_CTX_new();
	/* Ed25519 hashes internally: no digest, one-shot signing. */
	if (!md || EVP_DigestSignInit(md, NULL, NULL, NULL, key) != 1 ||
	    EVP_DigestSign(md, sig, &sig_len, (const unsigned char *)canon.buf,
			   canon.len) != 1 || sig_len != sizeof(sig)) {
		ossl_fail(err, "cannot sign");
		goto out;
	}
	if (b64_encode(&b64, sig, sig_len)) {
		strbuf_addstr(err, "cannot encode the signature");
		goto out;
	}
	if (digest_buffer_hex(hash, canon.buf, canon.len)) {
		strbuf_addstr(err, "cannot compute the sidecar's SHA-256");
		goto out;
	}
	doc = json_pack("{s:i, s:s, s:s, s:s, s:s}", "version", 1,
			"algorithm", "ed25519", "key_id", key_id,
			"sidecar_hash", hash, "signature", b64.buf);
	if (!doc)
		die("out of memory");
	jsonout_pretty(&text, doc);
	strbuf_addch(&text, '\n');
	strbuf_addf(&sig_path, "%s%s", sidecar_path, SIGNATURE_SUFFIX);
	if (write_file_atomic(sig_path.buf, text.buf, text.len, 0644, err))
		goto out;
	ret = 0;
out:
	EVP_MD_CTX_free(md);
	json_decref(doc);
	sidecar_release(&sc);
	strbuf_release(&canon);
	strbuf_release(&b64);
	strbuf_release(&sig_path);
	strbuf_release(&text);
	return ret;
}

int sig_keyring_load_dir(struct sig_keyring *kr, const char *dir,
			 struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		strbuf_addf(err, "cannot read trusted keys directory '%s': %s",
			    dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
		struct sig_trusted *t;
		EVP_PKEY *key = NULL;

		if (!ends_with(de->d_name, ".pub"))
			continue;
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		ALLOC_GROW(kr->keys, kr->nr + 1, kr->alloc);
		t = &kr->keys[kr->nr];
		/*
		 * One bad file must not take every other key with it: it
		 * is named and left out, the rest are used.
		 */
		if (sig_load_public(&key, path.buf, &why) ||
		    sig_key_id(t->id, key, &why)) {
			EVP_PKEY_free(key);
			error("trusted keys: left out, %s", why.buf);
			kr->skipped++;
		} else {
			t->key = key;
			kr->nr++;
		}
		strbuf_release(&path);
		strbuf_release(&why);
	}
	closedir(d);
	return 0;
}

void sig_keyring_release(struct sig_keyring *kr)
{
	size_t i;

	for (i = 0; i < kr->nr; i++)
		EVP_PKEY_free(kr->keys[i].key);
	free(kr->keys);
	kr->keys = NULL;
	kr->nr = kr->alloc = kr->skipped = 0;
}

const char *sig_status_name(enum sig_status status)
{
	static const char *const names[] = {
		"ok", "unsigned", "changed", "bad-signature", "unknown-key",
		"malformed",
	};

	return names[status];
}

void sig_result_init(struct sig_result *res)
{
	res->status = SIG_UNSIGNED;
	strbuf_init(&res->sig_path, 0);
	strbuf_init(&res->key_id, 0);
	strbuf_init(&res->expected, 0);
	strbuf_init(&res->actual, 0);
	strbuf_init(&res->reason, 0);
}

void sig_result_release(struct sig_result *res)
{
	strbuf_release(&res->sig_path);
	strbuf_release(&res->key_id);
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
		ossl_fail(err, "cannot set up verification");
		goto out;
	}
	rc = EVP_DigestVerify(md, sig, ED25519_SIG_LEN,
			      (const unsigned char *)msg, len) == 1;
	/* A mismatch queues an error we have no use for. */
	ERR_clear_error();
out:
	EVP_MD_CTX_free(md);
	return rc;
}

static enum sig_status set_status(struct sig_result *res,
				   enum sig_status status)
{
	res->status = status;
	return status;
}

enum sig_status sig_check_sidecar(struct sig_result *res,
				  const struct sig_keyring *kr,
				  const char *sidecar_path)
{
	struct strbuf raw = STRBUF_INIT, canon = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	unsigned char sig[ED25519_SIG_LEN];
	char hash[DIGEST_HEX_MAX];
	const char *algorithm, *key_id, *expected, *b64;
	json_int_t version;
	const EVP_PKEY *key;
	json_error_t jerr;
	json_t *doc = NULL;
	int rc;

	strbuf_addf(&res->sig_path, "%s%s", sidecar_path, SIGNATURE_SUFFIX);
	if (access(res->sig_path.buf, F_OK) && errno == ENOENT) {
		set_status(res, SIG_UNSIGNED);
		goto out;
	}
	set_status(res, SIG_MALFORMED);
	if (read_file_limited(&raw, res->sig_path.buf, SIG_MAX_SIZE, &why)) {
		strbuf_addf(&res->reason, "cannot read %s: %s",
			    res->sig_path.buf, why.buf);
		goto out;
	}
	doc = json_loadb(raw.buf, raw.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		/* jansson's text quotes the file: an escaped excerpt only */
		strbuf_addf(&res->reason, "%s is not valid JSON: ",
			    res->sig_path.buf);
		jsonload_describe_error(&res->reason, &jerr);
		goto out;
	}
	if (json_unpack_ex(doc, &jerr, 0, "{s:I, s:s, s:s, s:s, s:s}",
			   "version", &version, "algorithm", &algorithm,
			   "key_id", &key_id, "sidecar_hash", &expected,
			   "signature", &b64)) {
		strbuf_addf(&res->reason, "%s: %s", res->sig_path.buf,
			    jerr.text);
		goto out;
	}
	if (version != 1) {
		strbuf_addf(&res->reason, "%s: unsupported version %lld",
			    res->sig_path.buf, (long long)version);
		goto out;
	}
	if (strcmp(algorithm, "ed25519")) {
		strbuf_addf(&res->reason, "%s: unsupported algorithm '%s'",
			    res->sig_path.buf, algorithm);
		goto out;
	}
	if (!is_sha256_hash(key_id, HEX_LOWER) ||
	    !is_sha256_hash(expected, HEX_LOWER)) {
		strbuf_addf(&res->reason, "%s: key_id and sidecar_hash must be "
			    "sha256:<64 hex digits>", res->sig_path.buf);
		goto out;
	}
	strbuf_addstr(&res->key_id, key_id);
	strbuf_addstr(&res->expected, expected);
	if (b64_decode_sig(sig, b64)) {
		strbuf_addf(&res->reason, "%s: the signature is not 64 bytes "
			    "of base64", res->sig_path.buf);
		goto out;
	}
	if (sig_canonical_sidecar(&canon, sidecar_path, &why)) {
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
	json_decref(doc);
	strbuf_release(&raw);
	strbuf_release(&canon);
	strbuf_release(&why);
	return res->status;
}
