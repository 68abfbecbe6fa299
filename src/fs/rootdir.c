/*
 * Opening beneath a root by descriptor (rootdir.h).  The fast way is one
 * openat2() call; the walk below is the way everywhere else, and the
 * one that decides whenever the kernel refuses a path we may still
 * follow (an absolute symlink that stays in the root) or cannot tell us
 * the path's real name (the .git rule).
 */
#include "config.h"
#include "rootdir.h"
#include "path.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LINUX_OPENAT2_H
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

/*
 * A directory on the way: O_PATH where there is one (no read permission
 * needed to pass through, as for a path walk by the kernel).  O_NOFOLLOW
 * makes a symlink fail to open as a directory, so we see it.
 */
#ifdef O_PATH
#define WALK_DIR_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define WALK_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

/* The file itself: O_NONBLOCK so that a FIFO cannot hang the open. */
#define FILE_FLAGS (O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)

int rootdir_open(struct rootdir *rd, const char *path, struct strbuf *err)
{
	const char *off = getenv(ROOTDIR_NO_OPENAT2_ENV);
	int saved;

#ifdef O_PATH
	rd->fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
	rd->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
	if (rd->fd < 0) {
		saved = errno;
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		errno = saved;
		return -1;
	}
	strbuf_addstr(&rd->path, path);
#ifdef HAVE_LINUX_OPENAT2_H
	rd->walk = off && *off && strcmp(off, "0");
#else
	(void)off;
	rd->walk = 1;
#endif
	return 0;
}

void rootdir_release(struct rootdir *rd)
{
	size_t i;

	for (i = 0; i < ROOTDIR_CACHE; i++) {
		if (rd->dirs[i].rel)
			close(rd->dirs[i].fd);
		free(rd->dirs[i].rel);
		rd->dirs[i].rel = NULL;
		rd->dirs[i].fd = -1;
	}
	if (rd->fd >= 0)
		close(rd->fd);
	rd->fd = -1;
	rd->walk = 0;
	rd->next = 0;
	strbuf_release(&rd->path);
}

/* --- the walk --------------------------------------------------------- */

/* A cached directory descriptor for rel (borrowed), or -1. */
static int cache_find(const struct rootdir *rd, const char *rel)
{
	size_t i;

	for (i = 0; i < ROOTDIR_CACHE; i++)
		if (rd->dirs[i].rel && !strcmp(rd->dirs[i].rel, rel))
			return rd->dirs[i].fd;
	return -1;
}

/* Keep fd (owned) as rel's directory, in place of the oldest kept. */
static void cache_add(struct rootdir *rd, const char *rel, int fd)
{
	struct rootdir_cached *c = &rd->dirs[rd->next];

	if (c->rel)
		close(c->fd);
	free(c->rel);
	c->rel = xstrdup(rel);
	c->fd = fd;
	rd->next = (rd->next + 1) % ROOTDIR_CACHE;
}

/* One directory of the walk, from the root (v[0]) down. */
struct walk_level {
	int fd;
	int owned;	/* opened by this walk, not borrowed from the cache */
	size_t len;	/* real's length once this level is entered */
};

struct walk {
	struct rootdir *rd;
	struct walk_level *v;
	size_t nr, alloc;
	struct strbuf real;	/* the deepest level's path below the root */
	struct strbuf todo;	/* what is left to walk, from pos */
	size_t pos;
	int links;
};
#define WALK_INIT { NULL, NULL, 0, 0, STRBUF_INIT, STRBUF_INIT, 0, 0 }

static int top_fd(const struct walk *w)
{
	return w->v[w->nr - 1].fd;
}

static void walk_push(struct walk *w, int fd, int owned, const char *name)
{
	ALLOC_GROW(w->v, w->nr + 1, w->alloc);
	if (name) {
		if (w->real.len)
			strbuf_addch(&w->real, '/');
		strbuf_addstr(&w->real, name);
	}
	w->v[w->nr].fd = fd;
	w->v[w->nr].owned = owned;
	w->v[w->nr].len = w->real.len;
	w->nr++;
}

/* "..": up one level; -1 (EXDEV) at the root, which ".." would leave. */
static int walk_pop(struct walk *w)
{
	struct walk_level *top;

	if (w->nr == 1) {
		errno = EXDEV;
		return -1;
	}
	top = &w->v[--w->nr];
	if (top->owned)
		close(top->fd);
	strbuf_setlen(&w->real, w->v[w->nr - 1].len);
	return 0;
}

/*
 * Done: keep the directories this walk opened for the next one (the
 * deepest last, so it outlives the others in the cache), free the rest.
 */
static void walk_release(struct walk *w)
{
	size_t i;

	for (i = 1; i < w->nr; i++) {
		if (!w->v[i].owned)
			continue;
		strbuf_setlen(&w->real, w->v[i].len);
		cache_add(w->rd, w->real.buf, w->v[i].fd);
	}
	free(w->v);
	strbuf_release(&w->real);
	strbuf_release(&w->todo);
}

/*
 * Continue the walk at target, a symlink's text (or an absolute rel),
 * then what was left after the link.  An absolute target is followed
 * only when it names the root by its path and goes on beneath it.
 */
static int walk_splice(struct walk *w, const char *target)
{
	struct strbuf next = STRBUF_INIT;

	if (++w->links > ROOTDIR_MAX_LINKS) {
		errno = ELOOP;
		return -1;
	}
	if (target[0] == '/') {
		const char *below = path_inside(target, w->rd->path.buf);

		if (!below) {
			errno = EXDEV;
			return -1;
		}
		while (w->nr > 1)
			walk_pop(w);
		target = below;
	}
	strbuf_addstr(&next, target);
	strbuf_addstr(&next, w->todo.buf + w->pos);
	strbuf_release(&w->todo);
	w->todo = next;
	w->pos = 0;
	return 0;
}

/*
 * name, in the deepest directory, failed to open with err_open (ENOTDIR
 * or ELOOP under O_NOFOLLOW): follow it if it is a symlink, else fail
 * with err_open.
 */
static int walk_follow(struct walk *w, const char *name, int err_open)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(top_fd(w), name, target, sizeof(target));

	if (n < 0) {
		if (errno == EINVAL)	/* not a symlink */
			errno = err_open;
		return -1;
	}
	if (!n || (size_t)n >= sizeof(target)) {
		errno = n ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	target[n] = '\0';
	return walk_splice(w, target);
}

/* Into the directory name, or along the symlink name. */
static int walk_down(struct walk *w, const char *name)
{
	struct strbuf key = STRBUF_INIT;
	int fd;

	strbuf_addf(&key, "%s%s%s", w->real.buf, w->real.len ? "/" : "", name);
	fd = cache_find(w->rd, key.buf);
	strbuf_release(&key);
	if (fd >= 0) {
		walk_push(w, fd, 0, name);
		return 0;
	}
	fd = openat(top_fd(w), name, WALK_DIR_FLAGS);
	if (fd >= 0) {
		walk_push(w, fd, 1, name);
		return 0;
	}
	if (errno != ENOTDIR && errno != ELOOP)
		return -1;
	return walk_follow(w, name, errno);
}

/*
 * Walk rel from the root one component at a time, as the kernel would
 * under RESOLVE_BENEATH, but following absolute symlinks that name the
 * root.  Returns the open file and its real path below the root in
 * real, or -1 and errno.
 */
static int walk_open(struct rootdir *rd, const char *rel, struct strbuf *real)
{
	struct walk w = WALK_INIT;
	struct strbuf name = STRBUF_INIT;
	int fd = -1, saved;

	w.rd = rd;
	walk_push(&w, rd->fd, 0, NULL);
	/* an absolute rel is taken as an absolute symlink's text would be */
	if (walk_splice(&w, rel))
		goto out;
	w.links = 0;
	for (;;) {
		const char *p = w.todo.buf + w.pos;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p) {
			/* ends in a directory ("", ".", "..", "dir/") */
			fd = openat(top_fd(&w), ".", FILE_FLAGS);
			strbuf_addbuf(real, &w.real);
			break;
		}
		n = strcspn(p, "/");
		strbuf_reset(&name);
		strbuf_add(&name, p, n);
		w.pos = (size_t)(p + n - w.todo.buf);
		if (!strcmp(name.buf, "."))
			continue;
		if (!strcmp(name.buf, "..")) {
			if (walk_pop(&w))
				goto out;
			continue;
		}
		if (w.todo.buf[w.pos]) {
			if (walk_down(&w, name.buf))
				goto out;
			continue;
		}
		/* the last component: the file, or a symlink to follow */
		fd = openat(top_fd(&w), name.buf, FILE_FLAGS | O_NOFOLLOW);
		if (fd >= 0) {
			strbuf_addf(real, "%s%s%s", w.real.buf,
				    w.real.len ? "/" : "", name.buf);
			break;
		}
		if ((errno != ELOOP && errno != EMLINK) ||
		    walk_follow(&w, name.buf, errno))
			goto out;
	}
out:
	/* the cache may close a descriptor it replaces: keep our errno */
	saved = errno;
	walk_release(&w);
	strbuf_release(&name);
	errno = saved;
	return fd;
}

/* --- openat2 ---------------------------------------------------------- */

#define WALK_IT (-2)

/*
 * One openat2() call: the descriptor, -1 with errno for an answer the
 * walk would give too, or WALK_IT when only the walk can tell (and
 * after ENOSYS, for every later path too).  With resolve_links 0 the
 * kernel refuses every symlink, so the file's real path is rel's
 * lexical form.
 */
static int openat2_open(struct rootdir *rd, const char *rel, int resolve_links)
{
#ifdef HAVE_LINUX_OPENAT2_H
	struct open_how how;
	long fd;

	memset(&how, 0, sizeof(how));
	how.flags = FILE_FLAGS;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	if (!resolve_links)
		how.resolve |= RESOLVE_NO_SYMLINKS;
	fd = syscall(SYS_openat2, rd->fd, rel, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	switch (errno) {
	case ENOSYS:
		rd->walk = 1;
		return WALK_IT;
	case EXDEV:	/* "..", or an absolute link that may stay inside */
	case ELOOP:	/* a symlink (RESOLVE_NO_SYMLINKS), or a loop */
	case EAGAIN:	/* a rename raced with ".." */
	case EPERM:	/* a seccomp filter that refuses, not ENOSYS */
	case EINVAL:	/* a kernel without a flag */
	case E2BIG:
		return WALK_IT;
	}
	return -1;
#else
	rd->walk = 1;
	return WALK_IT;
#endif
}

/*
 * Whether rel is already as path_resolve() beneath "/" would spell it
 * (less the leading '/'): not empty, and no empty, "." or ".."
 * component.  The paths verify opens are, so most need no copy.
 */
static int lexically_plain(const char *rel)
{
	const char *p = rel;

	for (;;) {
		const char *e = strchrnul(p, '/');
		size_t n = (size_t)(e - p);

		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!*e)
			return 1;
		p = e + 1;
	}
}

int rootdir_openat(struct rootdir *rd, const char *rel, unsigned flags,
		   struct stat *st, struct strbuf *real)
{
	struct strbuf where = STRBUF_INIT;
	const char *rest = NULL;
	int need_real = real || (flags & ROOTDIR_NO_GIT_DIR);
	int fd = WALK_IT, saved;

	if (rd->fd < 0)
		BUG("rootdir_openat('%s') without a root", rel);
	/* openat2(), like open(), wants "." for the directory itself */
	if (!rd->walk)
		fd = openat2_open(rd, *rel ? rel : ".", !need_real);
	/* the kernel followed no symlink: rel's lexical form is real */
	if (fd >= 0 && need_real) {
		if (lexically_plain(rel))
			rest = rel;
		else
			path_resolve(&where, "/", rel);
	} else if (fd == WALK_IT)
		fd = walk_open(rd, rel, &where);
	if (fd < 0)
		goto out;
	/* path_resolve() gives "/rel"; the walk gives "rel" */
	if (!rest)
		rest = where.buf[0] == '/' ? where.buf + 1 : where.buf;
	if ((flags & ROOTDIR_NO_GIT_DIR) && path_in_git_dir(rest)) {
		close(fd);
		errno = EXDEV;
		fd = -1;
		goto out;
	}
	if (fstat(fd, st)) {
		saved = errno;
		close(fd);
		errno = saved;
		fd = -1;
		goto out;
	}
	if (real)
		strbuf_addstr(real, rest);
out:
	saved = errno;
	strbuf_release(&where);
	errno = saved;
	return fd;
}
