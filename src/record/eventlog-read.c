/*
 * Reading a REPLAY.jsonl log for eventlog.c: large reads into one buffer
 * that is reused for the whole file, lines checked where they lie in it,
 * and a line longer than the limit refused before it is read any further,
 * so that memory stays within the limit whatever the file holds.
 */
#include "config.h"
#include "eventlog.h"
#include "fs/readfile.h"

#include <errno.h>
#include <string.h>

/* Bytes asked of each read: large enough to make the calls rare. */
#define READ_CHUNK (256u << 10)

/* Rewritten lines go to the writer in chunks of this size. */
#define WRITE_CHUNK (1u << 20)

struct reader {
	struct eventlog *el;
	eventlog_write_fn write;
	void *data;
	struct strbuf out;	/* rewritten lines not yet written */
};

static int too_long(struct eventlog *el, struct strbuf *err)
{
	strbuf_addf(err, "line %zu: longer than the limit of ", el->lines + 1);
	format_size(err, el->max_line);
	strbuf_addstr(err, " (--max-line-bytes)");
	return -1;
}

/* One complete line, without its newline. */
static int take_line(struct reader *r, const char *line, size_t len,
		     struct strbuf *err)
{
	if (len > r->el->max_line)
		return too_long(r->el, err);
	if (eventlog_line(r->el, line, len, r->write ? &r->out : NULL,
			  err) < 0)
		return -1;
	if (r->write && r->out.len >= WRITE_CHUNK) {
		if (r->write(r->data, r->out.buf, r->out.len, err) < 0)
			return -1;
		strbuf_reset(&r->out);
	}
	return 0;
}

/*
 * Check the complete lines of buf from *start on, leaving *start at the
 * first byte of the line still incomplete.  The newline is looked for
 * from *seen on, where the last search ended: a line of many blocks is
 * searched once, not once per block.
 */
static int take_lines(struct reader *r, struct strbuf *buf, size_t *start,
		      size_t *seen, struct strbuf *err)
{
	const char *end = buf->buf + buf->len;
	const char *p = buf->buf + *start, *nl;

	while ((nl = memchr(buf->buf + *seen, '\n', buf->len - *seen))) {
		if (take_line(r, p, (size_t)(nl - p), err) < 0)
			return -1;
		p = nl + 1;
		*seen = (size_t)(p - buf->buf);
	}
	*start = (size_t)(p - buf->buf);
	*seen = buf->len;
	/* the newline is not there yet, but the line is already too long */
	if ((size_t)(end - p) > r->el->max_line)
		return too_long(r->el, err);
	return 0;
}

int eventlog_read(struct eventlog *el, FILE *fp, eventlog_write_fn write,
		  void *data, struct strbuf *err)
{
	struct reader r = { el, write, data, STRBUF_INIT };
	struct strbuf buf = STRBUF_INIT;
	size_t start = 0, seen = 0, n;
	int ret = -1;

	for (;;) {
		/* the incomplete line moves to the front, then room to read */
		if (start) {
			memmove(buf.buf, buf.buf + start, buf.len - start);
			strbuf_setlen(&buf, buf.len - start);
			seen -= start;
			start = 0;
		}
		strbuf_grow(&buf, READ_CHUNK);
		errno = 0;
		n = fread(buf.buf + buf.len, 1, READ_CHUNK, fp);
		strbuf_setlen(&buf, buf.len + n);
		if (!n)
			break;
		if (take_lines(&r, &buf, &start, &seen, err) < 0)
			goto out;
	}
	if (ferror(fp)) {
		strbuf_addf(err, "cannot read: %s", strerror(errno));
		goto out;
	}
	/* a last line without a newline is a line all the same */
	if (buf.len && take_line(&r, buf.buf, buf.len, err) < 0)
		goto out;
	if (eventlog_finish(el, err) < 0)
		goto out;
	if (write && r.out.len && write(data, r.out.buf, r.out.len, err) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&buf);
	strbuf_release(&r.out);
	return ret;
}
