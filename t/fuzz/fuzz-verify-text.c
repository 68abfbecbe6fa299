/*
 * libFuzzer target: verify's text printer (verify_format_text(), which
 * quotes through src/quote.h) fed arbitrary strings in every field a
 * sidecar, a file name or a message can fill.
 *
 * The first byte chooses the shape (which checks fail, whether the
 * signature fails, whether there is an error or a markdown warning);
 * the rest, split at NUL bytes, gives the strings: the report and
 * sidecar paths, kind, ahd_version, ahd_commit, invoked_at, each
 * check's expected hash, actual hash and reason, the signature's reason
 * and key id, the error and the warning.  It aborts when a contract
 * breaks:
 *
 *  - the output has exactly as many lines as the same shape with every
 *    non-empty string "x": one line per field, whatever a string holds;
 *  - no raw C0 control but the line feed, no DEL, no C1 control, no
 *    byte that is not valid UTF-8 and no U+2028-202E or U+2066-2069.
 *
 * Build and run with t/fuzz/build.sh.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "utf8.h"
#include "verify/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT (64 * 1024)
#define NR_STRINGS 16

static void fail(const char *what, const struct strbuf *out)
{
	fprintf(stderr, "fuzz-verify-text: %s\n--- output ---\n", what);
	fwrite(out->buf, 1, out->len, stderr);
	abort();
}

/* Format one report of the given shape with strings s[]. */
static void format(struct strbuf *out, unsigned shape, char **s)
{
	struct verify_options opts = { 0, (shape >> 4) & 1, NULL, NULL };
	struct verify_report r;
	int i;

	verify_report_init(&r, s[0], s[1]);
	/* verify_one() sizes the checks to the record; the shape does here */
	r.checks = calloc(2, sizeof(*r.checks));
	if (!r.checks)
		abort();
	r.loaded = 1;
	r.sc.kind = s[2];
	r.sc.ahd_version = s[3];
	r.sc.ahd_commit = (shape >> 5) & 1 ? NULL : s[4];
	r.sc.git_dirty = (shape >> 6) & 1;
	r.sc.invoked_at = s[5];
	r.nr_checks = 1 + (shape & 1);
	for (i = 0; i < r.nr_checks; i++) {
		struct verify_check *c = &r.checks[i];

		c->field = i ? "brief" : "token";
		c->ok = (shape >> (1 + i)) & 1;
		c->expected = s[6 + 3 * i];
		strbuf_init(&c->actual, 0);
		strbuf_init(&c->reason, 0);
		strbuf_init(&c->note, 0);
		strbuf_init(&c->rel, 0);
		strbuf_addstr(&c->actual, s[7 + 3 * i]);
		strbuf_addstr(&c->reason, s[8 + 3 * i]);
	}
	r.sig.status = (shape >> 3) & 1 ? SIG_BAD : SIG_OK;
	strbuf_addstr(&r.sig.reason, s[12]);
	strbuf_addstr(&r.sig.key_id, s[13]);
	if ((shape >> 7) & 1)
		strbuf_addstr(&r.error, s[14]);
	strbuf_addstr(&r.md_warning, s[15]);
	r.verdict = VERIFY_DRIFTED;
	verify_format_text(out, &r, &opts);
	/* the report owns no sidecar document here */
	r.sc.kind = r.sc.ahd_version = r.sc.ahd_commit = r.sc.invoked_at = NULL;
	verify_report_release(&r);
}

static size_t count_lines(const struct strbuf *out)
{
	size_t i, n = 0;

	for (i = 0; i < out->len; i++)
		n += out->buf[i] == '\n';
	return n;
}

static void check_bytes(const struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)out->buf;
	size_t i;

	if (utf8_valid_prefix(out->buf, out->len) != out->len)
		fail("invalid UTF-8 in the output", out);
	for (i = 0; i < out->len; i++) {
		if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f)
			fail("a raw control byte", out);
		if (p[i] == 0xc2 && i + 1 < out->len && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f)
			fail("a raw C1 control", out);
		if (p[i] == 0xe2 && i + 2 < out->len &&
		    ((p[i + 1] == 0x80 && p[i + 2] >= 0xa8 && p[i + 2] <= 0xae) ||
		     (p[i + 1] == 0x81 && p[i + 2] >= 0xa6 && p[i + 2] <= 0xa9)))
			fail("a raw separator or bidi control", out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT, clean = STRBUF_INIT;
	char *s[NR_STRINGS], *x[NR_STRINGS], *copy;
	const char *p, *end;
	unsigned shape;
	int i;

	if (!size || size > FUZZ_MAX_INPUT)
		return 0;
	shape = data[0];
	copy = malloc(size);
	if (!copy)
		abort();
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	p = copy;
	end = copy + size - 1;
	for (i = 0; i < NR_STRINGS; i++) {
		s[i] = (char *)(p < end ? p : "");
		/* an empty string can drop its line; keep that in the twin */
		x[i] = *s[i] ? "x" : "";
		if (p < end)
			p += strlen(p) + 1;
	}
	format(&out, shape, s);
	format(&clean, shape, x);
	if (count_lines(&out) != count_lines(&clean))
		fail("a string changed the number of lines", &out);
	check_bytes(&out);
	strbuf_release(&out);
	strbuf_release(&clean);
	free(copy);
	return 0;
}
