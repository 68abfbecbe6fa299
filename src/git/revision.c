/*
 * Commits named by revisions (see revision.h).
 */
#include "config.h"
#include "revision.h"
#include "fs/path.h"

#include <string.h>

int revision_resolve(struct revision *out, struct repo *repo, const char *rev,
		     struct strbuf *err)
{
	git_object *obj = NULL;
	int ret = -1;

	if (git_revparse_single(&obj, repo->git, rev) < 0 ||
	    git_object_peel((git_object **)&out->commit, obj,
			    GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&out->tree, out->commit) < 0) {
		strbuf_addf(err, "cannot resolve '%s' to a commit: %s", rev,
			    lg2_message());
		goto out;
	}
	git_oid_cpy(&out->id, git_commit_id(out->commit));
	git_oid_tostr(out->hex, sizeof(out->hex), &out->id);
	git_oid_tostr(out->short_id, sizeof(out->short_id), &out->id);
	ret = 0;
out:
	git_object_free(obj);
	return ret;
}

void revision_release(struct revision *r)
{
	git_tree_free(r->tree);
	git_commit_free(r->commit);
	r->tree = NULL;
	r->commit = NULL;
}

int revision_prefix(struct strbuf *out, const struct repo *repo,
		    const char *dir)
{
	const char *wd = repo->workdir.buf;
	/* realpath gives "/" only for the root directory itself */
	size_t n = strcmp(wd, "/") ? strlen(wd) : 0;

	if (!repo->workdir.len || !path_is_within(dir, wd))
		return -1;
	if (dir[n] == '/')
		n++;
	if (dir[n])
		strbuf_addf(out, "%s/", dir + n);
	return 0;
}

void revision_hex(char out[REVISION_HEX_SIZE], const git_oid *id)
{
	git_oid_tostr(out, REVISION_HEX_SIZE, id);
}
