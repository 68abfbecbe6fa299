/*
 * Where git runs hooks from: the repository found as git finds it, and
 * core.hooksPath read from git's configuration files.  See hooksdir.h.
 */
#include "config.h"
#include "hooksdir.h"
#include "root.h"
#include "usage.h"

#include <errno.h>
#include <git2.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *lg2_message(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown error";
}

/*
 * Open the repository around the current directory as git finds it.
 * libgit2's GIT_REPOSITORY_OPEN_FROM_ENV reads GIT_DIR,
 * GIT_CEILING_DIRECTORIES and the object directories but refuses
 * GIT_WORK_TREE and GIT_COMMON_DIR, and takes the parent of GIT_DIR for
 * the work tree where git takes GIT_WORK_TREE, else core.worktree, else
 * (GIT_DIR set, not bare) the current directory: the work tree git would
 * use is appended to workdir (nothing for a bare repository), and
 * GIT_COMMON_DIR, when set, to common_dir, both absolute.  Returns 0, 1
 * when there is no repository, or -1 with a reason in err.
 */
static int open_repo(git_repository **out, struct strbuf *workdir,
		     struct strbuf *common_dir, struct strbuf *err)
{
	static const char *const hidden[] = { "GIT_WORK_TREE", "GIT_COMMON_DIR" };
	const char *env_dir = getenv("GIT_DIR");
	struct strbuf path = STRBUF_INIT;
	git_config_entry *entry = NULL;
	git_config *cfg = NULL;
	char *wt = NULL, *saved[2] = { NULL, NULL };
	size_t i;
	int rc, bare = 0, ret = -1;

	*out = NULL;
	for (i = 0; i < 2; i++) {
		const char *v = getenv(hidden[i]);

		if (!v || !*v)
			continue;
		saved[i] = xstrdup(v);
		if (unsetenv(hidden[i])) {
			strbuf_addf(err, "cannot unset %s: %s", hidden[i],
				    strerror(errno));
			goto restore;
		}
	}
	if (saved[0] && !(wt = realpath(saved[0], NULL))) {
		strbuf_addf(err, "invalid GIT_WORK_TREE '%s': %s", saved[0],
			    strerror(errno));
		goto restore;
	}
	if (saved[1])
		path_resolve(common_dir, NULL, saved[1]);
	rc = git_repository_open_ext(out, env_dir && *env_dir ? NULL : ".",
				     GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		ret = 1;
	} else if (rc < 0)
		strbuf_addf(err, "cannot open the git repository: %s",
			    lg2_message());
	else
		ret = 0;
restore:
	for (i = 0; i < 2; i++)
		if (saved[i] && setenv(hidden[i], saved[i], 1) && !ret) {
			strbuf_addf(err, "cannot restore %s: %s", hidden[i],
				    strerror(errno));
			ret = -1;
		}
	if (ret)
		goto out;
	ret = -1;
	if (!wt && env_dir && *env_dir) {
		if (git_repository_config_snapshot(&cfg, *out) < 0) {
			strbuf_addf(err, "cannot read the git configuration: "
				    "%s", lg2_message());
			goto out;
		}
		rc = git_config_get_entry(&entry, cfg, "core.worktree");
		if (rc == GIT_ENOTFOUND)
			git_error_clear();
		if (git_config_get_bool(&bare, cfg, "core.bare") < 0) {
			git_error_clear();
			bare = 0;
		}
		if (!rc && entry->value && *entry->value) {
			/* relative to the git directory */
			if (entry->value[0] != '/')
				strbuf_addstr(&path, git_repository_path(*out));
			strbuf_addstr(&path, entry->value);
		} else if (!bare)
			strbuf_addch(&path, '.');
		if (path.len && !(wt = realpath(path.buf, NULL))) {
			strbuf_addf(err, "invalid work tree '%s': %s",
				    path.buf, strerror(errno));
			goto out;
		}
	}
	/*
	 * Not git_repository_set_workdir(): libgit2 1.5 leaks there, and
	 * only the path is needed.
	 */
	if (wt)
		strbuf_addstr(workdir, wt);
	else if (!git_repository_is_bare(*out) && git_repository_workdir(*out))
		path_resolve(workdir, NULL, git_repository_workdir(*out));
	ret = 0;
out:
	if (ret) {
		git_repository_free(*out);
		*out = NULL;
	}
	git_config_entry_free(entry);
	git_config_free(cfg);
	strbuf_release(&path);
	free(saved[0]);
	free(saved[1]);
	free(wt);
	return ret;
}

/* A boolean environment variable as git reads one; unset is false. */
static int env_bool(const char *name)
{
	const char *v = getenv(name);
	int b;

	if (!v)
		return 0;
	if (git_config_parse_bool(&b, v) < 0) {
		git_error_clear();
		return 1;
	}
	return b;
}

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
	if (!env_bool("GIT_CONFIG_NOSYSTEM")) {
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

/* Is path dir itself or below it?  Both physical. */
static int is_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
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

int hooks_dir_resolve(struct hooks_dir *hd, struct strbuf *err)
{
	static const char *worktree_ext[] = { "worktreeconfig" };
	struct strbuf files[GIT_CONFIG_LEVEL_APP + 1];
	struct strbuf expanded = STRBUF_INIT, p_hooks = STRBUF_INIT;
	struct strbuf p_other = STRBUF_INIT;
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_config_entry *entry = NULL;
	struct stat st;
	size_t i;
	int rc, ret = -1;

	for (i = 0; i <= GIT_CONFIG_LEVEL_APP; i++)
		strbuf_init(&files[i], 0);
	/* load_config() supplies what this extension asks for */
	if (git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, worktree_ext, 1) < 0) {
		strbuf_addf(err, "cannot set up libgit2: %s", lg2_message());
		goto out;
	}
	rc = open_repo(&repo, &hd->workdir, &hd->commondir, err);
	if (rc) {
		ret = rc;
		goto out;
	}
	path_resolve(&hd->gitdir, NULL, git_repository_path(repo));
	if (!hd->commondir.len)
		path_resolve(&hd->commondir, NULL,
			     git_repository_commondir(repo));
	strbuf_addf(&hd->default_path, "%s/hooks", hd->commondir.buf);
	if (load_config(&cfg, repo, hd->commondir.buf, files, err))
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
		if (is_within(p_hooks.buf, p_other.buf))
			hd->where = HOOKS_GITDIR;
		physical(&p_other, hd->commondir.buf);
		if (is_within(p_hooks.buf, p_other.buf))
			hd->where = HOOKS_GITDIR;
		if (hd->where == HOOKS_OUTSIDE && hd->workdir.len) {
			physical(&p_other, hd->workdir.buf);
			if (is_within(p_hooks.buf, p_other.buf)) {
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
	git_repository_free(repo);
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
