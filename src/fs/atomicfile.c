/*
 * Writing a file so that readers see the old bytes or the new ones,
 * never a half-written file, and no temporary file where git sees it.
 */
#include "config.h"
#include "atomicfile.h"
#include "path.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TMP_DIR "ahd-replay-tmp"
/* a legacy "<target>.tmp-XXXXXX" this old belongs to no running write */
#define LEGACY_STALE_SECONDS 60

/*
 * The temporary files being written, for the signal handler: fixed
 * slots of strings that stay put while registered, changed with the
 * signals blocked.
 */
#define SLOTS 544	/* a write batch's files (writebatch.h) and a few more */
static char *volatile slots[SLOTS];
static int handlers_set;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_CLEANUP_SIGNALS (sizeof(cleanup_signals) / sizeof(*cleanup_signals))
/* what was there before: another cleanup (a worktree being made) runs next */
static struct sigaction previous[NR_CLEANUP_SIGNALS];

static void on_signal(int sig)
{
	size_t i;

	for (i = 0; i < SLOTS; i++)
		if (slots[i])
			unlink(slots[i]);
	for (i = 0; i < NR_CLEANUP_SIGNALS; i++)
		if (cleanup_signals[i] == sig)
			sigaction(sig, &previous[i], NULL);
	raise(sig);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(cleanup_signals) / sizeof(*cleanup_signals); i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void set_handlers(void)
{
	size_t i;

	if (handlers_set)
		return;
	handlers_set = 1;
	for (i = 0; i < sizeof(cleanup_signals) / sizeof(*cleanup_signals); i++) {
		struct sigaction sa, old;

		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(cleanup_signals[i], NULL, &old) ||
		    old.sa_handler == SIG_IGN)
			continue;
		previous[i] = old;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

/* Register path; the caller has blocked the signals (block_signals()). */
static int slot_add(const char *path)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		if (!slots[i]) {
			slots[i] = strdup(path);
			break;
		}
	return i < SLOTS && slots[i] ? i : -1;
}

static void slot_drop(int i)
{
	sigset_t old;
	char *p;

	if (i < 0)
		return;
	block_signals(&old);
	p = slots[i];
	slots[i] = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(p);
}

static int slot_holds(const char *path)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		if (slots[i] && !strcmp(slots[i], path))
			return 1;
	return 0;
}

/*
 * mkstemp() with the file registered for the signal handler before any
 * signal can be taken: none is left behind by a signal arriving between
 * the two.  The fd, or -1; *slot is the registration, or -1.
 */
static int mkstemp_registered(char *template, int *slot)
{
	sigset_t old;
	int fd;

	set_handlers();
	block_signals(&old);
	fd = mkstemp(template);
	*slot = fd < 0 ? -1 : slot_add(template);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return fd;
}

/*
 * The git directory holding dir, on dir's file system: up from dir to
 * the first `.git` directory, or the directory a `.git` file's
 * "gitdir:" line names.  Returns 0 and the path in out, or -1.
 */
static int find_git_dir(struct strbuf *out, const char *dir)
{
	struct strbuf cur = STRBUF_INIT, dotgit = STRBUF_INIT;
	struct stat st, top;
	char *real = realpath(dir, NULL);
	int ret = -1;

	if (!real || stat(real, &top))
		goto out;
	strbuf_addstr(&cur, real);
	for (;;) {
		strbuf_reset(&dotgit);
		strbuf_addf(&dotgit, "%s/.git", strcmp(cur.buf, "/") ?
			    cur.buf : "");
		if (!lstat(dotgit.buf, &st) && S_ISDIR(st.st_mode)) {
			strbuf_addbuf(out, &dotgit);
			ret = 0;
			break;
		}
		if (!lstat(dotgit.buf, &st) && S_ISREG(st.st_mode)) {
			char line[PATH_MAX + 16];
			FILE *fp = fopen(dotgit.buf, "r");
			size_t n;

			if (fp && fgets(line, sizeof(line), fp) &&
			    !strncmp(line, "gitdir: ", 8)) {
				n = strlen(line);
				while (n && (line[n - 1] == '\n' ||
					     line[n - 1] == '\r'))
					line[--n] = '\0';
				if (line[8] != '/')
					strbuf_addf(out, "%s/", cur.buf);
				strbuf_addstr(out, line + 8);
				ret = 0;
			}
			if (fp)
				fclose(fp);
			break;
		}
		if (path_parent(&cur))
			break;
		/* a git directory on another file system is of no use */
		if (stat(cur.buf, &st) || st.st_dev != top.st_dev)
			break;
	}
out:
	free(real);
	strbuf_release(&cur);
	strbuf_release(&dotgit);
	return ret;
}

/*
 * The pid in a temporary's name "<prefix><pid>-XXXXXX", or 0 when name
 * has another shape.
 */
static long tmp_pid(const char *name)
{
	char *end;
	long pid;

	if (*name < '1' || *name > '9')
		return 0;
	pid = strtol(name, &end, 10);
	if (*end != '-' || strlen(end + 1) != 6)
		return 0;
	return pid;
}

static int alive(long pid)
{
	if (pid == (long)getpid())
		return 1;
	return !kill((pid_t)pid, 0) || errno != ESRCH;
}

/* Older versions' "<target>.tmp-XXXXXX": six letters and digits. */
static int legacy_suffix(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z')))
			return 0;
	return i == 6;
}

/* Whether dir and key were seen by this process already (and note it). */
static int seen_before(const char *dir, int key)
{
	static struct strbuf seen = STRBUF_INIT;
	const char *p = seen.buf, *e = seen.buf + seen.len;
	size_t n = strlen(dir);

	for (; p < e; p += strlen(p) + 1)
		if (p[0] == '0' + key && !strcmp(p + 1, dir))
			return 1;
	strbuf_addch(&seen, (char)('0' + key));
	strbuf_add(&seen, dir, n + 1);
	return 0;
}

/*
 * Remove the stale temporaries in dir, once per directory a run (a
 * backfill writes thousands of files into one): in our own directory
 * under the git directory (beside set to 0) every "tmp-<pid>-XXXXXX"
 * whose process has ended; beside targets, "<name>.tmp-<pid>-XXXXXX"
 * likewise and "<name>.tmp-XXXXXX" (older versions') once a minute old,
 * where <name> is a file there or a sidecar ("*.replay.json"), so that
 * a file of the user's that merely looks alike is left alone.
 */
static void remove_stale(const char *dir, int beside)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	time_t now = time(NULL);
	DIR *d;

	if (seen_before(dir, beside) || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		const char *tail;
		long pid;
		struct stat st;

		if (!beside) {
			if (strncmp(de->d_name, "tmp-", 4))
				continue;
			tail = de->d_name + 4;
		} else {
			tail = strstr(de->d_name, ".tmp-");
			while (tail && strstr(tail + 1, ".tmp-"))
				tail = strstr(tail + 1, ".tmp-");
			if (!tail || tail == de->d_name)
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%.*s", dir,
				    (int)(tail - de->d_name), de->d_name);
			if (!(path.len >= 12 &&
			      !strcmp(path.buf + path.len - 12, ".replay.json")) &&
			    lstat(path.buf, &st))
				continue;
			tail += 5;
		}
		pid = tmp_pid(tail);
		if (!pid && !(beside && legacy_suffix(tail)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		if (lstat(path.buf, &st) || !S_ISREG(st.st_mode) ||
		    slot_holds(path.buf))
			continue;
		if (pid ? !alive(pid) :
		    now - st.st_mtime >= LEGACY_STALE_SECONDS)
			unlink(path.buf);
	}
	closedir(d);
	strbuf_release(&path);
}

/*
 * Where the temporaries for files in dir go: our directory in the git
 * directory holding dir, when it is on dir's file system (in out), or
 * beside the target (out left empty).  The answer for the last dir is
 * kept: a batch writes hundreds of files into one directory, and
 * finding the git directory costs a realpath() and a stat per level.
 * A kept answer that went stale costs nothing but speed: a temporary
 * that cannot be made there is made beside the target, and one on
 * another file system is copied beside it (atomic_file_install()).
 * The kept answer is not locked: files are opened on one thread at a
 * time (verify's threads write nothing; its cache is saved after them).
 */
static void tmp_place(struct strbuf *out, const char *dir)
{
	static struct strbuf last_dir = STRBUF_INIT, last = STRBUF_INIT;
	struct strbuf git = STRBUF_INIT;
	struct stat dst, tst;

	if (last_dir.len && !strcmp(last_dir.buf, dir)) {
		strbuf_addbuf(out, &last);
		return;
	}
	if (!stat(dir, &dst) && !find_git_dir(&git, dir)) {
		strbuf_addstr(&git, "/" TMP_DIR);
		if (mkdir(git.buf, 0700) < 0 && errno != EEXIST)
			; /* beside the target, then */
		else if (!stat(git.buf, &tst) && S_ISDIR(tst.st_mode) &&
			 tst.st_dev == dst.st_dev) {
			remove_stale(git.buf, 0);
			strbuf_addbuf(out, &git);
		}
	}
	strbuf_reset(&last_dir);
	strbuf_addstr(&last_dir, dir);
	strbuf_reset(&last);
	strbuf_addbuf(&last, out);
	strbuf_release(&git);
}

/*
 * Create the temporary file for af->target: under the git directory
 * when on the same file system, else beside the target.
 */
static int make_tmp(struct atomic_file *af, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, place = STRBUF_INIT;
	int ret = -1;

	path_dirname(&dir, af->target.buf);
	strbuf_init(&af->tmp, 0);
	af->fd = -1;
	remove_stale(dir.buf, 1);
	tmp_place(&place, dir.buf);
	if (place.len) {
		strbuf_addf(&af->tmp, "%s/tmp-%ld-XXXXXX", place.buf,
			    (long)getpid());
		af->fd = mkstemp_registered(af->tmp.buf, &af->slot);
		if (af->fd < 0)
			strbuf_reset(&af->tmp);
	}
	if (af->fd < 0) {
		strbuf_addf(&af->tmp, "%s.tmp-%ld-XXXXXX", af->target.buf,
			    (long)getpid());
		af->fd = mkstemp_registered(af->tmp.buf, &af->slot);
	}
	if (af->fd < 0) {
		strbuf_addf(err, "cannot create a file beside '%s': %s",
			    af->path, strerror(errno));
		strbuf_release(&af->tmp);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&place);
	return ret;
}

static void drop_tmp(struct atomic_file *af)
{
	if (af->fd >= 0)
		close(af->fd);
	af->fd = -1;
	if (af->tmp.len)
		unlink(af->tmp.buf);
	slot_drop(af->slot);
	af->slot = -1;
	strbuf_release(&af->tmp);
}

static int fail(struct atomic_file *af, struct strbuf *err)
{
	strbuf_addf(err, "cannot write '%s': %s", af->path, strerror(errno));
	atomic_file_abort(af);
	return -1;
}

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct strbuf *err)
{
	memset(af, 0, sizeof(*af));
	af->path = path;
	af->mode = mode;
	af->slot = -1;
	af->dirfd = -1;
	strbuf_init(&af->name, 0);
	strbuf_init(&af->target, 0);
	strbuf_init(&af->tmp, 0);
	strbuf_addstr(&af->target, path);
	if (make_tmp(af, err) < 0) {
		strbuf_release(&af->target);
		return -1;
	}
	return 0;
}

int atomic_file_open_in_place(struct atomic_file *af, const char *path,
			      struct strbuf *err)
{
	struct stat st;
	char *real;

	memset(af, 0, sizeof(*af));
	af->path = path;
	af->slot = -1;
	af->fd = -1;
	af->dirfd = -1;
	strbuf_init(&af->name, 0);
	strbuf_init(&af->target, 0);
	strbuf_init(&af->tmp, 0);
	real = realpath(path, NULL);
	if (!real || stat(real, &st) < 0) {
		strbuf_addf(err, "cannot resolve '%s': %s", path,
			    strerror(errno));
		free(real);
		return -1;
	}
	strbuf_addstr(&af->target, real);
	free(real);
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "'%s' is not a regular file", path);
		goto fail;
	}
	if (st.st_nlink > 1) {
		strbuf_addf(err, "'%s' has %lu hard links; replacing it would "
			    "detach it from the others, so it is left as it "
			    "is", path, (unsigned long)st.st_nlink);
		goto fail;
	}
	af->in_place = 1;
	af->mode = st.st_mode & 07777;
	af->uid = st.st_uid;
	af->gid = st.st_gid;
	if (make_tmp(af, err) < 0)
		goto fail;
	return 0;
fail:
	strbuf_release(&af->target);
	return -1;
}

int atomic_file_open_at(struct atomic_file *af, int dirfd, const char *name,
			const char *target, const struct stat *existing,
			mode_t mode, struct strbuf *err)
{
	memset(af, 0, sizeof(*af));
	af->path = target;
	af->mode = existing ? existing->st_mode & 07777 : mode;
	af->slot = -1;
	af->fd = -1;
	af->dirfd = dirfd;
	strbuf_init(&af->name, 0);
	strbuf_addstr(&af->name, name);
	strbuf_init(&af->target, 0);
	strbuf_init(&af->tmp, 0);
	strbuf_addstr(&af->target, target);
	if (existing) {
		af->in_place = 1;
		af->uid = existing->st_uid;
		af->gid = existing->st_gid;
	}
	if (make_tmp(af, err) < 0) {
		atomic_file_abort(af);
		return -1;
	}
	return 0;
}

/* Put the temporary in place: by name in the held directory, or by path. */
static int put(struct atomic_file *af, int exclusive)
{
	if (af->dirfd >= 0)
		return exclusive ?
			linkat(AT_FDCWD, af->tmp.buf, af->dirfd,
			       af->name.buf, 0) :
			renameat(AT_FDCWD, af->tmp.buf, af->dirfd,
				 af->name.buf);
	return exclusive ? link(af->tmp.buf, af->target.buf) :
		rename(af->tmp.buf, af->target.buf);
}

int atomic_file_write(struct atomic_file *af, const void *buf, size_t len,
		      struct strbuf *err)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(af->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(af, err);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Give fd the target's mode (and, in place, its owner), then flush it. */
static int finish_fd(struct atomic_file *af, int fd, struct strbuf *err)
{
	struct stat st;
	mode_t mask;

	if (af->in_place) {
		if (fstat(fd, &st) < 0)
			return -1;
		if ((st.st_uid != af->uid || st.st_gid != af->gid) &&
		    fchown(fd, af->uid, af->gid) < 0) {
			strbuf_addf(err, "cannot keep the owner of '%s' "
				    "(uid %lu, gid %lu): %s; it is left as "
				    "it is", af->path, (unsigned long)af->uid,
				    (unsigned long)af->gid, strerror(errno));
			errno = 0;
			return -1;
		}
		/* after fchown, which clears the set-id bits */
		if (fchmod(fd, af->mode) < 0)
			return -1;
	} else {
		/* mkstemp makes 0600; apply the umask as open(2) would. */
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, af->mode & ~mask) < 0)
			return -1;
	}
	/* a batch flushes all its files at once (write_batch_commit()) */
	return af->sync_later ? 0 : fsync(fd);
}

int atomic_file_prepare(struct atomic_file *af, struct strbuf *err)
{
	size_t before = err->len;

	if (finish_fd(af, af->fd, err) < 0) {
		if (err->len > before) {
			atomic_file_abort(af);
			return -1;
		}
		return fail(af, err);
	}
	return 0;
}

/*
 * The temporary is on another file system than the target after all
 * (a bind mount shares the device number): copy it to one beside the
 * target.  Returns the new temporary's fd, or -1.
 */
static int copy_beside(struct atomic_file *af, struct strbuf *tmp,
		       int *slot, struct strbuf *err)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n;
	int fd, src = af->fd;

	/* a batch closed it after prepare (atomic_file_close_fd()) */
	if (src < 0 && (src = open(af->tmp.buf, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	strbuf_addf(tmp, "%s.tmp-%ld-XXXXXX", af->target.buf, (long)getpid());
	fd = mkstemp_registered(tmp->buf, slot);
	if (fd < 0)
		goto out;
	while ((n = pread(src, buf, sizeof(buf), off)) > 0) {
		ssize_t w = 0;

		while (w < n) {
			ssize_t k = write(fd, buf + w, (size_t)(n - w));

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				goto fail;
			w += k;
		}
		off += n;
	}
	/*
	 * The copy is made at install, after a batch's flush: it is
	 * flushed here, before it is put in place.
	 */
	if (n < 0 || finish_fd(af, fd, err) < 0 ||
	    (af->sync_later && fsync(fd) < 0))
		goto fail;
	goto out;
fail:
	close(fd);
	unlink(tmp->buf);
	slot_drop(*slot);
	fd = -1;
out:
	if (src != af->fd)
		close(src);
	return fd;
}

int atomic_file_install(struct atomic_file *af, int exclusive,
			struct strbuf *err)
{
	struct strbuf beside = STRBUF_INIT;
	size_t before = err->len;
	int r, fd, slot;

	r = put(af, exclusive);
	if (r < 0 && errno == EXDEV) {
		fd = copy_beside(af, &beside, &slot, err);
		if (fd < 0) {
			if (err->len > before) {
				atomic_file_abort(af);
				strbuf_release(&beside);
				return -1;
			}
			goto fail;
		}
		unlink(af->tmp.buf);
		slot_drop(af->slot);
		af->slot = slot;
		if (af->fd >= 0)
			close(af->fd);
		af->fd = fd;
		{
			struct strbuf t = af->tmp;

			af->tmp = beside;
			beside = t;
		}
		r = put(af, exclusive);
	}
	if (r < 0)
		goto fail;
	if (exclusive)
		unlink(af->tmp.buf);
	strbuf_reset(&af->tmp);	/* it is the target now: keep it */
	if (af->fd >= 0 && close(af->fd) < 0) {
		af->fd = -1;
		goto fail;
	}
	af->fd = -1;
	atomic_file_abort(af);
	strbuf_release(&beside);
	return 0;
fail:
	strbuf_release(&beside);
	return fail(af, err);
}

int atomic_file_close_fd(struct atomic_file *af, struct strbuf *err)
{
	int fd = af->fd;

	af->fd = -1;
	if (close(fd) < 0)
		return fail(af, err);
	return 0;
}

int atomic_file_commit(struct atomic_file *af, struct strbuf *err)
{
	if (atomic_file_prepare(af, err) < 0)
		return -1;
	return atomic_file_install(af, 0, err);
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->dirfd >= 0 && !af->dirfd_borrowed)
		close(af->dirfd);
	af->dirfd = -1;
	strbuf_release(&af->name);
	if (!af->target.alloc && !af->tmp.alloc)
		return;
	drop_tmp(af);
	strbuf_release(&af->target);
}

static int write_all(struct atomic_file *af, const char *buf, size_t len,
		     struct strbuf *err)
{
	if (atomic_file_write(af, buf, len, err) < 0)
		return -1;
	return atomic_file_commit(af, err);
}

int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, struct strbuf *err)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path, mode, err) < 0)
		return -1;
	return write_all(&af, buf, len, err);
}

int write_file_in_place(const char *path, const char *buf, size_t len,
			struct strbuf *err)
{
	struct atomic_file af;

	if (atomic_file_open_in_place(&af, path, err) < 0)
		return -1;
	return write_all(&af, buf, len, err);
}

/*
 * A hard link to the file at path under a fresh name beside it.  Not
 * the pattern of our temporaries, nor registered for the signal
 * handler: after a crash while the new file is in place it may be the
 * only copy of the old one (a private key), so nothing removes it but
 * us.  0 and its name in out, or -1.
 */
static int keep_old(struct strbuf *out, const char *path)
{
	int fd;

	strbuf_addf(out, "%s.ahd-replay-old-XXXXXX", path);
	fd = mkstemp(out->buf);
	if (fd < 0)
		return -1;
	close(fd);
	if (unlink(out->buf) < 0 || link(path, out->buf) < 0)
		return -1;
	return 0;
}

int write_files_together(const struct atomic_content *files, size_t n,
			 int replace, struct strbuf *err)
{
	struct atomic_file *af = xcalloc(n, sizeof(*af));
	struct strbuf *old = xcalloc(n, sizeof(*old));
	struct stat st;
	size_t i, opened = 0, put = 0;
	int ret = -1;

	for (i = 0; i < n; i++)
		strbuf_init(&old[i], 0);
	for (i = 0; i < n; i++)
		if (!lstat(files[i].path, &st) &&
		    (!replace || S_ISDIR(st.st_mode))) {
			strbuf_addf(err, S_ISDIR(st.st_mode) ?
				    "'%s' is a directory" :
				    "'%s' already exists (--force to replace "
				    "it)", files[i].path);
			goto out;
		}
	for (opened = 0; opened < n; opened++) {
		const struct atomic_content *f = &files[opened];

		if (atomic_file_open(&af[opened], f->path, f->mode, err) < 0)
			goto out;
		if (atomic_file_write(&af[opened], f->buf, f->len, err) < 0 ||
		    atomic_file_prepare(&af[opened], err) < 0) {
			opened++;
			goto out;
		}
	}
	for (put = 0; put < n; put++) {
		const char *path = files[put].path;

		if (replace && !lstat(path, &st) && keep_old(&old[put], path)) {
			strbuf_addf(err, "cannot keep '%s' while replacing "
				    "it: %s", path, strerror(errno));
			strbuf_reset(&old[put]);
			goto out;
		}
		if (atomic_file_install(&af[put], !replace, err) < 0)
			goto out;
	}
	ret = 0;
out:
	/* on failure, take back what was put in place */
	if (ret < 0 && put < n && old[put].len)
		unlink(old[put].buf);	/* a link to the file still there */
	while (ret < 0 && put > 0) {
		put--;
		if (old[put].len)
			rename(old[put].buf, files[put].path);
		else
			unlink(files[put].path);
	}
	for (i = 0; i < n; i++) {
		if (ret == 0 && old[i].len)
			unlink(old[i].buf);
		strbuf_release(&old[i]);
	}
	for (i = 0; i < opened; i++)
		atomic_file_abort(&af[i]);
	free(af);
	free(old);
	return ret;
}

int mkdir_p(const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret = -1;

	strbuf_addstr(&sb, path);
	for (i = 1; i <= sb.len; i++) {
		struct stat st;
		char c = sb.buf[i];

		if (c != '/' && c != '\0')
			continue;
		sb.buf[i] = '\0';
		if (mkdir(sb.buf, 0777) && errno != EEXIST) {
			strbuf_addf(err, "cannot create '%s': %s", sb.buf,
				    strerror(errno));
			goto out;
		}
		if (stat(sb.buf, &st) || !S_ISDIR(st.st_mode)) {
			strbuf_addf(err, "cannot create '%s': %s", sb.buf,
				    "not a directory");
			goto out;
		}
		sb.buf[i] = c;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}
