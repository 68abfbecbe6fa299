#ifndef JSONPLAIN_H
#define JSONPLAIN_H

#include <stddef.h>

/*
 * The pieces of jval_loadb_plain() (jval.h), for a reader of one known
 * shape of document that must take exactly what it takes: a plain
 * string, a plain number.  None of them allocates.
 */

/* Past JSON whitespace (space, tab, LF, CR) at p; at most end. */
const char *jsonplain_space(const char *p, const char *end);

/*
 * A string's body at p, just past its opening quote: its length in
 * bytes, with *next past its closing quote; -1 when it is not plain (a
 * backslash, a control character, bytes that are not UTF-8, no closing
 * quote), and *next is untouched.
 */
long jsonplain_string(const char *p, const char *end, const char **next);

/*
 * A number in JSON's grammar at p, as JSON.parse reads it: 0 with the
 * double in *out and *next past it; -1 for one jval_loadb_plain()
 * leaves to jansson (not a number, out of range, an integer of more
 * than 18 digits, over 63 characters), *next untouched.
 */
int jsonplain_number(double *out, const char *p, const char *end,
		     const char **next);

#endif
