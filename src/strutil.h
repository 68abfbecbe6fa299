#ifndef STRUTIL_H
#define STRUTIL_H

#include <stddef.h>

/* Small predicates on C strings, one copy for the whole tree. */

/* Whether s begins, or ends, with the given string. */
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);

/* Whether all len bytes of s are decimal digits (len 0: yes). */
int is_all_digits(const char *s, size_t len);

enum hex_case {
	HEX_LOWER,		/* 0-9a-f only */
	HEX_ANY_CASE,		/* 0-9a-fA-F */
};

/* Whether all len bytes of s are hexadecimal digits (len 0: yes). */
int is_all_hex(const char *s, size_t len, enum hex_case hcase);

/* Whether s is "sha256:" and 64 hexadecimal digits, nothing more. */
int is_sha256_hash(const char *s, enum hex_case hcase);

#endif
