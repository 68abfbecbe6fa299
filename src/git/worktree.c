#include "config.h"
#include "worktree.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Write a small administrative file: with claimed, the empty file
 * make_target() created to claim the directory (never followed if a
 * link took its place); otherwise a file that must not exist yet.
 */
static int write_small(const char *dir, const char *name, const char *text,
		       int claimed, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	size_t len = strlen(text);
	int fd, ret = -1;

	strbuf_addf(&path, "%s/%s", dir, name);
	fd = claimed ? open(path.buf, O_WRONLY | O_TRUNC | O_NOFOLLOW |
			    O_CLOEXEC) :
		open(path.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		strbuf_addf(err, "cannot %s %s: %s",
			    claimed ? "write" : "create", path.buf,
			    strerror(errno));
		goto out;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		strbuf_addf(err, "cannot write %s: %s", path.buf,
			    strerror(errno));
		close(fd);
		goto out;
	}
	if (close(fd) < 0) {
		strbuf_addf(err, "cannot write %s: %s", path.buf,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/*
 * The target directory: made, or an existing empty one (as git accepts),
 * then claimed by creating its ".git" exclusively, then its real path.
 * Two processes can both find the directory new or empty; only the one
 * that creates ".git" goes on, and the other leaves the directory as it
 * is: wt->path stays empty, so nothing of it is ever removed.
 */
static int make_target(struct worktree *wt, const char *path,
		       struct strbuf *err)
{
	struct strbuf claim = STRBUF_INIT;
	char *real;
	int fd;

	if (!mkdir(path, 0777))
		wt->made_dir = 1;
	else if (errno != EEXIST) {
		strbuf_addf(err, "cannot create '%s': %s", path,
			    strerror(errno));
		return -1;
	} else if (!dir_is_empty(path)) {
		strbuf_addf(err, "'%s' already exists and is not an empty "
			    "directory", path);
		return -1;
	}
	strbuf_addf(&claim, "%s/.git", path);
	fd = open(claim.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		  O_CLOEXEC, 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			strbuf_addf(err, "'%s' was claimed by another process "
				    "(another replay into it?)", path);
		else
			strbuf_addf(err, "cannot claim '%s': %s", path,
				    strerror(errno));
		strbuf_release(&claim);
		wt->made_dir = 0;
		return -1;
	}
	close(fd);
	strbuf_release(&claim);
	real = realpath(path, NULL);
	if (!real) {
		strbuf_addf(err, "cannot resolve '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	strbuf_addstr(&wt->path, real);
	free(real);
	return 0;
}

/*
 * <commondir>/worktrees/<id>: the last component of the path, numbered
 * when taken, as git names them.
 */
static int make_admin(struct worktree *wt, const struct repo *r,
		      struct strbuf *err)
{
	const char *base = strrchr(wt->path.buf, '/');
	struct strbuf dir = STRBUF_INIT;
	int i;

	base = base ? base + 1 : wt->path.buf;
	strbuf_addf(&dir, "%s/worktrees", r->commondir.buf);
	if (mkdir(dir.buf, 0777) && errno != EEXIST) {
		strbuf_addf(err, "cannot create %s: %s", dir.buf,
			    strerror(errno));
		strbuf_release(&dir);
		return -1;
	}
	for (i = 0; i < 1000; i++) {
		strbuf_reset(&wt->admin);
		strbuf_addf(&wt->admin, "%s/%s", dir.buf, base);
		if (i)
			strbuf_addf(&wt->admin, "%d", i);
		if (!mkdir(wt->admin.buf, 0777)) {
			strbuf_release(&dir);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	strbuf_addf(err, "cannot create a directory for the worktree in "
		    "%s: %s", dir.buf, strerror(errno));
	strbuf_reset(&wt->admin);
	strbuf_release(&dir);
	return -1;
}

/*
 * A worktree being made, removed if a signal ends the process first:
 * half a checkout, locked "initializing", is what `git worktree prune`
 * never cleans.  Removing a tree is not async-signal-safe, but the
 * process is ending and git's own `worktree add` does the same.
 */
static char *guard_path, *guard_admin;
static int guard_keep_top;
static const int guard_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
#define NR_GUARD_SIGNALS (sizeof(guard_signals) / sizeof(guard_signals[0]))
static struct sigaction guard_previous[NR_GUARD_SIGNALS];
static int guard_installed;

static int remove_tree(const char *dir, int keep_top, struct strbuf *err);

static void guard_handler(int sig)
{
	size_t i;

	if (guard_path)
		remove_tree(guard_path, guard_keep_top, NULL);
	if (guard_admin)
		remove_tree(guard_admin, 0, NULL);
	for (i = 0; i < NR_GUARD_SIGNALS; i++)
		if (guard_signals[i] == sig)
			sigaction(sig, &guard_previous[i], NULL);
	raise(sig);
}

/*
 * The handler stays once installed (atomicfile.c's, installed later,
 * chains to it); guard_path tells it whether there is anything to do.
 */
static void guard_set(struct worktree *wt)
{
	size_t i;

	worktree_unguard();
	guard_path = xstrdup(wt->path.buf);
	guard_admin = xstrdup(wt->admin.buf);
	guard_keep_top = !wt->made_dir;
	if (guard_installed)
		return;
	guard_installed = 1;
	for (i = 0; i < NR_GUARD_SIGNALS; i++) {
		struct sigaction sa;

		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(guard_signals[i], NULL, &guard_previous[i]) ||
		    guard_previous[i].sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = guard_handler;
		sigemptyset(&sa.sa_mask);
		sigaction(guard_signals[i], &sa, NULL);
	}
}

void worktree_unguard(void)
{
	char *path = guard_path, *admin = guard_admin;

	guard_path = guard_admin = NULL;
	free(path);
	free(admin);
}

static int checkout(struct worktree *wt, const git_oid *commit,
		    struct strbuf *err)
{
	git_checkout_options opts;
	git_commit *c = NULL;
	int ret = -1;

	if (git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION) < 0) {
		strbuf_addf(err, "cannot check out: %s", lg2_message());
		return -1;
	}

	/*
	 * The directory is new and empty: FORCE only makes libgit2 write
	 * every file of the tree, as a first checkout does.
	 */
	opts.checkout_strategy = GIT_CHECKOUT_FORCE;
	if (git_commit_lookup(&c, wt->git, commit) < 0 ||
	    git_checkout_tree(wt->git, (const git_object *)c, &opts) < 0)
		strbuf_addf(err, "cannot check out the commit: %s",
			    lg2_message());
	else
		ret = 0;
	git_commit_free(c);
	return ret;
}

int worktree_add_detached(struct worktree *wt, const struct repo *r,
			  const char *path, const char *id,
			  struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, lock = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid commit;
	int ret = -1;

	/* a full id only: an abbreviation would name whatever shares it */
	if (strlen(id) != GIT_OID_HEXSZ || git_oid_fromstr(&commit, id) < 0) {
		strbuf_addf(err, "'%s' is not a full commit id", id);
		return -1;
	}
	git_oid_tostr(hex, sizeof(hex), &commit);
	if (make_target(wt, path, err) || make_admin(wt, r, err))
		goto fail;
	guard_set(wt);
	/* git's own mark, so that `git worktree prune` leaves it alone */
	if (write_small(wt->admin.buf, "locked", "initializing\n", 0, err))
		goto fail;
	strbuf_addf(&text, "%s\n", hex);
	if (write_small(wt->admin.buf, "HEAD", text.buf, 0, err) ||
	    write_small(wt->admin.buf, "commondir", "../..\n", 0, err))
		goto fail;
	strbuf_reset(&text);
	strbuf_addf(&text, "%s/.git\n", wt->path.buf);
	if (write_small(wt->admin.buf, "gitdir", text.buf, 0, err))
		goto fail;
	strbuf_reset(&text);
	strbuf_addf(&text, "gitdir: %s\n", wt->admin.buf);
	if (write_small(wt->path.buf, ".git", text.buf, 1, err))
		goto fail;
	if (repo_open_git(&wt->git, wt->path.buf, REPO_EXACT, err) ||
	    checkout(wt, &commit, err))
		goto fail;
	strbuf_addf(&lock, "%s/locked", wt->admin.buf);
	if (unlink(lock.buf) < 0) {
		strbuf_addf(err, "cannot remove %s: %s", lock.buf,
			    strerror(errno));
		goto fail;
	}
	ret = 0;
	goto out;
fail:
	worktree_remove(wt, NULL);
out:
	strbuf_release(&text);
	strbuf_release(&lock);
	return ret;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Remove dir and everything below it, never following a symlink. */
static int remove_tree(const char *dir, int keep_top, struct strbuf *err)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS) < 0 &&
	    errno != ENOENT) {
		if (err)
			strbuf_addf(err, "cannot remove %s: %s", dir,
				    strerror(errno));
		return -1;
	}
	/* nftw removed the top too; an existing directory is given back */
	if (keep_top && mkdir(dir, st.st_mode & 07777) < 0 && errno != EEXIST) {
		if (err)
			strbuf_addf(err, "cannot recreate %s: %s", dir,
				    strerror(errno));
		return -1;
	}
	return 0;
}

int worktree_remove(struct worktree *wt, struct strbuf *err)
{
	int ret = 0;

	worktree_unguard();
	if (wt->git) {
		git_repository_free(wt->git);
		wt->git = NULL;
	}
	if (wt->path.len && remove_tree(wt->path.buf, !wt->made_dir, err))
		ret = -1;
	if (wt->admin.len && remove_tree(wt->admin.buf, 0, err))
		ret = -1;
	return ret;
}

void worktree_release(struct worktree *wt)
{
	if (wt->git)
		git_repository_free(wt->git);
	wt->git = NULL;
	strbuf_release(&wt->path);
	strbuf_release(&wt->admin);
}
