/*
 * `ahd-replay hooks status` (see hookstatus.h): what git will run for
 * each hook type, from the hook files, and what git's configuration adds
 * (config-defined hooks, a core.hooksPath that is not there).
 */
#include "config.h"
#include "hookstatus.h"
#include "hooklfs.h"
#include "hookplan.h"
#include "hooks.h"
#include "strbuf.h"
#include "usage.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * The config-defined hooks (hook.<name>.*, git 2.54+) with warnings
 * where the check would run twice (one of them runs `ahd-replay hook
 * <type>` and our hook is installed for that type too), never (no
 * event, no command), or for another event than its own; and a warning
 * when core.hooksPath names a directory that does not exist in this
 * worktree (git then runs no hook, so no check runs).  types: the hook
 * types we install, NULL-terminated.  Warnings go to stderr.
 */
static void report_config(const struct hooks_dir *hd,
			  const char *const *types, FILE *fp)
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

/*
 * Would the shim in hf find a binary?  Returns the one it would run in
 * out, or 0 when it would fail closed.
 */
static int shim_binary(struct strbuf *out, const struct hook_file *hf)
{
	struct stat st;

	if (hf->kind == HOOK_OURS && !stat(hf->bin.buf, &st) &&
	    S_ISREG(st.st_mode) && !access(hf->bin.buf, X_OK)) {
		strbuf_reset(out);
		strbuf_addbuf(out, &hf->bin);
		return 1;
	}
	return hook_find_on_path(out, "ahd-replay");
}

static const char *kind_text(const struct hook_file *hf, struct strbuf *sb)
{
	const char *m = hook_manager_name(hf->manager);

	strbuf_reset(sb);
	switch (hf->kind) {
	case HOOK_OURS:
		strbuf_addf(sb, "ahd-replay hook, template %d%s", hf->version,
			    hf->version < HOOK_TEMPLATE_VERSION ?
			    " (install-hooks upgrades it)" : "");
		break;
	case HOOK_OURS_NEWER:
		strbuf_addf(sb, "ahd-replay hook from a newer version, "
			    "template %d", hf->version);
		break;
	case HOOK_OURS_EDITED:
		strbuf_addstr(sb, "an edited copy of an ahd-replay hook");
		break;
	case HOOK_FOREIGN:
		strbuf_addf(sb, "%s%s%s", hf->symlink ? "a symbolic link" :
			    "a hook", m ? " of " : " not from ahd-replay",
			    m ? m : "");
		break;
	case HOOK_NOT_FILE:
		strbuf_addstr(sb, "not a file");
		break;
	case HOOK_MISSING:
		strbuf_addstr(sb, "missing");
		break;
	}
	if (hf->kind != HOOK_MISSING && hf->kind != HOOK_NOT_FILE &&
	    !hf->executable)
		strbuf_addstr(sb, ", not executable");
	return sb->buf;
}

static int is_ours(const struct hook_file *hf)
{
	return hf->kind == HOOK_OURS || hf->kind == HOOK_OURS_NEWER ||
	       hf->kind == HOOK_OURS_EDITED;
}

/*
 * One hook type: print its state and details.  Returns 1 when a copy of
 * ours is installed but will not run, else 0.
 */
static int status_one(const struct hooks_dir *hd, const char *type,
		      FILE *fp, struct strbuf *err)
{
	struct hook_slots s, d;
	struct strbuf state = STRBUF_INIT, details = STRBUF_INIT;
	struct strbuf sb = STRBUF_INIT, bin = STRBUF_INIT;
	const struct hook_file *runner = NULL;	/* the copy of ours git runs */
	const char *runner_path = NULL;
	int installed = 0, ret = -1;

	hook_slots_init(&s);
	hook_slots_init(&d);
	if (hook_slots_read(&s, hd->path.buf, type, err))
		goto out;
	if (strcmp(hd->path.buf, hd->default_path.buf) &&
	    hook_slots_read(&d, hd->default_path.buf, type, err))
		goto out;

	if (s.h.kind != HOOK_MISSING)
		strbuf_addf(&details, "  %s: %s\n", s.hook.buf,
			    kind_text(&s.h, &sb));
	if (is_ours(&s.h)) {
		installed = 1;
		if (s.h.executable) {
			runner = &s.h;
			runner_path = s.hook.buf;
		} else
			strbuf_addstr(&state, "inert: not executable");
	} else if (is_ours(&s.l)) {
		installed = 1;
		strbuf_addf(&details, "  %s: %s\n", s.legacy.buf,
			    kind_text(&s.l, &sb));
		if (s.h.kind != HOOK_FOREIGN ||
		    s.h.manager != MANAGER_PRE_COMMIT)
			strbuf_addf(&state, "inert: nothing runs %s",
				    hook_base_name(s.legacy.buf));
		else if (!s.h.executable || !s.l.executable)
			strbuf_addstr(&state, "inert: not executable");
		else {
			runner = &s.l;
			runner_path = s.legacy.buf;
		}
	}
	if (!runner && is_ours(&s.o)) {
		installed = 1;
		strbuf_addf(&details, "  %s: %s\n", s.old.buf,
			    kind_text(&s.o, &sb));
		if (!state.len)
			strbuf_addf(&state, "inert: %s does not run %s "
				    "(install-hooks puts ours in front)",
				    s.h.manager == MANAGER_LEFTHOOK ?
				    "lefthook" : "git", hook_base_name(s.old.buf));
	}
	if (is_ours(&d.h)) {
		installed = 1;
		strbuf_addf(&details, "  %s: %s, shadowed: git runs hooks "
			    "from %s\n", d.hook.buf, kind_text(&d.h, &sb),
			    hd->path.buf);
		if (!state.len && !runner) {
			strbuf_reset(&sb);
			hooks_dir_describe(&sb, hd);
			strbuf_addf(&state, "inert: shadowed by %s", sb.buf);
		}
	}
	if (s.p.kind != HOOK_MISSING)
		strbuf_addf(&details, "  %s: %s%s%s\n", s.prev.buf,
			    kind_text(&s.p, &sb), hook_lfs_runs(&s.p, type) ?
			    " (runs git-lfs's: git lfs pre-push)" : "", runner ?
			    (s.p.executable ? "; runs first" :
			     "; skipped, as git would skip it") :
			    "; left by an install (uninstall-hooks puts it back)");

	if (runner) {
		if (runner->kind == HOOK_OURS && !shim_binary(&bin, runner)) {
			strbuf_addf(&state, "broken: %s is missing and "
				    "ahd-replay is not on PATH, so the hook "
				    "refuses every %s", runner->bin.buf,
				    strcmp(type, "pre-push") ? "commit" :
				    "push");
		} else {
			strbuf_addstr(&state, "active");
			if (runner->kind == HOOK_OURS)
				strbuf_addf(&details, "  runs: %s hook %s\n",
					    bin.buf, type);
			if (runner_path == s.legacy.buf)
				strbuf_addstr(&details, "  run by the pre-commit "
					      "framework's hook\n");
		}
	} else if (!installed) {
		const char *m = hook_manager_name(s.h.manager);

		if (s.h.kind == HOOK_MISSING)
			strbuf_addstr(&state, "not installed");
		else
			strbuf_addf(&state, "not installed (git runs %s)",
				    m ? m : "another hook");
	}
	fprintf(fp, "%s: %s\n%s", type, state.buf, details.buf);
	ret = installed && strcmp(state.buf, "active");
out:
	hook_slots_release(&s);
	hook_slots_release(&d);
	strbuf_release(&state);
	strbuf_release(&details);
	strbuf_release(&sb);
	strbuf_release(&bin);
	return ret;
}

int hook_status(const struct hooks_dir *hd, FILE *fp)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int status = 0;

	report_config(hd, hook_types, fp);
	for (i = 0; hook_types[i]; i++) {
		int rc = status_one(hd, hook_types[i], fp, &err);

		if (rc < 0) {
			error("%s", err.buf);
			strbuf_reset(&err);
			status = 2;
		} else if (rc && status == 0)
			status = 1;
	}
	/* git-lfs's other hooks, which install-hooks writes beside ours */
	if (hook_lfs_wanted(hd->workdir.buf))
		hook_lfs_status(hd->path.buf, fp);
	strbuf_release(&err);
	return status;
}
