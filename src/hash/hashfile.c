#include "config.h"
#include "hashfile.h"
#include "json/canon.h"
#include "digest.h"
#include "fs/readfile.h"
#include "json/jsonload.h"
#include "usage.h"
#include "utf8.h"
#include "yaml/yamlload.h"

#include <string.h>

/* Parse text as the mode says: JSON for RFC 8785, YAML otherwise. */
static int load_value(struct value **root, struct arena *arena,
		      const char *text, size_t len, enum hash_mode mode,
		      struct strbuf *err)
{
	if (mode == HASH_JCS)
		return jsonload_ijson(root, arena, text, len, err);
	return yl_load(root, arena, text, len, err);
}

int canon_text(struct strbuf *out, const char *text, size_t len,
	       enum hash_mode mode, struct strbuf *err)
{
	struct canon_out co = { STRBUF_INIT, NULL, NULL };
	struct arena arena = ARENA_INIT;
	struct value *root = NULL;
	int ret;

	if (mode == HASH_RAW) {
		strbuf_add(out, text, len);
		return 0;
	}
	ret = load_value(&root, &arena, text, len, mode, err);
	if (!ret) {
		co.buf = *out;
		ret = canon_write(&co, root,
				  mode == HASH_JCS ? CANON_JCS : CANON_AHD, err);
		*out = co.buf;
	}
	arena_release(&arena);
	return ret;
}

static void flush_to_digest(void *data, const char *bytes, size_t len)
{
	digest_update(data, bytes, len);
}

int hash_text(char *out, const char *text, size_t len, enum hash_mode mode,
	      struct strbuf *err)
{
	struct canon_out co = { STRBUF_INIT, flush_to_digest, NULL };
	struct digest d = DIGEST_INIT;
	struct arena arena = ARENA_INIT;
	struct value *root = NULL;
	int ret;

	if (mode == HASH_RAW) {
		if (!digest_buffer_hex(out, text, len))
			return 0;
		strbuf_addstr(err, "cannot compute SHA-256");
		return HASH_EIO;
	}
	ret = load_value(&root, &arena, text, len, mode, err);
	if (!ret && digest_init(&d)) {
		strbuf_addstr(err, "cannot compute SHA-256");
		ret = HASH_EIO;
	} else if (!ret) {
		co.data = &d;
		ret = canon_write(&co, root,
				  mode == HASH_JCS ? CANON_JCS : CANON_AHD, err);
		if (!ret) {
			canon_flush(&co);
			if (digest_final_hex(&d, out)) {
				strbuf_addstr(err, "cannot compute SHA-256");
				ret = HASH_EIO;
			}
		}
		digest_release(&d);
	}
	strbuf_release(&co.buf);
	arena_release(&arena);
	return ret;
}

int hash_raw_bytes(char *out, const char *bytes, size_t len,
		   struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct digest d = DIGEST_INIT;
	const size_t window = 64 * 1024;
	int ret = 0;

	if (digest_init(&d)) {
		strbuf_addstr(err, "cannot compute SHA-256");
		return HASH_EIO;
	}
	/*
	 * A window that is not the last keeps an incomplete sequence at its
	 * end for the next one; it consumes at least window - 3 bytes.
	 */
	for (;;) {
		size_t n = len < window ? len : window;
		size_t used;

		strbuf_reset(&text);
		used = utf8_repair_chunk(&text, bytes, n, n == len, NULL);
		digest_update(&d, text.buf, text.len);
		bytes += used;
		len -= used;
		if (!len)
			break;
	}
	if (digest_final_hex(&d, out)) {
		strbuf_addstr(err, "cannot compute SHA-256");
		ret = HASH_EIO;
	}
	digest_release(&d);
	strbuf_release(&text);
	return ret;
}

/* Raw hashing streams: memory stays constant whatever the file size. */
static int hash_raw_stream(char *out, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct digest d = DIGEST_INIT;
	char buf[64 * 1024];
	size_t have = 0;
	FILE *fp = input_open(path, err);
	int ret = 0;

	if (!fp)
		return HASH_EIO;
	if (digest_init(&d)) {
		strbuf_addstr(err, "cannot compute SHA-256");
		input_close(fp);
		return HASH_EIO;
	}
	for (;;) {
		size_t n = fread(buf + have, 1, sizeof(buf) - have, fp);
		size_t used;
		int final = n == 0;

		if (!n && ferror(fp)) {
			strbuf_addstr(err, "read error");
			ret = HASH_EIO;
			break;
		}
		have += n;
		strbuf_reset(&text);
		used = utf8_repair_chunk(&text, buf, have, final, NULL);
		digest_update(&d, text.buf, text.len);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (final)
			break;
	}
	if (!ret && digest_final_hex(&d, out)) {
		strbuf_addstr(err, "cannot compute SHA-256");
		ret = HASH_EIO;
	}
	digest_release(&d);
	strbuf_release(&text);
	input_close(fp);
	return ret;
}

int hash_file(char *out, const char *path, enum hash_mode mode,
	      size_t max_size, struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT, fixed = STRBUF_INIT;
	const char *text;
	size_t len;
	int ret;

	if (mode == HASH_RAW)
		return hash_raw_stream(out, path, err);
	if (read_file_limited(&raw, path, max_size, err)) {
		strbuf_release(&raw);
		return HASH_EIO;
	}
	text = raw.buf;
	len = raw.len;
	if (utf8_valid_prefix(raw.buf, raw.len) != raw.len) {
		utf8_repair(&fixed, raw.buf, raw.len);
		text = fixed.buf;
		len = fixed.len;
	}
	ret = hash_text(out, text, len, mode, err);
	strbuf_release(&raw);
	strbuf_release(&fixed);
	return ret;
}
