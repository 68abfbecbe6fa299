#ifndef USAGE_H
#define USAGE_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf;

/*
 * Error reporting and allocation helpers.
 *
 * Every message goes to stderr prefixed with "ahd-replay: ".  error() and
 * warning() return -1 so helpers can `return error(...)`; die() exits with
 * status 2 (unusable input or usage error, see SPEC section 6); BUG()
 * aborts, for states the program should never reach.
 */

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
int verror(const char *fmt, va_list ap) PRINTF_LIKE(1, 0);

/*
 * error() about a file: "<path>: <reason>" on one line, the path quoted
 * as quote_c_style() does and the reason escaped as quote_escape() does
 * (quote.h), since either may hold bytes that came from a file or a
 * listing.  Returns -1.
 */
int error_path(const char *path, const struct strbuf *reason);
int warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* "ahd-replay: <message>" on stderr that is neither error nor warning. */
void notice(const char *fmt, ...) PRINTF_LIKE(1, 2);
/*
 * error() for a forked child before exec or _exit: stdout is not
 * flushed, since the child's copy of the parent's buffer would print
 * the parent's output twice.
 */
void child_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
void die(const char *fmt, ...) PRINTF_LIKE(1, 2) __attribute__((noreturn));
void bug_fl(const char *file, int line, const char *fmt, ...)
	PRINTF_LIKE(3, 4) __attribute__((noreturn));
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/* Allocation that dies (exit 2) when memory is exhausted. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xmemdupz(const void *data, size_t len);

/* Grow `array` (of `nr` used and `alloc` allocated elements) to hold `want`. */
#define ALLOC_GROW(array, want, alloc) \
	do { \
		if ((want) > (alloc)) { \
			size_t alloc_grow_n_ = (alloc) < 16 ? 16 : (alloc) * 2; \
			if (alloc_grow_n_ < (want)) \
				alloc_grow_n_ = (want); \
			(array) = xrealloc((array), \
					   alloc_grow_n_ * sizeof(*(array))); \
			(alloc) = alloc_grow_n_; \
		} \
	} while (0)

/* Flush stdout and report a write error as a failure (status 2). */
int finish_stdout(int status);

#endif
