#include "config.h"
#include "sigtrust.h"
#include "allowedsigners.h"
#include "record/changed.h"
#include "fs/readfile.h"
#include "git/repo.h"
#include "git/commitfiles.h"
#include "git/workpath.h"
#include "usage.h"

#include <dirent.h>
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

/* A path of the work tree and the commit at rev of its repository. */
struct entry_at {
	struct repo repo;
	struct commit_files at;
	struct strbuf rel;	/* repository-relative */
};
#define ENTRY_AT_INIT { REPO_INIT, COMMIT_FILES_INIT, STRBUF_INIT }

static void entry_at_release(struct entry_at *e)
{
	commit_files_release(&e->at);
	repo_release(&e->repo);
	strbuf_release(&e->rel);
}

static int entry_at(struct entry_at *e, const char *path, const char *rev,
		    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int rc, ret = -1;

	/* The repository that holds the file, wherever we run from. */
	rc = workpath_open(&e->repo, &e->rel, path, err);
	if (rc == WORKPATH_NO_REPO && !err->len)
		strbuf_addf(err, "'%s' is in no repository, so it cannot be "
			    "read at %s", path, rev);
	else if (rc == WORKPATH_OUTSIDE)
		strbuf_addf(err, "'%s' is not in the work tree, so it cannot "
			    "be read at %s", path, rev);
	if (rc)
		goto out;
	if (commit_files_open(&e->at, &e->repo, rev, &why)) {
		strbuf_addf(err, "cannot read commit '%s': %s", rev, why.buf);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&why);
	return ret;
}

/*
 * A regular file stored at path (repository-relative) in the commit,
 * no larger than max, into out; named name in messages.
 */
static int blob_at(struct strbuf *out, const struct commit_files *at,
		   const char *path, const char *name, const char *rev,
		   size_t max, struct strbuf *err)
{
	switch (commit_files_read_stored(out, at, path, max)) {
	case COMMIT_FILES_OK:
		return 0;
	case COMMIT_FILES_MISSING:
		strbuf_addf(err, "'%s' is not in %s", name, rev);
		break;
	case COMMIT_FILES_TOO_LARGE:
		strbuf_addf(err, "'%s' at %s is too large", name, rev);
		break;
	default:
		strbuf_addf(err, "'%s' is not a file in %s", name, rev);
	}
	return -1;
}

/* path's bytes as they are in the commit at rev. */
static int read_at(struct strbuf *out, const char *path, const char *rev,
		   struct strbuf *err)
{
	struct entry_at e = ENTRY_AT_INIT;
	int ret = entry_at(&e, path, rev, err);

	if (!ret)
		ret = blob_at(out, &e.at, e.rel.buf, e.rel.buf, rev,
			      ALLOWED_SIGNERS_MAX, err);
	entry_at_release(&e);
	return ret;
}

/* One *.pub file of the trusted keys directory at a commit. */
struct keys_at {
	struct sig_keyring *kr;
	const struct commit_files *at;
	const char *rev;
	struct strbuf *err;
};

static int key_at(void *data, const char *path, const char *name)
{
	struct keys_at *k = data;
	struct strbuf pem = STRBUF_INIT, label = STRBUF_INIT;
	size_t len = strlen(name);
	int ret = 0;

	if (len <= 4 || strcmp(name + len - 4, ".pub"))
		return 0;
	strbuf_addf(&label, "%s@%s", path, k->rev);
	if (blob_at(&pem, k->at, path, label.buf, k->rev, 64 << 10, k->err) ||
	    sig_keyring_add_pem(k->kr, label.buf, pem.buf, pem.len, k->err))
		ret = -1;
	strbuf_release(&pem);
	strbuf_release(&label);
	return ret;
}

int sig_trust_load_keys_at(struct sig_keyring *kr, const char *dir,
			   const char *rev)
{
	static const char *const keys_dir[] = { "ahd-replay.trustedKeys", NULL };
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct entry_at e = ENTRY_AT_INIT;
	struct keys_at k;
	int rc, ret = -1;

	rc = source(&path, dir, keys_dir, &err);
	if (rc <= 0) {
		ret = rc;
		goto out;
	}
	if (entry_at(&e, path.buf, rev, &err))
		goto out;
	k.kr = kr;
	k.at = &e.at;
	k.rev = rev;
	k.err = &err;
	rc = commit_files_each_file(&e.at, e.rel.buf, key_at, &k);
	if (rc == COMMIT_FILES_MISSING)
		strbuf_addf(&err, "'%s' is not in %s", e.rel.buf, rev);
	else if (rc == COMMIT_FILES_NOT_DIR)
		strbuf_addf(&err, "'%s' is not a directory in %s", e.rel.buf,
			    rev);
	if (rc)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		error("%s", err.buf);
	entry_at_release(&e);
	strbuf_release(&path);
	strbuf_release(&err);
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
	/*
	 * Fail closed: every SSH signature now fails with this reason, in
	 * every output format, rather than verifying against the part that
	 * did load (a signature by a revoked key, say).
	 */
	allowed_signers_set_broken(&kr->ssh, err.buf);
	kr->have_ssh = 1;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}

static void warn_if_changed(struct changed_memo **memo, const char *path,
			    const char *what, const char *since)
{
	struct strbuf workdir = STRBUF_INIT, err = STRBUF_INIT;
	const struct changed_base *b;

	/* untracked, or outside any work tree: no pull request's to change */
	if (!workpath_tracked(path, &workdir))
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
