#include "config.h"
#include "hookcheck.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "root/inputpath.h"
#include "git/lfs.h"
#include "git/repo.h"
#include "quote.h"
#include "root/root.h"
#include "record/sidecar.h"
#include "strutil.h"
#include "git/treepath.h"
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

/* Hash answers by blob: the same input is pinned by many reports. */
struct hash_memo {
	git_oid blob;
	const struct hook_state *state;	/* its attributes (git-lfs) */
	char *path;
	int kind;		/* 0 structured, 1 raw */
	int ret;
	char hex[HASH_HEX_MAX];
};

struct ctx {
	git_repository *repo;
	const char *workdir;
	const struct hook_state *base, *next;
	struct paths changed;
	struct hash_memo *memo;
	size_t nr_memo, alloc_memo;
	struct hookcheck_result *res;
	int strict;
	int has_links;		/* a symlink in next or among the changes */
	/* roots by directory */
	char **root_dirs, **roots;
	size_t nr_roots, alloc_roots, alloc_roots2;
};

/* What blob_hash() returns for a git-lfs object that is not here. */
#define HASH_LFS_ABSENT (-10)

static int blob_hash(struct ctx *c, const struct hook_state *s,
		     const git_oid *blob, const char *path, int kind, char *hex)
{
	git_blob *b = NULL;
	git_buf out = GIT_BUF_INIT;
	git_blob_filter_options fo;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf smudged = STRBUF_INIT;
	struct lfs_pointer ptr;
	struct hash_memo *m;
	size_t i;
	int ret;

	for (i = 0; i < c->nr_memo; i++)
		if (c->memo[i].kind == kind && c->memo[i].state == s &&
		    git_oid_equal(&c->memo[i].blob, blob) &&
		    !strcmp(c->memo[i].path, path)) {
			memcpy(hex, c->memo[i].hex, HASH_HEX_MAX);
			return c->memo[i].ret;
		}
	if (git_blob_lookup(&b, c->repo, blob) < 0)
		return HASH_EIO;
	/* A git-lfs pointer: the content is its object, as checked out. */
	switch (lfs_read(&smudged, &ptr, c->repo, s->index ? NULL : s->commit,
			 path, git_blob_rawcontent(b),
			 (size_t)git_blob_rawsize(b), 0, &err)) {
	case LFS_SMUDGED:
		utf8_repair(&text, smudged.buf, smudged.len);
		break;
	case LFS_ABSENT:
		/* its oid is the raw hash when the content is valid UTF-8 */
		lfs_raw_hash(hex, &ptr);
		git_blob_free(b);
		strbuf_release(&err);
		return HASH_LFS_ABSENT;
	case LFS_ERROR:
		git_blob_free(b);
		strbuf_release(&err);
		return HASH_EIO;
	default:
		/* the bytes a checkout writes (eol, ident), as verify reads them */
		git_blob_filter_options_init(&fo, GIT_BLOB_FILTER_OPTIONS_VERSION);
		if (git_blob_filter(&out, b, path, &fo) < 0) {
			git_blob_free(b);
			return HASH_EIO;
		}
		utf8_repair(&text, out.ptr, out.size);
		git_buf_dispose(&out);
	}
	strbuf_release(&smudged);
	strbuf_reset(&err);
	if (kind)
		ret = hash_text(hex, text.buf, text.len, HASH_RAW, &err);
	else if (text.len > HASH_DEFAULT_MAX_SIZE)
		ret = HASH_EIO;
	else
		ret = hash_text(hex, text.buf, text.len, HASH_STRUCTURED, &err);
	git_blob_free(b);
	strbuf_release(&text);
	strbuf_release(&err);
	ALLOC_GROW(c->memo, c->nr_memo + 1, c->alloc_memo);
	m = &c->memo[c->nr_memo++];
	git_oid_cpy(&m->blob, blob);
	m->state = s;
	m->path = xstrdup(path);
	m->kind = kind;
	m->ret = ret;
	memcpy(m->hex, hex, HASH_HEX_MAX);
	return ret;
}

/*
 * Does the blob hash to recorded as verify would hash it (a brief raw or
 * structured)?  1 yes, 0 no, -1 cannot tell.  shown gets the hash shown
 * for it.
 */
static int blob_matches(struct ctx *c, const struct hook_state *s,
			const git_oid *blob, const char *path,
			const char *field, const char *recorded, char *shown)
{
	char raw[HASH_HEX_MAX];
	int ret;

	if (!strcmp(field, "brief")) {
		ret = blob_hash(c, s, blob, path, 1, raw);
		if ((!ret || ret == HASH_LFS_ABSENT) && !strcmp(raw, recorded)) {
			memcpy(shown, raw, HASH_HEX_MAX);
			return 1;
		}
		ret = blob_hash(c, s, blob, path, 0, shown);
		if (ret == HASH_EINVALID) {
			memcpy(shown, raw, HASH_HEX_MAX);
			return 0;
		}
	} else
		ret = blob_hash(c, s, blob, path, 0, shown);
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
	while (root_find_pinned(&root, dir.buf, NULL, &err) < 0 &&
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

static void state_tree(struct input_tree *it, struct ctx *c,
		       const struct hook_state *s, const char *prefix)
{
	it->repo = c->repo;
	it->tree = s->tree;
	it->index = s->index;
	it->commit = s->commit;
	it->prefix = prefix;
}

static int state_empty(const struct hook_state *s)
{
	return !s->tree && !s->index;
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
	if (paths_has(&c->changed, path) ||
	    (tp->path.len && paths_has(&c->changed, tp->path.buf)))
		return 1;
	for (i = 0; i < tp->nr_links; i++)
		if (paths_has(&c->changed, tp->links[i]))
			return 1;
	return 0;
}

/* Where path leads in the state (its symlinks followed). */
static void state_resolve(struct treepath *tp, struct ctx *c,
			  const struct hook_state *s, const char *path)
{
	if (*path && !state_empty(s))
		treepath_resolve(tp, c->repo, s->index ? NULL : s->tree,
				 s->index, path);
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
			  const char *field, const struct sidecar_input *old)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct treepath tp = TREEPATH_INIT;
	struct input_tree it;
	struct strbuf path = STRBUF_INIT;
	char hash[HASH_HEX_MAX];
	int ret;

	if (!old || !old->path || state_empty(c->base))
		return 0;
	state_tree(&it, c, c->base, prefix);
	input_resolve(&in, root, old->path, &it, 0);
	if (in.rel.len)
		strbuf_addf(&path, "%s%s", prefix, in.rel.buf);
	state_resolve(&tp, c, c->base, path.buf);
	if (in.status != INPUT_OK || tp.status != TREEPATH_OK)
		ret = 1;
	else
		ret = !blob_matches(c, c->base, &tp.id, tp.path.buf, field,
				    old->hash, hash);
	treepath_release(&tp);
	resolved_input_release(&in);
	strbuf_release(&path);
	return ret;
}

/*
 * Judge one input of one sidecar.  old is the same input of the base's
 * version of a sidecar that changes here (NULL when there is none).
 */
static void judge_input(struct ctx *c, const char *sidecar_path,
			const char *report, int sidecar_changed,
			const char *field, const struct sidecar_input *input,
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
	state_tree(&it_next, c, c->next, prefix.buf);
	input_resolve(&in_next, root, input->path,
		      state_empty(c->next) ? NULL : &it_next, 0);
	if (in_next.rel.len)
		strbuf_addf(&next_path, "%s%s", prefix.buf, in_next.rel.buf);
	if (!state_empty(c->base)) {
		state_tree(&it_base, c, c->base, prefix.buf);
		input_resolve(&in_base, root, input->path, &it_base, 0);
		if (in_base.rel.len)
			strbuf_addf(&base_path, "%s%s", prefix.buf,
				    in_base.rel.buf);
	}
	state_resolve(&tp_next, c, c->next, next_path.buf);
	state_resolve(&tp_base, c, c->base, base_path.buf);
	/* Nothing on the way to this input changed: nothing to judge. */
	if (!sidecar_changed && !touched(c, &tp_next, next_path.buf) &&
	    !touched(c, &tp_base, base_path.buf))
		goto out;

	if (in_next.status == INPUT_OK && tp_next.status == TREEPATH_OK) {
		has_next = 1;
		m_next = blob_matches(c, c->next, &tp_next.id, tp_next.path.buf,
				      field, input->hash, next_hash);
	}
	if (in_base.status == INPUT_OK && tp_base.status == TREEPATH_OK) {
		has_base = 1;
		m_base = blob_matches(c, c->base, &tp_base.id, tp_base.path.buf,
				      field, input->hash, base_hash);
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
		if (drifted_before(c, root, prefix.buf, field, old)) {
			c->res->stale++;
			finding(c, c->strict, report, field, input->path,
				input->hash, NULL, has_next ? next_hash : NULL,
				"the sidecar changes here but did not verify "
				"before either: the report had drifted already");
		} else if (!has_next)
			finding(c, 1, report, field, input->path, input->hash,
				NULL, NULL, "the sidecar is new or changed here, "
				"and this input is not in what is committed");
		else
			finding(c, 1, report, field, input->path, input->hash,
				NULL, next_hash, "the sidecar is new or changed "
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

static int collect_changed(struct ctx *c, struct strbuf *err)
{
	git_diff *diff = NULL;
	git_diff_options opts;
	size_t i, n;
	int ret;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (c->next->index)
		ret = git_diff_tree_to_index(&diff, c->repo, c->base->tree,
					     c->next->index, &opts);
	else
		ret = git_diff_tree_to_tree(&diff, c->repo, c->base->tree,
					    c->next->tree, &opts);
	if (ret < 0) {
		strbuf_addf(err, "cannot compare %s with %s: %s", c->base->name,
			    c->next->name, lg2_message());
		return -1;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->old_file.mode == GIT_FILEMODE_LINK ||
		    d->new_file.mode == GIT_FILEMODE_LINK)
			c->has_links = 1;
		paths_add(&c->changed, d->old_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			paths_add(&c->changed, d->new_file.path);
	}
	git_diff_free(diff);
	if (c->changed.nr)
		qsort(c->changed.v, c->changed.nr, sizeof(*c->changed.v),
		      cmp_str);
	return 0;
}

struct walk_data {
	struct paths *out;
	int *has_links;
};

static int collect_tree_sidecar(const char *root, const git_tree_entry *e,
				void *data)
{
	struct walk_data *w = data;
	const char *name = git_tree_entry_name(e);
	size_t n = strlen(name);

	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		*w->has_links = 1;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && n > 12 &&
	    ends_with(name, ".replay.json")) {
		struct strbuf p = STRBUF_INIT;

		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
		strbuf_addf(&p, "%s%s", root, name);
		strbuf_addch(&p, '\0');
		strbuf_addstr(&p, hex);
		ALLOC_GROW(w->out->v, w->out->nr + 1, w->out->alloc);
		w->out->v[w->out->nr++] = strbuf_detach(&p, NULL);
	}
	return 0;
}

static void collect_sidecars(struct ctx *c, struct paths *out)
{
	size_t i, n;

	if (c->next->index) {
		n = git_index_entrycount(c->next->index);
		for (i = 0; i < n; i++) {
			const git_index_entry *e =
				git_index_get_byindex(c->next->index, i);
			size_t len = strlen(e->path);

			if (e->mode == GIT_FILEMODE_LINK)
				c->has_links = 1;
			if (len > 12 && ends_with(e->path, ".replay.json") &&
			    !GIT_INDEX_ENTRY_STAGE(e)) {
				struct strbuf p = STRBUF_INIT;
				char hex[GIT_OID_HEXSZ + 1];

				git_oid_tostr(hex, sizeof(hex), &e->id);
				strbuf_addstr(&p, e->path);
				strbuf_addch(&p, '\0');
				strbuf_addstr(&p, hex);
				ALLOC_GROW(out->v, out->nr + 1, out->alloc);
				out->v[out->nr++] = strbuf_detach(&p, NULL);
			}
		}
	} else if (c->next->tree) {
		struct walk_data w = { out, &c->has_links };

		git_tree_walk(c->next->tree, GIT_TREEWALK_PRE,
			      collect_tree_sidecar, &w);
	}
}

static int sidecar_blob(struct ctx *c, const char *path, struct strbuf *out)
{
	struct input_tree it;
	git_blob *b = NULL;
	git_oid id;
	unsigned mode;

	(void)it; (void)mode;
	if (git_oid_fromstr(&id, path + strlen(path) + 1) < 0 ||
	    git_blob_lookup(&b, c->repo, &id) < 0)
		return -1;
	strbuf_add(out, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_blob_free(b);
	return 0;
}

/*
 * The base's version of the sidecar at path, when it has one that loads.
 * Returns 1 with it in out, else 0.
 */
static int base_sidecar(struct ctx *c, const char *path, struct sidecar *out)
{
	git_tree_entry *e = NULL;
	git_blob *b = NULL;
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (!c->base->tree ||
	    git_tree_entry_bypath(&e, c->base->tree, path) < 0 ||
	    git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    git_tree_entry_filemode(e) == GIT_FILEMODE_LINK ||
	    git_blob_lookup(&b, c->repo, git_tree_entry_id(e)) < 0)
		goto out;
	ret = !sidecar_parse(out, git_blob_rawcontent(b),
			     (size_t)git_blob_rawsize(b), &why);
out:
	git_blob_free(b);
	git_tree_entry_free(e);
	strbuf_release(&why);
	return ret;
}

/*
 * Could this sidecar text name a changed path?  A recorded path ends with
 * the changed path's last component (however it is rooted or spelled);
 * JSON escapes (\\u) could hide it, so those always say yes, and so do
 * symlinks in the tree: a recorded path may reach the changed file
 * through one, under another name.
 */
static int mentions_changed(struct ctx *c, const struct strbuf *buf)
{
	size_t i;

	if (c->has_links)
		return 1;
	if (memmem(buf->buf, buf->len, "\\u", 2))
		return 1;
	for (i = 0; i < c->changed.nr; i++) {
		const char *base = strrchr(c->changed.v[i], '/');

		base = base ? base + 1 : c->changed.v[i];
		if (memmem(buf->buf, buf->len, base, strlen(base)))
			return 1;
	}
	return 0;
}

int hookcheck_run(git_repository *repo, const char *workdir,
		  const struct hook_state *base, const struct hook_state *next,
		  int strict, struct hookcheck_result *res, struct strbuf *err)
{
	struct ctx c;
	struct paths sidecars = { NULL, 0, 0 };
	size_t i;
	int ret = -1;

	memset(&c, 0, sizeof(c));
	c.repo = repo;
	c.workdir = workdir;
	c.base = base;
	c.next = next;
	c.res = res;
	c.strict = strict;
	if (collect_changed(&c, err))
		goto out;
	if (!c.changed.nr) {
		ret = 0;
		goto out;
	}
	collect_sidecars(&c, &sidecars);
	for (i = 0; i < sidecars.nr; i++) {
		const char *sp = sidecars.v[i];
		struct sidecar sc = SIDECAR_INIT, old = SIDECAR_INIT;
		struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
		struct strbuf report = STRBUF_INIT;
		int changed = paths_has(&c.changed, sp);

		sidecar_report_for(&report, sp);
		if (!changed && !sidecar_blob(&c, sp, &buf) &&
		    !mentions_changed(&c, &buf)) {
			/* names no changed path: nothing to judge */
			strbuf_release(&buf);
			strbuf_release(&report);
			continue;
		}
		strbuf_reset(&buf);
		if (sidecar_blob(&c, sp, &buf) ||
		    sidecar_parse(&sc, buf.buf, buf.len, &why)) {
			/* A broken sidecar only matters when it comes in now. */
			if (changed) {
				res->problems++;
				strbuf_addstr(&res->text, "  FAIL ");
				quote_c_style(&res->text, sp);
				strbuf_addstr(&res->text, ": the sidecar does "
					      "not load: ");
				quote_escape(&res->text, why.buf, why.len);
				strbuf_addch(&res->text, '\n');
			}
		} else {
			int had = changed && base_sidecar(&c, sp, &old);

			judge_input(&c, sp, report.buf, changed, "token",
				    &sc.token, had ? &old.token : NULL);
			if (sc.brief.path)
				judge_input(&c, sp, report.buf, changed, "brief",
					    &sc.brief, had && old.brief.path ?
					    &old.brief : NULL);
		}
		sidecar_release(&sc);
		sidecar_release(&old);
		strbuf_release(&buf);
		strbuf_release(&why);
		strbuf_release(&report);
	}
	ret = 0;
out:
	paths_release(&c.changed);
	paths_release(&sidecars);
	for (i = 0; i < c.nr_memo; i++)
		free(c.memo[i].path);
	free(c.memo);
	for (i = 0; i < c.nr_roots; i++) {
		free(c.root_dirs[i]);
		free(c.roots[i]);
	}
	free(c.root_dirs);
	free(c.roots);
	return ret;
}

void hookcheck_result_release(struct hookcheck_result *res)
{
	strbuf_release(&res->text);
}
