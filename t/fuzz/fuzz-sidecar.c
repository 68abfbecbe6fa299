/*
 * libFuzzer target: the two readings of a sidecar.  sidecar_parse()
 * builds a JSON tree and checks it; sidecar_parse_fields() reads a plain
 * sidecar straight into its fields (record/sidecar-quick.c) and hands
 * anything else to sidecar_parse().  For every input both must give the
 * same answer and the same error and, when the sidecar loads, the same
 * fields: the block render_markdown() makes of them (which shows almost
 * every one), the full hashes, git_dirty, backfilled and the unknown
 * keys.  It aborts when they differ.
 *
 * Build and run with t/fuzz/build.sh; seeds in t/fuzz/corpus-sidecar.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/render.h"
#include "record/sidecar.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT (64 * 1024)

static void fail(const char *what, const uint8_t *data, size_t size)
{
	fprintf(stderr, "fuzz-sidecar: the readings differ in %s\n--- input "
		"---\n", what);
	fwrite(data, 1, size, stderr);
	abort();
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sidecar a = SIDECAR_INIT, b = SIDECAR_INIT;
	struct strbuf ea = STRBUF_INIT, eb = STRBUF_INIT;
	struct strbuf ra = STRBUF_INIT, rb = STRBUF_INIT;
	const char *buf = (const char *)data;
	int ret_a, ret_b;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	ret_a = sidecar_parse(&a, buf, size, &ea);
	ret_b = sidecar_parse_fields(&b, buf, size, &eb);
	if (ret_a != ret_b)
		fail("the answer", data, size);
	if (strcmp(ea.buf, eb.buf))
		fail("the error", data, size);
	if (!ret_a) {
		render_markdown(&ra, &a);
		render_markdown(&rb, &b);
		if (strcmp(ra.buf, rb.buf))
			fail("the rendered block", data, size);
		if (!same(a.token.hash, b.token.hash) ||
		    !same(a.brief.hash, b.brief.hash) ||
		    a.git_dirty != b.git_dirty ||
		    a.backfilled != b.backfilled ||
		    a.schema_version != b.schema_version ||
		    strcmp(a.unknown.buf, b.unknown.buf))
			fail("a field the block does not show", data, size);
	}
	sidecar_release(&a);
	sidecar_release(&b);
	strbuf_release(&ea);
	strbuf_release(&eb);
	strbuf_release(&ra);
	strbuf_release(&rb);
	return 0;
}
