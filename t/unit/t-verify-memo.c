/*
 * The memos of a verify run (verify-memo.h), through each thread's
 * entries kept in front of the lock (verify-memo.c: struct near): an
 * entry answers only for its own key, never for another key of the same
 * hash and length, which a sidecar can name on purpose (FNV-1a is no
 * defence) to be given another input's hash.
 */
#include "config.h"
#include "tap.h"
#include "verify/verify-memo.h"

#include <string.h>

/* One length, one key_hash() in mode 0: found by trying names. */
#define KEY_A "tokens/00012789.yml"
#define KEY_B "tokens/00249192.yml"

static struct memo *get(struct verify_memos *ms, const char *key)
{
	return memo_get(ms, &ms->hashes, key, strlen(key), 0);
}

int main(void)
{
	struct verify_memos *ms = verify_memos_new(1);
	struct memo *a, *b;
	int mine;

	plan(5);
	a = memo_claim(ms, &ms->hashes, KEY_A, strlen(KEY_A), 0, &mine);
	ok(mine, "a key not seen before is the caller's to fill");
	memo_done(ms, a);
	ok(get(ms, KEY_A) == a, "found again (and kept in front of the lock)");
	ok(!get(ms, KEY_B), "a key of the same hash and length is not found");
	b = memo_claim(ms, &ms->hashes, KEY_B, strlen(KEY_B), 0, &mine);
	ok(mine && b != a, "it gets an entry of its own");
	memo_done(ms, b);
	ok(get(ms, KEY_A) == a && get(ms, KEY_B) == b, "each key its entry");
	verify_memos_free(ms);
	return 0;
}
