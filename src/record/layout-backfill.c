/*
 * Backfilling the records of a layout (layout-backfill.h).
 */
#include "config.h"
#include "layout-backfill.h"
#include "fs/path.h"
#include "fs/readfile.h"
#include "fs/write.h"
#include "git/revision.h"
#include "hash/hashfile.h"
#include "json/jsonload.h"
#include "jsonedit.h"
#include "layout-list.h"
#include "quote.h"
#include "root/inputpath.h"
#include "root/root.h"
#include "usage.h"
#include "utf8.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As layout.c reads records: a bigger one is refused, not read. */
#define FILL_RECORD_MAX (16 * 1024 * 1024)

/* A JSON Pointer's reference tokens, unescaped. */
struct ptoks {
	char **v;
	size_t nr, alloc;
};

/* One input of a record: its recorded path and hash, where the hash is. */
struct fill_input {
	const struct layout_input *li;
	char *path;
	char *hash;		/* as recorded; NULL: absent or null */
	struct ptoks at;	/* where the hash is (or goes) */
	char found[HASH_HEX_MAX];	/* filled: "sha256:<hex>" */
};

static void ptoks_add(struct ptoks *p, const char *tok)
{
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = xstrdup(tok);
}

static void ptoks_release(struct ptoks *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* RFC 6901: "/a~1b/c" is "a/b" then "c". */
static void ptoks_split(struct ptoks *out, const char *ptr)
{
	struct strbuf tok = STRBUF_INIT;

	while (*ptr == '/') {
		strbuf_reset(&tok);
		for (ptr++; *ptr && *ptr != '/'; ptr++) {
			if (*ptr == '~' && (ptr[1] == '0' || ptr[1] == '1'))
				strbuf_addch(&tok, *++ptr == '0' ? '~' : '/');
			else
				strbuf_addch(&tok, *ptr);
		}
		ptoks_add(out, tok.buf);
	}
	strbuf_release(&tok);
}

/* The pointer of p, escaped again, for messages. */
static void ptoks_show(struct strbuf *out, const struct ptoks *p)
{
	size_t i;
	const char *c;

	for (i = 0; i < p->nr; i++) {
		strbuf_addch(out, '/');
		for (c = p->v[i]; *c; c++)
			if (*c == '~' || *c == '/')
				strbuf_addstr(out, *c == '~' ? "~0" : "~1");
			else
				strbuf_addch(out, *c);
	}
}

/* What a pointer with '*'s found: the value and what each '*' took. */
struct hit {
	const struct jnode *n;
	struct ptoks stars;
};

struct hits {
	struct hit *v;
	size_t nr, alloc;
};

static void hits_release(struct hits *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		ptoks_release(&h->v[i].stars);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* Each value pattern p (from token i on) finds below n, as layout.c does. */
static void find_all(const struct jnode *n, const struct ptoks *p, size_t i,
		     struct ptoks *stars, struct hits *out)
{
	size_t k;
	char num[32];

	if (i == p->nr) {
		struct hit *h;

		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		h = &out->v[out->nr++];
		memset(&h->stars, 0, sizeof(h->stars));
		h->n = n;
		for (k = 0; k < stars->nr; k++)
			ptoks_add(&h->stars, stars->v[k]);
		return;
	}
	if (strcmp(p->v[i], "*")) {
		const struct jnode *kid = jnode_child(n, p->v[i]);

		if (kid)
			find_all(kid, p, i + 1, stars, out);
		return;
	}
	for (k = 0; k < n->nr; k++) {
		if (n->kind == JNODE_OBJECT && !n->kids[k].key)
			continue;
		snprintf(num, sizeof(num), "%zu", k);
		ptoks_add(stars, n->kind == JNODE_OBJECT ? n->kids[k].key :
			  num);
		find_all(&n->kids[k], p, i + 1, stars, out);
		free(stars->v[--stars->nr]);
	}
}

/* pattern with its '*'s taking the members stars names, in order. */
static void substitute(struct ptoks *out, const struct ptoks *pattern,
		       const struct ptoks *stars)
{
	size_t i, s = 0;

	for (i = 0; i < pattern->nr; i++)
		ptoks_add(out, !strcmp(pattern->v[i], "*") && s < stars->nr ?
			  stars->v[s++] : pattern->v[i]);
}

/* The value at the concrete pointer p, or NULL. */
static const struct jnode *lookup(const struct jnode *root,
				  const struct ptoks *p)
{
	size_t i;

	for (i = 0; root && i < p->nr; i++)
		root = jnode_child(root, p->v[i]);
	return root;
}

static void fail(struct layout_fill_item *it, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(struct layout_fill_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&it->reason, fmt, ap);
	va_end(ap);
	it->state = BACKFILL_FAILED;
}

/*
 * The recorded value at p: 0 with a copy in *out (NULL when absent or
 * null), -1 when it is there but no string.
 */
static int recorded(char **out, const struct jnode *root, const char *text,
		    const struct ptoks *p)
{
	const struct jnode *n = lookup(root, p);

	*out = NULL;
	if (!n || n->kind == JNODE_NULL)
		return 0;
	*out = jnode_string(n, text);
	return *out ? 0 : -1;
}

/* The inputs of layout input li in the record; -1 after fail(). */
static int plan_inputs(struct layout_fill_item *it,
		       const struct layout_input *li, const struct jnode *root)
{
	struct ptoks path = { 0 }, hash = { 0 }, stars = { 0 };
	struct hits hits = { 0 };
	size_t i;
	int ret = -1;

	ptoks_split(&path, li->path);
	ptoks_split(&hash, li->hash);
	find_all(root, &path, 0, &stars, &hits);
	if (!hits.nr) {
		fail(it, "no %s path at %s", li->name, li->path);
		goto out;
	}
	for (i = 0; i < hits.nr; i++) {
		struct fill_input *in;

		ALLOC_GROW(it->inputs, it->nr + 1, it->alloc);
		in = &it->inputs[it->nr++];
		memset(in, 0, sizeof(*in));
		in->li = li;
		substitute(&in->at, &hash, &hits.v[i].stars);
		in->path = jnode_string(hits.v[i].n, it->text.buf);
		if (!in->path || !*in->path) {
			fail(it, "the %s path at %s is not a string", li->name,
			     li->path);
			goto out;
		}
		if (recorded(&in->hash, root, it->text.buf, &in->at)) {
			fail(it, "the %s hash at %s is not a string", li->name,
			     li->hash);
			goto out;
		}
		if (!in->hash && (it->layout->fill & LAYOUT_FILL_HASH))
			it->to_fill++;
	}
	ret = 0;
out:
	ptoks_release(&path);
	ptoks_release(&hash);
	ptoks_release(&stars);
	hits_release(&hits);
	return ret;
}

/* Read the record and find what it lacks; fails or skips it when it can. */
static void plan_item(struct layout_fill *lf, struct layout_fill_item *it)
{
	const struct layout *lay = it->layout;
	struct strbuf err = STRBUF_INIT;
	struct jnode root = JNODE_INIT;
	struct arena arena = ARENA_INIT;
	struct value *v;
	struct ptoks commit = { 0 };
	size_t i, wl = lf->repo.workdir.len;

	if (!lay->fill) {
		it->state = BACKFILL_SKIPPED;
		strbuf_addf(&it->reason, "its layout '%s' has no backfill key",
			    lay->name);
		goto out;
	}
	if (read_file_limited(&it->text, it->path, FILL_RECORD_MAX, &err) ||
	    jsonload_parse(&v, &arena, it->text.buf, it->text.len, &err) ||
	    jnode_parse(&root, it->text.buf, it->text.len, &err)) {
		fail(it, "cannot read the record: %s", err.buf);
		goto out;
	}
	if (root.kind != JNODE_OBJECT) {
		fail(it, "the record is not a JSON object");
		goto out;
	}
	for (i = 0; i < lay->nr; i++)
		if (plan_inputs(it, &lay->inputs[i], &root))
			goto out;
	if (lay->commit) {
		ptoks_split(&commit, lay->commit);
		if (recorded(&it->commit, &root, it->text.buf, &commit)) {
			fail(it, "the commit at %s is not a string",
			     lay->commit);
			goto out;
		}
	}
	it->fill_commit = !it->commit && (lay->fill & LAYOUT_FILL_COMMIT);
	it->to_fill += it->fill_commit;
	if (!it->to_fill) {
		it->state = BACKFILL_SKIPPED;
		goto out;
	}
	if (!it->fill_commit && (!it->commit || strlen(it->commit) != 40 ||
	    strspn(it->commit, "0123456789abcdef") != 40)) {
		fail(it, "its hashes are read at its commit, and %s is no "
		     "full commit id", it->commit ? it->commit : "(none)");
		goto out;
	}
	if (wl && !strncmp(it->path, lf->repo.workdir.buf, wl) &&
	    it->path[wl] == '/')
		it->repo_path = xstrdup(it->path + wl + 1);
out:
	ptoks_release(&commit);
	jnode_release(&root);
	arena_release(&arena);
	strbuf_release(&err);
}

int layout_fill_init(struct layout_fill *lf, const struct layout *layouts,
		     size_t nr, const char *top, struct strbuf *err)
{
	struct repo init = REPO_INIT;
	size_t i;
	int rc_ret;

	memset(lf, 0, sizeof(*lf));
	lf->repo = init;
	lf->layouts = layouts;
	lf->nr_layouts = nr;
	lf->top = top;
	for (i = 0; i < nr; i++)
		if (layouts[i].fill)
			break;
	if (i == nr)
		return 0;	/* nothing to fill: no repository needed */
	rc_ret = repo_open(&lf->repo, top, 0, err);
	if (rc_ret < 0)
		return -1;
	if (!rc_ret && lf->repo.workdir.len)
		lf->have_head = !commit_head(lf->head, &lf->repo, NULL);
	return 0;
}

static void fill_input_release(struct fill_input *in)
{
	free(in->path);
	free(in->hash);
	ptoks_release(&in->at);
}

void layout_fill_release(struct layout_fill *lf)
{
	size_t i, j;

	for (i = 0; i < lf->nr; i++) {
		struct layout_fill_item *it = &lf->items[i];

		free(it->path);
		free(it->rel);
		free(it->repo_path);
		free(it->commit);
		strbuf_release(&it->reason);
		strbuf_release(&it->root);
		strbuf_release(&it->text);
		strbuf_release(&it->filled);
		strbuf_release(&it->fields);
		for (j = 0; j < it->nr; j++)
			fill_input_release(&it->inputs[j]);
		free(it->inputs);
	}
	free(lf->items);
	repo_release(&lf->repo);
}

/* One record found: its paths, its root (as verify finds it), its plan. */
static void add_item(struct layout_fill *lf, const struct layout_record *r,
		     const char *root)
{
	struct layout_fill_item *it;
	struct strbuf rel = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	/* the record's JSON: its sidecar, for a layout that gives it one */
	const char *file = r->sidecar ? r->sidecar : r->shown;
	char *real = realpath(file, NULL);

	ALLOC_GROW(lf->items, lf->nr + 1, lf->alloc);
	it = &lf->items[lf->nr++];
	memset(it, 0, sizeof(*it));
	strbuf_init(&it->reason, 0);
	strbuf_init(&it->root, 0);
	strbuf_init(&it->text, 0);
	strbuf_init(&it->filled, 0);
	strbuf_init(&it->fields, 0);
	it->layout = r->layout;
	it->path = real ? real : xstrdup(file);
	path_relative(&rel, lf->top, it->path);
	it->rel = strbuf_detach(&rel, NULL);
	path_dirname(&dir, it->path);
	if (!real)
		fail(it, "cannot read the record: %s", strerror(errno));
	else if (root_find_pinned(&it->root, dir.buf, root, &err) < 0)
		fail(it, "%s", err.buf);
	else
		plan_item(lf, it);
	strbuf_release(&dir);
	strbuf_release(&err);
}

int layout_fill_scan(struct layout_fill *lf, const char *root, int *argc,
		     char **argv, struct strbuf *err)
{
	struct layout_list list = LAYOUT_LIST_INIT;
	size_t i;
	int ret;

	ret = layout_list_collect(&list, lf->layouts, lf->nr_layouts,
				  lf->top, argc, argv, 0);
	lf->taken = list.taken;
	for (i = 0; i < list.nr; i++)
		add_item(lf, &list.items[i], root);
	layout_list_release(&list);
	if (ret)
		strbuf_addstr(err, "cannot search every directory for records");
	return ret;
}

static int wants_commit(const struct layout_fill *lf,
			const struct layout_fill_item *it)
{
	return it->state == BACKFILL_TODO && it->fill_commit &&
	       it->repo_path && lf->have_head;
}

int layout_fill_find_commits(struct layout_fill *lf, int allow_shallow,
			     struct strbuf *err)
{
	const char **paths = xcalloc(lf->nr ? lf->nr : 1, sizeof(*paths));
	struct history_answer *answers;
	size_t i, n = 0;
	int truncated = 0, ret = 0;

	for (i = 0; i < lf->nr; i++)
		if (wants_commit(lf, &lf->items[i]))
			paths[n++] = lf->items[i].repo_path;
	answers = xcalloc(n ? n : 1, sizeof(*answers));
	/* the commit that added each record: the first on its history */
	if (n && history_find_hex(&lf->repo, lf->head, paths, n,
				  HISTORY_FIRST, answers, &truncated, err))
		ret = -1;
	for (i = 0, n = 0; !ret && i < lf->nr; i++) {
		struct layout_fill_item *it = &lf->items[i];

		if (!wants_commit(lf, it))
			continue;
		it->added = answers[n++];
		/* beyond a shallow boundary it may have been added earlier */
		if (it->added.truncated && allow_shallow) {
			it->state = BACKFILL_SKIPPED;
			strbuf_addstr(&it->reason, "its history is truncated "
				      "(a shallow clone)");
		} else if (it->added.truncated)
			fail(it, "its history is truncated (a shallow clone): "
			     "the commit that added it may lie beyond the "
			     "boundary; fetch the history (git fetch "
			     "--unshallow), or --allow-shallow to skip it");
	}
	free(paths);
	free(answers);
	return ret;
}

/* A commit's tree, as verify --at reads inputs from it. */
struct at_tree {
	struct revision rev;
	struct strbuf prefix;
	struct input_tree tree;
};

static int at_tree_open(struct at_tree *at, struct layout_fill *lf,
			const struct layout_fill_item *it, const char *hex,
			struct strbuf *err)
{
	if (revision_resolve(&at->rev, &lf->repo, hex, err))
		return -1;
	if (revision_prefix(&at->prefix, &lf->repo, it->root.buf)) {
		strbuf_addf(err, "the root %s is not inside the repository",
			    it->root.buf);
		return -1;
	}
	at->tree.repo = lf->repo.git;
	at->tree.tree = at->rev.tree;
	at->tree.index = NULL;
	at->tree.commit = &at->rev.id;
	at->tree.prefix = at->prefix.buf;
	return 0;
}

static void at_tree_release(struct at_tree *at)
{
	revision_release(&at->rev);
	strbuf_release(&at->prefix);
}

/*
 * Where the recorded path leads in the commit's tree, relative to the
 * work tree, into repo_rel.  Returns 0, or -1 with the reason in err.
 */
static int resolve_at(struct strbuf *repo_rel, const struct at_tree *at,
		      const char *root, const char *path, struct strbuf *err)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	int ret = -1;

	input_resolve(&in, root, path, &at->tree, 0);
	if (in.status != INPUT_OK)
		strbuf_addf(err, "%s at commit %.12s: %s", path, at->rev.hex,
			    in.why.len ? in.why.buf : "not there");
	else {
		strbuf_addf(repo_rel, "%s%s", at->prefix.buf, in.rel.buf);
		ret = 0;
	}
	resolved_input_release(&in);
	return ret;
}

/*
 * The input hashed from the commit's tree as mode says, into hex
 * ("sha256:<hex>").  Returns 0; 1 when a structured mode finds text that
 * does not parse; -1 when it cannot be read or hashed.  The reason is
 * in err but for 0.
 */
static int hash_at(char hex[HASH_HEX_MAX], const struct at_tree *at,
		   const char *root, const char *path, enum hash_mode mode,
		   struct strbuf *err)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct strbuf text = STRBUF_INIT, fixed = STRBUF_INIT;
	int ret = -1;

	input_resolve(&in, root, path, &at->tree, 0);
	if (in.status != INPUT_OK) {
		strbuf_addf(err, "%s at commit %.12s: %s", path, at->rev.hex,
			    in.why.len ? in.why.buf : "not there");
		goto out;
	}
	if (mode == HASH_RAW) {
		ret = input_hash_raw(hex, &in, &at->tree, err);
		goto out;
	}
	if (input_read(&text, &in, &at->tree, HASH_DEFAULT_MAX_SIZE, err))
		goto out;
	utf8_repair(&fixed, text.buf, text.len);
	ret = hash_text(hex, fixed.buf, fixed.len, mode, err);
	if (ret == HASH_EINVALID)
		ret = 1;
	else if (ret)
		ret = -1;
out:
	resolved_input_release(&in);
	strbuf_release(&text);
	strbuf_release(&fixed);
	return ret;
}

/*
 * The input's hash at the commit as its mode says into in->found (a
 * raw-then-structured one structured when it parses, raw otherwise, as
 * AHD's backfill hashes a brief).  -1 after fail().
 */
static int hash_input(struct layout_fill_item *it, const struct at_tree *at,
		      struct fill_input *in)
{
	struct strbuf err = STRBUF_INIT;
	enum pin_mode mode = in->li->mode;
	int r;

	r = hash_at(in->found, at, it->root.buf, in->path,
		    mode == PIN_RAW ? HASH_RAW : HASH_STRUCTURED, &err);
	if (r == 1 && mode == PIN_RAW_THEN_STRUCTURED) {
		strbuf_reset(&err);
		r = hash_at(in->found, at, it->root.buf, in->path,
			    HASH_RAW, &err);
	}
	if (r == 1)
		fail(it, "%s %s at commit %.12s did not parse: %s",
		     in->li->name, in->path, at->rev.hex, err.buf);
	else if (r)
		fail(it, "%s %s", in->li->name, err.buf);
	strbuf_release(&err);
	return r ? -1 : 0;
}

/* in's recorded hash as verify compares it, "sha256:<hex>". */
static void recorded_hash(struct strbuf *out, const struct fill_input *in)
{
	if (in->li->spelling == SPELL_HEX)
		strbuf_addstr(out, "sha256:");
	strbuf_addstr(out, in->hash);
}

/*
 * A record that names no commit gets the one its inputs were at; the
 * hashes it does record must be those of that commit, or the commit
 * would be a guess.  -1 after fail().
 */
static int check_recorded(struct layout_fill_item *it,
			  const struct at_tree *at, struct fill_input *in)
{
	struct strbuf want = STRBUF_INIT, err = STRBUF_INIT;
	char raw[HASH_HEX_MAX];
	int ret = 0;

	recorded_hash(&want, in);
	if (hash_input(it, at, in)) {
		ret = -1;
		goto out;
	}
	if (!strcmp(want.buf, in->found))
		goto out;
	if (in->li->mode == PIN_RAW_THEN_STRUCTURED &&
	    !hash_at(raw, at, it->root.buf, in->path, HASH_RAW, &err) &&
	    !strcmp(want.buf, raw))
		goto out;
	fail(it, "its %s %s does not have its recorded hash at commit %.12s, "
	     "the last one before the record to change its inputs: its "
	     "commit is not filled", in->li->name, in->path, at->rev.hex);
	ret = -1;
out:
	in->found[0] = '\0';
	strbuf_release(&want);
	strbuf_release(&err);
	return ret;
}

static int first_change(void *data, const git_oid *commit)
{
	revision_hex(data, commit);
	return 1;
}

/*
 * The commit the record's inputs were at: the newest commit, at or
 * before the one that added it, that changed one of them.  -1 after
 * fail().
 */
static int find_input_commit(struct layout_fill *lf,
			     struct layout_fill_item *it,
			     char hex[REVISION_HEX_SIZE])
{
	struct at_tree added = { REVISION_INIT, STRBUF_INIT, { 0 } };
	struct strbuf err = STRBUF_INIT, *rel;
	const char **paths = xcalloc(it->nr ? it->nr : 1, sizeof(*paths));
	size_t i;
	int truncated = 0, ret = -1;

	rel = xcalloc(it->nr ? it->nr : 1, sizeof(*rel));
	for (i = 0; i < it->nr; i++)
		strbuf_init(&rel[i], 0);
	hex[0] = '\0';
	if (!it->added.found) {
		fail(it, "no git commit found for the record; needs to be "
		     "tracked first");
		goto out;
	}
	if (at_tree_open(&added, lf, it, it->added.hex, &err)) {
		fail(it, "%s", err.buf);
		goto out;
	}
	for (i = 0; i < it->nr; i++) {
		/* where each input is: resolved in the commit's tree */
		if (resolve_at(&rel[i], &added, it->root.buf,
			       it->inputs[i].path, &err)) {
			fail(it, "%s %s (the commit that added the record)",
			     it->inputs[i].li->name, err.buf);
			goto out;
		}
		paths[i] = rel[i].buf;
	}
	if (history_changes(lf->repo.git, &it->added.commit, paths, it->nr,
			    first_change, hex, &truncated, &err)) {
		fail(it, "%s", err.buf);
		goto out;
	}
	if (!hex[0]) {
		fail(it, "no commit up to %.12s changed its inputs%s",
		     it->added.hex, truncated ? " (a shallow clone: fetch "
		     "the history)" : "");
		goto out;
	}
	ret = 0;
out:
	for (i = 0; i < it->nr; i++)
		strbuf_release(&rel[i]);
	free(rel);
	free(paths);
	at_tree_release(&added);
	strbuf_release(&err);
	return ret;
}

/*
 * Fill value (spelt for people) at p into it->filled, then read it back
 * from the edited text: what is written must be what was meant.  -1
 * after fail().
 */
static int fill_one(struct layout_fill_item *it, const struct ptoks *p,
		    const char *value)
{
	struct strbuf err = STRBUF_INIT, shown = STRBUF_INIT;
	struct jnode root = JNODE_INIT;
	char *back = NULL;
	int ret = -1;

	ptoks_show(&shown, p);
	if (jnode_fill(&it->filled, p->v, p->nr, value, &err) < 0 ||
	    jnode_parse(&root, it->filled.buf, it->filled.len, &err)) {
		fail(it, "cannot fill %s: %s", shown.buf, err.buf);
		goto out;
	}
	if (recorded(&back, &root, it->filled.buf, p) || !back ||
	    strcmp(back, value)) {
		fail(it, "cannot fill %s: it does not read back", shown.buf);
		goto out;
	}
	strbuf_addf(&it->fields, "%s\t%s\n", shown.buf, value);
	ret = 0;
out:
	free(back);
	jnode_release(&root);
	strbuf_release(&err);
	strbuf_release(&shown);
	return ret;
}

int layout_fill_build(struct layout_fill *lf, struct layout_fill_item *it)
{
	struct at_tree at = { REVISION_INIT, STRBUF_INIT, { 0 } };
	struct strbuf err = STRBUF_INIT;
	struct ptoks commit = { 0 };
	char hex[REVISION_HEX_SIZE];
	size_t i;
	int ret = -1;

	if (it->fill_commit ? find_input_commit(lf, it, hex) :
	    (snprintf(hex, sizeof(hex), "%s", it->commit), 0))
		goto out;
	if (at_tree_open(&at, lf, it, hex, &err)) {
		fail(it, "%s", err.buf);
		goto out;
	}
	strbuf_addbuf(&it->filled, &it->text);
	if (it->fill_commit) {
		for (i = 0; i < it->nr; i++)
			if (it->inputs[i].hash &&
			    check_recorded(it, &at, &it->inputs[i]))
				goto out;
		ptoks_split(&commit, it->layout->commit);
		if (fill_one(it, &commit, hex))
			goto out;
	}
	for (i = 0; i < it->nr; i++) {
		struct fill_input *in = &it->inputs[i];

		if (in->hash || !(it->layout->fill & LAYOUT_FILL_HASH))
			continue;
		if (hash_input(it, &at, in) ||
		    fill_one(it, &in->at, in->li->spelling == SPELL_HEX ?
			     in->found + 7 : in->found))
			goto out;
	}
	ret = 0;
out:
	ptoks_release(&commit);
	at_tree_release(&at);
	strbuf_release(&err);
	return ret;
}

int layout_fill_write(const struct layout_fill_item *it, struct strbuf *err)
{
	struct strbuf now = STRBUF_INIT;
	int ret = -1;

	/* a run may have rewritten it meanwhile: never lose that */
	if (read_file_limited(&now, it->path, FILL_RECORD_MAX, err))
		goto out;
	if (now.len != it->text.len ||
	    memcmp(now.buf, it->text.buf, now.len)) {
		strbuf_addstr(err, "the record changed while backfill read "
			      "it; not written");
		goto out;
	}
	/* beneath the root: a planted symlink leads nothing out */
	ret = write_file_beneath(it->root.buf, it->path, it->filled.buf,
				 it->filled.len, 0666, err);
out:
	strbuf_release(&now);
	return ret;
}

/* "  <pointer>: <value>" for each field filled. */
static void say_fields(const struct layout_fill_item *it,
		       layout_fill_say_fn note)
{
	const char *p = it->fields.buf, *tab, *nl;
	char *value;

	while ((tab = strchr(p, '\t')) && (nl = strchr(tab, '\n'))) {
		value = xmemdupz(tab + 1, nl - tab - 1);
		note("  ", p, tab - p, value);
		free(value);
		p = nl + 1;
	}
}

/*
 * A warning (or an error) about the record, its name and the reason
 * quoted: both come from the repository, and each stays one line.
 */
static void complain(const struct layout_fill_item *it, const char *what,
		     const struct strbuf *why, int is_error)
{
	struct strbuf msg = STRBUF_INIT;

	quote_c_style_n(&msg, it->rel, strlen(it->rel));
	strbuf_addf(&msg, ": %s", what);
	quote_escape(&msg, why->buf, why->len);
	if (is_error)
		error("%s", msg.buf);
	else
		warning("%s", msg.buf);
	strbuf_release(&msg);
}

void layout_fill_run(struct layout_fill *lf, int dry_run, int verbose,
		     layout_fill_say_fn note, struct layout_fill_counts *out)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < lf->nr; i++) {
		struct layout_fill_item *it = &lf->items[i];

		if (it->state == BACKFILL_SKIPPED) {
			out->skipped++;
			if (it->reason.len)
				complain(it, "skipped: ", &it->reason, 0);
			else if (verbose)
				note("skipped ", it->rel, strlen(it->rel),
				     "it has every field backfill fills");
			continue;
		}
		if (it->state == BACKFILL_FAILED || layout_fill_build(lf, it)) {
			out->failed++;
			continue;
		}
		strbuf_reset(&err);
		if (!dry_run && layout_fill_write(it, &err)) {
			complain(it, "", &err, 1);
			fail(it, "%s", err.buf);
			out->failed++;
			out->write_failed = 1;
			continue;
		}
		note(dry_run ? "would write " : "wrote ", it->rel,
		     strlen(it->rel), NULL);
		say_fields(it, note);
		out->written++;
	}
	strbuf_release(&err);
}

void layout_fill_say_failed(const struct layout_fill *lf,
			    layout_fill_say_fn say)
{
	size_t i;

	for (i = 0; i < lf->nr; i++)
		if (lf->items[i].state == BACKFILL_FAILED)
			say("  - ", lf->items[i].rel, strlen(lf->items[i].rel),
			    lf->items[i].reason.buf);
}
