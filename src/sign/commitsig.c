#include "config.h"
#include "commitsig.h"
#include "git/history.h"
#include "git/repo.h"
#include "root/root.h"
#include "sshsig.h"
#include "sshwire.h"
#include "usage.h"
#include "fs/path.h"

#include <git2.h>
#include <string.h>

void commitsig_result_init(struct commitsig_result *res)
{
	res->ok = 0;
	res->commit[0] = '\0';
	strbuf_init(&res->principal, 0);
	strbuf_init(&res->reason, 0);
}

void commitsig_result_release(struct commitsig_result *res)
{
	strbuf_release(&res->principal);
	strbuf_release(&res->reason);
}

/* The commit's signature: SSH, namespace git, over signed, allowed. */
static void check_signature(struct commitsig_result *res, const char *sig,
			    size_t sig_len, const char *data, size_t len,
			    int64_t when, const struct allowed_signers *as)
{
	struct sshsig s = SSHSIG_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *principals = NULL;
	int rc;

	if (!sshsig_is_armoured(sig, sig_len)) {
		strbuf_addf(&res->reason, "commit %s is signed, but not with "
			    "an SSH key (gpg.format=ssh)", res->commit);
		goto out;
	}
	if (sshsig_parse_armoured(&s, sig, sig_len, NULL, &why)) {
		strbuf_addf(&res->reason, "commit %s: %s", res->commit,
			    why.buf);
		goto out;
	}
	if (strcmp(s.ns.buf, "git")) {
		strbuf_addf(&res->reason, "commit %s is signed in the "
			    "namespace '", res->commit);
		sshwire_add_quoted(&res->reason, s.ns.buf, s.ns.len);
		strbuf_addstr(&res->reason, "', not 'git'");
		goto out;
	}
	rc = sshsig_verify(&s, data, len, &why);
	if (rc != 1) {
		strbuf_addf(&res->reason, "commit %s: the signature does not "
			    "verify%s%s", res->commit, why.len ? ": " : "",
			    why.buf);
		goto out;
	}
	if (!as) {
		strbuf_addf(&res->reason, "commit %s: no allowed signers file "
			    "to trust its key with", res->commit);
		goto out;
	}
	if (allowed_signers_check(as, &s.key, "git", when, &principals,
				  &why) != SIGNER_OK) {
		strbuf_addf(&res->reason, "commit %s: %s", res->commit,
			    why.buf);
		goto out;
	}
	/* As written: the printers quote what files hold. */
	strbuf_addstr(&res->principal, principals);
	res->ok = 1;
out:
	sshsig_release(&s);
	strbuf_release(&why);
}

int commitsig_check(struct commitsig_result *res, const char *path,
		    const struct allowed_signers *as)
{
	struct repo repo = REPO_INIT;
	struct strbuf abs = STRBUF_INIT, dir = STRBUF_INIT, err = STRBUF_INIT;
	struct history_answer answer;
	git_buf sig = GIT_BUF_INIT, data = GIT_BUF_INIT;
	git_commit *commit = NULL;
	git_oid head, id;
	const char *rel, *slash;
	int truncated = 0, rc;

	res->ok = 0;
	if (path_absolute(&abs, path, &err))
		goto fail;
	slash = strrchr(abs.buf, '/');
	strbuf_add(&dir, abs.buf, (size_t)(slash - abs.buf) + (slash == abs.buf));
	rc = repo_open(&repo, dir.buf, 0, &err);
	if (rc) {
		if (rc > 0)
			strbuf_addstr(&err, "not in a git repository");
		goto fail;
	}
	if (!repo.workdir.len || !path_is_within(abs.buf, repo.workdir.buf) ||
	    abs.len <= repo.workdir.len + 1) {
		strbuf_addstr(&err, "not in the work tree");
		goto fail;
	}
	rel = abs.buf + repo.workdir.len + 1;
	if (git_reference_name_to_id(&head, repo.git, "HEAD") < 0) {
		strbuf_addf(&err, "no commit at HEAD: %s", lg2_message());
		goto fail;
	}
	if (history_find(repo.git, &head, &rel, 1, HISTORY_LAST, &answer,
			 &truncated, &err))
		goto fail;
	/*
	 * At a shallow clone's boundary the answer may be the boundary
	 * commit standing in for history it does not have: no answer.
	 */
	if (answer.truncated || (!answer.found && truncated)) {
		strbuf_addf(&res->reason, "the commit that last changed %s is "
			    "not in this shallow clone (fetch more history)",
			    path);
		goto out;
	}
	if (!answer.found) {
		strbuf_addstr(&err, "it is not committed");
		goto fail;
	}
	git_oid_tostr(res->commit, sizeof(res->commit), &answer.commit);
	id = answer.commit;
	rc = git_commit_extract_signature(&sig, &data, repo.git, &id, NULL);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		strbuf_addf(&res->reason, "commit %s, which last changed it, "
			    "is not signed", res->commit);
		goto out;
	}
	if (rc < 0 || git_commit_lookup(&commit, repo.git, &id) < 0) {
		strbuf_addf(&err, "cannot read commit %s: %s", res->commit,
			    lg2_message());
		goto fail;
	}
	check_signature(res, sig.ptr, sig.size, data.ptr, data.size,
			(int64_t)git_commit_committer(commit)->when.time, as);
	goto out;
fail:
	strbuf_addf(&res->reason, "cannot find the commit that last changed "
		    "%s: %s", path, err.buf);
out:
	git_commit_free(commit);
	git_buf_dispose(&sig);
	git_buf_dispose(&data);
	repo_release(&repo);
	strbuf_release(&abs);
	strbuf_release(&dir);
	strbuf_release(&err);
	return res->ok;
}
