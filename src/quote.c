#include "config.h"
#include "quote.h"

#include <stdint.h>
#include <string.h>

/*
 * Decode one strictly valid UTF-8 sequence at s (no overlong forms, no
 * surrogates, nothing above U+10FFFF).  Returns its length, or 0 when
 * the byte at s does not start one.
 */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n, i;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
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

/*
 * Code points a terminal acts on or that show nothing: C1 controls,
 * the Arabic letter mark, zero-width characters and directional marks,
 * line and paragraph separators, bidi embeddings and overrides, the
 * invisible operators and bidi isolates, the BOM, interlinear
 * annotation marks, and the noncharacters (U+FDD0..U+FDEF, U+xxFFFE and
 * U+xxFFFF), which no text should hold and renderers show unpredictably.
 */
static int is_special(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x61c ||
		(c >= 0x200b && c <= 0x200f) ||
		(c >= 0x2028 && c <= 0x202e) ||
		(c >= 0x2060 && c <= 0x206f) || c == 0xfeff ||
		(c >= 0xfff9 && c <= 0xfffb) ||
		(c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe;
}

/* Printable ASCII that is neither '"' nor '\\': shown as it is. */
static int plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * Append s escaped; with quoted set, '"' and '\' are backslashed too.
 * Stops after max code points (0: no limit) and returns whether it
 * stopped early.
 */
static int escape(struct strbuf *out, const char *s, size_t len,
		  int quoted, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, shown = 0;

	while (i < len) {
		uint32_t c;
		size_t n;

		if (max && shown++ == max)
			return 1;
		if (plain_ascii(p[i])) {
			size_t run = 1;

			/* a run of them in one copy, each still counted */
			while (i + run < len && plain_ascii(p[i + run]) &&
			       (!max || shown < max)) {
				run++;
				shown++;
			}
			strbuf_add(out, p + i, run);
			i += run;
			continue;
		}
		n = utf8_decode(p + i, len - i, &c);
		if (!n) {
			strbuf_addf(out, "\\x%02x", p[i]);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addf(out, "\\x%02x", (unsigned)c);
			i++;
		} else if (is_special(c)) {
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

int quote_needed(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t c;
		size_t n;

		/* paths and versions are ASCII: no decoding for them */
		if (plain_ascii(p[i])) {
			i++;
			continue;
		}
		n = utf8_decode(p + i, len - i, &c);
		if (!n || c < 0x20 || c == 0x7f || c == '"' || c == '\\' ||
		    is_special(c))
			return 1;
		i += n;
	}
	return 0;
}

void quote_c_style_n(struct strbuf *out, const char *s, size_t len)
{
	if (!quote_needed(s, len)) {
		strbuf_add(out, s, len);
		return;
	}
	strbuf_addch(out, '"');
	escape(out, s, len, 1, 0);
	strbuf_addch(out, '"');
}

void quote_c_style(struct strbuf *out, const char *s)
{
	quote_c_style_n(out, s, strlen(s));
}

void quote_escape(struct strbuf *out, const char *s, size_t len)
{
	escape(out, s, len, 0, 0);
}

void quote_excerpt(struct strbuf *out, const char *s, size_t len,
		   size_t max)
{
	if (escape(out, s, len, 0, max ? max : 1))
		strbuf_addstr(out, "...");
}

void quote_path_line(struct strbuf *out, const char *prefix,
		     const char *path, size_t len, const char *msg)
{
	strbuf_addstr(out, prefix);
	quote_c_style_n(out, path, len);
	if (msg) {
		strbuf_addstr(out, ": ");
		quote_escape(out, msg, strlen(msg));
	}
}
