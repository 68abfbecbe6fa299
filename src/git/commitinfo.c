/*
 * Commits named by their full ids (see commitinfo.h).
 */
#include "config.h"
#include "commitinfo.h"

#include <string.h>
#include <time.h>

int commit_head(char out[COMMIT_HEX_MAX], const struct repo *r,
		struct strbuf *why)
{
	git_oid id;

	if (git_reference_name_to_id(&id, r->git, "HEAD") < 0) {
		if (why)
			strbuf_addstr(why, lg2_message());
		return -1;
	}
	git_oid_tostr(out, COMMIT_HEX_MAX, &id);
	return 0;
}

enum commit_find commit_find(const struct repo *r, const char *hex,
			     struct strbuf *detail)
{
	git_object *obj = NULL;
	enum commit_find ret = COMMIT_FOUND;
	git_oid id;

	if (git_oid_fromstrn(&id, hex, strlen(hex)) < 0 ||
	    git_object_lookup(&obj, r->git, &id, GIT_OBJECT_ANY) < 0) {
		if (git_repository_is_shallow(r->git))
			return COMMIT_MISSING_SHALLOW;
		strbuf_addstr(detail, lg2_message());
		return COMMIT_MISSING;
	}
	if (git_object_type(obj) != GIT_OBJECT_COMMIT) {
		strbuf_addstr(detail,
			      git_object_type2string(git_object_type(obj)));
		ret = COMMIT_NOT_COMMIT;
	}
	git_object_free(obj);
	return ret;
}

void commit_describe(struct strbuf *out, const struct repo *r,
		     const char *hex)
{
	git_commit *c = NULL;
	git_oid id;

	strbuf_addf(out, "%.12s", hex);
	if (!git_oid_fromstr(&id, hex) && !git_commit_lookup(&c, r->git, &id)) {
		time_t t = (time_t)git_commit_time(c);
		const char *summary = git_commit_summary(c);
		char date[32] = "";
		struct tm tm;

		if (gmtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		strbuf_addf(out, " (%s, \"%s\")", date, summary ? summary : "");
	}
	git_commit_free(c);
}

int commit_signature(struct strbuf *sig, struct strbuf *data, int64_t *when,
		     const struct repo *r, const char *hex,
		     struct strbuf *err)
{
	git_buf s = GIT_BUF_INIT, d = GIT_BUF_INIT;
	git_commit *commit = NULL;
	git_oid id;
	int rc, ret = -1;

	if (git_oid_fromstr(&id, hex) < 0) {
		strbuf_addstr(err, lg2_message());
		return -1;
	}
	rc = git_commit_extract_signature(&s, &d, r->git, &id, NULL);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		ret = 1;
		goto out;
	}
	if (rc < 0 || git_commit_lookup(&commit, r->git, &id) < 0) {
		strbuf_addstr(err, lg2_message());
		goto out;
	}
	strbuf_add(sig, s.ptr, s.size);
	strbuf_add(data, d.ptr, d.size);
	*when = (int64_t)git_commit_committer(commit)->when.time;
	ret = 0;
out:
	git_commit_free(commit);
	git_buf_dispose(&s);
	git_buf_dispose(&d);
	return ret;
}
