/*
 * git-lfs beside our hooks (see hooklfs.h).
 */
#include "config.h"
#include "hooklfs.h"
#include "git/repo.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

const char *const hook_lfs_types[] = {
	"post-checkout", "post-commit", "post-merge", NULL
};

static int attributes_use_lfs(const char *workdir)
{
	struct strbuf path = STRBUF_INIT;
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	strbuf_addf(&path, "%s/.gitattributes", workdir);
	fp = fopen(path.buf, "r");
	while (fp && !found && getline(&line, &cap, fp) > 0)
		found = strstr(line, "filter=lfs") != NULL;
	if (fp)
		fclose(fp);
	free(line);
	strbuf_release(&path);
	return found;
}

/* git's configuration has git-lfs's filter (`git lfs install` sets it). */
static int filter_configured(void)
{
	struct strbuf value = STRBUF_INIT, err = STRBUF_INIT;
	int rc = repo_config_here(&value, "filter.lfs.process", 0, &err);

	if (!rc)
		rc = repo_config_here(&value, "filter.lfs.clean", 0, &err);
	if (rc < 0)
		warning("%s", err.buf);
	strbuf_release(&value);
	strbuf_release(&err);
	return rc > 0;
}

int hook_lfs_wanted(const char *workdir)
{
	return filter_configured() || (*workdir && attributes_use_lfs(workdir));
}

void hook_lfs_render(struct strbuf *out, const char *type)
{
	strbuf_addf(out,
		    "#!/bin/sh\n"
		    "# git-lfs's %s hook, written by `ahd-replay install-hooks`\n"
		    "# because git-lfs is in use here: it runs what git-lfs's own\n"
		    "# hook runs.\n"
		    "if ! command -v git-lfs >/dev/null 2>&1\n"
		    "then\n"
		    "\tprintf >&2 'git-lfs is in use in this repository but is "
		    "not on PATH: install it, or delete %%s\\n' \"$0\"\n"
		    "\texit 2\n"
		    "fi\n"
		    "exec git lfs %s \"$@\"\n", type, type);
}

int hook_lfs_runs(const struct hook_file *hf, const char *type)
{
	struct strbuf cmd = STRBUF_INIT;
	const char *p;
	int ret = 0;

	strbuf_addf(&cmd, "git lfs %s", type);
	for (p = hf->content.buf; !ret && (p = strstr(p, cmd.buf));
	     p += cmd.len)
		ret = p[cmd.len] == ' ' || p[cmd.len] == '\n' ||
		      !p[cmd.len];
	strbuf_release(&cmd);
	return ret;
}

int hook_lfs_install(const char *dir, int quiet)
{
	struct hook_file hf = HOOK_FILE_INIT;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; hook_lfs_types[i]; i++) {
		const char *type = hook_lfs_types[i];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, type);
		strbuf_reset(&err);
		if (hook_file_read(&hf, path.buf, type, &err)) {
			ret = error("%s", err.buf);
			continue;
		}
		if (hf.kind != HOOK_MISSING) {
			if (!hook_lfs_runs(&hf, type))
				warning("%s: '%s' does not run git-lfs's hook; "
					"add `git lfs %s \"$@\"` to it", type,
					path.buf, type);
			else if (!quiet)
				printf("%s: runs git lfs %s already\n", type,
				       type);
			continue;
		}
		strbuf_reset(&text);
		hook_lfs_render(&text, type);
		if (hook_write(path.buf, text.buf, text.len, &err)) {
			ret = error("%s", err.buf);
			continue;
		}
		if (!quiet)
			printf("%s: installed git-lfs's (git lfs %s)\n", type,
			       type);
	}
	hook_file_release(&hf);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

void hook_lfs_status(const char *dir, FILE *fp)
{
	struct hook_file hf = HOOK_FILE_INIT;
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	size_t i;

	for (i = 0; hook_lfs_types[i]; i++) {
		const char *type = hook_lfs_types[i];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, type);
		if (hook_file_read(&hf, path.buf, type, &err)) {
			strbuf_reset(&err);
			continue;
		}
		if (hf.kind == HOOK_MISSING)
			fprintf(fp, "%s: missing: git-lfs needs it "
				"(ahd-replay install-hooks writes it)\n", type);
		else if (!hook_lfs_runs(&hf, type))
			fprintf(fp, "%s: does not run git lfs %s\n", type,
				type);
		else
			fprintf(fp, "%s: git-lfs (git lfs %s)%s\n", type, type,
				hf.executable ? "" : "; inert: not executable");
	}
	hook_file_release(&hf);
	strbuf_release(&path);
	strbuf_release(&err);
}
