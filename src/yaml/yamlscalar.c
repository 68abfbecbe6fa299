/*
 * Scalars as yaml@2.8.3 resolves them: the YAML 1.2 core schema's
 * patterns and number parsing, explicit tags, !!binary, and the decoding
 * of double-quoted scalars.
 */
#include "config.h"
#include "yamlscalar.h"
#include "strutil.h"
#include "yamlload.h"
#include "usage.h"
#include "utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define YAML_TAG_PREFIX "tag:yaml.org,2002:"

static int all_digits(const char *s, size_t len, int (*ok)(int))
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (!ok((unsigned char)s[i]))
			return 0;
	return 1;
}

static int is_dec(int c)
{
	return c >= '0' && c <= '9';
}

static int is_oct(int c)
{
	return c >= '0' && c <= '7';
}

static int is_hex(int c)
{
	return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int hexval(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/*
 * parseInt(digits, 8 or 16): exact, then rounded to nearest even as V8
 * does for power-of-two radixes.
 */
double yl_parse_pow2_radix(const char *s, size_t len, int bits_per_digit)
{
	uint64_t mant = 0;
	int nbits = 0, round = 0, sticky = 0;
	long extra = 0;	/* bits dropped below the 54 kept */
	size_t i;

	for (i = 0; i < len; i++) {
		int d = hexval((unsigned char)s[i]), b;

		for (b = bits_per_digit - 1; b >= 0; b--) {
			int bit = (d >> b) & 1;

			if (!nbits && !bit)
				continue;
			if (nbits < 54) {
				mant = (mant << 1) | (uint64_t)bit;
				nbits++;
			} else {
				sticky |= bit;
				extra++;
			}
		}
	}
	if (nbits <= 53)
		return (double)mant;
	/* 54 bits kept: the lowest is the rounding bit. */
	round = (int)(mant & 1);
	mant >>= 1;
	extra++;
	if (round && (sticky || (mant & 1)))
		mant++;
	if (extra > 1100)
		return INFINITY;
	return ldexp((double)mant, (int)extra);
}

/*
 * The UTF-16 units of UTF-8 text s, each truncated to its low byte, as
 * Node's base64 decoder reads a string: 'é' (U+00E9) is 0xE9, outside
 * the alphabet, but U+0141 is 0x41, an 'A', and a surrogate 0xD83D is
 * 0x3D, an '='.  Ill-formed bytes count as U+FFFD, as Node decodes them.
 */
static void utf16_low_bytes(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n = utf8_seq_length(u[i]), k;
		uint32_t cp;

		if (n == 1) {
			strbuf_addch(out, u[i++]);
			continue;
		}
		if (!n || i + n > len || utf8_valid_prefix(s + i, n) != n) {
			strbuf_addch(out, 0xFD);
			i++;
			continue;
		}
		cp = u[i] & (0xFF >> (n + 1));
		for (k = 1; k < n; k++)
			cp = (cp << 6) | (u[i + k] & 0x3F);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			strbuf_addch(out, (int)((0xD800 + (cp >> 10)) & 0xFF));
			cp = 0xDC00 + (cp & 0x3FF);
		}
		strbuf_addch(out, (int)(cp & 0xFF));
		i += n;
	}
}

/*
 * Node's Buffer.from(s, "base64"), which yaml's !!binary uses: both
 * alphabets, characters outside them skipped, decoding stops at '=' or
 * at the end, a lone trailing character dropped; the characters are
 * UTF-16 units truncated to bytes (utf16_low_bytes()).
 */
static void decode_base64_units(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 0;
	unsigned hi = 0;
	int slot = 0;

	for (;;) {
		unsigned lo;

		for (;;) {
			unsigned char c;

			if (i >= len)
				return;
			c = (unsigned char)s[i++];
			lo = (unsigned)base64_digit(c, 1);
			if (lo < 64)
				break;
			if (c == '=' || i >= len)
				return;
		}
		switch (slot) {
		case 1:
			strbuf_addch(out, (int)(((hi & 0x3F) << 2) | ((lo & 0x30) >> 4)));
			break;
		case 2:
			strbuf_addch(out, (int)(((hi & 0x0F) << 4) | ((lo & 0x3C) >> 2)));
			break;
		case 3:
			strbuf_addch(out, (int)(((hi & 0x03) << 6) | (lo & 0x3F)));
			break;
		}
		if (i >= len)
			return;
		hi = lo;
		slot = (slot + 1) % 4;
	}
}

static size_t count_digits(const char *s, size_t i, size_t n, size_t max)
{
	size_t k = 0;

	while (i + k < n && k < max && is_dec((unsigned char)s[i + k]))
		k++;
	return k;
}

/*
 * yaml's timestamp pattern: yyyy-m?m-d?d, optionally followed by t, T or
 * blanks, h?h:m?m:s?s(.s+)?, blanks and a zone Z or [-+]h?h(:mm)?.
 */
static int match_timestamp(const char *s, size_t n)
{
	size_t i = 0, k;

	if (count_digits(s, 0, n, 4) != 4 || n < 5 || s[4] != '-')
		return 0;
	i = 5;
	if (!(k = count_digits(s, i, n, 2)) || i + k >= n || s[i + k] != '-')
		return 0;
	i += k + 1;
	if (!(k = count_digits(s, i, n, 2)))
		return 0;
	i += k;
	if (i == n)
		return 1;
	if (s[i] == 't' || s[i] == 'T')
		i++;
	else if (s[i] == ' ' || s[i] == '\t')
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	else
		return 0;
	if (!(k = count_digits(s, i, n, 2)) || i + k >= n || s[i + k] != ':')
		return 0;
	i += k + 1;
	if (!(k = count_digits(s, i, n, 2)) || i + k >= n || s[i + k] != ':')
		return 0;
	i += k + 1;
	if (!(k = count_digits(s, i, n, 2)))
		return 0;
	i += k;
	if (i < n && s[i] == '.') {
		if (!(k = count_digits(s, i + 1, n, (size_t)-1)))
			return 0;
		i += k + 1;
	}
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n)
		return s[n - 1] != ' ' && s[n - 1] != '\t';
	if (s[i] == 'Z')
		return i + 1 == n;
	if (s[i] != '-' && s[i] != '+')
		return 0;
	i++;
	/* [012]?[0-9] */
	k = count_digits(s, i, n, 2);
	if (!k || (k == 2 && s[i] > '2'))
		return 0;
	i += k;
	if (i == n)
		return 1;
	return s[i] == ':' && count_digits(s, i + 1, n, 2) == 2 && i + 3 == n;
}


static int match_null(const char *s, size_t n)
{
	return !n || (n == 1 && s[0] == '~') ||
	       (n == 4 && (!memcmp(s, "null", 4) || !memcmp(s, "Null", 4) ||
			   !memcmp(s, "NULL", 4)));
}

static int match_bool(const char *s, size_t n, int *val)
{
	if (n == 4 && (!memcmp(s, "true", 4) || !memcmp(s, "True", 4) ||
		       !memcmp(s, "TRUE", 4))) {
		*val = 1;
		return 1;
	}
	if (n == 5 && (!memcmp(s, "false", 5) || !memcmp(s, "False", 5) ||
		       !memcmp(s, "FALSE", 5))) {
		*val = 0;
		return 1;
	}
	return 0;
}

/* The three int forms of the core schema, in the schema's order. */
static int match_int(const char *s, size_t n, double *val)
{
	if (n > 2 && s[0] == '0' && s[1] == 'o' &&
	    all_digits(s + 2, n - 2, is_oct)) {
		*val = yl_parse_pow2_radix(s + 2, n - 2, 3);
		return 1;
	}
	if (all_digits(s + (n && (s[0] == '-' || s[0] == '+')),
		       n - (n && (s[0] == '-' || s[0] == '+')), is_dec)) {
		*val = strtod(s, NULL);
		return 1;
	}
	if (n > 2 && s[0] == '0' && s[1] == 'x' &&
	    all_digits(s + 2, n - 2, is_hex)) {
		*val = yl_parse_pow2_radix(s + 2, n - 2, 4);
		return 1;
	}
	return 0;
}

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?) with or without [eE][-+]?[0-9]+ */
static int match_float(const char *s, size_t n, double *val)
{
	size_t i = 0, d1 = 0, d2 = 0;
	int dot = 0;

	if (n == 4 || n == 5) {
		const char *t = s + (n == 5);

		if (n == 5 && s[0] != '-' && s[0] != '+')
			goto numeric;
		if (!memcmp(t, ".inf", 4) || !memcmp(t, ".Inf", 4) ||
		    !memcmp(t, ".INF", 4)) {
			*val = s[0] == '-' ? -INFINITY : INFINITY;
			return 1;
		}
		if (n == 4 && (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) ||
			       !memcmp(s, ".NAN", 4))) {
			*val = NAN;
			return 1;
		}
	}
numeric:
	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	while (i < n && is_dec((unsigned char)s[i])) {
		i++;
		d1++;
	}
	if (i < n && s[i] == '.') {
		dot = 1;
		i++;
		while (i < n && is_dec((unsigned char)s[i])) {
			i++;
			d2++;
		}
	}
	if (!d1 && !d2)
		return 0;
	if (!d1 && dot && !d2)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t de = 0;

		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		while (i < n && is_dec((unsigned char)s[i])) {
			i++;
			de++;
		}
		if (!de || i != n)
			return 0;
	} else if (i != n || !dot)
		return 0;	/* a plain integer is not a float */
	*val = strtod(s, NULL);
	return 1;
}

int yl_resolve_scalar(struct value *v, struct arena *arena, const char *s,
			size_t n, int plain, const char *tag, struct strbuf *why)
{
	const char *name = NULL;
	int b;
	double d;

	if (tag && !strncmp(tag, YAML_TAG_PREFIX, strlen(YAML_TAG_PREFIX)))
		name = tag + strlen(YAML_TAG_PREFIX);

	if (!tag && plain) {
		if (match_null(s, n)) {
			v->kind = VALUE_NULL;
			return 0;
		}
		if (match_bool(s, n, &b)) {
			v->kind = VALUE_BOOL;
			v->u.boolean = b;
			return 0;
		}
		if (match_int(s, n, &d) || match_float(s, n, &d)) {
			v->kind = VALUE_NUMBER;
			v->u.number = d;
			return 0;
		}
	} else if (name) {
		/*
		 * An explicit core tag applies only when its own pattern
		 * matches; otherwise yaml warns and keeps the string.
		 */
		if (!strcmp(name, "null") && match_null(s, n)) {
			v->kind = VALUE_NULL;
			return 0;
		}
		if (!strcmp(name, "bool") && match_bool(s, n, &b)) {
			v->kind = VALUE_BOOL;
			v->u.boolean = b;
			return 0;
		}
		if ((!strcmp(name, "int") && match_int(s, n, &d)) ||
		    (!strcmp(name, "float") && match_float(s, n, &d))) {
			v->kind = VALUE_NUMBER;
			v->u.number = d;
			return 0;
		}
		if (!strcmp(name, "binary")) {
			struct strbuf bytes = STRBUF_INIT;
			struct strbuf units = STRBUF_INIT;

			utf16_low_bytes(&units, s, n);
			decode_base64_units(&bytes, units.buf, units.len);
			strbuf_release(&units);
			v->kind = VALUE_BYTES;
			v->u.str.len = bytes.len;
			v->u.str.ptr = arena_memdup(arena, bytes.buf,
						    bytes.len);
			strbuf_release(&bytes);
			return 0;
		}
		if (!strcmp(name, "timestamp")) {
			/*
			 * A Date, whose canonical form is {} (it has no own
			 * enumerable keys); resolve throws when the text
			 * does not match.
			 */
			if (!match_timestamp(s, n)) {
				strbuf_addstr(why, "!!timestamp expects a date, "
					      "starting with yyyy-mm-dd");
				return LOAD_EINVALID;
			}
			v->kind = VALUE_MAP;
			v->nr = 0;
			v->u.items = NULL;
			v->yflags |= VALUE_YF_DATE;
			return 0;
		}
	}
	v->kind = VALUE_STRING;
	v->u.str.ptr = arena_memdup(arena, s, n);
	v->u.str.len = n;
	return 0;
}

static int bad_escape(struct strbuf *why)
{
	strbuf_addstr(why, "invalid escape sequence in a double-quoted scalar");
	return LOAD_EINVALID;
}

/*
 * Works on bytes: every character doubleQuotedValue() looks at is ASCII,
 * so UTF-8 sequences pass through whole.
 */
int yl_decode_double_quoted(struct strbuf *out, const char *src, size_t len,
			      struct strbuf *why)
{
	size_t i;

	for (i = 1; i + 1 < len; i++) {
		char ch = src[i];

		if (ch == '\r' && src[i + 1] == '\n')
			continue;
		if (ch == '\n') {
			int folded = 0;

			while (i + 1 < len) {
				char c = src[i + 1];

				/* src[len - 1] is the quote, so i + 2 < len. */
				if (c == '\r' && src[i + 2] != '\n')
					break;
				if (c != ' ' && c != '\t' && c != '\n' &&
				    c != '\r')
					break;
				if (c == '\n') {
					strbuf_addch(out, '\n');
					folded = 1;
				}
				i++;
			}
			if (!folded)
				strbuf_addch(out, ' ');
		} else if (ch == '\\') {
			char next = src[++i];
			int hexlen = 0;

			switch (next) {
			case '0': strbuf_addch(out, '\0'); break;
			case 'a': strbuf_addch(out, '\a'); break;
			case 'b': strbuf_addch(out, '\b'); break;
			case 'e': strbuf_addch(out, 0x1b); break;
			case 'f': strbuf_addch(out, '\f'); break;
			case 'n': strbuf_addch(out, '\n'); break;
			case 'r': strbuf_addch(out, '\r'); break;
			case 't': strbuf_addch(out, '\t'); break;
			case 'v': strbuf_addch(out, '\v'); break;
			case 'N': wtf8_add(out, 0x85); break;
			case '_': wtf8_add(out, 0xA0); break;
			case 'L': wtf8_add(out, 0x2028); break;
			case 'P': wtf8_add(out, 0x2029); break;
			case ' ': strbuf_addch(out, ' '); break;
			case '"': strbuf_addch(out, '"'); break;
			case '/': strbuf_addch(out, '/'); break;
			case '\\': strbuf_addch(out, '\\'); break;
			case '\t': strbuf_addch(out, '\t'); break;
			case '\n':
				while (i + 1 < len &&
				       (src[i + 1] == ' ' || src[i + 1] == '\t'))
					i++;
				break;
			case 'x': hexlen = 2; break;
			case 'u': hexlen = 4; break;
			case 'U': hexlen = 8; break;
			default:
				if (next == '\r' && i + 1 < len &&
				    src[i + 1] == '\n') {
					i++;
					while (i + 1 < len &&
					       (src[i + 1] == ' ' ||
						src[i + 1] == '\t'))
						i++;
					break;
				}
				return bad_escape(why);
			}
			if (hexlen) {
				uint32_t cp = 0;
				int k;

				/* The closing quote is not a digit. */
				if (i + hexlen >= len - 1)
					return bad_escape(why);
				for (k = 1; k <= hexlen; k++) {
					if (!is_hex((unsigned char)src[i + k]))
						return bad_escape(why);
					cp = (cp << 4) | (uint32_t)hexval(
						(unsigned char)src[i + k]);
				}
				if (cp > 0x10FFFF)
				{
					strbuf_addstr(why, "escape of a code point beyond U+10FFFF");
					return LOAD_EINVALID;
				}
				wtf8_add(out, cp);
				i += hexlen;
			}
		} else if (ch == ' ' || ch == '\t') {
			size_t ws = i;

			while (i + 1 < len && (src[i + 1] == ' ' || src[i + 1] == '\t'))
				i++;
			/* Trailing white space of a line is dropped. */
			if (!(src[i + 1] == '\n' ||
			      (src[i + 1] == '\r' && src[i + 2] == '\n')))
				strbuf_add(out, src + ws, i + 1 - ws);
		} else
			strbuf_addch(out, ch);
	}
	return 0;
}


static int is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * yaml's foldLines(): the first line loses trailing white space, inner
 * lines both leading and trailing, the last only leading; a single line
 * break folds to a space, each empty line to a newline.
 */
void yl_fold_lines(struct strbuf *out, const char *src, size_t len)
{
	const char *nl = memchr(src, '\n', len), *end = src + len, *p, *q;
	char sep = ' ';

	if (!nl) {
		strbuf_add(out, src, len);
		return;
	}
	q = nl;
	if (q > src && q[-1] == '\r')
		q--;
	while (q > src && is_ws(q[-1]))
		q--;
	strbuf_add(out, src, (size_t)(q - src));
	p = nl + 1;
	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		const char *s = p;

		q = nl;
		if (q > s && q[-1] == '\r')
			q--;
		while (s < q && is_ws(*s))
			s++;
		while (q > s && is_ws(q[-1]))
			q--;
		if (q == s) {
			if (sep == '\n')
				strbuf_addch(out, '\n');
			else
				sep = '\n';
		} else {
			strbuf_addch(out, sep);
			strbuf_add(out, s, (size_t)(q - s));
			sep = ' ';
		}
		p = nl + 1;
	}
	while (p < end && is_ws(*p))
		p++;
	strbuf_addch(out, sep);
	strbuf_add(out, p, (size_t)(end - p));
}

void yl_single_quoted_value(struct strbuf *out, const char *src, size_t len)
{
	struct strbuf folded = STRBUF_INIT;
	size_t i;

	yl_fold_lines(&folded, src + 1, len - 2);
	for (i = 0; i < folded.len; i++) {
		strbuf_addch(out, folded.buf[i]);
		if (folded.buf[i] == '\'' && i + 1 < folded.len &&
		    folded.buf[i + 1] == '\'')
			i++;
	}
	strbuf_release(&folded);
}

struct bline {
	size_t indent;		/* leading spaces */
	const char *content;	/* the rest, '\r' included */
	size_t len;
};

static int blank_content(const struct bline *l)
{
	return !l->len || (l->len == 1 && l->content[0] == '\r');
}

/* yaml's splitLines(): split at "\n" followed by its run of spaces. */
static struct bline *split_block_lines(const char *src, size_t len,
				       size_t *nr_out)
{
	struct bline *lines = NULL;
	size_t nr = 0, alloc = 0;
	const char *p = src, *end = src + len;

	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		struct bline *l;

		ALLOC_GROW(lines, nr + 1, alloc);
		l = &lines[nr++];
		l->indent = 0;
		while (p + l->indent < e && p[l->indent] == ' ')
			l->indent++;
		l->content = p + l->indent;
		l->len = (size_t)(e - l->content);
		if (!nl)
			break;
		p = nl + 1;
	}
	*nr_out = nr;
	return lines;
}

/*
 * The first content line before chomp_start, and the indentation the
 * block strips (*trim_indent: from its indicator, or detected when
 * negative, -1 - the deepest leading empty line).  0, or LOAD_EINVALID
 * with the reason in why.
 */
static int block_content_start(const struct bline *lines, size_t chomp_start,
			       int *trim_indent, size_t *content_start,
			       struct strbuf *why)
{
	size_t i;

	for (i = 0; i < chomp_start; i++) {
		if (blank_content(&lines[i])) {
			if (*trim_indent < 0 && lines[i].indent > 0 &&
			    lines[i].indent > (size_t)-*trim_indent - 1)
				*trim_indent = -(int)lines[i].indent - 1;
			continue;
		}
		if (*trim_indent < 0) {
			if (lines[i].indent < (size_t)-*trim_indent - 1) {
				strbuf_addstr(why, "block scalar with more-indented "
					      "leading empty lines needs an "
					      "explicit indentation indicator");
				return LOAD_EINVALID;
			}
			*trim_indent = (int)lines[i].indent;
		} else if (lines[i].indent < (size_t)*trim_indent) {
			strbuf_addstr(why, "block scalar less indented than "
				      "its indentation indicator");
			return LOAD_EINVALID;
		}
		*content_start = i;
		break;
	}
	return 0;
}

/*
 * The content lines [content_start, chomp_start), literal or folded as
 * yaml joins them.  0, or LOAD_EINVALID with the reason in why.
 */
static int block_content_lines(struct strbuf *out, const struct bline *lines,
			       size_t content_start, size_t chomp_start,
			       int folded, size_t trim, struct strbuf *why)
{
	char sep = 0;
	int prev_more = 0;
	size_t i;

	for (i = content_start; i < chomp_start; i++) {
		const struct bline *l = &lines[i];
		size_t clen = l->len;
		size_t extra = l->indent > trim ? l->indent - trim : 0;

		if (clen && l->content[clen - 1] == '\r')
			clen--;
		if (clen && l->indent < trim) {
			strbuf_addstr(why, "block scalar line less indented "
				      "than its first line");
			return LOAD_EINVALID;
		}
		if (!folded) {
			if (sep)
				strbuf_addch(out, sep);
			strbuf_addf(out, "%*s", (int)extra, "");
			strbuf_add(out, l->content, clen);
			sep = '\n';
		} else if (l->indent > trim ||
			   (clen && l->content[0] == '\t')) {
			/* More-indented lines keep their line breaks. */
			if (sep == ' ')
				sep = '\n';
			else if (!prev_more && sep == '\n')
				strbuf_addch(out, '\n');
			if (sep)
				strbuf_addch(out, sep);
			strbuf_addf(out, "%*s", (int)extra, "");
			strbuf_add(out, l->content, clen);
			sep = '\n';
			prev_more = 1;
		} else if (!clen) {
			if (sep == '\n')
				strbuf_addch(out, '\n');
			else
				sep = '\n';
		} else {
			if (sep)
				strbuf_addch(out, sep);
			strbuf_add(out, l->content, clen);
			sep = ' ';
			prev_more = 0;
		}
	}
	return 0;
}

int yl_block_scalar_value(struct strbuf *out, const char *src, size_t len,
			    int folded, int chomp, int trim_indent,
			    struct strbuf *why)
{
	struct bline *lines;
	size_t nr, i, chomp_start, content_start = 0;
	int ret = 0;

	if (!len)
		return 0;

	lines = split_block_lines(src, len, &nr);
	chomp_start = nr;
	for (i = nr; i-- > 0;) {
		if (blank_content(&lines[i]))
			chomp_start = i;
		else
			break;
	}
	if (!chomp_start) {
		size_t breaks = nr > 1 ? nr - 1 : 1;

		if (chomp == '+')
			for (i = 0; i < breaks; i++)
				strbuf_addch(out, '\n');
		goto out;
	}
	ret = block_content_start(lines, chomp_start, &trim_indent,
				  &content_start, why);
	if (ret)
		goto out;
	/* Trailing empty lines indented past the content are content. */
	for (i = nr; i-- > chomp_start;)
		if (lines[i].indent > (size_t)trim_indent) {
			chomp_start = i + 1;
			break;
		}
	for (i = 0; i < content_start; i++) {
		if (lines[i].indent > (size_t)trim_indent)
			strbuf_addf(out, "%*s",
				    (int)(lines[i].indent - trim_indent), "");
		strbuf_addch(out, '\n');
	}
	ret = block_content_lines(out, lines, content_start, chomp_start,
				  folded, (size_t)trim_indent, why);
	if (ret)
		goto out;
	if (chomp == '+') {
		for (i = chomp_start; i < nr; i++) {
			strbuf_addch(out, '\n');
			if (lines[i].indent > (size_t)trim_indent)
				strbuf_addf(out, "%*s",
					    (int)(lines[i].indent - trim_indent),
					    "");
		}
		if (!out->len || out->buf[out->len - 1] != '\n')
			strbuf_addch(out, '\n');
	} else if (chomp != '-')
		strbuf_addch(out, '\n');
out:
	free(lines);
	return ret;
}
