/*
 * Which sidecars a run covers (see sidecar-list.h).
 */
#include "config.h"
#include "sidecar-list.h"
#include "fs/dirlist.h"
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

static void path_list_release(struct path_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
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

/* A sidecar found, with the report it is shown by. */
struct found {
	char *sidecar, *report;
	int sig_absent;
};

struct found_list {
	struct found *v;
	size_t nr, alloc;
};

static void found_add(struct found_list *out, const struct dirlist *l,
		      const char *path, const char *name)
{
	struct strbuf md = STRBUF_INIT;
	struct found *f;

	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	f = &out->v[out->nr++];
	f->sidecar = xstrdup(path);
	strbuf_addf(&md, "%s%s", name, SIDECAR_SIGNATURE_SUFFIX);
	f->sig_absent = dirlist_absent(l, md.buf);
	strbuf_reset(&md);
	/* shown by its X.md when that exists: the listing says */
	sidecar_report_for(&md, name);
	if (dirlist_access(l, md.buf))
		f->report = xstrdup(path);
	else {
		strbuf_reset(&md);
		sidecar_report_for(&md, path);
		f->report = xstrdup(md.buf);
	}
	strbuf_release(&md);
}

/*
 * What a listed entry is: 1 a directory, 0 something else, -1 gone, -2
 * not looked at (errors has why).  lstat(), so symlinked directories are
 * not followed, and only when the listing does not say.
 */
static int entry_is_dir(const struct dirlist_entry *e, const char *path,
			struct path_list *errors)
{
	struct stat st;

	if (e->type != DT_UNKNOWN)
		return e->type == DT_DIR;
	if (!lstat(path, &st))
		return !!S_ISDIR(st.st_mode);
	/* a directory we may list but not enter, say */
	if (errno == ENOENT)
		return -1;
	list_error(errors, "cannot look at '%s': %s", path, strerror(errno));
	return -2;
}

/* A regular file, not a symlink: from the listing, else lstat(). */
static int is_regular(const struct dirlist_entry *e, const char *path)
{
	struct stat st;

	if (e->type != DT_UNKNOWN)
		return e->type == DT_REG;
	return !lstat(path, &st) && S_ISREG(st.st_mode);
}

/* A markdown report at path (named name in l) without its sidecar? */
static void note_unpaired(struct path_list *unpaired,
			  const struct dirlist *l, const char *path,
			  const char *name)
{
	struct strbuf sc = STRBUF_INIT;

	sidecar_path_for(&sc, name);
	if (dirlist_access(l, sc.buf) && errno == ENOENT) {
		ALLOC_GROW(unpaired->items, unpaired->nr + 1,
			   unpaired->alloc);
		unpaired->items[unpaired->nr++] = xstrdup(path);
	}
	strbuf_release(&sc);
}

/*
 * Every *.replay.json below dir, not descending into .git or
 * node_modules, and into unpaired (when not NULL) every *.md regular
 * file without its sidecar.  Returns -1 when part of it could not be
 * searched (the reasons in errors), after searching the rest.
 */
static int find_sidecars(struct found_list *out, struct path_list *errors,
			 struct path_list *unpaired, const char *dir,
			 int depth)
{
	struct dirlist l = DIRLIST_INIT;
	struct strbuf path = STRBUF_INIT;	/* one per directory, reused */
	size_t i;
	int ret = 0;

	if (depth > FIND_MAX_DEPTH)
		return list_error(errors, "'%s' is more than %d directories "
				  "deep; not searched", dir, FIND_MAX_DEPTH);
	if (dirlist_read(&l, dir)) {
		ret = list_error(errors, "cannot read directory '%s': %s",
				 dir, strerror(errno));
		goto out;
	}
	for (i = 0; i < l.nr; i++) {
		const struct dirlist_entry *e = &l.v[i];
		int is_dir;

		if (!strcmp(e->name, ".git") ||
		    !strcmp(e->name, "node_modules"))
			continue;
		strbuf_reset(&path);
		if (strcmp(dir, ".")) {
			strbuf_addstr(&path, dir);
			strbuf_addch(&path, '/');
		}
		strbuf_addstr(&path, e->name);
		is_dir = entry_is_dir(e, path.buf, errors);
		if (is_dir > 0) {
			if (find_sidecars(out, errors, unpaired, path.buf,
					  depth + 1))
				ret = -1;
		} else if (!is_dir && ends_with(e->name, ".replay.json"))
			found_add(out, &l, path.buf, e->name);
		else if (!is_dir && unpaired && ends_with(e->name, ".md") &&
			 is_regular(e, path.buf))
			note_unpaired(unpaired, &l, path.buf, e->name);
		else if (is_dir == -2)
			ret = -1;
	}
	if (l.read_errno)
		ret = list_error(errors, "cannot read directory '%s': %s",
				 dir, strerror(l.read_errno));
out:
	strbuf_release(&path);
	dirlist_release(&l);
	return ret;
}

static int cmp_found(const void *a, const void *b)
{
	return strcmp(((const struct found *)a)->sidecar,
		      ((const struct found *)b)->sidecar);
}

/* One more pair in out (which takes the strings). */
static void add_pair(struct sidecar_list *out, char *sidecar, char *report,
		     int sig_absent)
{
	ALLOC_GROW(out->sidecars.items, out->sidecars.nr + 1,
		   out->sidecars.alloc);
	ALLOC_GROW(out->sig_absent, out->sidecars.nr + 1, out->sig_alloc);
	out->sig_absent[out->sidecars.nr] = !!sig_absent;
	out->sidecars.items[out->sidecars.nr++] = sidecar;
	ALLOC_GROW(out->reports.items, out->reports.nr + 1,
		   out->reports.alloc);
	out->reports.items[out->reports.nr++] = report;
}

/* What a search found, in name order, into out (which takes the strings). */
static void add_found(struct sidecar_list *out, struct found_list *found)
{
	size_t k;

	if (found->nr)
		qsort(found->v, found->nr, sizeof(*found->v), cmp_found);
	for (k = 0; k < found->nr; k++)
		add_pair(out, found->v[k].sidecar, found->v[k].report,
			 found->v[k].sig_absent);
	free(found->v);
	memset(found, 0, sizeof(*found));
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
		struct found_list found = { NULL, 0, 0 };

		if (root)
			strbuf_addstr(&scope, root);
		else {
			default_scope(&scope);
			out->top = xstrdup(scope.buf);
		}
		if (access(scope.buf, F_OK))
			ret = list_error(&out->errors, "cannot read '%s': %s",
					 scope.buf, strerror(errno));
		else if (find_sidecars(&found, &out->errors,
				       out->top ? &out->unpaired : NULL,
				       scope.buf, 0))
			ret = -1;
		add_found(out, &found);
	}
	for (i = 0; i < argc; i++) {
		struct stat st;
		struct strbuf sc = STRBUF_INIT;

		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode)) {
			struct found_list found = { NULL, 0, 0 };

			if (find_sidecars(&found, &out->errors, NULL, argv[i],
					  0))
				ret = -1;
			add_found(out, &found);
			continue;
		}
		sidecar_path_for(&sc, argv[i]);
		add_pair(out, strbuf_detach(&sc, NULL), xstrdup(argv[i]), 0);
	}
	strbuf_release(&scope);
	return ret;
}

void sidecar_list_release(struct sidecar_list *l)
{
	path_list_release(&l->reports);
	path_list_release(&l->sidecars);
	path_list_release(&l->errors);
	path_list_release(&l->unpaired);
	free(l->top);
	l->top = NULL;
	free(l->sig_absent);
	l->sig_absent = NULL;
	l->sig_alloc = 0;
}
