/*
 * A unified diff of two texts by line (see text_diff() in explain.h):
 * Myers's O((N+M)D) greedy algorithm ("An O(ND) Difference Algorithm and
 * Its Variations", 1986), keeping each round's furthest points to walk
 * the edit script back.  Bounded: texts over TEXTDIFF_MAX_LINES lines or
 * more than TEXTDIFF_MAX_EDITS apart are not diffed.
 */
#include "config.h"
#include "explain.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

#define TEXTDIFF_MAX_LINES 50000
#define TEXTDIFF_MAX_EDITS 1000
#define CONTEXT 3

struct line {
	const char *p;
	size_t len;	/* without the newline */
};

struct lines {
	struct line *v;
	size_t nr, alloc;
};

static int split(struct lines *out, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;

		if (out->nr == TEXTDIFF_MAX_LINES)
			return -1;
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr].p = s + i;
		out->v[out->nr].len = end - i;
		out->nr++;
		i = end + 1;
	}
	return 0;
}

static int same(const struct line *a, const struct line *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* One step of the edit script: ' ' both, '-' a only, '+' b only. */
struct edit {
	char op;
	size_t ai, bi;	/* the lines' indices (the one that applies) */
};

/*
 * The edit script from a to b into *out (n of them), or -1 when it needs
 * more than TEXTDIFF_MAX_EDITS insertions and deletions.
 */
static int myers(const struct lines *a, const struct lines *b,
		 struct edit **out, size_t *n)
{
	long N = (long)a->nr, M = (long)b->nr, max = TEXTDIFF_MAX_EDITS;
	long off = max + 1, d, k, x, y, rounds;
	long *v = xcalloc((size_t)(2 * max + 3), sizeof(*v));
	long **trace = xcalloc((size_t)max + 1, sizeof(*trace));
	struct edit *e;
	size_t ne = 0;
	int ret = -1;

	if (N + M < max)
		max = N + M;
	for (d = 0; d <= max; d++) {
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			y = x - k;
			while (x < N && y < M && same(&a->v[x], &b->v[y]))
				x++, y++;
			v[off + k] = x;
			if (x >= N && y >= M)
				break;
		}
		trace[d] = xcalloc((size_t)(2 * d + 1), sizeof(**trace));
		memcpy(trace[d], v + off - d, (size_t)(2 * d + 1) * sizeof(*v));
		if (k <= d)
			break;
	}
	rounds = d;	/* the rounds whose points are kept, to free */
	if (d > max)
		goto out;
	/* Back from (N, M): each round undoes a snake, then one edit. */
	e = xcalloc((size_t)(N + M + 1), sizeof(*e));
	x = N;
	y = M;
	for (; d >= 0; d--) {
		long px, py, pk;
		const long *pv = d ? trace[d - 1] : NULL;

		k = x - y;
		if (!d) {
			px = py = 0;
		} else {
			/* pv holds rounds' k from -(d-1) to d-1 */
			if (k == -d || (k != d && pv[k - 1 + d - 1] <
					pv[k + 1 + d - 1]))
				pk = k + 1;
			else
				pk = k - 1;
			px = pv[pk + d - 1];
			py = px - pk;
		}
		while (x > px && y > py) {
			x--, y--;
			e[ne].op = ' ';
			e[ne].ai = (size_t)x;
			e[ne].bi = (size_t)y;
			ne++;
		}
		if (!d)
			break;
		if (x == px) {
			y--;
			e[ne].op = '+';
			e[ne].bi = (size_t)y;
			e[ne].ai = (size_t)x;
		} else {
			x--;
			e[ne].op = '-';
			e[ne].ai = (size_t)x;
			e[ne].bi = (size_t)y;
		}
		ne++;
	}
	/* reverse into order */
	for (k = 0; k < (long)ne / 2; k++) {
		struct edit t = e[k];

		e[k] = e[ne - 1 - (size_t)k];
		e[ne - 1 - (size_t)k] = t;
	}
	*out = e;
	*n = ne;
	ret = 0;
out:
	for (k = 0; k <= rounds && k <= max; k++)
		free(trace[k]);
	free(trace);
	free(v);
	return ret;
}

static void add_line(struct strbuf *out, size_t *shown, size_t *more,
		     size_t max, char op, const struct line *l)
{
	if (*shown >= max) {
		(*more)++;
		return;
	}
	strbuf_addch(out, op);
	strbuf_add(out, l->p, l->len);
	strbuf_addch(out, '\n');
	(*shown)++;
}

int text_diff(struct strbuf *out, size_t *more, const char *a, size_t alen,
	      const char *b, size_t blen, size_t max_lines, struct strbuf *err)
{
	struct lines la = { NULL, 0, 0 }, lb = { NULL, 0, 0 };
	struct edit *e = NULL;
	size_t n = 0, i = 0, shown = 0;
	int ret = -1;

	*more = 0;
	if (split(&la, a, alen) || split(&lb, b, blen)) {
		strbuf_addf(err, "more than %d lines", TEXTDIFF_MAX_LINES);
		goto out;
	}
	if (myers(&la, &lb, &e, &n)) {
		strbuf_addf(err, "more than %d lines differ",
			    TEXTDIFF_MAX_EDITS);
		goto out;
	}
	while (i < n) {
		size_t start, end, j, as, bs, ac = 0, bc = 0;

		while (i < n && e[i].op == ' ')
			i++;
		if (i == n)
			break;
		/* A hunk: changes less than two contexts apart, and context. */
		start = i > CONTEXT ? i - CONTEXT : 0;
		end = i;
		for (j = i; j < n; j++) {
			if (e[j].op != ' ')
				end = j;
			else if (j - end > 2 * CONTEXT)
				break;
		}
		end = end + CONTEXT + 1 < n ? end + CONTEXT + 1 : n;
		as = e[start].ai;
		bs = e[start].bi;
		for (j = start; j < end; j++) {
			ac += e[j].op != '+';
			bc += e[j].op != '-';
		}
		if (shown < max_lines) {
			strbuf_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n",
				    ac ? as + 1 : as, ac, bc ? bs + 1 : bs, bc);
			shown++;
		} else
			(*more)++;
		for (j = start; j < end; j++)
			add_line(out, &shown, more, max_lines, e[j].op,
				 e[j].op == '+' ? &lb.v[e[j].bi] :
				 &la.v[e[j].ai]);
		i = end;
	}
	ret = 0;
out:
	free(e);
	free(la.v);
	free(lb.v);
	return ret;
}
