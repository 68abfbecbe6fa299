/*
 * Files read out of commits (see blob.h).
 */
#include "config.h"
#include "blob.h"
#include "treepath.h"

int blob_read_path(struct strbuf *out, struct repo *repo,
		   const struct revision *rev, const char *path)
{
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	int ret = -1;

	if (git_tree_entry_bypath(&entry, rev->tree, path) < 0 ||
	    git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&blob, repo->git, git_tree_entry_id(entry)) < 0)
		goto out;
	strbuf_add(out, git_blob_rawcontent(blob),
		   (size_t)git_blob_rawsize(blob));
	ret = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	return ret;
}

int blob_read_checkout(struct strbuf *out, struct repo *repo,
		       const git_oid *commit_id, const char *path,
		       struct strbuf *err)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	struct treepath tp = TREEPATH_INIT;
	int ret = -1;

	if (git_commit_lookup(&commit, repo->git, commit_id) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		strbuf_addstr(err, "cannot read the commit");
		goto out;
	}
	switch (treepath_read(out, &tp, repo->git, tree, commit_id, path,
			      err)) {
	case 0:
		ret = 0;
		break;
	case 1:
		strbuf_addbuf(err, &tp.why);
		break;
	default:
		break;
	}
out:
	treepath_release(&tp);
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}
