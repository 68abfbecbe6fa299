#ifndef ECMAREGEX_H
#define ECMAREGEX_H

#include <regex.h>
#include <stddef.h>
#include "strbuf.h"

/*
 * JSON Schema patterns are ECMA-262 regular expressions.  They are
 * translated to POSIX extended regular expressions, which match bytes,
 * and only where the translation is exact for UTF-8 input:
 *
 *   accepted: literal characters (a non-ASCII one only from the Basic
 *   Multilingual Plane), ^ $ | ( ) (?: ), the quantifiers * + ? {n}
 *   {n,} {n,m} and their lazy forms (laziness cannot change whether a
 *   string matches), classes [...] of ASCII characters and ranges, the
 *   escapes \d \w \t \n \r \f \v, \xHH and \uHHHH of ASCII characters
 *   other than NUL, \b (backspace) inside a class, and an escaped
 *   punctuation character;
 *
 *   refused: . and negated classes [^...] (they match one UTF-16 code
 *   unit, which is not one byte), \D \W \s \S (they match non-ASCII
 *   characters), \b \B outside a class, backreferences and \0,
 *   lookaround, named groups, flags, empty classes, empty groups and
 *   alternatives, repetition counts over 255, characters outside the
 *   Basic Multilingual Plane, non-ASCII characters in a class or in an
 *   escape, \c and other escaped letters, and a brace that does not form
 *   a quantifier (Annex B would read it as a literal).
 */

/*
 * Translate the ECMA-262 pattern src (len bytes) and compile it into re
 * with REG_EXTENDED | REG_NOSUB; the caller regfree()s re.  Returns 0, or
 * -1 with the reason appended to err ("unsupported pattern construct:
 * ...", "cannot compile pattern: ...") and nothing to free.
 */
int ecmaregex_compile(regex_t *re, const char *src, size_t len,
		      struct strbuf *err);

#endif
