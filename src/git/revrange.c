/*
 * Revisions, HEAD and merge bases (see revrange.h).
 */
#include "config.h"
#include "revrange.h"
#include "revision.h"

int revrange_resolve(char *out, struct repo *r, const char *rev,
		     struct strbuf *err)
{
	git_object *obj = NULL;

	if (revision_parse(&obj, r->git, rev, err) < 0)
		return -1;
	git_oid_tostr(out, SNAPSHOT_HEX_MAX, git_object_id(obj));
	git_object_free(obj);
	return 0;
}

int revrange_commit(char *out, struct repo *r, const char *rev,
		    struct strbuf *err)
{
	git_object *obj = NULL, *commit = NULL;
	int ret = -1;

	if (revision_parse(&obj, r->git, rev, err) < 0)
		goto out;
	ret = 1;
	if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0)
		goto fail;
	git_oid_tostr(out, SNAPSHOT_HEX_MAX, git_object_id(commit));
	ret = 0;
	goto out;
fail:
	strbuf_addstr(err, lg2_message());
out:
	git_object_free(commit);
	git_object_free(obj);
	return ret;
}

int revrange_has_commit(struct repo *r, const char *hex)
{
	git_object *obj = NULL;
	git_oid id;

	if (git_oid_fromstr(&id, hex) < 0 ||
	    git_object_lookup(&obj, r->git, &id, GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		return 0;
	}
	git_object_free(obj);
	return 1;
}

int revrange_head(char *out, struct repo *r, struct strbuf *err)
{
	git_oid id;
	int rc = git_reference_name_to_id(&id, r->git, "HEAD");

	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH) {
		git_error_clear();
		return 1;
	}
	if (rc < 0) {
		strbuf_addstr(err, lg2_message());
		return -1;
	}
	git_oid_tostr(out, SNAPSHOT_HEX_MAX, &id);
	return 0;
}

/* hex as an id, or -1 with a reason in err. */
static int oid_of(git_oid *out, const char *hex, struct strbuf *err)
{
	if (git_oid_fromstr(out, hex) < 0) {
		strbuf_addf(err, "'%s' is not an object id", hex);
		return -1;
	}
	return 0;
}

int revrange_merge_base(char *out, struct repo *r, const char *a,
			const char *b, struct strbuf *err)
{
	git_oid ida, idb, base;
	int rc;

	if (oid_of(&ida, a, err) || oid_of(&idb, b, err))
		return -1;
	rc = git_merge_base(&base, r->git, &ida, &idb);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return 1;
	}
	if (rc < 0) {
		strbuf_addstr(err, lg2_message());
		return -1;
	}
	git_oid_tostr(out, SNAPSHOT_HEX_MAX, &base);
	return 0;
}

/*
 * Make *best the merge base of tip and ref when that is newer than
 * *best.  A ref without a commit, or without history in common with
 * tip that can be read, leaves *best alone.
 */
static void consider_ref(git_commit **best, git_repository *repo,
			 git_reference *ref, const git_oid *tip)
{
	git_object *peeled = NULL;
	git_commit *c = NULL;
	git_oid mb;

	if (git_reference_peel(&peeled, ref, GIT_OBJECT_COMMIT) < 0 ||
	    git_merge_base(&mb, repo, tip, git_object_id(peeled)) < 0 ||
	    git_commit_lookup(&c, repo, &mb) < 0) {
		git_error_clear();
		goto out;
	}
	if (!*best || git_commit_time(c) > git_commit_time(*best)) {
		git_commit_free(*best);
		*best = c;
		c = NULL;
	}
out:
	git_commit_free(c);
	git_object_free(peeled);
}

int revrange_newest_base(char *out, struct repo *r, const char *tip,
			 const char *glob, struct strbuf *err)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	git_commit *best = NULL;
	git_oid id;
	int rc, ret = -1;

	if (oid_of(&id, tip, err))
		return -1;
	if (git_reference_iterator_glob_new(&it, r->git, glob) < 0)
		goto fail;
	while (!(rc = git_reference_next(&ref, it))) {
		consider_ref(&best, r->git, ref, &id);
		git_reference_free(ref);
	}
	if (rc != GIT_ITEROVER)
		goto fail;
	ret = best != NULL;
	if (best)
		git_oid_tostr(out, SNAPSHOT_HEX_MAX, git_commit_id(best));
	goto out;
fail:
	strbuf_addstr(err, lg2_message());
out:
	git_commit_free(best);
	git_reference_iterator_free(it);
	return ret;
}
