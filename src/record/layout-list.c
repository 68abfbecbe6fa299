/*
 * Which files are layout records (layout-list.h).
 */
#include "config.h"
#include "layout-list.h"
#include "fs/path.h"
#include "require-sidecar.h"
#include "sidecar.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct search {
	const struct layout *layouts;
	size_t nr;
	const char *top;	/* absolute */
	const char *cwd;	/* absolute */
	struct layout_list *out;
	int ret;
};

static const struct layout *layout_of(const struct search *s,
				      const char *rel)
{
	size_t i;

	if (layout_is_ahd_sidecar(rel))
		return NULL;
	for (i = 0; i < s->nr; i++)
		if (glob_match_path(s->layouts[i].records, rel))
			return &s->layouts[i];
	return NULL;
}

static void add(struct layout_list *l, const char *shown,
		const struct layout *lay)
{
	struct strbuf sc = STRBUF_INIT;
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i].shown, shown))
			return;	/* named twice, or found by two searches */
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr].shown = xstrdup(shown);
	l->items[l->nr].sidecar = NULL;
	if (lay->sidecar) {
		layout_sidecar_for(&sc, lay, shown);
		l->items[l->nr].sidecar = strbuf_detach(&sc, NULL);
	}
	l->items[l->nr++].layout = lay;
}

/* A report of a layout with sidecars whose sidecar is not there. */
static int lacks_sidecar(const struct layout *lay, const char *abs)
{
	struct strbuf sc = STRBUF_INIT;
	int lacks;

	if (!lay->sidecar)
		return 0;
	layout_sidecar_for(&sc, lay, abs);
	lacks = access(sc.buf, F_OK) != 0;
	strbuf_release(&sc);
	return lacks;
}

/* rel is a directory below the top ("" for the top itself). */
static void search_dir(struct search *s, const char *rel, int depth)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	if (depth > 64)
		return;
	strbuf_addf(&dir, "%s%s%s", s->top, *rel ? "/" : "", rel);
	d = opendir(dir.buf);
	if (!d) {
		s->ret = error("cannot read directory '%s': %s", dir.buf,
			       strerror(errno));
		strbuf_release(&dir);
		return;
	}
	while ((de = readdir(d))) {
		struct strbuf sub = STRBUF_INIT, abs = STRBUF_INIT;
		struct stat st;
		const struct layout *lay;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git") ||
		    !strcmp(de->d_name, "node_modules"))
			continue;
		strbuf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		strbuf_addf(&abs, "%s/%s", s->top, sub.buf);
		/* lstat: symlinked directories are not followed. */
		if (lstat(abs.buf, &st))
			s->ret = error("cannot look at '%s': %s", abs.buf,
				       strerror(errno));
		else if (S_ISDIR(st.st_mode))
			search_dir(s, sub.buf, depth + 1);
		else if (S_ISREG(st.st_mode) && (lay = layout_of(s, sub.buf)) &&
			 !lacks_sidecar(lay, abs.buf)) {
			struct strbuf shown = STRBUF_INIT;

			path_relative(&shown, s->cwd, abs.buf);
			add(s->out, shown.buf, lay);
			strbuf_release(&shown);
		}
		strbuf_release(&sub);
		strbuf_release(&abs);
	}
	closedir(d);
	strbuf_release(&dir);
}

/* Does the report at path have AHD's sidecar beside it? */
static int has_ahd_sidecar(const char *path)
{
	struct strbuf sc = STRBUF_INIT;
	int has;

	sidecar_path_for(&sc, path);
	has = !access(sc.buf, F_OK);
	strbuf_release(&sc);
	return has;
}

/* An operand: 1 when it is a record, taken; 0 to leave it in argv. */
static int operand(struct search *s, const char *arg)
{
	/* symlinks resolved, as the top is */
	char *abs = realpath(arg, NULL);
	const char *rel;
	const struct layout *lay;
	struct stat st;
	int taken = 0;

	if (!abs || stat(abs, &st))
		goto out;	/* the sidecar search says why */
	rel = path_inside(abs, s->top);
	if (!rel)
		goto out;
	if (S_ISDIR(st.st_mode))
		search_dir(s, rel, 0);
	else if (S_ISREG(st.st_mode) && (lay = layout_of(s, rel))) {
		add(s->out, arg, lay);
		/*
		 * A report that has AHD's sidecar is AHD's report too: left
		 * for the sidecar search as well, so that a layout declared
		 * over it cannot stand in for the sidecar it has.
		 */
		taken = !has_ahd_sidecar(arg);
	}
out:
	free(abs);
	return taken;
}

static int cmp_record(const void *a, const void *b)
{
	return strcmp(((const struct layout_record *)a)->shown,
		      ((const struct layout_record *)b)->shown);
}

int layout_list_collect(struct layout_list *out, const struct layout *layouts,
			size_t nr, const char *top, int *argc, char **argv,
			int all)
{
	char *cwd;
	struct search s;
	int i, kept = 0;
	size_t first;

	if (!nr)
		return 0;
	cwd = realpath(".", NULL);
	if (!cwd)
		return error("cannot find the current directory: %s",
			     strerror(errno));
	memset(&s, 0, sizeof(s));
	s.layouts = layouts;
	s.nr = nr;
	s.top = top;
	s.cwd = cwd;
	s.out = out;
	for (i = 0; i < *argc; i++) {
		first = out->nr;
		if (operand(&s, argv[i]))
			out->taken++;
		else
			argv[kept++] = argv[i];
		/* a directory's records in name order, after the operand */
		if (out->nr - first > 1)
			qsort(out->items + first, out->nr - first,
			      sizeof(*out->items), cmp_record);
	}
	*argc = kept;
	if (all || (!kept && !out->taken)) {
		first = out->nr;
		search_dir(&s, "", 0);
		/* items is NULL when nothing was found: qsort() may not see it */
		if (out->nr - first > 1)
			qsort(out->items + first, out->nr - first,
			      sizeof(*out->items), cmp_record);
	}
	free(cwd);
	return s.ret;
}

void layout_list_release(struct layout_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->items[i].shown);
		free(l->items[i].sidecar);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

const struct layout *layout_list_find(const struct layout *layouts,
				      size_t nr, const char *top,
				      const char *path)
{
	struct search s;
	char *abs;
	const char *rel;
	const struct layout *lay = NULL;

	if (!nr)
		return NULL;
	memset(&s, 0, sizeof(s));
	s.layouts = layouts;
	s.nr = nr;
	/* symlinks resolved, as the top is */
	abs = realpath(path, NULL);
	rel = abs ? path_inside(abs, top) : NULL;
	if (rel && *rel)
		lay = layout_of(&s, rel);
	free(abs);
	return lay;
}
