#include "config.h"
#include "strbuf.h"
#include "quote.h"
#include "usage.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shared empty buffer for unallocated strbufs; never written. */
char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len_out)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len_out)
		*len_out = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int fresh = !sb->alloc;
	size_t want;

	if (sb->len > (size_t)-1 - extra - 1)
		die("strbuf: size overflow");
	want = sb->len + extra + 1;
	if (fresh)
		sb->buf = NULL;
	if (want > sb->alloc) {
		size_t n = sb->alloc < 64 ? 64 : sb->alloc + sb->alloc / 2;

		if (n < want)
			n = want;
		sb->buf = xrealloc(sb->buf, n);
		sb->alloc = n;
	}
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen beyond allocation");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_add_uint(struct strbuf *sb, unsigned long long n)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	strbuf_add(sb, buf + i, sizeof(buf) - i);
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
		      fmt, ap);
	if (n < 0)
		BUG("vsnprintf failed");
	if (!sb->alloc || (size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, again);
	}
	va_end(again);
	sb->len += n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_gh_escaped(struct strbuf *out, const char *s, int property)
{
	while (*s) {
		size_t n;

		if (*s == '%')
			strbuf_addstr(out, "%25");
		else if (*s == '\r')
			strbuf_addstr(out, "%0D");
		else if (*s == '\n')
			strbuf_addstr(out, "%0A");
		else if (property && *s == ':')
			strbuf_addstr(out, "%3A");
		else if (property && *s == ',')
			strbuf_addstr(out, "%2C");
		else if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
			strbuf_addch(out, *s);
		else {
			/*
			 * The run up to the next printable ASCII byte: the
			 * log a runner shows would act on escape sequences.
			 */
			for (n = 1; s[n] && ((unsigned char)s[n] < 0x20 ||
					     (unsigned char)s[n] >= 0x7f) &&
			     s[n] != '\r' && s[n] != '\n'; n++)
				;
			quote_escape(out, s, n);
			s += n;
			continue;
		}
		s++;
	}
}

void strbuf_add_printable(struct strbuf *sb, const char *s)
{
	quote_escape(sb, s, strlen(s));
}
