/*
 * Writing the cache's store back (see cache.h): merged with what is on
 * disk now, pruned to its bound, checksummed, replaced atomically.
 */
#include "config.h"
#include "cache.h"
#include "cache-int.h"
#include "fs/atomicfile.h"
#include "fs/path.h"
#include "hash/digest.h"
#include "strutil.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Take into c the entries a concurrent run saved since c was read,
 * keeping ours where both have a key (the values agree: both are
 * functions of the key), and the newer run numbers.
 */
static void merge_disk(struct cache *c)
{
	struct cache_table disk;
	size_t i;

	cache_load_store(&disk, c->path.buf, c->magic.buf);
	for (i = 0; i < disk.size; i++) {
		struct cache_entry *d = &disk.slots[i];

		if (!d->key || cache_table_find(&c->t, d->key))
			continue;
		cache_table_insert(&c->t, d->key, d->value, d->run);
	}
	if (disk.run > c->t.run)
		c->t.run = disk.run;
	cache_table_release(&disk);
}

static int by_run_desc(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The oldest run number an entry may have to be kept: every run when
 * the store is within its bound, else the one that keeps at most
 * c->keep_entries, the most recently used (a run's entries are kept or
 * dropped together; the newest run's are always kept).
 */
static unsigned long keep_from(const struct cache *c)
{
	const struct cache_table *t = &c->t;
	unsigned long *runs, from;
	size_t i, n = 0;

	if (t->nr <= c->max_entries || !c->keep_entries ||
	    c->keep_entries >= t->nr)
		return 0;
	runs = xcalloc(t->nr, sizeof(*runs));
	for (i = 0; i < t->size; i++)
		if (t->slots[i].key)
			runs[n++] = t->slots[i].run;
	qsort(runs, n, sizeof(*runs), by_run_desc);
	/* runs[keep] is the newest run of an entry that must go */
	from = runs[c->keep_entries] + 1;
	/* the newest run alone over the bound still makes progress */
	if (runs[0] < from)
		from = runs[0];
	free(runs);
	return from;
}

/*
 * How much of the verdict level a store keeps: all of it, only this
 * run's entries, or none.  Its entries are twice an input's and one per
 * report, so in a repository of very many reports they are what would
 * take a store past CACHE_MAX_BYTES; the input hashes, fewer and
 * costlier to redo, go on being kept.
 */
enum keep_verdicts { KEEP_ALL_VERDICTS, KEEP_NEW_VERDICTS, KEEP_NO_VERDICT };

static int kept(const struct cache_entry *e, unsigned long from,
		unsigned long run, enum keep_verdicts verdicts)
{
	if (!e->key || e->run < from)
		return 0;
	if (!starts_with(e->key, CACHE_VERDICT_PREFIX))
		return 1;
	return verdicts == KEEP_ALL_VERDICTS ||
	       (verdicts == KEEP_NEW_VERDICTS && e->run == run);
}

/* The store's text for c: header, entries, checksum line. */
static int serialize(struct strbuf *out, const struct cache *c,
		     unsigned long run)
{
	char sum[DIGEST_HEX_MAX];
	unsigned long from = keep_from(c);
	enum keep_verdicts verdicts = KEEP_ALL_VERDICTS;
	size_t i, need = c->magic.len + 64;

	/* sized once: the store of a large tree is megabytes */
	for (i = 0; i < c->t.size; i++)
		if (c->t.slots[i].key)
			need += strlen(c->t.slots[i].key) +
				strlen(c->t.slots[i].value) + 24;
	strbuf_grow(out, need);
again:
	strbuf_reset(out);
	strbuf_addf(out, "%s%lu\n", c->magic.buf, run);
	for (i = 0; i < c->t.size; i++) {
		const struct cache_entry *e = &c->t.slots[i];

		if (!kept(e, from, run, verdicts))
			continue;
		/* a line per entry: no printf for each of 100,000 */
		strbuf_addstr(out, e->key);
		strbuf_addch(out, ' ');
		strbuf_addstr(out, e->value);
		strbuf_addch(out, ' ');
		strbuf_add_uint(out, e->run);
		strbuf_addch(out, '\n');
	}
	/* one the next run would refuse to read is not worth writing */
	if (out->len > c->max_bytes - DIGEST_HEX_MAX &&
	    verdicts != KEEP_NO_VERDICT) {
		verdicts++;
		goto again;
	}
	if (out->len > c->max_bytes - DIGEST_HEX_MAX ||
	    digest_buffer_hex(sum, out->buf, out->len))
		return -1;
	strbuf_addf(out, "%s\n", sum);
	return 0;
}

/*
 * Make the store's directory and its parent (ahd-replay/ in the git
 * directory) 0700 when missing, and see that the directory is ours: a
 * store is believed only in a directory nobody else can write (see
 * cache_load_store()), so one we own that others may write loses those
 * bits, and one we do not own is not written to.  Returns 0 or -1.
 */
static int make_store_dir(const char *dir)
{
	struct strbuf parent = STRBUF_INIT;
	struct stat st;
	int fd, ret = -1;

	path_dirname(&parent, dir);
	if ((mkdir(parent.buf, 0700) && errno != EEXIST) ||
	    (mkdir(dir, 0700) && errno != EEXIST))
		goto out;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		goto out;
	if (!fstat(fd, &st) && st.st_uid == geteuid() &&
	    (cache_stat_trusted(&st) ||
	     !fchmod(fd, st.st_mode & 07777 & ~(S_IWGRP | S_IWOTH))))
		ret = 0;
	close(fd);
out:
	strbuf_release(&parent);
	return ret;
}

/*
 * Replace the store at path with text, atomically but not flushed to
 * disk: after a crash it may be empty or cut short, which its checksum
 * line shows and the next run ignores (cache_load_store()) and rebuilds.
 * A cache is worth no fsync(), which cost a first run a few
 * milliseconds for nothing it needs.  Returns 0 or -1.
 */
static int write_store(const char *path, const struct strbuf *text,
		       struct strbuf *err)
{
	struct atomic_file af;

	if (atomic_file_open(&af, path, 0600, err) < 0)
		return -1;
	af.sync_later = 1;	/* and never: see above */
	if (atomic_file_write(&af, text->buf, text->len, err) < 0)
		return -1;
	return atomic_file_commit(&af, err);
}

int cache_save(struct cache *c)
{
	struct strbuf text = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	unsigned long run;
	int ret = -1;

	if (!c)
		return 0;
	cache_wait_loaded(c);
	pthread_rwlock_wrlock(&c->lock);
	if (!c->dirty) {
		ret = 0;
		goto out;
	}
	/*
	 * Entries of this run carry run + 1, the number written: read the
	 * run before the merge can raise the table's.
	 */
	run = c->t.run + 1;
	merge_disk(c);
	if (c->t.run >= run)
		run = c->t.run + 1;
	path_dirname(&dir, c->path.buf);
	/* 0600: only this user's store is believed, so none is shared */
	if (serialize(&text, c, run) || make_store_dir(dir.buf) ||
	    write_store(c->path.buf, &text, &err))
		goto out;	/* a read-only git directory: no cache */
	c->dirty = 0;
	ret = 0;
out:
	pthread_rwlock_unlock(&c->lock);
	strbuf_release(&text);
	strbuf_release(&dir);
	strbuf_release(&err);
	return ret;
}
