/*
 * The memos of a verify run (see verify-memo.h): hash tables of entries
 * that are filled outside the lock.
 */
#include "config.h"
#include "verify-memo.h"
#include "cache/cache.h"
#include "usage.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each thread's own view of the done entries it met, in front of the
 * tables: a report asks for its root and for each input's path and
 * hash, mostly ones met before, and one lock every thread shares for
 * each of those made the threads queue on it.  A done entry never
 * changes, so a pointer to it stays good as long as its run's memos;
 * run numbers tell this run's memos from an earlier run's at the same
 * address.  Direct-mapped: a collision only sends a lookup to the lock.
 */
#define NEAR_SLOTS 256

struct near {
	unsigned long run;
	struct near_slot {
		const struct memo_table *t;
		struct memo *m;
	} slots[NEAR_SLOTS];
};

static __thread struct near near;
static unsigned long last_run;	/* verify_memos_new(): under run_lock */
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

/* This thread's slots, emptied when they were another run's. */
static struct near *near_for(const struct verify_memos *ms)
{
	if (near.run != ms->run) {
		memset(&near, 0, sizeof(near));
		near.run = ms->run;
	}
	return &near;
}

static struct memo *near_find(const struct verify_memos *ms,
			      const struct memo_table *t, const char *key,
			      size_t len, int mode, unsigned hash)
{
	struct near_slot *n = &near_for(ms)->slots[hash % NEAR_SLOTS];
	struct memo *m = n->m;

	if (n->t == t && m && m->hash == hash && m->mode == mode &&
	    m->key_len == len && !memcmp(m->key, key, len))
		return m;
	return NULL;
}

/* m is done, seen so under the lock by this thread: remember it. */
static void near_add(const struct verify_memos *ms,
		     const struct memo_table *t, struct memo *m)
{
	struct near_slot *n = &near_for(ms)->slots[m->hash % NEAR_SLOTS];

	n->t = t;
	n->m = m;
}

struct verify_memos *verify_memos_new(int no_cache)
{
	struct verify_memos *m = xcalloc(1, sizeof(*m));

	pthread_mutex_lock(&run_lock);
	m->run = ++last_run;
	pthread_mutex_unlock(&run_lock);

	/* the repository verify runs in keeps it; keys name content */
	if (!no_cache)
		m->cache = cache_open(".");
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->filled, NULL);
	pthread_mutex_init(&m->root_lock, NULL);
	return m;
}

void memo_clear(struct memo *m)
{
	free(m->key);
	free(m->text);
	free(m->note);
	free(m->warning);
	resolved_input_release(&m->in);
}

static void table_free(struct memo_table *t)
{
	size_t i;

	for (i = 0; i < t->size; i++) {
		if (!t->slots[i])
			continue;
		memo_clear(t->slots[i]);
		free(t->slots[i]);
	}
	free(t->slots);
	t->slots = NULL;
	t->nr = t->size = 0;
}

void verify_memos_free(struct verify_memos *m)
{
	size_t i;

	if (!m)
		return;
	table_free(&m->roots);
	table_free(&m->resolved);
	table_free(&m->hashes);
	table_free(&m->checkedout);
	for (i = 0; i < m->nr_ats; i++) {
		free(m->ats[i]->root);
		at_commit_release(&m->ats[i]->at);
		strbuf_release(&m->ats[i]->err);
		free(m->ats[i]);
	}
	free(m->ats);
	cache_free(m->cache);
	root_memo_release(&m->root_memo);
	pthread_mutex_destroy(&m->root_lock);
	pthread_cond_destroy(&m->filled);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

/* FNV-1a over the key, then the mode: keys are paths, short and alike. */
static unsigned key_hash(const char *key, size_t len, int mode)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 16777619u;
	}
	h ^= (uint32_t)mode;
	h *= 16777619u;
	return h;
}

/* The slot where key is, or the free one where it would go. */
static struct memo **table_slot(const struct memo_table *t, const char *key,
				size_t len, int mode, unsigned hash)
{
	size_t mask = t->size - 1, i = hash & mask;
	struct memo *m;

	for (;; i = (i + 1) & mask) {
		m = t->slots[i];
		if (!m || (m->hash == hash && m->mode == mode &&
			   m->key_len == len && !memcmp(m->key, key, len)))
			return &t->slots[i];
	}
}

/* Room for one more entry: kept at most half full. */
static void table_grow(struct memo_table *t)
{
	struct memo_table bigger;
	size_t i;

	if (2 * (t->nr + 1) <= t->size)
		return;
	bigger.size = t->size ? 2 * t->size : 64;
	bigger.nr = t->nr;
	bigger.slots = xcalloc(bigger.size, sizeof(*bigger.slots));
	for (i = 0; i < t->size; i++) {
		struct memo *m = t->slots[i];

		if (m)
			*table_slot(&bigger, m->key, m->key_len, m->mode,
				    m->hash) = m;
	}
	free(t->slots);
	*t = bigger;
}

/* Until m is done; the lock is held. */
static void wait_done(struct verify_memos *ms, const struct memo *m)
{
	while (!m->done)
		pthread_cond_wait(&ms->filled, &ms->lock);
}

struct memo *memo_claim(struct verify_memos *ms, struct memo_table *t,
			const char *key, size_t len, int mode, int *mine)
{
	struct resolved_input init = RESOLVED_INPUT_INIT;
	unsigned hash = key_hash(key, len, mode);
	struct memo **slot, *m = near_find(ms, t, key, len, mode, hash);

	*mine = 0;
	if (m)
		return m;
	pthread_mutex_lock(&ms->lock);
	table_grow(t);
	slot = table_slot(t, key, len, mode, hash);
	m = *slot;
	*mine = !m;
	if (m) {
		wait_done(ms, m);
		near_add(ms, t, m);
	} else {
		m = *slot = xcalloc(1, sizeof(*m));
		m->key = xmemdupz(key, len);
		m->key_len = len;
		m->mode = mode;
		m->hash = hash;
		m->in = init;
		t->nr++;
	}
	pthread_mutex_unlock(&ms->lock);
	return m;
}

void memo_done(struct verify_memos *ms, struct memo *m)
{
	pthread_mutex_lock(&ms->lock);
	m->done = 1;
	pthread_cond_broadcast(&ms->filled);
	pthread_mutex_unlock(&ms->lock);
}

struct memo *memo_get(struct verify_memos *ms, struct memo_table *t,
		      const char *key, size_t len, int mode)
{
	unsigned hash = key_hash(key, len, mode);
	struct memo *m = near_find(ms, t, key, len, mode, hash);

	if (m)
		return m;
	pthread_mutex_lock(&ms->lock);
	if (t->size)
		m = *table_slot(t, key, len, mode, hash);
	if (m) {
		wait_done(ms, m);
		near_add(ms, t, m);
	}
	pthread_mutex_unlock(&ms->lock);
	return m;
}
