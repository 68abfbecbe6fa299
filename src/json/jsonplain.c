/*
 * The quick reading of plain JSON (see jval_loadb_plain() in jval.h).
 *
 * jansson's reader takes a sidecar one character at a time through a
 * callback; a sidecar is almost all short strings, and reading those
 * here then handing them to the same constructors the reader uses
 * builds the very same tree in a fraction of the time.  Plain means:
 * strings of well-formed UTF-8 without a backslash or a control
 * character, numbers in JSON's grammar that strtod() reads as a finite
 * double without a range error (integers of at most 18 digits), objects
 * without a repeated key, at most PLAIN_MAX_DEPTH levels.  Whatever else
 * a text holds (an escape, a duplicate, an error of any kind) makes this
 * give up and jansson read it, so its answers and its error messages
 * stay the only ones there are.
 */
#include "config.h"
#include "jval.h"
#include "jsonplain.h"
#include "utf8.h"

#include <errno.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PLAIN_MAX_DEPTH 32

struct plain {
	const char *p, *end;
	int depth;
};

const char *jsonplain_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

static void skip_space(struct plain *s)
{
	s->p = jsonplain_space(s->p, s->end);
}

/*
 * The bytes that stop a string's scan: its end, what is not plain, what
 * needs a UTF-8 check.  One test per byte for all the others.
 */
static const unsigned char string_stop[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1, [0x80 ... 0xff] = 1,
};

/*
 * Whether any of the 8 bytes of w would stop a string's scan (a control
 * character, '"', '\\', a byte above 0x7f): bit tricks that say exactly
 * whether such a byte is there, not where.
 */
static int word_stops(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;
	uint64_t quote = w ^ (ones * '"'), slash = w ^ (ones * '\\');

	return !!(((w - ones * 0x20) & ~w & highs) |
		  ((quote - ones) & ~quote & highs) |
		  ((slash - ones) & ~slash & highs) | (w & highs));
}

/*
 * Bytes above 0x7f are taken as they stand when they are well-formed
 * UTF-8, which jansson takes as they stand too.  Eight plain bytes are
 * passed at a time: a sidecar is mostly the bodies of its strings.
 */
long jsonplain_string(const char *p, const char *end, const char **next)
{
	const char *q = p;
	int wide = 0;
	uint64_t w;

	while (end - q >= 8) {
		memcpy(&w, q, sizeof(w));
		if (word_stops(w))
			break;
		q += 8;
	}
	for (; q < end; q++) {
		unsigned char c = (unsigned char)*q;

		if (!string_stop[c])
			continue;
		if (c == '"')
			break;
		if (c < 0x20 || c == '\\')
			return -1;
		wide = 1;
	}
	if (q == end ||
	    (wide && utf8_valid_prefix(p, (size_t)(q - p)) != (size_t)(q - p)))
		return -1;
	*next = q + 1;
	return (long)(q - p);
}

/* A string's body at s->p (past the quote): its length, or -1. */
static long plain_string(struct plain *s, const char **start)
{
	*start = s->p;
	return jsonplain_string(s->p, s->end, &s->p);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at q, at least one; the end of them, or NULL. */
static const char *digits(const char *q, const char *end)
{
	const char *from = q;

	while (q < end && is_digit(*q))
		q++;
	return q > from ? q : NULL;
}

/* The "C" locale, for a strtod() that reads "." whatever LC_NUMERIC is. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/*
 * jansson reads an integer as a json_int_t before it makes it a double
 * (JVAL_DECODE_INT_AS_REAL), and refuses one beyond that range: up to 18
 * digits always fit, longer ones are left to it.
 */
#define PLAIN_MAX_INT_DIGITS 18

int jsonplain_number(double *out, const char *p, const char *end,
		     const char **next)
{
	const char *q = p, *int_end;
	char buf[64];
	char *stop;

	if (q < end && *q == '-')
		q++;
	if (q < end && *q == '0')
		q++;
	else if (!(q = digits(q, end)))
		return -1;
	int_end = q;
	if (q < end && *q == '.' && !(q = digits(q + 1, end)))
		return -1;
	if (q < end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (!(q = digits(q, end)))
			return -1;
	}
	if ((size_t)(q - p) >= sizeof(buf) ||
	    (q == int_end && int_end - p > PLAIN_MAX_INT_DIGITS))
		return -1;
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = '\0';
	pthread_once(&c_locale_once, c_locale_init);
	if (!c_locale)
		return -1;
	errno = 0;
	*out = strtod_l(buf, &stop, c_locale);
	if (errno || *stop || !isfinite(*out))
		return -1;
	*next = q;
	return 0;
}

/* A number in JSON's grammar, as a double (JVAL_DECODE_INT_AS_REAL). */
static json_t *plain_number(struct plain *s)
{
	double d;

	if (jsonplain_number(&d, s->p, s->end, &s->p))
		return NULL;
	return json_real(d);
}

static json_t *plain_value(struct plain *s);

static json_t *plain_object(struct plain *s)
{
	json_t *obj = json_object();
	const char *key;
	long len;
	char *k = NULL;

	skip_space(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return obj;
	}
	while (obj) {
		json_t *v;

		if (s->p >= s->end || *s->p != '"')
			goto fail;
		s->p++;
		len = plain_string(s, &key);
		if (len < 0)
			goto fail;
		k = strndup(key, (size_t)len);
		skip_space(s);
		if (!k || s->p >= s->end || *s->p != ':' ||
		    json_object_get(obj, k))
			goto fail;
		s->p++;
		v = plain_value(s);
		if (!v || json_object_set_new_nocheck(obj, k, v))
			goto fail;
		free(k);
		k = NULL;
		skip_space(s);
		if (s->p < s->end && *s->p == '}') {
			s->p++;
			return obj;
		}
		if (s->p >= s->end || *s->p != ',')
			goto fail;
		s->p++;
		skip_space(s);
	}
fail:
	free(k);
	json_decref(obj);
	return NULL;
}

static json_t *plain_array(struct plain *s)
{
	json_t *arr = json_array();

	skip_space(s);
	if (s->p < s->end && *s->p == ']') {
		s->p++;
		return arr;
	}
	while (arr) {
		json_t *v = plain_value(s);

		if (!v || json_array_append_new(arr, v))
			break;
		skip_space(s);
		if (s->p < s->end && *s->p == ']') {
			s->p++;
			return arr;
		}
		if (s->p >= s->end || *s->p != ',')
			break;
		s->p++;
	}
	json_decref(arr);
	return NULL;
}

static int literal(struct plain *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return 0;
	s->p += n;
	return 1;
}

static json_t *plain_value(struct plain *s)
{
	json_t *v = NULL;
	const char *start;
	long len;

	skip_space(s);
	if (s->p >= s->end || ++s->depth > PLAIN_MAX_DEPTH)
		return NULL;
	switch (*s->p) {
	case '{':
		s->p++;
		v = plain_object(s);
		break;
	case '[':
		s->p++;
		v = plain_array(s);
		break;
	case '"':
		s->p++;
		len = plain_string(s, &start);
		v = len < 0 ? NULL : json_stringn_nocheck(start, (size_t)len);
		break;
	case 't':
		v = literal(s, "true") ? json_true() : NULL;
		break;
	case 'f':
		v = literal(s, "false") ? json_false() : NULL;
		break;
	case 'n':
		v = literal(s, "null") ? json_null() : NULL;
		break;
	default:
		v = plain_number(s);
	}
	s->depth--;
	return v;
}

struct jval *jval_loadb_plain(const char *text, size_t len)
{
	struct plain s = { text, text + len, 0 };
	json_t *v = plain_value(&s);

	skip_space(&s);
	if (v && s.p != s.end) {
		json_decref(v);
		v = NULL;
	}
	return (struct jval *)v;
}
