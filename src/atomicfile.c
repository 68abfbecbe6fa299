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

int write_file_atomic(const char *path, const char *buf, size_t len,
		      mode_t mode, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	mode_t mask;
	int fd, ret = -1;
	size_t off = 0;

	strbuf_addf(&tmp, "%s.tmp-XXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		strbuf_addf(err, "cannot create a file beside '%s': %s", path,
			    strerror(errno));
		goto out;
	}
	/* mkstemp makes 0600; apply the umask as open(2) would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, mode & ~mask) < 0)
		goto fail;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		off += (size_t)n;
	}
	if (fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp.buf, path) < 0)
		goto fail;
	ret = 0;
	goto out;
fail:
	strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
out:
	strbuf_release(&tmp);
	return ret;
}
