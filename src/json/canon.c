#include "config.h"
#include "canon.h"
#include "numfmt.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH_AT (64 * 1024)
#define NO_OFFSET ((size_t)-1)

struct entry {
	const char *key;	/* valid until a nested map grows w->keys */
	size_t off;		/* key's offset in w->keys, or NO_OFFSET */
	size_t len;
	const struct value *value;
	uint32_t pos;		/* order in the source, for "later wins" */
	int64_t index;		/* array index value, or -1 */
};

struct writer {
	struct canon_out *out;
	enum canon_dialect dialect;
	struct strbuf *err;
	struct strbuf keys;	/* scratch for stringified keys */
};

static const char hexdig[] = "0123456789abcdef";

void canon_add_string(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + len;
	const unsigned char *run = p;

	strbuf_grow(sb, len + 2);
	strbuf_addch(sb, '"');
	while (p < e) {
		unsigned char c = *p;
		char esc[8];

		if (c >= 0x20 && c != '"' && c != '\\' && c != 0xED) {
			p++;
			continue;
		}
		if (c == 0xED && (p[1] & 0xE0) != 0xA0) {
			p++;	/* U+D000..U+D7FF, not a surrogate */
			continue;
		}
		strbuf_add(sb, run, (size_t)(p - run));
		if (c == 0xED) {
			uint32_t cp = 0xD000 | ((uint32_t)(p[1] & 0x3F) << 6) |
				      (p[2] & 0x3F);

			memcpy(esc, "\\u", 2);
			esc[2] = hexdig[(cp >> 12) & 0xF];
			esc[3] = hexdig[(cp >> 8) & 0xF];
			esc[4] = hexdig[(cp >> 4) & 0xF];
			esc[5] = hexdig[cp & 0xF];
			strbuf_add(sb, esc, 6);
			p += 3;
		} else {
			switch (c) {
			case '"': strbuf_add(sb, "\\\"", 2); break;
			case '\\': strbuf_add(sb, "\\\\", 2); break;
			case '\b': strbuf_add(sb, "\\b", 2); break;
			case '\f': strbuf_add(sb, "\\f", 2); break;
			case '\n': strbuf_add(sb, "\\n", 2); break;
			case '\r': strbuf_add(sb, "\\r", 2); break;
			case '\t': strbuf_add(sb, "\\t", 2); break;
			default:
				memcpy(esc, "\\u00", 4);
				esc[4] = hexdig[c >> 4];
				esc[5] = hexdig[c & 0xF];
				strbuf_add(sb, esc, 6);
			}
			p++;
		}
		run = p;
	}
	strbuf_add(sb, run, (size_t)(p - run));
	strbuf_addch(sb, '"');
}

void canon_flush(struct canon_out *out)
{
	if (out->flush && out->buf.len) {
		out->flush(out->data, out->buf.buf, out->buf.len);
		strbuf_reset(&out->buf);
	}
}

static void maybe_flush(struct canon_out *out)
{
	if (out->flush && out->buf.len >= FLUSH_AT)
		canon_flush(out);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c;

	if (a->index >= 0 || b->index >= 0) {
		if (a->index < 0)
			return 1;
		if (b->index < 0)
			return -1;
		if (a->index != b->index)
			return a->index < b->index ? -1 : 1;
	} else {
		c = utf16_cmp(a->key, a->len, b->key, b->len);
		if (c)
			return c;
	}
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * JavaScript's property key for a YAML key node.  Offsets into w->keys
 * are returned through *off because the buffer may move as it grows.
 */
static int key_string(struct writer *w, const struct value *k, size_t *off,
		      size_t *len)
{
	char num[NUMFMT_MAX];
	const struct value *alias = k->kind == VALUE_ALIAS ? k : NULL;

	k = value_deref(k);
	*off = w->keys.len;
	/*
	 * A !!merge scalar is a Symbol; as a key it merged (yaml11.c), so
	 * only an alias of one is left, which String() prints so.
	 */
	if ((k->yflags & VALUE_YF_SYMBOL) && alias) {
		strbuf_addstr(&w->keys, "Symbol(<<)");
		*len = w->keys.len - *off;
		return 0;
	}
	if (k->yflags & VALUE_YF_SYMBOL) {
		strbuf_addstr(w->err, "unsupported YAML construct: "
			      "a !!merge key that does not merge");
		return -2;
	}
	/* String(date) is written in the process's local time zone. */
	if ((k->yflags & VALUE_YF_DATE) && !alias) {
		strbuf_addstr(w->err, "unsupported YAML construct: "
			      "a timestamp as a mapping key: its text depends "
			      "on the reference's time zone");
		return -2;
	}
	switch (k->kind) {
	case VALUE_NULL:
		break;
	case VALUE_BOOL:
		strbuf_addstr(&w->keys, k->u.boolean ? "true" : "false");
		break;
	case VALUE_NUMBER:
		strbuf_add(&w->keys, num, numfmt_es(num, k->u.number));
		break;
	case VALUE_STRING:
		strbuf_add(&w->keys, k->u.str.ptr, k->u.str.len);
		break;
	case VALUE_BYTES:
		if (!alias) {
			/* String(buffer): the bytes decoded as UTF-8. */
			utf8_repair(&w->keys, k->u.str.ptr, k->u.str.len);
			break;
		}
		/* fall through */
	default:
		/*
		 * The reference's key is yaml's string form of the key
		 * node; for an alias that is "*name", unless yaml's
		 * anchorIsValid() throws on the name (the YAML loader
		 * reports that as the reference's error; here it stays
		 * refused).  Other collection keys would need yaml's whole
		 * stringifier.
		 */
		if (!alias || !is_yaml_anchor_name(alias->u.alias.name)) {
			strbuf_addstr(w->err, "unsupported YAML construct: "
				      "a mapping key that is a collection or binary");
			return -2;
		}
		strbuf_addch(&w->keys, '*');
		strbuf_addstr(&w->keys, alias->u.alias.name);
	}
	*len = w->keys.len - *off;
	return 0;
}

static int write_value(struct writer *w, const struct value *v, int depth);

static int write_map(struct writer *w, const struct value *v, int depth)
{
	struct canon_out *out = w->out;
	struct entry *ents;
	size_t n = v->nr, i, kept = 0, base = w->keys.len;
	int ret = 0;

	if (!n) {
		strbuf_add(&out->buf, "{}", 2);
		return 0;
	}
	ents = xmalloc(n * sizeof(*ents));
	for (i = 0; i < n; i++) {
		const struct value *k = v->u.items[2 * i];

		if (w->dialect == CANON_JCS) {
			k = value_deref(k);
			if (k->kind != VALUE_STRING)
				BUG("JCS key is not a string");
			ents[i].off = NO_OFFSET;
			ents[i].key = k->u.str.ptr;
			ents[i].len = k->u.str.len;
		} else if ((ret = key_string(w, k, &ents[i].off, &ents[i].len)))
			goto out;
		ents[i].value = v->u.items[2 * i + 1];
		ents[i].pos = (uint32_t)i;
	}
	for (i = 0; i < n; i++) {
		if (ents[i].off != NO_OFFSET)
			ents[i].key = w->keys.buf + ents[i].off;
		ents[i].index = w->dialect == CANON_AHD ?
			js_array_index(ents[i].key, ents[i].len) : -1;
	}
	qsort(ents, n, sizeof(*ents), entry_cmp);

	/* Writing values below may move w->keys; keep using offsets. */
	strbuf_addch(&out->buf, '{');
	for (i = 0; i < n; i++) {
		struct entry *e = &ents[i];

		if (e->off != NO_OFFSET)
			e->key = w->keys.buf + e->off;
		if (w->dialect == CANON_AHD) {
			struct entry *next = &ents[i + 1];

			if (i + 1 < n && next->off != NO_OFFSET)
				next->key = w->keys.buf + next->off;
			/* Of equal keys only the last assignment counts. */
			if (i + 1 < n && e->len == next->len &&
			    !memcmp(e->key, next->key, e->len))
				continue;
			/* out["__proto__"] = x sets a prototype instead. */
			if (e->len == 9 && !memcmp(e->key, "__proto__", 9))
				continue;
			/* JSON.stringify leaves out a Symbol-valued property. */
			if (value_deref(e->value)->yflags & VALUE_YF_SYMBOL)
				continue;
		}
		if (kept++)
			strbuf_addch(&out->buf, ',');
		canon_add_string(&out->buf, e->key, e->len);
		strbuf_addch(&out->buf, ':');
		if ((ret = write_value(w, e->value, depth + 1)))
			goto out;
	}
	strbuf_addch(&out->buf, '}');
out:
	free(ents);
	strbuf_setlen(&w->keys, base);
	return ret;
}

static int write_value(struct writer *w, const struct value *v, int depth)
{
	struct canon_out *out = w->out;
	char num[NUMFMT_MAX];
	uint32_t i;
	int ret;

	if (depth > CANON_MAX_DEPTH) {
		strbuf_addf(w->err, "unsupported YAML construct: "
			    "value nested deeper than %d levels",
			    CANON_MAX_DEPTH);
		return -2;
	}
	v = value_deref(v);
	switch (v->kind) {
	case VALUE_NULL:
		strbuf_add(&out->buf, "null", 4);
		break;
	case VALUE_BOOL:
		strbuf_addstr(&out->buf, v->u.boolean ? "true" : "false");
		break;
	case VALUE_NUMBER:
		strbuf_add(&out->buf, num, numfmt_json(num, v->u.number));
		break;
	case VALUE_STRING:
		/* A Symbol in an array (a map leaves it out, the loader
		 * refuses it as the root): JSON.stringify prints null. */
		if (v->yflags & VALUE_YF_SYMBOL)
			strbuf_add(&out->buf, "null", 4);
		else
			canon_add_string(&out->buf, v->u.str.ptr, v->u.str.len);
		break;
	case VALUE_BYTES:
		strbuf_addch(&out->buf, '{');
		for (i = 0; i < v->u.str.len; i++)
			strbuf_addf(&out->buf, "%s\"%u\":%u", i ? "," : "",
				    (unsigned)i,
				    (unsigned)(unsigned char)v->u.str.ptr[i]);
		strbuf_addch(&out->buf, '}');
		break;
	case VALUE_SEQ:
		strbuf_addch(&out->buf, '[');
		for (i = 0; i < v->nr; i++) {
			if (i)
				strbuf_addch(&out->buf, ',');
			if ((ret = write_value(w, v->u.items[i], depth + 1)))
				return ret;
		}
		strbuf_addch(&out->buf, ']');
		break;
	case VALUE_MAP:
		if ((ret = write_map(w, v, depth)))
			return ret;
		break;
	case VALUE_ALIAS:
		BUG("alias survived value_deref");
	}
	maybe_flush(out);
	return 0;
}

int canon_write(struct canon_out *out, const struct value *v,
		enum canon_dialect dialect, struct strbuf *err)
{
	struct writer w;
	int ret;

	w.out = out;
	w.dialect = dialect;
	w.err = err;
	strbuf_init(&w.keys, 0);
	ret = write_value(&w, v, 0);
	strbuf_release(&w.keys);
	return ret;
}
