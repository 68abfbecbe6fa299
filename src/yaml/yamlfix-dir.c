/*
 * Directives for the libyaml workaround layer.
 *
 * yaml@2.8.3 checks each directive line as it comes: %YAML takes one
 * part, "1.1" or "1.2" (another digits.digits only warns), %TAG takes
 * two, and any other name only warns.  For the document after them the
 * last %YAML 1.1 or 1.2 and the last %TAG of each handle count; after
 * the last document they count for nothing.  libyaml refuses unknown
 * and repeated directives, other versions and directives that start no
 * document: it gets the lines that do not count commented out.
 */
#include "config.h"
#include "yamlfix-lex.h"
#include "yamlload.h"
#include "usage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The name and the first parts of a directive line, as yaml splits it. */
struct dir_words {
	size_t b[3], e[3];
	size_t n;		/* words, the name included; 4 for more */
};

static int is_sep(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * yaml's lexer ends the line's source before a '#' that follows white
 * space, then splits it on runs of blanks.
 */
static void split(const unsigned char *s, size_t b, size_t n,
		  struct dir_words *w)
{
	size_t e = b, i;

	while (e < n && s[e] != '\n' && !(s[e] == '#' && e > b &&
					  (s[e - 1] == ' ' || s[e - 1] == '\t')))
		e++;
	w->n = 0;
	for (i = b; i < e;) {
		while (i < e && is_sep(s[i]))
			i++;
		if (i >= e)
			break;
		if (w->n < 3)
			w->b[w->n] = i;
		while (i < e && !is_sep(s[i]))
			i++;
		if (w->n < 3)
			w->e[w->n] = i;
		if (++w->n == 4)
			break;
	}
}

static int word_is(const unsigned char *s, const struct dir_words *w,
		   size_t k, const char *lit)
{
	size_t len = strlen(lit);

	return w->n > k && w->e[k] - w->b[k] == len &&
	       !memcmp(s + w->b[k], lit, len);
}

/* digits.digits */
static int is_version(const unsigned char *s, size_t b, size_t e)
{
	size_t i = b, d1, d2;

	for (d1 = 0; i < e && s[i] >= '0' && s[i] <= '9'; i++)
		d1++;
	if (i >= e || s[i++] != '.')
		return 0;
	for (d2 = 0; i < e && s[i] >= '0' && s[i] <= '9'; i++)
		d2++;
	return d1 && d2 && i == e;
}

/* The directive line at b (its '%'): yaml's errors, and note it. */
int yl_lx_directive(struct lexer *lx, size_t b)
{
	const unsigned char *s = lx->s;
	struct dir_words w;

	split(s, b, lx->n, &w);
	if (word_is(s, &w, 0, "%TAG") && w.n != 3)
		return yl_lx_fail(lx, LOAD_EINVALID, b, "%TAG directive "
				  "should contain exactly two parts");
	if (word_is(s, &w, 0, "%YAML")) {
		if (w.n != 2)
			return yl_lx_fail(lx, LOAD_EINVALID, b, "%YAML directive "
					  "should contain exactly one part");
		if (!is_version(s, w.b[1], w.e[1]))
			return yl_lx_fail(lx, LOAD_EINVALID, b,
					  "unsupported YAML version in %YAML");
	}
	ALLOC_GROW(lx->dirs, lx->nr_dirs + 1, lx->dirs_alloc);
	lx->dirs[lx->nr_dirs++] = b;
	return 0;
}

struct tag_line {
	const unsigned char *handle;
	size_t len, at;
};

static int cmp_handle(const struct tag_line *x, const struct tag_line *y)
{
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->handle, y->handle, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int cmp_tag_line(const void *a, const void *b)
{
	const struct tag_line *x = a, *y = b;
	int c = cmp_handle(x, y);

	if (c)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int cmp_offset(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The lines of lx->dirs that count for the document after them, sorted,
 * into keep[]: the last %YAML 1.1 or 1.2 if it says 1.1 (the loader
 * learns the version from libyaml), the last %TAG of each handle.
 */
static size_t lines_that_count(struct lexer *lx, size_t *keep)
{
	const unsigned char *s = lx->s;
	struct tag_line *tags = NULL;
	size_t i, nr_tags = 0, tags_alloc = 0, nr = 0, version = SIZE_MAX;
	int v11 = 0;
	struct dir_words w;

	for (i = 0; i < lx->nr_dirs; i++) {
		split(s, lx->dirs[i], lx->n, &w);
		if (word_is(s, &w, 0, "%YAML") &&
		    (word_is(s, &w, 1, "1.1") || word_is(s, &w, 1, "1.2"))) {
			version = lx->dirs[i];
			v11 = word_is(s, &w, 1, "1.1");
		} else if (word_is(s, &w, 0, "%TAG") && w.n == 3 &&
			   s[w.b[1]] == '!' &&
			   s[w.e[1] - 1] == '!') {
			/* other handles match no tag */
			ALLOC_GROW(tags, nr_tags + 1, tags_alloc);
			tags[nr_tags].handle = s + w.b[1];
			tags[nr_tags].len = w.e[1] - w.b[1];
			tags[nr_tags++].at = lx->dirs[i];
		}
	}
	if (nr_tags)
		qsort(tags, nr_tags, sizeof(*tags), cmp_tag_line);
	for (i = 0; i < nr_tags; i++)
		if (i + 1 == nr_tags || cmp_handle(&tags[i], &tags[i + 1]))
			keep[nr++] = tags[i].at;
	if (v11)
		keep[nr++] = version;
	free(tags);
	qsort(keep, nr, sizeof(*keep), cmp_offset);
	return nr;
}

/*
 * The directives noted end: at a "---" (DIRS_DOC), at other content
 * (DIRS_CONTENT: yaml refuses them, and so does libyaml), or at the end
 * of the text (DIRS_EOF), where they follow a document and count for
 * nothing.
 */
void yl_lx_directives_end(struct lexer *lx, int how)
{
	size_t *keep, nr_keep = 0, i, k = 0;

	if (!lx->nr_dirs || how == DIRS_CONTENT ||
	    (how == DIRS_EOF && !lx->doc_seen)) {
		lx->nr_dirs = 0;
		return;
	}
	keep = xmalloc((lx->nr_dirs + 1) * sizeof(*keep));
	if (how == DIRS_DOC)
		nr_keep = lines_that_count(lx, keep);
	for (i = 0; i < lx->nr_dirs; i++) {
		while (k < nr_keep && keep[k] < lx->dirs[i])
			k++;
		if (k < nr_keep && keep[k] == lx->dirs[i]) {
			struct dir_words w;
			size_t j;

			split(lx->s, lx->dirs[i], lx->n, &w);
			for (j = w.n == 3 ? w.b[2] : w.e[0]; j < w.e[w.n - 1]; j++)
				if (lx->s[j] == '#')
					yl_fix_uri_hash(lx->fx, j);
			continue;
		}
		yl_fix_add_edit(lx->fx, lx->dirs[i], 1, "#", 0);
	}
	free(keep);
	lx->nr_dirs = 0;
}
