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

int cache_hash_bytes(struct cache *c, char *out, const char *bytes,
		     size_t len, enum hash_mode mode, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT, value = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	int ret;

	/*
	 * A key that cannot be computed is a miss.  A value that is not a
	 * hash is never handed out (the store's checksum makes that a
	 * store we wrote, but a hash printed wrong is the one thing we
	 * must never do).
	 */
	if (c && !input_key(&key, bytes, len, mode) &&
	    cache_get(c, key.buf, &value) &&
	    is_sha256_hash(value.buf, HEX_LOWER)) {
		memcpy(out, value.buf, value.len + 1);
		ret = 0;
		goto out;
	}
	utf8_repair(&text, bytes, len);
	ret = hash_text(out, text.buf, text.len, mode, err);
	if (!ret && key.len)
		cache_put(c, key.buf, out);
out:
	strbuf_release(&key);
	strbuf_release(&value);
	strbuf_release(&text);
	return ret;
}
