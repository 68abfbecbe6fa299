#include "config.h"
#include "hookcheck.h"
#include "hooklost.h"
#include "hookscan.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "root/inputpath.h"
#include "quote.h"
#include "root/root.h"
#include "root/rootfile.h"
#include "config/rcfile.h"
#include "record/layout.h"
#include "record/sidecar.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

struct paths {
	char **v;
	size_t nr, alloc;
};

static void paths_add(struct paths *p, const char *s)
{
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = xstrdup(s);
}

static void paths_release(struct paths *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->v[i]);
	free(p->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int paths_has(const struct paths *p, const char *s)
{
	return p->nr && bsearch(&s, p->v, p->nr, sizeof(*p->v), cmp_str);
}

/*
 * Hash answers by file: the same input is pinned by many reports.  In
 * one state a path (where the links led) names one blob, so the state
 * and the path are the key.
 */
struct hash_memo {
	const struct hook_state *state;
	char *path;
	int kind;		/* 0 structured, 1 raw */
	int ret;
	char hex[HASH_HEX_MAX];
};

struct ctx {
	const char *workdir;
	const struct hook_state *base, *next;
	struct paths changed;
	struct hash_memo *memo;
	size_t nr_memo, alloc_memo;
	struct hook_check_result *res;
	int strict;
	int has_links;		/* a symlink in next or among the changes */
	/*
	 * The change edits a .gitattributes: the bytes a checkout writes
	 * (eol, filters, git-lfs) may change for paths it did not touch
	 */
	int attrs_changed;
	/* roots by directory, ahd-replay.root by repository */
	char **root_dirs, **roots;
	size_t nr_roots, alloc_roots, alloc_roots2;
	struct root_memo root_memo;
	struct hook_names names;	/* the changed paths' last components */
	struct cache *cache;	/* the hooks' level (hookscan.h), or NULL */
	const struct hook_lost *lost;
	int rc_changed;		/* the change edits .ahd-replay.yml */
};

/* What blob_hash() returns for a git-lfs object that is not here. */
#define HASH_LFS_ABSENT (-10)

/*
 * The bytes verify hashes in this work tree for the file tp found in s
 * (HEAD, or the index once committed), when they are not what a
 * checkout of s writes: the work tree's own, where git counts the file
 * unmodified (an LF file under core.autocrlf=true is intact for verify
 * here, so the hook must not call it drift).  1 with them in out; 0
 * (out empty) when the checkout's bytes are the ones to hash: a state
 * the work tree does not hold (a push), a file changed since, or one
 * that cannot be read, where the answer of a fresh checkout stands.
 */
static int worktree_bytes(struct strbuf *out, const struct ctx *c,
			  const struct hook_state *s, const struct treepath *tp)
{
	struct strbuf full = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (!s->in_worktree || (!s->snap->index && !s->snap->tree))
		return 0;
	strbuf_addf(&full, "%s/%s", c->workdir, tp->path.buf);
	if (rootfile_read(out, c->workdir, full.buf, 0, 0, &err) ==
	    ROOTFILE_OK &&
	    snapshot_worktree_unmodified(s->snap, tp, out->buf, out->len,
					 &err) == 1)
		ret = 1;
	else
		strbuf_reset(out);
	strbuf_release(&full);
	strbuf_release(&err);
	return ret;
}

/*
 * Hash the file tp found in state s as verify hashes the checked-out
 * file: raw (kind 1) or structured (kind 0).
 */
static int blob_hash(struct ctx *c, const struct hook_state *s,
		     const struct treepath *tp, int kind, char *hex)
{
	struct strbuf bytes = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct lfs_pointer ptr;
	struct hash_memo *m;
	size_t i;
	int ret;

	for (i = 0; i < c->nr_memo; i++)
		if (c->memo[i].kind == kind && c->memo[i].state == s &&
		    !strcmp(c->memo[i].path, tp->path.buf)) {
			memcpy(hex, c->memo[i].hex, HASH_HEX_MAX);
			return c->memo[i].ret;
		}
	switch (worktree_bytes(&bytes, c, s, tp) ? 0 :
		snapshot_checkout(&bytes, &ptr, s->snap, tp, &err)) {
	case 0:
		break;
	case SNAPSHOT_LFS_ABSENT:
		/* its oid is the raw hash when the content is valid UTF-8 */
		lfs_raw_hash(hex, &ptr);
		ret = HASH_LFS_ABSENT;
		goto out;
	default:
		ret = HASH_EIO;
		goto out;
	}
	utf8_repair(&text, bytes.buf, bytes.len);
	strbuf_reset(&err);
	if (kind)
		ret = hash_text(hex, text.buf, text.len, HASH_RAW, &err);
	else if (text.len > HASH_DEFAULT_MAX_SIZE)
		ret = HASH_EIO;
	else
		ret = hash_text(hex, text.buf, text.len, HASH_STRUCTURED, &err);
	ALLOC_GROW(c->memo, c->nr_memo + 1, c->alloc_memo);
	m = &c->memo[c->nr_memo++];
	m->state = s;
	m->path = xstrdup(tp->path.buf);
	m->kind = kind;
	m->ret = ret;
	memcpy(m->hex, hex, HASH_HEX_MAX);
out:
	strbuf_release(&bytes);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/*
 * Does the blob hash to recorded as verify would hash it (a brief raw or
 * structured)?  1 yes, 0 no, -1 cannot tell.  shown gets the hash shown
 * for it.
 */
static int blob_matches(struct ctx *c, const struct hook_state *s,
			const struct treepath *tp, enum pin_mode mode,
			const char *recorded, char *shown)
{
	char raw[HASH_HEX_MAX];
	int ret;

	if (mode != PIN_STRUCTURED) {
		ret = blob_hash(c, s, tp, 1, raw);
		if ((!ret || ret == HASH_LFS_ABSENT) && !strcmp(raw, recorded)) {
			memcpy(shown, raw, HASH_HEX_MAX);
			return 1;
		}
		if (mode == PIN_RAW && !ret) {
			memcpy(shown, raw, HASH_HEX_MAX);
			return 0;
		}
		if (mode == PIN_RAW)
			ret = ret == HASH_LFS_ABSENT ? ret : HASH_EIO;
		else
			ret = blob_hash(c, s, tp, 0, shown);
		if (ret == HASH_EINVALID) {
			memcpy(shown, raw, HASH_HEX_MAX);
			return 0;
		}
	} else
		ret = blob_hash(c, s, tp, 0, shown);
	if (ret == HASH_EINVALID) {
		strcpy(shown, "(does not parse)");
		return 0;
	}
	if (ret == HASH_LFS_ABSENT) {
		strcpy(shown, "(git-lfs object not fetched)");
		return -1;
	}
	if (ret) {
		strcpy(shown, "(cannot hash)");
		return -1;
	}
	return !strcmp(shown, recorded);
}

static const char *find_root(struct ctx *c, const char *sidecar_path)
{
	struct strbuf dir = STRBUF_INIT, root = STRBUF_INIT, err = STRBUF_INIT;
	const char *slash = strrchr(sidecar_path, '/');
	size_t i;

	strbuf_addstr(&dir, c->workdir);
	if (slash) {
		strbuf_addch(&dir, '/');
		strbuf_add(&dir, sidecar_path, (size_t)(slash - sidecar_path));
	}
	for (i = 0; i < c->nr_roots; i++)
		if (!strcmp(c->root_dirs[i], dir.buf)) {
			strbuf_release(&dir);
			return c->roots[i];
		}
	/* The directory may not exist in the work tree: fall back upward. */
	while (root_find_pinned_memo(&root, dir.buf, &c->root_memo,
				     &err) < 0 &&
	       dir.len > strlen(c->workdir)) {
		char *s = strrchr(dir.buf, '/');

		strbuf_reset(&err);
		strbuf_setlen(&dir, (size_t)(s - dir.buf));
	}
	ALLOC_GROW(c->root_dirs, c->nr_roots + 1, c->alloc_roots);
	ALLOC_GROW(c->roots, c->nr_roots + 1, c->alloc_roots2);
	c->root_dirs[c->nr_roots] = strbuf_detach(&dir, NULL);
	c->roots[c->nr_roots] = root.len ? strbuf_detach(&root, NULL) :
				xstrdup(c->workdir);
	strbuf_release(&root);
	strbuf_release(&err);
	return c->roots[c->nr_roots++];
}

static void short_hash(struct strbuf *out, const char *h)
{
	if (starts_with(h, "sha256:"))
		strbuf_addf(out, "sha256:%.12s", h + 7);
	else
		strbuf_addstr(out, h);
}

static void finding(struct ctx *c, int problem, const char *report,
		    const char *field, const char *path, const char *recorded,
		    const char *base_hash, const char *next_hash,
		    const char *what)
{
	struct strbuf *t = &c->res->text;

	if (problem)
		c->res->problems++;
	else
		c->res->warnings++;
	/* Paths come from the tree and the sidecar: quoted (quote.h). */
	strbuf_addf(t, "  %s ", problem ? "FAIL" : "warn");
	quote_c_style(t, report);
	strbuf_addf(t, ": %s ", field);
	quote_c_style(t, path);
	strbuf_addstr(t, "\n      recorded ");
	short_hash(t, recorded);
	if (base_hash) {
		strbuf_addf(t, ", %s ", c->base->name);
		short_hash(t, base_hash);
	}
	if (next_hash) {
		strbuf_addf(t, ", %s ", c->next->name);
		short_hash(t, next_hash);
	}
	strbuf_addstr(t, "\n      ");
	quote_escape(t, what, strlen(what));
	strbuf_addch(t, '\n');
}

/*
 * The state as inputpath.h reads inputs from it.  input_tree names a
 * tree, an index and a commit, which the snapshot has.
 */
static void state_tree(struct input_tree *it, const struct hook_state *s,
		       const char *prefix)
{
	it->repo = s->snap->repo;
	it->tree = s->snap->tree;
	it->index = s->snap->index;
	it->commit = s->snap->has_commit ? &s->snap->commit : NULL;
	it->prefix = prefix;
}

static int state_empty(const struct hook_state *s)
{
	return !s->snap->tree && !s->snap->index;
}

/*
 * Did the change touch the way to this input: the path, a symlink on its
 * way, or the file the links lead to?
 */
static int touched(struct ctx *c, const struct treepath *tp, const char *path)
{
	size_t i;

	if (!*path)
		return 0;
	if (c->attrs_changed ||
	    paths_has(&c->changed, path) ||
	    (tp->path.len && paths_has(&c->changed, tp->path.buf)))
		return 1;
	for (i = 0; i < tp->nr_links; i++)
		if (paths_has(&c->changed, tp->links[i]))
			return 1;
	return 0;
}

/* Where path leads in the state (its symlinks followed). */
static void state_resolve(struct treepath *tp, const struct hook_state *s,
			  const char *path)
{
	if (*path && !state_empty(s))
		snapshot_resolve(tp, s->snap, path);
	else
		tp->status = TREEPATH_NOT_FOUND;
}

/*
 * Did the base's version of a sidecar that changes here already fail
 * for this input: its recorded input missing, unusable or drifted in the
 * base state?  1 yes; 0 when it verified, cannot be told, or there was
 * no such sidecar or input.
 */
static int drifted_before(struct ctx *c, const char *root, const char *prefix,
			  enum pin_mode mode, const struct sidecar_input *old)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct treepath tp = TREEPATH_INIT;
	struct input_tree it;
	struct strbuf path = STRBUF_INIT;
	char hash[HASH_HEX_MAX];
	int ret;

	if (!old || !old->path || state_empty(c->base))
		return 0;
	state_tree(&it, c->base, prefix);
	input_resolve(&in, root, old->path, &it, 0);
	if (in.rel.len)
		strbuf_addf(&path, "%s%s", prefix, in.rel.buf);
	state_resolve(&tp, c->base, path.buf);
	if (in.status != INPUT_OK || tp.status != TREEPATH_OK)
		ret = 1;
	else
		ret = !blob_matches(c, c->base, &tp, mode, old->hash, hash);
	treepath_release(&tp);
	resolved_input_release(&in);
	strbuf_release(&path);
	return ret;
}

/* judge_input()'s sidecar_changed for a record whose layout changes */
#define RELAYOUT 2

/*
 * Judge one input of one sidecar.  old is the same input of the base's
 * version of a sidecar that changes here (NULL when there is none).
 */
static void judge_input(struct ctx *c, const char *sidecar_path,
			const char *report, int sidecar_changed,
			const char *field, enum pin_mode mode,
			const struct sidecar_input *input,
			const struct sidecar_input *old)
{
	const char *root = find_root(c, sidecar_path);
	struct strbuf prefix = STRBUF_INIT, next_path = STRBUF_INIT;
	struct strbuf base_path = STRBUF_INIT;
	struct resolved_input in_next = RESOLVED_INPUT_INIT;
	struct resolved_input in_base = RESOLVED_INPUT_INIT;
	struct treepath tp_next = TREEPATH_INIT, tp_base = TREEPATH_INIT;
	struct input_tree it_next, it_base;
	char next_hash[HASH_HEX_MAX] = "", base_hash[HASH_HEX_MAX] = "";
	int has_next = 0, has_base = 0, m_next = 0, m_base = 0;
	size_t wl = strlen(c->workdir);

	if (strcmp(root, c->workdir)) {
		if (strncmp(root, c->workdir, wl) || root[wl] != '/')
			goto out;	/* a root outside this work tree */
		strbuf_addf(&prefix, "%s/", root + wl + 1);
	}
	state_tree(&it_next, c->next, prefix.buf);
	input_resolve(&in_next, root, input->path,
		      state_empty(c->next) ? NULL : &it_next, 0);
	if (in_next.rel.len)
		strbuf_addf(&next_path, "%s%s", prefix.buf, in_next.rel.buf);
	if (!state_empty(c->base)) {
		state_tree(&it_base, c->base, prefix.buf);
		input_resolve(&in_base, root, input->path, &it_base, 0);
		if (in_base.rel.len)
			strbuf_addf(&base_path, "%s%s", prefix.buf,
				    in_base.rel.buf);
	}
	state_resolve(&tp_next, c->next, next_path.buf);
	state_resolve(&tp_base, c->base, base_path.buf);
	/* Nothing on the way to this input changed: nothing to judge. */
	if (!sidecar_changed && !touched(c, &tp_next, next_path.buf) &&
	    !touched(c, &tp_base, base_path.buf))
		goto out;

	if (in_next.status == INPUT_OK && tp_next.status == TREEPATH_OK) {
		has_next = 1;
		m_next = blob_matches(c, c->next, &tp_next, mode, input->hash,
				      next_hash);
	}
	if (in_base.status == INPUT_OK && tp_base.status == TREEPATH_OK) {
		has_base = 1;
		m_base = blob_matches(c, c->base, &tp_base, mode, input->hash,
				      base_hash);
	}

	if (sidecar_changed) {
		if (has_next && m_next < 0) {
			finding(c, 0, report, field, input->path, input->hash,
				NULL, next_hash, "cannot hash this input as "
				"the reference does; not judged");
			goto out;
		}
		if (has_next && m_next == 1)
			goto out;
		/*
		 * An edit of a report that had drifted already (its token
		 * path fixed after a rename, say) makes nothing worse.
		 */
		if (drifted_before(c, root, prefix.buf, mode, old)) {
			c->res->stale++;
			finding(c, c->strict, report, field, input->path,
				input->hash, NULL, has_next ? next_hash : NULL,
				sidecar_changed == RELAYOUT ? "its layout "
				"changes here but it did not verify before "
				"either: the report had drifted already" :
				"the sidecar changes here but did not verify "
				"before either: the report had drifted already");
		} else if (!has_next)
			finding(c, 1, report, field, input->path, input->hash,
				NULL, NULL, sidecar_changed == RELAYOUT ?
				"its layout changes here, and this input is "
				"not in what is committed" :
				"the sidecar is new or changed here, "
				"and this input is not in what is committed");
		else
			finding(c, 1, report, field, input->path, input->hash,
				NULL, next_hash, sidecar_changed == RELAYOUT ?
				"its layout changes here and this input does "
				"not match it" : "the sidecar is new or changed "
				"here and does not match this input");
		goto out;
	}
	if (!has_next) {
		finding(c, 1, report, field, input->path, input->hash,
			has_base ? base_hash : NULL, NULL,
			"this deletes (or moves) an input the report pins");
		goto out;
	}
	if (m_next == 1)
		goto out;
	if (m_next < 0 || m_base < 0) {
		finding(c, 0, report, field, input->path, input->hash,
			has_base ? base_hash : NULL, next_hash,
			"cannot hash this input as the reference does; not "
			"judged");
		goto out;
	}
	if (has_base && m_base == 1)
		finding(c, 1, report, field, input->path, input->hash,
			base_hash, next_hash, "this change makes the report "
			"drift");
	else {
		c->res->stale++;
		finding(c, c->strict, report, field, input->path, input->hash,
			has_base ? base_hash : NULL, next_hash,
			"the report had drifted already; this change does not "
			"restore it");
	}
out:
	treepath_release(&tp_next);
	treepath_release(&tp_base);
	resolved_input_release(&in_next);
	resolved_input_release(&in_base);
	strbuf_release(&prefix);
	strbuf_release(&next_path);
	strbuf_release(&base_path);
}

static int add_changed(void *data, const char *path, int link)
{
	struct ctx *c = data;

	const char *slash = strrchr(path, '/');

	if (link)
		c->has_links = 1;
	if (!strcmp(slash ? slash + 1 : path, ".gitattributes"))
		c->attrs_changed = 1;
	paths_add(&c->changed, path);
	return 0;
}

static int collect_changed(struct ctx *c, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;

	if (snapshot_diff(c->base->snap, c->next->snap, add_changed, c,
			  &why)) {
		strbuf_addf(err, "cannot compare %s with %s: %s", c->base->name,
			    c->next->name, why.buf);
		strbuf_release(&why);
		return -1;
	}
	if (c->changed.nr)
		qsort(c->changed.v, c->changed.nr, sizeof(*c->changed.v),
		      cmp_str);
	return 0;
}

/* A sidecar of the new state: its path and its blob. */
struct sidecar_file {
	char *path;
	char *record;		/* the file found: path, or its report */
	char hex[SNAPSHOT_HEX_MAX];
	const struct layout *layout;	/* a layout's record; NULL: AHD's */
	/*
	 * The change edits the record's layout, or declares it anew:
	 * old_layout is what the base's file said (NULL: nothing)
	 */
	int relayout;
	const struct layout *old_layout;
	int by_path;		/* a layout's sidecar, read by its path */
	int lost;		/* a record of no layout of the new file */
};

struct sidecar_files {
	struct sidecar_file *v;
	size_t nr, alloc;
	int *has_links;
	const struct rcfile *rc;	/* the new state's .ahd-replay.yml */
	const struct rcfile *old_rc;	/* the base's, when it differs */
};

/*
 * Do a and b read the same inputs from a record?  The rest of a layout
 * (its name, command, schema, what backfill fills) judges nothing.
 */
static int layout_same(const struct layout *a, const struct layout *b)
{
	size_t i;

	if (!a || !b || strcmp(a->records, b->records) || a->nr != b->nr)
		return 0;
	for (i = 0; i < a->nr; i++) {
		const struct layout_input *x = &a->inputs[i];
		const struct layout_input *y = &b->inputs[i];

		if (strcmp(x->path, y->path) || strcmp(x->hash, y->hash) ||
		    x->mode != y->mode || x->spelling != y->spelling)
			return 0;
	}
	return 1;
}

static int add_sidecar(void *data, const char *path, const char *hex,
		       int link)
{
	struct sidecar_files *out = data;
	const struct layout *lay = rcfile_layout_for(out->rc, path);
	const struct layout *was = out->old_rc ?
				   rcfile_layout_for(out->old_rc, path) : NULL;
	int relayout = out->old_rc && lay && !layout_same(lay, was);
	int lost = out->old_rc && !lay && was;

	/* a layout the change removes still judges its records here */
	if (!lay)
		lay = was;
	if (link)
		*out->has_links = 1;
	/* as verify lists sidecars, but for a bare one at the top */
	if (lay || (strlen(path) > strlen(".replay.json") &&
		    ends_with(path, ".replay.json"))) {
		struct strbuf sc = STRBUF_INIT;

		/* a report with a sidecar: its record is the sidecar */
		if (lay && lay->sidecar)
			layout_sidecar_for(&sc, lay, path);
		else
			strbuf_addstr(&sc, path);
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr].path = strbuf_detach(&sc, NULL);
		out->v[out->nr].record = xstrdup(path);
		out->v[out->nr].lost = lost;
		out->v[out->nr].by_path = lay && lay->sidecar;
		memcpy(out->v[out->nr].hex, hex, SNAPSHOT_HEX_MAX);
		out->v[out->nr].layout = lay;
		out->v[out->nr].relayout = relayout;
		out->v[out->nr].old_layout = was;
		out->nr++;
	}
	return 0;
}

static void sidecar_files_release(struct sidecar_files *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->v[i].path);
		free(l->v[i].record);
	}
	free(l->v);
}

/*
 * The base's version of the sidecar at path, when it has one that loads.
 * Returns 1 with it in out, else 0.  One that cannot be read counts as
 * none: the sidecar is then judged as new, which refuses more, never
 * less.
 */
static int base_sidecar(struct ctx *c, const char *path, struct sidecar *out)
{
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	if (snapshot_read_file(&buf, c->base->snap, path, &why) == 1)
		ret = !sidecar_parse(out, buf.buf, buf.len, &why);
	strbuf_release(&buf);
	strbuf_release(&why);
	return ret;
}

/* A sidecar that does not load only matters when it comes in now. */
static void broken_sidecar(struct ctx *c, const char *path,
			   const struct strbuf *why)
{
	struct strbuf *t = &c->res->text;

	c->res->problems++;
	strbuf_addstr(t, "  FAIL ");
	quote_c_style(t, path);
	strbuf_addstr(t, ": the sidecar does not load: ");
	quote_escape(t, why->buf, why->len);
	strbuf_addch(t, '\n');
}

/* The input of the base's version of a record named as in is. */
static const struct pinned_input *old_input(const struct record *old,
					    const struct pinned_input *in)
{
	size_t i;

	for (i = 0; i < old->nr; i++)
		if (!strcmp(old->inputs[i].name, in->name))
			return &old->inputs[i];
	return NULL;
}

/*
 * Judge the inputs of f, a layout's record (buf its text), as a
 * sidecar's: changed says the record itself changes here.
 */
static void judge_record(struct ctx *c, const struct sidecar_file *f,
			 const struct strbuf *buf, int changed)
{
	struct record rec = RECORD_INIT, old = RECORD_INIT;
	struct strbuf why = STRBUF_INIT, prev = STRBUF_INIT;
	size_t i;
	int had = 0;

	if (record_from_layout_text(&rec, f->layout, f->path, buf->buf,
				    buf->len, &why)) {
		if (changed)
			broken_sidecar(c, f->path, &why);
		goto out;
	}
	if (changed &&
	    snapshot_read_file(&prev, c->base->snap, f->path, &why) == 1)
		had = !record_from_layout_text(&old, f->layout, f->path,
					       prev.buf, prev.len, &why);
	for (i = 0; i < rec.nr; i++) {
		const struct pinned_input *in = &rec.inputs[i];
		const struct pinned_input *o = had ? old_input(&old, in) : NULL;
		struct sidecar_input si = { in->path, in->hash };
		struct sidecar_input so = { o ? o->path : NULL,
					    o ? o->hash : NULL };

		judge_input(c, f->path, f->path, changed, in->name, in->mode,
			    &si, o ? &so : NULL);
	}
out:
	record_release(&rec);
	record_release(&old);
	strbuf_release(&why);
	strbuf_release(&prev);
}

/* Did rec (the base's version, read as the base's file says) verify? */
static int verified_before(struct ctx *c, const char *path,
			   const struct record *rec)
{
	const char *root = find_root(c, path);
	struct strbuf prefix = STRBUF_INIT;
	size_t i, wl = strlen(c->workdir);
	int ok = rec->nr > 0;

	if (strcmp(root, c->workdir)) {
		if (strncmp(root, c->workdir, wl) || root[wl] != '/')
			ok = 0;	/* a root outside this work tree */
		else
			strbuf_addf(&prefix, "%s/", root + wl + 1);
	}
	for (i = 0; ok && i < rec->nr; i++) {
		struct sidecar_input si = { rec->inputs[i].path,
					    rec->inputs[i].hash };

		ok = !drifted_before(c, root, prefix.buf, rec->inputs[i].mode,
				     &si);
	}
	strbuf_release(&prefix);
	return ok;
}

/*
 * A record whose layout the change edits (or declares anew), the record
 * itself unchanged: judged in full under the new layout, as a record new
 * here is, unless it had not verified in the base under the old layout
 * either (its drift is then old, and judged as such).
 */
static void judge_relayout(struct ctx *c, const struct sidecar_file *f,
			   const struct strbuf *buf)
{
	struct record rec = RECORD_INIT, old = RECORD_INIT;
	struct strbuf why = STRBUF_INIT, prev = STRBUF_INIT;
	size_t i;
	int was_ok = 0;

	if (record_from_layout_text(&rec, f->layout, f->path, buf->buf,
				    buf->len, &why)) {
		broken_sidecar(c, f->path, &why);
		goto out;
	}
	if (f->old_layout &&
	    snapshot_read_file(&prev, c->base->snap, f->path, &why) == 1 &&
	    !record_from_layout_text(&old, f->old_layout, f->path, prev.buf,
				     prev.len, &why))
		was_ok = verified_before(c, f->path, &old);
	for (i = 0; i < rec.nr; i++) {
		const struct pinned_input *in = &rec.inputs[i];
		struct sidecar_input si = { in->path, in->hash };

		/* old drift: the same input as the base had it */
		judge_input(c, f->path, f->path, RELAYOUT, in->name, in->mode,
			    &si, was_ok ? NULL : &si);
	}
out:
	record_release(&rec);
	record_release(&old);
	strbuf_release(&why);
	strbuf_release(&prev);
}

/* Judge the inputs of the sidecar f of the new state. */
static void judge_sidecar(struct ctx *c, const struct sidecar_file *f)
{
	struct sidecar sc = SIDECAR_INIT, old = SIDECAR_INIT;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf report = STRBUF_INIT;
	int changed = paths_has(&c->changed, f->path);
	int unread = -2;	/* not read yet */
	int had;

	/* an AHD sidecar that names no changed path: nothing to judge */
	if (!changed && !f->layout && !c->has_links && !c->attrs_changed &&
	    !hook_scan_sidecar(c->cache, c->next->snap, f->hex, &c->names,
			       &buf, &unread, &why))
		goto out;
	if (unread == -2)
		unread = f->by_path ? snapshot_read_file(&buf, c->next->snap,
							 f->path, &why) != 1 :
			 snapshot_read_blob(&buf, c->next->snap, f->hex, &why);
	/* a layout's report without its sidecar pins nothing... */
	if (f->by_path && unread && !why.len) {
		/* ...unless this change lost it */
		if (changed || c->rc_changed)
			hook_lost_layout_sidecar(c->lost, c->rc_changed ?
						 f->old_layout : f->layout,
						 f->record, f->path);
		goto out;
	}
	/* a record that names no changed path: nothing to judge */
	if (!changed && !unread && !f->relayout && !c->has_links &&
	    !c->attrs_changed && !hook_names_in_text(&c->names, buf.buf, buf.len))
		goto out;
	if (!unread && f->layout && f->relayout && !changed) {
		judge_relayout(c, f, &buf);
		goto out;
	}
	if (!unread && f->layout) {
		judge_record(c, f, &buf, changed);
		goto out;
	}
	if (unread || sidecar_parse(&sc, buf.buf, buf.len, &why)) {
		if (changed)
			broken_sidecar(c, f->path, &why);
		goto out;
	}
	sidecar_report_for(&report, f->path);
	had = changed && base_sidecar(c, f->path, &old);
	judge_input(c, f->path, report.buf, changed, "token", PIN_STRUCTURED,
		    &sc.token, had ? &old.token : NULL);
	if (sc.brief.path)
		judge_input(c, f->path, report.buf, changed, "brief",
			    PIN_RAW_THEN_STRUCTURED, &sc.brief,
			    had && old.brief.path ? &old.brief : NULL);
out:
	sidecar_release(&sc);
	sidecar_release(&old);
	strbuf_release(&buf);
	strbuf_release(&why);
	strbuf_release(&report);
}

/*
 * The .ahd-replay.yml of state s (read as stored: a symbolic link there
 * is no file) into out, its text into text.  Returns 0 (also when there
 * is none), or -1 with the reason in err: errors name it as
 * "<state>:.ahd-replay.yml:<line>:<column>".
 */
static int state_rcfile(struct rcfile *out, struct strbuf *text,
			const struct hook_state *s, const char *workdir,
			struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT, why = STRBUF_INIT;
	int r = 0;

	strbuf_addf(&name, "%s:%s", s->name, RCFILE_NAME);
	if (!state_empty(s))
		r = snapshot_read_file(text, s->snap, RCFILE_NAME, &why);
	if (r < 0)
		strbuf_addf(err, "%s: %s", name.buf, why.buf);
	else if (r)
		r = rcfile_parse(out, workdir, name.buf, text->buf, text->len,
				 err);
	strbuf_release(&name);
	strbuf_release(&why);
	return r < 0 ? -1 : 0;
}

static int policy_strict(const struct rcfile *rc)
{
	const char *v = rc->policy[POLICY_STRICT].value;

	return v && !strcmp(v, "true");
}

/*
 * The layouts that judge the change: the new state's file (the index
 * being committed, the commit being pushed), and when the change edits
 * the file, the base's too, so that removing or editing a layout cannot
 * hide its records' drift.  A base file that is malformed judged nothing
 * before and is left out.
 */
static int load_layouts(struct sidecar_files *files, struct rcfile *rc,
			struct rcfile *old_rc, const struct ctx *c,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT;
	struct strbuf ignored = STRBUF_INIT;
	int ret = -1;

	files->rc = rc;
	if (state_rcfile(rc, &text, c->next, c->workdir, err))
		goto out;
	if (!state_rcfile(old_rc, &old, c->base, c->workdir, &ignored) &&
	    (old.len != text.len || memcmp(old.buf, text.buf, old.len)))
		files->old_rc = old_rc;
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&ignored);
	return ret;
}

int hook_check_run(const char *workdir, const struct hook_state *base,
		  const struct hook_state *next, int strict,
		  struct hook_check_result *res, struct strbuf *err)
{
	struct ctx c;
	struct sidecar_files sidecars = { NULL, 0, 0, NULL, NULL, NULL };
	struct rcfile rc = RCFILE_INIT, old_rc = RCFILE_INIT;
	struct hook_lost lost;
	size_t i;
	int ret = -1;

	memset(&c, 0, sizeof(c));
	c.workdir = workdir;
	c.base = base;
	c.next = next;
	c.res = res;
	c.strict = strict;
	sidecars.has_links = &c.has_links;
	/* the layouts as the state judged declares them, not the work tree */
	if (load_layouts(&sidecars, &rc, &old_rc, &c, err) ||
	    collect_changed(&c, err))
		goto out;
	if (strict < 0)
		c.strict = policy_strict(&rc) ||
			   (sidecars.old_rc && policy_strict(&old_rc));
	lost.base = base;
	lost.next = next;
	lost.changed = c.changed.v;
	lost.nr_changed = c.changed.nr;
	lost.res = res;
	hook_lost_sidecars(&lost);
	c.lost = &lost;
	c.rc_changed = sidecars.old_rc != NULL;
	if (!c.changed.nr) {
		ret = 0;
		goto out;
	}
	if (snapshot_each_file(next->snap, add_sidecar, &sidecars, err))
		goto out;
	hook_names_init(&c.names, c.changed.v, c.changed.nr);
	c.cache = hook_scan_cache(workdir, &rc);
	for (i = 0; i < sidecars.nr; i++) {
		if (sidecars.v[i].lost)
			hook_lost_record(&lost, sidecars.v[i].old_layout,
					 sidecars.v[i].record);
		judge_sidecar(&c, &sidecars.v[i]);
	}
	ret = 0;
out:
	rcfile_release(&rc);
	rcfile_release(&old_rc);
	paths_release(&c.changed);
	sidecar_files_release(&sidecars);
	for (i = 0; i < c.nr_memo; i++)
		free(c.memo[i].path);
	free(c.memo);
	for (i = 0; i < c.nr_roots; i++) {
		free(c.root_dirs[i]);
		free(c.roots[i]);
	}
	free(c.root_dirs);
	free(c.roots);
	root_memo_release(&c.root_memo);
	hook_names_release(&c.names);
	cache_free(c.cache);
	return ret;
}

void hook_check_result_release(struct hook_check_result *res)
{
	strbuf_release(&res->text);
}
