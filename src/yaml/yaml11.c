/*
 * The YAML 1.1 schema of yaml@2.8.3 (schema/yaml-1.1/): the tags are
 * tried in the schema's order (null, true, false, binary/octal/decimal/
 * hexadecimal int, NaN/exponent/plain float, merge at a key, sexagesimal
 * int and float, timestamp), and an explicit tag tries only its own.
 */
#include "config.h"
#include "yaml11.h"
#include "yamlload.h"
#include "yamlload-int.h"
#include "yamlscalar.h"
#include "json/numfmt.h"
#include "utf8.h"
#include "usage.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TAG_PREFIX "tag:yaml.org,2002:"

enum y11_tag {
	T_NONE, T_NULL, T_TRUE, T_FALSE, T_BIN, T_OCT, T_INT, T_HEX,
	T_NAN, T_EXP, T_FLOAT, T_MERGE, T_INT_TIME, T_FLOAT_TIME,
	T_TIMESTAMP,
};

static int is_dec(int c)
{
	return c >= '0' && c <= '9';
}

static size_t skip_set(const char *s, size_t i, size_t n, const char *set)
{
	while (i < n && s[i] && strchr(set, s[i]))
		i++;
	return i;
}

static int one_of(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(s, *list, n))
			return 1;
	return 0;
}

/* [-+]?0b[0-1_]+ and the like: prefix, then one or more of set. */
static int match_radix(const char *s, size_t n, const char *prefix,
		       const char *set)
{
	size_t i = n && (s[0] == '-' || s[0] == '+'), p = strlen(prefix);

	if (n < i + p + 1 || memcmp(s + i, prefix, p))
		return 0;
	return skip_set(s, i + p, n, set) == n;
}

/* [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+ then, for a float, \.[0-9_]* */
static int match_time(const char *s, size_t n, int is_float)
{
	size_t i = n && (s[0] == '-' || s[0] == '+'), parts = 0;

	if (i >= n || !is_dec((unsigned char)s[i]))
		return 0;
	i = skip_set(s, i + 1, n, "0123456789_");
	while (i < n && s[i] == ':') {
		size_t k = i + 1;

		if (k < n && s[k] >= '0' && s[k] <= '5' && k + 1 < n &&
		    is_dec((unsigned char)s[k + 1]))
			k += 2;
		else if (k < n && is_dec((unsigned char)s[k]))
			k += 1;
		else
			return 0;
		i = k;
		parts++;
	}
	if (!parts)
		return 0;
	if (!is_float)
		return i == n;
	return i < n && s[i] == '.' && skip_set(s, i + 1, n, "0123456789_") == n;
}

/*
 * [-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+ (exp set) or
 * [-+]?(?:[0-9][0-9_]*)?\.[0-9_]* (exp clear).
 */
static int match_float(const char *s, size_t n, int exp)
{
	size_t i = n && (s[0] == '-' || s[0] == '+');
	int dot = 0;

	if (i < n && is_dec((unsigned char)s[i]))
		i = skip_set(s, i + 1, n, "0123456789_");
	if (i < n && s[i] == '.') {
		dot = 1;
		i = skip_set(s, i + 1, n, "0123456789_");
	}
	if (!exp)
		return dot && i == n;
	if (i >= n || (s[i] != 'e' && s[i] != 'E'))
		return 0;
	i++;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	return i < n && skip_set(s, i, n, "0123456789") == n;
}

/* yaml's timestamp pattern (schema/yaml-1.1/timestamp.js). */
static int match_timestamp(const char *s, size_t n)
{
	size_t i, k;

	for (i = 0; i < 4; i++)
		if (i >= n || !is_dec((unsigned char)s[i]))
			return 0;
	if (i >= n || s[i++] != '-')
		return 0;
	for (k = 0; k < 2 && i < n && is_dec((unsigned char)s[i]); k++)
		i++;
	if (!k || i >= n || s[i++] != '-')
		return 0;
	for (k = 0; k < 2 && i < n && is_dec((unsigned char)s[i]); k++)
		i++;
	if (!k)
		return 0;
	if (i == n)
		return 1;
	/* JavaScript backtracks [0-9]{1,2} into the time part; none fits. */
	if (s[i] == 't' || s[i] == 'T')
		i++;
	else if (s[i] == ' ' || s[i] == '\t')
		i = skip_set(s, i, n, " \t");
	else
		return 0;
	for (k = 0; k < 3; k++) {
		size_t d = 0;

		while (d < 2 && i < n && is_dec((unsigned char)s[i])) {
			i++;
			d++;
		}
		if (!d)
			return 0;
		if (k < 2 && (i >= n || s[i++] != ':'))
			return 0;
	}
	if (i < n && s[i] == '.') {
		size_t f = skip_set(s, i + 1, n, "0123456789");

		if (f == i + 1)
			return 0;
		i = f;
	}
	if (i == n)
		return 1;
	i = skip_set(s, i, n, " \t");
	if (i == n)
		return 0;	/* blanks need a zone after them */
	if (s[i] == 'Z')
		return i + 1 == n;
	if (s[i] != '-' && s[i] != '+')
		return 0;
	i++;
	if (i < n && s[i] >= '0' && s[i] <= '2' && i + 1 < n &&
	    is_dec((unsigned char)s[i + 1]))
		i += 2;
	else if (i < n && is_dec((unsigned char)s[i]))
		i++;
	else
		return 0;
	if (i == n)
		return 1;
	return s[i] == ':' && i + 3 == n && is_dec((unsigned char)s[i + 1]) &&
	       is_dec((unsigned char)s[i + 2]);
}

static const char *const null_forms[] = { "", "~", "null", "Null", "NULL", NULL };
static const char *const true_forms[] = {
	"Y", "y", "Yes", "yes", "YES", "True", "true", "TRUE", "On", "on",
	"ON", NULL
};
static const char *const false_forms[] = {
	"N", "n", "No", "no", "NO", "False", "false", "FALSE", "Off", "off",
	"OFF", NULL
};
static const char *const nan_forms[] = {
	".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf",
	"-.INF", ".nan", ".NaN", ".NAN", NULL
};

static int test(enum y11_tag t, const char *s, size_t n)
{
	switch (t) {
	case T_NULL: return one_of(s, n, null_forms);
	case T_TRUE: return one_of(s, n, true_forms);
	case T_FALSE: return one_of(s, n, false_forms);
	case T_BIN: return match_radix(s, n, "0b", "01_");
	case T_OCT: return match_radix(s, n, "0", "01234567_");
	case T_INT:
		return match_radix(s, n, "", "0123456789_") &&
		       is_dec((unsigned char)s[n && (s[0] == '-' || s[0] == '+')]);
	case T_HEX: return match_radix(s, n, "0x", "0123456789abcdefABCDEF_");
	case T_NAN: return one_of(s, n, nan_forms);
	case T_EXP: return match_float(s, n, 1);
	case T_FLOAT: return match_float(s, n, 0);
	case T_MERGE: return n == 2 && !memcmp(s, "<<", 2);
	case T_INT_TIME: return match_time(s, n, 0);
	case T_FLOAT_TIME: return match_time(s, n, 1);
	case T_TIMESTAMP: return match_timestamp(s, n);
	default: return 0;
	}
}

/* The digits of s from `from` on with every '_' dropped, NUL-terminated. */
static char *digits(const char *s, size_t from, size_t n, size_t *len)
{
	char *d = xmalloc(n - from + 1);
	size_t i, k = 0;

	for (i = from; i < n; i++)
		if (s[i] != '_')
			d[k++] = s[i];
	d[k] = '\0';
	*len = k;
	return d;
}

/* parseFloat() of text that matches one of the float patterns. */
static double parse_float(const char *d, size_t len)
{
	size_t i = len && (d[0] == '-' || d[0] == '+');

	if (i >= len || (!is_dec((unsigned char)d[i]) &&
			 !(d[i] == '.' && i + 1 < len &&
			   is_dec((unsigned char)d[i + 1]))))
		return NAN;
	return strtod(d, NULL);
}

/* intResolve(): the sign, then parseInt() of the rest without '_'. */
static double parse_int(const char *s, size_t n, size_t offset, int bits)
{
	int neg = s[0] == '-';
	size_t len, skip = (s[0] == '-' || s[0] == '+') + offset;
	char *d = digits(s, skip, n, &len);
	double v;

	if (!len)
		v = NAN;
	else if (bits)
		v = yl_parse_pow2_radix(d, len, bits);
	else
		v = strtod(d, NULL);
	free(d);
	return neg ? -1 * v : v;
}

/* parseSexagesimal(): base-60 parts, each Number()ed, summed in order. */
static double parse_time(const char *s, size_t n)
{
	size_t skip = s[0] == '-' || s[0] == '+', len, i = 0;
	char *d = digits(s, skip, n, &len);
	double res = 0;

	while (i <= len) {
		size_t e = i;

		while (e < len && d[e] != ':')
			e++;
		d[e] = '\0';
		res = res * 60 + strtod(d + i, NULL);
		i = e + 1;
	}
	free(d);
	return s[0] == '-' ? -1 * res : res;
}

static void set_number(struct value *v, double d)
{
	v->kind = VALUE_NUMBER;
	v->u.number = d;
}

static int resolve_as(struct value *v, enum y11_tag t, const char *s,
		      size_t n, int at_key, struct strbuf *why)
{
	size_t len;
	char *d;

	switch (t) {
	case T_NULL:
		v->kind = VALUE_NULL;
		return 0;
	case T_TRUE:
	case T_FALSE:
		v->kind = VALUE_BOOL;
		v->u.boolean = t == T_TRUE;
		return 0;
	case T_BIN: set_number(v, parse_int(s, n, 2, 1)); return 0;
	case T_OCT: set_number(v, parse_int(s, n, 1, 3)); return 0;
	case T_INT: set_number(v, parse_int(s, n, 0, 0)); return 0;
	case T_HEX: set_number(v, parse_int(s, n, 2, 4)); return 0;
	case T_NAN:
		set_number(v, s[n - 1] == 'n' || s[n - 1] == 'N' ? NAN :
			   s[0] == '-' ? -INFINITY : INFINITY);
		return 0;
	case T_EXP:
	case T_FLOAT:
		d = digits(s, 0, n, &len);
		set_number(v, parse_float(d, len));
		free(d);
		return 0;
	case T_INT_TIME:
	case T_FLOAT_TIME:
		set_number(v, parse_time(s, n));
		return 0;
	case T_MERGE:
		/* A Symbol: merges as a key, elsewhere see VALUE_YF_SYMBOL. */
		v->kind = VALUE_STRING;
		v->yflags |= VALUE_YF_SYMBOL | (at_key ? VALUE_YF_MERGE_KEY : 0);
		return 0;
	case T_TIMESTAMP:
		/* A Date: no own enumerable keys, so canonically {}. */
		v->kind = VALUE_MAP;
		v->nr = 0;
		v->u.items = NULL;
		v->yflags |= VALUE_YF_DATE;
		return 0;
	default:
		strbuf_addstr(why, "unknown YAML 1.1 tag");
		return LOAD_EUNSUPPORTED;
	}
}

static int resolve(struct value *v, struct arena *arena, const char *s,
		   size_t n, int plain, const char *tag, int at_key,
		   struct strbuf *why)
{
	static const enum y11_tag order[] = {
		T_NULL, T_TRUE, T_FALSE, T_BIN, T_OCT, T_INT, T_HEX, T_NAN,
		T_EXP, T_FLOAT, T_MERGE, T_INT_TIME, T_FLOAT_TIME, T_TIMESTAMP,
		T_NONE
	};
	const char *name = NULL;
	size_t i;
	int ret;

	if (tag && !strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)))
		name = tag + strlen(TAG_PREFIX);
	if (tag && (!name || (strcmp(name, "null") && strcmp(name, "bool") &&
			      strcmp(name, "int") && strcmp(name, "float") &&
			      strcmp(name, "merge") &&
			      strcmp(name, "timestamp"))))
		return yl_resolve_scalar(v, arena, s, n, 0, tag, why);
	if (!tag && !plain)
		return yl_resolve_scalar(v, arena, s, n, 0, NULL, why);
	for (i = 0; order[i] != T_NONE; i++) {
		enum y11_tag t = order[i];
		int fits;

		if (!name)
			fits = t != T_MERGE || at_key;
		else if (!strcmp(name, "null"))
			fits = t == T_NULL;
		else if (!strcmp(name, "bool"))
			fits = t == T_TRUE || t == T_FALSE;
		else if (!strcmp(name, "int"))
			fits = t == T_BIN || t == T_OCT || t == T_INT ||
			       t == T_HEX || t == T_INT_TIME;
		else if (!strcmp(name, "float"))
			fits = t == T_NAN || t == T_EXP || t == T_FLOAT ||
			       t == T_FLOAT_TIME;
		else if (!strcmp(name, "merge"))
			fits = t == T_MERGE;
		else
			fits = t == T_TIMESTAMP;
		if (!fits || !test(t, s, n))
			continue;
		ret = resolve_as(v, t, s, n, at_key, why);
		if (!ret && v->kind == VALUE_STRING) {
			v->u.str.ptr = arena_memdup(arena, s, n);
			v->u.str.len = n;
		}
		return ret;
	}
	/* No pattern fits: yaml warns and keeps the string. */
	return yl_resolve_scalar(v, arena, s, n, 0, NULL, why);
}

const struct value *yaml11_original(const struct value *v)
{
	if (v->yflags & (VALUE_YF_SET | VALUE_YF_OMAP))
		return v->u.items[0];
	if (v->yflags & VALUE_YF_PAIRS)
		return v->u.items[v->nr];
	return v->u.items[2 * v->nr];
}

struct merged {
	struct value **items;	/* pairs of the result */
	uint32_t nr, alloc;
	struct strbuf keys;	/* property keys so far, NUL-separated */
};

static int seen_key(const struct merged *m, const char *k, size_t len)
{
	const char *p = m->keys.buf, *end = m->keys.buf + m->keys.len;

	while (p < end) {
		size_t n = strlen(p);

		if (n == len && !memcmp(p, k, len))
			return 1;
		p += n + 1;
	}
	return 0;
}

static void add_pair(struct merged *m, struct value *k, struct value *v,
		     const char *pk, size_t pklen)
{
	if (m->nr + 1 > m->alloc / 2) {
		m->alloc = m->alloc ? 2 * m->alloc : 16;
		m->items = xrealloc(m->items, m->alloc * sizeof(*m->items));
	}
	m->items[2 * m->nr] = k;
	m->items[2 * m->nr + 1] = v;
	m->nr++;
	strbuf_add(&m->keys, pk, pklen);
	strbuf_addch(&m->keys, '\0');
}

/*
 * String(value) in JavaScript for the value of a collection key as a
 * merge source's Map holds it: an object is "[object Object]", an array
 * its items joined with ',' (null as nothing, a Buffer decoded as UTF-8).
 * Returns -2 for a date (its text names the time zone), -1 for the rest
 * of what is not reproduced here: Sets, Maps and pairs, Symbols (join()
 * throws), cycles.
 */
static int js_string(struct strbuf *out, const struct value *v, int depth)
{
	char num[NUMFMT_MAX];
	uint32_t i;
	int ret;

	v = value_deref(v);
	if (v->yflags & VALUE_YF_COLLECTION_KEY)
		v = yl_collection_key_source(v);
	if (v->yflags & VALUE_YF_DATE)
		return -2;
	if (depth > 64 || (v->yflags & (VALUE_YF_SYMBOL | VALUE_YF_SET |
					VALUE_YF_OMAP | VALUE_YF_PAIRS)))
		return -1;
	switch (v->kind) {
	case VALUE_NULL:
		return depth ? 0 : (strbuf_addstr(out, "null"), 0);
	case VALUE_BOOL:
		strbuf_addstr(out, v->u.boolean ? "true" : "false");
		return 0;
	case VALUE_NUMBER:
		strbuf_add(out, num, numfmt_es(num, v->u.number));
		return 0;
	case VALUE_STRING:
		strbuf_add(out, v->u.str.ptr, v->u.str.len);
		return 0;
	case VALUE_BYTES:
		utf8_repair(out, v->u.str.ptr, v->u.str.len);
		return 0;
	case VALUE_MAP:
		strbuf_addstr(out, "[object Object]");
		return 0;
	case VALUE_SEQ:
		for (i = 0; i < v->nr; i++) {
			if (i)
				strbuf_addch(out, ',');
			if ((ret = js_string(out, v->u.items[i], depth + 1)))
				return ret;
		}
		return 0;
	default:
		return -1;
	}
}

/*
 * The JavaScript property key of a key node: as the object is built
 * (null is "") or, from a merge source read as a Map, as ToPropertyKey()
 * makes it (null is "null").  Returns -1 for keys not reproduced here,
 * -2 for a collection key holding a date (String(date) names the time
 * zone).
 */
static int property_key(struct strbuf *out, const struct value *k,
			int from_map)
{
	char num[NUMFMT_MAX];

	/* As an object key, an alias of binary data is "*name". */
	if (!from_map && k->kind == VALUE_ALIAS &&
	    value_deref(k)->kind == VALUE_BYTES)
		return -1;
	k = value_deref(k);
	/* An alias of a !!merge scalar: String(Symbol("<<")). */
	if (k->yflags & VALUE_YF_SYMBOL)
		return from_map ? -1 : (strbuf_addstr(out, "Symbol(<<)"), 0);
	/*
	 * As an object key, yaml's text for the collection; from a Map,
	 * the collection itself, which defineProperty() makes a string.
	 */
	if (k->yflags & VALUE_YF_COLLECTION_KEY) {
		int ret = from_map ? js_string(out, k, 0) : 0;

		if (from_map)
			return ret ? ret :
			       memchr(out->buf, '\0', out->len) ? -1 : 0;
		strbuf_add(out, k->u.str.ptr, k->u.str.len);
		return 0;
	}
	switch (k->kind) {
	case VALUE_NULL:
		strbuf_addstr(out, from_map ? "null" : "");
		return 0;
	case VALUE_BOOL:
		strbuf_addstr(out, k->u.boolean ? "true" : "false");
		return 0;
	case VALUE_NUMBER:
		strbuf_add(out, num, numfmt_es(num, k->u.number));
		return 0;
	case VALUE_STRING:
		strbuf_add(out, k->u.str.ptr, k->u.str.len);
		break;
	case VALUE_BYTES:
		/* String(buffer): the bytes decoded as UTF-8. */
		utf8_repair(out, k->u.str.ptr, k->u.str.len);
		break;
	default:
		return -1;
	}
	/* Property keys are kept NUL-separated (struct merged). */
	return memchr(out->buf, '\0', out->len) ? -1 : 0;
}

#define MAX_MERGED 10000

/* A merge source read as a JavaScript Map: its keys and values. */
struct entries {
	struct value **kv;
	size_t nr, alloc;
};

/* SameValueZero of two scalar keys, as a Map compares them. */
static int same_key(const struct value *a, const struct value *b)
{
	a = value_deref(a);
	b = value_deref(b);
	/* Each collection key is an object of its own. */
	if ((a->yflags | b->yflags) & VALUE_YF_COLLECTION_KEY)
		return a == b;
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case VALUE_NULL:
		return 1;
	case VALUE_BOOL:
		return a->u.boolean == b->u.boolean;
	case VALUE_NUMBER:
		return a->u.number == b->u.number ||
		       (isnan(a->u.number) && isnan(b->u.number));
	case VALUE_STRING:
		return a->u.str.len == b->u.str.len &&
		       !memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len);
	default:
		return a == b;
	}
}

/*
 * A key a merge source may hold: a scalar, or a collection written as
 * one (not an alias of one: a Map would take two aliases of a node for
 * one key, which same_key() does not see).
 */
static int scalar_key(const struct value *k)
{
	const struct value *d = value_deref(k);

	if (d->yflags & VALUE_YF_COLLECTION_KEY)
		return k->kind != VALUE_ALIAS;
	return !(d->yflags & VALUE_YF_DATE) &&
	       d->kind != VALUE_SEQ && d->kind != VALUE_MAP;
}

static int map_entries(struct entries *e, const struct value *src,
		       struct strbuf *why, int depth);

/* Entries of a merge key's value (a map, or a sequence of maps) not yet
 * in e. */
static int merge_into(struct entries *e, const struct value *v,
		      struct strbuf *why, int depth)
{
	const struct value *d = value_deref(v);
	struct entries sub;
	size_t i, j, k, n = 1;
	int ret = 0;

	if (d->kind == VALUE_SEQ && (d->yflags & VALUE_YF_PAIRS)) {
		/* yaml merges each item of the sequence: here pairs. */
		if (!d->nr)
			return 0;
		strbuf_addstr(why, "merge sources must be maps or map aliases");
		return LOAD_EINVALID;
	}
	if (d->kind == VALUE_SEQ)
		n = d->nr;
	for (i = 0; i < n && !ret; i++) {
		memset(&sub, 0, sizeof(sub));
		ret = map_entries(&sub, n == 1 && d->kind != VALUE_SEQ ? v :
				  d->u.items[i], why, depth + 1);
		for (j = 0; !ret && j < sub.nr; j++) {
			for (k = 0; k < e->nr; k++)
				if (same_key(e->kv[2 * k], sub.kv[2 * j]))
					break;
			if (k < e->nr)
				continue;
			ALLOC_GROW(e->kv, 2 * e->nr + 2, e->alloc);
			e->kv[2 * e->nr] = sub.kv[2 * j];
			e->kv[2 * e->nr + 1] = sub.kv[2 * j + 1];
			e->nr++;
		}
		free(sub.kv);
	}
	return ret;
}

/*
 * yaml's source.toJSON(null, ctx, Map): the source's pairs in order, a
 * later equal key replacing the value in place, merges applied with
 * Map semantics.
 */
static int map_entries(struct entries *e, const struct value *src,
		       struct strbuf *why, int depth)
{
	uint32_t i;
	size_t k;
	int ret = 0;

	src = value_deref(src);
	if (src->yflags & (VALUE_YF_SET | VALUE_YF_OMAP | VALUE_YF_PAIRS)) {
		strbuf_addstr(why, "a merge source that is a !!set, !!omap or "
			      "!!pairs");
		return LOAD_EUNSUPPORTED;
	}
	if (src->kind != VALUE_MAP || (src->yflags & VALUE_YF_DATE)) {
		strbuf_addstr(why, "merge sources must be maps or map aliases");
		return LOAD_EINVALID;
	}
	if (src->yflags & VALUE_YF_MERGED)
		src = yaml11_original(src);
	if (src->nr > MAX_MERGED || depth > 64) {
		strbuf_addstr(why, "a merge source too large or too deep");
		return LOAD_EUNSUPPORTED;
	}
	for (i = 0; i < src->nr && !ret; i++) {
		struct value *key = src->u.items[2 * i];

		if (key->yflags & VALUE_YF_MERGE_KEY) {
			ret = merge_into(e, src->u.items[2 * i + 1], why, depth);
			continue;
		}
		if (!scalar_key(key)) {
			strbuf_addstr(why, "a merge source with a key that is "
				      "not a scalar");
			return LOAD_EUNSUPPORTED;
		}
		for (k = 0; k < e->nr; k++)
			if (same_key(e->kv[2 * k], key))
				break;
		if (k == e->nr) {
			ALLOC_GROW(e->kv, 2 * e->nr + 2, e->alloc);
			e->kv[2 * e->nr] = key;
			e->nr++;
		}
		e->kv[2 * k + 1] = src->u.items[2 * i + 1];
	}
	if (!ret && e->nr > MAX_MERGED) {
		strbuf_addstr(why, "merges of more than 10000 keys");
		ret = LOAD_EUNSUPPORTED;
	}
	return ret;
}

/* Merge one merge key's value into the object being built. */
static int merge_value(struct merged *m, const struct value *v,
		       struct arena *arena, struct strbuf *why)
{
	struct strbuf pk = STRBUF_INIT;
	struct entries e;
	size_t i;
	int ret;

	memset(&e, 0, sizeof(e));
	ret = merge_into(&e, v, why, 0);
	for (i = 0; !ret && i < e.nr; i++) {
		struct value *key;

		strbuf_reset(&pk);
		/* A Symbol key (an alias of a !!merge scalar) is hidden. */
		if (value_deref(e.kv[2 * i])->yflags & VALUE_YF_SYMBOL)
			continue;
		if (value_deref(e.kv[2 * i])->yflags & VALUE_YF_DATE) {
			strbuf_addstr(why, "a timestamp as a mapping key: its "
				      "text depends on the reference's time "
				      "zone");
			ret = LOAD_EUNSUPPORTED;
			break;
		}
		if ((ret = property_key(&pk, e.kv[2 * i], 1)) == -2) {
			strbuf_addstr(why, "a timestamp in a merged collection "
				      "key: its text depends on the reference's "
				      "time zone");
			ret = LOAD_EUNSUPPORTED;
			break;
		}
		if (ret < 0) {
			strbuf_addstr(why, "a merged key not reproduced");
			ret = LOAD_EUNSUPPORTED;
			break;
		}
		if (seen_key(m, pk.buf, pk.len))
			continue;
		key = value_new(arena, VALUE_STRING);
		key->u.str.ptr = arena_memdup(arena, pk.buf, pk.len);
		key->u.str.len = pk.len;
		add_pair(m, key, e.kv[2 * i + 1], pk.buf, pk.len);
	}
	free(e.kv);
	strbuf_release(&pk);
	return ret;
}

int yaml11_merge(struct value *map, struct arena *arena, struct strbuf *why)
{
	struct merged m;
	struct strbuf pk = STRBUF_INIT;
	struct value *orig;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < map->nr; i++)
		if (map->u.items[2 * i]->yflags & VALUE_YF_MERGE_KEY)
			break;
	if (i == map->nr)
		return 0;
	if (map->yflags & (VALUE_YF_SET | VALUE_YF_OMAP | VALUE_YF_PAIRS)) {
		strbuf_addstr(why, "a merge key in a !!set, !!omap or !!pairs");
		return LOAD_EUNSUPPORTED;
	}
	if (map->nr > 10000) {
		strbuf_addstr(why, "a merge key in a map of more than 10000 "
			      "pairs");
		return LOAD_EUNSUPPORTED;
	}
	memset(&m, 0, sizeof(m));
	strbuf_init(&m.keys, 0);
	for (i = 0; i < map->nr && !ret; i++) {
		struct value *k = map->u.items[2 * i];
		struct value *v = map->u.items[2 * i + 1];
		if (!(k->yflags & VALUE_YF_MERGE_KEY)) {
			strbuf_reset(&pk);
			if (property_key(&pk, k, 0) < 0) {
				strbuf_addstr(why, "a key that is not a scalar "
					      "next to a merge key");
				ret = LOAD_EUNSUPPORTED;
			} else
				add_pair(&m, k, v, pk.buf, pk.len);
			continue;
		}
		ret = merge_value(&m, v, arena, why);
	}
	if (!ret) {
		orig = value_new(arena, VALUE_MAP);
		*orig = *map;
		map->yflags |= VALUE_YF_MERGED;
		map->nr = m.nr;
		map->u.items = arena_alloc(arena, (2 * (size_t)m.nr + 1) *
					   sizeof(struct value *));
		if (m.nr)
			memcpy(map->u.items, m.items,
			       2 * (size_t)m.nr * sizeof(struct value *));
		map->u.items[2 * m.nr] = orig;
	}
	free(m.items);
	strbuf_release(&m.keys);
	strbuf_release(&pk);
	return ret;
}

int yaml11_resolve_scalar(struct value *v, struct arena *arena, const char *s,
			  size_t n, int plain, const char *tag, int at_key,
			  struct strbuf *why)
{
	int ret = resolve(v, arena, s, n, plain && !tag, tag, at_key, why);

	/*
	 * yaml's isMergeKey(): any plain key whose value is the string
	 * "<<", whatever its tag.
	 */
	if (!ret && at_key && plain && v->kind == VALUE_STRING &&
	    v->u.str.len == 2 && !memcmp(v->u.str.ptr, "<<", 2))
		v->yflags |= VALUE_YF_MERGE_KEY;
	return ret;
}

int yaml11_bool_form(const char *s, size_t n)
{
	return test(T_TRUE, s, n) ? 1 : test(T_FALSE, s, n) ? 0 : -1;
}

int yaml11_number_format(const char *s, size_t n, size_t *min_frac)
{
	static const enum y11_tag order[] = {
		T_BIN, T_OCT, T_INT, T_HEX, T_NAN, T_EXP, T_FLOAT, T_INT_TIME,
		T_FLOAT_TIME, T_NONE
	};
	size_t i, dot, f = 0;

	*min_frac = 0;
	for (i = 0; order[i] != T_NONE && !test(order[i], s, n); i++)
		;
	switch (order[i]) {
	case T_BIN: return 'b';
	case T_OCT: return 'o';
	case T_HEX: return 'x';
	case T_EXP: return 'e';
	case T_INT_TIME:
	case T_FLOAT_TIME: return 't';
	case T_FLOAT:
		/* minFractionDigits: the fraction's digits without '_'. */
		for (dot = 0; s[dot] != '.'; dot++)
			;
		for (i = dot + 1; i < n; i++)
			f += s[i] != '_';
		for (i = n; i > dot + 1 && s[i - 1] == '_'; i--)
			;
		if (i > dot + 1 && s[i - 1] == '0')
			*min_frac = f;
		return 0;
	default:
		return 0;
	}
}
