/*
 * Where git runs hooks from: the repository found as git finds it, and
 * core.hooksPath read from git's configuration files.  See hooksdir.h.
 */
#include "config.h"
#include "hooksdir.h"
#include "repo.h"
#include "usage.h"
#include "fs/path.h"

#include <git2.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int add_config_file(git_config *cfg, const char *path,
			   git_config_level_t level,
			   const git_repository *repo, struct strbuf *err)
{
	if (access(path, F_OK))
		return 0;
	if (git_config_add_file_ondisk(cfg, path, level, repo, 0) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path, lg2_message());
		return -1;
	}
	return 0;
}

/*
 * git's config files for repo, one a level: system, XDG, global, local
 * and (extensions.worktreeConfig) worktree, the last as
 * GIT_CONFIG_LEVEL_APP.  files[level] names each file added.
 */
static int load_config(git_config **out, git_repository *repo,
		       const char *commondir,
		       struct strbuf files[GIT_CONFIG_LEVEL_APP + 1],
		       struct strbuf *err)
{
	const char *home = getenv("HOME");
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	git_config *cfg = NULL;
	git_buf sys = { NULL, 0, 0 };
	int on, ret = -1;

	if (git_config_new(&cfg) < 0) {
		strbuf_addf(err, "cannot set up the configuration: %s",
			    lg2_message());
		goto out;
	}
	if (!repo_env_bool("GIT_CONFIG_NOSYSTEM")) {
		const char *s = getenv("GIT_CONFIG_SYSTEM");

		if (s)
			strbuf_addstr(&files[GIT_CONFIG_LEVEL_SYSTEM], s);
		else if (!git_config_find_system(&sys))
			strbuf_addstr(&files[GIT_CONFIG_LEVEL_SYSTEM], sys.ptr);
		else
			git_error_clear();
	}
	if (global) {
		strbuf_addstr(&files[GIT_CONFIG_LEVEL_GLOBAL], global);
	} else {
		if (xdg && *xdg)
			strbuf_addf(&files[GIT_CONFIG_LEVEL_XDG], "%s/git/config",
				    xdg);
		else if (home && *home)
			strbuf_addf(&files[GIT_CONFIG_LEVEL_XDG],
				    "%s/.config/git/config", home);
		if (home && *home)
			strbuf_addf(&files[GIT_CONFIG_LEVEL_GLOBAL],
				    "%s/.gitconfig", home);
	}
	strbuf_addf(&files[GIT_CONFIG_LEVEL_LOCAL], "%s/config", commondir);
	if ((files[GIT_CONFIG_LEVEL_SYSTEM].len &&
	     add_config_file(cfg, files[GIT_CONFIG_LEVEL_SYSTEM].buf,
			     GIT_CONFIG_LEVEL_SYSTEM, repo, err)) ||
	    (files[GIT_CONFIG_LEVEL_XDG].len &&
	     add_config_file(cfg, files[GIT_CONFIG_LEVEL_XDG].buf,
			     GIT_CONFIG_LEVEL_XDG, repo, err)) ||
	    (files[GIT_CONFIG_LEVEL_GLOBAL].len &&
	     add_config_file(cfg, files[GIT_CONFIG_LEVEL_GLOBAL].buf,
			     GIT_CONFIG_LEVEL_GLOBAL, repo, err)) ||
	    add_config_file(cfg, files[GIT_CONFIG_LEVEL_LOCAL].buf,
			    GIT_CONFIG_LEVEL_LOCAL, repo, err))
		goto out;
	if (git_config_get_bool(&on, cfg, "extensions.worktreeConfig") < 0) {
		git_error_clear();
		on = 0;
	}
	if (on) {
		strbuf_addf(&files[GIT_CONFIG_LEVEL_APP], "%sconfig.worktree",
			    git_repository_path(repo));
		if (add_config_file(cfg, files[GIT_CONFIG_LEVEL_APP].buf,
				    GIT_CONFIG_LEVEL_APP, repo, err))
			goto out;
	}
	*out = cfg;
	cfg = NULL;
	ret = 0;
out:
	git_buf_dispose(&sys);
	git_config_free(cfg);
	return ret;
}

static const char *scope_name(git_config_level_t level)
{
	switch (level) {
	case GIT_CONFIG_LEVEL_PROGRAMDATA:
		return "programdata";
	case GIT_CONFIG_LEVEL_SYSTEM:
		return "system";
	case GIT_CONFIG_LEVEL_XDG:
		return "xdg";
	case GIT_CONFIG_LEVEL_GLOBAL:
		return "global";
	case GIT_CONFIG_LEVEL_LOCAL:
		return "local";
	case GIT_CONFIG_LEVEL_APP:
		return "worktree";
	default:
		return "unknown";
	}
}

/* git's interpolate_path(): "~/" and "~user/" at the start. */
static int expand_tilde(struct strbuf *out, const char *v, struct strbuf *err)
{
	const char *rest, *home;

	if (v[0] != '~') {
		strbuf_addstr(out, v);
		return 0;
	}
	rest = strchr(v, '/');
	if (!rest)
		rest = v + strlen(v);
	if (rest == v + 1) {
		home = getenv("HOME");
		if (!home || !*home) {
			strbuf_addf(err, "cannot expand '%s': HOME is not set",
				    v);
			return -1;
		}
	} else {
		char *user = xmemdupz(v + 1, (size_t)(rest - v - 1));
		struct passwd *pw = getpwnam(user);

		free(user);
		if (!pw) {
			strbuf_addf(err, "cannot expand '%s': no such user", v);
			return -1;
		}
		home = pw->pw_dir;
	}
	strbuf_addstr(out, home);
	strbuf_addstr(out, rest);
	return 0;
}

/*
 * path with symbolic links resolved as far as it exists, the rest
 * appended (path is absolute and lexically clean).
 */
static void physical(struct strbuf *out, const char *path)
{
	struct strbuf head = STRBUF_INIT;
	const char *tail = "";
	char *real = NULL;

	strbuf_addstr(&head, path);
	for (;;) {
		char *slash;

		real = realpath(head.buf[0] ? head.buf : "/", NULL);
		if (real)
			break;
		slash = strrchr(head.buf, '/');
		if (!slash)
			break;
		tail = path + (slash - head.buf);
		strbuf_setlen(&head, (size_t)(slash - head.buf));
	}
	strbuf_reset(out);
	if (real) {
		strbuf_addstr(out, strcmp(real, "/") ? real : "");
		strbuf_addstr(out, tail);
		if (!out->len)
			strbuf_addch(out, '/');
	} else
		strbuf_addstr(out, path);
	free(real);
	strbuf_release(&head);
}

/* Does the index hold a path at or under rel (relative to the work tree)? */
static int is_tracked(git_repository *repo, const char *rel, int *out,
		      struct strbuf *err)
{
	git_index *index = NULL;
	struct strbuf prefix = STRBUF_INIT;
	size_t pos;
	int ret = -1;

	if (git_repository_index(&index, repo) < 0) {
		strbuf_addf(err, "cannot read the index: %s", lg2_message());
		goto out;
	}
	if (!*rel) {
		*out = git_index_entrycount(index) > 0;
	} else {
		strbuf_addf(&prefix, "%s/", rel);
		*out = git_index_get_bypath(index, rel, 0) != NULL ||
		       !git_index_find_prefix(&pos, index, prefix.buf);
		git_error_clear();
	}
	ret = 0;
out:
	strbuf_release(&prefix);
	git_index_free(index);
	return ret;
}

static void trim_slash(struct strbuf *sb)
{
	while (sb->len > 1 && sb->buf[sb->len - 1] == '/')
		strbuf_setlen(sb, sb->len - 1);
}

static struct config_hook *config_hook_get(struct hooks_dir *hd,
					   const char *name, size_t len)
{
	struct config_hook *h;
	size_t i;

	for (i = 0; i < hd->nr_config_hooks; i++) {
		h = &hd->config_hooks[i];
		if (strlen(h->name) == len && !memcmp(h->name, name, len))
			return h;
	}
	ALLOC_GROW(hd->config_hooks, hd->nr_config_hooks + 1,
		   hd->alloc_config_hooks);
	h = &hd->config_hooks[hd->nr_config_hooks++];
	h->name = xmalloc(len + 1);
	memcpy(h->name, name, len);
	h->name[len] = '\0';
	h->command = NULL;
	h->scope = NULL;
	strbuf_init(&h->events, 0);
	return h;
}

/*
 * hook.<name>.command and hook.<name>.event, in git's order of files;
 * <name> may hold dots (the subsection ends at the last one).
 */
static int read_config_hooks(struct hooks_dir *hd, git_config *cfg,
			     struct strbuf *err)
{
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int rc;

	/*
	 * Every entry, filtered here: libgit2 1.5's glob iterator leaks
	 * pcre2 match data on each match.
	 */
	if (git_config_iterator_new(&it, cfg) < 0) {
		strbuf_addf(err, "cannot read hook.*: %s", lg2_message());
		return -1;
	}
	while (!(rc = git_config_next(&e, it))) {
		const char *name = e->name + strlen("hook.");
		const char *dot = strrchr(e->name, '.');
		const char *value = e->value ? e->value : "";
		struct config_hook *h;

		if (strncmp(e->name, "hook.", strlen("hook.")) || dot <= name ||
		    (strcmp(dot + 1, "command") && strcmp(dot + 1, "event")))
			continue;
		h = config_hook_get(hd, name, dot - name);
		if (!strcmp(dot + 1, "command")) {
			free(h->command);
			h->command = xstrdup(value);
			h->scope = scope_name(e->level);
		} else {
			if (h->events.len)
				strbuf_addch(&h->events, ' ');
			strbuf_addstr(&h->events, value);
		}
	}
	git_config_iterator_free(it);
	if (rc != GIT_ITEROVER) {
		strbuf_addf(err, "cannot read hook.*: %s", lg2_message());
		return -1;
	}
	git_error_clear();
	return 0;
}

int hooks_dir_resolve(struct hooks_dir *hd, struct strbuf *err)
{
	struct strbuf files[GIT_CONFIG_LEVEL_APP + 1];
	struct strbuf expanded = STRBUF_INIT, p_hooks = STRBUF_INIT;
	struct strbuf p_other = STRBUF_INIT;
	struct repo r = REPO_INIT;
	git_repository *repo;
	git_config *cfg = NULL;
	git_config_entry *entry = NULL;
	struct stat st;
	size_t i;
	int rc, ret = -1;

	for (i = 0; i <= GIT_CONFIG_LEVEL_APP; i++)
		strbuf_init(&files[i], 0);
	/* only paths are needed: libgit2's idea of the work tree may stay */
	rc = repo_open(&r, ".", REPO_PATHS_ONLY, err);
	if (rc) {
		ret = rc;
		goto out;
	}
	repo = r.git;
	strbuf_addbuf(&hd->gitdir, &r.gitdir);
	strbuf_addbuf(&hd->commondir, &r.commondir);
	strbuf_addbuf(&hd->workdir, &r.workdir);
	strbuf_addf(&hd->default_path, "%s/hooks", hd->commondir.buf);
	if (load_config(&cfg, repo, hd->commondir.buf, files, err) ||
	    read_config_hooks(hd, cfg, err))
		goto out;
	rc = git_config_get_entry(&entry, cfg, "core.hooksPath");
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		hd->where = HOOKS_DEFAULT;
		strbuf_addbuf(&hd->path, &hd->default_path);
	} else if (rc < 0) {
		strbuf_addf(err, "cannot read core.hooksPath: %s",
			    lg2_message());
		goto out;
	} else {
		int level = entry->level;

		strbuf_addstr(&hd->value, entry->value ? entry->value : "");
		hd->scope = scope_name(entry->level);
		if (level >= 0 && level <= GIT_CONFIG_LEVEL_APP)
			strbuf_addbuf(&hd->config_file, &files[level]);
		hd->included = entry->include_depth > 0;
		if (!hd->value.len) {
			strbuf_addf(err, "core.hooksPath is empty (%s config)",
				    hd->scope);
			goto out;
		}
		if (expand_tilde(&expanded, hd->value.buf, err))
			goto out;
		path_resolve(&hd->path, hd->workdir.len ? hd->workdir.buf :
			     hd->gitdir.buf, expanded.buf);
		hd->where = HOOKS_OUTSIDE;
	}
	trim_slash(&hd->path);

	/* Where is it?  Compare physical paths: links may lead out. */
	if (hd->where != HOOKS_DEFAULT) {
		physical(&p_hooks, hd->path.buf);
		physical(&p_other, hd->gitdir.buf);
		if (path_is_within(p_hooks.buf, p_other.buf))
			hd->where = HOOKS_GITDIR;
		physical(&p_other, hd->commondir.buf);
		if (path_is_within(p_hooks.buf, p_other.buf))
			hd->where = HOOKS_GITDIR;
		if (hd->where == HOOKS_OUTSIDE && hd->workdir.len) {
			physical(&p_other, hd->workdir.buf);
			if (path_is_within(p_hooks.buf, p_other.buf)) {
				const char *rel = p_hooks.buf + p_other.len;
				int tracked;

				if (p_other.len == 1)
					rel = p_hooks.buf;
				while (*rel == '/')
					rel++;
				if (is_tracked(repo, rel, &tracked, err))
					goto out;
				hd->where = tracked ? HOOKS_TRACKED :
					    HOOKS_WORKTREE;
			}
		}
	}
	strbuf_reset(&p_other);
	strbuf_addf(&p_other, "%s/husky.sh", hd->path.buf);
	hd->husky = !stat(p_other.buf, &st);
	ret = 0;
out:
	for (i = 0; i <= GIT_CONFIG_LEVEL_APP; i++)
		strbuf_release(&files[i]);
	strbuf_release(&expanded);
	strbuf_release(&p_hooks);
	strbuf_release(&p_other);
	git_config_entry_free(entry);
	git_config_free(cfg);
	repo_release(&r);
	return ret;
}

void hooks_dir_release(struct hooks_dir *hd)
{
	strbuf_release(&hd->path);
	strbuf_release(&hd->default_path);
	strbuf_release(&hd->gitdir);
	strbuf_release(&hd->commondir);
	strbuf_release(&hd->workdir);
	strbuf_release(&hd->value);
	strbuf_release(&hd->config_file);
	hd->scope = NULL;
	hd->where = HOOKS_DEFAULT;
	hd->husky = hd->included = 0;
	while (hd->nr_config_hooks) {
		struct config_hook *h = &hd->config_hooks[--hd->nr_config_hooks];

		free(h->name);
		free(h->command);
		strbuf_release(&h->events);
	}
	free(hd->config_hooks);
	hd->config_hooks = NULL;
	hd->alloc_config_hooks = 0;
}

void hooks_dir_describe(struct strbuf *out, const struct hooks_dir *hd)
{
	if (hd->where == HOOKS_DEFAULT) {
		strbuf_addstr(out, "core.hooksPath is not set");
		return;
	}
	strbuf_addf(out, "core.hooksPath = '%s' (%s config", hd->value.buf,
		    hd->scope);
	if (hd->config_file.len)
		strbuf_addf(out, ", %s%s", hd->included ? "included from " : "",
			    hd->config_file.buf);
	strbuf_addch(out, ')');
}
