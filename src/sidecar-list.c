/*
 * Which sidecars a run covers (see sidecar-list.h).
 */
#include "config.h"
#include "sidecar-list.h"
#include "repo.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
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

/* Every *.replay.json below dir, not descending into .git or node_modules. */
static int find_sidecars(struct path_list *out, const char *dir, int depth)
{
	DIR *d;
	struct dirent *de;

	if (depth > 64)
		return 0;	/* a directory loop we were not told about */
	d = opendir(dir);
	if (!d)
		return error("cannot read directory '%s': %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

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
			if (S_ISDIR(st.st_mode))
				find_sidecars(out, path.buf, depth + 1);
			else if (ends_with(de->d_name, ".replay.json"))
				path_list_add(out, path.buf);
		}
		strbuf_release(&path);
	}
	closedir(d);
	return 0;
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
		if (!found.nr && access(scope.buf, F_OK))
			ret = error("cannot read '%s': %s", scope.buf,
				    strerror(errno));
		if (find_sidecars(&found, scope.buf, 0))
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

			if (find_sidecars(&found, argv[i], 0))
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
}
