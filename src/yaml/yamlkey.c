/*
 * yaml@2.8.3's flow stringifier, as far as a collection key needs it.
 *
 * The reference calls key.toString() with a context whose inFlow is set,
 * so everything prints in flow style: "{ a: 1 }", "[ a, b ]", or, when a
 * collection's line would pass 80 columns or an item spans lines, one
 * item per line.  Scalars keep their source style where yaml allows it,
 * numbers their source format ("0x1f", "1.50", "1e+3"), null and boolean
 * their source spelling.  Scalars that yaml would fold across lines (long
 * ones outside an implicit key) are refused, as are comments and blank
 * lines inside a key, which yaml would print.
 */
#include "config.h"
#include "yamlkey.h"
#include "strutil.h"
#include "yamlkey-priv.h"
#include "yaml11.h"
#include "yamlload.h"
#include "yamlscalar.h"
#include "json/canon.h"
#include "json/numfmt.h"
#include "usage.h"
#include "utf8.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ykeys_note(struct ykeys *k, const struct ykey_node *n)
{
	ALLOC_GROW(k->nodes, k->nr + 1, k->alloc);
	k->nodes[k->nr++] = *n;
}

void ykeys_reset(struct ykeys *k)
{
	k->nr = 0;
	k->depth = 0;
}

void ykeys_release(struct ykeys *k)
{
	free(k->nodes);
	k->nodes = NULL;
	k->nr = k->alloc = 0;
	k->depth = 0;
}

int ykeys_value_absent(const char *text, size_t at)
{
	while (at > 0 && strchr(" \t\r\n", text[at - 1]))
		at--;
	return !(at > 0 && text[at - 1] == ':');
}

int ykey_refuse(struct walk *w, int status, const char *why)
{
	if (!w->status) {
		strbuf_addstr(w->why, why);
		w->status = status;
	}
	return w->status;
}

void ykey_add_spaces(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, ' ');
}

size_t ykey_u16len(const struct strbuf *sb)
{
	return utf16_length(sb->buf, sb->len);
}


/* escapeTagName() */
static void add_escaped_tag_name(struct strbuf *sb, const char *rest)
{
	for (; *rest; rest++)
		switch (*rest) {
		case '!': strbuf_addstr(sb, "%21"); break;
		case ',': strbuf_addstr(sb, "%2C"); break;
		case '[': strbuf_addstr(sb, "%5B"); break;
		case ']': strbuf_addstr(sb, "%5D"); break;
		case '{': strbuf_addstr(sb, "%7B"); break;
		case '}': strbuf_addstr(sb, "%7D"); break;
		default: strbuf_addch(sb, *rest);
		}
}

/*
 * directives.tagString(): the first handle whose prefix starts the tag
 * (only "!!" without %TAG directives), else a local tag as it is and any
 * other verbatim.
 */
static void add_tag(struct strbuf *sb, const struct ykeys *k, const char *tag)
{
	static const char *const defaults[] = { "!!", TAG_PREFIX };
	const char *const *h = k->nr_handles ? k->handles : defaults;
	size_t i, n = k->nr_handles ? k->nr_handles : 1;

	for (i = 0; i < n; i++) {
		const char *prefix = h[2 * i + 1];

		if (!strncmp(tag, prefix, strlen(prefix))) {
			strbuf_addstr(sb, h[2 * i]);
			add_escaped_tag_name(sb, tag + strlen(prefix));
			return;
		}
	}
	if (tag[0] == '!')
		strbuf_addstr(sb, tag);
	else
		strbuf_addf(sb, "!<%s>", tag);
}

static int node_string(struct walk *w, struct strbuf *out,
		       const struct value *v, struct sctx *c);

/*
 * A collection with a scalar tag of the schema: yaml's stringify() finds
 * that tag's object by name and prints the collection with it, as a
 * scalar whose value is undefined (String(undefined), Number(undefined),
 * a false boolean, ...).  The text does not start with '{' or '[', so it
 * goes on a line of its own after the properties.  NULL for other tags.
 */
static const char *scalar_tag_text(const char *tag, int yaml11)
{
	static const struct {
		const char *name, *text;
		int yaml11_only;
	} tags[] = {
		{ "str", "undefined", 0 }, { "int", ".nan", 0 },
		{ "float", ".nan", 0 }, { "bool", "false", 0 },
		{ "null", "null", 0 }, { "binary", "", 1 },
		{ "timestamp", "", 1 }, { "merge", "<<", 1 },
	};
	size_t i;

	if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)))
		return NULL;
	tag += strlen(TAG_PREFIX);
	for (i = 0; i < sizeof(tags) / sizeof(*tags); i++)
		if (!strcmp(tag, tags[i].name) && (yaml11 || !tags[i].yaml11_only))
			return tags[i].text;
	return NULL;
}

/* The number of notes for the nodes of a subtree: all but aliases. */
static size_t count_notes(const struct value *v)
{
	size_t n = 1;
	uint32_t i;

	if (v->kind == VALUE_ALIAS)
		return 0;
	if (v->yflags & YAML11_REWRITTEN)
		v = yaml11_original(v);
	if (v->kind == VALUE_SEQ || v->kind == VALUE_MAP)
		for (i = 0; i < (v->kind == VALUE_MAP ? 2 * v->nr : v->nr); i++)
			n += count_notes(v->u.items[i]);
	return n;
}

/*
 * hasAllNullValues(false): every pair's value is absent.  The notes of
 * each pair are the key's (none for an alias) and then the value's.
 */
static int all_values_absent(struct walk *w, const struct value *map)
{
	size_t idx = w->next;
	uint32_t i;

	for (i = 0; i < map->nr; i++) {
		const struct value *key = map->u.items[2 * i];
		const struct value *val = map->u.items[2 * i + 1];

		idx += count_notes(key);
		if (val->kind == VALUE_ALIAS || idx >= w->k->nr ||
		    !w->k->nodes[idx].absent)
			return 0;
		idx++;
	}
	return 1;
}

/*
 * stringifyPair() in flow.  val NULL is a pair without a value node
 * (an !!omap or !!pairs item that was no map), printed as an absent one.
 */
static int pair_string(struct walk *w, struct strbuf *out,
		       const struct value *key, const struct value *val,
		       const struct sctx *c)
{
	struct sctx kc = *c;
	struct strbuf ks = STRBUF_INIT, vs = STRBUF_INIT;
	int explicit_key, absent;

	explicit_key = key->kind == VALUE_ALIAS || value_is_collection(key) ||
		       (w->next < w->k->nr &&
			(w->k->nodes[w->next].style == YKEY_BLOCK ||
			 w->k->nodes[w->next].style == YKEY_FOLDED));
	kc.all_null = 0;
	kc.implicit_key = !explicit_key && !c->all_null;
	kc.indent = c->indent + 2;
	if (node_string(w, &ks, key, &kc))
		goto out;
	absent = !val || (val->kind != VALUE_ALIAS && w->next < w->k->nr &&
			  w->k->nodes[w->next].absent);
	if (c->all_null || absent) {
		if (!ks.len)
			strbuf_addch(out, '?');
		else {
			if (explicit_key)
				strbuf_addstr(out, "? ");
			strbuf_addbuf(out, &ks);
		}
		/* A !!set's values are null, whether written or not. */
		if (val)
			w->next += count_notes(val);
		goto out;
	}
	if (explicit_key) {
		strbuf_addstr(out, "? ");
		strbuf_addbuf(out, &ks);
		strbuf_addch(out, '\n');
		ykey_add_spaces(out, c->indent);
		strbuf_addch(out, ':');
	} else {
		strbuf_addbuf(out, &ks);
		strbuf_addch(out, ':');
	}
	kc.implicit_key = 0;
	if (!explicit_key && val->kind != VALUE_ALIAS &&
	    !value_is_collection(val))
		kc.indent_at_start = (long)ykey_u16len(&ks) + 2;
	if (node_string(w, &vs, val, &kc))
		goto out;
	if (!explicit_key && value_is_collection(val)) {
		const char *nl = memchr(vs.buf, '\n', vs.len);

		if (nl) {
			int props_line = 0;

			if (vs.buf[0] == '&' || vs.buf[0] == '!') {
				const char *sp = memchr(vs.buf, ' ', vs.len);

				if (vs.buf[0] == '&' && sp && sp < nl &&
				    sp[1] == '!')
					sp = memchr(sp + 1, ' ',
						    vs.len - (size_t)(sp + 1 - vs.buf));
				if (!sp || nl < sp)
					props_line = 1;
			}
			if (!props_line) {
				strbuf_addch(out, '\n');
				ykey_add_spaces(out, kc.indent);
			} else
				strbuf_addch(out, ' ');
		} else
			strbuf_addch(out, ' ');
	} else if (vs.len && vs.buf[0] != '\n')
		strbuf_addch(out, ' ');
	strbuf_addbuf(out, &vs);
out:
	strbuf_release(&ks);
	strbuf_release(&vs);
	return w->status;
}

/*
 * An item of an !!omap or !!pairs: yaml's resolvePairs() made it a pair,
 * a one-pair map's own pair (the map's properties gone), an empty map a
 * null key, anything else the key of a pair without a value.
 */
static int pair_item_string(struct walk *w, struct strbuf *out,
			    const struct value *item, const struct sctx *c)
{
	static const struct value null_key = { VALUE_NULL, 0, 0, 0, { 0 } };
	static const struct ykey_node null_note = { NULL, NULL, "null", 4, 0, 0,
						    YKEY_PLAIN, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	/* an !!omap is written as a sequence: no map to yaml */
	if (item->kind != VALUE_MAP ||
	    (item->yflags & (VALUE_YF_DATE | VALUE_YF_OMAP | VALUE_YF_PAIRS)))
		return pair_string(w, out, item, NULL, c);
	w->next++;	/* the map's own note */
	/* a !!set is a map as written: its first pair */
	if (item->yflags & (VALUE_YF_MERGED | VALUE_YF_SET))
		item = yaml11_original(item);
	if (item->nr)
		return pair_string(w, out, item->u.items[0], item->u.items[1],
				   c);
	/* new Scalar(null), which has no note: printed as "null". */
	{
		struct sctx kc = *c;

		kc.all_null = 0;
		kc.implicit_key = 1;
		return ykey_scalar_string(w, out, &null_key, &null_note, &kc);
	}
}

/* The length of a JavaScript line terminator at s[i] (\n \r U+2028/9). */
static size_t js_line_break(const char *s, size_t i, size_t n)
{
	if (s[i] == '\n' || s[i] == '\r')
		return 1;
	if (i + 2 < n && (unsigned char)s[i] == 0xE2 &&
	    (unsigned char)s[i + 1] == 0x80 &&
	    ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9))
		return 3;
	return 0;
}

/*
 * indentComment(stringifyComment(c), indent).trimStart() with
 * JavaScript's multiline ^ and $: at each line start '#' goes before a
 * line that is not empty (a line of one space becomes "#"), and indent
 * before every line but the first.
 */
static void add_comment(struct strbuf *out, const struct strbuf *c,
			size_t indent)
{
	size_t i = 0, n = c->len, first = 1;

	for (;;) {
		size_t e = i, k;

		while (e < n && !js_line_break(c->buf, e, n))
			e++;
		if (e > i && !first)
			ykey_add_spaces(out, indent);
		if (e == i + 1 && c->buf[i] == ' ')
			strbuf_addch(out, '#');
		else {
			if (e > i)
				strbuf_addch(out, '#');
			strbuf_add(out, c->buf + i, e - i);
		}
		if (e >= n)
			return;
		k = js_line_break(c->buf, e, n);
		strbuf_add(out, c->buf + e, k);
		i = e + k;
		first = 0;
	}
}

/*
 * One comment token's text, as yaml keeps it: after the '#' to the end
 * of the line, a CR before the line feed left out; " " when empty.
 * Returns where the line ends.
 */
static size_t comment_text(struct strbuf *c, const char *t, size_t h,
			   size_t end)
{
	size_t le = h, n;

	while (le < end && t[le] != '\n')
		le++;
	/* end is the line's '\n' or the key's end, readable either way */
	n = le - h - 1 - (t[le] == '\n' && le > h + 1 && t[le - 1] == '\r');
	if (!n)
		strbuf_addch(c, ' ');
	else
		strbuf_add(c, t + h + 1, n);
	return le;
}

/*
 * An item's commentBefore (note n), as yaml's composer joins its comment
 * tokens (with the line break after each, as written) and the blank
 * lines after them, printed as the line yaml's flow printer puts before
 * the item.
 */
static void comment_before(struct strbuf *out, const char *t,
			   const struct ykey_node *n, size_t indent)
{
	struct strbuf c = STRBUF_INIT;
	size_t i = n->cb_begin, le = i;
	unsigned k;

	while (i < n->cb_end) {
		while (t[i] != '#')
			i++;
		if (c.len)	/* the line break before this comment */
			strbuf_add(&c, t[le - 1] == '\r' ? "\r\n" : "\n",
				   t[le - 1] == '\r' ? 2 : 1);
		le = comment_text(&c, t, i, n->cb_end);
		i = le + 1;
	}
	/* blank lines after them: their own line breaks */
	for (k = 0, i = le + 1; k < n->cb_trail; k++) {
		while (t[i] != '\n')
			i++;
		strbuf_add(&c, t[i - 1] == '\r' ? "\r\n" : "\n",
			   t[i - 1] == '\r' ? 2 : 1);
		i++;
	}
	add_comment(out, &c, indent);
	strbuf_release(&c);
}

/* lineComment() of a node's comment after the item's text in line. */
static void comment_after(struct strbuf *line, const char *t,
			  const struct ykey_node *n)
{
	struct strbuf c = STRBUF_INIT;

	comment_text(&c, t, n->c_begin - 1, n->c_end);
	if (!line->len || line->buf[line->len - 1] != ' ')
		strbuf_addch(line, ' ');
	add_comment(line, &c, 0);
	strbuf_release(&c);
}

/*
 * Whether the item or pair key `node` comes after blank lines (spaceBefore,
 * marked by ykeys_layout()): its note is the next one.
 */
static int item_blank(const struct walk *w, const struct value *node)
{
	return node->kind != VALUE_ALIAS && w->next < w->k->nr &&
	       w->k->nodes[w->next].space_before;
}

/* stringifyFlowCollection() */
static int collection_string(struct walk *w, struct strbuf *out,
			     const struct value *v, const struct sctx *c)
{
	int is_map, set = v->yflags & VALUE_YF_SET;
	int pairs = v->yflags & (VALUE_YF_OMAP | VALUE_YF_PAIRS);
	uint32_t n, i;
	struct strbuf *lines, *cbs;
	unsigned char *blank;
	struct sctx ic = *c;
	size_t total = 2;
	int multiline = 0;

	/* yaml prints the collection as written, merge keys and all. */
	if (v->yflags & YAML11_REWRITTEN)
		v = yaml11_original(v);
	is_map = v->kind == VALUE_MAP;
	n = v->nr;
	if (!n) {
		strbuf_addstr(out, is_map ? "{}" : "[]");
		return 0;
	}
	/* A Set prints with allNullValues (its values are all null). */
	if (is_map && !c->all_null && (set || all_values_absent(w, v)))
		ic.all_null = 1;
	ic.indent = c->indent + (is_map ? 2 : 4);
	lines = xcalloc(n, sizeof(*lines));
	cbs = xcalloc(n, sizeof(*cbs));
	blank = xcalloc(n, 1);
	for (i = 0; i < n && !w->status; i++) {
		const struct value *item = v->u.items[is_map ? 2 * i : i];
		const struct ykey_node *after = NULL;

		strbuf_init(&lines[i], 0);
		strbuf_init(&cbs[i], 0);
		/* an empty line and comment lines before the item */
		blank[i] = item_blank(w, item);
		if (item->kind != VALUE_ALIAS && w->next < w->k->nr &&
		    w->k->nodes[w->next].cb_end)
			comment_before(&cbs[i], w->k->text,
				       &w->k->nodes[w->next], c->indent);
		if (item->kind != VALUE_ALIAS && !is_map && !pairs &&
		    w->next < w->k->nr)
			after = &w->k->nodes[w->next];
		multiline |= blank[i] || cbs[i].len;
		if ((blank[i] || cbs[i].len) && pairs)
			ykey_refuse(w, LOAD_EUNSUPPORTED, "blank lines or "
				    "comments before an item of an !!omap or "
				    "!!pairs in a collection key");
		else if (is_map)
			pair_string(w, &lines[i], item,
				    v->u.items[2 * i + 1], &ic);
		else if (pairs)
			pair_item_string(w, &lines[i], item, &ic);
		else
			node_string(w, &lines[i], item, &ic);
		/* a pair's comment is its value's (the last note read) */
		if (is_map && !value_is_collection(v->u.items[2 * i + 1]) &&
		    v->u.items[2 * i + 1]->kind != VALUE_ALIAS && w->next)
			after = &w->k->nodes[w->next - 1];
		if (memchr(lines[i].buf, '\n', lines[i].len))
			multiline = 1;
		if (i + 1 < n)
			strbuf_addch(&lines[i], ',');
		if (after && after->c_end && !w->status) {
			comment_after(&lines[i], w->k->text, after);
			multiline = 1;
		}
		total += ykey_u16len(&lines[i]) + 2;
	}
	if (!w->status) {
		strbuf_addch(out, is_map ? '{' : '[');
		if (multiline || total > LINE_WIDTH) {
			for (i = 0; i < n; i++) {
				if (blank[i])
					strbuf_addch(out, '\n');
				if (cbs[i].len) {
					strbuf_addch(out, '\n');
					ykey_add_spaces(out, c->indent + 2);
					strbuf_addbuf(out, &cbs[i]);
				}
				strbuf_addch(out, '\n');
				ykey_add_spaces(out, c->indent + 2);
				strbuf_addbuf(out, &lines[i]);
			}
			strbuf_addch(out, '\n');
			ykey_add_spaces(out, c->indent);
		} else {
			for (i = 0; i < n; i++) {
				strbuf_addch(out, ' ');
				strbuf_addbuf(out, &lines[i]);
			}
			strbuf_addch(out, ' ');
		}
		strbuf_addch(out, is_map ? '}' : ']');
	}
	for (i = 0; i < n; i++) {
		strbuf_release(&lines[i]);
		strbuf_release(&cbs[i]);
	}
	free(lines);
	free(cbs);
	free(blank);
	return w->status;
}

/*
 * yaml's stringify(): properties, then the node.  Like yaml, this adds
 * the properties' width to c->indent_at_start, which the items of a flow
 * sequence share.
 */
static int node_string(struct walk *w, struct strbuf *out,
		       const struct value *v, struct sctx *c)
{
	const struct ykey_node *n;
	struct strbuf props = STRBUF_INIT;
	int is_coll = value_is_collection(v);

	if (v->kind == VALUE_ALIAS) {
		if (!is_yaml_anchor_name(v->u.alias.name))
			return ykey_refuse(w, LOAD_EINVALID,
				      "an alias name with white space or "
				      "control characters in a key");
		strbuf_addf(out, "*%s%s", v->u.alias.name,
			    c->implicit_key ? " " : "");
		return 0;
	}
	if (w->next >= w->k->nr)
		BUG("collection key: fewer notes than nodes");
	n = &w->k->nodes[w->next++];
	if (is_coll != (n->style == YKEY_COLLECTION))
		return ykey_refuse(w, LOAD_EUNSUPPORTED,
			      "a date or binary scalar in a collection key");
	if (n->anchor) {
		if (!is_yaml_anchor_name(n->anchor))
			return ykey_refuse(w, LOAD_EINVALID,
				      "an anchor name with white space or "
				      "control characters in a key");
		strbuf_addf(&props, "&%s", n->anchor);
	}
	if (n->tag) {
		if (props.len)
			strbuf_addch(&props, ' ');
		if (is_coll && !strcmp(n->tag, "!"))
			add_tag(&props, w->k, v->kind == VALUE_MAP ?
				TAG_PREFIX "map" : TAG_PREFIX "seq");
		else
			add_tag(&props, w->k, n->tag);
	}
	if (props.len) {
		c->indent_at_start = (c->indent_at_start < 0 ? 0 :
				      c->indent_at_start) +
				     (long)ykey_u16len(&props) + 1;
		strbuf_addbuf(out, &props);
		strbuf_addch(out, ' ');
	}
	strbuf_release(&props);
	if (is_coll && n->tag && scalar_tag_text(n->tag, w->k->yaml11)) {
		/* props end with the ' ' added above */
		strbuf_setlen(out, out->len - 1);
		strbuf_addch(out, '\n');
		ykey_add_spaces(out, c->indent);
		strbuf_addstr(out, scalar_tag_text(n->tag, w->k->yaml11));
		w->next += count_notes(v) - 1;
		return 0;
	}
	if (is_coll)
		return collection_string(w, out, v, c);
	return ykey_scalar_string(w, out, v, n, c);
}

int ykeys_stringify(struct ykeys *k, const struct value *key,
		    struct strbuf *out, struct strbuf *why)
{
	struct walk w;
	struct sctx c;

	memset(&w, 0, sizeof(w));
	memset(&c, 0, sizeof(c));
	c.indent_at_start = -1;
	w.k = k;
	w.why = why;
	if (key->kind == VALUE_SEQ || key->kind == VALUE_MAP) {
		/* key.toString() prints no properties of the key itself. */
		w.next++;
		collection_string(&w, out, key, &c);
	} else
		BUG("collection key that is not a collection");
	k->nr = 0;
	return w.status;
}
