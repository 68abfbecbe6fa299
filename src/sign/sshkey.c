#include "config.h"
#include "sshkey.h"
#include "sshwire.h"
#include "strutil.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/sha.h>
#include <string.h>

#define ED25519_KEY_LEN 32
#define ED25519_SIG_LEN 64
#define RSA_MAX_BYTES 2048	/* 16384 bits, as OpenSSH's limit */

static const struct key_kind {
	const char *name;
	enum sshkey_type type;
	const char *curve;	/* the key's second string, for ECDSA */
	const char *group;	/* OpenSSL's group name */
	size_t point_len;	/* uncompressed point */
} kinds[] = {
	{ "ssh-ed25519", SSHKEY_ED25519, NULL, NULL, 0 },
	{ "ecdsa-sha2-nistp256", SSHKEY_ECDSA_P256, "nistp256", "P-256", 65 },
	{ "ecdsa-sha2-nistp384", SSHKEY_ECDSA_P384, "nistp384", "P-384", 97 },
	{ "ecdsa-sha2-nistp521", SSHKEY_ECDSA_P521, "nistp521", "P-521", 133 },
	{ "ssh-rsa", SSHKEY_RSA, NULL, NULL, 0 },
};

/* Types we can name but refuse, with why. */
static const struct refused {
	const char *prefix;
	const char *why;
} refused[] = {
	{ "sk-", "security-key (FIDO) keys are not supported for "
	  "verification" },
	{ "ssh-dss", "DSA keys are not supported" },
};

static const struct key_kind *kind_of(enum sshkey_type type)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].type == type)
			return &kinds[i];
	return NULL;
}

const char *sshkey_type_name(const struct sshkey *key)
{
	return kind_of(key->type)->name;
}

int sshkey_is_type_word(const char *s)
{
	size_t n = strcspn(s, " \t"), i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == n && !strncmp(s, kinds[i].name, n))
			return 1;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strncmp(s, refused[i].prefix, strlen(refused[i].prefix)))
			return 1;
	/* Certificates: "<type>-cert-v01@openssh.com". */
	return n > 20 && !strncmp(s + n - 20, "-cert-v01@openssh.com", 20);
}

/* Drain OpenSSL's queue, which a failed check leaves filled. */
static int ossl_refuse(struct strbuf *err, const char *what)
{
	ERR_clear_error();
	strbuf_addstr(err, what);
	return -1;
}

/*
 * The make_* functions read a key's parts from r and check them; they
 * build an EVP_PKEY into *pkey only when pkey is not NULL, so that a key
 * read from an untrusted signature can be compared as bytes first.
 */
static int make_ed25519(EVP_PKEY **pkey, struct sshwire *r,
			struct strbuf *err)
{
	const unsigned char *pk;
	size_t n;

	if (sshwire_string(r, &pk, &n) || n != ED25519_KEY_LEN) {
		strbuf_addstr(err, "an ssh-ed25519 key must hold 32 bytes");
		return -1;
	}
	if (!pkey)
		return 0;
	*pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, n);
	if (!*pkey)
		return ossl_refuse(err, "not a valid Ed25519 public key");
	return 0;
}

/*
 * Build an EVP_PKEY of keytype from params.  No EVP_PKEY_public_check():
 * the key comes from a file a pull request can write, and for a large
 * RSA modulus that check costs a second or more of CPU, as OpenSSH does
 * not spend it.  An EC point is still checked to lie on its curve (the
 * import does that, cheaply); a bogus RSA modulus only makes signatures
 * that do not verify.
 */
static int from_params(EVP_PKEY **out, const char *keytype,
		       OSSL_PARAM_BLD *bld, struct strbuf *err)
{
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, keytype, NULL);
	int ret = -1;

	*out = NULL;
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY, params) != 1)
		goto out;
	ret = 0;
out:
	if (ret) {
		EVP_PKEY_free(*out);
		*out = NULL;
		ossl_refuse(err, "not a valid public key");
	}
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	return ret;
}

static int make_ecdsa(EVP_PKEY **pkey, const struct key_kind *k,
		      struct sshwire *r, struct strbuf *err)
{
	const unsigned char *q;
	size_t n;
	OSSL_PARAM_BLD *bld;
	int rc, ret;

	rc = sshwire_string_is(r, k->curve);
	if (rc <= 0 || sshwire_string(r, &q, &n) || n != k->point_len ||
	    q[0] != 4) {
		strbuf_addf(err, "malformed %s key", k->name);
		return -1;
	}
	if (!pkey)
		return 0;
	bld = OSSL_PARAM_BLD_new();
	if (!bld ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
					     k->group, 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
					      q, n)) {
		OSSL_PARAM_BLD_free(bld);
		return ossl_refuse(err, "out of memory");
	}
	ret = from_params(pkey, "EC", bld, err);
	OSSL_PARAM_BLD_free(bld);
	return ret;
}

/* The bits of the big-endian number n (no leading zero byte). */
static unsigned long num_bits(const unsigned char *n, size_t len)
{
	unsigned long bits = 0;
	unsigned char top;

	if (!len)
		return 0;
	for (top = n[0]; top; top >>= 1)
		bits++;
	return (unsigned long)(len - 1) * 8 + bits;
}

static int make_rsa(EVP_PKEY **pkey, struct sshwire *r, struct strbuf *err)
{
	const unsigned char *e, *n;
	size_t elen, nlen;
	BIGNUM *be = NULL, *bn = NULL;
	OSSL_PARAM_BLD *bld = NULL;
	int ret = -1;

	if (sshwire_mpint(r, &e, &elen) || sshwire_mpint(r, &n, &nlen) ||
	    !elen || elen > 8 || nlen > RSA_MAX_BYTES) {
		strbuf_addstr(err, "malformed ssh-rsa key");
		return -1;
	}
	if (num_bits(n, nlen) < SSHKEY_RSA_MIN_BITS) {
		strbuf_addf(err, "the ssh-rsa key has %lu bits; at least %d are "
			    "required", num_bits(n, nlen), SSHKEY_RSA_MIN_BITS);
		return -1;
	}
	if (!pkey)
		return 0;
	be = BN_bin2bn(e, (int)elen, NULL);
	bn = BN_bin2bn(n, (int)nlen, NULL);
	bld = OSSL_PARAM_BLD_new();
	if (!be || !bn || !bld ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, be))
		ossl_refuse(err, "out of memory");
	else
		ret = from_params(pkey, "RSA", bld, err);
	OSSL_PARAM_BLD_free(bld);
	BN_free(be);
	BN_free(bn);
	return ret;
}

/*
 * Read and check the wire form blob, setting *type; build *pkey too when
 * pkey is not NULL.  Returns 0, or -1 with a reason in err (and *pkey
 * left NULL).
 */
static int read_key(enum sshkey_type *type, EVP_PKEY **pkey,
		    const void *blob, size_t len, struct strbuf *err)
{
	struct sshwire r;
	const unsigned char *name;
	size_t nlen, i;
	const struct key_kind *k = NULL;
	int ret = -1;

	sshwire_init(&r, blob, len);
	if (sshwire_string(&r, &name, &nlen)) {
		strbuf_addstr(err, "malformed public key");
		return -1;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == nlen &&
		    !memcmp(kinds[i].name, name, nlen))
			k = &kinds[i];
	if (!k) {
		struct strbuf t = STRBUF_INIT;

		sshwire_add_quoted(&t, name, nlen);
		for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
			if (starts_with(t.buf, refused[i].prefix)) {
				strbuf_addf(err, "key type '%s': %s", t.buf,
					    refused[i].why);
				break;
			}
		if (i == sizeof(refused) / sizeof(refused[0]))
			strbuf_addf(err, "key type '%s' is not supported%s "
				    "(ssh-ed25519, ecdsa-sha2-nistp256/384/521 "
				    "and ssh-rsa are)", t.buf,
				    ends_with(t.buf, "-cert-v01@openssh.com") ?
				    ": certificates are refused" : "");
		strbuf_release(&t);
		return -1;
	}
	*type = k->type;
	if (k->type == SSHKEY_ED25519)
		ret = make_ed25519(pkey, &r, err);
	else if (k->type == SSHKEY_RSA)
		ret = make_rsa(pkey, &r, err);
	else
		ret = make_ecdsa(pkey, k, &r, err);
	if (!ret && r.len) {
		strbuf_addf(err, "malformed %s key: trailing bytes", k->name);
		ret = -1;
	}
	if (ret && pkey) {
		EVP_PKEY_free(*pkey);
		*pkey = NULL;
	}
	return ret;
}

int sshkey_parse_blob(struct sshkey *out, const void *blob, size_t len,
		      struct strbuf *err)
{
	enum sshkey_type type;

	if (read_key(&type, NULL, blob, len, err))
		return -1;
	EVP_PKEY_free(out->pkey);
	out->pkey = NULL;
	out->type = type;
	strbuf_reset(&out->blob);
	strbuf_add(&out->blob, blob, len);
	return 0;
}

int sshkey_build(struct sshkey *key, struct strbuf *err)
{
	if (key->pkey)
		return 0;
	return read_key(&key->type, &key->pkey, key->blob.buf, key->blob.len,
			err);
}

int sshkey_from_blob(struct sshkey *out, const void *blob, size_t len,
		     struct strbuf *err)
{
	if (sshkey_parse_blob(out, blob, len, err))
		return -1;
	if (sshkey_build(out, err)) {
		strbuf_reset(&out->blob);
		return -1;
	}
	return 0;
}

int sshkey_from_line(struct sshkey *out, const char **line,
		     struct strbuf *err)
{
	const char *p = *line, *type, *b64;
	size_t tlen, blen;
	struct strbuf blob = STRBUF_INIT;
	struct sshwire r;
	int ret = -1;

	p += strspn(p, " \t");
	type = p;
	tlen = strcspn(p, " \t\r\n");
	p += tlen;
	p += strspn(p, " \t");
	b64 = p;
	blen = strcspn(p, " \t\r\n");
	if (!tlen || !blen) {
		strbuf_addstr(err, "expected '<key type> <base64 key>'");
		goto out;
	}
	if (base64_decode(&blob, b64, blen, 0)) {
		strbuf_addstr(err, "the key is not valid base64");
		goto out;
	}
	/* The type word must repeat the blob's own. */
	sshwire_init(&r, blob.buf, blob.len);
	{
		const unsigned char *name;
		size_t nlen;

		if (!sshwire_string(&r, &name, &nlen) &&
		    (nlen != tlen || memcmp(name, type, tlen)) &&
		    sshkey_is_type_word(type)) {
			strbuf_addstr(err, "the key type word does not match "
				      "the key");
			goto out;
		}
	}
	if (sshkey_from_blob(out, blob.buf, blob.len, err))
		goto out;
	if (strlen(sshkey_type_name(out)) != tlen ||
	    strncmp(sshkey_type_name(out), type, tlen)) {
		strbuf_addstr(err, "the key type word does not match the key");
		sshkey_release(out);
		goto out;
	}
	*line = b64 + blen;
	ret = 0;
out:
	strbuf_release(&blob);
	return ret;
}

void sshkey_fingerprint(struct strbuf *out, const struct sshkey *key)
{
	unsigned char md[SHA256_DIGEST_LENGTH];

	SHA256((const unsigned char *)key->blob.buf, key->blob.len, md);
	strbuf_addstr(out, "SHA256:");
	base64_encode(out, md, sizeof(md), 1);
}

int sshkey_equal(const struct sshkey *a, const struct sshkey *b)
{
	return a->blob.len && a->blob.len == b->blob.len &&
		!memcmp(a->blob.buf, b->blob.buf, a->blob.len);
}

/* EVP_DigestVerify with md (NULL for Ed25519): 1, 0, or -1. */
static int digest_verify(EVP_PKEY *pkey, const EVP_MD *md,
			 const unsigned char *sig, size_t sig_len,
			 const void *data, size_t len, struct strbuf *err)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int rc = -1;

	if (!ctx || EVP_DigestVerifyInit(ctx, NULL, md, NULL, pkey) != 1) {
		ossl_refuse(err, "cannot set up verification");
		goto out;
	}
	rc = EVP_DigestVerify(ctx, sig, sig_len, data, len) == 1;
	ERR_clear_error();
out:
	EVP_MD_CTX_free(ctx);
	return rc;
}

/* r and s as mpints inside the signature string, to DER. */
static int ecdsa_der(struct strbuf *out, struct sshwire *r)
{
	const unsigned char *rp, *sp;
	size_t rl, sl;
	BIGNUM *br = NULL, *bs = NULL;
	ECDSA_SIG *sig = NULL;
	unsigned char *der = NULL;
	int n, ret = -1;

	if (sshwire_mpint(r, &rp, &rl) || sshwire_mpint(r, &sp, &sl) ||
	    r->len || rl > 66 || sl > 66)
		return -1;
	br = BN_bin2bn(rp, (int)rl, NULL);
	bs = BN_bin2bn(sp, (int)sl, NULL);
	sig = ECDSA_SIG_new();
	if (!br || !bs || !sig || ECDSA_SIG_set0(sig, br, bs) != 1)
		goto out;
	br = bs = NULL;
	n = i2d_ECDSA_SIG(sig, &der);
	if (n <= 0)
		goto out;
	strbuf_add(out, der, (size_t)n);
	ret = 0;
out:
	OPENSSL_free(der);
	ECDSA_SIG_free(sig);
	BN_free(br);
	BN_free(bs);
	return ret;
}

int sshkey_verify(const struct sshkey *key, const void *sig, size_t sig_len,
		  const void *data, size_t len, struct strbuf *err)
{
	struct sshwire r, inner;
	const unsigned char *alg, *s;
	size_t alen, slen;
	struct strbuf buf = STRBUF_INIT;
	const EVP_MD *md = NULL;
	const char *name = sshkey_type_name(key);
	int rc = -1;

	if (!key->pkey) {
		strbuf_addstr(err, "the key was read but not built");
		return -1;
	}
	sshwire_init(&r, sig, sig_len);
	if (sshwire_string(&r, &alg, &alen) || sshwire_string(&r, &s, &slen) ||
	    r.len) {
		strbuf_addstr(err, "malformed signature blob");
		return -1;
	}
	switch (key->type) {
	case SSHKEY_ED25519:
		if (alen != strlen(name) || memcmp(alg, name, alen))
			goto wrong_alg;
		if (slen != ED25519_SIG_LEN) {
			strbuf_addstr(err, "an Ed25519 signature must be 64 "
				      "bytes");
			goto out;
		}
		rc = digest_verify(key->pkey, NULL, s, slen, data, len, err);
		break;
	case SSHKEY_ECDSA_P256:
	case SSHKEY_ECDSA_P384:
	case SSHKEY_ECDSA_P521:
		if (alen != strlen(name) || memcmp(alg, name, alen))
			goto wrong_alg;
		md = key->type == SSHKEY_ECDSA_P256 ? EVP_sha256() :
			key->type == SSHKEY_ECDSA_P384 ? EVP_sha384() :
			EVP_sha512();
		sshwire_init(&inner, s, slen);
		if (ecdsa_der(&buf, &inner)) {
			strbuf_addstr(err, "malformed ECDSA signature");
			goto out;
		}
		rc = digest_verify(key->pkey, md, (unsigned char *)buf.buf,
				   buf.len, data, len, err);
		break;
	case SSHKEY_RSA: {
		size_t mod = (size_t)EVP_PKEY_get_size(key->pkey);

		/* The legacy SHA-1 "ssh-rsa" signatures are refused. */
		if (alen == 12 && !memcmp(alg, "rsa-sha2-256", 12))
			md = EVP_sha256();
		else if (alen == 12 && !memcmp(alg, "rsa-sha2-512", 12))
			md = EVP_sha512();
		else if (alen == 7 && !memcmp(alg, "ssh-rsa", 7)) {
			strbuf_addstr(err, "signature algorithm 'ssh-rsa' is "
				      "RSA with SHA-1, which is refused; sign "
				      "with rsa-sha2-256 or rsa-sha2-512");
			goto out;
		} else
			goto wrong_alg;
		if (!slen || slen > mod) {
			strbuf_addstr(err, "malformed RSA signature");
			goto out;
		}
		/* OpenSSH may drop leading zero bytes; OpenSSL wants them. */
		while (buf.len < mod - slen)
			strbuf_addch(&buf, 0);
		strbuf_add(&buf, s, slen);
		rc = digest_verify(key->pkey, md, (unsigned char *)buf.buf,
				   buf.len, data, len, err);
		break;
	}
	}
	goto out;
wrong_alg:
	strbuf_addstr(err, "signature algorithm '");
	sshwire_add_quoted(err, alg, alen);
	strbuf_addf(err, "' does not fit a %s key", name);
out:
	strbuf_release(&buf);
	return rc;
}

void sshkey_release(struct sshkey *key)
{
	EVP_PKEY_free(key->pkey);
	key->pkey = NULL;
	strbuf_release(&key->blob);
}
