#include "config.h"
#include "usage.h"
#include "quote.h"
#include "strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("ahd-replay: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, fmt, ap);
	va_end(ap);
	return -1;
}

void notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, fmt, ap);
	va_end(ap);
}

void child_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ahd-replay: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int verror(const char *fmt, va_list ap)
{
	vreport(NULL, fmt, ap);
	return -1;
}

int error_path(const char *path, const struct strbuf *reason)
{
	struct strbuf msg = STRBUF_INIT;

	quote_c_style(&msg, path);
	strbuf_addstr(&msg, ": ");
	quote_escape(&msg, reason->buf, reason->len);
	error("%s", msg.buf);
	strbuf_release(&msg);
	return -1;
}

int warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
	return -1;
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, fmt, ap);
	va_end(ap);
	exit(2);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu bytes", size);
	return p;
}

char *xstrdup(const char *s)
{
	return xmemdupz(s, strlen(s));
}

char *xmemdupz(const void *data, size_t len)
{
	char *p = xmalloc(len + 1);

	if (len)
		memcpy(p, data, len);
	p[len] = '\0';
	return p;
}

int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		error("write error on standard output: %s", strerror(errno));
		return 2;
	}
	return status;
}
