#ifndef VERIFY_MEMO_H
#define VERIFY_MEMO_H

/*
 * The memos of a verify run (verify.c's only): many reports share a
 * directory (so a root), a recorded path (so where it leads) and a
 * token or brief (so a hash), and each is worked out once per run.
 *
 * Reports are verified on several threads (verify-batch.c).  The lock
 * is held only to look a key up or add it, never over the work: the
 * thread that adds a key fills its entry unlocked and then marks it
 * done; a thread that wants a key still being filled waits for that
 * entry, while every other key stays free.  A done entry never changes
 * again, so it is read without the lock, and each thread keeps the done
 * entries it met in front of the tables (verify-memo.c: struct near).
 * Filling an entry waits at most on an entry whose filling waits on
 * nothing (a directory's root on that root's description), so no two
 * threads wait on each other.
 */
#include "hash/hashfile.h"
#include "root/inputpath.h"
#include "root/root.h"
#include "verify-int.h"
#include "strbuf.h"

#include <pthread.h>

struct memo {
	char *key;
	size_t key_len;
	int mode;		/* a hash's mode; 0 for a directory's root,
				   1 + origin for a root's description */
	unsigned hash;
	int done;		/* filled (set and read under the lock) */

	/* roots: the root's path in text, or its error with origin < 0 */
	int origin;
	char *note, *warning;	/* root_describe()'s, or NULL */

	/* hashes: ret is hash_text()'s answer, text its error */
	int ret;
	char hex[HASH_HEX_MAX];
	char *text;
	int read_rc;		/* nonzero: unread, text says why */

	/* recorded paths: where one led */
	struct resolved_input in;
};

struct memo_table {
	struct memo **slots;	/* open addressing; NULL is free */
	size_t nr, size;	/* size is 0 or a power of two */
};

/* --at: the commit opened once per root, or why it could not be. */
struct at_memo {
	char *root;
	struct at_commit at;
	struct strbuf err;
};

struct verify_memos {
	unsigned long run;	/* this set's number in the process */
	pthread_mutex_t lock;
	pthread_cond_t filled;	/* some entry was marked done */
	struct memo_table roots, resolved, hashes;
	/* checkedout_state() of a failed input: root, NUL, path */
	struct memo_table checkedout;
	struct at_memo **ats;	/* each its own: origins hold pointers */
	size_t nr_ats, alloc_ats;
	struct cache *cache;	/* the persistent one, or NULL */
	/* what finding roots learnt (root.h), one directory at a time */
	pthread_mutex_t root_lock;
	struct root_memo root_memo;
};

/* A new set of memos with the persistent cache of the current directory. */
struct verify_memos *verify_memos_new(int no_cache);
void verify_memos_free(struct verify_memos *m);

/*
 * The entry for (key, len, mode) in t.  When there is none, adds it and
 * sets *mine: the caller fills it and calls memo_done().  Otherwise
 * waits until it is done and returns it with *mine 0.
 */
struct memo *memo_claim(struct verify_memos *ms, struct memo_table *t,
			const char *key, size_t len, int mode, int *mine);

/* The caller filled m (memo_claim() gave it): wake who waits for it. */
void memo_done(struct verify_memos *ms, struct memo *m);

/* The done entry for key in t, waiting while it is filled; NULL if none. */
struct memo *memo_get(struct verify_memos *ms, struct memo_table *t,
		      const char *key, size_t len, int mode);

/* Frees what an entry (in a table or not) owns, not the entry itself. */
void memo_clear(struct memo *m);

#endif
