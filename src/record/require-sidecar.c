/*
 * Which markdown reports must have a sidecar (see require-sidecar.h).
 */
#include "config.h"
#include "require-sidecar.h"
#include "fs/dirlist.h"
#include "git/repo.h"
#include "fs/readfile.h"
#include "hash/hashfile.h"
#include "layout.h"
#include "render.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void list_add(struct path_list *l, const char *p)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = xstrdup(p);
}

/* One character of a class "[...]" at *pp (past the '['), or -1: no class. */
static int class_match(const char **pp, char c)
{
	const char *p = *pp, *end = p;
	char pat[256];
	char s[2] = { c, 0 };
	size_t n;

	if (*end == '!' || *end == '^')
		end++;
	if (*end == ']')
		end++;
	while (*end && *end != ']')
		end++;
	n = (size_t)(end - p) + 2;
	if (!*end || n >= sizeof(pat))
		return -1;
	pat[0] = '[';
	memcpy(pat + 1, p, n - 1);
	pat[n] = 0;
	if (pat[1] == '^')
		pat[1] = '!';
	*pp = end + 1;
	return c != '/' && !fnmatch(pat, s, 0);
}

/*
 * Backtracking matcher; depth bounds the "**" and "*" retries so that a
 * pathological glob cannot run away.
 */
static int match(const char *p, const char *s, int depth)
{
	if (depth > 64)
		return 0;
	for (; *p; p++, s++) {
		switch (*p) {
		case '*':
			if (p[1] == '*' && (p[2] == '/' || !p[2])) {
				const char *rest = p + 2;

				if (*rest == '/') {
					/* zero or more whole components */
					rest++;
					for (;;) {
						if (match(rest, s, depth + 1))
							return 1;
						s = strchr(s, '/');
						if (!s)
							return 0;
						s++;
					}
				}
				return 1;	/* a final "**": the rest */
			}
			for (;; s++) {
				if (match(p + 1, s, depth + 1))
					return 1;
				if (!*s || *s == '/')
					return 0;
			}
		case '?':
			if (!*s || *s == '/')
				return 0;
			break;
		case '[': {
			const char *q = p + 1;
			int m;

			if (!*s)
				return 0;
			m = class_match(&q, *s);
			if (m < 0) {
				if (*s != '[')
					return 0;
				break;
			}
			if (!m)
				return 0;
			p = q - 1;
			break;
		}
		case '\\':
			if (p[1])
				p++;
			/* fall through */
		default:
			if (*s != *p)
				return 0;
		}
	}
	return !*s;
}

int glob_match_path(const char *glob, const char *path)
{
	return match(glob, path, 0);
}

/* One ahd-replay.requireSidecar value; an empty one requires nothing. */
static int add_glob(const char *value, void *data)
{
	if (value && *value)
		list_add(data, value);
	return 0;
}

int require_sidecar_globs(struct path_list *out, const char *const *given,
			  size_t n)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		list_add(out, given[i]);
	if (n)
		return 0;
	if (repo_config_multivar(NULL, "ahd-replay.requireSidecar", add_glob,
				 out, &err))
		ret = error("%s", err.buf);
	strbuf_release(&err);
	return ret;
}

void require_sidecar_globs_release(struct path_list *globs)
{
	size_t i;

	for (i = 0; i < globs->nr; i++)
		free(globs->items[i]);
	free(globs->items);
	memset(globs, 0, sizeof(*globs));
}

const char REQUIRED_BY_BLOCK[] = "(its ahd-replay block)";

struct walk {
	const struct path_list *globs;
	struct required_list *out;
	const char *top;	/* "." or the work tree's absolute path */
	int blocks;
	int ret;
};

/*
 * Does the report at path carry a replay block (render.h), or the
 * block a layout derives from a report's sidecar (layout.h)?  Either
 * was written from a sidecar, so a report that has one lost it.
 */
static int has_block(const char *path)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	size_t begin, end;
	int ret = 0;

	/* a report too large to read is no report capture wrote */
	if (!read_file_limited(&text, path, HASH_DEFAULT_MAX_SIZE, &err))
		ret = render_find_own_block(text.buf, text.len, &begin, &end,
					    &err) != 1 ||
		      !layout_find_block(text.buf, text.len, &begin, &end);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/*
 * The report rel (shown as shown), whose sidecar is not there: required
 * by a glob, or by the block it carries?  It is read only for the
 * block.
 */
static void consider_unpaired(struct walk *w, const char *rel,
			      const char *shown)
{
	const char *why = NULL;
	size_t i;

	for (i = 0; i < w->globs->nr; i++)
		if (glob_match_path(w->globs->items[i], rel))
			break;
	if (i < w->globs->nr)
		why = w->globs->items[i];
	else if (!w->blocks)
		return;
	if (why || has_block(shown)) {
		struct required *r;

		ALLOC_GROW(w->out->items, w->out->nr + 1, w->out->alloc);
		r = &w->out->items[w->out->nr++];
		r->report = xstrdup(shown);
		r->glob = why ? why : REQUIRED_BY_BLOCK;
	}
}

/* The report rel (shown as shown), listed in l, wants a sidecar? */
static void consider(struct walk *w, const struct dirlist *l,
		     const char *name, const char *rel, const char *shown)
{
	struct strbuf sc = STRBUF_INIT;

	if (!w->globs->nr && !w->blocks)
		return;
	/* the sidecar first, from the listing: a report is read only then */
	sidecar_path_for(&sc, name);
	if (dirlist_access(l, sc.buf) && errno == ENOENT)
		consider_unpaired(w, rel, shown);
	strbuf_release(&sc);
}

/*
 * An entry's type, from the listing when it says: lstat() otherwise, so
 * symlinked directories are not followed.  DT_UNKNOWN when it is gone.
 */
static unsigned char entry_type(const struct dirlist_entry *e,
				const char *path)
{
	struct stat st;

	if (e->type != DT_UNKNOWN)
		return e->type;
	if (lstat(path, &st))
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG :
	       DT_LNK;	/* not DT_UNKNOWN: something we neither enter nor read */
}

static void walk_dir(struct walk *w, const char *rel, int depth)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirlist l = DIRLIST_INIT;
	size_t i;

	if (depth > 64)
		return;
	if (!strcmp(w->top, "."))
		strbuf_addstr(&dir, *rel ? rel : ".");
	else
		strbuf_addf(&dir, "%s%s%s", w->top, *rel ? "/" : "", rel);
	/*
	 * Looking for replay blocks alone, the scope's own search has said
	 * which directories it could not read (in the JSON document, say).
	 */
	if (dirlist_read(&l, dir.buf)) {
		if (w->globs->nr)
			w->ret = error("cannot read directory '%s': %s",
				       dir.buf, strerror(errno));
		goto out;
	}
	for (i = 0; i < l.nr; i++) {
		const struct dirlist_entry *e = &l.v[i];
		struct strbuf sub = STRBUF_INIT, shown = STRBUF_INIT;
		unsigned char type;

		if (!strcmp(e->name, ".git") ||
		    !strcmp(e->name, "node_modules"))
			continue;
		strbuf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", e->name);
		if (!strcmp(w->top, "."))
			strbuf_addbuf(&shown, &sub);
		else
			strbuf_addf(&shown, "%s/%s", w->top, sub.buf);
		type = entry_type(e, shown.buf);
		if (type == DT_DIR)
			walk_dir(w, sub.buf, depth + 1);
		else if (type == DT_REG && ends_with(e->name, ".md"))
			consider(w, &l, e->name, sub.buf, shown.buf);
		strbuf_release(&sub);
		strbuf_release(&shown);
	}
out:
	dirlist_release(&l);
	strbuf_release(&dir);
}

static int cmp_required(const void *a, const void *b)
{
	return strcmp(((const struct required *)a)->report,
		      ((const struct required *)b)->report);
}

/* The sidecar search's unpaired reports, in place of a walk of the top. */
static void from_search(struct walk *w, const struct sidecar_list *searched)
{
	size_t i, skip = strcmp(w->top, ".") ? strlen(w->top) + 1 : 0;

	for (i = 0; i < searched->unpaired.nr; i++) {
		const char *shown = searched->unpaired.items[i];

		if (strlen(shown) > skip)
			consider_unpaired(w, shown + skip, shown);
	}
}

int require_sidecar_missing(struct required_list *out,
			    const struct path_list *globs, int blocks,
			    const struct sidecar_list *searched)
{
	struct strbuf top = STRBUF_INIT;
	struct walk w;
	char *cwd = NULL;

	if (!globs->nr && !blocks)
		return 0;
	memset(&w, 0, sizeof(w));
	w.blocks = blocks;
	w.globs = globs;
	w.out = out;
	if (searched && searched->top) {
		w.top = searched->top;
		from_search(&w, searched);
		goto sort;
	}
	if (repo_worktree_of(&top, "."))
		cwd = realpath(".", NULL);
	w.top = !top.len || (cwd && !strcmp(cwd, top.buf)) ? "." : top.buf;
	walk_dir(&w, "", 0);
sort:
	/* In name order, as sidecar-list.c lists sidecars. */
	if (out->nr)
		qsort(out->items, out->nr, sizeof(*out->items), cmp_required);
	free(cwd);
	strbuf_release(&top);
	return w.ret;
}

void required_list_release(struct required_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i].report);
	free(l->items);
	memset(l, 0, sizeof(*l));
}
