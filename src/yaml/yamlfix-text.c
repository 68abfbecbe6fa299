/*
 * The libyaml workaround layer (see yamlfix.h), the parts that need no
 * lexer state: the entry point, the character and directive rules, the
 * rules applied inside a token the lexer found, and libyaml's copy of
 * the text built from the edits.  The lexer is in yamlfix.c.
 */
#include "config.h"
#include "yamlfix.h"
#include "yamlload.h"
#include "usage.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the line at i, without its line break. */
static size_t line_len(const char *s, size_t i, size_t len)
{
	size_t e = i;

	while (e < len && s[e] != '\n' && s[e] != '\r')
		e++;
	return e - i;
}

/*
 * A stream of nothing but comments, blank lines and one "..." (directives
 * may follow it) is one empty document (null) to yaml; libyaml refuses a
 * "..." that ends no document.
 */
void yl_fix_bare_doc_end(struct yl_fix *fx, const char *s, size_t len)
{
	size_t i = 0, marker = SIZE_MAX;

	while (i < len) {
		size_t n = line_len(s, i, len), k = 0;

		while (k < n && (s[i + k] == ' ' || s[i + k] == '\t'))
			k++;
		if (!k && n >= 3 && !memcmp(s + i, "...", 3) &&
		    (n == 3 || s[i + 3] == ' ' || s[i + 3] == '\t'))
			marker = i;
		else if (k < n && s[i + k] != '#' &&
			 !(marker != SIZE_MAX && s[i] == '%'))
			return;
		i += n;
		while (i < len && (s[i] == '\r' || s[i] == '\n'))
			i++;
	}
	if (marker != SIZE_MAX)
		yl_fix_add_edit(fx, marker, 1, "#", 0);
}

/* A byte of a word: no white space, control, quote or indicator. */
static int word_byte(unsigned char c)
{
	return c > 0x20 && c != 0x7F && !strchr("#:,[]{}&*!|>'\"%@`-?", c);
}

/*
 * A lone CR (no LF after it) is content to yaml@2.8.3, as a letter would
 * be, and a line break to libyaml, which gets an 'x' in its place.  This
 * holds right after a letter of a word or white space within a line, the
 * CR neither ending a line nor starting a comment, outside properties and
 * directives.  Elsewhere yaml's lexer also counts it as white space (after
 * an indicator, before a '#', at the end of an anchor or tag), or it
 * counts in indentation, and the workarounds here take it for a line
 * break: those are refused.
 */
static int lone_cr_in_word(const unsigned char *s, size_t len, size_t i)
{
	size_t j = i;

	if (!i || i + 1 >= len ||
	    !(word_byte(s[i - 1]) || s[i - 1] == ' ' || s[i - 1] == '\t') ||
	    strchr("\r\n#", s[i + 1]))
		return 0;
	while (j > 0 && s[j - 1] != ' ' && s[j - 1] != '\t' &&
	       s[j - 1] != '\n') {
		if (strchr("&*!", s[j - 1]))
			return 0;
		j--;
	}
	while (j > 0 && s[j - 1] != '\n')
		j--;
	if (s[j] == '%')
		return 0;
	/* After white space, not first on its line (indentation). */
	while (j < i && (s[j] == ' ' || s[j] == '\t'))
		j++;
	return j < i;
}

/*
 * Characters that yaml@2.8.3 reads as ordinary content but libyaml (a
 * YAML 1.1 reader) refuses, or takes for line breaks: C0 and C1 controls
 * and DEL, a lone CR in a word (lone_cr_in_word()), U+0085, U+2028, U+2029, U+FEFF, U+FFFE,
 * U+FFFF.  libyaml gets a letter of the same UTF-8 length in their
 * place.
 */
int yl_fix_characters(struct yl_fix *fx, const char *text, size_t len,
			  struct strbuf *err)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned char special[256];
	size_t i;
	int doc_ends = 0;

	/* Bytes that need a look: controls but TAB and LF, '.', DEL, non-ASCII. */
	for (i = 0; i < 256; i++)
		special[i] = (i < 0x20 && i != '\t' && i != '\n') || i == '.' ||
			     i >= 0x7F;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (!special[c])
			continue;	/* the common case: nothing to do */
		if (c >= 0x80)
			fx->non_ascii = 1;
		if (c == '\r' && (i + 1 >= len || s[i + 1] != '\n') &&
		    lone_cr_in_word(s, len, i)) {
			yl_fix_add_edit(fx, i, 1, "x", 1);
			continue;
		}
		if (c == '\r' && (i + 1 >= len || s[i + 1] != '\n')) {
			fx->status = LOAD_EUNSUPPORTED;
			fx->err_at = i;
			strbuf_addstr(err, "unsupported YAML construct: "
				      "carriage return without line feed");
			return fx->status;
		}
		/*
		 * yaml@2.8.3 makes a document of each "..." line, empty or
		 * not; libyaml takes repeated ones as one.
		 */
		if (c == '.' && (!i || s[i - 1] == '\n') && i + 2 < len &&
		    s[i + 1] == '.' && s[i + 2] == '.' &&
		    (i + 3 == len || strchr(" \t\r\n", s[i + 3])) &&
		    ++doc_ends > 1) {
			fx->status = LOAD_EINVALID;
			fx->err_at = i;
			strbuf_addstr(err, "invalid YAML: source contains more "
				      "than one document");
			return fx->status;
		}
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
		    c == 0x7F)
			yl_fix_add_edit(fx, i, 1, "x", 1);
		else if (c == 0xC2 && i + 1 < len && s[i + 1] >= 0x80 &&
			 s[i + 1] <= 0x9F)
			yl_fix_add_edit(fx, i, 2, "\xc3\xa9", 1);
		else if (i + 2 < len &&
			 ((c == 0xE2 && s[i + 1] == 0x80 &&
			   (s[i + 2] == 0xA8 || s[i + 2] == 0xA9)) ||
			  (c == 0xEF && s[i + 1] == 0xBB && s[i + 2] == 0xBF) ||
			  (c == 0xEF && s[i + 1] == 0xBF &&
			   (s[i + 2] == 0xBE || s[i + 2] == 0xBF))))
			yl_fix_add_edit(fx, i, 3, "\xe4\xb8\x80", 1);
	}
	return 0;
}

/* Nothing but blank and comment lines in s from the line end le on. */
int yl_fix_only_comments_after(const char *s, size_t n, size_t le)
{
	size_t i = le;

	while (i < n) {
		while (i < n && strchr(" \t\r\n", s[i]))
			i++;
		if (i < n && s[i] != '#')
			return 0;
		while (i < n && s[i] != '\n')
			i++;
	}
	return 1;
}

/* libyaml: no '#' in a tag or a %TAG prefix; it reads "%23" as one. */
void yl_fix_uri_hash(struct yl_fix *fx, size_t at)
{
	yl_fix_add_ins(fx, at, '%');
	yl_fix_add_ins(fx, at, '2');
	yl_fix_add_edit(fx, at, 1, "3", 0);
}

static int hexval(int c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/*
 * libyaml refuses \u escapes of surrogates, which JavaScript strings
 * hold: it gets the escape of 'A' (the value is decoded from the text).
 */
void yl_fix_surrogates(struct yl_fix *fx, const unsigned char *s, size_t b,
		       size_t e)
{
	size_t i, k, n;

	for (i = b + 1; i + 1 < e; i++) {
		uint32_t cp = 0;

		if (s[i] != '\\')
			continue;
		i++;
		if (s[i] != 'u' && s[i] != 'U')
			continue;
		n = s[i] == 'u' ? 4 : 8;
		for (k = 0; k < n && i + 1 + k < e &&
		     strchr("0123456789ABCDEFabcdef", s[i + 1 + k]) &&
		     s[i + 1 + k]; k++)
			cp = (cp << 4) | (uint32_t)hexval(s[i + 1 + k]);
		if (k == n && cp >= 0xD800 && cp <= 0xDFFF)
			yl_fix_add_edit(fx, i + 1, n, n == 4 ? "0041" : "00000041", 0);
	}
}

static int cmp_edit(const void *a, const void *b)
{
	const struct yl_edit *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	/* A deletion wins over a replacement at the same spot. */
	return y->del - x->del;
}

static int cmp_ins(const void *a, const void *b)
{
	const struct yl_ins *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

int yl_fix_scan(struct yl_fix *fx, const char *text, size_t len,
		struct strbuf *err)
{
	size_t i, k;

	if (!len)
		return 0;	/* nothing to fix (and text may be NULL) */
	if (yl_fix_characters(fx, text, len, err) ||
	    yl_fix_lex(fx, text, len, err))
		return fx->status;
	yl_fix_bare_doc_end(fx, text, len);
	/* Sort, and drop edits that overlap an earlier one. */
	if (fx->nr_edits)
		qsort(fx->edits, fx->nr_edits, sizeof(*fx->edits), cmp_edit);
	for (i = 0, k = 0; i < fx->nr_edits; i++) {
		if (k && fx->edits[i].at < fx->edits[k - 1].at + fx->edits[k - 1].len)
			continue;
		fx->edits[k++] = fx->edits[i];
	}
	fx->nr_edits = k;
	if (fx->nr_patched)
		qsort(fx->patched, fx->nr_patched, sizeof(size_t), cmp_size);
	if (fx->nr_ins)
		qsort(fx->ins, fx->nr_ins, sizeof(*fx->ins), cmp_ins);
	return 0;
}

static void add_shift(struct yl_fix *fx, size_t *alloc, size_t at, long d)
{
	if (fx->nr_shifts + 1 > *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		fx->shift_at = xrealloc(fx->shift_at, *alloc * sizeof(size_t));
		fx->shift = xrealloc(fx->shift, *alloc * sizeof(long));
	}
	fx->shift_at[fx->nr_shifts] = at;
	fx->shift[fx->nr_shifts++] = d;
}

void yl_fix_build(struct yl_fix *fx, const char *text, size_t len)
{
	size_t i = 0, e = 0, k = 0, o = 0, alloc = 0;
	long d = 0;

	if (!fx->nr_edits && !fx->nr_ins) {
		fx->lib_len = len;
		return;
	}
	fx->lib = xmalloc(len + fx->nr_ins + 1);
	while (i <= len) {
		if (k < fx->nr_ins && fx->ins[k].at == i) {
			fx->lib[o++] = fx->ins[k].c;
			add_shift(fx, &alloc, o, --d);
			k++;
			continue;
		}
		if (i == len)
			break;
		if (e < fx->nr_edits && fx->edits[e].at == i) {
			const struct yl_edit *ed = &fx->edits[e++];

			if (ed->del) {
				d += (long)ed->len;
				add_shift(fx, &alloc, o, d);
			} else {
				memcpy(fx->lib + o, ed->with, ed->len);
				o += ed->len;
			}
			i += ed->len;
			continue;
		}
		fx->lib[o++] = text[i++];
	}
	fx->lib[o] = '\0';
	fx->lib_len = o;
}

const struct yl_span *yl_fix_span(struct yl_fix *fx, size_t at)
{
	size_t lo = 0, hi = fx->nr_spans;

	/* libyaml reports scalars in source order: walk, don't search. */
	while (fx->span_cursor < fx->nr_spans &&
	       fx->spans[fx->span_cursor].start < at)
		fx->span_cursor++;
	if (fx->span_cursor < fx->nr_spans &&
	    fx->spans[fx->span_cursor].start == at)
		return &fx->spans[fx->span_cursor];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fx->spans[mid].start < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fx->nr_spans && fx->spans[lo].start == at ?
	       &fx->spans[lo] : NULL;
}

int yl_fix_patched(const struct yl_fix *fx, size_t b, size_t e)
{
	size_t lo = 0, hi = fx->nr_patched;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fx->patched[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fx->nr_patched && fx->patched[lo] < e;
}

void yl_fix_release(struct yl_fix *fx)
{
	free(fx->edits);
	free(fx->ins);
	free(fx->patched);
	free(fx->spans);
	free(fx->lib);
	free(fx->shift_at);
	free(fx->shift);
	memset(fx, 0, sizeof(*fx));
}
