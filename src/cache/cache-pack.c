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
 * One field, [p, end), decoded into *out.  Returns 0, or -1 for a byte
 * cache_pack() would not have written there.
 */
static int unpack_field(char **out, const char *p, const char *end)
{
	struct strbuf s = STRBUF_INIT;
	const char *run = p;
	int hi, lo;

	if (end - p == 1 && *p == '~')
		return 0;	/* NULL */
	/* runs of plain bytes whole, as cache_pack() wrote them */
	strbuf_grow(&s, (size_t)(end - p));
	for (; p < end; p++) {
		if (*p != '%') {
			if (!plain(*p))
				goto bad;
			continue;
		}
		strbuf_add(&s, run, (size_t)(p - run));
		if (end - p < 3)
			goto bad;
		hi = hexval(p[1]);
		lo = hexval(p[2]);
		/* a NUL would cut the string; a plain byte is never escaped */
		if (hi < 0 || lo < 0 || !(hi << 4 | lo) || plain(hi << 4 | lo))
			goto bad;
		strbuf_addch(&s, (char)(hi << 4 | lo));
		p += 2;
		run = p + 1;
	}
	strbuf_add(&s, run, (size_t)(p - run));
	*out = strbuf_detach(&s, NULL);
	return 0;
bad:
	strbuf_release(&s);
	return -1;
}

int cache_unpack(char **strings, size_t n, const char *value)
{
	const char *p = value, *end;
	size_t i;

	memset(strings, 0, n * sizeof(*strings));
	if (strncmp(p, PACK_MAGIC, strlen(PACK_MAGIC)))
		return -1;
	p += strlen(PACK_MAGIC);
	for (i = 0; i < n; i++) {
		if (*p != ',')
			goto bad;
		p++;
		end = strchrnul(p, ',');
		if (unpack_field(&strings[i], p, end))
			goto bad;
		p = end;
	}
	if (!*p)
		return 0;
bad:
	cache_pack_free(strings, n);
	return -1;
}

void cache_pack_free(char **strings, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(strings[i]);
		strings[i] = NULL;
	}
}
