/*
 * Files of a work tree as the user names them (see workpath.h).
 */
#include "config.h"
#include "workpath.h"
#include "fs/path.h"

#include <stdlib.h>
#include <string.h>

int workpath_open(struct repo *r, struct strbuf *rel, const char *path,
		  struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT;
	size_t n;
	int rc, ret = -1;

	if (path_absolute(&abs, path, err))
		goto out;
	path_dirname(&dir, abs.buf);
	rc = repo_open(r, dir.buf, 0, err);
	if (rc) {
		ret = rc < 0 ? -1 : WORKPATH_NO_REPO;
		goto out;
	}
	n = r->workdir.len;
	if (!n || !path_is_within(abs.buf, r->workdir.buf) ||
	    abs.len <= n + 1) {
		ret = WORKPATH_OUTSIDE;
		goto out;
	}
	strbuf_addstr(rel, abs.buf + n + 1);
	ret = WORKPATH_OK;
out:
	strbuf_release(&abs);
	strbuf_release(&dir);
	return ret;
}

int workpath_tracked(const char *path, struct strbuf *workdir)
{
	struct repo repo = REPO_INIT;
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	git_index *index = NULL;
	char *real = realpath(path, NULL);
	size_t n;
	int ret = 0;

	if (!real)
		goto out;
	path_dirname(&dir, real);
	if (repo_open(&repo, dir.buf, 0, &err))
		goto out;
	n = repo.workdir.len;
	if (!n || !path_is_within(real, repo.workdir.buf) ||
	    strlen(real) <= n + 1 || git_repository_index(&index, repo.git) < 0)
		goto out;
	ret = git_index_get_bypath(index, real + n + 1, 0) != NULL;
	strbuf_addbuf(workdir, &repo.workdir);
out:
	git_index_free(index);
	repo_release(&repo);
	free(real);
	strbuf_release(&dir);
	strbuf_release(&err);
	return ret;
}
