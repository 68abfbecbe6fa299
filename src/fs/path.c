#include "config.h"
#include "path.h"
#include "usage.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/*
 * The current directory, asked once: the tool never changes its own
 * (replay's chdir() is in the child it forks), and verify makes a path
 * absolute for every file of every report.  Threads share it.
 */
static char cwd_buf[PATH_MAX];
static int cwd_errno;	/* 0: cwd_buf holds it */
/* once, not a mutex: a lock per path had the threads take turns on it */
static pthread_once_t cwd_once = PTHREAD_ONCE_INIT;

static void ask_cwd(void)
{
	cwd_errno = getcwd(cwd_buf, sizeof(cwd_buf)) ? 0 : errno;
}

static int current_dir(const char **out)
{
	pthread_once(&cwd_once, ask_cwd);
	*out = cwd_buf;
	return cwd_errno;
}

int path_absolute(struct strbuf *out, const char *path, struct strbuf *err)
{
	const char *cwd;
	int e;

	if (path[0] == '/') {
		path_resolve(out, NULL, path);
		return 0;
	}
	e = current_dir(&cwd);
	if (e) {
		strbuf_addf(err, "cannot get the current directory: %s",
			    strerror(e));
		return -1;
	}
	path_resolve(out, cwd, path);
	return 0;
}

void path_resolve(struct strbuf *out, const char *base, const char *path)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p;
	size_t start = out->len;

	if (path[0] != '/') {
		if (!base || base[0] != '/')
			BUG("path_resolve: relative '%s' from relative '%s'",
			    path, base ? base : "");
		strbuf_addstr(&tmp, base);
		strbuf_addch(&tmp, '/');
	}
	strbuf_addstr(&tmp, path);
	/* the result is never longer: one allocation at most */
	strbuf_grow(out, tmp.len + 1);

	/* Collapse components: "", "." skip, ".." pops. */
	p = tmp.buf;
	while (*p) {
		size_t n = (size_t)(strchrnul(p, '/') - p);

		if (!n || (n == 1 && p[0] == '.'))
			;
		else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (out->len > start && out->buf[out->len - 1] != '/')
				out->len--;
			if (out->len > start)
				out->len--;
			out->buf[out->len] = '\0';
		} else {
			strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	if (out->len == start)
		strbuf_addch(out, '/');
	strbuf_release(&tmp);
}

int path_is_within(const char *path, const char *dir)
{
	return path_inside(path, dir) != NULL;
}

const char *path_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	/* "/" and "/a/" compare as "" and "/a": what follows must be a '/' */
	if (n && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) || (path[n] != '/' && path[n]))
		return NULL;
	path += n;
	while (*path == '/')
		path++;
	return path;
}

int path_in_git_dir(const char *rel)
{
	const char *p = rel;

	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 4 && !strncasecmp(p, ".git", 4))
			return 1;
		p += n;
	}
	return 0;
}

void path_dirname(struct strbuf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		strbuf_addch(out, '.');
	else
		strbuf_add(out, path,
			   slash == path ? 1 : (size_t)(slash - path));
}

int path_parent(struct strbuf *path)
{
	const char *slash = strrchr(path->buf, '/');

	if (!slash || !strcmp(path->buf, "/"))
		return -1;
	strbuf_setlen(path, slash == path->buf ? 1 :
		      (size_t)(slash - path->buf));
	return 0;
}

void path_relative(struct strbuf *out, const char *from, const char *to)
{
	size_t i = 0, last = 0;

	if (!strcmp(from, "/"))
		from = "";
	while (from[i] && from[i] == to[i]) {
		if (from[i] == '/')
			last = i;
		i++;
	}
	if (!from[i] && (to[i] == '/' || !to[i]))
		last = i;
	else if (!from[i] && !*from)
		last = 0;
	/* One ".." per component of from past the common part. */
	for (i = last; from[i]; i++)
		if (from[i] == '/')
			strbuf_addstr(out, out->len ? "/.." : "..");
	if (to[last] == '/')
		last++;
	if (to[last]) {
		if (out->len)
			strbuf_addch(out, '/');
		strbuf_addstr(out, to + last);
	}
}
