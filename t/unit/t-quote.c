#include "config.h"
#include "quote.h"
#include "strbuf.h"
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * quote.c copies runs of plain ASCII at once; this is the escaping done
 * one code point at a time, as it was before, to compare with on
 * generated text.
 */
static size_t decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n, i;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static int special(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x61c ||
		(c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
		(c >= 0x2060 && c <= 0x206f) || c == 0xfeff ||
		(c >= 0xfff9 && c <= 0xfffb) || (c >= 0xfdd0 && c <= 0xfdef) ||
		(c & 0xfffe) == 0xfffe;
}

static int ref_escape(struct strbuf *out, const char *s, size_t len,
		      int quoted, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, shown = 0;

	while (i < len) {
		uint32_t c;
		size_t n;

		if (max && shown++ == max)
			return 1;
		n = decode(p + i, len - i, &c);
		if (!n) {
			strbuf_addf(out, "\\x%02x", p[i]);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addf(out, "\\x%02x", (unsigned)c);
			i++;
		} else if (special(c)) {
			strbuf_addf(out, "\\u%04x", (unsigned)c);
			i += n;
		} else {
			if (quoted && (c == '"' || c == '\\'))
				strbuf_addch(out, '\\');
			strbuf_add(out, p + i, n);
			i += n;
		}
	}
	return 0;
}

static int ref_needed(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t c;
		size_t n = decode(p + i, len - i, &c);

		if (!n || c < 0x20 || c == 0x7f || c == '"' || c == '\\' ||
		    special(c))
			return 1;
		i += n;
	}
	return 0;
}

/* Pieces the generated strings are made of: plain runs and the rest. */
static const char *const pieces[] = {
	"a", "docs/evals/2031", "-", " ", "~", "\"", "\\", "\n", "\x1b[31m",
	"\x7f", "\xc3\xa9", "\xe2\x80\xae", "\xef\xbb\xbf", "\xf0\x9f\x98\x80",
	"\xff", "\xc3", "\xe2\x82", "\xc2\x85", "\xef\xbf\xbe", "\xed\xa0\x80",
};

static int differ(const struct strbuf *a, const struct strbuf *b)
{
	return a->len != b->len || memcmp(a->buf, b->buf, a->len);
}

/* Disagreements with the reference, per function. */
struct bad {
	int needed, c_style, escape, excerpt;
};

/* Compare every function on s with the reference, bounds 0..11. */
static void compare(struct bad *bad, const struct strbuf *s)
{
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
	size_t max;

	bad->needed += quote_needed(s->buf, s->len) !=
		       ref_needed(s->buf, s->len);

	quote_c_style_n(&got, s->buf, s->len);
	if (ref_needed(s->buf, s->len)) {
		strbuf_addch(&want, '"');
		ref_escape(&want, s->buf, s->len, 1, 0);
		strbuf_addch(&want, '"');
	} else {
		strbuf_addbuf(&want, s);
	}
	bad->c_style += differ(&got, &want);

	strbuf_reset(&got);
	strbuf_reset(&want);
	quote_escape(&got, s->buf, s->len);
	ref_escape(&want, s->buf, s->len, 0, 0);
	bad->escape += differ(&got, &want);

	for (max = 0; max < 12; max++) {
		strbuf_reset(&got);
		strbuf_reset(&want);
		quote_excerpt(&got, s->buf, s->len, max);
		if (ref_escape(&want, s->buf, s->len, 0, max ? max : 1))
			strbuf_addstr(&want, "...");
		bad->excerpt += differ(&got, &want);
	}
	strbuf_release(&got);
	strbuf_release(&want);
}

static void report(const struct bad *bad, const char *what)
{
	is_int(0, bad->needed, "%s: quote_needed agrees with the code point "
	       "reading", what);
	is_int(0, bad->c_style, "%s: quote_c_style_n agrees", what);
	is_int(0, bad->escape, "%s: quote_escape agrees", what);
	is_int(0, bad->excerpt, "%s: quote_excerpt agrees at every bound",
	       what);
}

int main(void)
{
	struct strbuf s = STRBUF_INIT, got = STRBUF_INIT;
	struct bad bad = { 0, 0, 0, 0 };
	int i, j;

	plan_lazy();
	srand(7);
	for (i = 0; i < 20000; i++) {
		int k, nr = rand() % 8;

		strbuf_reset(&s);
		for (k = 0; k < nr; k++)
			strbuf_addstr(&s, pieces[rand() % (sizeof(pieces) /
							  sizeof(*pieces))]);
		compare(&bad, &s);
	}
	report(&bad, "generated");

	/*
	 * Every pair of bytes between plain letters: each byte class at
	 * each side of a run, including the edges of plain ASCII (0x1f,
	 * 0x20, 0x7e, 0x7f) that the pieces above do not all reach.
	 */
	memset(&bad, 0, sizeof(bad));
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++) {
			strbuf_reset(&s);
			strbuf_addstr(&s, "ab");
			strbuf_addch(&s, (char)i);
			strbuf_addch(&s, (char)j);
			strbuf_addstr(&s, "cd");
			compare(&bad, &s);
		}
	report(&bad, "every byte pair");

	strbuf_reset(&got);
	quote_c_style(&got, "docs/evals/a b.md");
	is_string("docs/evals/a b.md", got.buf, "a plain path as it is");
	strbuf_reset(&got);
	quote_c_style(&got, "a\"b\\c\x1b");
	is_string("\"a\\\"b\\\\c\\x1b\"", got.buf, "quotes, backslash, ESC");
	strbuf_reset(&got);
	quote_excerpt(&got, "abcdef", 6, 3);
	is_string("abc...", got.buf, "an excerpt stops after max");
	strbuf_reset(&got);
	quote_excerpt(&got, "abc", 3, 3);
	is_string("abc", got.buf, "an excerpt of exactly max is whole");
	strbuf_reset(&got);
	quote_escape(&got, "x\xe2\x80\xaey", 5);
	is_string("x\\u202ey", got.buf, "a bidi override between letters");

	strbuf_release(&s);
	strbuf_release(&got);
	return 0;
}
