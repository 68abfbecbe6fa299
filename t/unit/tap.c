#include "config.h"
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <limits.h>

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

char *tap_tmpdir(const char *name)
{
	char tmpl[PATH_MAX];
	char *real;

	snprintf(tmpl, sizeof(tmpl), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(tmpl)) {
		skip_all("cannot make a temporary directory");
		return NULL;
	}
	real = realpath(tmpl, NULL);
	return real ? real : strdup(tmpl);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void tap_rmtree(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
