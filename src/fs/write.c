/*
 * Writing files under the containment reads have (write.h).
 */
#include "config.h"
#include "write.h"
#include "path.h"
#include "readfile.h"
#include "rootdir.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How much of an existing output file is read to recognise it as ours. */
#define RECOGNISE_MAX (256u << 20)

/*
 * The reason rel (beneath root) was refused as leading out: the first
 * symlink on the way, by name and target, found by lstat() of each
 * prefix (for the message only: the refusal itself was the kernel's or
 * the walk's, by descriptor).
 */
static void say_leaves(struct strbuf *err, const char *path,
		       const char *root, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	const char *s = rel;
	char target[PATH_MAX];
	struct stat st;
	ssize_t n = -1;

	strbuf_addf(err, "cannot write '%s': ", path);
	while (*s) {
		const char *e = strchrnul(s, '/');

		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%.*s", strcmp(root, "/") ? root : "",
			    (int)(e - rel), rel);
		if (!lstat(p.buf, &st) && S_ISLNK(st.st_mode)) {
			n = readlink(p.buf, target, sizeof(target) - 1);
			break;
		}
		s = *e ? e + 1 : e;
	}
	if (n >= 0) {
		target[n] = '\0';
		strbuf_addf(err, "the symlink '%.*s' -> '%s' ",
			    (int)(p.len - strlen(root) - 1),
			    p.buf + strlen(root) + 1, target);
	} else
		strbuf_addstr(err, "the path ");
	strbuf_addf(err, "leads out of the root %s or into a .git directory; "
		    "not written", root);
	strbuf_release(&p);
}

/* Split rel into its directory ("" for the root) and its last name. */
static const char *split(struct strbuf *dir, const char *rel)
{
	const char *slash = strrchr(rel, '/');

	if (!slash)
		return rel;
	strbuf_add(dir, rel, (size_t)(slash - rel));
	return slash + 1;
}

/*
 * Open the directory of rel beneath the root: its descriptor, with its
 * real path below the root in real; -1 with the reason in err.
 */
static int open_dir(struct rootdir *rd, const char *path, const char *rel,
		    const char *dir, struct strbuf *real, struct strbuf *err)
{
	struct stat st;
	int fd = rootdir_openat(rd, dir, ROOTDIR_NO_GIT_DIR, &st, real);

	if (fd < 0 && errno == EXDEV)
		say_leaves(err, path, rd->path.buf, rel);
	else if (fd < 0)
		strbuf_addf(err, "cannot write '%s': %s", path,
			    strerror(errno));
	else if (!S_ISDIR(st.st_mode)) {
		close(fd);
		fd = -1;
		strbuf_addf(err, "cannot write '%s': %s", path,
			    strerror(ENOTDIR));
	}
	return fd;
}

/*
 * The symlink at rel, beneath the root: the real path below the root
 * of the regular file it names, in real.  0, or -1 with err set.
 */
static int follow(struct rootdir *rd, const char *path, const char *rel,
		  struct strbuf *real, struct strbuf *err)
{
	struct stat st;
	int fd = rootdir_openat(rd, rel, ROOTDIR_NO_GIT_DIR, &st, real);

	if (fd < 0 && errno == EXDEV)
		say_leaves(err, path, rd->path.buf, rel);
	else if (fd < 0 && errno == ENOENT)
		strbuf_addf(err, "cannot write '%s': a symlink to a file that "
			    "does not exist; not written", path);
	else if (fd < 0)
		strbuf_addf(err, "cannot write '%s': %s", path,
			    strerror(errno));
	if (fd < 0)
		return -1;
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "cannot write '%s': a symlink to something "
			    "other than a regular file; not written", path);
		return -1;
	}
	return 0;
}

/* What the entry name in dirfd is: 0 (absent or a file to replace), -1. */
static int check_entry(int dirfd, const char *name, const char *path,
		       struct stat *st, int *exists, struct strbuf *err)
{
	*exists = 0;
	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 0;
		strbuf_addf(err, "cannot write '%s': %s", path,
			    strerror(errno));
		return -1;
	}
	*exists = 1;
	if (S_ISLNK(st->st_mode))
		return 0;
	if (!S_ISREG(st->st_mode)) {
		strbuf_addf(err, "cannot write '%s': it is not a regular "
			    "file; not replaced", path);
		return -1;
	}
	if (st->st_nlink > 1) {
		strbuf_addf(err, "'%s' has %lu hard links; replacing it would "
			    "detach it from the others, so it is left as it "
			    "is", path, (unsigned long)st->st_nlink);
		return -1;
	}
	return 0;
}

static int open_beneath(struct atomic_file *af, struct rootdir *rd,
			const char *path, const char *rel, mode_t mode,
			struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, real = STRBUF_INIT;
	struct strbuf target = STRBUF_INIT, linked = STRBUF_INIT;
	const char *name = split(&dir, rel);
	struct stat st;
	int dirfd, exists, ret = -1;

	dirfd = open_dir(rd, path, rel, dir.buf, &real, err);
	if (dirfd < 0 || check_entry(dirfd, name, path, &st, &exists, err))
		goto out;
	if (exists && S_ISLNK(st.st_mode)) {
		/* the file it names, then its directory, as for any path */
		if (follow(rd, path, rel, &linked, err))
			goto out;
		close(dirfd);
		strbuf_reset(&dir);
		strbuf_reset(&real);
		name = split(&dir, linked.buf);
		dirfd = open_dir(rd, path, linked.buf, dir.buf, &real, err);
		if (dirfd < 0 ||
		    check_entry(dirfd, name, path, &st, &exists, err))
			goto out;
		if (!exists || S_ISLNK(st.st_mode)) {
			strbuf_addf(err, "cannot write '%s': it changed while "
				    "being written; not written", path);
			goto out;
		}
	}
	if (path_in_git_dir(name)) {
		say_leaves(err, path, rd->path.buf, rel);
		goto out;
	}
	strbuf_addbuf(&target, &rd->path);
	if (strcmp(rd->path.buf, "/"))
		strbuf_addch(&target, '/');
	if (real.len)
		strbuf_addf(&target, "%s/", real.buf);
	strbuf_addstr(&target, name);
	ret = atomic_file_open_at(af, dirfd, name, target.buf,
				  exists ? &st : NULL, mode, err);
	dirfd = -1;	/* af's now, either way */
	/* af->path is shown in messages: the caller's name, which it keeps */
	if (!ret)
		af->path = path;
out:
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&dir);
	strbuf_release(&real);
	strbuf_release(&target);
	strbuf_release(&linked);
	return ret;
}

int write_root_open(struct write_root *wr, const char *root, const char *path,
		    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret = -1;

	wr->root = xstrdup(root);
	wr->real = realpath(root, NULL);
	if (!wr->real)
		strbuf_addf(err, "cannot write '%s': the root %s: %s", path,
			    root, strerror(errno));
	else if (rootdir_open(&wr->rd, wr->real, &why))
		strbuf_addf(err, "cannot write '%s': %s", path, why.buf);
	else
		ret = 0;
	strbuf_release(&why);
	return ret;
}

void write_root_release(struct write_root *wr)
{
	rootdir_release(&wr->rd);
	free(wr->root);
	free(wr->real);
	wr->root = NULL;
	wr->real = NULL;
}

int write_root_open_file(struct atomic_file *af, struct write_root *wr,
			 const char *path, mode_t mode, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;
	const char *rel;
	int ret = -1;

	if (wr->rd.fd < 0)
		BUG("write_root_open_file('%s') without a root", path);
	if (path_absolute(&abs, path, err))
		goto out;
	/* named through the root's own path, or its real one */
	rel = path_inside(abs.buf, wr->root);
	if (!rel)
		rel = path_inside(abs.buf, wr->real);
	if (!rel || !*rel) {
		strbuf_addf(err, "cannot write '%s': it is not inside the "
			    "root %s; not written", path, wr->root);
		goto out;
	}
	ret = open_beneath(af, &wr->rd, path, rel, mode, err);
out:
	strbuf_release(&abs);
	return ret;
}

int write_beneath_open(struct atomic_file *af, const char *root,
		       const char *path, mode_t mode, struct strbuf *err)
{
	struct write_root wr = WRITE_ROOT_INIT;
	int ret = -1;

	if (!write_root_open(&wr, root, path, err))
		ret = write_root_open_file(af, &wr, path, mode, err);
	write_root_release(&wr);
	return ret;
}

int write_file_beneath(const char *root, const char *path, const char *buf,
		       size_t len, mode_t mode, struct strbuf *err)
{
	struct atomic_file af;

	if (write_beneath_open(&af, root, path, mode, err) < 0)
		return -1;
	if (atomic_file_write(&af, buf, len, err) < 0)
		return -1;
	return atomic_file_commit(&af, err);
}

/* A regular file at path (st) may be replaced: empty, or ours. */
static int replaceable(const char *path, const struct stat *st,
		       const char *what, output_recognise_fn ours, void *data,
		       struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	int ret = -1;

	if (!st->st_size)
		ret = 0;
	else if (read_file_limited(&text, path, RECOGNISE_MAX, &why) < 0)
		strbuf_addf(err, "%s exists and cannot be read (%s); not "
			    "replaced", path, why.buf);
	else if (!ours(text.buf, data))
		strbuf_addf(err, "%s exists and is not an earlier %s of "
			    "ahd-replay; not replaced (remove it first)", path,
			    what);
	else
		ret = 0;
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

static int through(const struct stat *st)
{
	return S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode);
}

/* Is st the file standard output writes to (--receipt=/dev/stdout)? */
static int is_stdout(const struct stat *st)
{
	struct stat out;

	return !fstat(STDOUT_FILENO, &out) && out.st_dev == st->st_dev &&
		out.st_ino == st->st_ino;
}

/* All of buf to fd. */
static int write_fd(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int output_file_check(const char *path, const char *what,
		      output_recognise_fn ours, void *data,
		      struct strbuf *err)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		strbuf_addf(err, "cannot inspect %s: %s", path,
			    strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode) && stat(path, &st)) {
		strbuf_addf(err, "%s is a symbolic link to nothing (%s); not "
			    "written", path, strerror(errno));
		return -1;
	}
	if (through(&st) || is_stdout(&st))
		return 0;
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s is not a regular file, a FIFO or a "
			    "character device; not written", path);
		return -1;
	}
	return replaceable(path, &st, what, ours, data, err);
}

/*
 * Write buf into the FIFO or device path names, as it is: no rename.
 * The file standard output writes to is written by standard output,
 * after what is waiting there, so that neither overwrites the other
 * (a reopened /proc/self/fd/1 would start at the file's first byte).
 */
static int write_through(const char *path, const char *buf, size_t len,
			 struct strbuf *err)
{
	struct stat st;
	int fd;

	if (!stat(path, &st) && is_stdout(&st)) {
		if (fflush(stdout) || write_fd(STDOUT_FILENO, buf, len)) {
			strbuf_addf(err, "cannot write %s: %s", path,
				    strerror(errno));
			return -1;
		}
		return 0;
	}
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	/* what was opened is what was checked: never a regular file */
	if (fstat(fd, &st) || !through(&st)) {
		strbuf_addf(err, "%s changed while being written; not "
			    "written", path);
		close(fd);
		return -1;
	}
	if (write_fd(fd, buf, len)) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd)) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A new file at path, put there only if nothing appeared meanwhile. */
static int create_new(const char *path, const char *buf, size_t len,
		      mode_t mode, struct strbuf *err)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path, mode, err) < 0 ||
	    atomic_file_write(&af, buf, len, err) < 0 ||
	    atomic_file_prepare(&af, err) < 0)
		return -1;
	return atomic_file_install(&af, 1, err);
}

int write_output_file(const char *path, const char *buf, size_t len,
		      mode_t mode, const char *what, output_recognise_fn ours,
		      void *data, struct strbuf *err)
{
	struct stat lst, st;

	if (output_file_check(path, what, ours, data, err))
		return -1;
	if (lstat(path, &lst)) {
		if (errno == ENOENT)
			return create_new(path, buf, len, mode, err);
		strbuf_addf(err, "cannot inspect %s: %s", path,
			    strerror(errno));
		return -1;
	}
	if (!S_ISLNK(lst.st_mode))
		st = lst;
	else if (stat(path, &st)) {
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (through(&st) || is_stdout(&st))
		return write_through(path, buf, len, err);
	if (S_ISLNK(lst.st_mode))
		return write_file_in_place(path, buf, len, err);
	return write_file_atomic(path, buf, len, mode, err);
}
