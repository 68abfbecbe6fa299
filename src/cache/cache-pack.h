#ifndef CACHE_PACK_H
#define CACHE_PACK_H

#include <stddef.h>
#include "strbuf.h"

/*
 * A list of strings (each may be NULL) as one cache value, which must be
 * printable ASCII without spaces (cache_put()): "p1" then ",<field>" per
 * string, a field being "~" for NULL or the string percent-encoded
 * (every byte but [A-Za-z0-9._/:@+-] as %XX, upper-case hex).  Only that
 * one spelling of a list is accepted back, so a value that was not
 * written by cache_pack() is refused, never half-read.
 */

/* Append the packed n strings to out. */
void cache_pack(struct strbuf *out, const char *const *strings, size_t n);

/* The most strings cache_unpack() takes apart. */
#define CACHE_UNPACK_MAX 64

/*
 * Unpack value into exactly n strings (at most CACHE_UNPACK_MAX; NULL
 * where packed so), in one allocation: free them only with
 * cache_pack_free().  Returns 0, or -1 with every one of them NULL when
 * value is not a list of n strings in the spelling cache_pack() writes,
 * or one holds a NUL.
 */
int cache_unpack(char **strings, size_t n, const char *value);

/* Free the n strings of cache_unpack() and set them to NULL. */
void cache_pack_free(char **strings, size_t n);

#endif
