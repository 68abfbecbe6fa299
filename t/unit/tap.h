#ifndef TAP_H
#define TAP_H

#include <stddef.h>

/*
 * A minimal TAP producer for the C unit tests.  plan(n) prints "1..n";
 * each check prints "ok N - name" or "not ok N - name" with "# " diagnostics.
 * The process exit status is non-zero when any check failed or when fewer or
 * more checks ran than planned.
 */
void plan(int n);
void plan_lazy(void);
int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int is_int(long long want, long long got, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int is_string(const char *want, const char *got, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int is_bytes(const void *want, size_t wlen, const void *got, size_t glen,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void skip_all(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Count one test as skipped ("ok N # skip <reason>"). */
void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A fresh directory under /tmp for a test's files ("/tmp/<name>.XXXXXX"),
 * its symlinks resolved, malloc'd; or NULL after skip_all() when none
 * can be made.
 */
char *tap_tmpdir(const char *name);
/* Remove dir and everything beneath it, symlinks not followed. */
void tap_rmtree(const char *dir);

#endif
