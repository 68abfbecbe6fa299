#include "config.h"
#include "rootfile.h"
#include "fs/readfile.h"
#include "root.h"
#include "fs/path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rootfile_contains(const char *root, const char *real)
{
	const char *rel = path_inside(real, root);

	return rel && !path_in_git_dir(rel);
}

/* The directory of the absolute path abs, resolved; NULL if none. */
static char *real_dir_of(const char *abs)
{
	struct strbuf dir = STRBUF_INIT;
	char *real;

	path_dirname(&dir, abs);
	real = realpath(dir.buf, NULL);
	strbuf_release(&dir);
	return real;
}

int rootfile_check(const char *root, const char *path, int allow_outside,
		   struct strbuf *real_out, struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;
	char *real = NULL, *own = NULL;
	const char *limit = root;
	struct stat st;
	int ret;

	if (!strcmp(path, "-")) {
		if (real_out)
			strbuf_addstr(real_out, path);
		return ROOTFILE_OK;
	}
	if (path_absolute(&abs, path, err)) {
		ret = ROOTFILE_BAD;
		goto out;
	}
	real = realpath(abs.buf, NULL);
	if (!real) {
		ret = errno == ENOENT ? ROOTFILE_MISSING : ROOTFILE_BAD;
		strbuf_addf(err, "cannot open: %s", strerror(errno));
		goto out;
	}
	if (!path_is_within(abs.buf, root)) {
		own = real_dir_of(abs.buf);
		limit = own ? own : abs.buf;
	}
	if (!allow_outside && !rootfile_contains(limit, real)) {
		ret = ROOTFILE_OUTSIDE;
		strbuf_addf(err, "leads out of the root %s or into a .git "
			    "directory (a symlink?); not read "
			    "(--allow-outside-root to allow)", limit);
		goto out;
	}
	if (stat(real, &st) || !S_ISREG(st.st_mode)) {
		ret = ROOTFILE_BAD;
		strbuf_addstr(err, !stat(real, &st) && S_ISDIR(st.st_mode) ?
			      "cannot open: Is a directory" :
			      "cannot open: not a regular file");
		goto out;
	}
	if (real_out)
		strbuf_addstr(real_out, real);
	ret = ROOTFILE_OK;
out:
	free(real);
	free(own);
	strbuf_release(&abs);
	return ret;
}

int rootfile_read(struct strbuf *out, const char *root, const char *path,
		  int allow_outside, size_t max, struct strbuf *err)
{
	struct strbuf real = STRBUF_INIT;
	int ret = rootfile_check(root, path, allow_outside, &real, err);

	if (!ret && read_file_limited(out, real.buf, max, err))
		ret = ROOTFILE_BAD;
	strbuf_release(&real);
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
