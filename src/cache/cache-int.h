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


struct cache_entry {
	char *key;		/* NULL: an empty slot */
	char *value;
	unsigned long run;
};

struct cache_table {
	struct cache_entry *slots;
	size_t size;		/* a power of two, or 0 */
	size_t nr;
	unsigned long run;	/* the store's run number as read */
};

struct cache {
	pthread_mutex_t lock;
	struct strbuf path;
	struct strbuf magic;	/* the header up to the run number */
	struct cache_table t;
	int dirty;		/* entries added: save writes */
	size_t max_entries;	/* CACHE_MAX_ENTRIES, lowered by tests */
	size_t keep_entries;	/* CACHE_KEEP_ENTRIES, likewise */
	size_t max_bytes;	/* CACHE_MAX_BYTES when saving, likewise */
};

/* The entry for key in t, or NULL. */
struct cache_entry *cache_table_find(struct cache_table *t, const char *key);

/*
 * Insert key with value (taking both over, xstrdup()ed strings) and the
 * run that wrote it; an entry already there for key is replaced.
 */
void cache_table_insert(struct cache_table *t, char *key, char *value,
			unsigned long run);

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
 * header starts with magic: 0, or -1 when any of it cannot be believed
 * (t is then empty again).
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
