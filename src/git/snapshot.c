/*
 * The files of a repository in one state, read from objects (see
 * snapshot.h).
 */
#include "config.h"
#include "snapshot.h"
#include "checkout.h"
#include "usage.h"

#include <string.h>

void snapshot_trust_object_ids(void)
{
	/* only fails for an unknown option */
	if (git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0) < 0)
		BUG("libgit2 refuses GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION");
}

int snapshot_head(struct snapshot *out, struct repo *r, struct strbuf *err)
{
	git_reference *head = NULL;
	int rc, ret = -1;

	out->repo = r->git;
	rc = git_repository_head(&head, r->git);
	if (rc == GIT_EUNBORNBRANCH || rc == GIT_ENOTFOUND) {
		/* the first commit: there are no files yet */
		git_error_clear();
		return 0;
	}
	if (rc < 0 || git_reference_peel((git_object **)&out->tree, head,
					 GIT_OBJECT_TREE) < 0) {
		strbuf_addf(err, "cannot read HEAD: %s", lg2_message());
		goto out;
	}
	git_oid_cpy(&out->commit, git_reference_target(head));
	out->has_commit = 1;
	ret = 0;
out:
	git_reference_free(head);
	return ret;
}

int snapshot_index(struct snapshot *out, struct repo *r, struct strbuf *err)
{
	out->repo = r->git;
	if (git_repository_index(&out->index, r->git) < 0) {
		strbuf_addf(err, "cannot read the index: %s", lg2_message());
		return -1;
	}
	return 0;
}

int snapshot_at(struct snapshot *out, struct repo *r, const char *hex,
		struct strbuf *err)
{
	git_object *obj = NULL, *commit = NULL;
	git_oid id;
	int ret = -1;

	out->repo = r->git;
	if (git_oid_fromstr(&id, hex) < 0 ||
	    git_object_lookup(&obj, r->git, &id, GIT_OBJECT_ANY) < 0) {
		strbuf_addf(err, "cannot read %s: %s", hex, lg2_message());
		goto out;
	}
	if (git_object_peel((git_object **)&out->tree, obj,
			    GIT_OBJECT_TREE) < 0) {
		git_error_clear();
		ret = 1;
		goto out;
	}
	/* the commit's gitattributes say which files are git-lfs's */
	if (!git_object_peel(&commit, obj, GIT_OBJECT_COMMIT)) {
		git_oid_cpy(&out->commit, git_object_id(commit));
		out->has_commit = 1;
	} else
		git_error_clear();
	ret = 0;
out:
	git_object_free(commit);
	git_object_free(obj);
	return ret;
}

void snapshot_view(struct snapshot *out, git_repository *repo,
		   git_tree *tree, git_index *index, const git_oid *commit)
{
	out->repo = repo;
	out->tree = tree;
	out->index = index;
	out->has_commit = commit != NULL;
	if (commit)
		git_oid_cpy(&out->commit, commit);
	out->borrowed = 1;
}

void snapshot_release(struct snapshot *s)
{
	struct snapshot init = SNAPSHOT_INIT;

	if (!s->borrowed) {
		git_tree_free(s->tree);
		git_index_free(s->index);
	}
	*s = init;
}

int snapshot_same_repo(const struct snapshot *a, const struct snapshot *b)
{
	return !strcmp(git_repository_path(a->repo),
		       git_repository_path(b->repo));
}

int snapshot_diff(const struct snapshot *base, const struct snapshot *next,
		  int (*fn)(void *data, const char *path, int link),
		  void *data, struct strbuf *err)
{
	git_diff *diff = NULL;
	git_diff_options opts;
	size_t i, n;
	int rc;

	if (base->index)
		BUG("snapshot_diff() compares from a tree, not an index");
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (next->index)
		rc = git_diff_tree_to_index(&diff, next->repo, base->tree,
					    next->index, &opts);
	else
		rc = git_diff_tree_to_tree(&diff, next->repo, base->tree,
					   next->tree, &opts);
	if (rc < 0) {
		strbuf_addstr(err, lg2_message());
		return -1;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0, rc = 0; i < n && !rc; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		int link = d->old_file.mode == GIT_FILEMODE_LINK ||
			   d->new_file.mode == GIT_FILEMODE_LINK;

		rc = fn(data, d->old_file.path, link);
		if (!rc && strcmp(d->old_file.path, d->new_file.path))
			rc = fn(data, d->new_file.path, link);
	}
	git_diff_free(diff);
	return rc;
}

struct each_file {
	int (*fn)(void *data, const char *path, const char *hex, int link);
	void *data;
	int rc;			/* what fn returned to stop the walk */
	struct strbuf path;
};

static int each_tree_entry(const char *root, const git_tree_entry *e,
			   void *data)
{
	struct each_file *w = data;
	char hex[SNAPSHOT_HEX_MAX];

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	strbuf_reset(&w->path);
	strbuf_addf(&w->path, "%s%s", root, git_tree_entry_name(e));
	git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
	w->rc = w->fn(w->data, w->path.buf, hex,
		      git_tree_entry_filemode(e) == GIT_FILEMODE_LINK);
	/* a negative return stops libgit2's walk; a positive one would not */
	return w->rc ? -1 : 0;
}

static int each_index_entry(struct each_file *w, git_index *index)
{
	size_t i, n = git_index_entrycount(index);
	char hex[SNAPSHOT_HEX_MAX];

	for (i = 0; i < n && !w->rc; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		/* conflicts (git commits none) and submodules hold no file */
		if (GIT_INDEX_ENTRY_STAGE(e) || e->mode == GIT_FILEMODE_COMMIT)
			continue;
		git_oid_tostr(hex, sizeof(hex), &e->id);
		w->rc = w->fn(w->data, e->path, hex,
			      e->mode == GIT_FILEMODE_LINK);
	}
	return w->rc;
}

int snapshot_each_file(const struct snapshot *s,
		       int (*fn)(void *data, const char *path,
				 const char *hex, int link),
		       void *data, struct strbuf *err)
{
	struct each_file w = { fn, data, 0, STRBUF_INIT };
	int ret = 0;

	if (s->index)
		ret = each_index_entry(&w, s->index);
	else if (s->tree &&
		 git_tree_walk(s->tree, GIT_TREEWALK_PRE, each_tree_entry,
			       &w) < 0) {
		ret = w.rc;
		if (!ret) {
			strbuf_addf(err, "cannot read a tree: %s",
				    lg2_message());
			ret = -1;
		}
	}
	strbuf_release(&w.path);
	return ret;
}

/* The blob with id, or -1 with a reason in err. */
static int blob_lookup(git_blob **out, const struct snapshot *s,
		       const git_oid *id, const char *what, struct strbuf *err)
{
	if (git_blob_lookup(out, s->repo, id) < 0) {
		strbuf_addf(err, "cannot read %s: %s", what, lg2_message());
		return -1;
	}
	return 0;
}

int snapshot_read_blob(struct strbuf *out, const struct snapshot *s,
		       const char *hex, struct strbuf *err)
{
	git_blob *b = NULL;
	git_oid id;

	if (git_oid_fromstr(&id, hex) < 0) {
		strbuf_addf(err, "'%s' is not an object id", hex);
		return -1;
	}
	if (blob_lookup(&b, s, &id, hex, err))
		return -1;
	strbuf_add(out, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_blob_free(b);
	return 0;
}

/* The id and mode stored at path itself; 1 when nothing is, -1 and err. */
static int entry_at(git_oid *id, unsigned *mode, const struct snapshot *s,
		    const char *path, struct strbuf *err)
{
	git_tree_entry *e = NULL;
	const git_index_entry *ie;
	int rc;

	if (s->index) {
		ie = git_index_get_bypath(s->index, path, 0);
		if (!ie)
			return 1;
		git_oid_cpy(id, &ie->id);
		*mode = ie->mode;
		return 0;
	}
	if (!s->tree)
		return 1;
	rc = git_tree_entry_bypath(&e, s->tree, path);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return 1;
	}
	if (rc < 0) {
		strbuf_addf(err, "cannot read %s: %s", path, lg2_message());
		return -1;
	}
	git_oid_cpy(id, git_tree_entry_id(e));
	*mode = git_tree_entry_filemode(e);
	git_tree_entry_free(e);
	return 0;
}

int snapshot_read_file(struct strbuf *out, const struct snapshot *s,
		       const char *path, struct strbuf *err)
{
	git_blob *b = NULL;
	git_oid id;
	unsigned mode;
	int rc = entry_at(&id, &mode, s, path, err);

	if (rc)
		return rc < 0 ? -1 : 0;
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE)
		return 0;
	if (blob_lookup(&b, s, &id, path, err))
		return -1;
	strbuf_add(out, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	git_blob_free(b);
	return 1;
}

int snapshot_resolve(struct treepath *out, const struct snapshot *s,
		     const char *path)
{
	return treepath_resolve(out, s->repo, s->index ? NULL : s->tree,
				s->index, path);
}

void snapshot_blob_hex(char *out, const struct treepath *tp)
{
	git_oid_tostr(out, SNAPSHOT_HEX_MAX, &tp->id);
}

int snapshot_checkout(struct strbuf *out, struct lfs_pointer *ptr,
		      const struct snapshot *s, const struct treepath *tp,
		      struct strbuf *err)
{
	const git_oid *commit = s->index || !s->has_commit ? NULL : &s->commit;
	git_blob *b = NULL;
	int ret = -1;

	if (blob_lookup(&b, s, &tp->id, tp->path.buf, err))
		return -1;
	switch (lfs_read(out, ptr, s->repo, commit, tp->path.buf,
			 git_blob_rawcontent(b), (size_t)git_blob_rawsize(b), 0,
			 err)) {
	case LFS_SMUDGED:
		ret = 0;
		break;
	case LFS_ABSENT:
		ret = SNAPSHOT_LFS_ABSENT;
		break;
	case LFS_CONTENT:
		/* as a checkout writes it, as every reader (checkout.h) */
		ret = checkout_bytes(out, s->repo, b, tp->path.buf, commit, 0,
				     err) ? -1 : 0;
		break;
	default:
		break;		/* lfs_read() said why in err */
	}
	git_blob_free(b);
	return ret;
}

int snapshot_hash_file(char *out, const struct snapshot *s, const char *path,
		       struct strbuf *err)
{
	git_oid id;

	/* no as_path: no filter applies */
	if (git_repository_hashfile(&id, s->repo, path, GIT_OBJECT_BLOB,
				    "") < 0) {
		strbuf_addf(err, "cannot hash '%s': %s", path, lg2_message());
		return -1;
	}
	git_oid_tostr(out, SNAPSHOT_HEX_MAX, &id);
	return 0;
}

int snapshot_worktree_unmodified(const struct snapshot *s,
				 const struct treepath *tp, const char *buf,
				 size_t len, struct strbuf *err)
{
	git_filter_list *fl = NULL;
	git_buf clean = GIT_BUF_INIT;
	git_oid id;
	int ret = -1;

	if (git_filter_list_load(&fl, s->repo, NULL, tp->path.buf,
				 GIT_FILTER_TO_ODB, GIT_FILTER_DEFAULT) < 0 ||
	    (fl && git_filter_list_apply_to_buffer(&clean, fl, buf, len) < 0) ||
	    git_odb_hash(&id, fl ? clean.ptr : buf, fl ? clean.size : len,
			 GIT_OBJECT_BLOB) < 0) {
		strbuf_addf(err, "cannot clean '%s' as git add would: %s",
			    tp->path.buf, lg2_message());
		goto out;
	}
	ret = git_oid_equal(&id, &tp->id);
out:
	git_buf_dispose(&clean);
	git_filter_list_free(fl);
	return ret;
}
