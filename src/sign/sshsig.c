#include "config.h"
#include "sshsig.h"
#include "sshwire.h"

#include <openssl/sha.h>
#include <string.h>

#define MAGIC "SSHSIG"
#define MAGIC_LEN 6
#define SSHSIG_VERSION 1

int sshsig_is_armoured(const char *text, size_t len)
{
	return len >= strlen(SSHSIG_BEGIN) &&
		!memcmp(text, SSHSIG_BEGIN, strlen(SSHSIG_BEGIN));
}

int sshsig_parse_armoured(struct sshsig *out, const char *text, size_t len,
			  size_t *end, struct strbuf *err)
{
	static const char footer[] = "\n" SSHSIG_END;
	struct strbuf blob = STRBUF_INIT;
	size_t start, i, stop = 0;
	int ret = -1;

	if (len > SSHSIG_MAX_ARMOUR) {
		strbuf_addstr(err, "the signature is too large");
		return -1;
	}
	if (!sshsig_is_armoured(text, len)) {
		strbuf_addstr(err, "missing the '" SSHSIG_BEGIN "' line");
		return -1;
	}
	start = strlen(SSHSIG_BEGIN);
	if (start < len && text[start] == '\r')
		start++;
	if (start >= len || text[start] != '\n') {
		strbuf_addstr(err, "the '" SSHSIG_BEGIN "' line has more on it");
		return -1;
	}
	for (i = start; i + sizeof(footer) - 1 <= len; i++)
		if (!memcmp(text + i, footer, sizeof(footer) - 1)) {
			stop = i;
			break;
		}
	if (!stop) {
		strbuf_addstr(err, "the signature is truncated: no '"
			      SSHSIG_END "' line");
		return -1;
	}
	if (base64_decode(&blob, text + start, stop - start, 1)) {
		strbuf_addstr(err, "the armoured signature is not valid base64");
		goto out;
	}
	if (sshsig_parse_blob(out, blob.buf, blob.len, err))
		goto out;
	if (end) {
		i = stop + sizeof(footer) - 1;
		if (i < len && text[i] == '\r')
			i++;
		if (i < len && text[i] == '\n')
			i++;
		*end = i;
	}
	ret = 0;
out:
	strbuf_release(&blob);
	return ret;
}

int sshsig_parse_blob(struct sshsig *out, const void *blob, size_t len,
		      struct strbuf *err)
{
	struct sshwire r;
	const unsigned char *key, *ns, *reserved, *hash, *sig;
	size_t klen, nslen, rlen, hlen, slen;
	uint32_t version;

	strbuf_reset(&out->blob);
	strbuf_add(&out->blob, blob, len);
	sshwire_init(&r, out->blob.buf, out->blob.len);
	if (r.len < MAGIC_LEN || memcmp(r.p, MAGIC, MAGIC_LEN)) {
		strbuf_addstr(err, "not an SSHSIG signature (no SSHSIG magic)");
		return -1;
	}
	r.p += MAGIC_LEN;
	r.len -= MAGIC_LEN;
	if (sshwire_u32(&r, &version)) {
		strbuf_addstr(err, "the signature is truncated");
		return -1;
	}
	if (version != SSHSIG_VERSION) {
		strbuf_addf(err, "unsupported SSHSIG version %lu",
			    (unsigned long)version);
		return -1;
	}
	if (sshwire_string(&r, &key, &klen) ||
	    sshwire_string(&r, &ns, &nslen) ||
	    sshwire_string(&r, &reserved, &rlen) ||
	    sshwire_string(&r, &hash, &hlen) ||
	    sshwire_string(&r, &sig, &slen)) {
		strbuf_addstr(err, "the signature is truncated");
		return -1;
	}
	if (r.len) {
		strbuf_addstr(err, "the signature has trailing bytes");
		return -1;
	}
	if (!nslen || memchr(ns, 0, nslen)) {
		strbuf_addstr(err, "the signature's namespace is empty or "
			      "holds a NUL");
		return -1;
	}
	if (hlen == 6 && !memcmp(hash, "sha256", 6))
		out->sha512 = 0;
	else if (hlen == 6 && !memcmp(hash, "sha512", 6))
		out->sha512 = 1;
	else {
		strbuf_addstr(err, "unsupported hash algorithm '");
		sshwire_add_quoted(err, hash, hlen);
		strbuf_addstr(err, "' (sha256 and sha512 are)");
		return -1;
	}
	strbuf_reset(&out->ns);
	strbuf_add(&out->ns, ns, nslen);
	out->sig_off = (size_t)(sig - (const unsigned char *)out->blob.buf);
	out->sig_len = slen;
	sshkey_release(&out->key);
	return sshkey_parse_blob(&out->key, key, klen, err);
}

int sshsig_verify(const struct sshsig *sig, const struct sshkey *key,
		  const void *msg, size_t len, struct strbuf *err)
{
	unsigned char h[SHA512_DIGEST_LENGTH];
	size_t hlen = sig->sha512 ? SHA512_DIGEST_LENGTH : SHA256_DIGEST_LENGTH;
	struct strbuf signed_data = STRBUF_INIT;
	int rc;

	if (!sshkey_equal(key, &sig->key)) {
		strbuf_addstr(err, "the key to check with is not the "
			      "signature's");
		return -1;
	}
	if (sig->sha512)
		SHA512(msg, len, h);
	else
		SHA256(msg, len, h);
	strbuf_add(&signed_data, MAGIC, MAGIC_LEN);
	sshwire_put_string(&signed_data, sig->ns.buf, sig->ns.len);
	/* The reserved string is signed empty, whatever the blob holds. */
	sshwire_put_string(&signed_data, "", 0);
	sshwire_put_string(&signed_data, sig->sha512 ? "sha512" : "sha256", 6);
	sshwire_put_string(&signed_data, h, hlen);
	rc = sshkey_verify(key, sig->blob.buf + sig->sig_off,
			   sig->sig_len, signed_data.buf, signed_data.len, err);
	strbuf_release(&signed_data);
	return rc;
}

void sshsig_release(struct sshsig *sig)
{
	sshkey_release(&sig->key);
	strbuf_release(&sig->ns);
	strbuf_release(&sig->blob);
}
