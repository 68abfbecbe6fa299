#include "config.h"
#include "readfile.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

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

int read_file_limited(struct strbuf *out, const char *path, size_t max,
		      struct strbuf *err)
{
	FILE *fp = input_open(path, err);
	size_t start = out->len;
	struct stat st;
	int ret = 0;

	if (!fp)
		return INPUT_EOPEN;
	/*
	 * Size the buffer once for regular files (peak memory matters), and
	 * refuse one over the limit without reading it.
	 */
	if (!fstat(fileno(fp), &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		if (max && (uintmax_t)st.st_size > max) {
			input_close(fp);
			strbuf_addstr(err, "larger than the limit of ");
			format_size(err, max);
			strbuf_addstr(err, " for structured inputs");
			return INPUT_ETOOBIG;
		}
		strbuf_grow(out, (size_t)st.st_size + 1);
	}
	for (;;) {
		size_t n;

		if (out->alloc - out->len < 2)
			strbuf_grow(out, 64 * 1024);
		n = fread(out->buf + out->len, 1, out->alloc - out->len - 1, fp);
		out->len += n;
		out->buf[out->len] = '\0';
		if (max && out->len - start > max) {
			strbuf_addstr(err, "larger than the limit of ");
			format_size(err, max);
			strbuf_addstr(err, " for structured inputs");
			ret = INPUT_ETOOBIG;
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
	input_close(fp);
	if (ret)
		strbuf_setlen(out, start);
	return ret;
}
