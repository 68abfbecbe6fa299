/*
 * fs/dirlist.h: a listing answers as lstat() and access() would, for a
 * file, a directory, a symlink to each, a dangling symlink and a name
 * that is not there.
 */
#include "config.h"
#include "fs/dirlist.h"
#include "strbuf.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What access(dir/name, F_OK) says, as 0 or the errno. */
static int real_access(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	int ret;

	strbuf_addf(&p, "%s/%s", dir, name);
	ret = access(p.buf, F_OK) ? errno : 0;
	strbuf_release(&p);
	return ret;
}

static int listed_access(const struct dirlist *l, const char *name)
{
	return dirlist_access(l, name) ? errno : 0;
}

/* The type the listing gives name, checked against lstat(). */
static void check_type(const struct dirlist *l, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	size_t i;

	strbuf_addf(&p, "%s/%s", l->path, name);
	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i].name, name))
			break;
	if (i == l->nr || lstat(p.buf, &st)) {
		ok(0, "%s is listed and there", name);
		goto out;
	}
	/* DT_UNKNOWN is always allowed: the callers ask then */
	ok(l->v[i].type == DT_UNKNOWN ||
	   (l->v[i].type == DT_DIR) == !!S_ISDIR(st.st_mode),
	   "%s: the listing's type agrees with lstat()", name);
out:
	strbuf_release(&p);
}

int main(void)
{
	static const char *const names[] = {
		"file", "dir", "to-file", "to-dir", "dangling", "absent",
		"file.md", "file.replay.json",
	};
	char *dir;
	struct strbuf p = STRBUF_INIT;
	struct dirlist l = DIRLIST_INIT;
	size_t i;
	int fd;

	plan_lazy();
	if (!(dir = tap_tmpdir("t-dirlist")))
		return 0;
	strbuf_addf(&p, "%s/file", dir);
	fd = open(p.buf, O_CREAT | O_WRONLY, 0644);
	if (fd >= 0)
		close(fd);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/dir", dir);
	mkdir(p.buf, 0755);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/to-file", dir);
	ok(!symlink("file", p.buf), "a symlink to the file");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/to-dir", dir);
	ok(!symlink("dir", p.buf), "a symlink to the directory");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/dangling", dir);
	ok(!symlink("nowhere", p.buf), "a dangling symlink");

	ok(!dirlist_read(&l, dir), "the directory is listed");
	is_int(5, (long long)l.nr, "five entries, without . and ..");
	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		is_int(real_access(dir, names[i]), listed_access(&l, names[i]),
		       "access(%s) as the listing answers it", names[i]);
	check_type(&l, "file");
	check_type(&l, "dir");
	check_type(&l, "to-dir");
	dirlist_release(&l);

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/absent", dir);
	ok(dirlist_read(&l, p.buf) && errno == ENOENT,
	   "a directory that is not there: -1 and ENOENT");
	dirlist_release(&l);

	tap_rmtree(dir);
	free(dir);
	strbuf_release(&p);
	return 0;
}
