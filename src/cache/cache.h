#ifndef CACHE_H
#define CACHE_H

#include <stddef.h>
#include "hash/hashfile.h"
#include "strbuf.h"

/*
 * A persistent, content-addressed cache of what verification computes,
 * kept in the git directory (the common one, which linked worktrees
 * share): <common git dir>/ahd-replay/cache/store.
 *
 * Keys name content, never stat data: an input's key is the git blob id
 * of the bytes just read (digest_blob_id()) with the hash mode, and its
 * value carries the bytes' SHA-256 too, checked on every hit, so an
 * entry answers only for the bytes whose SHA-256 it records.  Whether
 * the hash it gives for them is right rests on who wrote the store.
 * The store's header names its format, the hash contract, the tool's
 * version and its build (the executable's size and modification time)
 * that wrote it: a store from another version or build is ignored, as is
 * one whose closing checksum (SHA-256 of everything before it) does not
 * match, so a truncated or corrupted store is rebuilt.  The checksum
 * detects corruption, not forgery: anyone can recompute it.  So a store
 * is read only when it and its directory are owned by this user and
 * writable by no one else (the directory made 0700, the store 0600);
 * beyond that it is as trusted as the git directory, and whoever can
 * write there, or restore it (a CI cache from another run), can make a
 * hit lie.
 *
 * The store is one file, read once at open and, when the run added
 * anything, merged with what is on disk then (a concurrent run's
 * entries are kept) and replaced atomically (write_file_atomic(): a
 * temporary file renamed over it, a symlink in its place replaced, not
 * followed).  Two runs saving at once lose at most each other's new
 * entries: a later miss.  A git directory that cannot be written
 * leaves the cache read-only or absent, silently.
 *
 * Bounded: at most CACHE_MAX_ENTRIES entries.  Each entry carries the
 * number of the run that last wrote it or used it and saved (a run that
 * only reads writes nothing, so its uses are not recorded); a save over
 * the limit keeps at most CACHE_KEEP_ENTRIES, the most recent ones.
 *
 * Safe to use from several threads at once (lookups share a lock;
 * adding and saving take it alone).  The store is read on a thread of
 * its own, so that opening returns at once; the first use waits for
 * it, as does cache_free() of a cache never used.
 * Until then that thread runs: fork() only before opening a cache or
 * after its first use (a child of a process with threads may only call
 * async-signal-safe functions until it execs; replay forks after
 * verify_run_release()).
 */

/*
 * An input entry is about 190 bytes, so a store of input entries only
 * is under 40 MB, within CACHE_MAX_BYTES: a store too large to be read
 * back would be rebuilt on every run.  A verdict entry (one per report,
 * keyed CACHE_VERDICT_PREFIX..., verify/verify-cached.h) is about 350:
 * 100,000 reports over a few hundred inputs make a store of about 35 MB.
 * The hooks keep one entry of about 100 bytes per sidecar blob (keyed
 * HOOK_SCAN_PREFIX..., hooks/hookscan.h) in a store of their own,
 * "hooks" beside "store" (cache_open_named()).
 * A save that would pass CACHE_MAX_BYTES keeps of the verdict entries
 * only this run's, then none, and the input entries in any case; only a
 * store too large with input entries alone is not written.
 */
#define CACHE_MAX_ENTRIES 200000
#define CACHE_KEEP_ENTRIES 150000
/* A store larger than this is neither read nor written. */
#define CACHE_MAX_BYTES ((size_t)64 << 20)

/* How the keys of the verdict level start (see above). */
#define CACHE_VERDICT_PREFIX "vd."

/*
 * The version of the hash contract (SPEC section 4) as this code
 * computes it; a change to what any input hashes to bumps it, so that
 * no store written before is believed.
 */
#define CACHE_CONTRACT 1

/* The configuration key that turns the cache off: ahd-replay.cache. */
#define CACHE_CONFIG_KEY "ahd-replay.cache"

struct cache;

/*
 * The cache of the repository around dir, or NULL when there is none:
 * outside a repository, ahd-replay.cache set to false (a value that is
 * no boolean is warned about and turns it off), or AHD_REPLAY_NO_CACHE
 * set in the environment.  An unreadable store, or one someone else
 * could have written, gives an empty cache that a save rebuilds.  Free with cache_free().
 */
struct cache *cache_open(const char *dir);

/*
 * cache_open() of another store beside it, <common git dir>/ahd-replay/
 * cache/<name>, under the same rules: for a level that a run uses
 * without the others (the hooks'), so that it neither loads nor
 * rewrites their entries.
 */
struct cache *cache_open_named(const char *dir, const char *name);

/*
 * The store at path, for the tests and cache_open(): never NULL (an
 * empty cache when path cannot be read or believed, as above).
 */
struct cache *cache_open_path(const char *path);

/*
 * The value stored for key, copied into value (reset first): 1 when
 * found, 0 when not.  c may be NULL (nothing is found).
 */
int cache_get(struct cache *c, const char *key, struct strbuf *value);

/*
 * Store value for key (both printable ASCII without spaces: what is
 * not is silently not stored).  c may be NULL.
 */
void cache_put(struct cache *c, const char *key, const char *value);

/*
 * Write the store back when this run added to it (see above).  Returns
 * 0, or -1 when it could not be written (the caller goes on: a cache
 * that cannot be saved is only slower next time).
 */
int cache_save(struct cache *c);

/* Save (quietly), then release everything; c may be NULL. */
void cache_free(struct cache *c);

/*
 * The hash of len bytes as read from an input (not yet repaired as SPEC
 * 4.1 says), in mode HASH_STRUCTURED or HASH_JCS, through the cache:
 * the key is the bytes' blob id and the mode, so a hit answers for these
 * very bytes; a miss repairs, parses and hashes them (hash_text()) and
 * stores a hash, never an error.  Returns as hash_text(): 0 with
 * "sha256:<hex>" in out (HASH_HEX_MAX bytes), or its error with the
 * reason in err.  c may be NULL: then nothing is looked up or stored.
 */
int cache_hash_bytes(struct cache *c, char *out, const char *bytes,
		     size_t len, enum hash_mode mode, struct strbuf *err);

#endif
