/*
 * Writing a file so that readers see the old bytes or the new ones,
 * never a half-written file.
 */
#include "config.h"
#include "atomicfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(struct atomic_file *af, struct strbuf *err)
{
	strbuf_addf(err, "cannot write '%s': %s", af->path, strerror(errno));
	atomic_file_abort(af);
	return -1;
}

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct strbuf *err)
{
	af->path = path;
	af->mode = mode;
	strbuf_init(&af->tmp, 0);
	strbuf_addf(&af->tmp, "%s.tmp-XXXXXX", path);
	af->fd = mkstemp(af->tmp.buf);
	if (af->fd < 0) {
		strbuf_addf(err, "cannot create a file beside '%s': %s", path,
			    strerror(errno));
		strbuf_release(&af->tmp);
		return -1;
	}
	return 0;
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

int atomic_file_commit(struct atomic_file *af, struct strbuf *err)
{
	mode_t mask;

	/* mkstemp makes 0600; apply the umask as open(2) would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(af->fd, af->mode & ~mask) < 0 || fsync(af->fd) < 0)
		return fail(af, err);
	if (close(af->fd) < 0) {
		af->fd = -1;
		return fail(af, err);
	}
	af->fd = -1;
	if (rename(af->tmp.buf, af->path) < 0)
		return fail(af, err);
	strbuf_release(&af->tmp);
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af->tmp.len)
		return;
	if (af->fd >= 0)
		close(af->fd);
	af->fd = -1;
	unlink(af->tmp.buf);
	strbuf_release(&af->tmp);
}

int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, struct strbuf *err)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path, mode, err) < 0 ||
	    atomic_file_write(&af, buf, len, err) < 0)
		return -1;
	return atomic_file_commit(&af, err);
}
