#include "config.h"
#include "sigtrust.h"
#include "allowedsigners.h"
#include "record/changed.h"
#include "fs/readfile.h"
#include "git/repo.h"
#include "root/root.h"
#include "usage.h"
#include "fs/path.h"

#include <dirent.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

/* The first of given and the settings that is set, appended to out. */
static int source(struct strbuf *out, const char *given,
		  const char *const keys[], struct strbuf *err)
{
	int i, rc;

	if (given) {
		strbuf_addstr(out, given);
		return 1;
	}
	for (i = 0; keys[i]; i++) {
		rc = repo_config_here(out, keys[i], REPO_CONFIG_PATH, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* A path of the work tree as the commit at rev has it. */
struct entry_at {
	struct repo repo;
	git_tree *tree;
	git_tree_entry *entry;
	struct strbuf rel;	/* repository-relative */
};
#define ENTRY_AT_INIT { REPO_INIT, NULL, NULL, STRBUF_INIT }

static void entry_at_release(struct entry_at *e)
{
	git_tree_entry_free(e->entry);
	git_tree_free(e->tree);
	repo_release(&e->repo);
	strbuf_release(&e->rel);
}

static int entry_at(struct entry_at *e, const char *path, const char *rev,
		    struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT;
	const char *slash;
	git_object *obj = NULL;
	git_commit *commit = NULL;
	size_t n;
	int ret = -1;

	if (path_absolute(&abs, path, err))
		goto out;
	/* The repository that holds the file, wherever we run from. */
	slash = strrchr(abs.buf, '/');
	strbuf_add(&dir, abs.buf, (size_t)(slash - abs.buf) + (slash == abs.buf));
	if (repo_open(&e->repo, dir.buf, 0, err)) {
		if (!err->len)
			strbuf_addf(err, "'%s' is in no repository, so it "
				    "cannot be read at %s", path, rev);
		goto out;
	}
	n = e->repo.workdir.len;
	if (!n || !path_is_within(abs.buf, e->repo.workdir.buf) ||
	    abs.len <= n + 1) {
		strbuf_addf(err, "'%s' is not in the work tree, so it cannot "
			    "be read at %s", path, rev);
		goto out;
	}
	strbuf_addstr(&e->rel, abs.buf + n + 1);
	if (git_revparse_single(&obj, e->repo.git, rev) < 0 ||
	    git_object_peel((git_object **)&commit, obj, GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&e->tree, commit) < 0) {
		strbuf_addf(err, "cannot read commit '%s': %s", rev,
			    lg2_message());
		goto out;
	}
	if (git_tree_entry_bypath(&e->entry, e->tree, e->rel.buf) < 0) {
		git_error_clear();
		strbuf_addf(err, "'%s' is not in %s", e->rel.buf, rev);
		goto out;
	}
	ret = 0;
out:
	git_commit_free(commit);
	git_object_free(obj);
	strbuf_release(&abs);
	strbuf_release(&dir);
	return ret;
}

/* A regular file's blob in the commit, no larger than max, into out. */
static int blob_at(struct strbuf *out, git_repository *repo,
		   const git_tree_entry *entry, const char *name,
		   const char *rev, size_t max, struct strbuf *err)
{
	git_blob *blob = NULL;
	int ret = -1;

	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
	    git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(entry)) < 0) {
		strbuf_addf(err, "'%s' is not a file in %s", name, rev);
		goto out;
	}
	if ((size_t)git_blob_rawsize(blob) > max) {
		strbuf_addf(err, "'%s' at %s is too large", name, rev);
		goto out;
	}
	strbuf_add(out, git_blob_rawcontent(blob),
		   (size_t)git_blob_rawsize(blob));
	ret = 0;
out:
	git_blob_free(blob);
	return ret;
}

/* path's bytes as they are in the commit at rev. */
static int read_at(struct strbuf *out, const char *path, const char *rev,
		   struct strbuf *err)
{
	struct entry_at e = ENTRY_AT_INIT;
	int ret = entry_at(&e, path, rev, err);

	if (!ret)
		ret = blob_at(out, e.repo.git, e.entry, e.rel.buf, rev,
			      ALLOWED_SIGNERS_MAX, err);
	entry_at_release(&e);
	return ret;
}

int sig_trust_load_keys_at(struct sig_keyring *kr, const char *dir,
			   const char *rev)
{
	static const char *const keys_dir[] = { "ahd-replay.trustedKeys", NULL };
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf pem = STRBUF_INIT, name = STRBUF_INIT;
	struct entry_at e = ENTRY_AT_INIT;
	git_tree *tree = NULL;
	size_t i;
	int rc, ret = -1;

	rc = source(&path, dir, keys_dir, &err);
	if (rc <= 0) {
		ret = rc;
		goto out;
	}
	if (entry_at(&e, path.buf, rev, &err))
		goto out;
	if (git_tree_entry_type(e.entry) != GIT_OBJECT_TREE ||
	    git_tree_lookup(&tree, e.repo.git, git_tree_entry_id(e.entry)) < 0) {
		strbuf_addf(&err, "'%s' is not a directory in %s", e.rel.buf,
			    rev);
		goto out;
	}
	for (i = 0; i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *k = git_tree_entry_byindex(tree, i);
		const char *n = git_tree_entry_name(k);
		size_t len = strlen(n);

		if (len <= 4 || strcmp(n + len - 4, ".pub"))
			continue;
		strbuf_reset(&pem);
		strbuf_reset(&name);
		strbuf_addf(&name, "%s/%s@%s", e.rel.buf, n, rev);
		if (blob_at(&pem, e.repo.git, k, name.buf, rev, 64 << 10,
			    &err) ||
		    sig_keyring_add_pem(kr, name.buf, pem.buf, pem.len, &err))
			goto out;
	}
	ret = 0;
out:
	if (ret < 0)
		error("%s", err.buf);
	git_tree_free(tree);
	entry_at_release(&e);
	strbuf_release(&path);
	strbuf_release(&err);
	strbuf_release(&pem);
	strbuf_release(&name);
	return ret;
}

static int read_source(struct strbuf *out, const char *path, const char *at,
		       struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (at)
		return read_at(out, path, at, err);
	if (read_file_limited(out, path, ALLOWED_SIGNERS_MAX, &why)) {
		strbuf_addf(err, "cannot read '%s': %s", path, why.buf);
		ret = -1;
	}
	strbuf_release(&why);
	return ret;
}

/*
 * Read a trust file (from the work tree, or at the commit at) and name it
 * for messages: "path", or "path@rev".
 */
static int read_named(struct strbuf *text, struct strbuf *name,
		      const char *path, const char *at, struct strbuf *err)
{
	if (read_source(text, path, at, err))
		return -1;
	strbuf_addstr(name, path);
	if (at)
		strbuf_addf(name, "@%s", at);
	return 0;
}

int sig_trust_load_ssh(struct sig_keyring *kr,
		       const struct sig_trust_opts *opts)
{
	static const char *const signers_keys[] = {
		"ahd-replay.allowedSignersFile", "gpg.ssh.allowedSignersFile",
		NULL
	};
	static const char *const revoked_keys[] = {
		"ahd-replay.revokedKeysFile", "gpg.ssh.revocationFile", NULL
	};
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	int rc, ret = -1;

	rc = source(&path, opts->allowed_signers, signers_keys, &err);
	if (rc < 0)
		goto fail;
	if (rc) {
		if (read_named(&text, &name, path.buf, opts->at, &err))
			goto fail;
		if (allowed_signers_parse(&kr->ssh, text.buf, text.len,
					  name.buf, &err))
			goto fail;
		kr->have_ssh = 1;
	}
	strbuf_reset(&path);
	strbuf_reset(&text);
	strbuf_reset(&name);
	rc = source(&path, opts->revoked_keys, revoked_keys, &err);
	if (rc < 0)
		goto fail;
	if (rc) {
		if (read_named(&text, &name, path.buf, opts->at, &err))
			goto fail;
		if (allowed_signers_parse_revoked(&kr->ssh, text.buf, text.len,
						  name.buf, &err))
			goto fail;
	}
	ret = 0;
	goto out;
fail:
	error("%s", err.buf);
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}

/*
 * Is the file at path tracked in the repository around it?  Fills
 * workdir with that work tree's top.  Untracked files and files outside
 * any work tree (a CI secret, say) are no pull request's to change.
 */
static int tracked(const char *path, struct strbuf *workdir)
{
	struct repo repo = REPO_INIT;
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT, err = STRBUF_INIT;
	git_index *index = NULL;
	const char *slash;
	char *real = NULL;
	int ret = 0;

	real = realpath(path, NULL);
	if (!real)
		goto out;
	strbuf_addstr(&abs, real);
	slash = strrchr(abs.buf, '/');
	strbuf_add(&dir, abs.buf, (size_t)(slash - abs.buf) + (slash == abs.buf));
	if (repo_open(&repo, dir.buf, 0, &err) || !repo.workdir.len ||
	    !path_is_within(abs.buf, repo.workdir.buf) ||
	    abs.len <= repo.workdir.len + 1 ||
	    git_repository_index(&index, repo.git) < 0)
		goto out;
	ret = git_index_get_bypath(index, abs.buf + repo.workdir.len + 1,
				   0) != NULL;
	strbuf_addbuf(workdir, &repo.workdir);
out:
	git_index_free(index);
	repo_release(&repo);
	free(real);
	strbuf_release(&abs);
	strbuf_release(&dir);
	strbuf_release(&err);
	return ret;
}

static void warn_if_changed(struct changed_memo **memo, const char *path,
			    const char *what, const char *since)
{
	struct strbuf workdir = STRBUF_INIT, err = STRBUF_INIT;
	const struct changed_base *b;

	if (!tracked(path, &workdir))
		goto out;
	b = changed_base_for(memo, workdir.buf, since ? since : "@{upstream}",
			     NULL, &err);
	/* Without --changed-since, no upstream means nothing to compare. */
	if (!b) {
		if (since)
			warning("cannot tell whether %s '%s' changed: %s",
				what, path, err.buf);
		goto out;
	}
	if (changed_file(b, path))
		warning("%s '%s' is a tracked file that changed since %s: a "
			"pull request can trust its own key this way; read it "
			"with --trusted-keys-at=<base> or keep it outside the "
			"repository", what, path, changed_base_name(b));
out:
	strbuf_release(&workdir);
	strbuf_release(&err);
}

void sig_trust_warn_changed(const struct sig_trust_opts *opts,
			    const char *trusted_keys, const char *since)
{
	static const char *const signers_keys[] = {
		"ahd-replay.allowedSignersFile", "gpg.ssh.allowedSignersFile",
		NULL
	};
	static const char *const revoked_keys[] = {
		"ahd-replay.revokedKeysFile", "gpg.ssh.revocationFile", NULL
	};
	static const char *const keys_dir[] = { "ahd-replay.trustedKeys", NULL };
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct changed_memo *memo = NULL;
	struct dirent *de;
	DIR *d;

	if (opts->at)
		return;
	if (source(&path, opts->allowed_signers, signers_keys, &err) > 0)
		warn_if_changed(&memo, path.buf, "the allowed signers file",
				since);
	strbuf_reset(&path);
	if (source(&path, opts->revoked_keys, revoked_keys, &err) > 0)
		warn_if_changed(&memo, path.buf, "the revoked keys file", since);
	strbuf_reset(&path);
	if (source(&path, trusted_keys, keys_dir, &err) > 0 &&
	    (d = opendir(path.buf))) {
		while ((de = readdir(d))) {
			struct strbuf key = STRBUF_INIT;
			size_t n = strlen(de->d_name);

			if (n > 4 && !strcmp(de->d_name + n - 4, ".pub")) {
				strbuf_addf(&key, "%s/%s", path.buf, de->d_name);
				warn_if_changed(&memo, key.buf, "the trusted key",
						since);
			}
			strbuf_release(&key);
		}
		closedir(d);
	}
	changed_memo_free(memo);
	strbuf_release(&path);
	strbuf_release(&err);
}
