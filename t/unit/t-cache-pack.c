/*
 * cache_pack() and cache_unpack() on random lists of random strings:
 * the packed spelling is the one a byte-at-a-time encoder (kept here as
 * the oracle) writes, and unpacking gives the very strings back.
 */
#include "config.h"
#include "cache/cache-pack.h"
#include "strbuf.h"
#include "tap.h"

#include <stdint.h>
#include <string.h>

static uint64_t seed = 0xcace;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(seed >> 33) % n;
}

static void oracle(struct strbuf *out, char **s, size_t n)
{
	size_t i;
	const unsigned char *p;

	strbuf_addstr(out, "p1");
	for (i = 0; i < n; i++) {
		strbuf_addch(out, ',');
		if (!s[i]) {
			strbuf_addch(out, '~');
			continue;
		}
		for (p = (const unsigned char *)s[i]; *p; p++)
			if (strchr("abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789._/:@+-", *p))
				strbuf_addch(out, *p);
			else
				strbuf_addf(out, "%%%02X", *p);
	}
}

int main(void)
{
	static const char some[] = "az09AZ._/:@+-%,~ \x01\x7f\x80\xff";
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char buf[4][24], *s[4], *back[4];
	int round, i, j, wrong = 0;

	plan(4);
	for (round = 0; round < 5000; round++) {
		for (i = 0; i < 4; i++) {
			int len = (int)rnd(sizeof(buf[i]));

			/* the bytes that matter, and any but NUL */
			for (j = 0; j < len; j++)
				buf[i][j] = rnd(2) ?
					some[rnd(sizeof(some) - 1)] :
					(char)(1 + rnd(255));
			buf[i][len] = '\0';
			s[i] = rnd(8) ? buf[i] : NULL;
		}
		strbuf_reset(&a);
		strbuf_reset(&b);
		cache_pack(&a, (const char *const *)s, 4);
		oracle(&b, s, 4);
		if (strcmp(a.buf, b.buf) || cache_unpack(back, 4, a.buf))
			wrong++;
		else
			for (i = 0; i < 4; i++)
				if (!s[i] != !back[i] ||
				    (s[i] && strcmp(s[i], back[i])))
					wrong++;
		cache_pack_free(back, 4);
	}
	ok(!wrong, "packed as byte by byte, unpacked the same (%d wrong)",
	   wrong);

	/* every string in one block: none of them is the block's owner */
	ok(!cache_unpack(back, 4, "p1,~,~,~,~") && !back[0] && !back[1] &&
	   !back[2] && !back[3], "four NULLs unpack to four NULLs");
	cache_pack_free(back, 4);
	ok(cache_unpack(back, 4, "p1,a,b%2,c,d") && !back[0] && !back[3],
	   "a bad escape in the second refuses the whole, all NULL");
	ok(!cache_unpack(back, 2, "p1,~,x") && !back[0] && back[1] &&
	   !strcmp(back[1], "x"), "a string after a NULL starts the block");
	cache_pack_free(back, 2);
	strbuf_release(&a);
	strbuf_release(&b);
	return 0;
}
