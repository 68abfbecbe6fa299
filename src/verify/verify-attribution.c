/*
 * Drift attribution for a whole verify run (see verify.h).
 *
 * A history search costs a walk over the path's changes, reading and
 * hashing each version.  A pull request can add any number of sidecars
 * that pin made-up hashes of one token; searching once per sidecar would
 * walk the same history once per sidecar.  So the run gathers every
 * (repository, start commit, path) a drifted check names, with the
 * hashes wanted of it (the same hash wanted twice is asked once), walks
 * each path once for all of them (attribute_drifts()), and then hands
 * the answers back to the reports in their order: the notes, and with
 * --explain the version each walk found, compared with today's.
 */
#include "config.h"
#include "verify.h"
#include "verify-int.h"
#include "git/attribution.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

/* Where a root's paths are searched: a repository and a start commit. */
struct origin {
	const char *root;		/* borrowed from a report */
	struct at_commit own;		/* HEAD, opened here (without --at) */
	struct at_commit *at;		/* --at's, borrowed from the memo;
					   NULL: own */
	struct strbuf key;		/* git directory and start */
	int usable;
};

/* One drifted check: which path it asks about, and which want answers it. */
struct ask {
	size_t report, check;
	size_t order;			/* place in the reports */
	struct strbuf key;		/* origin key, path, field, hash */
	size_t origin;
	struct strbuf path;		/* repository-relative */
	size_t group, want;		/* set once grouped */
};

struct group {
	size_t origin;
	const char *path;		/* borrowed from an ask */
	struct attribution_want *wants;
	size_t nr, alloc;
	int ret;
	struct strbuf err;
};

static int needs_attribution(const struct verify_check *c)
{
	return !c->ok && !c->error && c->rel.len;
}

static struct at_commit *origin_commit(struct origin *o)
{
	return o->at ? o->at : &o->own;
}

static void origin_open(struct origin *o, struct verify_run *run)
{
	struct strbuf err = STRBUF_INIT;
	struct at_commit *at;

	/* Why it cannot be used is verify_one()'s to say, or no one's. */
	if (run->opts.at)
		o->at = verify_memo_at(run->memos, o->root, run->opts.at, &err);
	else if (at_commit_open(&o->own, o->root, "HEAD", &err))
		at_commit_release(&o->own);
	strbuf_release(&err);
	if (run->opts.at && !o->at)
		return;
	at = origin_commit(o);
	if (!at->rev.commit)
		return;
	strbuf_addf(&o->key, "%s\n%s", at->repo.gitdir.buf, at->rev.hex);
	o->usable = 1;
}

/* The origin of a root, opened on first use. */
static size_t find_origin(struct origin **list, size_t *nr, size_t *alloc,
			  struct verify_run *run, const char *root)
{
	struct at_commit own = AT_COMMIT_INIT;
	struct origin *o;
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*list)[i].root, root))
			return i;
	ALLOC_GROW(*list, *nr + 1, *alloc);
	o = &(*list)[(*nr)++];
	memset(o, 0, sizeof(*o));
	o->root = root;
	o->own = own;
	strbuf_init(&o->key, 0);
	origin_open(o, run);
	return i;
}

static int key_cmp(const struct strbuf *x, const struct strbuf *y)
{
	int c = memcmp(x->buf, y->buf, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int ask_cmp(const void *a, const void *b)
{
	const struct ask *x = a, *y = b;
	int c = key_cmp(&x->key, &y->key);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int ask_order_cmp(const void *a, const void *b)
{
	const struct ask *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* Do two asks (sorted by key) search the same path of the same origin? */
static int same_path(const struct ask *a, const struct ask *b,
		     const struct origin *origins)
{
	return !strcmp(origins[a->origin].key.buf, origins[b->origin].key.buf) &&
	       !strcmp(a->path.buf, b->path.buf);
}

void verify_attribute(struct verify_run *run, struct verify_report *reports,
		      size_t n)
{
	struct origin *origins = NULL;
	struct ask *asks = NULL;
	struct group *groups = NULL;
	size_t nr_origins = 0, alloc_origins = 0, nr_asks = 0, alloc_asks = 0;
	size_t nr_groups = 0, alloc_groups = 0, i;

	if (run->opts.no_attribution && !run->opts.explain)
		return;
	/* Every drifted check, with the path it names in its repository. */
	for (i = 0; i < n; i++) {
		struct verify_report *r = &reports[i];
		int c;

		for (c = 0; c < r->nr_checks; c++) {
			const struct verify_check *ck = &r->checks[c];
			struct ask *a;
			size_t o;

			if (!needs_attribution(ck))
				continue;
			o = find_origin(&origins, &nr_origins, &alloc_origins,
					run, r->root.buf);
			if (!origins[o].usable)
				continue;
			ALLOC_GROW(asks, nr_asks + 1, alloc_asks);
			a = &asks[nr_asks];
			memset(a, 0, sizeof(*a));
			a->report = i;
			a->check = (size_t)c;
			a->order = nr_asks++;
			a->origin = o;
			strbuf_init(&a->path, 0);
			strbuf_addf(&a->path, "%s%s",
				    origin_commit(&origins[o])->prefix.buf,
				    ck->rel.buf);
			/* parts are C strings: NUL separates them */
			strbuf_init(&a->key, 0);
			strbuf_addf(&a->key, "%s", origins[o].key.buf);
			strbuf_addch(&a->key, '\0');
			strbuf_addbuf(&a->key, &a->path);
			strbuf_addch(&a->key, '\0');
			strbuf_addf(&a->key, "%s", ck->field);
			strbuf_addch(&a->key, '\0');
			strbuf_addf(&a->key, "%s", ck->expected);
		}
	}

	/* Sorted, equal paths are neighbours and equal questions too. */
	if (nr_asks > 1)
		qsort(asks, nr_asks, sizeof(*asks), ask_cmp);
	for (i = 0; i < nr_asks; i++) {
		struct ask *a = &asks[i];
		const struct verify_check *ck =
			&reports[a->report].checks[a->check];
		struct group *g;

		if (!i || !same_path(&asks[i - 1], a, origins)) {
			ALLOC_GROW(groups, nr_groups + 1, alloc_groups);
			g = &groups[nr_groups++];
			memset(g, 0, sizeof(*g));
			g->origin = a->origin;
			g->path = a->path.buf;
			strbuf_init(&g->err, 0);
		}
		g = &groups[nr_groups - 1];
		a->group = nr_groups - 1;
		if (!g->nr || key_cmp(&asks[i - 1].key, &a->key)) {
			struct attribution_want w = ATTRIBUTION_WANT_INIT;

			w.recorded = ck->expected;
			w.field = ck->field;
			w.how = ck->input->mode == PIN_RAW_THEN_STRUCTURED ?
				ATTRIBUTE_RAW_OR_STRUCTURED :
				ATTRIBUTE_STRUCTURED;
			ALLOC_GROW(g->wants, g->nr + 1, g->alloc);
			g->wants[g->nr++] = w;
		}
		a->want = g->nr - 1;
	}

	/* One walk per path. */
	for (i = 0; i < nr_groups; i++) {
		struct group *g = &groups[i];
		struct at_commit *at = origin_commit(&origins[g->origin]);

		run->history_walks++;
		g->ret = attribute_drifts(at->repo.git, &at->rev.id, g->path,
					  g->wants, g->nr, &g->err);
	}

	/* The answers, in the reports' order. */
	if (nr_asks > 1)
		qsort(asks, nr_asks, sizeof(*asks), ask_order_cmp);
	for (i = 0; i < nr_asks; i++) {
		const struct ask *a = &asks[i];
		const struct group *g = &groups[a->group];
		const struct attribution_want *w = &g->wants[a->want];
		struct at_commit *at = origin_commit(&origins[a->origin]);
		struct verify_report *r = &reports[a->report];
		struct input_tree tree;

		/*
		 * --explain compares the version the walk found with today's
		 * (--at's tree, else the work tree)
		 */
		if (run->opts.at)
			at_commit_tree(&tree, at);
		if (run->opts.explain)
			verify_explain_check(r, &r->checks[a->check], &at->repo,
					     !g->ret && w->hit ? &w->found : NULL,
					     g->ret ? g->err.buf : "no version "
					     "in the history has the recorded "
					     "hash", a->path.buf,
					     run->opts.at ? &tree : NULL,
					     run->opts.allow_outside);
		if (run->opts.no_attribution)
			continue;
		if (!g->ret)
			verify_add_note(r, "note", "%s", w->msg.buf);
		else
			verify_add_note(r, "note", "%s: cannot search the "
					"history: %s", r->checks[a->check].field,
					g->err.buf);
	}

	for (i = 0; i < nr_groups; i++) {
		size_t w;

		for (w = 0; w < groups[i].nr; w++)
			attribution_want_release(&groups[i].wants[w]);
		free(groups[i].wants);
		strbuf_release(&groups[i].err);
	}
	for (i = 0; i < nr_asks; i++) {
		strbuf_release(&asks[i].key);
		strbuf_release(&asks[i].path);
	}
	for (i = 0; i < nr_origins; i++) {
		at_commit_release(&origins[i].own);
		strbuf_release(&origins[i].key);
	}
	free(groups);
	free(asks);
	free(origins);
}
