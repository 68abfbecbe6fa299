/*
 * The parts of `hooks status` that are about git's configuration rather
 * than the hook files: see hookreport.h.
 */
#include "config.h"
#include "hookreport.h"
#include "hooks.h"
#include "git/hooksdir.h"
#include "strbuf.h"
#include "usage.h"

#include <string.h>
#include <sys/stat.h>

/*
 * The hook type a command runs the check for ("ahd-replay hook
 * pre-push ..." gives "pre-push"), into out; 0 when it runs none.
 */
static int check_type(struct strbuf *out, const char *command)
{
	const char *p = strstr(command, "ahd-replay hook ");
	size_t len;

	if (!p)
		return 0;
	p += strlen("ahd-replay hook ");
	/* a hook type is lower-case letters and dashes; nothing else is shown */
	len = strspn(p, "abcdefghijklmnopqrstuvwxyz-");
	if (!len)
		return 0;
	strbuf_reset(out);
	strbuf_add(out, p, len);
	return 1;
}

/* Is type one of the space-separated words of events? */
static int has_event(const char *events, const char *type)
{
	size_t len = strlen(type);
	const char *p = events;

	while ((p = strstr(p, type))) {
		if ((p == events || p[-1] == ' ') &&
		    (p[len] == ' ' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/* Is the hook git runs for type one that install-hooks wrote? */
static int ours_installed(const struct hooks_dir *hd, const char *type)
{
	struct hook_file hf = HOOK_FILE_INIT;
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int ours;

	strbuf_addf(&path, "%s/%s", hd->path.buf, type);
	ours = !hook_file_read(&hf, path.buf, type, &err) &&
	       (hf.kind == HOOK_OURS || hf.kind == HOOK_OURS_NEWER ||
		hf.kind == HOOK_OURS_EDITED) && hf.executable;
	hook_file_release(&hf);
	strbuf_release(&path);
	strbuf_release(&err);
	return ours;
}

static void report_one(const struct hooks_dir *hd, const struct config_hook *h,
		       const char *const *types, FILE *fp)
{
	struct strbuf runs = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT;
	size_t i;

	/* config values may hold anything: one printable line each */
	strbuf_add_printable(&name, h->name);
	strbuf_addf(&line, "  hook.%s: event ", name.buf);
	strbuf_add_printable(&line, h->events.len ? h->events.buf : "(none)");
	strbuf_addstr(&line, ", command ");
	strbuf_add_printable(&line, h->command ? h->command : "(none)");
	if (h->scope)
		strbuf_addf(&line, " (%s config)", h->scope);
	fprintf(fp, "%s\n", line.buf);
	strbuf_release(&line);
	if (!h->events.len)
		warning("hook.%s has no event: git never runs it", name.buf);
	if (!h->command)
		warning("hook.%s has no command: git runs nothing for it",
			name.buf);
	if (!h->command || !check_type(&runs, h->command))
		goto out;
	if (!has_event(h->events.buf, runs.buf))
		warning("hook.%s runs the %s check but is not a %s hook",
			name.buf, runs.buf, runs.buf);
	for (i = 0; types[i]; i++)
		if (!strcmp(types[i], runs.buf) &&
		    has_event(h->events.buf, types[i]) &&
		    ours_installed(hd, types[i]))
			warning("the %s check runs twice: from hook.%s and "
				"from the %s hook that install-hooks wrote; "
				"keep one", types[i], name.buf, types[i]);
out:
	strbuf_release(&runs);
	strbuf_release(&name);
}

void hooks_report(const struct hooks_dir *hd, const char *const *types,
		  FILE *fp)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	size_t i;

	if (hd->where != HOOKS_DEFAULT &&
	    (stat(hd->path.buf, &st) || !S_ISDIR(st.st_mode))) {
		strbuf_add_printable(&path, hd->path.buf);
		warning("core.hooksPath names %s, which does not exist in "
			"this worktree: git runs no hook from it, so no check "
			"runs here", path.buf);
		strbuf_release(&path);
	}
	if (!hd->nr_config_hooks)
		return;
	fprintf(fp, "config-defined hooks (git 2.54 and later run them):\n");
	for (i = 0; i < hd->nr_config_hooks; i++)
		report_one(hd, &hd->config_hooks[i], types, fp);
}
