#include "config.h"
#include "readfile.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *input_open(const char *path, struct strbuf *err)
{
	FILE *fp;
	struct stat st;

	if (!strcmp(path, "-"))
		return stdin;
	fp = fopen(path, "rb");
	if (!fp) {
		strbuf_addf(err, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(fp), &st) && S_ISDIR(st.st_mode)) {
		fclose(fp);
		strbuf_addstr(err, "cannot open: Is a directory");
		return NULL;
	}
	return fp;
}

void input_close(FILE *fp)
{
	if (fp && fp != stdin)
		fclose(fp);
}

void format_size(struct strbuf *sb, size_t n)
{
	if (n >= ((size_t)1 << 30) && !(n % ((size_t)1 << 30)))
		strbuf_addf(sb, "%zu GiB", n >> 30);
	else if (n >= ((size_t)1 << 20) && !(n % ((size_t)1 << 20)))
		strbuf_addf(sb, "%zu MiB", n >> 20);
	else if (n >= 1024 && !(n % 1024))
		strbuf_addf(sb, "%zu KiB", n >> 10);
	else
		strbuf_addf(sb, "%zu bytes", n);
}

/* "larger than the limit of ... for structured inputs" */
static int too_big(struct strbuf *err, size_t max)
{
	strbuf_addstr(err, "larger than the limit of ");
	format_size(err, max);
	strbuf_addstr(err, " for structured inputs");
	return INPUT_ETOOBIG;
}

/* Read fp whole into out, st its fstat() or NULL; fp stays open. */
static int read_stream(struct strbuf *out, FILE *fp, const struct stat *st,
		       size_t max, struct strbuf *err)
{
	size_t start = out->len;
	struct stat own;
	int ret = 0;

	if (!st && !fstat(fileno(fp), &own))
		st = &own;
	/*
	 * Size the buffer once for regular files (peak memory matters), and
	 * refuse one over the limit without reading it.
	 */
	if (st && S_ISREG(st->st_mode) && st->st_size > 0) {
		if (max && (uintmax_t)st->st_size > max)
			return too_big(err, max);
		strbuf_grow(out, (size_t)st->st_size + 1);
	}
	for (;;) {
		size_t n;

		if (out->alloc - out->len < 2)
			strbuf_grow(out, 64 * 1024);
		n = fread(out->buf + out->len, 1, out->alloc - out->len - 1, fp);
		out->len += n;
		out->buf[out->len] = '\0';
		if (max && out->len - start > max) {
			ret = too_big(err, max);
			break;
		}
		if (n == 0) {
			if (ferror(fp)) {
				strbuf_addf(err, "read error: %s",
					    strerror(errno));
				ret = INPUT_EOPEN;
			}
			break;
		}
	}
	if (ret)
		strbuf_setlen(out, start);
	return ret;
}

int read_file_limited(struct strbuf *out, const char *path, size_t max,
		      struct strbuf *err)
{
	FILE *fp = input_open(path, err);
	int ret;

	if (!fp)
		return INPUT_EOPEN;
	ret = read_stream(out, fp, NULL, max, err);
	input_close(fp);
	return ret;
}

/*
 * Straight from the descriptor with read(2): no stdio stream, so no
 * fcntl() and no second fstat() for a file that was just opened and
 * fstat()ed (verify reads two or three small files per report).
 */
int read_fd_limited(struct strbuf *out, int fd, const struct stat *st,
		    size_t max, struct strbuf *err)
{
	size_t start = out->len;
	int ret = 0;

	if (st && S_ISREG(st->st_mode) && st->st_size > 0) {
		if (max && (uintmax_t)st->st_size > max) {
			ret = too_big(err, max);
			goto out;
		}
		strbuf_grow(out, (size_t)st->st_size + 1);
	}
	for (;;) {
		size_t want;
		ssize_t n;

		if (out->alloc - out->len < 2)
			strbuf_grow(out, 64 * 1024);
		want = out->alloc - out->len - 1;
		n = read(fd, out->buf + out->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_addf(err, "read error: %s", strerror(errno));
			ret = INPUT_EOPEN;
			break;
		}
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
		if (max && out->len - start > max) {
			ret = too_big(err, max);
			break;
		}
		if (!n)
			break;
		/*
		 * A regular file that gave fewer bytes than asked, and
		 * exactly the size fstat() said, is at its end: the read
		 * that would return 0 is one system call per file saved.
		 * One that grew meanwhile fills the buffer, and is read on.
		 */
		if (st && S_ISREG(st->st_mode) && (size_t)n < want &&
		    (uintmax_t)(out->len - start) == (uintmax_t)st->st_size)
			break;
	}
out:
	if (ret)
		strbuf_setlen(out, start);
	close(fd);
	return ret;
}
