/*
 * A blob's bytes as a checkout writes them (checkout.h).
 */
#include "config.h"
#include "checkout.h"
#include "repo.h"

#include "usage.h"

#include <git2/sys/repository.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Is key set in the repository's configuration? */
static int config_has(git_config *cfg, const char *key)
{
	git_config_entry *e = NULL;
	int has = !git_config_get_entry(&e, cfg, key) && e && e->value;

	git_config_entry_free(e);
	git_error_clear();
	return has;
}

/*
 * The filter and working-tree-encoding attributes of path: 0 when no
 * driver must run (none set, lfs, or a driver that is not configured)
 * and no encoding is asked for, -1 with the reason in err.
 */
static int check_filter(git_repository *repo, const char *path,
			const git_oid *commit, struct strbuf *err)
{
	static const char *names[] = { "filter", "working-tree-encoding" };
	git_attr_options ao;
	struct strbuf key = STRBUF_INIT;
	git_config *cfg = NULL;
	const char *values[2] = { NULL, NULL };
	const char *value;
	int bool_required = 0, ret = -1;

	memset(&ao, 0, sizeof(ao));
	ao.version = GIT_ATTR_OPTIONS_VERSION;
	ao.flags = GIT_ATTR_CHECK_FILE_THEN_INDEX;
	if (commit) {
		ao.flags |= GIT_ATTR_CHECK_INCLUDE_COMMIT;
		git_oid_cpy(&ao.attr_commit_id, commit);
	}
	if (git_attr_get_many_ext(values, repo, &ao, path, 2, names) < 0) {
		strbuf_addf(err, "cannot read the attributes of %s: %s", path,
			    lg2_message());
		return -1;
	}
	/*
	 * git re-encodes such a file on checkout (UTF-16 and the like);
	 * libgit2's filters do not, so the bytes it gives are not the
	 * bytes a checkout writes.  Any value is refused, even one git
	 * would treat as a no-op: a refusal is never a wrong hash.
	 */
	if (git_attr_value(values[1]) == GIT_ATTR_VALUE_STRING) {
		strbuf_addf(err, "%s: its attributes give "
			    "working-tree-encoding=%s, a re-encoding this tool "
			    "does not perform, so the bytes a checkout writes "
			    "are unknown; not hashed", path, values[1]);
		return -1;
	}
	value = values[0];
	if (git_attr_value(value) != GIT_ATTR_VALUE_STRING ||
	    !strcmp(value, "lfs"))
		return 0;
	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		strbuf_addf(err, "cannot read the configuration: %s",
			    lg2_message());
		return -1;
	}
	strbuf_addf(&key, "filter.%s.required", value);
	if (git_config_get_bool(&bool_required, cfg, key.buf) < 0)
		bool_required = 0;
	git_error_clear();
	strbuf_reset(&key);
	strbuf_addf(&key, "filter.%s.smudge", value);
	if (!bool_required && !config_has(cfg, key.buf)) {
		strbuf_reset(&key);
		strbuf_addf(&key, "filter.%s.process", value);
		if (!config_has(cfg, key.buf)) {
			ret = 0;	/* git passes the blob through too */
			goto out;
		}
	}
	strbuf_addf(err, "%s: its attributes give filter=%s, a driver this "
		    "tool does not run, so the bytes a checkout writes are "
		    "unknown; not hashed", path, value);
out:
	git_config_free(cfg);
	strbuf_release(&key);
	return ret;
}

/*
 * A second handle on repo's objects that sees no work tree and an empty
 * index, so that its attributes are the commit's alone.  libgit2 1.5 has
 * no flag for that: GIT_ATTR_CHECK_INCLUDE_COMMIT adds the commit's
 * .gitattributes after the work tree's and the index's, and the first
 * match wins, so an edited .gitattributes in the work tree would change
 * what --at hashes.  info/attributes and the system file still apply,
 * as to a checkout.  The blob is looked up again in the view, since
 * git_blob_filter() reads attributes through the blob's owner.
 *
 * Opening it costs a repository open per file, so the last view is
 * kept for the next call on the same repository (by its path: two
 * handles on one repository see the same objects and attributes).  A
 * caller takes the kept view out and hands it back (view_put()), so no
 * two threads ever use one handle; a thread that finds none opens its
 * own.  The one kept at exit stays reachable from here.
 */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static git_repository *kept_view;
static char *kept_path;

static git_repository *view_take(const char *path)
{
	git_repository *view = NULL;

	pthread_mutex_lock(&kept_lock);
	if (kept_view && !strcmp(kept_path, path)) {
		view = kept_view;
		kept_view = NULL;
	}
	pthread_mutex_unlock(&kept_lock);
	return view;
}

/* Keep view (owned), a view of the repository at path, for the next call. */
static void view_put(git_repository *view, const char *path)
{
	git_repository *old;
	char *copy, *old_path;

	if (!view)
		return;
	copy = xstrdup(path);
	pthread_mutex_lock(&kept_lock);
	old = kept_view;
	old_path = kept_path;
	kept_view = view;
	kept_path = copy;
	pthread_mutex_unlock(&kept_lock);
	git_repository_free(old);
	free(old_path);
}

/* The view (a kept one, or a new one) and the blob looked up in it. */
static int commit_view(git_repository **view, git_blob **vblob,
		       git_repository *repo, git_blob *blob)
{
	git_index *empty = NULL;

	*view = view_take(git_repository_path(repo));
	if (!*view &&
	    (git_repository_open_bare(view, git_repository_path(repo)) < 0 ||
	     git_index_new(&empty) < 0 ||
	     git_repository_set_index(*view, empty) < 0)) {
		/* half set up: never kept, never used */
		git_index_free(empty);
		git_repository_free(*view);
		*view = NULL;
		return -1;
	}
	git_index_free(empty);	/* the view holds its own reference */
	return git_blob_lookup(vblob, *view, git_blob_id(blob)) < 0 ? -1 : 0;
}

int checkout_bytes(struct strbuf *out, git_repository *repo, git_blob *blob,
		   const char *path, const git_oid *commit, size_t max,
		   struct strbuf *err)
{
	git_blob_filter_options fo;
	git_buf filtered = GIT_BUF_INIT;
	git_repository *view = NULL;
	git_blob *vblob = NULL;
	/* the caller's repository's, which outlives this call */
	const char *repo_path = git_repository_path(repo);
	int ret = -1;

	if (commit) {
		if (commit_view(&view, &vblob, repo, blob) < 0) {
			strbuf_addf(err, "cannot read the attributes of %s "
				    "at its commit: %s", path, lg2_message());
			goto out;
		}
		repo = view;
		blob = vblob;
	}
	if (check_filter(repo, path, commit, err))
		goto out;
	if (git_blob_filter_options_init(&fo,
					 GIT_BLOB_FILTER_OPTIONS_VERSION) < 0)
		goto fail;
	/*
	 * Not GIT_BLOB_FILTER_CHECK_FOR_BINARY (the default), which hands
	 * back nothing at all for content that looks binary: the filters
	 * themselves leave binary content alone where git does (text=auto,
	 * core.autocrlf) and convert it where an explicit text or eol says
	 * so, as git's checkout does.
	 */
	fo.flags = 0;
	if (commit) {
		fo.flags |= GIT_BLOB_FILTER_ATTRIBUTES_FROM_COMMIT;
		git_oid_cpy(&fo.attr_commit_id, commit);
	}
	if (git_blob_filter(&filtered, blob, path, &fo) < 0)
		goto fail;
	if (max && filtered.size > max) {
		ret = CHECKOUT_TOOBIG;
		goto out;
	}
	strbuf_add(out, filtered.ptr, filtered.size);
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot filter %s as a checkout would: %s", path,
		    lg2_message());
out:
	git_buf_dispose(&filtered);
	git_blob_free(vblob);
	view_put(view, repo_path);
	return ret;
}
