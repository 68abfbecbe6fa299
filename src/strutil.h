#ifndef STRUTIL_H
#define STRUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Small predicates on C strings, one copy for the whole tree. */

/* Whether s begins, or ends, with the given string. */
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);

/* Whether s is one of the strings of the NULL-terminated list. */
int str_in_list(const char *const *list, const char *s);

/* Whether all len bytes of s are decimal digits (len 0: yes). */
int is_all_digits(const char *s, size_t len);

enum hex_case {
	HEX_LOWER,		/* 0-9a-f only */
	HEX_ANY_CASE,		/* 0-9a-fA-F */
};

/* Whether s is one of the strings of the NULL-terminated list. */
int str_in_list(const char *const *list, const char *s);

/* Whether all len bytes of s are hexadecimal digits (len 0: yes). */
int is_all_hex(const char *s, size_t len, enum hex_case hcase);

/*
 * The value of s (len bytes) as a JavaScript array index, the keys an
 * object lists first: a canonical decimal ("0", "17"; not "01") from 0 to
 * 4294967294.  -1 for any other key.
 */
int64_t js_array_index(const char *s, size_t len);

/* Whether s is "sha256:" and 64 hexadecimal digits, nothing more. */
int is_sha256_hash(const char *s, enum hex_case hcase);

/*
 * A truth value as git's configuration spells one: 1 for "true", "yes",
 * "on" or "1", 0 for "false", "no", "off" or "0" (any case), -1 for
 * anything else.  A key set without a value ("[s] k", the empty string
 * here) is for the caller to judge.
 */
int parse_bool_text(const char *v);

/*
 * The value of c as a base64 digit (RFC 4648): 0 to 63, or -1.  With
 * url_too, the URL alphabet's '-' and '_' count as '+' and '/', as
 * Node's Buffer.from(s, "base64") reads them.
 */
int base64_digit(unsigned char c, int url_too);

/*
 * Whether name can be printed as a YAML anchor or alias the way
 * yaml@2.8.3 prints one: no byte up to space, none of ",[]{}", and none
 * of the Unicode spaces JavaScript's \s matches (U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF).
 */
int is_yaml_anchor_name(const char *name);

#endif
