/*
 * Where verify's trusted keys come from: --trusted-keys or the git
 * configuration (kept apart from verify.c, which checks reports).
 */
#include "config.h"
#include "verify.h"
#include "git/repo.h"
#include "usage.h"

/*
 * The trusted keys: --trusted-keys, else ahd-replay.trustedKeys from the
 * git configuration (a relative path is taken from the work tree's top,
 * so the setting works from any subdirectory).  Neither is no keys.
 */
int verify_load_trusted_keys(struct sig_keyring *kr, const char *dir)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int rc = 1, ret = -1;

	if (dir)
		strbuf_addstr(&path, dir);
	else
		/*
		 * Outside a repository, the user's own configuration; with
		 * no keys, signed sidecars still fail.
		 */
		rc = repo_config_here(&path, "ahd-replay.trustedKeys",
				      REPO_CONFIG_PATH, &err);
	if (rc < 0)
		error("%s", err.buf);
	else if (rc && sig_keyring_load_dir(kr, path.buf, &err))
		error("%s", err.buf);
	else
		ret = 0;
	strbuf_release(&path);
	strbuf_release(&err);
	return ret;
}
