#include "config.h"
#include "commitsig.h"
#include "git/commitinfo.h"
#include "git/history.h"
#include "git/workpath.h"
#include "sshsig.h"
#include "sshwire.h"
#include "usage.h"

#include <stdio.h>
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
	const struct sshkey *key;
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
	if (!as) {
		strbuf_addf(&res->reason, "commit %s: no allowed signers file "
			    "to trust its key with", res->commit);
		goto out;
	}
	/*
	 * A key nobody allows is refused as bytes, before anything is
	 * built from it (the check below says why); a listed one is
	 * checked with the allowed signers' copy.
	 */
	key = allowed_signers_find(as, &s.key);
	if (key) {
		rc = sshsig_verify(&s, key, data, len, &why);
		if (rc != 1) {
			strbuf_addf(&res->reason, "commit %s: the signature "
				    "does not verify%s%s", res->commit,
				    why.len ? ": " : "", why.buf);
			goto out;
		}
	}
	/* !key: never "ok" for a signature that was not checked. */
	if (allowed_signers_check(as, &s.key, "git", when, &principals,
				  &why) != SIGNER_OK || !key) {
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
	struct strbuf rel = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf sig = STRBUF_INIT, data = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct history_answer answer;
	char head[COMMIT_HEX_MAX];
	const char *relp;
	int64_t when = 0;
	int truncated = 0, rc;

	res->ok = 0;
	rc = workpath_open(&repo, &rel, path, &err);
	if (rc == WORKPATH_NO_REPO)
		strbuf_addstr(&err, "not in a git repository");
	else if (rc == WORKPATH_OUTSIDE)
		strbuf_addstr(&err, "not in the work tree");
	if (rc)
		goto fail;
	if (commit_head(head, &repo, &why)) {
		strbuf_addf(&err, "no commit at HEAD: %s", why.buf);
		goto fail;
	}
	relp = rel.buf;
	if (history_find_hex(&repo, head, &relp, 1, HISTORY_LAST, &answer,
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
	snprintf(res->commit, sizeof(res->commit), "%.12s", answer.hex);
	rc = commit_signature(&sig, &data, &when, &repo, answer.hex, &why);
	if (rc > 0) {
		strbuf_addf(&res->reason, "commit %s, which last changed it, "
			    "is not signed", res->commit);
		goto out;
	}
	if (rc < 0) {
		strbuf_addf(&err, "cannot read commit %s: %s", res->commit,
			    why.buf);
		goto fail;
	}
	check_signature(res, sig.buf, sig.len, data.buf, data.len, when, as);
	goto out;
fail:
	strbuf_addf(&res->reason, "cannot find the commit that last changed "
		    "%s: %s", path, err.buf);
out:
	repo_release(&repo);
	strbuf_release(&rel);
	strbuf_release(&err);
	strbuf_release(&sig);
	strbuf_release(&data);
	strbuf_release(&why);
	return res->ok;
}
