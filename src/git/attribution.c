#include "config.h"
#include "attribution.h"
#include "checkout.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "history.h"
#include "lfs.h"
#include "repo.h"
#include "treepath.h"
#include "usage.h"
#include "utf8.h"

#include <string.h>
#include <time.h>

/* One walk over the changes of one path, for all the wants of it. */
struct search {
	git_repository *repo;
	const char *path;
	struct attribution_want *wants;
	size_t n;
	size_t open;		/* wants not answered yet */
	git_oid prev;		/* the change looked at before this one */
	int have_prev;
	int error;
};

/*
 * A commit's version of the path, as verify reads it, hashed only in
 * the ways some want needs, and each way once.
 */
enum version_state {
	V_NONE,			/* no file there */
	V_TEXT,			/* text holds the content */
	V_LFS_ABSENT,		/* raw holds the pointer's hash */
	V_UNREAD,		/* the content cannot be read */
};

struct version {
	enum version_state state;
	struct strbuf text;
	char raw[HASH_HEX_MAX];
	int have_raw;		/* 1 computed, -1 cannot be */
	char structured[HASH_HEX_MAX];
	int have_structured;	/* 1 computed, -1 cannot be */
};
#define VERSION_INIT { V_NONE, STRBUF_INIT, "", 0, "", 0 }

static void version_release(struct version *v)
{
	strbuf_release(&v->text);
}

/*
 * Read the path at the commit.  Symlinks stored in the tree are followed,
 * git-lfs pointers read through and filters applied, as verify --at
 * reads them.  The
 * blob is read whole, as libgit2 reads blobs.
 */
static void version_read(struct search *s, git_commit *commit,
			 struct version *v)
{
	git_tree *tree = NULL;
	git_blob *blob = NULL;
	struct treepath tp = TREEPATH_INIT;
	struct strbuf content = STRBUF_INIT, err = STRBUF_INIT;
	struct lfs_pointer ptr;

	v->state = V_NONE;
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
		utf8_repair(&v->text, content.buf, content.len);
		v->state = V_TEXT;
		break;
	case LFS_ABSENT:
		/* the oid is the raw hash of valid UTF-8 content */
		lfs_raw_hash(v->raw, &ptr);
		v->have_raw = 1;
		v->state = V_LFS_ABSENT;
		break;
	case LFS_ERROR:
		v->state = V_UNREAD;
		break;
	default:
		/* as a checkout of that commit writes it (checkout.h) */
		strbuf_reset(&content);
		if (checkout_bytes(&content, s->repo, blob, tp.path.buf,
				   git_commit_id(commit), 0, &err)) {
			v->state = V_UNREAD;
			break;
		}
		utf8_repair(&v->text, content.buf, content.len);
		v->state = V_TEXT;
	}
out:
	git_blob_free(blob);
	git_tree_free(tree);
	treepath_release(&tp);
	strbuf_release(&content);
	strbuf_release(&err);
}

enum match { NO_MATCH, MATCH, UNREAD };

/* Does the version hash to the want's recorded value the way verify hashes? */
static enum match version_matches(struct search *s, struct version *v,
				  const struct attribution_want *w)
{
	struct strbuf err = STRBUF_INIT;

	if (v->state == V_NONE)
		return NO_MATCH;
	if (v->state == V_UNREAD)
		return UNREAD;
	if (v->state == V_LFS_ABSENT)
		return w->how != ATTRIBUTE_STRUCTURED &&
		       !strcmp(v->raw, w->recorded) ? MATCH : UNREAD;
	if (w->how != ATTRIBUTE_STRUCTURED) {
		if (!v->have_raw) {
			v->have_raw = digest_buffer_hex(v->raw, v->text.buf,
							v->text.len) ? -1 : 1;
			if (v->have_raw < 0)
				s->error = 1;
		}
		if (v->have_raw > 0 && !strcmp(v->raw, w->recorded))
			return MATCH;
		if (w->how == ATTRIBUTE_RAW)
			return NO_MATCH;
	}
	if (!v->have_structured) {
		v->have_structured = v->text.len <= HASH_DEFAULT_MAX_SIZE &&
			!hash_text(v->structured, v->text.buf, v->text.len,
				   HASH_STRUCTURED, &err) ? 1 : -1;
		strbuf_release(&err);
	}
	return v->have_structured > 0 && !strcmp(v->structured, w->recorded) ?
	       MATCH : NO_MATCH;
}

static int look_at(void *data, const git_oid *commit_id)
{
	struct search *s = data;
	struct version v = VERSION_INIT;
	git_commit *commit = NULL;
	size_t i;

	if (git_commit_lookup(&commit, s->repo, commit_id) < 0) {
		s->error = 1;
		return 1;
	}
	version_read(s, commit, &v);
	for (i = 0; i < s->n; i++) {
		struct attribution_want *w = &s->wants[i];

		if (w->hit)
			continue;
		w->seen++;
		switch (version_matches(s, &v, w)) {
		case MATCH:
			git_oid_cpy(&w->found, commit_id);
			if (s->have_prev)
				git_oid_cpy(&w->newer, &s->prev);
			w->hit = 1;
			s->open--;
			break;
		case UNREAD:
			w->unread++;
			break;
		case NO_MATCH:
			break;
		}
	}
	git_oid_cpy(&s->prev, commit_id);
	s->have_prev = 1;
	version_release(&v);
	git_commit_free(commit);
	return !s->open || s->error;
}

/* The first parent of commit whose version of the path matches w. */
static int parent_with_match(struct search *s, const git_oid *commit_id,
			     const struct attribution_want *w, git_oid *out)
{
	git_commit *commit = NULL;
	unsigned i, n;
	int found = 0;

	if (git_commit_lookup(&commit, s->repo, commit_id) < 0)
		return 0;
	n = git_commit_parentcount(commit);
	for (i = 0; i < n && !found; i++) {
		git_commit *parent = NULL;
		struct version v = VERSION_INIT;

		if (!git_commit_parent(&parent, commit, i)) {
			version_read(s, parent, &v);
			if (version_matches(s, &v, w) == MATCH) {
				git_oid_cpy(out, git_commit_id(parent));
				found = 1;
			}
		}
		version_release(&v);
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

void attribution_want_release(struct attribution_want *w)
{
	strbuf_release(&w->msg);
}

/* The sentence for one want, once the walk is over. */
static void explain(struct search *s, struct attribution_want *w,
		    int truncated)
{
	struct strbuf *out = &w->msg;
	const char *field = w->field, *path = s->path;

	if (w->hit && w->seen == 1) {
		strbuf_addf(out, "%s: the committed %s at ", field, path);
		describe(out, s->repo, &w->found);
		strbuf_addstr(out, " has the recorded hash; the change is "
			      "not committed");
	} else if (w->hit) {
		git_oid last;

		/*
		 * The newest commit that still had the recorded content is
		 * the changing commit's parent that has it; the commit that
		 * brought the content in is named too.
		 */
		strbuf_addf(out, "%s: %s last had the recorded hash at ", field,
			    path);
		if (parent_with_match(s, &w->newer, w, &last)) {
			describe(out, s->repo, &last);
			if (!git_oid_equal(&last, &w->found)) {
				strbuf_addstr(out, ", in place since ");
				describe(out, s->repo, &w->found);
			}
		} else
			describe(out, s->repo, &w->found);
		strbuf_addstr(out, "; changed by ");
		describe(out, s->repo, &w->newer);
	} else if (!w->seen) {
		strbuf_addf(out, "%s: %s has no history in this repository "
			    "(renames are not followed)", field, path);
	} else {
		strbuf_addf(out, "%s: the recorded hash never occurs in the "
			    "history of %s", field, path);
	}
	if (w->unread && !w->hit)
		strbuf_addf(out, " (%d of the versions could not be read: "
			    "git-lfs objects not fetched)", w->unread);
	if (truncated && !w->hit)
		strbuf_addstr(out, " (the history is truncated: a shallow "
			      "clone)");
}

/*
 * The walk shared by the callers: path's changes from start, until every
 * want is answered.  Returns 0 with *truncated set, or -1 with a reason
 * in err.
 */
static int walk_wants(struct search *s, git_repository *repo,
		      const git_oid *start, const char *path,
		      struct attribution_want *wants, size_t n,
		      int *truncated, struct strbuf *err)
{
	struct treepath tp = TREEPATH_INIT;
	const char **paths = NULL;
	size_t npaths;
	int ret;

	memset(s, 0, sizeof(*s));
	s->repo = repo;
	s->path = path;
	s->wants = wants;
	s->n = s->open = n;
	way_paths(&tp, repo, start, path, &paths, &npaths);
	ret = history_changes(repo, start, paths, npaths, look_at, s,
			      truncated, err);
	free(paths);
	treepath_release(&tp);
	if (ret)
		return -1;
	if (s->error) {
		const git_error *e = git_error_last();

		strbuf_addf(err, "cannot read the history of %s: %s", path,
			    e ? e->message : "an object is missing");
		return -1;
	}
	return 0;
}

int attribute_drifts(git_repository *repo, const git_oid *start,
		     const char *path, struct attribution_want *wants,
		     size_t n, struct strbuf *err)
{
	struct search s;
	size_t i;
	int truncated = 0;

	if (!n)
		return 0;
	if (walk_wants(&s, repo, start, path, wants, n, &truncated, err))
		return -1;
	for (i = 0; i < n; i++)
		explain(&s, &wants[i], truncated);
	return 0;
}

int attribution_find(struct attribution_version *out, const struct repo *r,
		     const char *start, const char *path,
		     const char *recorded, enum attribution_hash how,
		     struct strbuf *err)
{
	git_repository *repo = r->git;
	struct search s;
	struct attribution_want w = ATTRIBUTION_WANT_INIT;
	struct treepath at = TREEPATH_INIT;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid from;
	int ret;

	if (git_oid_fromstr(&from, start) < 0) {
		strbuf_addf(err, "cannot read commit %s: %s", start,
			    lg2_message());
		return -1;
	}
	w.recorded = recorded;
	w.how = how;
	if (walk_wants(&s, repo, &from, path, &w, 1, &out->truncated, err))
		return -1;
	if (!w.hit)
		return 0;
	git_oid_tostr(out->commit, sizeof(out->commit), &w.found);
	strbuf_reset(&out->content);
	if (git_commit_lookup(&commit, repo, &w.found) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		strbuf_addf(err, "cannot read commit: %s", lg2_message());
		ret = -1;
	} else {
		ret = treepath_read(&out->content, &at, repo, tree, &w.found,
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
