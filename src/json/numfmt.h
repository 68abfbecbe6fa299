#ifndef NUMFMT_H
#define NUMFMT_H

#include <stddef.h>

/*
 * ECMAScript Number::toString for IEEE-754 doubles: the shortest decimal
 * that reads back as the same double (the nearest such one when several
 * are equally short), in JavaScript's layout: plain digits for exponents
 * in [-7, 21), otherwise d[.ddd]e+N / e-N.  -0 prints "0".
 *
 * NUMFMT_MAX bounds every output including the terminating NUL
 * ("-1.7976931348623157e+308" is 24 characters).
 */
#define NUMFMT_MAX 32

/*
 * JavaScript String(v): NaN prints "NaN", infinities "Infinity" and
 * "-Infinity".  Used for object keys.  Writes a NUL-terminated string to
 * out and returns its length.
 */
size_t numfmt_es(char out[NUMFMT_MAX], double v);

/*
 * JSON.stringify(v) (and RFC 8785): as numfmt_es, but every non-finite
 * value prints "null".
 */
size_t numfmt_json(char out[NUMFMT_MAX], double v);

#endif
