/*
 * A directory listed once (see dirlist.h).
 */
#include "config.h"
#include "dirlist.h"
#include "strbuf.h"
#include "usage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_entry(const void *a, const void *b)
{
	return strcmp((*(struct dirlist_entry *const *)a)->name,
		      (*(struct dirlist_entry *const *)b)->name);
}

/*
 * d_type is only worth trusting where a look at the entry itself would
 * succeed: in a directory that may be listed but not searched, lstat()
 * and access() fail (EACCES) where the listing still has a type.  One
 * lstat of an entry tells; when it fails, every answer is asked for.
 */
static void check_searchable(struct dirlist *l, DIR *d)
{
	struct stat st;
	size_t i;

	if (!l->nr || !fstatat(dirfd(d), l->v[0].name, &st,
			       AT_SYMLINK_NOFOLLOW))
		return;
	l->ask = 1;
	for (i = 0; i < l->nr; i++)
		l->v[i].type = DT_UNKNOWN;
}

int dirlist_read(struct dirlist *l, const char *path)
{
	struct strbuf names = STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(path);
	size_t i, *at = NULL, alloc_at = 0;

	if (!d)
		return -1;
	l->path = xstrdup(path);
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			l->read_errno = errno;
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ALLOC_GROW(l->v, l->nr + 1, l->alloc);
		ALLOC_GROW(at, l->nr + 1, alloc_at);
		/* where the name starts: the block may move as it grows */
		at[l->nr] = names.len;
		strbuf_add(&names, de->d_name, strlen(de->d_name) + 1);
		l->v[l->nr].type = de->d_type;
		l->nr++;
	}
	l->names = strbuf_detach(&names, NULL);
	for (i = 0; i < l->nr; i++)
		l->v[i].name = l->names + at[i];
	free(at);
	check_searchable(l, d);
	closedir(d);
	l->sorted = xcalloc(l->nr ? l->nr : 1, sizeof(*l->sorted));
	for (i = 0; i < l->nr; i++)
		l->sorted[i] = &l->v[i];
	qsort(l->sorted, l->nr, sizeof(*l->sorted), cmp_entry);
	return 0;
}

void dirlist_release(struct dirlist *l)
{
	free(l->names);
	free(l->v);
	free(l->sorted);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

static struct dirlist_entry *lookup(const struct dirlist *l,
				    const char *name)
{
	struct dirlist_entry key, *kp = &key, **found;

	key.name = (char *)name;
	found = l->nr ? bsearch(&kp, l->sorted, l->nr, sizeof(*l->sorted),
				cmp_entry) : NULL;
	return found ? *found : NULL;
}

int dirlist_absent(const struct dirlist *l, const char *name)
{
	return !l->read_errno && !l->ask && !lookup(l, name);
}

int dirlist_access(const struct dirlist *l, const char *name)
{
	struct dirlist_entry *found = lookup(l, name);
	struct strbuf path = STRBUF_INIT;
	int ret, saved;

	/* a listing cut short may miss it, and one not to trust: ask */
	if (!found && !l->read_errno && !l->ask) {
		errno = ENOENT;
		return -1;
	}
	/* a symlink may dangle; an unknown type may be anything */
	if (found && found->type != DT_LNK && found->type != DT_UNKNOWN)
		return 0;
	strbuf_addf(&path, "%s/%s", l->path, name);
	ret = access(path.buf, F_OK);
	saved = errno;
	strbuf_release(&path);
	errno = saved;
	return ret;
}
