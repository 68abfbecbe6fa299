/*
 * Which sidecars a run covers (see sidecar-list.h).
 */
#include "config.h"
#include "sidecar-list.h"
#include "git/repo.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void path_list_add(struct path_list *l, const char *p)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = xstrdup(p);
}

static void path_list_release(struct path_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_error(struct path_list *errors, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int list_error(struct path_list *errors, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(errors->items, errors->nr + 1, errors->alloc);
	errors->items[errors->nr++] = strbuf_detach(&sb, NULL);
	return -1;
}

/* Search depth; symlinks are not followed, so only a real tree is this deep. */
#define FIND_MAX_DEPTH 64

/*
 * Every *.replay.json below dir, not descending into .git or
 * node_modules.  Returns -1 when part of it could not be searched (the
 * reasons in errors), after searching the rest.
 */
static int find_sidecars(struct path_list *out, struct path_list *errors,
			 const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (depth > FIND_MAX_DEPTH)
		return list_error(errors, "'%s' is more than %d directories "
				  "deep; not searched", dir, FIND_MAX_DEPTH);
	d = opendir(dir);
	if (!d)
		return list_error(errors, "cannot read directory '%s': %s",
				  dir, strerror(errno));
	for (;;) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				ret = list_error(errors, "cannot read directory "
						 "'%s': %s", dir,
						 strerror(errno));
			break;
		}

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git") ||
		    !strcmp(de->d_name, "node_modules"))
			continue;
		if (!strcmp(dir, "."))
			strbuf_addstr(&path, de->d_name);
		else
			strbuf_addf(&path, "%s/%s", dir, de->d_name);
		/* lstat: symlinked directories are not followed. */
		if (!lstat(path.buf, &st)) {
			if (S_ISDIR(st.st_mode)) {
				if (find_sidecars(out, errors, path.buf,
						  depth + 1))
					ret = -1;
			} else if (ends_with(de->d_name, ".replay.json"))
				path_list_add(out, path.buf);
		} else if (errno != ENOENT) {
			/* a directory we may list but not enter, say */
			ret = list_error(errors, "cannot look at '%s': %s",
					 path.buf, strerror(errno));
		}
		strbuf_release(&path);
	}
	closedir(d);
	return ret;
}

/* The repository's top (or the current directory) for --all. */
static void default_scope(struct strbuf *out)
{
	struct strbuf wt = STRBUF_INIT;
	char *rcwd;

	if (repo_worktree_of(&wt, ".")) {
		rcwd = realpath(".", NULL);
		/* Show paths relative to the current directory when we can. */
		if (rcwd && !strcmp(wt.buf, rcwd))
			strbuf_addstr(out, ".");
		else
			strbuf_addbuf(out, &wt);
		free(rcwd);
	} else
		strbuf_addstr(out, ".");
	strbuf_release(&wt);
}

/* A sidecar found on disk is shown by its report when that exists. */
static void add_found(struct sidecar_list *out, const char *sidecar)
{
	struct strbuf md = STRBUF_INIT;

	sidecar_report_for(&md, sidecar);
	path_list_add(&out->sidecars, sidecar);
	path_list_add(&out->reports, access(md.buf, F_OK) ? sidecar : md.buf);
	strbuf_release(&md);
}

/*
 * Turn operands into (report shown, sidecar) pairs.  Without operands,
 * or with --all, every sidecar of the repository: the --root directory
 * when given, else the work tree around the current directory.
 */
int sidecar_list_collect(struct sidecar_list *out, int argc, char **argv,
			 int all, const char *root)
{
	struct strbuf scope = STRBUF_INIT;
	int i, ret = 0;

	if (!argc || all) {
		struct path_list found = { NULL, 0, 0 };
		size_t k;

		if (root)
			strbuf_addstr(&scope, root);
		else
			default_scope(&scope);
		if (access(scope.buf, F_OK))
			ret = list_error(&out->errors, "cannot read '%s': %s",
					 scope.buf, strerror(errno));
		else if (find_sidecars(&found, &out->errors, scope.buf, 0))
			ret = -1;
		if (found.nr)
			qsort(found.items, found.nr, sizeof(*found.items),
			      cmp_str);
		for (k = 0; k < found.nr; k++)
			add_found(out, found.items[k]);
		path_list_release(&found);
	}
	for (i = 0; i < argc; i++) {
		struct stat st;
		struct strbuf sc = STRBUF_INIT;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			struct path_list found = { NULL, 0, 0 };
			size_t k;

			if (find_sidecars(&found, &out->errors, argv[i], 0))
				ret = -1;
			if (found.nr)
				qsort(found.items, found.nr,
				      sizeof(*found.items), cmp_str);
			for (k = 0; k < found.nr; k++)
				add_found(out, found.items[k]);
			path_list_release(&found);
			continue;
		}
		sidecar_path_for(&sc, argv[i]);
		path_list_add(&out->sidecars, sc.buf);
		path_list_add(&out->reports, argv[i]);
		strbuf_release(&sc);
	}
	strbuf_release(&scope);
	return ret;
}

void sidecar_list_release(struct sidecar_list *l)
{
	path_list_release(&l->reports);
	path_list_release(&l->sidecars);
	path_list_release(&l->errors);
}
