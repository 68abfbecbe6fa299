#include "config.h"
#include "utf8.h"

#include <string.h>

static const char replacement[] = "\xef\xbf\xbd";

/*
 * For lead byte c: how many continuation bytes follow it (0: c cannot
 * lead a sequence), and the range the first of them must lie in.  The
 * byte ranges are those of the WHATWG decoder (no overlongs, no
 * surrogates, nothing past U+10FFFF).
 */
static size_t lead_bounds(unsigned char c, unsigned char *lo,
			  unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF)
		return 1;
	if (c >= 0xE0 && c <= 0xEF) {
		if (c == 0xE0)
			*lo = 0xA0;
		else if (c == 0xED)
			*hi = 0x9F;
		return 2;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (c == 0xF0)
			*lo = 0x90;
		else if (c == 0xF4)
			*hi = 0x8F;
		return 3;
	}
	return 0;
}

/*
 * Length of the valid sequence starting at s (at most len bytes), 0 when
 * the bytes there are invalid or incomplete.
 */
static size_t valid_seq(const unsigned char *s, size_t len)
{
	unsigned char lo, hi;
	size_t need, i;

	if (s[0] < 0x80)
		return 1;
	need = lead_bounds(s[0], &lo, &hi);
	if (!need)
		return 0;
	if (len < need + 1)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i <= need; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return need + 1;
}

/*
 * How many bytes at s form the maximal subpart of an invalid sequence:
 * the lead byte plus the continuation bytes that were still acceptable.
 * Sets *incomplete when the input ended inside a possibly valid sequence.
 */
static size_t invalid_span(const unsigned char *s, size_t len, int *incomplete)
{
	unsigned char lo, hi;
	size_t need = lead_bounds(s[0], &lo, &hi), i;

	*incomplete = 0;
	if (!need)
		return 1;
	for (i = 1; i <= need; i++) {
		if (i >= len) {
			*incomplete = 1;
			return i;
		}
		if (s[i] < lo || s[i] > hi)
			return i;
		lo = 0x80;
		hi = 0xBF;
	}
	return need + 1;	/* not reached for invalid input */
}

size_t utf8_valid_prefix(const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0;

	while (i < len) {
		size_t n;

		if (s[i] < 0x80) {
			i++;
			continue;
		}
		n = valid_seq(s + i, len - i);
		if (!n)
			break;
		i += n;
	}
	return i;
}

size_t utf8_repair_chunk(struct strbuf *out, const char *buf, size_t len,
			 int final, size_t *nrep)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0;

	while (i < len) {
		size_t ok = utf8_valid_prefix((const char *)s + i, len - i);
		size_t n;
		int incomplete;

		strbuf_add(out, s + i, ok);
		i += ok;
		if (i == len)
			break;
		n = invalid_span(s + i, len - i, &incomplete);
		if (incomplete && !final)
			return i;
		strbuf_add(out, replacement, 3);
		if (nrep)
			(*nrep)++;
		i += n;
	}
	return i;
}

size_t utf8_repair(struct strbuf *out, const char *buf, size_t len)
{
	size_t nrep = 0;

	utf8_repair_chunk(out, buf, len, 1, &nrep);
	return nrep;
}

void wtf8_add(struct strbuf *sb, uint32_t cp)
{
	char b[4];

	if (cp >= 0xDC00 && cp <= 0xDFFF && sb->len >= 3) {
		const unsigned char *t = (unsigned char *)sb->buf + sb->len - 3;

		if (t[0] == 0xED && t[1] >= 0xA0 && t[1] <= 0xAF) {
			uint32_t high = 0xD000 | ((t[1] & 0x3F) << 6) |
					(t[2] & 0x3F);

			cp = 0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00);
			strbuf_setlen(sb, sb->len - 3);
		}
	}
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
		return;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		strbuf_add(sb, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		strbuf_add(sb, b, 3);
	} else {
		b[0] = (char)(0xF0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		strbuf_add(sb, b, 4);
	}
}

uint32_t wtf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t cp;

	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if (s[0] < 0xE0) {
		cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
		*p = s + 2;
	} else if (s[0] < 0xF0) {
		cp = ((uint32_t)(s[0] & 0x0F) << 12) |
		     ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		*p = s + 3;
	} else {
		cp = ((uint32_t)(s[0] & 0x07) << 18) |
		     ((uint32_t)(s[1] & 0x3F) << 12) |
		     ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
		*p = s + 4;
	}
	return cp;
}

/* Next UTF-16 code unit of a WTF-8 string; *pending holds a trail unit. */
static int next_unit(const unsigned char **p, const unsigned char *e,
		     uint32_t *pending, uint32_t *unit)
{
	uint32_t cp;

	if (*pending) {
		*unit = *pending;
		*pending = 0;
		return 1;
	}
	if (*p >= e)
		return 0;
	cp = wtf8_next(p);
	if (cp >= 0x10000) {
		*unit = 0xD800 + ((cp - 0x10000) >> 10);
		*pending = 0xDC00 + ((cp - 0x10000) & 0x3FF);
	} else
		*unit = cp;
	return 1;
}

static int utf16_cmp_units(const unsigned char *pa, const unsigned char *ea,
			   const unsigned char *pb, const unsigned char *eb)
{
	uint32_t qa = 0, qb = 0, ua, ub;

	for (;;) {
		int ha = next_unit(&pa, ea, &qa, &ua);
		int hb = next_unit(&pb, eb, &qb, &ub);

		if (!ha || !hb)
			return ha - hb;
		if (ua != ub)
			return ua < ub ? -1 : 1;
	}
}

/*
 * UTF-16 order differs from byte (= code point) order only where a code
 * point above U+FFFF meets one in U+E000..U+FFFF (the former's lead
 * surrogate sorts first) or a lone surrogate.  So skip the common byte
 * prefix quickly and compare code units from the first code point that
 * differs.
 */
int utf16_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	const unsigned char *pa = (const unsigned char *)a;
	const unsigned char *pb = (const unsigned char *)b;
	const unsigned char *ea = pa + alen, *eb = pb + blen;
	while (pa < ea && pb < eb && *pa == *pb) {
		pa++;
		pb++;
	}
	if (pa == ea || pb == eb)
		return (pa == ea ? 0 : 1) - (pb == eb ? 0 : 1);
	/* Back up to the start of the code points that differ. */
	while (pa > (const unsigned char *)a && (*pa & 0xC0) == 0x80) {
		pa--;
		pb--;
	}
	return utf16_cmp_units(pa, ea, pb, eb);
}

size_t utf8_seq_length(unsigned char lead)
{
	return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

size_t utf8_code_points(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xC0) != 0x80;
	return n;
}

size_t utf8_offset_of(const char *s, size_t len, size_t cp)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && !cp--)
			return i;
	return len;
}

size_t utf16_length(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + len;
	size_t n = 0;

	for (; p < e; p++) {
		if ((*p & 0xC0) != 0x80)
			n++;
		if (*p >= 0xF0)
			n++;
	}
	return n;
}
