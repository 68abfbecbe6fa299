/*
 * Strings packed into one cache value (see cache-pack.h).  The verdict
 * level stores a sidecar's shown fields this way; anything in a store
 * may have been damaged, so unpacking refuses all but the exact
 * spelling packing writes.
 */
#include "config.h"
#include "cache-pack.h"
#include "usage.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define PACK_MAGIC "p1"

/* [A-Za-z0-9._/:@+-]: the bytes a value holds as they are */
static const unsigned char plain_byte[256] = {
	['a' ... 'z'] = 1, ['A' ... 'Z'] = 1, ['0' ... '9'] = 1,
	['.'] = 1, ['_'] = 1, ['/'] = 1, [':'] = 1, ['@'] = 1, ['+'] = 1,
	['-'] = 1,
};

static int plain(unsigned char ch)
{
	return plain_byte[ch];
}

void cache_pack(struct strbuf *out, const char *const *strings, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p, *run;
	size_t i;

	strbuf_addstr(out, PACK_MAGIC);
	for (i = 0; i < n; i++) {
		strbuf_addch(out, ',');
		if (!strings[i]) {
			strbuf_addch(out, '~');
			continue;
		}
		/* runs of plain bytes whole, each other byte as %XX */
		for (p = run = (const unsigned char *)strings[i]; *p; p++) {
			char esc[3];

			if (plain(*p))
				continue;
			strbuf_add(out, run, (size_t)(p - run));
			esc[0] = '%';
			esc[1] = hex[*p >> 4];
			esc[2] = hex[*p & 15];
			strbuf_add(out, esc, 3);
			run = p + 1;
		}
		strbuf_add(out, run, (size_t)(p - run));
	}
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;	/* lower case is not what cache_pack() writes */
}

/*
 * One field, [p, end), decoded onto s after a NUL-terminated copy;
 * *null set for the NULL field.  Returns 0, or -1 for a byte
 * cache_pack() would not have written there.
 */
static int unpack_field(struct strbuf *s, int *null, const char *p,
			const char *end)
{
	const char *run = p;
	int hi, lo;

	*null = end - p == 1 && *p == '~';
	if (*null)
		return 0;
	/* runs of plain bytes whole, as cache_pack() wrote them */
	for (; p < end; p++) {
		if (*p != '%') {
			if (!plain(*p))
				return -1;
			continue;
		}
		strbuf_add(s, run, (size_t)(p - run));
		if (end - p < 3)
			return -1;
		hi = hexval(p[1]);
		lo = hexval(p[2]);
		/* a NUL would cut the string; a plain byte is never escaped */
		if (hi < 0 || lo < 0 || !(hi << 4 | lo) || plain(hi << 4 | lo))
			return -1;
		strbuf_addch(s, (char)(hi << 4 | lo));
		p += 2;
		run = p + 1;
	}
	strbuf_add(s, run, (size_t)(p - run));
	strbuf_addch(s, '\0');
	return 0;
}

int cache_unpack(char **strings, size_t n, const char *value)
{
	struct strbuf all = STRBUF_INIT;
	const char *p = value, *end;
	uint64_t is_null = 0;
	size_t i;
	char *block, *at;

	memset(strings, 0, n * sizeof(*strings));
	if (n > CACHE_UNPACK_MAX || strncmp(p, PACK_MAGIC, strlen(PACK_MAGIC)))
		return -1;
	p += strlen(PACK_MAGIC);
	/* decoded is never longer than packed: one allocation for all */
	strbuf_grow(&all, strlen(p));
	for (i = 0; i < n; i++) {
		int null;

		if (*p != ',')
			goto bad;
		p++;
		end = strchrnul(p, ',');
		if (unpack_field(&all, &null, p, end))
			goto bad;
		if (null)
			is_null |= (uint64_t)1 << i;
		p = end;
	}
	if (*p)
		goto bad;
	/* each string NUL-terminated after the one before */
	block = at = strbuf_detach(&all, NULL);
	for (i = 0; i < n; i++)
		if (!(is_null >> i & 1)) {
			strings[i] = at;
			at += strlen(at) + 1;
		}
	/* all NULL: the block is no one's */
	if (at == block)
		free(block);
	return 0;
bad:
	strbuf_release(&all);
	return -1;
}

void cache_pack_free(char **strings, size_t n)
{
	size_t i;
	int freed = 0;

	/* one block, which the first string that is not NULL starts */
	for (i = 0; i < n; i++) {
		if (strings[i] && !freed) {
			free(strings[i]);
			freed = 1;
		}
		strings[i] = NULL;
	}
}
