/*
 * Files written beneath a root with one flush to disk (writebatch.h).
 */
#include "config.h"
#include "writebatch.h"
#include "write.h"
#include "strbuf.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Descriptors left for the rest of the process (the repository's, ...),
 * and for the batch's root with the directories its walk keeps.
 */
#define FDS_KEPT (32 + 1 + ROOTDIR_CACHE)

void write_batch_init(struct write_batch *b, const char *root,
		      write_batch_done_fn done)
{
	struct write_root wr = WRITE_ROOT_INIT;
	struct rlimit rl;

	memset(b, 0, sizeof(*b));
	b->wr = wr;
	b->root = root;
	b->done = done;
	b->max_dirs = WRITE_BATCH_MAX;
	/*
	 * One descriptor per directory held, and no more than half of what
	 * is left: under a low limit (ulimit -n 256) a batch of files in
	 * many directories would fail its last ones with EMFILE.
	 */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < FDS_KEPT + 2 * WRITE_BATCH_MAX)
		b->max_dirs = rl.rlim_cur > FDS_KEPT + 2 ?
			      (size_t)(rl.rlim_cur - FDS_KEPT) / 2 : 1;
}

/*
 * Hold af's directory for the batch: the one held already when it is
 * the same directory (device and inode: renaming into either is the
 * same), else af's own, which the batch takes.  af borrows it either
 * way.  Returns 0, or -1 with a reason in err.
 */
static int share_dir(struct write_batch *b, struct atomic_file *af,
		     struct strbuf *err)
{
	struct stat st;
	size_t i;

	if (fstat(af->dirfd, &st) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", af->path,
			    strerror(errno));
		return -1;
	}
	for (i = 0; i < b->nr_dirs; i++)
		if (b->dirs[i].dev == st.st_dev && b->dirs[i].ino == st.st_ino)
			break;
	if (i < b->nr_dirs) {
		close(af->dirfd);
	} else {
		b->dirs[i].dev = st.st_dev;
		b->dirs[i].ino = st.st_ino;
		b->dirs[i].fd = af->dirfd;
		b->nr_dirs++;
	}
	af->dirfd = b->dirs[i].fd;
	af->dirfd_borrowed = 1;
	return 0;
}

/*
 * Close f's temporary once written, noting the file system it is on:
 * the batch holds no descriptor per file.  0, or -1 with err set.
 */
static int let_go(struct write_batch_file *f, struct strbuf *err)
{
	struct stat st;

	if (fstat(f->af.fd, &st) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", f->path,
			    strerror(errno));
		return -1;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->ctime = st.st_ctim;
	return atomic_file_close_fd(&f->af, err);
}

void write_batch_add(struct write_batch *b, const char *path,
		     const char *buf, size_t len, mode_t mode, void *data)
{
	struct write_batch_file *f;
	struct strbuf err = STRBUF_INIT;

	if (b->nr == WRITE_BATCH_MAX || b->nr_dirs == b->max_dirs)
		write_batch_commit(b);
	f = &b->v[b->nr];
	memset(f, 0, sizeof(*f));
	/*
	 * Nothing open yet: a file refused before its open (outside the
	 * root, say) is aborted below, which must not close descriptor 0.
	 */
	f->af.fd = -1;
	f->af.dirfd = -1;
	/* the atomic file keeps the path it was given */
	f->path = xstrdup(path);
	f->data = data;
	/* a root that cannot be opened fails this file; the next tries again */
	if ((b->wr.rd.fd < 0 &&
	     write_root_open(&b->wr, b->root, f->path, &err) < 0) ||
	    write_root_open_file(&f->af, &b->wr, f->path, mode, &err) < 0) {
		if (b->wr.rd.fd < 0)
			write_root_release(&b->wr);
		b->done(data, path, err.buf);
		goto fail;
	}
	if (share_dir(b, &f->af, &err) < 0) {
		b->done(data, path, err.buf);
		goto fail;
	}
	f->af.sync_later = 1;
	/*
	 * The open looked at the target (an existing one is replaced in
	 * place, its mode and owner kept): nothing there, nothing to be
	 * replaced at the commit either.
	 */
	f->create = !f->af.in_place;
	if (atomic_file_write(&f->af, buf, len, &err) < 0 ||
	    atomic_file_prepare(&f->af, &err) < 0 || let_go(f, &err) < 0) {
		b->done(data, path, err.buf);
		goto fail;
	}
	b->nr++;
	strbuf_release(&err);
	return;
fail:
	atomic_file_abort(&f->af);
	free(f->path);
	strbuf_release(&err);
}

/* syncfs(2) of the file system fd is on, or where there is none, fsync(2). */
static int flush_fd(int fd, int *whole)
{
	*whole = 0;
#ifdef HAVE_SYNCFS
	if (!syncfs(fd)) {
		*whole = 1;
		return 0;
	}
	if (errno != ENOSYS)
		return -1;
#endif
	return fsync(fd);
}

/*
 * Open f's temporary again by its name, to flush it: the batch closed
 * it.  The name leads through directories that may have changed since
 * (one moved aside, a symlink in its place): what it opens must be the
 * very file written, or f's bytes are not the ones flushed, and install
 * would put what is there now in place.  Without blocking: a FIFO
 * planted at the name must not hang the run.  The descriptor, or -1
 * with why set.
 */
static int reopen_tmp(const struct write_batch_file *f, struct strbuf *why)
{
	struct stat st;
	int fd = open(f->af.tmp.buf,
		      O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		strbuf_addstr(why, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		strbuf_addstr(why, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_dev != f->dev ||
	    st.st_ino != f->ino || st.st_ctim.tv_sec != f->ctime.tv_sec ||
	    st.st_ctim.tv_nsec != f->ctime.tv_nsec) {
		strbuf_addf(why, "its temporary %s was replaced meanwhile",
			    f->af.tmp.buf);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Every prepared temporary on disk: syncfs(2) once per file system they
 * are on, or where there is none, fsync(2) of each.  Beneath one root is
 * not on one file system: a directory may be a mount point, and a
 * temporary goes beside its target when the git directory is elsewhere
 * (atomicfile.h).  A temporary is opened again by its name for that
 * (the batch closed it).  Returns 0, or -1 with why set.
 */
static int flush_all(struct write_batch *b, struct strbuf *why)
{
	dev_t synced[WRITE_BATCH_MAX];
	size_t i, j, nr_synced = 0;
	int fd, r, whole;

	for (i = 0; i < b->nr; i++) {
		for (j = 0; j < nr_synced && synced[j] != b->v[i].dev; j++)
			;
		if (j < nr_synced)
			continue;
		fd = reopen_tmp(&b->v[i], why);
		if (fd < 0)
			return -1;
		r = flush_fd(fd, &whole);
		if (r < 0)
			strbuf_addstr(why, strerror(errno));
		close(fd);
		if (r < 0)
			return -1;
		if (whole)
			synced[nr_synced++] = b->v[i].dev;
	}
	return 0;
}

void write_batch_commit(struct write_batch *b)
{
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	int flushed = flush_all(b, &why);
	size_t i;

	for (i = 0; i < b->nr; i++) {
		struct write_batch_file *f = &b->v[i];

		strbuf_reset(&err);
		if (flushed < 0) {
			/* not on disk: not put in place */
			strbuf_addf(&err, "cannot write '%s': flushing it to "
				    "disk: %s", f->path, why.buf);
			atomic_file_abort(&f->af);
			b->done(f->data, f->path, err.buf);
		} else if (!f->create && b->may_replace &&
			   b->may_replace(f->data, f->path, &err)) {
			atomic_file_abort(&f->af);
			b->done(f->data, f->path, err.buf);
		} else if (atomic_file_install(&f->af, f->create, &err) < 0) {
			atomic_file_abort(&f->af);
			b->done(f->data, f->path, err.buf);
		} else
			b->done(f->data, f->path, NULL);
		free(f->path);
	}
	b->nr = 0;
	for (i = 0; i < b->nr_dirs; i++)
		close(b->dirs[i].fd);
	b->nr_dirs = 0;
	write_root_release(&b->wr);
	strbuf_release(&err);
	strbuf_release(&why);
}
