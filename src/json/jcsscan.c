/*
 * Recognising RFC 8785 canonical JSON in one pass (jcsscan.h).
 *
 * Canonical text is narrow: no white space; keys sorted by UTF-16 code
 * units, so strictly increasing (which also rules out the duplicates
 * jsonload_ijson() refuses); strings with only the escapes
 * canon_add_string() writes (\" \\ \b \f \n \r \t and \u00xx, lower-case,
 * for the other control characters); numbers exactly as numfmt_json()
 * prints their double.  Every check below is one of those rules or one
 * of jansson's (UTF-8 without overlongs or surrogates, no U+0000 in a
 * key); anything else returns 0 for the full path to judge.
 */
#include "config.h"
#include "jcsscan.h"
#include "numfmt.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const unsigned char *p, *end, *start;
	struct arena *a;
	int depth;
};

static struct value *scan_value(struct scan *s);

static int peek(const struct scan *s)
{
	return s->p < s->end ? *s->p : -1;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Whether any byte of v is zero (exact as a truth value). */
static uint64_t has_zero(uint64_t v)
{
	return (v - ONES) & ~v & HIGHS;
}

/*
 * Skip the bytes that stand for themselves in a canonical string:
 * printable ASCII but '"' and '\\'.  Eight at a time while none of them
 * is a quote, a backslash, a control character or non-ASCII.
 */
static const unsigned char *skip_plain(const unsigned char *p,
				       const unsigned char *end)
{
	while (end - p >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		/* (v - 0x20...) & ~v & HIGHS: a byte below 0x20 */
		if ((v & HIGHS) | ((v - 0x20 * ONES) & ~v & HIGHS) |
		    has_zero(v ^ ('"' * ONES)) | has_zero(v ^ ('\\' * ONES)))
			break;
		p += 8;
	}
	while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
		p++;
	return p;
}

static int hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;	/* upper case is not canonical */
}

/*
 * The length of the canonical escape at p (a backslash), 0 if there is
 * none; its character goes to *c.  canon_add_string() writes \u00xx only
 * for the control characters without a short form.
 */
static size_t escape(const unsigned char *p, const unsigned char *end,
		     unsigned char *c)
{
	static const char shorts[] = "\"\"\\\\b\bf\fn\nr\rt\t";
	const char *at;
	int hi, lo;

	if (end - p < 2)
		return 0;
	if (p[1] != 'u') {
		for (at = shorts; *at; at += 2)
			if (p[1] == (unsigned char)at[0]) {
				*c = (unsigned char)at[1];
				return 2;
			}
		return 0;
	}
	if (end - p < 6 || p[2] != '0' || p[3] != '0')
		return 0;
	hi = hex_value(p[4]);
	lo = hex_value(p[5]);
	if (hi < 0 || lo < 0 || hi > 1)
		return 0;
	*c = (unsigned char)(hi << 4 | lo);
	if (*c == '\b' || *c == '\f' || *c == '\n' || *c == '\r' || *c == '\t')
		return 0;
	return 6;
}

/*
 * The string whose opening quote s->p is on, in canonical form: its value
 * (NUL-terminated, in the arena) goes to *out and *len.
 */
static int scan_string(struct scan *s, const char **out, size_t *len)
{
	const unsigned char *p = s->p + 1, *begin = p, *q;
	unsigned char c;
	size_t n, escaped = 0;
	char *dst;

	for (;;) {
		p = skip_plain(p, s->end);
		if (p == s->end || *p < 0x20)
			return 0;
		if (*p == '"')
			break;
		if (*p == '\\') {
			if (!(n = escape(p, s->end, &c)))
				return 0;
			p += n;
			escaped += n - 1;
			continue;
		}
		/* a run of non-ASCII bytes: whole UTF-8 sequences, as jansson
		 * wants them (no overlongs, surrogates or beyond U+10FFFF) */
		for (q = p; q < s->end && *q >= 0x80; q++)
			;
		if (utf8_valid_prefix((const char *)p, (size_t)(q - p)) !=
		    (size_t)(q - p))
			return 0;
		p = q;
	}
	n = (size_t)(p - begin);
	dst = arena_alloc(s->a, n - escaped + 1);
	if (!escaped) {
		memcpy(dst, begin, n);
	} else {
		const unsigned char *r = begin;
		char *w = dst;

		while (r < p) {
			if (*r == '\\') {
				r += escape(r, p, &c);
				*w++ = (char)c;
			} else {
				*w++ = (char)*r++;
			}
		}
	}
	dst[n - escaped] = '\0';
	*out = dst;
	*len = n - escaped;
	s->p = p + 1;
	return 1;
}

/*
 * A number as numfmt_json() prints the double strtod() reads from it
 * (jansson's reading with JSON_DECODE_INT_AS_REAL).
 */
static int scan_number(struct scan *s, double *out)
{
	const unsigned char *p = s->p, *q = p, *d;
	char tok[NUMFMT_MAX], back[NUMFMT_MAX], *end;
	size_t n, neg = *p == '-';
	double v;

	while (q < s->end && ((*q >= '0' && *q <= '9') || *q == '-' ||
			      *q == '+' || *q == '.' || *q == 'e'))
		q++;
	n = (size_t)(q - p);
	if (!n || n >= NUMFMT_MAX)
		return 0;
	/*
	 * An integer of at most 15 digits is exact in a double and printed
	 * digit for digit: canonical unless it has a leading zero or is -0.
	 */
	for (d = p + neg, v = 0; d < q && *d >= '0' && *d <= '9'; d++)
		v = v * 10 + (*d - '0');
	if (d == q && n > neg && n - neg <= 15 &&
	    (p[neg] != '0' || n == 1)) {
		*out = neg ? -v : v;
		s->p = q;
		return 1;
	}
	memcpy(tok, p, n);
	tok[n] = '\0';
	v = strtod(tok, &end);
	if (end != tok + n || numfmt_json(back, v) != n || memcmp(back, tok, n))
		return 0;
	*out = v;
	s->p = q;
	return 1;
}

static int scan_word(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return 0;
	s->p += n;
	return 1;
}

/* Append item to an array that grows in the arena. */
static void push(struct scan *s, struct value ***items, uint32_t *nr,
		 uint32_t *alloc, struct value *item)
{
	if (*nr == *alloc) {
		uint32_t want = *alloc ? 2 * *alloc : 16;
		struct value **grown = arena_alloc(s->a, want * sizeof(*grown));

		if (*nr)
			memcpy(grown, *items, *nr * sizeof(*grown));
		*items = grown;
		*alloc = want;
	}
	(*items)[(*nr)++] = item;
}

/*
 * The object s->p is on; with spans set (the root), where each member's
 * value lies, in an array that grows beside the items.
 */
static struct value *scan_map(struct scan *s, struct jcs_span **spans)
{
	struct value *map = value_new(s->a, VALUE_MAP), **items = NULL;
	const struct value *prev = NULL;
	uint32_t nr = 0, n_items = 0, alloc = 0, span_alloc = 0;

	s->p++;
	if (peek(s) == '}') {
		s->p++;
		map->u.items = arena_alloc(s->a, sizeof(*map->u.items));
		return map;
	}
	for (;;) {
		struct value *k = value_new(s->a, VALUE_STRING), *v;
		const unsigned char *at;

		if (peek(s) != '"' ||
		    !scan_string(s, &k->u.str.ptr, &k->u.str.len) ||
		    memchr(k->u.str.ptr, '\0', k->u.str.len) ||
		    (prev && utf16_cmp(prev->u.str.ptr, prev->u.str.len,
				       k->u.str.ptr, k->u.str.len) >= 0) ||
		    peek(s) != ':')
			return NULL;
		s->p++;
		at = s->p;
		if (!(v = scan_value(s)))
			return NULL;
		if (spans && nr == span_alloc) {
			struct jcs_span *grown;

			span_alloc = span_alloc ? 2 * span_alloc : 16;
			grown = arena_alloc(s->a, span_alloc * sizeof(*grown));
			if (nr)
				memcpy(grown, *spans, nr * sizeof(*grown));
			*spans = grown;
		}
		if (spans) {
			(*spans)[nr].off = (size_t)(at - s->start);
			(*spans)[nr].len = (size_t)(s->p - at);
		}
		push(s, &items, &n_items, &alloc, k);
		push(s, &items, &n_items, &alloc, v);
		nr++;
		prev = k;
		if (peek(s) == '}')
			break;
		if (peek(s) != ',')
			return NULL;
		s->p++;
	}
	s->p++;
	map->nr = nr;
	map->u.items = items;
	return map;
}

static struct value *scan_seq(struct scan *s)
{
	struct value *seq = value_new(s->a, VALUE_SEQ), **items = NULL;
	uint32_t alloc = 0;

	s->p++;
	if (peek(s) == ']') {
		s->p++;
		seq->u.items = arena_alloc(s->a, sizeof(*seq->u.items));
		return seq;
	}
	for (;;) {
		struct value *v = scan_value(s);

		if (!v)
			return NULL;
		push(s, &items, &seq->nr, &alloc, v);
		if (peek(s) == ']')
			break;
		if (peek(s) != ',')
			return NULL;
		s->p++;
	}
	s->p++;
	seq->u.items = items;
	return seq;
}

static struct value *scan_value(struct scan *s)
{
	struct value *v = NULL;
	int c = peek(s);

	switch (c) {
	case '{':
	case '[':
		if (s->depth >= JCS_SCAN_MAX_DEPTH)
			return NULL;
		s->depth++;
		v = c == '{' ? scan_map(s, NULL) : scan_seq(s);
		s->depth--;
		return v;
	case '"':
		v = value_new(s->a, VALUE_STRING);
		return scan_string(s, &v->u.str.ptr, &v->u.str.len) ? v : NULL;
	case 't':
	case 'f':
		v = value_new(s->a, VALUE_BOOL);
		v->u.boolean = c == 't';
		return scan_word(s, c == 't' ? "true" : "false") ? v : NULL;
	case 'n':
		v = value_new(s->a, VALUE_NULL);
		return scan_word(s, "null") ? v : NULL;
	default:
		if (c != '-' && (c < '0' || c > '9'))
			return NULL;
		v = value_new(s->a, VALUE_NUMBER);
		return scan_number(s, &v->u.number) ? v : NULL;
	}
}

int jcs_scan_object(struct value **out, struct jcs_span **spans,
		    struct arena *arena, const char *text, size_t len)
{
	struct scan s;
	struct value *root;

	s.start = s.p = (const unsigned char *)text;
	s.end = s.p + len;
	s.a = arena;
	s.depth = 1;
	*spans = NULL;
	if (peek(&s) != '{' || !(root = scan_map(&s, spans)) || s.p != s.end)
		return 0;
	*out = root;
	return 1;
}
