/*
 * The libyaml workaround layer, line and character rules (see
 * yamlfix.h), and libyaml's copy of the text built from the edits.
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
 * The directives before the first "---".  yaml@2.8.3 only warns about
 * an unknown directive, a second %YAML, or a %YAML version other than 1.1
 * and 1.2 (it then reads YAML 1.2); libyaml refuses them: it gets them
 * commented out.  Without a "---" yaml refuses directives, and so will
 * libyaml, so nothing is touched then.
 */
void yl_fix_directives(struct yl_fix *fx, const char *s, size_t len)
{
	size_t i = 0, nr = 0, at[64];
	int seen_yaml = 0;

	while (i < len) {
		size_t n = line_len(s, i, len), k = 0;

		while (k < n && (s[i + k] == ' ' || s[i + k] == '\t'))
			k++;
		if (n >= 3 && !memcmp(s + i, "---", 3) &&
		    (n == 3 || s[i + 3] == ' ' || s[i + 3] == '\t'))
			break;
		if (s[i] == '%') {
			int major, minor, used = 0;

			if (n > 6 && !memcmp(s + i, "%YAML ", 6) &&
			    sscanf(s + i + 6, "%d.%d%n", &major, &minor, &used) == 2) {
				size_t e = 6 + (size_t)used;

				while (e < n && (s[i + e] == ' ' || s[i + e] == '\t'))
					e++;
				if (e < n && s[i + e] != '#')
					return;	/* trailing junk: leave it */
				if (major == 1 && minor == 1)
					return;	/* refused later as YAML 1.1 */
				if (seen_yaml++ || !(major == 1 && minor == 2)) {
					if (nr == 64)
						return;
					at[nr++] = i;
				}
			} else if (n > 5 && !memcmp(s + i, "%TAG ", 5)) {
				;
			} else if (n > 1 && isalpha((unsigned char)s[i + 1]) &&
				   !(n >= 5 && !memcmp(s + i, "%YAML", 5) &&
				     (n == 5 || s[i + 5] == ' ' || s[i + 5] == '\t'))) {
				/* any name but YAML itself, e.g. %YAMLL */
				if (nr == 64)
					return;
				at[nr++] = i;
			} else
				return;
		} else if (k < n && s[i + k] != '#')
			return;	/* content before any "---" */
		i += n;
		if (i < len && s[i] == '\r')
			i++;
		if (i < len && s[i] == '\n')
			i++;
	}
	if (i >= len)
		return;
	while (nr--)
		yl_fix_add_edit(fx, at[nr], 1, "#", 0);
}

/*
 * A stream of nothing but comments, blank lines and one "..." is one empty
 * document (null) to yaml; libyaml refuses a "..." that ends no document.
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
		else if (k < n && s[i + k] != '#')
			return;
		i += n;
		while (i < len && (s[i] == '\r' || s[i] == '\n'))
			i++;
	}
	if (marker != SIZE_MAX)
		yl_fix_add_edit(fx, marker, 1, "#", 0);
}

/*
 * Characters that yaml@2.8.3 reads as ordinary content but libyaml (a
 * YAML 1.1 reader) refuses, or takes for line breaks: C0 and C1 controls
 * and DEL, U+0085, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF.  libyaml gets
 * a letter of the same UTF-8 length in their place.  A lone CR is
 * treated differently by the two in ways a substitute cannot hide.
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
		if (k < fx->nr_ins && fx->ins[k] == i) {
			fx->lib[o++] = ' ';
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
