/*
 * cache/: the store's round trip, its bound, what it refuses to
 * believe, and the input level's keys (git blob ids of the bytes).
 */
#include "config.h"
#include "cache/cache.h"
#include "cache/cache-int.h"
#include "cache/cache-pack.h"
#include "hash/digest.h"
#include "hash/hashfile.h"
#include "strbuf.h"
#include "tap.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check_blob_id(const char *bytes, const char *want)
{
	char id[DIGEST_BLOB_ID_HEX];

	ok(!digest_blob_id(id, bytes, strlen(bytes)), "blob id of %zu bytes",
	   strlen(bytes));
	is_string(want, id, "it is what git hash-object prints");
}

static int has(struct cache *c, const char *key)
{
	struct strbuf v = STRBUF_INIT;
	int found = cache_get(c, key, &v);

	strbuf_release(&v);
	return found;
}

static void check_round_trip_and_bound(const char *path)
{
	struct strbuf key = STRBUF_INIT;
	struct cache *c = cache_open_path(path);
	int i, n;

	ok(!has(c, "k0"), "an absent store is an empty cache");
	for (i = 0; i < 10; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "k%d", i);
		cache_put(c, key.buf, "v");
	}
	cache_put(c, "with space", "v");
	cache_put(c, "k", "new\nline");
	is_int(0, cache_save(c), "saved");
	cache_free(c);

	c = cache_open_path(path);
	for (i = n = 0; i < 10; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "k%d", i);
		n += has(c, key.buf);
	}
	is_int(10, n, "every entry read back");
	ok(!has(c, "with space") && !has(c, "k"),
	   "keys and values with spaces or newlines are not stored");

	cache_free(c);	/* nothing added: not written, uses forgotten */

	/* run 2 uses two old entries and adds three: those five stay */
	c = cache_open_path(path);
	c->max_entries = 8;
	c->keep_entries = 5;
	ok(has(c, "k0") && has(c, "k1"), "two entries used");
	cache_put(c, "n0", "v");
	cache_put(c, "n1", "v");
	cache_put(c, "n2", "v");
	is_int(0, cache_save(c), "saved over the bound");
	cache_free(c);

	c = cache_open_path(path);
	cache_wait_loaded(c);	/* read on a thread of its own */
	is_int(5, c->t.nr, "pruned to the entries of the newest run");
	ok(has(c, "k0") && has(c, "n2") && !has(c, "k2"),
	   "the ones used or added last are kept");
	cache_free(c);
	strbuf_release(&key);
}

static void check_refused(const char *path)
{
	struct cache *c = cache_open_path(path);
	struct strbuf text = STRBUF_INIT;
	struct cache_table t;
	FILE *fp = fopen(path, "r");
	char buf[4096];
	size_t len = fp ? fread(buf, 1, sizeof(buf), fp) : 0;

	if (fp)
		fclose(fp);
	ok(len > 0, "the store is on disk");
	memset(&t, 0, sizeof(t));
	strbuf_add(&text, buf, len);
	is_int(0, cache_parse(&t, &text, c->magic.buf), "whole: believed");
	cache_table_release(&t);

	strbuf_reset(&text);
	strbuf_add(&text, buf, len - 1);
	is_int(-1, cache_parse(&t, &text, c->magic.buf),
	       "without its last newline: refused");
	strbuf_reset(&text);
	strbuf_add(&text, buf, len / 2);
	strbuf_addch(&text, '\n');
	is_int(-1, cache_parse(&t, &text, c->magic.buf), "halved: refused");
	strbuf_reset(&text);
	strbuf_add(&text, buf, len);
	text.buf[text.len / 2] ^= 1;
	is_int(-1, cache_parse(&t, &text, c->magic.buf),
	       "one bit flipped: refused");
	strbuf_reset(&text);
	strbuf_add(&text, buf, len);
	is_int(-1, cache_parse(&t, &text, "ahd-replay-cache 2 "),
	       "another header: refused");
	is_int(0, (long long)t.nr, "nothing kept from a refused store");
	cache_free(c);
	strbuf_release(&text);
}

static void check_input_level(const char *path)
{
	struct cache *c = cache_open_path(path);
	struct strbuf err = STRBUF_INIT, key = STRBUF_INIT;
	char want[HASH_HEX_MAX], got[HASH_HEX_MAX], id[DIGEST_BLOB_ID_HEX];
	const char *yaml = "b: 2\na: 1\n";

	ok(!hash_text(want, yaml, strlen(yaml), HASH_STRUCTURED, &err),
	   "hash_text");
	ok(!cache_hash_bytes(NULL, got, yaml, strlen(yaml), HASH_STRUCTURED,
			     &err), "no cache: hashed");
	is_string(want, got, "no cache: the same hash");
	ok(!cache_hash_bytes(c, got, yaml, strlen(yaml), HASH_STRUCTURED,
			     &err), "a miss: hashed and stored");
	is_string(want, got, "a miss: the same hash");
	ok(!digest_blob_id(id, yaml, strlen(yaml)), "blob id");
	strbuf_addf(&key, "in.s.%s", id);
	ok(has(c, key.buf), "stored under in.s.<blob id>");
	{
		struct strbuf v = STRBUF_INIT;
		char sum[DIGEST_HEX_MAX];

		ok(!digest_buffer_hex(sum, yaml, strlen(yaml)), "sha256");
		cache_get(c, key.buf, &v);
		strbuf_addf(&key, " %s@%s", want, sum + 7);
		is_string(strchr(key.buf, ' ') + 1, v.buf,
			  "the value: the hash, @, the bytes' SHA-256");
		strbuf_release(&v);
	}
	strbuf_reset(&key);
	strbuf_addf(&key, "in.j.%s", id);
	ok(!has(c, key.buf), "not under another mode's key");

	/* a value that is not a hash is never handed out */
	strbuf_reset(&key);
	strbuf_addf(&key, "in.s.%s", id);
	cache_put(c, key.buf, "sha256:not-a-hash");
	ok(!cache_hash_bytes(c, got, yaml, strlen(yaml), HASH_STRUCTURED,
			     &err), "a malformed value: hashed again");
	is_string(want, got, "and the hash is right");

	/*
	 * Nor one stored for other bytes under the same blob id (what a
	 * SHA-1 collision would give): the SHA-256 beside it differs.
	 */
	{
		struct strbuf v = STRBUF_INIT;

		strbuf_addf(&v, "sha256:%064d@%064d", 0, 0);
		cache_put(c, key.buf, v.buf);
		strbuf_release(&v);
	}
	ok(!cache_hash_bytes(c, got, yaml, strlen(yaml), HASH_STRUCTURED,
			     &err), "another bytes' value: hashed again");
	is_string(want, got, "and the hash is right");

	ok(cache_hash_bytes(c, got, "a: [", 4, HASH_STRUCTURED, &err) ==
	   HASH_EINVALID, "invalid YAML: the error");
	ok(!digest_blob_id(id, "a: [", 4), "blob id");
	strbuf_reset(&key);
	strbuf_addf(&key, "in.s.%s", id);
	ok(!has(c, key.buf), "and no entry for it");
	c->dirty = 0;	/* nothing of this is saved */
	cache_free(c);
	strbuf_release(&err);
	strbuf_release(&key);
}

/*
 * A save over the byte bound drops the verdict level's entries (older
 * runs' first) before it would drop the store.
 */
static void check_byte_bound(const char *path)
{
	struct strbuf key = STRBUF_INIT, big = STRBUF_INIT;
	struct cache *c;
	int i;

	unlink(path);
	c = cache_open_path(path);
	cache_put(c, "in.s.1", "v");
	for (i = 0; i < 400; i++)
		strbuf_addch(&big, 'x');
	cache_put(c, CACHE_VERDICT_PREFIX "old", big.buf);
	is_int(0, cache_save(c), "saved");
	cache_free(c);

	c = cache_open_path(path);
	for (i = 0; i < 40; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, CACHE_VERDICT_PREFIX "new%d", i);
		cache_put(c, key.buf, "v");
	}
	/* the header, the input, the new verdicts, not the old one */
	c->max_bytes = c->magic.len + 900;
	is_int(0, cache_save(c), "saved over the byte bound");
	cache_free(c);
	c = cache_open_path(path);
	ok(has(c, "in.s.1") && !has(c, CACHE_VERDICT_PREFIX "old") &&
	   has(c, CACHE_VERDICT_PREFIX "new0"),
	   "an older run's verdicts go first");
	cache_put(c, "in.s.2", "v");
	for (i = 0; i < 80; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, CACHE_VERDICT_PREFIX "newer%d", i);
		cache_put(c, key.buf, "v");
	}
	c->max_bytes = c->magic.len + 900;
	is_int(0, cache_save(c), "saved far over the byte bound");
	cache_free(c);
	c = cache_open_path(path);
	ok(has(c, "in.s.1") && has(c, "in.s.2") &&
	   !has(c, CACHE_VERDICT_PREFIX "new0") &&
	   !has(c, CACHE_VERDICT_PREFIX "newer0"),
	   "then every verdict, never an input");
	cache_free(c);
	strbuf_release(&key);
	strbuf_release(&big);
}

static void check_pack(void)
{
	const char *in[4] = { "plain-._/:@+", NULL, "", "a b,%~\x01\xff" };
	char *out[4];
	struct strbuf v = STRBUF_INIT;
	static const char *const bad[] = {
		"p1,a,~,", "p1,a,~,,b,c", "p2,a,~,,b",
		"p1,a%2c,~,,b", "p1,a%2,~,,b", "p1,a%00,~,,b", "p1,a%41,~,,b",
		"p1,a b,~,,b", "p1,a~,~,,b", "", "p1",
	};
	size_t i;

	cache_pack(&v, in, 4);
	is_string("p1,plain-._/:@+,~,,a%20b%2C%25%7E%01%FF", v.buf,
		  "packed: percent-encoded, ~ for NULL");
	ok(!cache_unpack(out, 4, v.buf), "unpacked");
	ok(!strcmp(out[0], in[0]) && !out[1] && !strcmp(out[2], "") &&
	   !strcmp(out[3], in[3]), "the same strings back");
	cache_pack_free(out, 4);
	ok(cache_unpack(out, 3, v.buf) && !out[0],
	   "a list of another length: refused");
	ok(!cache_unpack(out, 4, "p1,a,~,,b"), "control: a list of 4");
	cache_pack_free(out, 4);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ok(cache_unpack(out, 4, bad[i]) && !out[0] && !out[3],
		   "refused: %s", bad[i]);
	strbuf_release(&v);
}

#define SHARED_KEYS 2000
#define THREAD_KEYS 1000
#define THREADS 4

struct user {
	struct cache *c;
	int *go;		/* set once every thread is started */
	int self;
	int found, wrong;	/* of the stored keys, and of its own */
};

/* One of several threads: the stored keys, then keys of its own. */
static void *use_cache(void *data)
{
	struct user *u = data;
	struct strbuf key = STRBUF_INIT, v = STRBUF_INIT;
	int i;

	/* all at once, for the store's first use too */
	while (!__atomic_load_n(u->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (i = 0; i < SHARED_KEYS; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "s%d", i);
		if (cache_get(u->c, key.buf, &v) && !strcmp(v.buf, "v"))
			u->found++;
	}
	/* each put may grow the table while the others look up */
	for (i = 0; i < THREAD_KEYS; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "t%d-%d", u->self, i);
		cache_put(u->c, key.buf, key.buf);
		if (!cache_get(u->c, key.buf, &v) || strcmp(v.buf, key.buf))
			u->wrong++;
	}
	strbuf_release(&key);
	strbuf_release(&v);
	return NULL;
}

/*
 * Threads use a cache at once from its opening, while its store is
 * still being read: each sees every stored entry and its own puts.
 */
static void check_threads(const char *path)
{
	struct strbuf key = STRBUF_INIT;
	struct cache *c;
	struct user u[THREADS];
	pthread_t tid[THREADS];
	int i, started = 0, found = 0, wrong = 0, go = 0;

	unlink(path);	/* the earlier checks' entries */
	c = cache_open_path(path);
	for (i = 0; i < SHARED_KEYS; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "s%d", i);
		cache_put(c, key.buf, "v");
	}
	is_int(0, cache_save(c), "a store of %d entries", SHARED_KEYS);
	cache_free(c);

	c = cache_open_path(path);
	for (i = 0; i < THREADS; i++) {
		memset(&u[i], 0, sizeof(u[i]));
		u[i].c = c;
		u[i].self = i;
		u[i].go = &go;
		if (!pthread_create(&tid[i], NULL, use_cache, &u[i]))
			started++;
		else
			break;
	}
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		found += u[i].found;
		wrong += u[i].wrong;
	}
	ok(started > 1, "%d threads started", started);
	is_int(started * SHARED_KEYS, found, "each saw every stored entry");
	is_int(0, wrong, "and every one of its own");
	cache_wait_loaded(c);
	is_int(SHARED_KEYS + started * THREAD_KEYS, (long long)c->t.nr,
	       "no put lost");
	cache_free(c);
	strbuf_release(&key);
}

int main(void)
{
	char dir[] = "/tmp/t-cache.XXXXXX";
	struct strbuf path = STRBUF_INIT;

	plan_lazy();
	check_blob_id("", "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
	check_blob_id("hello\n", "ce013625030ba8dba906f756967f9e9ca394464a");
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return 1;
	}
	strbuf_addf(&path, "%s/store", dir);
	check_round_trip_and_bound(path.buf);
	check_refused(path.buf);
	check_input_level(path.buf);
	check_byte_bound(path.buf);
	check_pack();
	check_threads(path.buf);
	unlink(path.buf);
	rmdir(dir);
	strbuf_release(&path);
	return 0;
}
