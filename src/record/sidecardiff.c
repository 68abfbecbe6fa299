/*
 * Comparing two sidecars field by field under the field stability table
 * (seed 003; seed 000's "what changes between runs"): what `diff` prints
 * and what `replay` checks after a re-issued run.
 *
 * Stable fields are what the same command must reproduce: the inputs and
 * their hashes, the framework, sampling, models and conditions.  Every
 * other field (wall clock, argv, host, request ids, fields this tool does
 * not know) may differ between runs.  Token and brief paths are compared
 * after re-rooting, so a sidecar written on a CI runner
 * (/home/runner/work/ahd/ahd/tokens/x.yml) matches one written in a
 * checkout (tokens/x.yml).
 */
#include "config.h"
#include "sidecardiff.h"
#include "quote.h"
#include "strutil.h"
#include "usage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Fields the same command must reproduce; "[]" stands for any index. */
static const char *const stable_fields[] = {
	"kind", "ahd_version", "ahd_commit",
	"token.path", "token.hash", "brief.path", "brief.hash",
	"sampling.n", "sampling.temperature", "sampling.seed",
	"models[].id", "models[].provider",
	"conditions.requested", "conditions.effective",
	NULL
};

/*
 * Objects compared member by member, so that one changed member is named
 * rather than the whole object; anything else is compared whole.
 */
static const char *const containers[] = {
	"", "token", "brief", "sampling", "models[]", "conditions", NULL
};

/*
 * The reference's writing order inside token, brief, sampling, models[]
 * and conditions; sidecar_fields has it for the top level.  Differences
 * are listed in sidecar order.
 */
static const char *const member_order[] = {
	"path", "hash", "n", "temperature", "seed",
	"id", "provider", "provider_request_ids", "requested", "effective",
	NULL
};

static int list_rank(const char *const *list, const char *key,
		     size_t *rank)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcmp(list[i], key)) {
			*rank = i;
			return 1;
		}
	return 0;
}

/*
 * Ranks only ever compare siblings, so the two lists never meet; fields
 * in neither come last, by name.
 */
static size_t key_rank(const char *key)
{
	size_t rank;

	if (list_rank(sidecar_fields, key, &rank) ||
	    list_rank(member_order, key, &rank))
		return rank;
	return SIZE_MAX;
}

static int cmp_keys(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	size_t ra = key_rank(a), rb = key_rank(b);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(a, b);
}

/*
 * The path, relative to the root, of s's input whose path field pattern
 * names ("token.path" for the input "token"), when it could be resolved;
 * else NULL: the path is compared as recorded.
 */
static const struct strbuf *input_rel(const struct diff_side *s,
				      const char *pattern)
{
	size_t i, n;

	for (i = 0; i < s->rec.nr; i++) {
		n = strlen(s->rec.inputs[i].name);
		if (!strncmp(pattern, s->rec.inputs[i].name, n) &&
		    !strcmp(pattern + n, ".path"))
			return s->rel[i].len ? &s->rel[i] : NULL;
	}
	return NULL;
}

static int leaf_equal(const struct sidecar_diff *d, const char *pattern,
		      const struct jval *a, const struct jval *b)
{
	const struct strbuf *ra = input_rel(d->a, pattern);
	const struct strbuf *rb = input_rel(d->b, pattern);

	if (!a || !b)
		return !a && !b;
	if (ra && rb && jval_is_string(a) && jval_is_string(b))
		return !strcmp(ra->buf, rb->buf);
	return jval_equal((struct jval *)a, (struct jval *)b);
}

static void add_difference(struct sidecar_diff *d, const char *field, int stable,
			   struct jval *a, struct jval *b)
{
	struct diff_item *it;

	ALLOC_GROW(d->items, d->nr + 1, d->alloc);
	it = &d->items[d->nr++];
	it->field = xstrdup(field);
	it->stable = stable;
	it->a = a;
	it->b = b;
	if (stable)
		d->nr_stable++;
	else
		d->nr_volatile++;
}

static void walk(struct sidecar_diff *d, struct strbuf *path, struct strbuf *pattern,
		 struct jval *a, struct jval *b);

static void walk_member(struct sidecar_diff *d, struct strbuf *path,
			struct strbuf *pattern, const char *sep,
			const char *key, struct jval *a, struct jval *b)
{
	size_t plen = path->len, qlen = pattern->len;

	strbuf_addf(path, "%s%s", plen ? sep : "", key);
	strbuf_addf(pattern, "%s%s", qlen ? sep : "", key);
	walk(d, path, pattern, a, b);
	strbuf_setlen(path, plen);
	strbuf_setlen(pattern, qlen);
}

static int object_or_null(const struct jval *v)
{
	return !v || jval_is_object(v) || jval_is_null(v);
}

/*
 * Members of an object on either side.  A side that is null (a critique
 * run's brief) lends its null to every member, so the difference reads
 * "brief.path  null  briefs/x.md" rather than naming the whole object.
 */
static void walk_object(struct sidecar_diff *d, struct strbuf *path,
			struct strbuf *pattern, struct jval *a, struct jval *b)
{
	const char **keys = NULL;
	size_t nr = 0, alloc = 0, i;
	struct jval *sides[2] = { a, b }, *v;
	const char *key;
	int s;

	for (s = 0; s < 2; s++) {
		if (!jval_is_object(sides[s]))
			continue;
		jval_object_foreach(sides[s], key, v) {
			if (s && jval_object_get(a, key))
				continue;
			ALLOC_GROW(keys, nr + 1, alloc);
			keys[nr++] = key;
		}
	}
	if (nr)
		qsort(keys, nr, sizeof(*keys), cmp_keys);
	for (i = 0; i < nr; i++)
		walk_member(d, path, pattern, ".", keys[i],
			    jval_is_object(a) ? jval_object_get(a, keys[i]) : a,
			    jval_is_object(b) ? jval_object_get(b, keys[i]) : b);
	free(keys);
}

/* Models pair up by position: the reference writes them in command order. */
static void walk_models(struct sidecar_diff *d, struct strbuf *path,
			struct strbuf *pattern, struct jval *a, struct jval *b)
{
	size_t na = jval_array_size(a), nb = jval_array_size(b), i;
	size_t plen = path->len, qlen = pattern->len;

	strbuf_addstr(pattern, "[]");
	for (i = 0; i < (na > nb ? na : nb); i++) {
		strbuf_addf(path, "[%zu]", i);
		walk(d, path, pattern, jval_array_get(a, i),
		     jval_array_get(b, i));
		strbuf_setlen(path, plen);
	}
	strbuf_setlen(pattern, qlen);
}

static void walk(struct sidecar_diff *d, struct strbuf *path, struct strbuf *pattern,
		 struct jval *a, struct jval *b)
{
	if (str_in_list(containers, pattern->buf) && object_or_null(a) &&
	    object_or_null(b) && (jval_is_object(a) || jval_is_object(b))) {
		walk_object(d, path, pattern, a, b);
		return;
	}
	if (!strcmp(pattern->buf, "models") &&
	    (!a || jval_is_array(a)) && (!b || jval_is_array(b))) {
		walk_models(d, path, pattern, a, b);
		return;
	}
	if (!leaf_equal(d, pattern->buf, a, b))
		add_difference(d, path->buf, str_in_list(stable_fields,
						     pattern->buf), a, b);
}

/* "<side>: token.path <recorded> re-rooted to <rel>", if it was. */
static void note_path(struct sidecar_diff *d, const struct diff_side *s,
		      const char *name)
{
	struct strbuf note = STRBUF_INIT;
	size_t i;

	for (i = 0; i < s->rec.nr; i++)
		if (!strcmp(s->rec.inputs[i].name, name))
			break;
	if (i == s->rec.nr || !s->rerooted[i])
		return;
	strbuf_addf(&note, "%s: %s.path %s re-rooted to %s", s->name.buf, name,
		    s->rec.inputs[i].path, s->rel[i].buf);
	/* one line each, whatever the paths hold (quote.h) */
	quote_escape(&d->notes, note.buf, note.len);
	strbuf_addch(&d->notes, '\n');
	strbuf_release(&note);
}

/* Input by input (a's, then those only b pins), a's note then b's. */
static void note_paths(struct sidecar_diff *d)
{
	size_t i, j;

	for (i = 0; i < d->a->rec.nr; i++) {
		note_path(d, d->a, d->a->rec.inputs[i].name);
		note_path(d, d->b, d->a->rec.inputs[i].name);
	}
	for (j = 0; j < d->b->rec.nr; j++) {
		for (i = 0; i < d->a->rec.nr; i++)
			if (!strcmp(d->a->rec.inputs[i].name,
				    d->b->rec.inputs[j].name))
				break;
		if (i == d->a->rec.nr)
			note_path(d, d->b, d->b->rec.inputs[j].name);
	}
}

void diff_side_init(struct diff_side *s)
{
	struct sidecar init = SIDECAR_INIT;
	struct record rec = RECORD_INIT;

	strbuf_init(&s->name, 0);
	s->sc = init;
	s->rec = rec;
	s->rel = NULL;
	s->rerooted = NULL;
}

void diff_side_release(struct diff_side *s)
{
	size_t i;

	for (i = 0; s->rel && i < s->rec.nr; i++)
		strbuf_release(&s->rel[i]);
	free(s->rel);
	free(s->rerooted);
	s->rel = NULL;
	s->rerooted = NULL;
	record_release(&s->rec);
	strbuf_release(&s->name);
	sidecar_release(&s->sc);
}

void diff_side_resolve(struct diff_side *s, const char *root,
		       const struct input_tree *tree)
{
	size_t i;

	record_from_sidecar(&s->rec, &s->sc, s->name.buf, NULL);
	s->rel = xcalloc(s->rec.nr ? s->rec.nr : 1, sizeof(*s->rel));
	s->rerooted = xcalloc(s->rec.nr ? s->rec.nr : 1,
			      sizeof(*s->rerooted));
	for (i = 0; i < s->rec.nr; i++) {
		struct resolved_input in = RESOLVED_INPUT_INIT;

		strbuf_init(&s->rel[i], 0);
		input_resolve(&in, root, s->rec.inputs[i].path, tree, 0);
		if (in.status == INPUT_OK || in.status == INPUT_NOT_FOUND) {
			strbuf_addbuf(&s->rel[i], &in.rel);
			s->rerooted[i] = in.rerooted;
		}
		resolved_input_release(&in);
	}
}

void sidecar_diff_init(struct sidecar_diff *d)
{
	memset(d, 0, sizeof(*d));
	strbuf_init(&d->notes, 0);
}

void sidecar_diff_compute(struct sidecar_diff *d, struct diff_side *a,
			  struct diff_side *b)
{
	struct strbuf path = STRBUF_INIT, pattern = STRBUF_INIT;

	d->a = a;
	d->b = b;
	walk(d, &path, &pattern, a->sc.json, b->sc.json);
	note_paths(d);
	strbuf_release(&path);
	strbuf_release(&pattern);
}

void sidecar_diff_release(struct sidecar_diff *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		free(d->items[i].field);
	free(d->items);
	strbuf_release(&d->notes);
}
