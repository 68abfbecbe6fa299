#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int planned = -1;
static int lazy;
static int run;
static int failed;

static void finish(void)
{
	if (lazy)
		printf("1..%d\n", run);
	else if (planned >= 0 && run != planned) {
		printf("# planned %d tests but ran %d\n", planned, run);
		failed = 1;
	}
	fflush(stdout);
	if (failed)
		_Exit(1);
}

void plan(int n)
{
	planned = n;
	printf("1..%d\n", n);
	atexit(finish);
}

void plan_lazy(void)
{
	lazy = 1;
	atexit(finish);
}

static int vresult(int cond, const char *fmt, va_list ap)
{
	run++;
	printf("%sok %d - ", cond ? "" : "not ", run);
	vprintf(fmt, ap);
	putchar('\n');
	if (!cond)
		failed = 1;
	return cond;
}

void skip(const char *fmt, ...)
{
	va_list ap;

	run++;
	printf("ok %d # skip ", run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vresult(cond, fmt, ap);
	va_end(ap);
	return cond;
}

int is_int(long long want, long long got, const char *fmt, ...)
{
	va_list ap;
	int cond = want == got;

	va_start(ap, fmt);
	vresult(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#   want: %lld\n#    got: %lld\n", want, got);
	return cond;
}

int is_string(const char *want, const char *got, const char *fmt, ...)
{
	va_list ap;
	int cond = want && got ? !strcmp(want, got) : want == got;

	va_start(ap, fmt);
	vresult(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#   want: '%s'\n#    got: '%s'\n", want ? want : "(null)",
		       got ? got : "(null)");
	return cond;
}

int is_bytes(const void *want, size_t wlen, const void *got, size_t glen,
	     const char *fmt, ...)
{
	va_list ap;
	int cond = wlen == glen && !memcmp(want, got, wlen);

	va_start(ap, fmt);
	vresult(cond, fmt, ap);
	va_end(ap);
	if (!cond)
		printf("#   want %zu bytes: '%.*s'\n#    got %zu bytes: '%.*s'\n",
		       wlen, (int)wlen, (const char *)want, glen, (int)glen,
		       (const char *)got);
	return cond;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void skip_all(const char *fmt, ...)
{
	va_list ap;

	fputs("1..0 # SKIP ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(0);
}
