#include "config.h"
#include "attribution.h"
#include "digest.h"
#include "hashfile.h"
#include "history.h"
#include "lfs.h"
#include "repo.h"
#include "treepath.h"
#include "usage.h"
#include "utf8.h"

#include <string.h>
#include <time.h>

struct search {
	git_repository *repo;
	const char *path;
	const char *recorded;
	enum attribution_hash how;
	git_oid newer;		/* the change just after the one looked at */
	git_oid found;
	int seen;		/* changes looked at */
	int unread;		/* of those, how many could not be read */
	int hit;
	int error;
};

/*
 * Does the path, at the commit, hash to the recorded value the way verify
 * hashes it?  Symlinks stored in the tree are followed and git-lfs
 * pointers read through, as verify --at reads them; a commit whose
 * content cannot be read (an LFS object not fetched) does not match, and
 * says so in s->unread.
 */
static int commit_matches(struct search *s, git_commit *commit)
{
	git_tree *tree = NULL;
	git_blob *blob = NULL;
	struct treepath tp = TREEPATH_INIT;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf content = STRBUF_INIT;
	struct lfs_pointer ptr;
	char hex[HASH_HEX_MAX];
	int match = 0;

	if (git_commit_tree(&tree, commit) < 0) {
		s->error = 1;
		goto out;
	}
	if (treepath_resolve(&tp, s->repo, tree, NULL, s->path) < 0)
		s->error = 1;
	if (tp.status != TREEPATH_OK)
		goto out;
	if (git_blob_lookup(&blob, s->repo, &tp.id) < 0) {
		s->error = 1;
		goto out;
	}
	switch (lfs_read(&content, &ptr, s->repo, git_commit_id(commit),
			 tp.path.buf, git_blob_rawcontent(blob),
			 (size_t)git_blob_rawsize(blob), 0, &err)) {
	case LFS_SMUDGED:
		utf8_repair(&text, content.buf, content.len);
		break;
	case LFS_ABSENT:
		/* the oid is the raw hash of valid UTF-8 content */
		lfs_raw_hash(hex, &ptr);
		if (s->how == ATTRIBUTE_RAW_OR_STRUCTURED &&
		    !strcmp(hex, s->recorded))
			match = 1;
		else
			s->unread++;
		goto out;
	case LFS_ERROR:
		s->unread++;
		goto out;
	default:
		utf8_repair(&text, git_blob_rawcontent(blob),
			    (size_t)git_blob_rawsize(blob));
	}
	if (s->how == ATTRIBUTE_RAW_OR_STRUCTURED) {
		if (digest_buffer_hex(hex, text.buf, text.len))
			s->error = 1;
		else
			match = !strcmp(hex, s->recorded);
	}
	if (!match && text.len <= HASH_DEFAULT_MAX_SIZE &&
	    !hash_text(hex, text.buf, text.len, HASH_STRUCTURED, &err))
		match = !strcmp(hex, s->recorded);
out:
	git_blob_free(blob);
	git_tree_free(tree);
	treepath_release(&tp);
	strbuf_release(&text);
	strbuf_release(&content);
	strbuf_release(&err);
	return match;
}

static int look_at(void *data, const git_oid *commit_id)
{
	struct search *s = data;
	git_commit *commit = NULL;
	int stop = 0;

	if (git_commit_lookup(&commit, s->repo, commit_id) < 0) {
		s->error = 1;
		stop = 1;
		goto out;
	}
	if (commit_matches(s, commit)) {
		git_oid_cpy(&s->found, commit_id);
		s->hit = 1;
		stop = 1;
		goto out;
	}
	git_oid_cpy(&s->newer, commit_id);
out:
	s->seen++;
	git_commit_free(commit);
	return stop;
}

/* The first parent of commit whose version of the path matches. */
static int parent_with_match(struct search *s, const git_oid *commit_id,
			     git_oid *out)
{
	git_commit *commit = NULL;
	unsigned i, n;
	int found = 0;

	if (git_commit_lookup(&commit, s->repo, commit_id) < 0)
		return 0;
	n = git_commit_parentcount(commit);
	for (i = 0; i < n && !found; i++) {
		git_commit *parent = NULL;

		if (!git_commit_parent(&parent, commit, i) &&
		    commit_matches(s, parent)) {
			git_oid_cpy(out, git_commit_id(parent));
			found = 1;
		}
		git_commit_free(parent);
	}
	git_commit_free(commit);
	return found;
}

/*
 * The paths whose changes change what path reads at start: itself, the
 * symlinks on its way, and the file they lead to.
 */
static void way_paths(struct treepath *tp, git_repository *repo,
		      const git_oid *start, const char *path,
		      const char ***out, size_t *n)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	size_t i;

	if (!git_commit_lookup(&c, repo, start) &&
	    !git_commit_tree(&tree, c))
		treepath_resolve(tp, repo, tree, NULL, path);
	git_tree_free(tree);
	git_commit_free(c);
	*n = 0;
	*out = xcalloc(tp->nr_links + 2, sizeof(**out));
	(*out)[(*n)++] = path;
	for (i = 0; i < tp->nr_links; i++)
		if (strcmp(tp->links[i], path))
			(*out)[(*n)++] = tp->links[i];
	if (tp->status == TREEPATH_OK && strcmp(tp->path.buf, path))
		(*out)[(*n)++] = tp->path.buf;
}

/* "1a2b3c4d5e6f (2026-08-03, \"subject\")" */
static void describe(struct strbuf *out, git_repository *repo,
		     const git_oid *id)
{
	git_commit *c = NULL;
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, 13, id);
	strbuf_addstr(out, hex);
	if (!git_commit_lookup(&c, repo, id)) {
		time_t t = (time_t)git_commit_time(c);
		struct tm tm;
		char date[32] = "";
		const char *summary = git_commit_summary(c);

		if (gmtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		strbuf_addf(out, " (%s, \"%s\")", date, summary ? summary : "");
	}
	git_commit_free(c);
}

int attribute_drift(struct strbuf *out, git_repository *repo,
		    const git_oid *start, const char *path,
		    const char *recorded, enum attribution_hash how,
		    const char *field, struct strbuf *err)
{
	struct search s;
	struct treepath tp = TREEPATH_INIT;
	const char **paths = NULL;
	size_t npaths;
	int truncated = 0, ret;

	memset(&s, 0, sizeof(s));
	s.repo = repo;
	s.path = path;
	s.recorded = recorded;
	s.how = how;
	way_paths(&tp, repo, start, path, &paths, &npaths);
	ret = history_changes(repo, start, paths, npaths, look_at, &s,
			      &truncated, err);
	free(paths);
	treepath_release(&tp);
	if (ret)
		return -1;
	if (s.error) {
		const git_error *e = git_error_last();

		strbuf_addf(err, "cannot read the history of %s: %s", path,
			    e ? e->message : "an object is missing");
		return -1;
	}
	if (s.hit && s.seen == 1) {
		strbuf_addf(out, "%s: the committed %s at ", field, path);
		describe(out, repo, &s.found);
		strbuf_addstr(out, " has the recorded hash; the change is "
			      "not committed");
	} else if (s.hit) {
		git_oid last;

		/*
		 * The newest commit that still had the recorded content is
		 * the changing commit's parent that has it; the commit that
		 * brought the content in is named too.
		 */
		strbuf_addf(out, "%s: %s last had the recorded hash at ", field,
			    path);
		if (parent_with_match(&s, &s.newer, &last)) {
			describe(out, repo, &last);
			if (!git_oid_equal(&last, &s.found)) {
				strbuf_addstr(out, ", in place since ");
				describe(out, repo, &s.found);
			}
		} else
			describe(out, repo, &s.found);
		strbuf_addstr(out, "; changed by ");
		describe(out, repo, &s.newer);
	} else if (!s.seen) {
		strbuf_addf(out, "%s: %s has no history in this repository "
			    "(renames are not followed)", field, path);
	} else {
		strbuf_addf(out, "%s: the recorded hash never occurs in the "
			    "history of %s", field, path);
	}
	if (s.unread && !s.hit)
		strbuf_addf(out, " (%d of the versions could not be read: "
			    "git-lfs objects not fetched)", s.unread);
	if (truncated && !s.hit)
		strbuf_addstr(out, " (the history is truncated: a shallow "
			      "clone)");
	return 0;
}

int attribution_find(struct attribution_version *out, git_repository *repo,
		     const git_oid *start, const char *path,
		     const char *recorded, enum attribution_hash how,
		     struct strbuf *err)
{
	struct search s;
	struct treepath tp = TREEPATH_INIT, at = TREEPATH_INIT;
	const char **paths = NULL;
	size_t npaths;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	int ret;

	memset(&s, 0, sizeof(s));
	s.repo = repo;
	s.path = path;
	s.recorded = recorded;
	s.how = how;
	way_paths(&tp, repo, start, path, &paths, &npaths);
	ret = history_changes(repo, start, paths, npaths, look_at, &s,
			      &out->truncated, err);
	free(paths);
	treepath_release(&tp);
	if (ret)
		return -1;
	if (s.error) {
		const git_error *e = git_error_last();

		strbuf_addf(err, "cannot read the history of %s: %s", path,
			    e ? e->message : "an object is missing");
		return -1;
	}
	if (!s.hit)
		return 0;
	git_oid_cpy(&out->commit, &s.found);
	strbuf_reset(&out->content);
	if (git_commit_lookup(&commit, repo, &s.found) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		strbuf_addf(err, "cannot read commit: %s", lg2_message());
		ret = -1;
	} else {
		ret = treepath_read(&out->content, &at, repo, tree, &s.found,
				    path, err);
		/* the version just matched, so it is there to read */
		if (ret == 1)
			strbuf_addbuf(err, &at.why);
		ret = ret ? -1 : 1;
	}
	treepath_release(&at);
	git_tree_free(tree);
	git_commit_free(commit);
	return ret;
}

void attribution_version_release(struct attribution_version *v)
{
	strbuf_release(&v->content);
}

int attribute_find_version(git_oid *found, git_repository *repo,
			   const git_oid *start, const char *path,
			   const char *recorded, enum attribution_hash how,
			   struct strbuf *err)
{
	struct search s;
	struct treepath tp = TREEPATH_INIT;
	const char **paths = NULL;
	size_t npaths;
	int truncated = 0, ret;

	memset(&s, 0, sizeof(s));
	s.repo = repo;
	s.path = path;
	s.recorded = recorded;
	s.how = how;
	way_paths(&tp, repo, start, path, &paths, &npaths);
	ret = history_changes(repo, start, paths, npaths, look_at, &s,
			      &truncated, err);
	free(paths);
	treepath_release(&tp);
	if (ret)
		return -1;
	if (s.hit)
		git_oid_cpy(found, &s.found);
	return s.hit;
}
