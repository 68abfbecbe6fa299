#include "config.h"
#include "strbuf.h"
#include "tap.h"
#include "utf8.h"

#include <string.h>

#define R "\xef\xbf\xbd"

static void check_repair(const char *in, size_t inlen, const char *want,
			 size_t nrep_want, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	size_t nrep = utf8_repair(&out, in, inlen);

	is_bytes(want, strlen(want), out.buf, out.len, "repair: %s", name);
	is_int((long long)nrep_want, (long long)nrep, "repair count: %s", name);
	strbuf_release(&out);
}

/* Feed the input one byte at a time, as a streaming reader would. */
static void check_stream(const char *in, size_t inlen, const char *want,
			 const char *name)
{
	struct strbuf out = STRBUF_INIT;
	char buf[8];
	size_t have = 0, i, used;

	for (i = 0; i < inlen; i++) {
		buf[have++] = in[i];
		used = utf8_repair_chunk(&out, buf, have, 0, NULL);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	utf8_repair_chunk(&out, buf, have, 1, NULL);
	is_bytes(want, strlen(want), out.buf, out.len, "stream: %s", name);
	strbuf_release(&out);
}

static const struct {
	const char *in;
	size_t len;
	const char *want;
	size_t nrep;
	const char *name;
} cases[] = {
	{ "abc", 3, "abc", 0, "ascii" },
	{ "\xc3\xa9", 2, "\xc3\xa9", 0, "two-byte" },
	{ "\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x80", 0, "four-byte" },
	{ "\xef\xbb\xbfx", 4, "\xef\xbb\xbfx", 0, "BOM kept" },
	{ "a\x80z", 3, "a" R "z", 1, "lone continuation" },
	{ "\xc0\xaf", 2, R R, 2, "overlong C0 is two errors" },
	{ "\xe0\x80\xaf", 3, R R R, 3, "overlong E0 80 is three errors" },
	{ "\xed\xa0\x80", 3, R R R, 3, "surrogate ED A0 is three errors" },
	{ "\xf4\x90\x80\x80", 4, R R R R, 4, "beyond U+10FFFF" },
	{ "\xe2\x82", 2, R, 1, "truncated three-byte is one error" },
	{ "\xf0\x9f\x98", 3, R, 1, "truncated four-byte is one error" },
	{ "\xe2\x82x", 3, R "x", 1, "broken sequence then ascii" },
	{ "\xff\xfe", 2, R R, 2, "FF FE" },
	{ "\xf0\x9f\xe2\x82\xac", 5, R "\xe2\x82\xac", 1, "broken then valid" },
};

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	plan_lazy();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_repair(cases[i].in, cases[i].len, cases[i].want,
			     cases[i].nrep, cases[i].name);
		check_stream(cases[i].in, cases[i].len, cases[i].want,
			     cases[i].name);
	}

	wtf8_add(&sb, 0xD83D);
	wtf8_add(&sb, 0xDE00);
	is_bytes("\xf0\x9f\x98\x80", 4, sb.buf, sb.len,
		 "wtf8_add joins a surrogate pair");
	strbuf_reset(&sb);
	wtf8_add(&sb, 0xDE00);
	wtf8_add(&sb, 0xD83D);
	is_bytes("\xed\xb8\x80\xed\xa0\xbd", 6, sb.buf, sb.len,
		 "wtf8_add keeps reversed surrogates apart");
	strbuf_release(&sb);

	/* U+E000 sorts after U+1F600 in UTF-16 (lead surrogate D83D). */
	ok(utf16_cmp("\xf0\x9f\x98\x80", 4, "\xee\x80\x80", 3) < 0,
	   "astral sorts before private use in UTF-16 order");
	ok(utf16_cmp("\xee\x80\x80", 3, "\xf0\x9f\x98\x80", 4) > 0,
	   "and the other way round");
	ok(utf16_cmp("a", 1, "ab", 2) < 0, "prefix sorts first");
	ok(utf16_cmp("ab", 2, "ab", 2) == 0, "equal strings");
	ok(utf16_cmp("\xed\xa0\x80", 3, "\xf0\x90\x80\x80", 4) < 0,
	   "lone D800 before D800 DC00");
	ok(utf16_cmp("\xed\xa0\x80z", 4, "\xf0\x90\x80\x80", 4) < 0,
	   "D800 'z' before D800 DC00 (z < DC00)");
	ok(utf16_cmp("\xef\xbf\xbf", 3, "\xf4\x8f\xbf\xbf", 4) > 0,
	   "U+FFFF after U+10FFFF");
	is_int(2, (long long)utf16_length("\xf0\x9f\x98\x80", 4),
	       "astral character is two UTF-16 units");
	is_int(3, (long long)utf16_length("a\xc3\xa9\xe2\x82\xac", 6),
	       "BMP characters are one unit each");
	return 0;
}
