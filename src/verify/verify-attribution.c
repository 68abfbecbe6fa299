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

/* Everything one attribution holds, phase after phase. */
struct plan {
	struct verify_run *run;
	struct verify_report *reports;
	struct origin *origins;
	size_t nr_origins, alloc_origins;
	struct ask *asks;
	size_t nr_asks, alloc_asks;
	struct group *groups;
	size_t nr_groups, alloc_groups;
};

/* The origin of a root, opened on first use. */
static size_t find_origin(struct plan *p, const char *root)
{
	struct at_commit own = AT_COMMIT_INIT;
	struct origin *o;
	size_t i;

	for (i = 0; i < p->nr_origins; i++)
		if (!strcmp(p->origins[i].root, root))
			return i;
	ALLOC_GROW(p->origins, p->nr_origins + 1, p->alloc_origins);
	o = &p->origins[p->nr_origins++];
	memset(o, 0, sizeof(*o));
	o->root = root;
	o->own = own;
	strbuf_init(&o->key, 0);
	origin_open(o, p->run);
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

/* Ask about check c of report i: the path it names in its repository. */
static void add_ask(struct plan *p, size_t i, size_t c)
{
	const struct verify_check *ck = &p->reports[i].checks[c];
	size_t o = find_origin(p, p->reports[i].root.buf);
	struct ask *a;

	if (!p->origins[o].usable)
		return;
	ALLOC_GROW(p->asks, p->nr_asks + 1, p->alloc_asks);
	a = &p->asks[p->nr_asks];
	memset(a, 0, sizeof(*a));
	a->report = i;
	a->check = c;
	a->order = p->nr_asks++;
	a->origin = o;
	strbuf_init(&a->path, 0);
	strbuf_addf(&a->path, "%s%s",
		    origin_commit(&p->origins[o])->prefix.buf, ck->rel.buf);
	/* parts are C strings: NUL separates them */
	strbuf_init(&a->key, 0);
	strbuf_addf(&a->key, "%s", p->origins[o].key.buf);
	strbuf_addch(&a->key, '\0');
	strbuf_addbuf(&a->key, &a->path);
	strbuf_addch(&a->key, '\0');
	strbuf_addf(&a->key, "%s", ck->field);
	strbuf_addch(&a->key, '\0');
	strbuf_addf(&a->key, "%s", ck->expected);
}

/*
 * The asks sorted, so that equal paths are neighbours and equal
 * questions too: a group per path, a want per distinct question.
 */
static void group_asks(struct plan *p)
{
	size_t i;

	if (p->nr_asks > 1)
		qsort(p->asks, p->nr_asks, sizeof(*p->asks), ask_cmp);
	for (i = 0; i < p->nr_asks; i++) {
		struct ask *a = &p->asks[i];
		const struct verify_check *ck =
			&p->reports[a->report].checks[a->check];
		struct group *g;

		if (!i || !same_path(&p->asks[i - 1], a, p->origins)) {
			ALLOC_GROW(p->groups, p->nr_groups + 1,
				   p->alloc_groups);
			g = &p->groups[p->nr_groups++];
			memset(g, 0, sizeof(*g));
			g->origin = a->origin;
			g->path = a->path.buf;
			strbuf_init(&g->err, 0);
		}
		g = &p->groups[p->nr_groups - 1];
		a->group = p->nr_groups - 1;
		if (!g->nr || key_cmp(&p->asks[i - 1].key, &a->key)) {
			struct attribution_want w = ATTRIBUTION_WANT_INIT;

			w.recorded = ck->expected;
			w.field = ck->field;
			/* the hashes verify compared, in the input's mode */
			w.how = ck->input->mode == PIN_RAW_THEN_STRUCTURED ?
				ATTRIBUTE_RAW_OR_STRUCTURED :
				ck->input->mode == PIN_RAW ? ATTRIBUTE_RAW :
				ATTRIBUTE_STRUCTURED;
			ALLOC_GROW(g->wants, g->nr + 1, g->alloc);
			g->wants[g->nr++] = w;
		}
		a->want = g->nr - 1;
	}
}

/* The answers, in the reports' order: notes, and --explain's versions. */
static void answer(struct plan *p)
{
	const struct verify_options *opts = &p->run->opts;
	size_t i;

	if (p->nr_asks > 1)
		qsort(p->asks, p->nr_asks, sizeof(*p->asks), ask_order_cmp);
	for (i = 0; i < p->nr_asks; i++) {
		const struct ask *a = &p->asks[i];
		const struct group *g = &p->groups[a->group];
		const struct attribution_want *w = &g->wants[a->want];
		struct at_commit *commit = origin_commit(&p->origins[a->origin]);
		struct verify_report *r = &p->reports[a->report];
		struct input_tree tree;

		/*
		 * --explain compares the version the walk found with today's
		 * (--at's tree, else the work tree)
		 */
		if (opts->at)
			at_commit_tree(&tree, commit);
		if (opts->explain)
			verify_explain_check(r, &r->checks[a->check],
					     &commit->repo,
					     !g->ret && w->hit ? &w->found : NULL,
					     g->ret ? g->err.buf : "no version "
					     "in the history has the recorded "
					     "hash", a->path.buf,
					     opts->at ? &tree : NULL,
					     opts->allow_outside);
		if (opts->no_attribution)
			continue;
		if (!g->ret)
			verify_add_note(r, "note", "%s", w->msg.buf);
		else
			verify_add_note(r, "note", "%s: cannot search the "
					"history: %s", r->checks[a->check].field,
					g->err.buf);
	}
}

static void plan_release(struct plan *p)
{
	size_t i, w;

	for (i = 0; i < p->nr_groups; i++) {
		for (w = 0; w < p->groups[i].nr; w++)
			attribution_want_release(&p->groups[i].wants[w]);
		free(p->groups[i].wants);
		strbuf_release(&p->groups[i].err);
	}
	for (i = 0; i < p->nr_asks; i++) {
		strbuf_release(&p->asks[i].key);
		strbuf_release(&p->asks[i].path);
	}
	for (i = 0; i < p->nr_origins; i++) {
		at_commit_release(&p->origins[i].own);
		strbuf_release(&p->origins[i].key);
	}
	free(p->groups);
	free(p->asks);
	free(p->origins);
}

int verify_awaits_attribution(const struct verify_run *run,
			      const struct verify_report *r)
{
	int c;

	if (run->opts.no_attribution && !run->opts.explain)
		return 0;
	for (c = 0; c < r->nr_checks; c++)
		if (needs_attribution(&r->checks[c]))
			return 1;
	return 0;
}

void verify_attribute(struct verify_run *run, struct verify_report *reports,
		      size_t n)
{
	struct plan p;
	size_t i;
	int c;

	if (run->opts.no_attribution && !run->opts.explain)
		return;
	memset(&p, 0, sizeof(p));
	p.run = run;
	p.reports = reports;
	/* Every drifted check, with the path it names in its repository. */
	for (i = 0; i < n; i++)
		for (c = 0; c < reports[i].nr_checks; c++)
			if (needs_attribution(&reports[i].checks[c]))
				add_ask(&p, i, (size_t)c);
	group_asks(&p);
	/* One walk per path. */
	for (i = 0; i < p.nr_groups; i++) {
		struct group *g = &p.groups[i];
		struct at_commit *commit = origin_commit(&p.origins[g->origin]);

		run->history_walks++;
		g->ret = attribute_drifts(commit->repo.git, &commit->rev.id,
					  g->path, g->wants, g->nr, &g->err);
	}
	answer(&p);
	plan_release(&p);
}
