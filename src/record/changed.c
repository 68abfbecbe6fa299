/*
 * Which reports a pull request touched (see changed.h).
 */
#include "config.h"
#include "changed.h"
#include "git/repo.h"
#include "git/revrange.h"
#include "git/snapshot.h"
#include "sidecar.h"
#include "usage.h"
#include "fs/path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct changed_base {
	struct repo repo;
	struct snapshot tree;	/* the merge base's */
	struct strbuf workdir;	/* real path, no trailing slash */
	char name[13];		/* the merge base, shortened */
};
#define CHANGED_BASE_INIT { REPO_INIT, SNAPSHOT_INIT, STRBUF_INIT, "" }

struct changed_memo {
	char *root;
	struct changed_base base;
	struct strbuf err;
	struct changed_memo *next;
};

static int peel_commit(char *out, struct repo *r, const char *rev,
		       struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (revrange_commit(out, r, rev, &why)) {
		strbuf_addf(err, "cannot resolve '%s' to a commit: %s", rev,
			    why.buf);
		ret = -1;
	}
	strbuf_release(&why);
	return ret;
}

static int open_base(struct changed_base *b, const char *root,
		     const char *rev, const char *at, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	char since[SNAPSHOT_HEX_MAX], checked[SNAPSHOT_HEX_MAX];
	char base[SNAPSHOT_HEX_MAX];
	int ret = -1, rc;

	if (repo_open(&b->repo, root, 0, &why) || !b->repo.workdir.len) {
		strbuf_addf(err, "--changed-since needs a git work tree around "
			    "%s: %s", root, why.len ? why.buf :
			    "not a repository");
		goto out;
	}
	strbuf_addbuf(&b->workdir, &b->repo.workdir);
	if (peel_commit(since, &b->repo, rev, err) ||
	    peel_commit(checked, &b->repo, at ? at : "HEAD", err))
		goto out;
	rc = revrange_merge_base(base, &b->repo, since, checked, &why);
	if (rc > 0)	/* unrelated histories */
		memcpy(base, since, sizeof(base));
	else if (rc < 0) {
		strbuf_addf(err, "cannot find the merge base of '%s': %s", rev,
			    why.buf);
		goto out;
	}
	strbuf_reset(&why);
	if (snapshot_at(&b->tree, &b->repo, base, &why)) {
		strbuf_addf(err, "cannot read the merge base of '%s': %s", rev,
			    why.len ? why.buf : "no tree");
		goto out;
	}
	snprintf(b->name, sizeof(b->name), "%.12s", base);
	ret = 0;
out:
	strbuf_release(&why);
	return ret;
}

const struct changed_base *changed_base_for(struct changed_memo **memo,
					    const char *root, const char *rev,
					    const char *at, struct strbuf *err)
{
	struct changed_base init = CHANGED_BASE_INIT;
	struct changed_memo *m;

	for (m = *memo; m; m = m->next)
		if (!strcmp(m->root, root))
			break;
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->root = xstrdup(root);
		m->base = init;
		strbuf_init(&m->err, 0);
		open_base(&m->base, root, rev, at, &m->err);
		m->next = *memo;
		*memo = m;
	}
	if (m->err.len) {
		strbuf_addbuf(err, &m->err);
		return NULL;
	}
	return &m->base;
}

void changed_memo_free(struct changed_memo *memo)
{
	while (memo) {
		struct changed_memo *next = memo->next;

		snapshot_release(&memo->base.tree);
		repo_release(&memo->base.repo);
		strbuf_release(&memo->base.workdir);
		strbuf_release(&memo->err);
		free(memo->root);
		free(memo);
		memo = next;
	}
}

const char *changed_base_name(const struct changed_base *b)
{
	return b->name;
}

/*
 * Does rel (repository-relative) read as blob `now` (hex) at the base?
 * A path that leads nowhere at the base differs from any content;
 * present says whether there is content now.
 */
static int differs_at_base(const struct changed_base *b, const char *rel,
			   const char *now, int present)
{
	struct treepath tp = TREEPATH_INIT;
	char then[SNAPSHOT_HEX_MAX];
	int differs;

	if (snapshot_resolve(&tp, &b->tree, rel) < 0)
		differs = 1;
	else if (tp.status == TREEPATH_NOT_FOUND)
		differs = present;
	else if (!present || tp.status != TREEPATH_OK)
		differs = 1;
	else {
		snapshot_blob_hex(then, &tp);
		differs = strcmp(then, now) != 0;
	}
	treepath_release(&tp);
	return differs;
}

/* rel receives real's path below the work tree; 0 when it is not below. */
static int below_workdir(const struct changed_base *b, const char *real,
			 struct strbuf *rel)
{
	size_t n = b->workdir.len;

	if (strncmp(real, b->workdir.buf, n) || real[n] != '/' || !real[n + 1])
		return 0;
	strbuf_addstr(rel, real + n + 1);
	return 1;
}

/*
 * The content at real (a work tree file, symlinks followed), compared
 * with what rel (repository-relative, symlinks not yet followed) reads
 * at the base.  The bytes are hashed as they are, without line-ending
 * filters: a checkout that writes other bytes for the same blob (a
 * changed .gitattributes) counts as a change, since verify reads bytes.
 */
static int content_changed(const struct changed_base *b, const char *real,
			   const char *rel)
{
	struct strbuf err = STRBUF_INIT;
	char now[SNAPSHOT_HEX_MAX];
	int changed = 1;

	/* a file that cannot be hashed cannot be shown unchanged */
	if (!snapshot_hash_file(now, &b->tree, real, &err))
		changed = differs_at_base(b, rel, now, 1);
	strbuf_release(&err);
	return changed;
}

/*
 * path's repository-relative name, taken lexically (from the current
 * directory's real path when relative): no symlink on the way is
 * resolved, so one retargeted in the change is followed at the base as
 * it was then.  0 for a path with a ".." or outside the work tree.
 */
static int rel_name(const struct changed_base *b, const char *path,
		    struct strbuf *rel)
{
	struct strbuf abs = STRBUF_INIT, norm = STRBUF_INIT;
	const char *p, *end;
	char *cwd = NULL;
	int ok = 0;

	if (*path != '/') {
		cwd = realpath(".", NULL);
		if (!cwd)
			goto out;
		strbuf_addf(&abs, "%s/", cwd);
	}
	strbuf_addstr(&abs, path);
	for (p = abs.buf; *p; p = end) {
		while (*p == '/')
			p++;
		end = p;
		while (*end && *end != '/')
			end++;
		if (end == p || (end - p == 1 && *p == '.'))
			continue;
		if (end - p == 2 && p[0] == '.' && p[1] == '.')
			goto out;
		strbuf_addch(&norm, '/');
		strbuf_add(&norm, p, (size_t)(end - p));
	}
	ok = below_workdir(b, norm.buf, rel);
out:
	free(cwd);
	strbuf_release(&abs);
	strbuf_release(&norm);
	return ok;
}

int changed_file(const struct changed_base *b, const char *path)
{
	struct strbuf rel = STRBUF_INIT;
	char *real;
	int changed = 1;

	if (!rel_name(b, path, &rel))
		goto out;
	real = realpath(path, NULL);
	if (!real) {
		/* Gone: changed when the base had it. */
		if (errno == ENOENT)
			changed = differs_at_base(b, rel.buf, NULL, 0);
		goto out;
	}
	changed = content_changed(b, real, rel.buf);
	free(real);
out:
	strbuf_release(&rel);
	return changed;
}

/*
 * Does recorded resolve, at the base, to the same path as in (what verify
 * reads now)?  Resolution depends on more than the file: symlinks on the
 * way, and for a path recorded on CI, which suffixes exist.
 */
static int same_resolution(const struct changed_base *b, const char *root,
			   const char *recorded,
			   const struct resolved_input *in, int allow_outside)
{
	struct resolved_input then = RESOLVED_INPUT_INIT;
	struct strbuf prefix = STRBUF_INIT;
	struct input_tree bt;
	int same = 0;

	if (strcmp(root, b->workdir.buf)) {
		if (!below_workdir(b, root, &prefix))
			goto out;
		strbuf_addch(&prefix, '/');
	}
	/* the base as inputpath.h reads a commit's tree */
	bt.repo = b->tree.repo;
	bt.tree = b->tree.tree;
	bt.index = NULL;
	bt.commit = &b->tree.commit;
	bt.prefix = prefix.buf;
	input_resolve(&then, root, recorded, &bt, allow_outside);
	same = then.status == INPUT_OK && !strcmp(then.rel.buf, in->rel.buf) &&
		then.rerooted == in->rerooted;
out:
	resolved_input_release(&then);
	strbuf_release(&prefix);
	return same;
}

/*
 * Has the file path (repository-relative) of tree (a commit's tree, or
 * the index) changed since the base?  1 or 0.
 */
static int tree_file_changed(const struct changed_base *b,
			     const struct input_tree *tree, const char *path)
{
	struct snapshot at = SNAPSHOT_INIT;
	struct treepath tp = TREEPATH_INIT;
	char now[SNAPSHOT_HEX_MAX];
	int changed = 1;

	snapshot_view(&at, tree->repo, tree->tree, tree->index, tree->commit);
	/* another repository's tree says nothing of this one's base */
	if (!snapshot_same_repo(&at, &b->tree))
		goto out;
	snapshot_resolve(&tp, &at, path);
	if (tp.status == TREEPATH_OK) {
		snapshot_blob_hex(now, &tp);
		changed = differs_at_base(b, path, now, 1);
	}
out:
	treepath_release(&tp);
	snapshot_release(&at);
	return changed;
}

int changed_input(const struct changed_base *b, const char *root,
		  const char *recorded, const struct input_tree *tree,
		  int allow_outside)
{
	struct resolved_input in = RESOLVED_INPUT_INIT;
	struct strbuf path = STRBUF_INIT;
	int changed = 1;

	input_resolve(&in, root, recorded, tree, allow_outside);
	if (in.status != INPUT_OK ||
	    !same_resolution(b, root, recorded, &in, allow_outside))
		goto out;
	if (!tree) {
		/* The recorded path at the base, as the root sees it. */
		struct strbuf shown = STRBUF_INIT;

		strbuf_addf(&shown, "%s/%s", root, in.rel.buf);
		if (rel_name(b, shown.buf, &path))
			changed = content_changed(b, in.file.buf, path.buf);
		strbuf_release(&shown);
		goto out;
	}
	strbuf_addf(&path, "%s%s", tree->prefix, in.rel.buf);
	changed = tree_file_changed(b, tree, path.buf);
out:
	resolved_input_release(&in);
	strbuf_release(&path);
	return changed;
}

/*
 * Has a package.json that can decide the root changed?  The root is
 * looked for from the report's directory upwards (SPEC 5), so any of
 * them, up to the top of the work tree.
 */
static int root_files_changed(const struct changed_base *b, const char *file)
{
	struct strbuf dir = STRBUF_INIT, pj = STRBUF_INIT;
	char *real = NULL;
	int changed = 0;

	path_dirname(&dir, file);
	real = realpath(dir.buf, NULL);
	if (!real)
		return 1;
	strbuf_reset(&dir);
	strbuf_addstr(&dir, real);
	for (;;) {
		strbuf_reset(&pj);
		strbuf_addf(&pj, "%s/package.json", dir.buf);
		if (changed_file(b, pj.buf)) {
			changed = 1;
			break;
		}
		/* up to the top, never to "/" above it */
		if (dir.len <= b->workdir.len || path_parent(&dir) ||
		    !strcmp(dir.buf, "/"))
			break;
	}
	free(real);
	strbuf_release(&dir);
	strbuf_release(&pj);
	return changed;
}

int changed_report(const struct changed_base *b, const char *root,
		   const char *sidecar_path, const char *markdown,
		   const struct sidecar *sc, const struct input_tree *tree,
		   int allow_outside)
{
	struct strbuf sig = STRBUF_INIT;
	int changed;

	strbuf_addf(&sig, "%s.sig", sidecar_path);
	changed = changed_file(b, sidecar_path) || changed_file(b, sig.buf) ||
		changed_file(b, markdown) || root_files_changed(b, sidecar_path) ||
		changed_input(b, root, sc->token.path, tree, allow_outside) ||
		(sc->brief.path && changed_input(b, root, sc->brief.path, tree,
						 allow_outside));
	strbuf_release(&sig);
	return changed;
}
