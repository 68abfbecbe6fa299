/*
 * The cache's store (see cache.h): an in-memory table loaded from one
 * file and written back whole.
 *
 * The file is text:
 *
 *	ahd-replay-cache 1 contract=1 version=<PACKAGE_VERSION> build=<id> run=<n>
 *	<key> <value> <run that last wrote or used it>
 *	...
 *	sha256:<64 hex of every byte above this line>
 *
 * A store is believed only whole: the header equal to ours, the
 * checksum line last and matching, every line well formed, and the
 * file and its directory writable by this user alone.  Anything else is
 * an empty cache.
 */
#include "config.h"
#include "cache.h"
#include "cache-int.h"
#include "fs/atomicfile.h"
#include "fs/path.h"
#include "fs/readfile.h"
#include "git/repo.h"
#include "hash/digest.h"
#include "strutil.h"
#include "usage.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t key_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* key's slot in t (its entry, or the empty slot it would take). */
static struct cache_entry *table_slot(struct cache_table *t, const char *key,
				      size_t hash)
{
	size_t i = hash & (t->size - 1);

	while (t->slots[i].key && (t->slots[i].hash != hash ||
				   strcmp(t->slots[i].key, key)))
		i = (i + 1) & (t->size - 1);
	return &t->slots[i];
}

struct cache_entry *cache_table_find(struct cache_table *t, const char *key)
{
	struct cache_entry *e;

	if (!t->size)
		return NULL;
	e = table_slot(t, key, key_hash(key));
	return e->key ? e : NULL;
}

/* Put key and value (owned by t when own) into t with run. */
static void table_set(struct cache_table *t, const char *key,
		      const char *value, unsigned long run, int own)
{
	struct cache_entry *e;
	size_t hash = key_hash(key);

	if (2 * (t->nr + 1) > t->size) {
		struct cache_table bigger = { NULL, t->size ? 2 * t->size : 256,
					      0, t->run, t->text };
		size_t i;

		bigger.slots = xcalloc(bigger.size, sizeof(*bigger.slots));
		for (i = 0; i < t->size; i++)
			if (t->slots[i].key)
				*table_slot(&bigger, t->slots[i].key,
					    t->slots[i].hash) = t->slots[i];
		bigger.nr = t->nr;
		free(t->slots);
		*t = bigger;
	}
	e = table_slot(t, key, hash);
	if (!e->key)
		t->nr++;
	else if (e->own)
		free((char *)e->key);
	e->key = key;
	e->value = value;
	e->run = run;
	e->own = own;
	e->hash = hash;
}

void cache_table_insert(struct cache_table *t, const char *key,
			const char *value, unsigned long run)
{
	size_t klen = strlen(key), vlen = strlen(value);
	char *kv = xmalloc(klen + vlen + 2);

	memcpy(kv, key, klen + 1);
	memcpy(kv + klen + 1, value, vlen + 1);
	table_set(t, kv, kv + klen + 1, run, 1);
}

void cache_table_release(struct cache_table *t)
{
	size_t i;

	for (i = 0; i < t->size; i++)
		if (t->slots[i].own)
			free((char *)t->slots[i].key);
	free(t->slots);
	free(t->text);
	memset(t, 0, sizeof(*t));
}

int cache_token_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return 0;
	return 1;
}

/* One "<key> <value> <run>" line of len bytes into t; -1 if malformed. */
static int parse_line(struct cache_table *t, char *line, size_t len)
{
	char *sp1, *sp2, *end;
	unsigned long run;

	line[len] = '\0';
	sp1 = strchr(line, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp2)
		return -1;
	*sp1 = *sp2 = '\0';
	errno = 0;
	run = strtoul(sp2 + 1, &end, 10);
	if (errno || end == sp2 + 1 || *end || !cache_token_ok(line) ||
	    !cache_token_ok(sp1 + 1) || run > t->run)
		return -1;
	/* in the text cache_parse() hands t */
	table_set(t, line, sp1 + 1, run, 0);
	return 0;
}

int cache_parse(struct cache_table *t, struct strbuf *buf, const char *magic)
{
	char sum[DIGEST_HEX_MAX], *p, *end, *nl, *last;
	size_t body;

	if (!buf->len || buf->buf[buf->len - 1] != '\n')
		return -1;
	/* the checksum line, last */
	buf->buf[buf->len - 1] = '\0';
	last = strrchr(buf->buf, '\n');
	if (!last)
		return -1;
	body = (size_t)(last - buf->buf) + 1;
	if (digest_buffer_hex(sum, buf->buf, body) || strcmp(last + 1, sum))
		return -1;
	if (!starts_with(buf->buf, magic))
		return -1;
	p = buf->buf + strlen(magic);
	errno = 0;
	t->run = strtoul(p, &end, 10);
	if (errno || end == p || *end != '\n')
		return -1;
	for (p = end + 1; p < buf->buf + body; p = nl + 1) {
		nl = memchr(p, '\n', buf->buf + body - p);
		if (!nl || parse_line(t, p, (size_t)(nl - p))) {
			cache_table_release(t);
			return -1;
		}
	}
	t->text = strbuf_detach(buf, NULL);
	return 0;
}

/*
 * Whether st, a store or its directory, can only have been written by
 * this user: owned by geteuid() and writable by neither group nor
 * others.  The checksum cannot tell our store from a forged one, so a
 * store someone else could have written (a CI cache restored from
 * another run, a shared git directory) is not believed.
 */
int cache_stat_trusted(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * Open path's directory, then path in it (neither through a symlink),
 * when both are ours alone (cache_stat_trusted()) and the store is a
 * regular file: its descriptor with its fstat() in st, or -1.
 */
static int open_trusted(const char *path, struct stat *st)
{
	struct strbuf dir = STRBUF_INIT;
	const char *name = strrchr(path, '/');
	int dfd, fd = -1;

	path_dirname(&dir, path);
	dfd = open(dir.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	strbuf_release(&dir);
	if (dfd < 0)
		return -1;
	if (fstat(dfd, st) || !cache_stat_trusted(st))
		goto out;
	fd = openat(dfd, name ? name + 1 : path,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	/* a FIFO or device in its place is no store */
	if (fd >= 0 && (fstat(fd, st) || !S_ISREG(st->st_mode) ||
			!cache_stat_trusted(st))) {
		close(fd);
		fd = -1;
	}
out:
	close(dfd);
	return fd;
}

void cache_load_store(struct cache_table *t, const char *path,
		      const char *magic)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	struct stat st;
	int fd = open_trusted(path, &st);

	memset(t, 0, sizeof(*t));
	if (fd < 0)
		goto out;
	if (read_fd_limited(&buf, fd, &st, CACHE_MAX_BYTES, &err))
		goto out;
	if (cache_parse(t, &buf, magic))
		memset(t, 0, sizeof(*t));
out:
	strbuf_release(&buf);
	strbuf_release(&err);
}

/*
 * Which build of the tool is running: the size and modification time
 * of its executable.  A version number alone changes only at releases,
 * and a build between them that hashes differently must not believe
 * what the one before it stored; stat data is enough here, since it
 * only decides whether a whole store is thrown away.  "unknown" where
 * /proc is not mounted: the version and contract still apply.
 */
static void build_id(struct strbuf *out)
{
	struct stat st;

	if (stat("/proc/self/exe", &st))
		strbuf_addstr(out, "unknown");
	else
		strbuf_addf(out, "%llx.%lld.%09ld",
			    (unsigned long long)st.st_size,
			    (long long)st.st_mtim.tv_sec,
			    (long)st.st_mtim.tv_nsec);
}

static void *load_thread(void *data)
{
	struct cache *c = data;

	cache_load_store(&c->t, c->path.buf, c->magic.buf);
	return NULL;
}

void cache_wait_loaded(struct cache *c)
{
	if (!__atomic_load_n(&c->loading, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&c->load_lock);
	/* the join makes the loader's table ours; the store, every thread's */
	if (__atomic_load_n(&c->loading, __ATOMIC_ACQUIRE)) {
		pthread_join(c->loader, NULL);
		__atomic_store_n(&c->loading, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&c->load_lock);
}

struct cache *cache_open_path(const char *path)
{
	struct cache *c = xcalloc(1, sizeof(*c));

	if (pthread_rwlock_init(&c->lock, NULL))
		die("cannot set up the cache's lock");
	pthread_mutex_init(&c->load_lock, NULL);
	strbuf_init(&c->path, 0);
	strbuf_addstr(&c->path, path);
	strbuf_init(&c->magic, 0);
	strbuf_addf(&c->magic, "ahd-replay-cache 1 contract=%d version=%s "
		    "build=", CACHE_CONTRACT, PACKAGE_VERSION);
	build_id(&c->magic);
	strbuf_addstr(&c->magic, " run=");
	c->max_entries = CACHE_MAX_ENTRIES;
	c->keep_entries = CACHE_KEEP_ENTRIES;
	c->max_bytes = CACHE_MAX_BYTES;
	/* a thread that cannot be started: read it here */
	if (!pthread_create(&c->loader, NULL, load_thread, c))
		__atomic_store_n(&c->loading, 1, __ATOMIC_RELEASE);
	else
		cache_load_store(&c->t, path, c->magic.buf);
	return c;
}

struct cache *cache_open(const char *dir)
{
	return cache_open_named(dir, "store");
}

struct cache *cache_open_named(const char *dir, const char *name)
{
	struct repo repo = REPO_INIT;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct cache *c = NULL;
	int on = 1;

	if (repo_env_bool("AHD_REPLAY_NO_CACHE"))
		goto out;
	if (repo_open(&repo, dir, REPO_PATHS_ONLY, &err))
		goto out;	/* no repository, or none we may read */
	if (repo_config_bool_at(&on, &repo, CACHE_CONFIG_KEY, 1, &err)) {
		warning("%s; the cache is off", err.buf);
		goto out;
	}
	if (!on)
		goto out;
	strbuf_addf(&path, "%s/ahd-replay/cache/%s", repo.commondir.buf, name);
	c = cache_open_path(path.buf);
out:
	repo_release(&repo);
	strbuf_release(&err);
	strbuf_release(&path);
	return c;
}

int cache_get(struct cache *c, const char *key, struct strbuf *value)
{
	struct cache_entry *e;
	int found = 0;

	if (!c)
		return 0;
	cache_wait_loaded(c);
	/* room for a verdict before the lock: no malloc() while it is held */
	strbuf_grow(value, 1024);
	pthread_rwlock_rdlock(&c->lock);
	e = cache_table_find(&c->t, key);
	if (e) {
		strbuf_reset(value);
		strbuf_addstr(value, e->value);
		/* used by this run: kept over older ones when pruning */
		__atomic_store_n(&e->run, c->t.run + 1, __ATOMIC_RELAXED);
		found = 1;
	}
	pthread_rwlock_unlock(&c->lock);
	return found;
}

void cache_put(struct cache *c, const char *key, const char *value)
{
	if (!c || !cache_token_ok(key) || !cache_token_ok(value))
		return;
	cache_wait_loaded(c);
	pthread_rwlock_wrlock(&c->lock);
	cache_table_insert(&c->t, key, value, c->t.run + 1);
	c->dirty = 1;
	pthread_rwlock_unlock(&c->lock);
}

void cache_free(struct cache *c)
{
	if (!c)
		return;
	cache_save(c);
	cache_wait_loaded(c);
	cache_table_release(&c->t);
	strbuf_release(&c->path);
	strbuf_release(&c->magic);
	pthread_rwlock_destroy(&c->lock);
	pthread_mutex_destroy(&c->load_lock);
	free(c);
}
