#ifndef CACHE_INT_H
#define CACHE_INT_H

/*
 * Shared by cache.c (the table, reading the store), cache-save.c
 * (writing it) and cache-hash.c (the input hashes): not for use outside
 * src/cache/.
 */
#include <pthread.h>
#include <sys/stat.h>
#include "cache.h"


/*
 * An entry read from the store points into the table's copy of its
 * text; one put since is a single allocation, its key then its value.
 */
struct cache_entry {
	const char *key;	/* NULL: an empty slot */
	const char *value;
	unsigned long run;
	int own;		/* key is an allocation holding value too */
	size_t hash;		/* key_hash(key): growing hashes no key again */
};

struct cache_table {
	struct cache_entry *slots;
	size_t size;		/* a power of two, or 0 */
	size_t nr;
	unsigned long run;	/* the store's run number as read */
	char *text;		/* the store's text, or NULL */
};

struct cache {
	/*
	 * Lookups share it (a verify run makes one per report on every
	 * thread, and a mutex had them queue in the kernel); adding,
	 * saving and freeing take it alone.  A lookup marks the entry it
	 * used with an atomic store: all of them store the same number.
	 */
	pthread_rwlock_t lock;
	struct strbuf path;
	struct strbuf magic;	/* the header up to the run number */
	struct cache_table t;
	int dirty;		/* entries added: save writes */
	size_t max_entries;	/* CACHE_MAX_ENTRIES, lowered by tests */
	size_t keep_entries;	/* CACHE_KEEP_ENTRIES, likewise */
	size_t max_bytes;	/* CACHE_MAX_BYTES when saving, likewise */
	/*
	 * The store is read on a thread of its own while the caller goes
	 * on (verify lists the tree meanwhile); t is the loader's until
	 * cache_wait_loaded() has joined it.
	 */
	pthread_t loader;
	pthread_mutex_t load_lock;	/* the one join */
	int loading;		/* loader started and not yet joined (read
				   and written atomically) */
};

/*
 * Wait for the store to be read into c->t (a join the first time,
 * nothing after): every use of c->t calls it first, before taking
 * c->lock.
 */
void cache_wait_loaded(struct cache *c);

/* The entry for key in t, or NULL. */
struct cache_entry *cache_table_find(struct cache_table *t, const char *key);

/*
 * Insert a copy of key and value, and the run that wrote them; an entry
 * already there for key is replaced.
 */
void cache_table_insert(struct cache_table *t, const char *key,
			const char *value, unsigned long run);

/* Free every entry; t is empty (and usable) again. */
void cache_table_release(struct cache_table *t);

/* Printable ASCII without spaces, not empty: what a key or value may be. */
int cache_token_ok(const char *s);

/*
 * Whether st (a store or its directory) is owned by geteuid() and
 * writable by neither group nor others.
 */
int cache_stat_trusted(const struct stat *st);

/*
 * The store's text in buf (changed in place) into t (empty), when its
 * header starts with magic: 0, t then keeping the text (buf is left
 * empty) so that its entries point into it rather than each being
 * copied; or -1 when any of it cannot be believed (t is then empty
 * again).
 */
int cache_parse(struct cache_table *t, struct strbuf *buf,
		const char *magic);

/*
 * Read the store at path (never through a symlink) into t: empty when
 * it is absent, unreadable, too large, cannot be believed, or it or its
 * directory could have been written by anyone but this user.
 */
void cache_load_store(struct cache_table *t, const char *path,
		      const char *magic);

#endif
