/*
 * libFuzzer target: arbitrary bytes through UTF-8 repair (SPEC 4.1) and
 * canon_text() in both dialects (HASH_STRUCTURED, HASH_JCS).
 *
 * Besides the sanitizers' findings it aborts when one of the contracts
 * of src/hashfile.h is broken:
 *
 *  - canon_text() returns 0, HASH_EINVALID or HASH_EUNSUPPORTED, and a
 *    failure comes with a one-line reason (non-empty, no newline);
 *  - canonical text is valid UTF-8 without NUL bytes (JSON.stringify
 *    escapes control characters and lone surrogates);
 *  - hash_text() agrees with canon_text(): same outcome, and on success
 *    the SHA-256 of the canonical text;
 *  - canonical text is a fixed point: when it is itself accepted as input
 *    (as YAML in the structured mode, as JSON with --jcs), its canonical
 *    text is identical.  A difference means one of the two parses builds
 *    a value the reference would not build, that is a wrong hash.
 *    (Refusing the canonical text is allowed: it may nest deeper than the
 *    input limit through aliases, or hold characters YAML does not admit
 *    unescaped, such as DEL.)
 *
 * Build and run with t/fuzz/build.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash/digest.h"
#include "hash/hashfile.h"
#include "strbuf.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keep each run fast; larger inputs find nothing that small ones do not. */
#define FUZZ_MAX_INPUT (256 * 1024)

static void fail(const char *what, enum hash_mode mode,
		 const struct strbuf *detail)
{
	fprintf(stderr, "fuzz-canon: %s (mode %s)\n", what,
		mode == HASH_JCS ? "jcs" : "structured");
	if (detail && detail->len)
		fprintf(stderr, "fuzz-canon: %.*s\n", (int)detail->len,
			detail->buf);
	abort();
}

static void check_status(int ret, enum hash_mode mode,
			 const struct strbuf *err)
{
	if (ret != 0 && ret != HASH_EINVALID && ret != HASH_EUNSUPPORTED)
		fail("canon_text returned an unexpected status", mode, err);
	if (ret == 0)
		return;
	if (!err->len)
		fail("failure without a reason", mode, NULL);
	if (memchr(err->buf, '\n', err->len))
		fail("reason of more than one line", mode, err);
}

static void check_one(const struct strbuf *text, enum hash_mode mode)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf again = STRBUF_INIT, err2 = STRBUF_INIT;
	char hex[HASH_HEX_MAX], want[DIGEST_HEX_MAX];
	int ret, ret2;

	ret = canon_text(&out, text->buf, text->len, mode, &err);
	check_status(ret, mode, &err);

	ret2 = hash_text(hex, text->buf, text->len, mode, &err2);
	if ((ret == 0) != (ret2 == 0))
		fail("hash_text and canon_text disagree on success", mode,
		     ret ? &err : &err2);

	if (ret == 0) {
		if (utf8_valid_prefix(out.buf, out.len) != out.len)
			fail("canonical text is not valid UTF-8", mode, &out);
		if (memchr(out.buf, '\0', out.len))
			fail("canonical text holds a NUL byte", mode, &out);
		if (digest_buffer_hex(want, out.buf, out.len) ||
		    strcmp(hex, want))
			fail("hash_text is not the SHA-256 of canon_text",
			     mode, &out);

		strbuf_reset(&err2);
		if (!canon_text(&again, out.buf, out.len, mode, &err2) &&
		    (again.len != out.len ||
		     memcmp(again.buf, out.buf, out.len)))
			fail("canonical text is not a fixed point", mode,
			     &out);
	}

	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&again);
	strbuf_release(&err2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT;

	if (size > FUZZ_MAX_INPUT)
		return 0;

	/* canon_text() wants valid UTF-8, as hash_file() hands it. */
	utf8_repair(&text, (const char *)data, size);
	if (utf8_valid_prefix(text.buf, text.len) != text.len)
		fail("utf8_repair left invalid UTF-8", HASH_STRUCTURED, NULL);

	check_one(&text, HASH_STRUCTURED);
	check_one(&text, HASH_JCS);

	strbuf_release(&text);
	return 0;
}
