#include "config.h"
#include "rootfile.h"
#include "fs/path.h"
#include "fs/readfile.h"
#include "fs/rootdir.h"
#include "root.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "cannot open: <why>", and the status that goes with errno e. */
static int cannot_open(struct strbuf *err, int e)
{
	/* a socket opens with ENXIO: to a reader it is not a file at all */
	if (e == ENXIO)
		strbuf_addstr(err, "cannot open: not a regular file");
	else
		strbuf_addf(err, "cannot open: %s", strerror(e));
	return e == ENOENT ? ROOTFILE_MISSING : ROOTFILE_BAD;
}

/*
 * --allow-outside-root: the file as named, symlinks followed wherever
 * they lead.  Its real path is looked up only when the caller wants it.
 */
static int open_anywhere(int *fd, struct stat *st, const char *abs,
			 struct strbuf *real, struct strbuf *err)
{
	char *resolved;

	*fd = open(abs, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0 || fstat(*fd, st))
		return cannot_open(err, errno);
	if (!real)
		return ROOTFILE_OK;
	resolved = realpath(abs, NULL);
	if (!resolved)
		return cannot_open(err, errno);
	strbuf_addstr(real, resolved);
	free(resolved);
	return ROOTFILE_OK;
}

/*
 * The last root opened beneath, kept open for the next file: verify
 * opens the sidecar, the report and the .sig of every report beneath
 * the same root, and the walk's directory cache (rootdir.h) lives as
 * long as the root does.  One per thread (rootdir is not shared).
 */
static __thread struct rootdir *kept;

static struct rootdir *root_at(const char *limit)
{
	struct rootdir init = ROOTDIR_INIT;
	struct strbuf why = STRBUF_INIT;
	int saved;

	if (kept && !strcmp(kept->path.buf, limit))
		return kept;
	rootfile_forget();
	kept = xmalloc(sizeof(*kept));
	*kept = init;
	if (!rootdir_open(kept, limit, &why)) {
		strbuf_release(&why);
		return kept;
	}
	saved = errno;
	strbuf_release(&why);
	rootfile_forget();
	errno = saved;
	return NULL;
}

void rootfile_forget(void)
{
	if (!kept)
		return;
	rootdir_release(kept);
	free(kept);
	kept = NULL;
}

/*
 * The file abs (absolute, lexical) opened by descriptor beneath the
 * root, or beneath its own directory when it is named outside the root
 * (rootdir.h): the kernel, or the walk where it cannot, keeps every
 * symlink on the way inside and out of .git.
 */
static int open_contained(int *fd, struct stat *st, const char *root,
			  const char *abs, struct strbuf *real,
			  struct strbuf *err)
{
	struct rootdir *rd;
	struct strbuf dir = STRBUF_INIT, below = STRBUF_INIT;
	const char *limit = root, *rel = path_inside(abs, root);
	char *own = NULL;
	int ret;

	if (!rel) {
		path_dirname(&dir, abs);
		own = realpath(dir.buf, NULL);
		if (!own) {
			ret = cannot_open(err, errno);
			goto out;
		}
		limit = own;
		rel = strrchr(abs, '/') + 1;
	}
	rd = root_at(limit);
	if (!rd) {
		ret = cannot_open(err, errno);
		goto out;
	}
	*fd = rootdir_openat(rd, rel, ROOTDIR_NO_GIT_DIR, st, &below);
	if (*fd < 0 && errno == EXDEV) {
		ret = ROOTFILE_OUTSIDE;
		strbuf_addf(err, "leads out of the root %s or into a .git "
			    "directory (a symlink?); not read "
			    "(--allow-outside-root to allow)", limit);
		goto out;
	}
	if (*fd < 0) {
		ret = cannot_open(err, errno);
		goto out;
	}
	if (real) {
		strbuf_addstr(real, limit);
		if (below.len && strcmp(limit, "/"))
			strbuf_addch(real, '/');
		strbuf_addbuf(real, &below);
	}
	ret = ROOTFILE_OK;
out:
	free(own);
	strbuf_release(&dir);
	strbuf_release(&below);
	return ret;
}

/*
 * Open path (not "-") for reading under the rule of rootfile.h: the
 * descriptor in *fd (the caller closes it), its fstat() in st, its real
 * path in real (may be NULL).  Returns ROOTFILE_OK, or a status with
 * err and *fd -1.
 */
static int rootfile_open(int *fd, struct stat *st, const char *root,
			 const char *path, int allow_outside,
			 struct strbuf *real, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;
	int ret;

	*fd = -1;
	if (path_absolute(&abs, path, err))
		ret = ROOTFILE_BAD;
	else if (allow_outside)
		ret = open_anywhere(fd, st, abs.buf, real, err);
	else
		ret = open_contained(fd, st, root, abs.buf, real, err);
	if (!ret && !S_ISREG(st->st_mode)) {
		ret = ROOTFILE_BAD;
		strbuf_addstr(err, S_ISDIR(st->st_mode) ?
			      "cannot open: Is a directory" :
			      "cannot open: not a regular file");
	}
	if (ret && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	strbuf_release(&abs);
	return ret;
}

int rootfile_check(const char *root, const char *path, int allow_outside,
		   struct strbuf *real, struct strbuf *err)
{
	struct stat st;
	int fd, ret;

	if (!strcmp(path, "-")) {
		if (real)
			strbuf_addstr(real, path);
		return ROOTFILE_OK;
	}
	ret = rootfile_open(&fd, &st, root, path, allow_outside, real, err);
	if (fd >= 0)
		close(fd);
	return ret;
}

int rootfile_read(struct strbuf *out, const char *root, const char *path,
		  int allow_outside, size_t max, struct strbuf *err)
{
	struct stat st;
	int fd, ret;

	if (!strcmp(path, "-"))
		return read_file_limited(out, path, max, err) ?
		       ROOTFILE_BAD : ROOTFILE_OK;
	ret = rootfile_open(&fd, &st, root, path, allow_outside, NULL, err);
	if (!ret && read_fd_limited(out, fd, &st, max, err))
		ret = ROOTFILE_BAD;
	return ret;
}

int rootfile_root_for(struct strbuf *root, const char *path,
		      const char *given, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	int ret;

	path_dirname(&dir, path);
	ret = root_find(root, dir.buf, given, err);
	strbuf_release(&dir);
	return ret;
}
