#include "config.h"
#include "attribution.h"
#include "digest.h"
#include "hashfile.h"
#include "history.h"
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
	int hit;
	int error;
};

/* Does the blob hash to the recorded value the way verify hashes it? */
static int blob_matches(struct search *s, const git_oid *blob_id)
{
	git_blob *blob = NULL;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	char hex[HASH_HEX_MAX];
	int match = 0;

	if (git_blob_lookup(&blob, s->repo, blob_id) < 0) {
		s->error = 1;
		return 0;
	}
	utf8_repair(&text, git_blob_rawcontent(blob),
		    (size_t)git_blob_rawsize(blob));
	if (s->how == ATTRIBUTE_RAW_OR_STRUCTURED) {
		if (digest_buffer_hex(hex, text.buf, text.len))
			s->error = 1;
		else
			match = !strcmp(hex, s->recorded);
	}
	if (!match && text.len <= HASH_DEFAULT_MAX_SIZE &&
	    !hash_text(hex, text.buf, text.len, HASH_STRUCTURED, &err))
		match = !strcmp(hex, s->recorded);
	git_blob_free(blob);
	strbuf_release(&text);
	strbuf_release(&err);
	return match;
}

static int look_at(void *data, const git_oid *commit_id)
{
	struct search *s = data;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	int stop = 0;

	if (git_commit_lookup(&commit, s->repo, commit_id) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		s->error = 1;
		stop = 1;
		goto out;
	}
	if (!git_tree_entry_bypath(&entry, tree, s->path) &&
	    git_tree_entry_type(entry) == GIT_OBJECT_BLOB &&
	    blob_matches(s, git_tree_entry_id(entry))) {
		git_oid_cpy(&s->found, commit_id);
		s->hit = 1;
		stop = 1;
		goto out;
	}
	git_oid_cpy(&s->newer, commit_id);
out:
	s->seen++;
	git_tree_entry_free(entry);
	git_tree_free(tree);
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
		git_tree *tree = NULL;
		git_tree_entry *entry = NULL;

		if (!git_commit_parent(&parent, commit, i) &&
		    !git_commit_tree(&tree, parent) &&
		    !git_tree_entry_bypath(&entry, tree, s->path) &&
		    git_tree_entry_type(entry) == GIT_OBJECT_BLOB &&
		    blob_matches(s, git_tree_entry_id(entry))) {
			git_oid_cpy(out, git_commit_id(parent));
			found = 1;
		}
		git_tree_entry_free(entry);
		git_tree_free(tree);
		git_commit_free(parent);
	}
	git_commit_free(commit);
	return found;
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
	int truncated = 0;

	memset(&s, 0, sizeof(s));
	s.repo = repo;
	s.path = path;
	s.recorded = recorded;
	s.how = how;
	if (history_changes(repo, start, path, look_at, &s, &truncated, err))
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
	if (truncated && !s.hit)
		strbuf_addstr(out, " (the history is truncated: a shallow "
			      "clone)");
	return 0;
}
