#include "config.h"
#include "root.h"
#include "fs/readfile.h"
#include "git/repo.h"
#include "usage.h"
#include "fs/path.h"
#include "json/jval.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROOT_MAX_LEVELS 8
#define AHD_PACKAGE "@adastracomputing/ahd"

const char *root_origin_name(int origin)
{
	switch (origin) {
	case ROOT_GIVEN:
		return "--root";
	case ROOT_PACKAGE_JSON:
		return "package.json";
	case ROOT_GIT:
		return "git work tree";
	case ROOT_CONFIG:
		return "ahd-replay.root";
	default:
		return "current directory";
	}
}

static int is_ahd_package(const char *dir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT, err = STRBUF_INIT;
	struct jval *pkg = NULL, *name;
	int ret = 0;

	strbuf_addf(&path, "%s/package.json", dir);
	if (access(path.buf, F_OK) ||
	    read_file_limited(&buf, path.buf, (size_t)4 << 20, &err))
		goto out;
	pkg = jval_loadb(buf.buf, buf.len, 0, NULL);
	name = jval_object_get(pkg, "name");
	ret = jval_is_string(name) && !strcmp(jval_string_value(name),
					      AHD_PACKAGE);
out:
	jval_decref(pkg);
	strbuf_release(&path);
	strbuf_release(&buf);
	strbuf_release(&err);
	return ret;
}

static int set_real(struct strbuf *out, const char *path, struct strbuf *err)
{
	char *real = realpath(path, NULL);

	if (!real) {
		strbuf_addf(err, "cannot resolve '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	strbuf_addstr(out, real);
	free(real);
	return 0;
}

/* A directory root_find() looked at, as struct root_memo keeps it. */
struct root_memo_dir {
	char *dir;	/* absolute */
	int pkg_known;
	int ahd;	/* is_ahd_package() */
	char *real;	/* when ahd: its real path, NULL when that failed */
	int discovered;
	char *gitdir;	/* repo_discover()'s key, NULL when it failed */
	dev_t dev;	/* its file system, when lstat() told */
};

static size_t dir_hash(const char *s)
{
	size_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct root_memo_dir **dir_slot(struct root_memo *m, const char *dir)
{
	size_t i = dir_hash(dir) & (m->dirs_size - 1);

	while (m->dirs[i] && strcmp(m->dirs[i]->dir, dir))
		i = (i + 1) & (m->dirs_size - 1);
	return &m->dirs[i];
}

/* The table twice as large, so that it stays at most half full. */
static void dirs_grow(struct root_memo *m)
{
	struct root_memo old = *m;
	size_t i;

	m->dirs_size = old.dirs_size ? 2 * old.dirs_size : 64;
	m->dirs = xcalloc(m->dirs_size, sizeof(*m->dirs));
	for (i = 0; i < old.dirs_size; i++)
		if (old.dirs[i])
			*dir_slot(m, old.dirs[i]->dir) = old.dirs[i];
	free(old.dirs);
}

/* memo's entry for dir, a new one with nothing known yet. */
static struct root_memo_dir *dir_entry(struct root_memo *memo,
				       const char *dir)
{
	struct root_memo_dir **slot;

	if (2 * (memo->dirs_nr + 1) > memo->dirs_size)
		dirs_grow(memo);
	slot = dir_slot(memo, dir);
	if (!*slot) {
		*slot = xcalloc(1, sizeof(**slot));
		(*slot)->dir = xstrdup(dir);
		memo->dirs_nr++;
	}
	return *slot;
}

/* is_ahd_package(dir) and its real path, from memo when it has them. */
static const struct root_memo_dir *dir_answer(struct root_memo *memo,
					      const char *dir)
{
	struct root_memo_dir *d = dir_entry(memo, dir);
	char *real;

	if (d->pkg_known)
		return d;
	d->pkg_known = 1;
	d->ahd = is_ahd_package(dir);
	if (d->ahd && (real = realpath(dir, NULL))) {
		d->real = xstrdup(real);
		free(real);
	}
	return d;
}

static int env_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v;
}

/*
 * repo_discover(key, dir) for dir (absolute), learnt from its parent's
 * when git would find the same there: dir is a directory and no symlink
 * (so its real path's parent is its parent's), holds neither .git nor
 * HEAD (so it is neither a work tree's top nor a repository itself),
 * and, unless GIT_DISCOVERY_ACROSS_FILESYSTEM, lies on its parent's
 * file system (git stops at a mount point).  With GIT_DIR or
 * GIT_CEILING_DIRECTORIES set, git is asked every time.  Returns 0 or
 * -1 as repo_discover().
 */
static int discover(struct strbuf *key, const char *dir,
		    struct root_memo *memo)
{
	struct strbuf parent = STRBUF_INIT, probe = STRBUF_INIT;
	struct root_memo_dir *d;
	const struct root_memo_dir *p = NULL;
	struct stat st;
	int ret;

	if (env_set("GIT_DIR") || env_set("GIT_CEILING_DIRECTORIES"))
		return repo_discover(key, dir);
	d = dir_entry(memo, dir);
	if (d->discovered)
		goto answer;
	strbuf_addstr(&parent, dir);
	if (!lstat(dir, &st) && S_ISDIR(st.st_mode) &&
	    !path_parent(&parent) && strcmp(parent.buf, dir)) {
		struct strbuf pkey = STRBUF_INIT;
		int pret = discover(&pkey, parent.buf, memo);

		strbuf_release(&pkey);
		p = dir_entry(memo, parent.buf);
		d->dev = st.st_dev;
		strbuf_addf(&probe, "%s/.git", dir);
		if (!pret && (p->dev == st.st_dev ||
			      repo_env_bool("GIT_DISCOVERY_ACROSS_FILESYSTEM")) &&
		    lstat(probe.buf, &st) && errno == ENOENT) {
			strbuf_reset(&probe);
			strbuf_addf(&probe, "%s/HEAD", dir);
			if (!lstat(probe.buf, &st) || errno != ENOENT)
				p = NULL;
		} else
			p = NULL;
	}
	d->discovered = 1;
	if (p)
		d->gitdir = xstrdup(p->gitdir);
	else {
		struct strbuf own = STRBUF_INIT;

		if (!repo_discover(&own, dir))
			d->gitdir = strbuf_detach(&own, NULL);
		strbuf_release(&own);
	}
answer:
	ret = d->gitdir ? 0 : -1;
	if (d->gitdir)
		strbuf_addstr(key, d->gitdir);
	strbuf_release(&parent);
	strbuf_release(&probe);
	return ret;
}

/*
 * root_find() without given, with memo (NULL: none) for the
 * package.json of each directory on the way up.
 */
static int find_from(struct strbuf *out, const char *dir,
		     struct root_memo *memo, struct strbuf *err)
{
	struct strbuf cur = STRBUF_INIT;
	int i, ret;

	if (path_absolute(&cur, dir, err)) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < ROOT_MAX_LEVELS; i++) {
		const struct root_memo_dir *d = memo ?
			dir_answer(memo, cur.buf) : NULL;

		if (d ? d->ahd : is_ahd_package(cur.buf)) {
			if (d && d->real) {
				strbuf_addstr(out, d->real);
				ret = ROOT_PACKAGE_JSON;
			} else	/* not kept: fails here again, saying why */
				ret = set_real(out, cur.buf, err) ? -1 :
				      ROOT_PACKAGE_JSON;
			goto out;
		}
		if (path_parent(&cur))
			break;
	}
	strbuf_reset(&cur);
	if (path_absolute(&cur, dir, err)) {
		ret = -1;
		goto out;
	}
	if (repo_worktree_of(out, cur.buf)) {
		ret = ROOT_GIT;
		goto out;
	}
	ret = set_real(out, ".", err) ? -1 : ROOT_CWD;
out:
	strbuf_release(&cur);
	return ret;
}

int root_find(struct strbuf *out, const char *dir, const char *given,
	      struct strbuf *err)
{
	if (given)
		return set_real(out, given, err) ? -1 : ROOT_GIVEN;
	return find_from(out, dir, NULL, err);
}

/*
 * The root ahd-replay.root pins in the repository around dir: 1 with it
 * in out, 0 when none is set (or there is no work tree), -1 and err.
 */
static int pinned_root(struct strbuf *out, const char *dir,
		       struct strbuf *err)
{
	struct repo r = REPO_INIT;
	struct strbuf why = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf value = STRBUF_INIT;
	int ret = 0;

	/* No repository, or one that does not open: nothing is pinned. */
	if (repo_open(&r, dir, REPO_PATHS_ONLY, &why) || !r.workdir.len)
		goto out;
	ret = repo_config_string(&value, &r, "ahd-replay.root", err);
	if (ret <= 0)
		goto out;
	if (value.buf[0] != '/')
		strbuf_addf(&path, "%s/", r.workdir.buf);
	strbuf_addbuf(&path, &value);
	if (set_real(out, path.buf, &why)) {
		strbuf_addf(err, "ahd-replay.root: %s", why.buf);
		ret = -1;
		goto out;
	}
	ret = 1;
out:
	repo_release(&r);
	strbuf_release(&why);
	strbuf_release(&path);
	strbuf_release(&value);
	return ret;
}

int root_find_pinned(struct strbuf *out, const char *dir, const char *given,
		     struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;
	int rc;

	if (given)
		return root_find(out, dir, given, err);
	if (path_absolute(&abs, dir, err))
		return -1;
	rc = pinned_root(out, abs.buf, err);
	strbuf_release(&abs);
	if (rc)
		return rc < 0 ? -1 : ROOT_CONFIG;
	return root_find(out, dir, NULL, err);
}

/*
 * pinned_root() by the repository around dir: the first directory of a
 * repository asks it, the others get the same answer (its value or its
 * error).  A directory whose repository is not found that way is asked
 * about directly.
 */
static int pinned_root_memo(struct strbuf *out, const char *dir,
			    struct root_memo *memo, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT, why = STRBUF_INIT;
	struct root_memo_entry *e;
	size_t i;

	if (discover(&key, dir, memo)) {
		strbuf_release(&key);
		return pinned_root(out, dir, err);
	}
	for (i = 0; i < memo->nr; i++)
		if (!strcmp(memo->v[i].gitdir, key.buf))
			break;
	if (i == memo->nr) {
		ALLOC_GROW(memo->v, memo->nr + 1, memo->alloc);
		e = &memo->v[memo->nr++];
		e->ret = pinned_root(&val, dir, &why);
		e->gitdir = strbuf_detach(&key, NULL);
		e->value = strbuf_detach(e->ret < 0 ? &why : &val, NULL);
	}
	e = &memo->v[i];
	if (e->ret)
		strbuf_addstr(e->ret < 0 ? err : out, e->value);
	strbuf_release(&key);
	strbuf_release(&val);
	strbuf_release(&why);
	return e->ret;
}

int root_find_pinned_memo(struct strbuf *out, const char *dir,
			  struct root_memo *memo, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;
	int rc;

	if (path_absolute(&abs, dir, err))
		return -1;
	rc = pinned_root_memo(out, abs.buf, memo, err);
	strbuf_release(&abs);
	if (rc)
		return rc < 0 ? -1 : ROOT_CONFIG;
	return find_from(out, dir, memo, err);
}

void root_memo_release(struct root_memo *memo)
{
	size_t i;

	for (i = 0; i < memo->nr; i++) {
		free(memo->v[i].gitdir);
		free(memo->v[i].value);
	}
	free(memo->v);
	memo->v = NULL;
	memo->nr = memo->alloc = 0;
	for (i = 0; i < memo->dirs_size; i++) {
		if (!memo->dirs[i])
			continue;
		free(memo->dirs[i]->dir);
		free(memo->dirs[i]->real);
		free(memo->dirs[i]->gitdir);
		free(memo->dirs[i]);
	}
	free(memo->dirs);
	memo->dirs = NULL;
	memo->dirs_nr = memo->dirs_size = 0;
}

void root_describe(struct strbuf *note, struct strbuf *warning,
		   const char *root, int origin)
{
	struct strbuf top = STRBUF_INIT;
	const char *below;

	if (!repo_worktree_of(&top, root) || !strcmp(top.buf, root))
		goto out;
	below = path_inside(root, top.buf);
	if (below)
		strbuf_addf(note, "root: %s (%s), not the work tree's top %s",
			    below, root_origin_name(origin), top.buf);
	else
		strbuf_addf(note, "root: %s (%s), outside the work tree %s",
			    root, root_origin_name(origin), top.buf);
	if (origin == ROOT_PACKAGE_JSON && below)
		strbuf_addf(warning, "the root is set by %s/package.json, below "
			    "the work tree's top: a pull request that adds one "
			    "moves the root (and what inputs are read); pin it "
			    "with --root or git config ahd-replay.root", below);
out:
	strbuf_release(&top);
}
