#include "config.h"
#include "json/jsonout.h"
#include "signature.h"
#include "json/jsonload.h"
#include "fs/write.h"
#include "json/canon.h"
#include "hash/hashfile.h"
#include "fs/readfile.h"
#include "root/root.h"
#include "record/sidecar.h"
#include "fs/path.h"
#include "sshwire.h"
#include "statement.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"
#include "json/jval.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ED25519_RAW_LEN 32
#define ED25519_SIG_LEN 64

/* Kept whole behind the header's name: nobody else sees OpenSSL. */
struct sig_private_key {
	EVP_PKEY *pkey;
};

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

/* A new Ed25519 key pair in *out (free with EVP_PKEY_free). */
static int generate_key(EVP_PKEY **out, struct strbuf *err)
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

/* Append the PKCS#8 (private) or SPKI (public) PEM text of key to out. */
static int private_pem(struct strbuf *out, EVP_PKEY *key,
		       struct strbuf *err)
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

static int public_pem(struct strbuf *out, EVP_PKEY *key, struct strbuf *err)
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

int sig_load_private(struct sig_private_key **out, const char *path,
		     struct strbuf *err)
{
	EVP_PKEY *pkey = NULL;

	*out = NULL;
	if (load_key(&pkey, path, 1, err))
		return -1;
	*out = xmalloc(sizeof(**out));
	(*out)->pkey = pkey;
	return 0;
}

void sig_private_key_free(struct sig_private_key *key)
{
	if (!key)
		return;
	EVP_PKEY_free(key->pkey);
	free(key);
}

/* "sha256:<hex>" of key's raw public key. */
static int raw_key_id(char out[DIGEST_HEX_MAX], EVP_PKEY *key,
		      struct strbuf *err)
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

int sig_keygen_files(char key_id[DIGEST_HEX_MAX], const char *path,
		     int force, struct strbuf *err)
{
	struct strbuf priv = STRBUF_INIT, pub = STRBUF_INIT;
	struct strbuf pub_path = STRBUF_INIT;
	struct atomic_content files[2];
	EVP_PKEY *key = NULL;
	int ret = -1;

	strbuf_addf(&pub_path, "%s.pub", path);
	if (generate_key(&key, err) || private_pem(&priv, key, err) ||
	    public_pem(&pub, key, err) || raw_key_id(key_id, key, err))
		goto out;
	/* both or neither: a key without its .pub would block a rerun */
	files[0].path = path;
	files[0].buf = priv.buf;
	files[0].len = priv.len;
	files[0].mode = 0600;
	files[1].path = pub_path.buf;
	files[1].buf = pub.buf;
	files[1].len = pub.len;
	files[1].mode = 0644;
	if (write_files_together(files, 2, force, err))
		goto out;
	ret = 0;
out:
	OPENSSL_cleanse(priv.buf, priv.len);
	EVP_PKEY_free(key);
	strbuf_release(&priv);
	strbuf_release(&pub);
	strbuf_release(&pub_path);
	return ret;
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
	rc = jsonload_parse(&root, &arena, text.buf, text.len, &why);
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

int sig_statement(struct statement *out, struct strbuf *sidecar,
		  const char *operand, const char *given_root,
		  struct strbuf *err)
{
	struct strbuf report = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT;
	struct sidecar sc = SIDECAR_INIT;
	const char *slash;
	int ret = -1;

	sidecar_path_for(sidecar, operand);
	/* Only a sidecar verify would accept is worth vouching for. */
	if (sidecar_load(&sc, sidecar->buf, err))
		goto out;
	if (ends_with(operand, ".replay.json"))
		sidecar_report_for(&report, operand);
	else
		strbuf_addstr(&report, operand);
	slash = strrchr(report.buf, '/');
	if (slash)
		strbuf_add(&dir, report.buf, (size_t)(slash - report.buf) +
			   (slash == report.buf));
	else
		strbuf_addstr(&dir, ".");
	if (root_find(&root, dir.buf, given_root, err) < 0)
		goto out;
	if (statement_for(out, root.buf, report.buf, sidecar->buf, err))
		goto out;
	ret = 0;
out:
	sidecar_release(&sc);
	strbuf_release(&report);
	strbuf_release(&dir);
	strbuf_release(&root);
	return ret;
}

int sig_record_statement(struct statement *out, struct strbuf *sidecar,
			 const struct layout *lay, const char *record,
			 const char *given_root, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, root = STRBUF_INIT;
	struct record rec = RECORD_INIT;
	int ret = -1;

	if (lay->sidecar)
		layout_sidecar_for(sidecar, lay, record);
	else
		strbuf_addstr(sidecar, record);
	if (record_from_layout(&rec, lay, sidecar->buf, err))
		goto out;
	path_dirname(&dir, record);
	if (root_find(&root, dir.buf, given_root, err) < 0 ||
	    statement_for_record(out, root.buf, lay, record,
				 lay->sidecar ? sidecar->buf : NULL, err))
		goto out;
	ret = 0;
out:
	record_release(&rec);
	strbuf_release(&dir);
	strbuf_release(&root);
	return ret;
}

int sig_sign_sidecar(const struct sig_private_key *key,
		     const struct statement *st, const char *root,
		     const char *sidecar_path, struct strbuf *err)
{
	struct strbuf b64 = STRBUF_INIT;
	struct strbuf sig_path = STRBUF_INIT, text = STRBUF_INIT;
	unsigned char sig[ED25519_SIG_LEN];
	size_t sig_len = sizeof(sig);
	char id[DIGEST_HEX_MAX];
	EVP_MD_CTX *md = NULL;
	struct jval *doc = NULL, *statement = NULL;
	struct jval_error jerr;
	int ret = -1;

	if (raw_key_id(id, key->pkey, err))
		goto out;
	md = EVP_MD_CTX_new();
	/* Ed25519 hashes internally: no digest, one-shot signing. */
	if (!md || EVP_DigestSignInit(md, NULL, NULL, NULL, key->pkey) != 1 ||
	    EVP_DigestSign(md, sig, &sig_len, (const unsigned char *)st->text.buf,
			   st->text.len) != 1 || sig_len != sizeof(sig)) {
		ossl_fail(err, "cannot sign");
		goto out;
	}
	base64_encode(&b64, sig, sig_len, 0);
	statement = jval_loadb(st->text.buf, st->text.len, 0, &jerr);
	if (!statement)
		BUG("a statement we made is not JSON: %s", jerr.text);
	doc = jval_object();
	if (!doc ||
	    jval_object_set_new(doc, "version", jval_integer(2)) ||
	    jval_object_set_new(doc, "algorithm", jval_string("ed25519")) ||
	    jval_object_set_new(doc, "key_id", jval_string(id)) ||
	    jval_object_set(doc, "statement", statement) ||
	    jval_object_set_new(doc, "signature", jval_string(b64.buf)))
		die("out of memory");
	jsonout_pretty(&text, doc);
	strbuf_addch(&text, '\n');
	strbuf_addf(&sig_path, "%s%s", sidecar_path, SIGNATURE_SUFFIX);
	if (write_file_beneath(root, sig_path.buf, text.buf, text.len, 0644,
			       err))
		goto out;
	ret = 0;
out:
	EVP_MD_CTX_free(md);
	jval_decref(doc);
	jval_decref(statement);
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
		if (load_key(&key, path.buf, 0, &why) ||
		    raw_key_id(t->id, key, &why)) {
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
	allowed_signers_release(&kr->ssh);
	kr->have_ssh = 0;
}

int sig_keyring_add_pem(struct sig_keyring *kr, const char *name,
			const char *pem, size_t len, struct strbuf *err)
{
	BIO *bio = BIO_new_mem_buf(pem, (int)len);
	EVP_PKEY *key = NULL;
	struct sig_trusted *t;

	if (!bio || len > INT_MAX) {
		BIO_free(bio);
		strbuf_addf(err, "cannot read public key '%s'", name);
		return -1;
	}
	key = PEM_read_bio_PUBKEY(bio, NULL, no_passphrase, NULL);
	BIO_free(bio);
	if (!key) {
		/* Never quote OpenSSL's reading of what the file held. */
		ERR_clear_error();
		strbuf_addf(err, "cannot read public key '%s': not a PEM "
			    "public key", name);
		return -1;
	}
	if (require_ed25519(key, name, err)) {
		EVP_PKEY_free(key);
		return -1;
	}
	ALLOC_GROW(kr->keys, kr->nr + 1, kr->alloc);
	t = &kr->keys[kr->nr];
	t->key = key;
	if (raw_key_id(t->id, key, err)) {
		EVP_PKEY_free(key);
		return -1;
	}
	kr->nr++;
	return 0;
}
