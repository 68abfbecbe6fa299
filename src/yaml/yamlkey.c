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

/*
 * A comment on the header line of the block scalar of note n: yaml keeps
 * it as the scalar's comment and prints it after the scalar in the key.
 */
static int block_header_comment(const struct ykey_node *n, const char *text)
{
	size_t i = n->src_begin;

	if (n->style != YKEY_BLOCK && n->style != YKEY_FOLDED)
		return 0;
	while (i < n->src_end && text[i] != '\n') {
		if (text[i] == '#')
			return 1;
		i++;
	}
	return 0;
}

int ykeys_has_comment(const struct ykeys *k, const char *text, size_t b,
		      size_t e)
{
	size_t i = b, n = 0;

	while (i < e) {
		/* Scalars are noted in order; skip over each one's text. */
		while (n < k->nr && (k->nodes[n].style == YKEY_COLLECTION ||
				     k->nodes[n].src_end <= i))
			n++;
		if (n < k->nr && k->nodes[n].src_begin <= i) {
			if (block_header_comment(&k->nodes[n], text))
				return 1;
			i = k->nodes[n].src_end;
			continue;
		}
		if (text[i] == '#' && (i == b || strchr(" \t\r\n", text[i - 1])))
			return 1;
		i++;
	}
	return 0;
}

/*
 * Blank lines in a key, as yaml's composer turns them into spaceBefore
 * (resolveProps(): a line break at the start of a line).  The scan
 * walks the key's text between its nodes; `before` and `after` hold
 * whether blank lines came before or after the last indicator crossed
 * (`since`), and the next node gets spaceBefore from them:
 *  - after a ',' only (earlier ones went to the item before), and after
 *    a '[' or '{';
 *  - before or after a '?', before a '-' (yaml drops those after a
 *    '-'), or with no indicator (a block map's next key);
 *  - before or after a ':' they go to the value, which yaml prints on
 *    a line of its own: refused.
 */
struct blank_scan {
	const char *text;
	size_t i, e, n;		/* position, end, next note */
	int at_nl, before, after, since;
};

/*
 * After a block scalar: yaml's lexer ends its token at its last line of
 * content, then takes back from the end the lines of no more spaces than
 * its first line of content is indented; those (unless the chomping
 * keeps them) are line breaks of their own, blank lines before what
 * follows.  The scan goes on at the next line with content.  An empty
 * scalar, or a tab in those lines, is refused.
 */
static int block_scalar_end(struct blank_scan *sc, const struct ykey_node *n)
{
	const char *t = sc->text;
	size_t i = n->src_begin + 1, q = n->src_end, r, k, ind = 0;
	int keep = 0, dropped = 0;

	while (i < n->src_end && strchr("+-0123456789", t[i]))
		keep |= t[i++] == '+';
	while (i < sc->e && t[i] != '\n')
		i++;			/* the header line */
	for (k = i + 1; k < sc->e; k++) {
		if (t[k] == '\n')
			ind = 0;
		else if (t[k] == ' ')
			ind++;
		else if (t[k] != '\r')
			break;
	}
	if (k < sc->e && t[k] == '\t')
		return -1;
	while (q > n->src_begin && strchr(" \t\r\n", t[q - 1]))
		q--;
	if (q <= i)
		return -1;		/* no content */
	while (q < sc->e && t[q] != '\n')
		q++;			/* the end of the last line of content */
	for (r = q; r < sc->e && strchr(" \t\r\n", t[r]); r++)
		;
	while (r > q + 1 && t[r - 1] != '\n')
		r--;			/* the next line with content starts */
	sc->i = r;
	sc->at_nl = 1;
	for (k = r; !keep && k > q + 1; k = i) {
		size_t spaces = 0;

		for (i = k - 1; i > q + 1 && t[i - 1] != '\n'; i--)
			;		/* the line [i, k - 1) */
		for (r = i; r < k - 1; r++) {
			if (t[r] == '\t')
				return -1;
			spaces += t[r] == ' ';
		}
		if (spaces > ind)
			break;
		dropped = 1;
	}
	if (dropped)
		sc->before = 1;
	return 0;
}

/* The next note at the scan's position (empty scalars passed over). */
static struct ykey_node *note_here(struct ykeys *k, struct blank_scan *sc,
				   int *refuse)
{
	while (sc->n < k->nr) {
		struct ykey_node *n = &k->nodes[sc->n];
		int empty = n->style != YKEY_COLLECTION &&
			    n->src_begin == n->src_end;

		if (n->src_begin > sc->i)
			return NULL;
		if (!empty && n->src_begin < sc->i) {
			*refuse = 1;	/* a node the scan did not see start */
			return NULL;
		}
		sc->n++;
		if (!empty)
			return n;
		/*
		 * An empty node's place is not its own: libyaml marks it
		 * where the next token is.  A map value with no ':' takes
		 * no blank lines; another empty node might.
		 */
		if ((sc->before || sc->after) && !n->absent)
			*refuse = 1;
	}
	return NULL;
}

/*
 * A node starts at the scan's position: give it the blank lines.  next
 * is the note after it, or NULL.
 */
static int node_start(struct blank_scan *sc, struct ykey_node *n,
		      const struct ykey_node *next)
{
	int props, blank = sc->since == '-' ? sc->before : sc->before || sc->after;

	if ((sc->since == ':' && (sc->before || sc->after)) ||
	    (blank && n->pair))
		return 1;
	n->space_before = blank;
	sc->before = sc->after = sc->since = sc->at_nl = 0;
	if (n->style == YKEY_BLOCK || n->style == YKEY_FOLDED)
		return block_scalar_end(sc, n) != 0;
	if (n->style != YKEY_COLLECTION) {
		sc->i = n->src_end;
		return 0;
	}
	/*
	 * A flow sequence's pair is a map that starts where its key does
	 * (libyaml does not always tell it from a flow map as a key).
	 */
	if (n->pair || (next && next->style == YKEY_COLLECTION &&
			next->src_begin == n->src_begin))
		return 0;
	/* a collection: past its own properties, into a flow one */
	for (props = !!n->anchor + !!n->tag; props && sc->i < sc->e &&
	     (sc->text[sc->i] == '&' || sc->text[sc->i] == '!'); props--) {
		while (sc->i < sc->e && !strchr(" \t\r\n", sc->text[sc->i]))
			sc->i++;
		while (sc->i < sc->e && strchr(" \t", sc->text[sc->i]))
			sc->i++;
	}
	if (sc->i < sc->e && (sc->text[sc->i] == '[' ||
			      sc->text[sc->i] == '{')) {
		sc->i++;
		sc->since = '[';
	}
	return 0;
}

int ykeys_blank_lines(struct ykeys *k, const char *text, size_t b, size_t e)
{
	struct blank_scan sc = { text, b, e, 0, 0, 0, 0, 0 };
	int refuse = 0;

	while (sc.i < e) {
		struct ykey_node *n = note_here(k, &sc, &refuse);
		char c = text[sc.i];

		if (refuse)
			return 1;
		if (n) {
			if (node_start(&sc, n, sc.n < k->nr ?
				       &k->nodes[sc.n] : NULL))
				return 1;
			continue;
		}
		if (c == '\n') {
			if (sc.at_nl)
				*(sc.since ? &sc.after : &sc.before) = 1;
			sc.at_nl = 1;
		} else if (c == '-' || c == '?' || c == ':' || c == ',') {
			if (sc.since && (sc.before || sc.after))
				return 1;
			sc.before = c != ',' && (sc.before || sc.after);
			sc.after = sc.at_nl = 0;
			sc.since = c;
		} else if (c == ']' || c == '}') {
			sc.before = sc.after = sc.since = sc.at_nl = 0;
		} else if (c == '*') {
			/* an alias: no note to give blank lines to */
			if (sc.before || sc.after)
				return 1;
			while (sc.i + 1 < e &&
			       !strchr(" \t\r\n,[]{}", text[sc.i + 1]))
				sc.i++;
			sc.since = sc.at_nl = 0;
		} else if (!strchr(" \t\r", c))
			return 1;	/* nothing this scan knows */
		sc.i++;
	}
	return 0;
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

int ykey_anchor_printable(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	for (; *s; s++) {
		if (*s <= 0x20 || strchr(",[]{}", *s))
			return 0;
		if ((s[0] == 0xC2 && s[1] == 0xA0) ||
		    (s[0] == 0xE1 && s[1] == 0x9A && s[2] == 0x80) ||
		    (s[0] == 0xE2 && s[1] == 0x80 &&
		     ((s[2] >= 0x80 && s[2] <= 0x8A) || s[2] == 0xA8 ||
		      s[2] == 0xA9 || s[2] == 0xAF)) ||
		    (s[0] == 0xE2 && s[1] == 0x81 && s[2] == 0x9F) ||
		    (s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) ||
		    (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF))
			return 0;
	}
	return 1;
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
						    YKEY_PLAIN, 0, 0, 0, 0 };

	if (item->kind != VALUE_MAP || (item->yflags & VALUE_YF_DATE))
		return pair_string(w, out, item, NULL, c);
	w->next++;	/* the map's own note */
	if (item->yflags & VALUE_YF_MERGED)
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

/*
 * Whether the item or pair key `node` comes after blank lines (spaceBefore,
 * marked by ykeys_blank_lines()): its note is the next one.
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
	struct strbuf *lines;
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
	blank = xcalloc(n, 1);
	for (i = 0; i < n && !w->status; i++) {
		strbuf_init(&lines[i], 0);
		/* an empty line before the item: one per item at most */
		blank[i] = item_blank(w, v->u.items[is_map ? 2 * i : i]);
		multiline |= blank[i];
		if (blank[i] && pairs)
			ykey_refuse(w, LOAD_EUNSUPPORTED, "blank lines before "
				    "an item of an !!omap or !!pairs in a "
				    "collection key");
		else if (is_map)
			pair_string(w, &lines[i], v->u.items[2 * i],
				    v->u.items[2 * i + 1], &ic);
		else if (pairs)
			pair_item_string(w, &lines[i], v->u.items[i], &ic);
		else
			node_string(w, &lines[i], v->u.items[i], &ic);
		if (memchr(lines[i].buf, '\n', lines[i].len))
			multiline = 1;
		if (i + 1 < n)
			strbuf_addch(&lines[i], ',');
		total += ykey_u16len(&lines[i]) + 2;
	}
	if (!w->status) {
		strbuf_addch(out, is_map ? '{' : '[');
		if (multiline || total > LINE_WIDTH) {
			for (i = 0; i < n; i++) {
				if (blank[i])
					strbuf_addch(out, '\n');
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
	for (i = 0; i < n; i++)
		strbuf_release(&lines[i]);
	free(lines);
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
		if (!ykey_anchor_printable(v->u.alias.name))
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
		if (!ykey_anchor_printable(n->anchor))
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
