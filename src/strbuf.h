#ifndef STRBUF_H
#define STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable byte buffer that is always NUL-terminated (buf[len] == '\0'),
 * so it can be handed to functions that want C strings, while len allows
 * embedded NULs.  STRBUF_INIT needs no release until something is added;
 * strbuf_release() frees the contents and leaves an empty, reusable buffer.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller, who frees it; sb is left empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len_out);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
/* n in decimal, without printf: for writers of many numbers */
void strbuf_add_uint(struct strbuf *sb, unsigned long long n);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static inline void strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->len + 1 >= sb->alloc)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

/*
 * Append s escaped for a GitHub workflow command: a property value (file=,
 * title=) when property is set, else the message data.  Controls and
 * terminal-significant code points other than the line breaks (which the
 * workflow command encodes) are escaped as quote_escape() does (quote.h).
 */
void strbuf_add_gh_escaped(struct strbuf *out, const char *s, int property);

/*
 * Append s with control characters (and DEL) as \xHH, and the rest
 * quote_escape() escapes (quote.h): one line of text.
 */
void strbuf_add_printable(struct strbuf *sb, const char *s);

#endif
