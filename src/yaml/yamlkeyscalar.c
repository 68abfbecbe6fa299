/*
 * Printing the scalars inside a collection key as yaml@2.8.3's
 * stringifyString(), stringifyNumber() and the tags' own printers do,
 * with foldFlowLines() for scalars long enough to fold.
 */
#include "config.h"
#include "yamlkey.h"
#include "yamlkey-priv.h"
#include "yamlload.h"
#include "yamlscalar.h"
#include "yaml11.h"
#include "json/canon.h"
#include "json/numfmt.h"
#include "usage.h"
#include "utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* /^(%|---|\.\.\.)/m: a line (after any JavaScript line terminator)
 * that starts like a directive or a document marker. */
static int has_document_marker(const char *s, size_t n)
{
	size_t i = 0;

	for (;;) {
		if (i < n && s[i] == '%')
			return 1;
		if (i + 3 <= n && (!memcmp(s + i, "---", 3) ||
				   !memcmp(s + i, "...", 3)))
			return 1;
		while (i < n && s[i] != '\n' && s[i] != '\r' &&
		       !(i + 2 < n && (unsigned char)s[i] == 0xE2 &&
			 (unsigned char)s[i + 1] == 0x80 &&
			 ((unsigned char)s[i + 2] & 0xFE) == 0xA8))
			i++;
		if (i >= n)
			return 0;
		i += s[i] == '\n' || s[i] == '\r' ? 1 : 3;
	}
}

/* s.replace(/\n+/g, `$&` + extra + indent) */
static void add_newline_runs(struct strbuf *out, const char *s, size_t n,
			     const char *extra, size_t indent)
{
	size_t i;

	for (i = 0; i < n; i++) {
		strbuf_addch(out, s[i]);
		if (s[i] == '\n' && (i + 1 == n || s[i + 1] != '\n')) {
			strbuf_addstr(out, extra);
			ykey_add_spaces(out, indent);
		}
	}
}
enum { FOLD_FLOW, FOLD_QUOTED };

/* text[i] as foldFlowLines() sees it: a UTF-16 unit, -1 past the end. */
static int unit_at(const uint16_t *u, size_t n, size_t i)
{
	return i < n ? u[i] : -1;
}

/*
 * The UTF-16 units of text into u, with the byte offset of each in off
 * ((size_t)-1 for the second unit of a surrogate pair) and off[n] the
 * length.  Returns n.
 */
static size_t to_units(const struct strbuf *text, uint16_t *u, size_t *off)
{
	const unsigned char *p = (const unsigned char *)text->buf;
	size_t n = 0, i;

	for (i = 0; i < text->len;) {
		const unsigned char *q = p + i;
		uint32_t cp = wtf8_next(&q);

		off[n] = i;
		if (cp >= 0x10000) {
			u[n++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
			off[n] = (size_t)-1;
			u[n++] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
		} else
			u[n++] = (uint16_t)cp;
		i = (size_t)(q - p);
	}
	off[n] = text->len;
	return n;
}

/* Write text with line breaks and indentation at the fold points. */
static int write_folds(struct walk *w, struct strbuf *out,
		       const struct strbuf *text, const size_t *off, size_t n,
		       const size_t *folds, size_t nfolds,
		       const unsigned char *escaped, size_t indent, int mode)
{
	size_t k;

	if (!nfolds) {
		strbuf_addbuf(out, text);
		return w->status;
	}
	for (k = 0; k < nfolds; k++) {
		size_t f = folds[k], e = k + 1 < nfolds && folds[k + 1] ?
					 folds[k + 1] : n;

		if (off[f] == (size_t)-1 || off[f + 1] == (size_t)-1 ||
		    off[e] == (size_t)-1)
			return ykey_refuse(w, LOAD_EUNSUPPORTED, "yaml would "
					   "fold a scalar in a collection key "
					   "inside a surrogate pair");
		if (!f) {
			strbuf_addch(out, '\n');
			ykey_add_spaces(out, indent);
			strbuf_add(out, text->buf, off[e]);
			continue;
		}
		if (!k)
			strbuf_add(out, text->buf, off[f]);
		if (mode == FOLD_QUOTED && escaped[f]) {
			strbuf_add(out, text->buf + off[f], off[f + 1] - off[f]);
			strbuf_addch(out, '\\');
		}
		strbuf_addch(out, '\n');
		ykey_add_spaces(out, indent);
		strbuf_add(out, text->buf + off[f + 1], off[e] - off[f + 1]);
	}
	return w->status;
}

/*
 * yaml's foldFlowLines() for flow and quoted scalars, lineWidth 80,
 * minContentWidth 20, over the UTF-16 units of text.  Writes the folded
 * text to out.  A fold that would split a surrogate pair is refused.
 */
static int fold_lines(struct walk *w, struct strbuf *out,
		      const struct strbuf *text, size_t indent, int mode,
		      const struct sctx *c)
{
	size_t n, nfolds = 0, end, end_step;
	size_t *off, *folds;
	unsigned char *escaped;
	uint16_t *u;
	long split = -1, esc_start = -1, esc_end = -1, ii;
	int prev = -1, ch;

	end_step = LINE_WIDTH + 1 > indent + MIN_CONTENT_WIDTH + 1 ?
		   LINE_WIDTH + 1 - indent : MIN_CONTENT_WIDTH + 1;
	if (c->implicit_key || ykey_u16len(text) <= end_step) {
		strbuf_addbuf(out, text);
		return 0;
	}
	u = xmalloc((text->len + 1) * sizeof(*u));
	off = xmalloc((text->len + 2) * sizeof(*off));
	n = to_units(text, u, off);
	folds = xmalloc((n + 1) * sizeof(*folds));
	escaped = xcalloc(n + 1, 1);
	end = LINE_WIDTH > indent ? LINE_WIDTH - indent : 0;
	if (c->indent_at_start >= 0) {
		if (c->indent_at_start > LINE_WIDTH - MIN_CONTENT_WIDTH)
			folds[nfolds++] = 0;
		else
			end = LINE_WIDTH - (size_t)c->indent_at_start;
	}
	for (ii = 0; (ch = unit_at(u, n, (size_t)ii)) >= 0; ii++) {
		if (mode == FOLD_QUOTED && ch == '\\') {
			int nx = unit_at(u, n, (size_t)ii + 1);

			esc_start = ii;
			ii += nx == 'x' ? 3 : nx == 'u' ? 5 : nx == 'U' ? 9 : 1;
			esc_end = ii;
		}
		if (ch == '\n') {
			end = (size_t)ii + indent + end_step;
			split = -1;
		} else {
			if (ch == ' ' && prev >= 0 && prev != ' ' &&
			    prev != '\n' && prev != '\t') {
				int nx = unit_at(u, n, (size_t)ii + 1);

				if (nx >= 0 && nx != ' ' && nx != '\n' &&
				    nx != '\t')
					split = ii;
			}
			if ((size_t)ii >= end) {
				if (split > 0) {
					folds[nfolds++] = (size_t)split;
					end = (size_t)split + end_step;
					split = -1;
				} else if (mode == FOLD_QUOTED) {
					long j;

					while (prev == ' ' || prev == '\t') {
						prev = ch;
						ch = unit_at(u, n, (size_t)++ii);
					}
					j = ii > esc_end + 1 ? ii - 2 : esc_start - 1;
					if (j < 0 || (size_t)j >= n) {
						ykey_refuse(w, LOAD_EUNSUPPORTED,
						       "a scalar in a collection "
						       "key that yaml folds oddly");
						break;
					}
					if (escaped[j]) {
						nfolds = 0;
						break;
					}
					folds[nfolds++] = (size_t)j;
					escaped[j] = 1;
					end = (size_t)j + end_step;
					split = -1;
				}
			}
		}
		prev = ch;
	}
	if (!w->status)
		write_folds(w, out, text, off, n, folds, nfolds, escaped,
			    indent, mode);
	free(u);
	free(off);
	free(folds);
	free(escaped);
	return w->status;
}

/* The indent doubleQuotedString() and singleQuotedString() use. */
static size_t quote_indent(const struct sctx *c, const char *s, size_t n)
{
	return c->indent ? c->indent : has_document_marker(s, n) ? 2 : 0;
}

int ykey_double_quoted(struct walk *w, struct strbuf *out, const char *s,
		       size_t n, const struct sctx *c)
{
	struct strbuf json = STRBUF_INIT, str = STRBUF_INIT;
	size_t indent = quote_indent(c, s, n), i, start = 0, jlen;
	const char *j;
	int ret;

	canon_add_string(&json, s, n);
	j = json.buf;
	jlen = json.len;
	for (i = 0; i < jlen; i++) {
		char ch = j[i];

		if (ch == ' ' && j[i + 1] == '\\' && j[i + 2] == 'n') {
			strbuf_add(&str, j + start, i - start);
			strbuf_addstr(&str, "\\ ");
			i++;
			start = i;
			ch = '\\';
		}
		if (ch != '\\')
			continue;
		if (j[i + 1] == 'u') {
			const char *code = j + i + 2;

			strbuf_add(&str, j + start, i - start);
			if (!memcmp(code, "0000", 4))
				strbuf_addstr(&str, "\\0");
			else if (!memcmp(code, "0007", 4))
				strbuf_addstr(&str, "\\a");
			else if (!memcmp(code, "000b", 4))
				strbuf_addstr(&str, "\\v");
			else if (!memcmp(code, "001b", 4))
				strbuf_addstr(&str, "\\e");
			else if (!memcmp(code, "00", 2)) {
				strbuf_addstr(&str, "\\x");
				strbuf_add(&str, code + 2, 2);
			} else
				strbuf_add(&str, j + i, 6);
			i += 5;
			start = i + 1;
		} else if (j[i + 1] == 'n') {
			if (c->implicit_key || j[i + 2] == '"' ||
			    utf16_length(j, jlen) < MIN_MULTILINE) {
				i++;
				continue;
			}
			/* Folding will eat the first line break. */
			strbuf_add(&str, j + start, i - start);
			strbuf_addstr(&str, "\n\n");
			while (j[i + 2] == '\\' && j[i + 3] == 'n' &&
			       j[i + 4] != '"') {
				strbuf_addch(&str, '\n');
				i += 2;
			}
			ykey_add_spaces(&str, indent);
			if (j[i + 2] == ' ')
				strbuf_addch(&str, '\\');
			i++;
			start = i + 1;
		} else
			i++;
	}
	if (start)
		strbuf_add(&str, j + start, jlen - start);
	else
		strbuf_addbuf(&str, &json);
	ret = fold_lines(w, out, &str, indent, FOLD_QUOTED, c);
	strbuf_release(&json);
	strbuf_release(&str);
	return ret;
}

static int has_blank_around_newline(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i++)
		if ((s[i] == '\n' && (s[i + 1] == ' ' || s[i + 1] == '\t')) ||
		    ((s[i] == ' ' || s[i] == '\t') && s[i + 1] == '\n'))
			return 1;
	return 0;
}

static int single_quoted(struct walk *w, struct strbuf *out, const char *s,
			 size_t n, const struct sctx *c)
{
	struct strbuf str = STRBUF_INIT;
	size_t indent, i;
	int ret;

	if ((c->implicit_key && memchr(s, '\n', n)) ||
	    has_blank_around_newline(s, n))
		return ykey_double_quoted(w, out, s, n, c);
	indent = quote_indent(c, s, n);
	strbuf_addch(&str, '\'');
	for (i = 0; i < n; i++) {
		if (s[i] == '\'')
			strbuf_addstr(&str, "''");
		else
			strbuf_addch(&str, s[i]);
		if (s[i] == '\n' && (i + 1 == n || s[i + 1] != '\n')) {
			strbuf_addch(&str, '\n');
			ykey_add_spaces(&str, indent);
		}
	}
	strbuf_addch(&str, '\'');
	ret = fold_lines(w, out, &str, indent, FOLD_FLOW, c);
	strbuf_release(&str);
	return ret;
}

static int quoted(struct walk *w, struct strbuf *out, const char *s,
		  size_t n, const struct sctx *c)
{
	int dq = memchr(s, '"', n) != NULL, sq = memchr(s, '\'', n) != NULL;

	if (dq && !sq)
		return single_quoted(w, out, s, n, c);
	return ykey_double_quoted(w, out, s, n, c);
}

/* Does the schema read plain text s as something other than a string? */
static int resolves_to_non_string(const struct ykeys *k, const char *s,
				  size_t n)
{
	struct arena arena = ARENA_INIT;
	struct strbuf why = STRBUF_INIT;
	struct value v;
	int ret;

	memset(&v, 0, sizeof(v));
	/* The 1.1 schema's merge tag tests "<<" wherever it is. */
	if (k->yaml11)
		ret = yaml11_resolve_scalar(&v, &arena, s, n, 1, NULL, 1, &why);
	else
		ret = yl_resolve_scalar(&v, &arena, s, n, 1, NULL, &why);
	arena_release(&arena);
	strbuf_release(&why);
	return !ret && (v.kind != VALUE_STRING ||
			(v.yflags & VALUE_YF_MERGE_KEY));
}

/* plainString()'s test for text that cannot stay plain. */
static int needs_quotes(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	if (strchr("\n\t ,[]{}#&*!|>'\"%@`", s[0]))
		return 1;
	if ((s[0] == '?' || s[0] == '-') &&
	    (n == 1 || s[1] == ' ' || s[1] == '\t'))
		return 1;
	for (i = 0; i + 1 < n; i++) {
		if ((s[i] == '\n' || s[i] == ':') &&
		    (s[i + 1] == ' ' || s[i + 1] == '\t'))
			return 1;
		if ((s[i] == ' ' || s[i] == '\t') && s[i + 1] == '\n')
			return 1;
		if ((s[i] == '\n' || s[i] == '\t' || s[i] == ' ') &&
		    s[i + 1] == '#')
			return 1;
	}
	return strchr("\n\t :", s[n - 1]) != NULL;
}

int ykey_plain(struct walk *w, struct strbuf *out, const char *s, size_t n,
	       const struct sctx *c, int actual_string)
{
	struct strbuf str = STRBUF_INIT;
	size_t i;
	int ret;

	if ((c->implicit_key && memchr(s, '\n', n)) || needs_quotes(s, n))
		return quoted(w, out, s, n, c);
	for (i = 0; i < n; i++)
		if (strchr("[]{},", s[i]))
			return quoted(w, out, s, n, c);
	if (has_document_marker(s, n) && (!c->indent ||
					  (c->implicit_key && c->indent == 2)))
		return !c->indent ? ykey_refuse(w, LOAD_EUNSUPPORTED,
					   "a block scalar in a collection key") :
			quoted(w, out, s, n, c);
	add_newline_runs(&str, s, n, "\n", c->indent);
	if (actual_string && resolves_to_non_string(w->k, str.buf, str.len)) {
		strbuf_release(&str);
		return quoted(w, out, s, n, c);
	}
	ret = fold_lines(w, out, &str, c->indent, FOLD_FLOW, c);
	strbuf_release(&str);
	return ret;
}

/* stringifyString() for a string scalar written in `style`. */
static int string_scalar(struct walk *w, struct strbuf *out, const char *s,
			 size_t n, int style, const struct sctx *c,
			 int actual_string)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; style != YKEY_DOUBLE && i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') ||
		    p[i] == 0x7F ||
		    (p[i] == 0xC2 && i + 1 < n && p[i + 1] <= 0x9F) ||
		    (p[i] == 0xED && i + 1 < n && p[i + 1] >= 0xA0))
			style = YKEY_DOUBLE;
	switch (style) {
	case YKEY_DOUBLE:
		return ykey_double_quoted(w, out, s, n, c);
	case YKEY_SINGLE:
		return single_quoted(w, out, s, n, c);
	case YKEY_PLAIN:
		return ykey_plain(w, out, s, n, c, actual_string);
	default:
		return quoted(w, out, s, n, c);
	}
}

int ykey_string_scalar(struct walk *w, struct strbuf *out, const char *s,
		       size_t n, int style, const struct sctx *c)
{
	return string_scalar(w, out, s, n, style, c, 1);
}

/*
 * Number.prototype.toExponential() with no argument: the shortest
 * round-trip digits, which Number::toString also prints, as d.ddde+N.
 */
void ykey_to_exponential(struct strbuf *out, double d)
{
	char num[NUMFMT_MAX], digits[NUMFMT_MAX];
	size_t len = numfmt_es(num, d), i = 0, nd = 0;
	long point = -1, exp10;

	if (num[0] == '-') {
		strbuf_addch(out, '-');
		i++;
	}
	for (; i < len && num[i] != 'e'; i++) {
		if (num[i] == '.')
			point = (long)nd;
		else
			digits[nd++] = num[i];
	}
	if (point < 0)
		point = (long)nd;
	exp10 = i < len ? strtol(num + i + 1, NULL, 10) : 0;
	/* Leading zeros ("0.00123") move the first digit right. */
	for (i = 0; i < nd && digits[i] == '0'; i++)
		point--;
	if (i == nd) {
		strbuf_addstr(out, "0e+0");
		return;
	}
	exp10 += point - 1;
	while (nd > i + 1 && digits[nd - 1] == '0')
		nd--;
	strbuf_addch(out, digits[i]);
	if (nd > i + 1) {
		strbuf_addch(out, '.');
		strbuf_add(out, digits + i + 1, nd - i - 1);
	}
	strbuf_addf(out, "e%c%ld", exp10 < 0 ? '-' : '+',
		    exp10 < 0 ? -exp10 : exp10);
}

/* stringifyNumber() */
void ykey_number_string(struct strbuf *out, double d, size_t min_frac,
			int float_ok)
{
	char num[NUMFMT_MAX];
	size_t len, dot, frac;

	if (isnan(d)) {
		strbuf_addstr(out, ".nan");
		return;
	}
	if (isinf(d)) {
		strbuf_addstr(out, d < 0 ? "-.inf" : ".inf");
		return;
	}
	if (d == 0 && signbit(d)) {
		strbuf_addstr(out, "-0");
		return;
	}
	len = numfmt_json(num, d);
	strbuf_add(out, num, len);
	if (!min_frac || !float_ok || num[0] < '0' || num[0] > '9')
		return;
	for (dot = 0; dot < len && num[dot] != '.'; dot++)
		;
	if (dot == len)
		strbuf_addch(out, '.');
	for (frac = dot < len ? len - dot - 1 : 0; frac < min_frac; frac++)
		strbuf_addch(out, '0');
}

static int number_scalar(struct walk *w, struct strbuf *out,
			 const struct value *v, const struct ykey_node *n)
{
	const char *s = n->source;
	size_t len = n->source_len, i;
	double d = v->u.number;
	int tagged_float = n->tag && !strcmp(n->tag, TAG_PREFIX "float");

	if (w->k->yaml11)
		return ykey11_number(w, out, v, n);
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o'))
		return ykey_radix_string(out, d, s[1] == 'x' ? 16 : 8,
					 s[1] == 'x' ? "0x" : "0o");
	if (memchr(s, 'e', len) || memchr(s, 'E', len)) {
		if (isfinite(d))
			ykey_to_exponential(out, d);
		else
			ykey_number_string(out, d, 0, 0);
		return 0;
	}
	for (i = 0; i < len && s[i] != '.'; i++)
		;
	ykey_number_string(out, d, i < len && s[len - 1] == '0' ? len - i - 1 : 0,
		      !n->tag || tagged_float);
	return 0;
}

/* Length of the JavaScript white space character at s, or 0. */
static size_t js_space(const unsigned char *s, size_t n)
{
	if (!n)
		return 0;
	if (strchr("\t\n\v\f\r ", s[0]) && s[0])
		return 1;
	if (n >= 2 && s[0] == 0xC2 && s[1] == 0xA0)
		return 2;
	if (n < 3)
		return 0;
	if ((s[0] == 0xE1 && s[1] == 0x9A && s[2] == 0x80) ||
	    (s[0] == 0xE2 && s[1] == 0x80 &&
	     (s[2] <= 0x8A || s[2] == 0xA8 || s[2] == 0xA9 || s[2] == 0xAF)) ||
	    (s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0x9F) ||
	    (s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) ||
	    (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF))
		return 3;
	return 0;
}

static size_t span(const char *s, size_t i, size_t n, const char *set)
{
	while (i < n && s[i] && strchr(set, s[i]))
		i++;
	return i;
}

/*
 * Number(s) in JavaScript, classified: 0 finite, 1 NaN, 2 Infinity,
 * 3 -Infinity; -1 when it is too long to be sure.
 */
static int js_number_class(const char *str, size_t n)
{
	const unsigned char *u = (const unsigned char *)str;
	size_t b = 0, e = n, i, k, digits;
	char buf[400];
	double d;

	while (b < e && (k = js_space(u + b, e - b)))
		b += k;
	for (;;) {
		for (k = 3; k >= 1; k--)
			if (e - b >= k && js_space(u + e - k, k) == k)
				break;
		if (!k || e == b)
			break;
		e -= k;
	}
	if (b == e)
		return 0;
	if (e - b > 2 && str[b] == '0' && strchr("xXoObB", str[b + 1])) {
		const char *set = strchr("xX", str[b + 1]) ?
			"0123456789abcdefABCDEF" :
			strchr("oO", str[b + 1]) ? "01234567" : "01";

		if (span(str, b + 2, e, set) != e)
			return 1;
		return e - b > 200 ? -1 : 0;
	}
	i = b + (str[b] == '+' || str[b] == '-');
	if (e - i == 8 && !memcmp(str + i, "Infinity", 8))
		return str[b] == '-' ? 3 : 2;
	k = span(str, i, e, "0123456789");
	digits = k - i;
	if (k < e && str[k] == '.') {
		size_t f = span(str, k + 1, e, "0123456789");

		digits += f - k - 1;
		k = f;
	}
	if (!digits)
		return 1;
	if (k < e && (str[k] == 'e' || str[k] == 'E')) {
		size_t x = k + 1 + (k + 1 < e && (str[k + 1] == '+' ||
						  str[k + 1] == '-'));
		size_t f = span(str, x, e, "0123456789");

		if (f == x)
			return 1;
		k = f;
	}
	if (k != e)
		return 1;
	if (e - b >= sizeof(buf))
		return -1;
	memcpy(buf, str + b, e - b);
	buf[e - b] = '\0';
	d = strtod(buf, NULL);
	return isinf(d) ? (d < 0 ? 3 : 2) : 0;
}

/*
 * A core tag that did not apply leaves a string, which the tag's own
 * printer then gets: the number printers print Number(s) when it is
 * not finite and JSON.stringify(s) otherwise; the boolean one "true"
 * for any non-empty string; the null one "null".
 */
static int unapplied_tag_string(struct walk *w, struct strbuf *out,
				const char *name, const struct value *v)
{
	int cls;

	if (!strcmp(name, "bool")) {
		strbuf_addstr(out, v->u.str.len ? "true" : "false");
		return 0;
	}
	if (!strcmp(name, "null")) {
		strbuf_addstr(out, "null");
		return 0;
	}
	if (strcmp(name, "int") && strcmp(name, "float"))
		return ykey_refuse(w, LOAD_EUNSUPPORTED,
			      "a collection tag on a scalar in a collection "
			      "key");
	cls = js_number_class(v->u.str.ptr, v->u.str.len);
	if (cls < 0)
		return ykey_refuse(w, LOAD_EUNSUPPORTED,
			      "a long number-like string in a collection key");
	if (cls == 0)
		canon_add_string(out, v->u.str.ptr, v->u.str.len);
	else
		strbuf_addstr(out, cls == 1 ? ".nan" : cls == 2 ? ".inf" :
			      "-.inf");
	return 0;
}

/*
 * A string scalar with a tag of yaml.org's other than !!str.  A
 * collection tag of the schema (!!map, !!seq, under 1.1 also !!set,
 * !!omap, !!pairs) is found by name and has no printer of its own, so
 * stringifyString() prints the string without the check that would
 * quote "0x1F" or "~" (actualString); a tag the schema does not know is
 * printed by the string tag, with that check.  In the core schema !!set,
 * !!omap, !!pairs, !!binary and !!timestamp join the schema once a node
 * of the document uses them, which is not followed here.
 */
static int tagged_string(struct walk *w, struct strbuf *out,
			 const struct value *v, const struct ykey_node *n,
			 const struct sctx *c)
{
	static const char *const known[] = {
		"int", "float", "bool", "null", "set", "omap", "pairs",
		"binary", "timestamp",
	};
	const char *name = n->tag + strlen(TAG_PREFIX);
	int yaml11_coll = w->k->yaml11 && (!strcmp(name, "set") ||
					   !strcmp(name, "omap") ||
					   !strcmp(name, "pairs"));
	size_t i;

	if (!strcmp(name, "map") || !strcmp(name, "seq") || yaml11_coll) {
		return string_scalar(w, out, v->u.str.ptr, v->u.str.len,
				     n->style, c, 0);
	}
	for (i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(name, known[i]))
			return unapplied_tag_string(w, out, name, v);
	return ykey_string_scalar(w, out, v->u.str.ptr, v->u.str.len,
				  n->style, c);
}

static int match_core_null(const char *s, size_t n)
{
	return !n || (n == 1 && s[0] == '~') ||
	       (n == 4 && (!memcmp(s, "null", 4) || !memcmp(s, "Null", 4) ||
			   !memcmp(s, "NULL", 4)));
}

int ykey_scalar_string(struct walk *w, struct strbuf *out,
			 const struct value *v, const struct ykey_node *n,
			 const struct sctx *c)
{
	const char *s = n->source;
	size_t len = n->source_len;

	switch (v->kind) {
	case VALUE_NULL:
		if (match_core_null(s, len))
			strbuf_add(out, s, len);
		else
			strbuf_addstr(out, "null");
		return 0;
	case VALUE_BOOL:
		if (w->k->yaml11) {
			ykey11_bool(out, s, len, v->u.boolean);
			return 0;
		}
		if ((len == 4 || len == 5) &&
		    (!memcmp(s, "true", len) || !memcmp(s, "True", len) ||
		     !memcmp(s, "TRUE", len) || !memcmp(s, "false", len) ||
		     !memcmp(s, "False", len) || !memcmp(s, "FALSE", len)) &&
		    (s[0] == 't' || s[0] == 'T') == v->u.boolean)
			strbuf_add(out, s, len);
		else
			strbuf_addstr(out, v->u.boolean ? "true" : "false");
		return 0;
	case VALUE_NUMBER:
		return number_scalar(w, out, v, n);
	case VALUE_STRING:
		/*
		 * The merge tag prints "<<" whatever the scalar holds (a
		 * Symbol, or under 1.1 the text its test refused); so does
		 * an untagged "<<" merge key, or string "<<" under 1.1.
		 */
		if ((n->tag && !strcmp(n->tag, TAG_PREFIX "merge")) ||
		    (!n->tag && ((v->yflags & VALUE_YF_MERGE_KEY) ||
				 (w->k->yaml11 && v->u.str.len == 2 &&
				  !memcmp(v->u.str.ptr, "<<", 2))))) {
			strbuf_addstr(out, "<<");
			return 0;
		}
		if (w->k->yaml11 && n->tag &&
		    !strcmp(n->tag, TAG_PREFIX "timestamp"))
			return ykey_refuse(w, LOAD_EUNSUPPORTED,
					   "a !!timestamp string in a "
					   "collection key");
		if (n->tag && strcmp(n->tag, TAG_PREFIX "str") &&
		    !strncmp(n->tag, TAG_PREFIX, strlen(TAG_PREFIX)))
			return tagged_string(w, out, v, n, c);
		return ykey_string_scalar(w, out, v->u.str.ptr, v->u.str.len,
				     n->style, c);
	case VALUE_BYTES:
		return ykey_binary_string(w, out, v, n->style, c);
	default:
		if (!(v->yflags & VALUE_YF_DATE))
			return ykey_refuse(w, LOAD_EUNSUPPORTED,
					   "a date scalar in a collection key");
		ykey_date_string(out, n->source, n->source_len);
		return 0;
	}
}
