/*
 * Where verify's trusted keys come from: --trusted-keys or the git
 * configuration (kept apart from verify.c, which checks reports).
 */
#include "config.h"
#include "verify.h"
#include "git/repo.h"
#include "usage.h"

#include <git2.h>

/*
 * The trusted keys: --trusted-keys, else ahd-replay.trustedKeys from the
 * git configuration (a relative path is taken from the work tree's top,
 * so the setting works from any subdirectory).  Neither is no keys.
 */
int verify_load_trusted_keys(struct sig_keyring *kr, const char *dir)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf value = GIT_BUF_INIT;
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int rc, ret = -1;

	if (dir) {
		strbuf_addstr(&path, dir);
	} else {
		/*
		 * A repository libgit2 cannot open leaves the user's own
		 * configuration; with no keys, signed sidecars still fail.
		 */
		repo_open_git(&repo, ".", 0, NULL);
		if ((repo ? git_repository_config_snapshot(&cfg, repo) :
		     git_config_open_default(&cfg)) < 0)
			goto git_error;
		rc = git_config_get_path(&value, cfg, "ahd-replay.trustedKeys");
		if (rc == GIT_ENOTFOUND) {
			ret = 0;
			goto out;
		}
		if (rc < 0)
			goto git_error;
		if (value.ptr[0] != '/' && repo && git_repository_workdir(repo))
			strbuf_addstr(&path, git_repository_workdir(repo));
		strbuf_addstr(&path, value.ptr);
	}
	if (sig_keyring_load_dir(kr, path.buf, &err)) {
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
	goto out;
git_error:
	error("cannot read ahd-replay.trustedKeys: %s", lg2_message());
out:
	git_buf_dispose(&value);
	git_config_free(cfg);
	git_repository_free(repo);
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}

