/*
 * The search of a tree for sidecars (see sidecar-search.h): a stack of
 * directories still to list, shared by the threads; each thread keeps
 * what it finds, and the findings are merged and sorted at the end, so
 * that neither the number of threads nor who listed what shows.
 */
#include "config.h"
#include "sidecar-search.h"
#include "fs/dirlist.h"
#include "sidecar.h"
#include "strutil.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Search depth; symlinks are not followed, so only a real tree is this deep. */
#define FIND_MAX_DEPTH 64

int path_list_addf(struct path_list *l, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = strbuf_detach(&sb, NULL);
	return -1;
}

struct task {
	char *dir;
	int depth;
};

struct search {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* a task was added, or the last one done */
	struct task *todo;
	size_t nr, alloc;
	size_t busy;		/* tasks taken and not done */
	int want_unpaired;
};

/* What one thread found. */
struct findings {
	struct sidecar_search out;
	int ret;
};

static void found_add(struct sidecar_search *out, const struct dirlist *l,
		      const char *path, const char *name)
{
	struct strbuf md = STRBUF_INIT;
	struct sidecar_found *f;

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
	path_list_addf(errors, "cannot look at '%s': %s", path,
		       strerror(errno));
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

/* The directories of one listing, on the stack for whichever thread. */
static void push(struct search *s, struct task *sub, size_t n)
{
	size_t i;

	if (!n)
		return;
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < n; i++) {
		ALLOC_GROW(s->todo, s->nr + 1, s->alloc);
		s->todo[s->nr++] = sub[i];
	}
	pthread_cond_broadcast(&s->more);
	pthread_mutex_unlock(&s->lock);
}

/*
 * List t's directory: its sidecars (and unpaired reports) into f, its
 * directories onto the stack.
 */
static void search_dir(struct search *s, struct findings *f,
		       const struct task *t)
{
	struct dirlist l = DIRLIST_INIT;
	struct strbuf path = STRBUF_INIT;	/* one per directory, reused */
	struct task *sub = NULL;
	size_t i, nr_sub = 0, alloc_sub = 0;
	struct path_list *errors = &f->out.errors;

	if (t->depth > FIND_MAX_DEPTH) {
		f->ret = path_list_addf(errors, "'%s' is more than %d "
					"directories deep; not searched",
					t->dir, FIND_MAX_DEPTH);
		return;
	}
	if (dirlist_read(&l, t->dir)) {
		f->ret = path_list_addf(errors, "cannot read directory "
					"'%s': %s", t->dir, strerror(errno));
		goto out;
	}
	for (i = 0; i < l.nr; i++) {
		const struct dirlist_entry *e = &l.v[i];
		int is_dir;

		if (!strcmp(e->name, ".git") ||
		    !strcmp(e->name, "node_modules"))
			continue;
		strbuf_reset(&path);
		if (strcmp(t->dir, ".")) {
			strbuf_addstr(&path, t->dir);
			strbuf_addch(&path, '/');
		}
		strbuf_addstr(&path, e->name);
		is_dir = entry_is_dir(e, path.buf, errors);
		if (is_dir > 0) {
			ALLOC_GROW(sub, nr_sub + 1, alloc_sub);
			sub[nr_sub].dir = xstrdup(path.buf);
			sub[nr_sub++].depth = t->depth + 1;
		} else if (!is_dir && ends_with(e->name, ".replay.json"))
			found_add(&f->out, &l, path.buf, e->name);
		else if (!is_dir && s->want_unpaired &&
			 ends_with(e->name, ".md") && is_regular(e, path.buf))
			note_unpaired(&f->out.unpaired, &l, path.buf, e->name);
		else if (is_dir == -2)
			f->ret = -1;
	}
	if (l.read_errno)
		f->ret = path_list_addf(errors, "cannot read directory "
					"'%s': %s", t->dir,
					strerror(l.read_errno));
	push(s, sub, nr_sub);
out:
	free(sub);
	strbuf_release(&path);
	dirlist_release(&l);
}

/* Take directories off the stack until none is left or being listed. */
static void search_run(struct search *s, struct findings *f)
{
	struct task t;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->nr && s->busy)
			pthread_cond_wait(&s->more, &s->lock);
		if (!s->nr)
			break;
		t = s->todo[--s->nr];
		s->busy++;
		pthread_mutex_unlock(&s->lock);
		search_dir(s, f, &t);
		free(t.dir);
		pthread_mutex_lock(&s->lock);
		if (!--s->busy && !s->nr)
			pthread_cond_broadcast(&s->more);
	}
	pthread_mutex_unlock(&s->lock);
}

static int cmp_found(const void *a, const void *b)
{
	return strcmp(((const struct sidecar_found *)a)->sidecar,
		      ((const struct sidecar_found *)b)->sidecar);
}

static int cmp_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sidecars one thread found, in name order. */
static void sort_found(struct findings *f)
{
	if (f->out.nr)
		qsort(f->out.v, f->out.nr, sizeof(*f->out.v), cmp_found);
}

struct worker {
	struct search *s;
	struct findings f;
};

/* A thread's part: its share of the listing, then sorting what it found. */
static void *search_thread(void *data)
{
	struct worker *w = data;

	search_run(w->s, &w->f);
	sort_found(&w->f);
	return NULL;
}

void path_list_take(struct path_list *to, struct path_list *from)
{
	size_t i;

	for (i = 0; i < from->nr; i++) {
		ALLOC_GROW(to->items, to->nr + 1, to->alloc);
		to->items[to->nr++] = from->items[i];
	}
	free(from->items);
	memset(from, 0, sizeof(*from));
}

/*
 * from's findings into to, which takes the strings; both hold their
 * sidecars in name order, and so does to after: a merge, so that only
 * the threads sort, each its own, at the same time.
 */
static void take(struct findings *to, struct findings *from)
{
	struct sidecar_found *a = to->out.v, *b = from->out.v, *v;
	size_t na = to->out.nr, nb = from->out.nr, i = 0, j = 0, k = 0;

	v = xcalloc(na + nb ? na + nb : 1, sizeof(*v));
	while (i < na && j < nb)
		v[k++] = strcmp(a[i].sidecar, b[j].sidecar) <= 0 ?
			 a[i++] : b[j++];
	while (i < na)
		v[k++] = a[i++];
	while (j < nb)
		v[k++] = b[j++];
	free(a);
	to->out.v = v;
	to->out.nr = to->out.alloc = k;
	free(from->out.v);
	from->out.v = NULL;
	from->out.nr = from->out.alloc = 0;
	path_list_take(&to->out.errors, &from->out.errors);
	path_list_take(&to->out.unpaired, &from->out.unpaired);
	if (from->ret)
		to->ret = -1;
}

int sidecar_search(struct sidecar_search *out, const char *dir,
		   int want_unpaired, size_t threads)
{
	struct search s;
	struct findings mine;
	struct worker *w;
	pthread_t *tids;
	size_t i, started = 0;

	memset(&s, 0, sizeof(s));
	memset(&mine, 0, sizeof(mine));
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.more, NULL);
	s.want_unpaired = want_unpaired;
	ALLOC_GROW(s.todo, 1, s.alloc);
	s.todo[s.nr].dir = xstrdup(dir);
	s.todo[s.nr++].depth = 0;
	if (threads < 1)
		threads = 1;
	w = xcalloc(threads, sizeof(*w));
	tids = xcalloc(threads, sizeof(*tids));
	/* a thread that cannot be started leaves its share to the others */
	for (i = 1; i < threads; i++) {
		w[started].s = &s;
		if (!pthread_create(&tids[started], NULL, search_thread,
				    &w[started]))
			started++;
	}
	search_run(&s, &mine);
	sort_found(&mine);
	/* in name order, whichever thread found what */
	for (i = 0; i < started; i++) {
		pthread_join(tids[i], NULL);
		take(&mine, &w[i].f);
	}
	if (mine.out.errors.nr)
		qsort(mine.out.errors.items, mine.out.errors.nr,
		      sizeof(*mine.out.errors.items), cmp_string);
	if (mine.out.unpaired.nr)
		qsort(mine.out.unpaired.items, mine.out.unpaired.nr,
		      sizeof(*mine.out.unpaired.items), cmp_string);
	*out = mine.out;
	free(w);
	free(tids);
	free(s.todo);
	pthread_cond_destroy(&s.more);
	pthread_mutex_destroy(&s.lock);
	return mine.ret;
}

void path_list_clear(struct path_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void sidecar_search_release(struct sidecar_search *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->v[i].sidecar);
		free(s->v[i].report);
	}
	free(s->v);
	path_list_clear(&s->errors);
	path_list_clear(&s->unpaired);
	memset(s, 0, sizeof(*s));
}
