/*
 * Object keys and their lines, in one pass (keylines.h).
 */
#include "config.h"
#include "keylines.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

static int cmp_key(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

/* By key, then by place in the text: lookups are binary searches. */
static int cmp_keyline(const void *pa, const void *pb)
{
	const struct keyline *a = pa, *b = pb;
	int c = cmp_key(a->key, a->len, b->key, b->len);

	if (c)
		return c;
	return a->off < b->off ? -1 : a->off > b->off;
}

void keylines_build(struct keylines *kl, const char *text, size_t len)
{
	size_t i = 0, j, k;
	long line = 1;

	while (i < len) {
		if (text[i] == '\n')
			line++;
		if (text[i] != '"') {
			i++;
			continue;
		}
		/* a string: to its closing quote, past escaped ones */
		for (j = i + 1; j < len && text[j] != '"'; j++)
			if (text[j] == '\\' && j + 1 < len)
				j++;
		for (k = j + 1; k < len && strchr(" \t\r\n", text[k]); k++)
			;
		if (j < len && k < len && text[k] == ':') {
			ALLOC_GROW(kl->v, kl->nr + 1, kl->alloc);
			kl->v[kl->nr].key = text + i + 1;
			kl->v[kl->nr].len = j - i - 1;
			kl->v[kl->nr].off = i;
			kl->v[kl->nr].line = line;
			kl->nr++;
		}
		/* a raw newline inside a string still counts as a line */
		for (k = i + 1; k < j && k < len; k++)
			if (text[k] == '\n')
				line++;
		i = j + 1;
	}
	if (kl->nr)
		qsort(kl->v, kl->nr, sizeof(*kl->v), cmp_keyline);
}

long keylines_find(const struct keylines *kl, const char *key, size_t len,
		   size_t off, size_t *off_out)
{
	size_t lo = 0, hi = kl->nr;

	/* the first entry not before (key, off) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct keyline *e = &kl->v[mid];
		int c = cmp_key(e->key, e->len, key, len);

		if (c < 0 || (!c && e->off < off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == kl->nr || cmp_key(kl->v[lo].key, kl->v[lo].len, key, len))
		return 0;
	if (off_out)
		*off_out = kl->v[lo].off;
	return kl->v[lo].line;
}

void keylines_release(struct keylines *kl)
{
	free(kl->v);
	kl->v = NULL;
	kl->nr = kl->alloc = 0;
}
