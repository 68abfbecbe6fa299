/*
 * Names close to a mistyped one (see suggest.h).
 */
#include "config.h"
#include "suggest.h"
#include "strbuf.h"
#include "strutil.h"

#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
	/* three rows of the matrix: two back (for swaps), previous, current */
	size_t rows[3][SUGGEST_FAR + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *back2 = rows[0], *prev = rows[1], *cur = rows[2], *tmp;

	if (la >= SUGGEST_FAR || lb >= SUGGEST_FAR)
		return SUGGEST_FAR;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t d = prev[j - 1] + cost;

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && back2[j - 2] + 1 < d)
				d = back2[j - 2] + 1;
			cur[j] = d;
		}
		tmp = back2;
		back2 = prev;
		prev = cur;
		cur = tmp;
	}
	return prev[lb];
}

void suggest_init(struct suggest *s, const char *word)
{
	memset(s, 0, sizeof(*s));
	s->word = word;
	s->best = SUGGEST_FAR;
}

/*
 * How many edits still make a slip rather than another word: one for a
 * short word, more as it grows, so that "frob" suggests nothing.
 */
static size_t allowed_edits(size_t len)
{
	if (len < 4)
		return 1;
	if (len < 8)
		return 2;
	return 3;
}

void suggest_consider(struct suggest *s, const char *name)
{
	size_t len = strlen(s->word), d;

	/* a beginning of three or more characters is as close as it gets */
	if (len >= 3 && starts_with(name, s->word))
		d = 0;
	else {
		d = suggest_distance(s->word, name);
		if (d > allowed_edits(len) || d >= strlen(name))
			return;
	}
	if (d > s->best)
		return;
	if (d < s->best) {
		s->best = d;
		s->nr = 0;
	}
	if (s->nr < SUGGEST_MAX)
		s->names[s->nr++] = name;
}

size_t suggest_format(const struct suggest *s, struct strbuf *out,
		      const char *prefix)
{
	size_t i;

	if (s->nr > 2)
		strbuf_addstr(out, "one of ");
	for (i = 0; i < s->nr; i++) {
		if (i)
			strbuf_addstr(out, s->nr == 2 ? " or " : ", ");
		strbuf_addf(out, "'%s%s'", prefix, s->names[i]);
	}
	return s->nr;
}
