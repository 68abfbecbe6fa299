#include "config.h"
#include "sigtrust.h"
#include "allowedsigners.h"
#include "readfile.h"
#include "repo.h"
#include "root.h"
#include "usage.h"

#include <git2.h>
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

/* path's bytes as they are in the commit at rev. */
static int read_at(struct strbuf *out, const char *path, const char *rev,
		   struct strbuf *err)
{
	struct repo repo = REPO_INIT;
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT;
	const char *slash;
	git_object *obj = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	size_t n;
	int ret = -1;

	if (path_absolute(&abs, path, err))
		goto out;
	/* The repository that holds the file, wherever we run from. */
	slash = strrchr(abs.buf, '/');
	strbuf_add(&dir, abs.buf, (size_t)(slash - abs.buf) + (slash == abs.buf));
	if (repo_open(&repo, dir.buf, 0, err)) {
		if (!err->len)
			strbuf_addstr(err, "--trusted-keys-at needs a "
				      "repository");
		goto out;
	}
	n = repo.workdir.len;
	if (!n || !path_is_within(abs.buf, repo.workdir.buf) ||
	    abs.len <= n + 1) {
		strbuf_addf(err, "'%s' is not in the work tree, so it cannot "
			    "be read at %s", path, rev);
		goto out;
	}
	if (git_revparse_single(&obj, repo.git, rev) < 0 ||
	    git_object_peel((git_object **)&commit, obj, GIT_OBJECT_COMMIT) < 0 ||
	    git_commit_tree(&tree, commit) < 0) {
		strbuf_addf(err, "cannot read commit '%s': %s", rev,
			    lg2_message());
		goto out;
	}
	if (git_tree_entry_bypath(&entry, tree, abs.buf + n + 1) < 0 ||
	    git_tree_entry_type(entry) != GIT_OBJECT_BLOB ||
	    git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK ||
	    git_blob_lookup(&blob, repo.git, git_tree_entry_id(entry)) < 0) {
		strbuf_addf(err, "'%s' is not a file in %s", abs.buf + n + 1,
			    rev);
		goto out;
	}
	if ((size_t)git_blob_rawsize(blob) > ALLOWED_SIGNERS_MAX) {
		strbuf_addf(err, "'%s' at %s is too large", abs.buf + n + 1,
			    rev);
		goto out;
	}
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	ret = 0;
out:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	git_tree_free(tree);
	git_commit_free(commit);
	git_object_free(obj);
	repo_release(&repo);
	strbuf_release(&abs);
	strbuf_release(&dir);
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
		if (read_source(&text, path.buf, opts->at, &err))
			goto fail;
		strbuf_addstr(&name, path.buf);
		if (opts->at)
			strbuf_addf(&name, "@%s", opts->at);
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
		if (read_source(&text, path.buf, opts->at, &err))
			goto fail;
		strbuf_addstr(&name, path.buf);
		if (opts->at)
			strbuf_addf(&name, "@%s", opts->at);
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
