/*
 * The input level of the cache (see cache.h): an input's canonical hash
 * by the blob id of the bytes read.
 */
#include "config.h"
#include "cache.h"
#include "hash/digest.h"
#include "strutil.h"
#include "utf8.h"

#include <string.h>

/*
 * "in.<mode>.<blob id>": the mode's letter, since one file hashed in
 * each mode gives a hash for each.
 */
static int input_key(struct strbuf *key, const char *bytes, size_t len,
		     enum hash_mode mode)
{
	char id[DIGEST_BLOB_ID_HEX];

	if (digest_blob_id(id, bytes, len))
		return -1;
	strbuf_addf(key, "in.%c.%s", mode == HASH_JCS ? 'j' :
		    mode == HASH_RAW ? 'r' : 's', id);
	return 0;
}

/*
 * A stored value: "<canonical hash>@<SHA-256 of the bytes read>".  The
 * key is git's SHA-1, which a chosen-prefix collision can defeat (git's
 * own SHA-1 detects such attacks; OpenSSL's does not): the bytes'
 * SHA-256, checked on every hit, makes an entry answer only for the
 * bytes it was computed from.  Returns 1 with the hash in out when the
 * value is well formed and its SHA-256 is sum's.
 */
static int value_answers(char *out, const struct strbuf *value,
			 const char *sum)
{
	const char *at = strchr(value->buf, '@');
	char hash[HASH_HEX_MAX];

	if (!at || at - value->buf != 71 || strcmp(at + 1, sum + 7))
		return 0;
	memcpy(hash, value->buf, 71);
	hash[71] = '\0';
	if (!is_sha256_hash(hash, HEX_LOWER))
		return 0;
	memcpy(out, hash, sizeof(hash));
	return 1;
}

int cache_hash_bytes(struct cache *c, char *out, const char *bytes,
		     size_t len, enum hash_mode mode, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT, value = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	char sum[DIGEST_HEX_MAX] = "";
	int ret;

	/*
	 * A key or sum that cannot be computed is a miss, and so is a
	 * value that is not a hash or was stored for other bytes.  The
	 * store's checksum detects corruption, not forgery, and its owner
	 * and modes say only that no other user could have written it
	 * (see cache.h): neither proves the hash right.  What the check
	 * of the bytes' SHA-256 here gives is that a value answers only
	 * for the bytes whose SHA-256 it records.
	 */
	if (c && !input_key(&key, bytes, len, mode) &&
	    !digest_buffer_hex(sum, bytes, len) &&
	    cache_get(c, key.buf, &value) && value_answers(out, &value, sum)) {
		ret = 0;
		goto out;
	}
	utf8_repair(&text, bytes, len);
	ret = hash_text(out, text.buf, text.len, mode, err);
	if (!ret && key.len && *sum) {
		strbuf_reset(&value);
		strbuf_addf(&value, "%s@%s", out, sum + 7);
		cache_put(c, key.buf, value.buf);
	}
out:
	strbuf_release(&key);
	strbuf_release(&value);
	strbuf_release(&text);
	return ret;
}
