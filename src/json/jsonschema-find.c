/*
 * Where the replay sidecar's schema file is: the environment, beside the
 * binary, the installed copy, the source tree (see jsonschema.h).
 */
#include "config.h"
#include "jsonschema.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Whether the candidate in path is readable; if not, adds it to the list
 * of places tried and empties path for the next candidate.
 */
static int try_candidate(struct strbuf *path, struct strbuf *tried)
{
	if (!access(path->buf, R_OK))
		return 1;
	strbuf_addf(tried, "%s%s", tried->len ? ", " : "", path->buf);
	strbuf_reset(path);
	return 0;
}

int jsonschema_find_replay(struct strbuf *out, struct strbuf *err)
{
	static const char name[] = "replay.schema.json";
	const char *env = getenv("AHD_REPLAY_SCHEMA");
	struct strbuf path = STRBUF_INIT, tried = STRBUF_INIT;
	char exe[4096];
	ssize_t n;
	int ret = -1;

	if (env && *env) {
		strbuf_addstr(out, env);
		return 0;
	}
	/* An uninstalled binary in its source tree uses the tree's copy. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0 && (size_t)n < sizeof(exe) - 1) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			strbuf_addf(&path, "%s/schema/%s", exe, name);
			if (try_candidate(&path, &tried))
				goto found;
		}
	}
#ifdef AHD_DATADIR
	strbuf_addf(&path, "%s/%s", AHD_DATADIR, name);
	if (try_candidate(&path, &tried))
		goto found;
#endif
#ifdef AHD_SRCDIR
	strbuf_addf(&path, "%s/schema/%s", AHD_SRCDIR, name);
	if (try_candidate(&path, &tried))
		goto found;
#endif
	strbuf_addf(err, "cannot find %s (looked for %s); set "
		    "AHD_REPLAY_SCHEMA or use --schema", name,
		    tried.len ? tried.buf : "nothing");
	goto out;
found:
	strbuf_addbuf(out, &path);
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&tried);
	return ret;
}
