/*
 * The reference's report-header regular expressions, matched by hand with
 * JavaScript's semantics.  Each pattern is anchored with ^ under the m
 * flag (any line start), and most of their quantifiers are followed by a
 * literal they cannot match, which makes them deterministic; the header
 * pattern's "\s*([^·\n]+?)" is the exception and is searched with its
 * backtracking order.
 */
#include "config.h"
#include "reportheader.h"
#include "usage.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct text {
	const char *s;
	size_t len;
};

/* The code point at i and its length in bytes (0 at the end). */
static uint32_t cp_at(const struct text *t, size_t i, size_t *n)
{
	const unsigned char *p;

	if (i >= t->len) {
		*n = 0;
		return 0;
	}
	p = (const unsigned char *)t->s + i;
	*n = utf8_seq_length(p[0]);
	return wtf8_next(&p);
}

/* JavaScript's \s. */
static int js_space(uint32_t c)
{
	return c == '\t' || c == '\n' || c == 0x0B || c == 0x0C || c == '\r' ||
	       c == ' ' || c == 0xA0 || c == 0x1680 ||
	       (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
	       c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

/* Where ^ matches under the m flag: the start, or after a line terminator. */
static int line_start(const struct text *t, size_t i)
{
	const unsigned char *s = (const unsigned char *)t->s;

	if (!i)
		return 1;
	if (s[i - 1] == '\n' || s[i - 1] == '\r')
		return 1;
	return i >= 3 && s[i - 3] == 0xE2 && s[i - 2] == 0x80 &&
	       (s[i - 1] == 0xA8 || s[i - 1] == 0xA9);
}

static size_t skip_spaces(const struct text *t, size_t i)
{
	size_t n;

	while (i < t->len && js_space(cp_at(t, i, &n)))
		i += n;
	return i;
}

/* \s+ : at least one space, then all of them (the next literal is not one). */
static int spaces1(const struct text *t, size_t *i)
{
	size_t j = skip_spaces(t, *i);

	if (j == *i)
		return 0;
	*i = j;
	return 1;
}

static int lit(const struct text *t, size_t *i, const char *s)
{
	size_t n = strlen(s);

	if (*i + n > t->len || memcmp(t->s + *i, s, n))
		return 0;
	*i += n;
	return 1;
}

/* `([^`]+)` : the capture's bounds. */
static int backticked(const struct text *t, size_t *i, size_t *b, size_t *e)
{
	const char *close;

	if (!lit(t, i, "`"))
		return 0;
	close = memchr(t->s + *i, '`', t->len - *i);
	if (!close || close == t->s + *i)
		return 0;
	*b = *i;
	*e = (size_t)(close - t->s);
	*i = *e + 1;
	return 1;
}

#define MIDDOT "\xc2\xb7"

/* "\s*·\s*([^\s]+)" from i: the run's bounds. */
static int dot_and_run(const struct text *t, size_t i, size_t *b, size_t *e)
{
	size_t n;

	i = skip_spaces(t, i);
	if (!lit(t, &i, MIDDOT))
		return 0;
	i = skip_spaces(t, i);
	if (i >= t->len)
		return 0;
	*b = i;
	while (i < t->len && !js_space(cp_at(t, i, &n)))
		i += n;
	*e = i;
	return 1;
}

/*
 * "\s*([^·\n]+?)\s*·\s*([^\s]+)" from i, in the order a backtracking
 * engine tries it: the longest \s* first, and for each, the shortest
 * token.
 */
static int header_tail(const struct text *t, size_t i, size_t tok[2],
		       size_t run[2])
{
	size_t spaces_end = skip_spaces(t, i), start;
	size_t starts[256], nstarts = 0, k, n;

	/* Candidate token starts: each code point boundary in the spaces. */
	for (start = i; start <= spaces_end && nstarts < 256; start += n) {
		starts[nstarts++] = start;
		if (start == spaces_end)
			break;
		cp_at(t, start, &n);
	}
	for (k = nstarts; k-- > 0;) {
		size_t e = starts[k];

		for (;;) {
			uint32_t c = cp_at(t, e, &n);

			if (!n || c == 0xB7 || c == '\n')
				break;
			e += n;
			if (dot_and_run(t, e, &run[0], &run[1])) {
				tok[0] = starts[k];
				tok[1] = e;
				return 1;
			}
		}
	}
	return 0;
}

static char *dup_range(const struct text *t, size_t b, size_t e)
{
	return xmemdupz(t->s + b, e - b);
}

/* String.prototype.trim(): JavaScript white space and line terminators. */
static char *dup_trimmed(const struct text *t, size_t b, size_t e)
{
	size_t n;

	b = skip_spaces(t, b);
	while (e > b) {
		size_t p = e - 1;

		while (p > b && ((unsigned char)t->s[p] & 0xC0) == 0x80)
			p--;
		if (!js_space(cp_at(t, p, &n)))
			break;
		e = p;
	}
	return dup_range(t, b, e);
}

static void match_h1(struct report_header *h, const struct text *t)
{
	static const char *const kinds[] = { "eval", "eval-image", "critique" };
	size_t i;

	for (i = 0; i < t->len; i++) {
		size_t k;

		if (!line_start(t, i) || t->s[i] != '#')
			continue;
		for (k = 0; k < 3; k++) {
			size_t j = i, dot, tok[2], run[2], n;

			if (!lit(t, &j, "# ahd ") || !lit(t, &j, kinds[k]))
				continue;
			/* (?: ·|\s), in that order. */
			dot = j;
			if (lit(t, &dot, " " MIDDOT) &&
			    header_tail(t, dot, tok, run))
				;
			else if (js_space(cp_at(t, j, &n)) && n &&
				 header_tail(t, j + n, tok, run))
				;
			else
				continue;
			h->kind = xstrdup(k == 0 ? "eval-live" : kinds[k]);
			h->token = dup_trimmed(t, tok[0], tok[1]);
			h->run_at = dup_trimmed(t, run[0], run[1]);
			return;
		}
	}
}

static void match_brief(struct report_header *h, const struct text *t)
{
	size_t i;

	for (i = 0; i < t->len; i++) {
		size_t j = i, b, e;

		if (!line_start(t, i) || t->s[i] != '-')
			continue;
		j++;
		if (spaces1(t, &j) && lit(t, &j, "Brief:") && spaces1(t, &j) &&
		    backticked(t, &j, &b, &e)) {
			h->brief = dup_range(t, b, e);
			return;
		}
	}
}

static void match_samples(struct report_header *h, const struct text *t)
{
	size_t i;

	for (i = 0; i < t->len; i++) {
		size_t j = i, b;

		if (!line_start(t, i) || t->s[i] != '-')
			continue;
		j++;
		if (!spaces1(t, &j) || !lit(t, &j, "Samples per cell:") ||
		    !spaces1(t, &j) || !lit(t, &j, "**"))
			continue;
		b = j;
		while (j < t->len && t->s[j] >= '0' && t->s[j] <= '9')
			j++;
		if (j == b || !lit(t, &j, "**"))
			continue;
		{
			char *digits = dup_range(t, b, j);

			/* parseInt(digits, 10): the nearest double. */
			h->n = strtod(digits, NULL);
			h->has_n = 1;
			free(digits);
		}
		return;
	}
}

/* Critique reports: the sum of every (n=<k>), added as doubles. */
static void match_counts(struct report_header *h, const struct text *t)
{
	size_t i = 0;
	double sum = 0;
	int any = 0;

	while (i + 3 < t->len) {
		const char *p = memchr(t->s + i, '(', t->len - i);
		size_t j, b;

		if (!p)
			break;
		j = (size_t)(p - t->s);
		i = j + 1;
		if (!lit(t, &j, "(n="))
			continue;
		b = j;
		while (j < t->len && t->s[j] >= '0' && t->s[j] <= '9')
			j++;
		if (j == b || j >= t->len || t->s[j] != ')')
			continue;
		{
			char *digits = dup_range(t, b, j);

			sum += strtod(digits, NULL);
			free(digits);
		}
		any = 1;
		i = j + 1;
	}
	if (any) {
		h->n = sum;
		h->has_n = 1;
	}
}

static void add_model(struct report_header *h, char *id, char *provider)
{
	ALLOC_GROW(h->models, h->nr_models + 1, h->alloc_models);
	h->models[h->nr_models].id = id;
	h->models[h->nr_models].provider = provider;
	h->nr_models++;
}

/* ^\s+-\s+`id`\s+\((provider)\)\s+·\s+spec\s+`spec` with the g flag. */
static void match_models(struct report_header *h, const struct text *t)
{
	size_t i = 0;

	while (i < t->len) {
		size_t j = i, b1, e1, pb, pe, b3, e3;
		const char *close;

		if (!line_start(t, i)) {
			i++;
			continue;
		}
		if (!spaces1(t, &j) || !lit(t, &j, "-") || !spaces1(t, &j) ||
		    !backticked(t, &j, &b1, &e1) || !spaces1(t, &j) ||
		    !lit(t, &j, "("))
			goto next;
		close = memchr(t->s + j, ')', t->len - j);
		if (!close || close == t->s + j)
			goto next;
		pb = j;
		pe = (size_t)(close - t->s);
		j = pe + 1;
		if (!spaces1(t, &j) || !lit(t, &j, MIDDOT) || !spaces1(t, &j) ||
		    !lit(t, &j, "spec") || !spaces1(t, &j) ||
		    !backticked(t, &j, &b3, &e3))
			goto next;
		add_model(h, dup_range(t, b3, e3), dup_range(t, pb, pe));
		i = j;
		continue;
next:
		i++;
	}
}

static void match_critic(struct report_header *h, const struct text *t)
{
	size_t i;

	for (i = 0; i < t->len; i++) {
		size_t j = i, b, e;

		if (!line_start(t, i) || t->s[i] != 'c')
			continue;
		if (lit(t, &j, "critic:") && spaces1(t, &j) &&
		    backticked(t, &j, &b, &e)) {
			add_model(h, dup_range(t, b, e), xstrdup("critic"));
			return;
		}
	}
}

void report_header_parse(struct report_header *h, const char *text,
			 size_t len)
{
	struct text t = { text, len };

	memset(h, 0, sizeof(*h));
	match_h1(h, &t);
	match_brief(h, &t);
	match_samples(h, &t);
	if (!h->has_n)
		match_counts(h, &t);
	match_models(h, &t);
	if (h->kind && !strcmp(h->kind, "critique") && !h->nr_models)
		match_critic(h, &t);
}

void report_header_release(struct report_header *h)
{
	size_t i;

	free(h->kind);
	free(h->token);
	free(h->run_at);
	free(h->brief);
	for (i = 0; i < h->nr_models; i++) {
		free(h->models[i].id);
		free(h->models[i].provider);
	}
	free(h->models);
	memset(h, 0, sizeof(*h));
}
