/*
 * A commit's files (see commitfiles.h).
 */
#include "config.h"
#include "commitfiles.h"
#include "revision.h"
#include "treepath.h"

#include <stdio.h>
#include <string.h>

int commit_files_open(struct commit_files *s, const struct repo *r, const char *rev,
		  struct strbuf *err)
{
	git_object *obj = NULL;
	int ret = -1;

	s->repo = r->git;
	if (revision_parse(&obj, r->git, rev, err) < 0)
		goto out;
	if (git_object_peel((git_object **)&s->commit, obj,
			    GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&s->tree, s->commit) < 0) {
		strbuf_addstr(err, lg2_message());
		goto out;
	}
	git_oid_tostr(s->hex, sizeof(s->hex), git_commit_id(s->commit));
	ret = 0;
out:
	git_object_free(obj);
	return ret;
}

void commit_files_release(struct commit_files *s)
{
	git_tree_free(s->tree);
	git_commit_free(s->commit);
	s->tree = NULL;
	s->commit = NULL;
	s->repo = NULL;
	s->hex[0] = '\0';
}

int commit_files_read(struct strbuf *out, const struct commit_files *s,
		  const char *path, struct strbuf *err)
{
	struct treepath tp = TREEPATH_INIT;
	int ret = treepath_read(out, &tp, s->repo, s->tree,
				git_commit_id(s->commit), path, err);

	if (ret > 0 && tp.status != TREEPATH_NOT_FOUND) {
		strbuf_addf(err, "%s: %s", path, tp.why.buf);
		ret = -1;
	}
	treepath_release(&tp);
	return ret;
}

/* The entry at path in s's tree as "<id> <mode>;", or "-;" for none. */
static void add_entry_key(struct strbuf *key, const struct commit_files *s,
			  const char *path)
{
	git_tree_entry *e = NULL;
	char hex[GIT_OID_HEXSZ + 1];

	if (git_tree_entry_bypath(&e, s->tree, path) < 0) {
		git_error_clear();
		strbuf_addstr(key, "-;");
		return;
	}
	git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
	strbuf_addf(key, "%s %o;", hex, (unsigned)git_tree_entry_filemode(e));
	git_tree_entry_free(e);
}

int commit_files_key(struct strbuf *key, const struct commit_files *s,
		     const char *path)
{
	struct treepath tp = TREEPATH_INIT;
	struct strbuf attr = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	const char *p;
	int ret = 1;

	if (treepath_resolve(&tp, s->repo, s->tree, NULL, path) < 0 ||
	    tp.status != TREEPATH_OK) {
		git_error_clear();
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &tp.id);
	/* the path first, NUL-terminated: no id or mode contains a NUL */
	strbuf_add(key, tp.path.buf, tp.path.len + 1);
	strbuf_addf(key, "%s %o;", hex, tp.mode);
	/* ".gitattributes", then "<dir>/.gitattributes" down to the file's */
	for (p = tp.path.buf; p; p = strchr(p + 1, '/')) {
		strbuf_reset(&attr);
		if (p > tp.path.buf)
			strbuf_addf(&attr, "%.*s/", (int)(p - tp.path.buf),
				    tp.path.buf);
		strbuf_addstr(&attr, ".gitattributes");
		add_entry_key(key, s, attr.buf);
	}
	ret = 0;
out:
	treepath_release(&tp);
	strbuf_release(&attr);
	return ret;
}

/* A blob's bytes, when entry is a regular file no larger than max. */
static enum commit_files_stored read_entry(struct strbuf *out,
				       const struct commit_files *s,
				       const git_tree_entry *entry,
				       size_t max)
{
	git_blob *blob = NULL;
	enum commit_files_stored ret = COMMIT_FILES_NOT_FILE;

	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
	    git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK ||
	    git_blob_lookup(&blob, s->repo, git_tree_entry_id(entry)) < 0) {
		git_error_clear();
		goto out;
	}
	if ((size_t)git_blob_rawsize(blob) > max) {
		ret = COMMIT_FILES_TOO_LARGE;
		goto out;
	}
	strbuf_add(out, git_blob_rawcontent(blob),
		   (size_t)git_blob_rawsize(blob));
	ret = COMMIT_FILES_OK;
out:
	git_blob_free(blob);
	return ret;
}

enum commit_files_stored commit_files_read_stored(struct strbuf *out,
					  const struct commit_files *s,
					  const char *path, size_t max)
{
	git_tree_entry *entry = NULL;
	enum commit_files_stored ret;

	if (git_tree_entry_bypath(&entry, s->tree, path) < 0) {
		git_error_clear();
		return COMMIT_FILES_MISSING;
	}
	ret = read_entry(out, s, entry, max);
	git_tree_entry_free(entry);
	return ret;
}

int commit_files_each_file(const struct commit_files *s, const char *dir,
		       int (*fn)(void *data, const char *path,
				 const char *name),
		       void *data)
{
	git_tree_entry *entry = NULL;
	git_tree *tree = NULL;
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int ret = 0;

	if (git_tree_entry_bypath(&entry, s->tree, dir) < 0) {
		git_error_clear();
		return COMMIT_FILES_MISSING;
	}
	if (git_tree_entry_type(entry) != GIT_OBJECT_TREE ||
	    git_tree_lookup(&tree, s->repo, git_tree_entry_id(entry)) < 0) {
		git_error_clear();
		ret = COMMIT_FILES_NOT_DIR;
		goto out;
	}
	for (i = 0; !ret && i < git_tree_entrycount(tree); i++) {
		const char *name =
			git_tree_entry_name(git_tree_entry_byindex(tree, i));

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, name);
		ret = fn(data, path.buf, name);
	}
out:
	strbuf_release(&path);
	git_tree_free(tree);
	git_tree_entry_free(entry);
	return ret;
}
