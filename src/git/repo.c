/*
 * Finding and opening the repository as git does; see repo.h.
 *
 * libgit2 is given plain paths and flags: the environment variables git
 * honours are read here, because libgit2's GIT_REPOSITORY_OPEN_FROM_ENV
 * refuses GIT_WORK_TREE and GIT_COMMON_DIR, and steering it by changing
 * the process environment would leak into everything run afterwards.
 */
#include "config.h"
#include "repo.h"
#include "usage.h"
#include "fs/path.h"

#include <errno.h>
#include <git2.h>
#include <git2/sys/repository.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *lg2_message(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/*
 * The repository around the current directory and a snapshot of its
 * configuration, opened at the first question and kept while libgit2
 * is: verify asks a dozen settings before its first report, and each
 * opened the repository and read every configuration file again.  As
 * git reads its configuration once per command; the tool never writes
 * git's configuration, and never changes its own directory.
 */
static pthread_mutex_t here_lock = PTHREAD_MUTEX_INITIALIZER;
static int library_users;
static int here_opened;
static git_repository *here_repo;
static git_config *here_cfg;
static struct strbuf here_err = STRBUF_INIT;

static void here_release(void)
{
	git_config_free(here_cfg);
	git_repository_free(here_repo);
	here_cfg = NULL;
	here_repo = NULL;
	here_opened = 0;
	strbuf_release(&here_err);
}

int repo_library_init(struct strbuf *err)
{
	static const char *worktree_ext[] = { "worktreeconfig" };

	if (git_libgit2_init() < 0) {
		strbuf_addf(err, "cannot initialise libgit2: %s", lg2_message());
		return -1;
	}
	pthread_mutex_lock(&here_lock);
	library_users++;
	pthread_mutex_unlock(&here_lock);
	/* add_worktree_config() supplies what this extension asks for */
	if (git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, worktree_ext, 1) < 0) {
		strbuf_addf(err, "cannot set up libgit2: %s", lg2_message());
		return -1;
	}
	/* as git: GIT_CONFIG_NOSYSTEM leaves the system's file unread */
	if (repo_env_bool("GIT_CONFIG_NOSYSTEM") > 0 &&
	    git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM,
			     "") < 0) {
		strbuf_addf(err, "cannot set up libgit2: %s", lg2_message());
		return -1;
	}
	return 0;
}

void repo_library_shutdown(void)
{
	pthread_mutex_lock(&here_lock);
	if (library_users && !--library_users)
		here_release();
	pthread_mutex_unlock(&here_lock);
	git_libgit2_shutdown();
}

/* An environment variable, NULL when unset or empty (as git takes it). */
static const char *env_value(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int repo_env_bool(const char *name)
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

int repo_config_entry(git_config_entry **out, git_config *cfg,
		      const char *key, struct strbuf *err)
{
	int rc = git_config_get_entry(out, cfg, key);

	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (rc < 0) {
		strbuf_addf(err, "cannot read %s: %s", key, lg2_message());
		return -1;
	}
	return 1;
}

/*
 * The configuration git reads in repo, or, with repo NULL, outside any
 * repository (the user's and the system's files).
 */
static int config_open(git_config **out, git_repository *repo,
		       struct strbuf *err)
{
	if ((repo ? git_repository_config_snapshot(out, repo) :
	     git_config_open_default(out)) < 0) {
		strbuf_addf(err, "cannot read the git configuration: %s",
			    lg2_message());
		return -1;
	}
	return 0;
}

/*
 * key from cfg as repo_config_here() reads it; a relative path is
 * appended to workdir (with its trailing slash) unless that is NULL.
 */
static int config_read(struct strbuf *out, git_config *cfg, const char *key,
		       unsigned flags, const char *workdir, struct strbuf *err)
{
	git_buf value = GIT_BUF_INIT;
	int rc, b, ret = -1;

	if (flags & REPO_CONFIG_BOOL) {
		rc = git_config_get_bool(&b, cfg, key);
		if (!rc) {
			strbuf_addstr(out, b ? "true" : "false");
			return 1;
		}
	} else if (flags & REPO_CONFIG_PATH)
		rc = git_config_get_path(&value, cfg, key);
	else
		rc = git_config_get_string_buf(&value, cfg, key);
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		ret = 0;
		goto out;
	}
	if (rc < 0) {
		strbuf_addf(err, "invalid %s: %s", key, lg2_message());
		goto out;
	}
	if ((flags & REPO_CONFIG_PATH) && value.ptr[0] != '/' && workdir)
		strbuf_addstr(out, workdir);
	strbuf_addstr(out, value.ptr);
	ret = 1;
out:
	git_buf_dispose(&value);
	return ret;
}

/*
 * The kept repository and configuration of the current directory (the
 * repository NULL outside one), opening them the first time; the lock
 * is held.  Returns 0, or -1 with why in err.
 */
static int here_config(git_repository **repo, git_config **cfg,
		       struct strbuf *err)
{
	if (!here_opened) {
		here_opened = 1;
		repo_open_git(&here_repo, ".", 0, NULL);
		if (config_open(&here_cfg, here_repo, &here_err))
			here_cfg = NULL;
	}
	*repo = here_repo;
	*cfg = here_cfg;
	if (!here_cfg)
		strbuf_addbuf(err, &here_err);
	return here_cfg ? 0 : -1;
}

int repo_config_here(struct strbuf *out, const char *key, unsigned flags,
		     struct strbuf *err)
{
	git_repository *repo;
	git_config *cfg;
	int ret = -1;

	pthread_mutex_lock(&here_lock);
	if (!here_config(&repo, &cfg, err))
		ret = config_read(out, cfg, key, flags,
				  repo ? git_repository_workdir(repo) : NULL,
				  err);
	pthread_mutex_unlock(&here_lock);
	return ret;
}

int repo_config_at(struct strbuf *out, struct repo *r, const char *key,
		   unsigned flags, struct strbuf *err)
{
	struct strbuf top = STRBUF_INIT;
	git_config *cfg = NULL;
	int ret = -1;

	if (r->workdir.len)
		strbuf_addf(&top, "%s/", r->workdir.buf);
	if (!config_open(&cfg, r->git, err))
		ret = config_read(out, cfg, key, flags,
				  top.len ? top.buf : NULL, err);
	git_config_free(cfg);
	strbuf_release(&top);
	return ret;
}

int repo_config_bool_at(int *out, struct repo *r, const char *key, int def,
			struct strbuf *err)
{
	git_config *cfg = NULL;
	int ret = -1;

	if (!config_open(&cfg, r->git, err))
		ret = repo_config_bool(out, cfg, key, def, err);
	git_config_free(cfg);
	return ret;
}

int repo_config_multivar(struct repo *r, const char *key,
			 int (*fn)(const char *value, void *data), void *data,
			 struct strbuf *err)
{
	git_repository *here;
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int rc, ret = -1;

	if (!r) {
		pthread_mutex_lock(&here_lock);
		rc = here_config(&here, &cfg, err);
		pthread_mutex_unlock(&here_lock);
		/* kept, not ours: a snapshot the iterator only reads */
		if (rc || git_config_snapshot(&cfg, cfg) < 0) {
			if (!rc)
				strbuf_addf(err, "cannot read the git "
					    "configuration: %s", lg2_message());
			cfg = NULL;
			goto out;
		}
	} else if (config_open(&cfg, r->git, err))
		goto out;
	if (git_config_multivar_iterator_new(&it, cfg, key, NULL) < 0) {
		strbuf_addf(err, "cannot read %s: %s", key, lg2_message());
		goto out;
	}
	while (!(rc = git_config_next(&e, it)))
		if (fn(e->value, data))
			break;
	if (rc < 0 && rc != GIT_ITEROVER) {
		strbuf_addf(err, "cannot read %s: %s", key, lg2_message());
		goto out;
	}
	ret = 0;
out:
	git_config_iterator_free(it);
	git_config_free(cfg);
	return ret;
}

int repo_config_string(struct strbuf *out, const struct repo *r,
		       const char *key, struct strbuf *err)
{
	git_config *cfg = NULL;
	git_config_entry *e = NULL;
	int ret;

	if (git_repository_config_snapshot(&cfg, r->git) < 0) {
		strbuf_addf(err, "cannot read the git configuration: %s",
			    lg2_message());
		return -1;
	}
	ret = repo_config_entry(&e, cfg, key, err);
	if (ret > 0 && !e->value) {
		strbuf_addf(err, "%s is set without a value", key);
		ret = -1;
	} else if (ret > 0)
		strbuf_addstr(out, e->value);
	git_config_entry_free(e);
	git_config_free(cfg);
	return ret;
}

int repo_config_bool(int *out, git_config *cfg, const char *key, int def,
		     struct strbuf *err)
{
	int rc = git_config_get_bool(out, cfg, key);

	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		*out = def;
		return 0;
	}
	if (rc < 0) {
		strbuf_addf(err, "invalid %s: %s", key, lg2_message());
		return -1;
	}
	return 0;
}

/*
 * The directory a refusal by ownership is about, for the message: the
 * nearest one at or above path that holds ".git" (what git names and
 * safe.directory lists), else path itself (a git directory).
 */
static char *refused_path(const char *path)
{
	struct strbuf dir = STRBUF_INIT, dotgit = STRBUF_INIT;
	char *real = realpath(path, NULL);
	struct stat st;

	if (!real)
		return xstrdup(path);
	strbuf_addstr(&dir, real);
	for (;;) {
		char *slash;

		strbuf_setlen(&dotgit, 0);
		strbuf_addf(&dotgit, "%s/.git", dir.len > 1 ? dir.buf : "");
		if (!lstat(dotgit.buf, &st)) {
			free(real);
			strbuf_release(&dotgit);
			return strbuf_detach(&dir, NULL);
		}
		if (dir.len <= 1)
			break;
		slash = strrchr(dir.buf, '/');
		strbuf_setlen(&dir, slash == dir.buf ? 1 :
			      (size_t)(slash - dir.buf));
	}
	strbuf_release(&dir);
	strbuf_release(&dotgit);
	return real;
}

/*
 * libgit2's open: GIT_DIR itself when set (env_dir), else dir, searched
 * upwards unless REPO_EXACT.  Returns 0, 1 when there is no repository,
 * or -1 with the reason in err.
 */
static int open_git(git_repository **out, const char *dir,
		    const char *env_dir, unsigned flags, struct strbuf *err)
{
	const char *path = env_dir ? env_dir : dir, *ceiling = NULL;
	unsigned lg2_flags = 0;
	int rc;

	if (flags & REPO_EXACT)
		lg2_flags = GIT_REPOSITORY_OPEN_NO_SEARCH;
	else if (env_dir)
		lg2_flags = GIT_REPOSITORY_OPEN_NO_SEARCH |
			    GIT_REPOSITORY_OPEN_NO_DOTGIT;
	else {
		ceiling = env_value("GIT_CEILING_DIRECTORIES");
		if (repo_env_bool("GIT_DISCOVERY_ACROSS_FILESYSTEM"))
			lg2_flags |= GIT_REPOSITORY_OPEN_CROSS_FS;
	}
	rc = git_repository_open_ext(out, path, lg2_flags, ceiling);
	if (rc == GIT_EOWNER ||
	    (rc < 0 && strstr(lg2_message(), "safe.directory"))) {
		char *where = refused_path(path);

		strbuf_addf(err, "the repository at '%s' is owned by someone "
			    "else (git refuses it too); to trust it: git config "
			    "--global --add safe.directory <its path>", where);
		free(where);
		return -1;
	}
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return 1;
	}
	if (rc < 0) {
		strbuf_addf(err, "cannot open the git repository around '%s': "
			    "%s", path, lg2_message());
		return -1;
	}
	return 0;
}

/* GIT_ALTERNATE_OBJECT_DIRECTORIES: a list separated by ':'. */
static int add_alternates(git_repository *repo, const char *list,
			  struct strbuf *err)
{
	struct strbuf one = STRBUF_INIT;
	git_odb *odb = NULL;
	int ret = -1;

	if (git_repository_odb(&odb, repo) < 0)
		goto fail;
	while (*list) {
		const char *end = strchr(list, ':');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		strbuf_setlen(&one, 0);
		strbuf_add(&one, list, n);
		if (n && git_odb_add_disk_alternate(odb, one.buf) < 0)
			goto fail;
		list += n + (end ? 1 : 0);
	}
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot use GIT_ALTERNATE_OBJECT_DIRECTORIES: %s",
		    lg2_message());
out:
	git_odb_free(odb);
	strbuf_release(&one);
	return ret;
}

/*
 * The variables libgit2's GIT_REPOSITORY_OPEN_FROM_ENV applies after
 * opening: another object directory, alternates, a namespace, an index.
 */
static int apply_env(git_repository *repo, struct strbuf *err)
{
	const char *objects = env_value("GIT_OBJECT_DIRECTORY");
	const char *alternates = env_value("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	const char *ns = env_value("GIT_NAMESPACE");
	const char *index_file = env_value("GIT_INDEX_FILE");
	git_odb *odb = NULL;
	git_index *index = NULL;
	int ret = -1;

	if (objects && (git_odb_open(&odb, objects) < 0 ||
			git_repository_set_odb(repo, odb) < 0)) {
		strbuf_addf(err, "cannot use GIT_OBJECT_DIRECTORY '%s': %s",
			    objects, lg2_message());
		goto out;
	}
	if (alternates && add_alternates(repo, alternates, err))
		goto out;
	if (ns && git_repository_set_namespace(repo, ns) < 0) {
		strbuf_addf(err, "cannot use GIT_NAMESPACE '%s': %s", ns,
			    lg2_message());
		goto out;
	}
	if (index_file && (git_index_open(&index, index_file) < 0 ||
			   git_repository_set_index(repo, index) < 0)) {
		strbuf_addf(err, "cannot use GIT_INDEX_FILE '%s': %s",
			    index_file, lg2_message());
		goto out;
	}
	ret = 0;
out:
	git_index_free(index);
	git_odb_free(odb);
	return ret;
}

/*
 * extensions.worktreeConfig: read config.worktree as git does (libgit2
 * 1.5 does not), above the repository's own settings, so that libgit2's
 * diffs see core.* from there too.
 */
static int add_worktree_config(git_repository *repo, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	git_config *cfg = NULL;
	struct stat st;
	int on, ret = -1;

	if (git_repository_config(&cfg, repo) < 0) {
		strbuf_addf(err, "cannot read the git configuration: %s",
			    lg2_message());
		goto out;
	}
	if (repo_config_bool(&on, cfg, "extensions.worktreeConfig", 0, err))
		goto out;
	strbuf_addf(&path, "%sconfig.worktree", git_repository_path(repo));
	if (on && !lstat(path.buf, &st) &&
	    git_config_add_file_ondisk(cfg, path.buf, GIT_CONFIG_LEVEL_APP,
				       repo, 0) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", path.buf,
			    lg2_message());
		goto out;
	}
	ret = 0;
out:
	git_config_free(cfg);
	strbuf_release(&path);
	return ret;
}

/*
 * GIT_COMMON_DIR, when set, made absolute as git takes it; it must be
 * the directory libgit2 reads refs and objects from.
 */
static int find_commondir(struct repo *r, unsigned flags, struct strbuf *err)
{
	const char *env = flags & REPO_EXACT ? NULL :
			  env_value("GIT_COMMON_DIR");
	const char *own = git_repository_commondir(r->git);
	char *real_env = NULL, *real_own = NULL;
	int ret = -1;

	if (!env) {
		path_resolve(&r->commondir, NULL, own);
		return 0;
	}
	real_env = realpath(env, NULL);
	if (!real_env) {
		strbuf_addf(err, "invalid GIT_COMMON_DIR '%s': %s", env,
			    strerror(errno));
		goto out;
	}
	real_own = realpath(own, NULL);
	if (!real_own || strcmp(real_env, real_own)) {
		strbuf_addf(err, "GIT_COMMON_DIR '%s' is not the common "
			    "directory that the git directory '%s' names ('%s'); "
			    "that is not supported", env, r->gitdir.buf,
			    real_own ? real_own : own);
		goto out;
	}
	if (path_absolute(&r->commondir, env, err))
		goto out;
	ret = 0;
out:
	free(real_env);
	free(real_own);
	return ret;
}

/*
 * With GIT_DIR set and no GIT_WORK_TREE, git takes core.worktree
 * (relative to the git directory), else none if core.bare, else the
 * current directory.  Appends that to path (nothing when bare).
 */
static int explicit_workdir(struct strbuf *path, git_repository *repo,
			    struct strbuf *err)
{
	git_config *cfg = NULL;
	git_config_entry *entry = NULL;
	int rc, bare, ret = -1;

	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		strbuf_addf(err, "cannot read the git configuration: %s",
			    lg2_message());
		goto out;
	}
	rc = repo_config_entry(&entry, cfg, "core.worktree", err);
	if (rc < 0 || repo_config_bool(&bare, cfg, "core.bare", 0, err))
		goto out;
	if (rc && entry->value && *entry->value) {
		if (entry->value[0] != '/')
			strbuf_addstr(path, git_repository_path(repo));
		strbuf_addstr(path, entry->value);
	} else if (!bare)
		strbuf_addch(path, '.');
	ret = 0;
out:
	git_config_entry_free(entry);
	git_config_free(cfg);
	return ret;
}

/*
 * The work tree git uses (see repo.h), into r->workdir; handed to
 * libgit2 when it guessed another, unless REPO_PATHS_ONLY.
 */
static int find_workdir(struct repo *r, const char *env_dir, unsigned flags,
			struct strbuf *err)
{
	const char *env_wt = flags & REPO_EXACT ? NULL :
			     env_value("GIT_WORK_TREE");
	const char *own = git_repository_workdir(r->git);
	struct strbuf path = STRBUF_INIT;
	char *real = NULL, *real_own = NULL;
	int ret = -1;

	if (env_wt)
		strbuf_addstr(&path, env_wt);
	else if (env_dir) {
		if (explicit_workdir(&path, r->git, err))
			goto out;
	} else if (own && !git_repository_is_bare(r->git))
		strbuf_addstr(&path, own);
	if (!path.len) {
		ret = 0;
		goto out;
	}
	real = realpath(path.buf, NULL);
	if (!real) {
		strbuf_addf(err, "invalid %s '%s': %s", env_wt ?
			    "GIT_WORK_TREE" : "work tree", path.buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addstr(&r->workdir, real);
	if (own && !git_repository_is_bare(r->git))
		real_own = realpath(own, NULL);
	if (!(flags & REPO_PATHS_ONLY) &&
	    (!real_own || strcmp(real, real_own)) &&
	    git_repository_set_workdir(r->git, real, 0) < 0) {
		strbuf_addf(err, "cannot use the work tree '%s': %s", real,
			    lg2_message());
		goto out;
	}
	ret = 0;
out:
	free(real);
	free(real_own);
	strbuf_release(&path);
	return ret;
}

int repo_open(struct repo *out, const char *dir, unsigned flags,
	      struct strbuf *err)
{
	const char *env_dir = flags & REPO_EXACT ? NULL : env_value("GIT_DIR");
	int rc;

	rc = open_git(&out->git, dir, env_dir, flags, err);
	if (rc)
		return rc;
	if ((!(flags & REPO_EXACT) && apply_env(out->git, err)) ||
	    add_worktree_config(out->git, err))
		return -1;
	path_resolve(&out->gitdir, NULL, git_repository_path(out->git));
	if (find_commondir(out, flags, err) ||
	    find_workdir(out, env_dir, flags, err))
		return -1;
	return 0;
}

int repo_discover(struct strbuf *key, const char *dir)
{
	const char *env_dir = env_value("GIT_DIR");
	int across = repo_env_bool("GIT_DISCOVERY_ACROSS_FILESYSTEM");
	git_buf buf = GIT_BUF_INIT;
	int rc;

	/* open_git(): GIT_DIR is opened as named, wherever dir is */
	if (env_dir) {
		strbuf_addstr(key, env_dir);
		return 0;
	}
	rc = git_repository_discover(&buf, dir, across,
				     env_value("GIT_CEILING_DIRECTORIES"));
	if (rc < 0) {
		git_error_clear();
		return -1;
	}
	strbuf_add(key, buf.ptr, buf.size);
	git_buf_dispose(&buf);
	return 0;
}

void repo_release(struct repo *r)
{
	git_repository_free(r->git);
	r->git = NULL;
	strbuf_release(&r->gitdir);
	strbuf_release(&r->commondir);
	strbuf_release(&r->workdir);
}

int repo_open_git(git_repository **out, const char *dir, unsigned flags,
		  struct strbuf *err)
{
	struct repo r = REPO_INIT;
	struct strbuf ignored = STRBUF_INIT;
	int rc = repo_open(&r, dir, flags, err ? err : &ignored);

	*out = NULL;
	if (!rc) {
		*out = r.git;
		r.git = NULL;
	} else if (!err)
		git_error_clear();
	repo_release(&r);
	strbuf_release(&ignored);
	return rc;
}

/* Is the existing directory real (symlinks resolved) the current one? */
static int is_cwd(const char *real)
{
	char *cwd = realpath(".", NULL);
	int ret = cwd && !strcmp(cwd, real);

	free(cwd);
	return ret;
}

int repo_worktree_of(struct strbuf *out, const char *dir)
{
	struct repo r = REPO_INIT;
	struct strbuf err = STRBUF_INIT;
	char *real = realpath(dir, NULL);
	int named = env_value("GIT_DIR") || env_value("GIT_WORK_TREE");
	int ret = 0;

	if (!real || repo_open(&r, dir, REPO_PATHS_ONLY, &err) ||
	    !r.workdir.len) {
		git_error_clear();
		goto out;
	}
	/*
	 * Run outside the work tree that the environment names, git works
	 * on all of it, from its top.
	 */
	if (!path_is_within(real, r.workdir.buf) && !(named && is_cwd(real)))
		goto out;
	strbuf_addbuf(out, &r.workdir);
	ret = 1;
out:
	free(real);
	repo_release(&r);
	strbuf_release(&err);
	return ret;
}
