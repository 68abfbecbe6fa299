/*
 * The two sides `diff` compares (see sidecardiff.h): sidecars named by
 * operands, each inside its root, or one report's sidecar as two
 * commits have it, its paths resolved in each commit's tree.
 */
#include "config.h"
#include "sidecardiff.h"
#include "git/blob.h"
#include "git/repo.h"
#include "git/revision.h"
#include "quote.h"
#include "root/root.h"
#include "fs/path.h"
#include "usage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int load_file(struct diff_side *s, const char *operand,
		     const char *given_root, int allow_outside)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT, root = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	sidecar_path_for(&path, operand);
	strbuf_addstr(&s->name, operand);
	/* The root first: the sidecar must lie in it (rootfile.h). */
	path_dirname(&dir, path.buf);
	if (root_find_pinned(&root, dir.buf, given_root, &err) < 0 ||
	    sidecar_load_in(&s->sc, root.buf, path.buf, allow_outside, &err)) {
		error_path(path.buf, &err);
		goto out;
	}
	diff_side_resolve(s, root.buf, NULL);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&dir);
	strbuf_release(&root);
	strbuf_release(&err);
	return ret;
}

int diff_sides_load_files(struct diff_side *a, struct diff_side *b,
			  const char *file_a, const char *file_b,
			  const char *root, int allow_outside)
{
	int ret = load_file(a, file_a, root, allow_outside);

	/* Both sides even when the first fails: one run, every error. */
	return load_file(b, file_b, root, allow_outside) ? -1 : ret;
}

/* The repository, and where the sidecar and the root lie inside it. */
struct at_repo {
	struct repo repo;
	struct strbuf sidecar;	/* relative to the work tree */
	struct strbuf root;	/* absolute */
	struct strbuf prefix;	/* the root relative to the work tree, "" or "dir/" */
};

static int open_repo(struct at_repo *r, const char *report, const char *given)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT, err = STRBUF_INIT;
	char *real_dir = NULL;
	const char *base;
	int ret = -1;

	sidecar_path_for(&path, report);
	path_dirname(&dir, path.buf);
	real_dir = realpath(dir.buf, NULL);
	if (!real_dir) {
		error("%s: %s", dir.buf, strerror(errno));
		goto out;
	}
	if (repo_open(&r->repo, real_dir, 0, &err) || !r->repo.workdir.len) {
		error("--at needs a git work tree around %s: %s", real_dir,
		      err.len ? err.buf : "not a repository");
		goto out;
	}
	if (revision_prefix(&r->sidecar, &r->repo, real_dir)) {
		error("%s is not inside the work tree %s", real_dir,
		      r->repo.workdir.buf);
		goto out;
	}
	base = strrchr(path.buf, '/') ? strrchr(path.buf, '/') + 1 : path.buf;
	strbuf_addstr(&r->sidecar, base);
	if (root_find_pinned(&r->root, real_dir, given, &err) < 0) {
		error("%s: %s", path.buf, err.buf);
		goto out;
	}
	if (revision_prefix(&r->prefix, &r->repo, r->root.buf)) {
		error("the root %s is not inside the repository %s",
		      r->root.buf, r->repo.workdir.buf);
		goto out;
	}
	ret = 0;
out:
	free(real_dir);
	strbuf_release(&path);
	strbuf_release(&dir);
	strbuf_release(&err);
	return ret;
}

static int load_at(struct diff_side *s, struct at_repo *r, const char *rev)
{
	struct revision commit = REVISION_INIT;
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct input_tree it;
	int ret = -1;

	strbuf_addf(&s->name, "%s:%s", rev, r->sidecar.buf);
	if (revision_resolve(&commit, &r->repo, rev, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (blob_read_path(&buf, &r->repo, &commit, r->sidecar.buf)) {
		error("%s: no replay sidecar at that commit", s->name.buf);
		goto out;
	}
	if (sidecar_parse(&s->sc, buf.buf, buf.len, &err)) {
		error("%s: %s", s->name.buf, err.buf);
		goto out;
	}
	it.repo = r->repo.git;
	it.tree = commit.tree;
	it.index = NULL;
	it.commit = &commit.id;
	it.prefix = r->prefix.buf;
	diff_side_resolve(s, r->root.buf, &it);
	ret = 0;
out:
	revision_release(&commit);
	strbuf_release(&buf);
	strbuf_release(&err);
	return ret;
}

int diff_sides_load_at(struct diff_side *a, struct diff_side *b,
		       const char *rev_a, const char *rev_b,
		       const char *report, const char *root)
{
	struct at_repo r = { REPO_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	int ret = open_repo(&r, report, root);

	if (!ret) {
		ret = load_at(a, &r, rev_a);
		if (load_at(b, &r, rev_b))
			ret = -1;
	}
	repo_release(&r.repo);
	strbuf_release(&r.sidecar);
	strbuf_release(&r.root);
	strbuf_release(&r.prefix);
	return ret;
}
