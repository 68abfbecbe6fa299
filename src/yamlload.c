/*
 * YAML loading: libyaml events in, the reference's value tree out.
 *
 * The parts that are not a straight translation of events:
 *
 *  - libyaml is a YAML 1.1 scanner; its mark.index counts characters.
 *    struct posmap turns those into byte offsets in the source so that
 *    double-quoted scalars can be decoded from their source text and key
 *    lengths measured in UTF-16 units, as the reference measures them.
 *
 *  - libyaml refuses \u escapes of surrogates.  JavaScript strings hold
 *    them, so when libyaml stops on one we patch a private copy of the
 *    source (the escape's digits become 0041, same length, same structure)
 *    and parse again; the real value comes from our own decoder.
 *
 *  - Aliases are counted exactly as yaml@2.8.3 counts them: each anchored
 *    node starts at count 1, each alias adds one, and an alias fails when
 *    count times the anchor's weight (the largest count * weight of any
 *    alias inside it, 1 for a scalar, 0 for an empty collection) exceeds
 *    100.
 */
#include "config.h"
#include "yamlload.h"
#include "numfmt.h"
#include "yamlfix.h"
#include "yamlscalar.h"
#include "usage.h"
#include "utf8.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_ALIAS_COUNT 100
#define YAML_TAG_PREFIX "tag:yaml.org,2002:"

/*
 * libyaml's character index to a byte offset in the original text,
 * moving in either direction.  libyaml reads a copy (struct yl_fix) in
 * which bytes may be inserted or deleted: from shift_at[k] on, an offset
 * in the copy plus shift[k] is the offset in the text.
 */
struct posmap {
	const unsigned char *text;	/* what libyaml reads */
	size_t len;
	const size_t *shift_at;
	const long *shift;
	size_t nshift;
	size_t ci;	/* character index of bi */
	size_t bi;
	size_t k;	/* shifts that apply at bi */
};

static size_t posmap_byte(struct posmap *pm, size_t ci)
{
	while (pm->ci < ci && pm->bi < pm->len) {
		unsigned char c = pm->text[pm->bi];

		pm->bi += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
		pm->ci++;
	}
	while (pm->ci > ci) {
		do
			pm->bi--;
		while ((pm->text[pm->bi] & 0xC0) == 0x80);
		pm->ci--;
	}
	while (pm->k < pm->nshift && pm->shift_at[pm->k] <= pm->bi)
		pm->k++;
	while (pm->k > 0 && pm->shift_at[pm->k - 1] > pm->bi)
		pm->k--;
	return (size_t)((long)pm->bi + (pm->k ? pm->shift[pm->k - 1] : 0));
}

struct anchor {
	const char *name;
	struct value *node;
	int64_t count;
	int64_t weight;		/* yaml's aliasCount; 0 until computed */
	unsigned complete:1;	/* its node has been fully read */
	unsigned settled:1;	/* weight is 0 and can never change */
	unsigned deferred:1;	/* aliased as a key from inside itself */
};

enum { SPECIAL_SET = 1, SPECIAL_OMAP, SPECIAL_PAIRS };

struct frame {
	struct value *node;
	struct value **items;
	size_t nr, alloc;
	int anchor;		/* index in anchors, or -1 */
	int is_map;
	int flow;		/* a flow collection */
	int special;		/* SPECIAL_SET, _OMAP, _PAIRS or 0 */
	int flow_pair;		/* a single-pair map inside a flow sequence */
	int check_keys;		/* implicit keys are limited to 1024 units */
	yaml_mark_t start_mark;
	yaml_mark_t key_start, key_end;
};

struct loader {
	struct arena *arena;
	const char *text;	/* the original source */
	size_t len;
	struct posmap pm;
	struct strbuf *err;
	int status;

	struct frame *stack;
	size_t depth, stack_alloc;
	struct value *root;
	int documents;

	struct anchor *anchors;
	size_t nr_anchors, anchors_alloc;
	int *anchor_hash;	/* open addressing: name -> newest anchor */
	size_t hash_size;

	struct strbuf scratch;
	struct strbuf why;

	struct yl_fix fx;	/* libyaml's copy of the text */
	int flow_depth;
	int flow_in_block;	/* the outermost flow collection is nested */
	size_t flow_start;	/* where the outermost flow collection starts */
	int has_tag_directive;
};

static int fail(struct loader *ld, int status, const yaml_mark_t *mark,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct loader *ld, int status, const yaml_mark_t *mark,
		const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (ld->status)
		return ld->status;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (status == LOAD_EUNSUPPORTED)
		strbuf_addstr(ld->err, "unsupported YAML construct: ");
	else
		strbuf_addstr(ld->err, "invalid YAML: ");
	strbuf_addstr(ld->err, buf);
	if (mark)
		strbuf_addf(ld->err, " (line %zu, column %zu)", mark->line + 1,
			    mark->column + 1);
	ld->status = status;
	return status;
}

/* --- anchors ----------------------------------------------------------- */

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void anchor_hash_put(struct loader *ld, int idx)
{
	size_t mask, i;

	if ((ld->nr_anchors + 1) * 2 > ld->hash_size) {
		size_t n = ld->hash_size ? ld->hash_size * 2 : 64, k;

		free(ld->anchor_hash);
		ld->anchor_hash = xmalloc(n * sizeof(int));
		for (k = 0; k < n; k++)
			ld->anchor_hash[k] = -1;
		ld->hash_size = n;
		for (k = 0; k < ld->nr_anchors; k++)
			if ((int)k != idx)
				anchor_hash_put(ld, (int)k);
	}
	mask = ld->hash_size - 1;
	i = name_hash(ld->anchors[idx].name) & mask;
	while (ld->anchor_hash[i] >= 0) {
		if (!strcmp(ld->anchors[ld->anchor_hash[i]].name,
			    ld->anchors[idx].name)) {
			/* A redefined anchor: later aliases see the new one. */
			if (ld->anchor_hash[i] < idx)
				ld->anchor_hash[i] = idx;
			return;
		}
		i = (i + 1) & mask;
	}
	ld->anchor_hash[i] = idx;
}

static int anchor_find(struct loader *ld, const char *name)
{
	size_t mask, i;

	if (!ld->hash_size)
		return -1;
	mask = ld->hash_size - 1;
	i = name_hash(name) & mask;
	while (ld->anchor_hash[i] >= 0) {
		if (!strcmp(ld->anchors[ld->anchor_hash[i]].name, name))
			return ld->anchor_hash[i];
		i = (i + 1) & mask;
	}
	return -1;
}

static int anchor_add(struct loader *ld, const char *name, struct value *node)
{
	struct anchor *a;
	int idx;

	ALLOC_GROW(ld->anchors, ld->nr_anchors + 1, ld->anchors_alloc);
	idx = (int)ld->nr_anchors;
	a = &ld->anchors[idx];
	memset(a, 0, sizeof(*a));
	a->name = name;
	a->node = node;
	a->count = 1;
	ld->nr_anchors++;
	anchor_hash_put(ld, idx);
	return idx;
}

/*
 * yaml's getAliasCount(): the weight of a node is the largest
 * count * weight of the aliases it contains, 1 for a scalar, and 0 for an
 * empty collection.  *has_alias tells whether the answer may change later.
 */
static int64_t alias_weight(struct loader *ld, const struct value *v,
			    int *has_alias)
{
	int64_t best = 0;
	uint32_t i, n;

	switch (v->kind) {
	case VALUE_ALIAS: {
		const struct anchor *a = &ld->anchors[v->nr];

		*has_alias = 1;
		return a->count * a->weight;
	}
	case VALUE_SEQ:
	case VALUE_MAP:
		n = v->kind == VALUE_MAP ? 2 * v->nr : v->nr;
		for (i = 0; i < n; i++) {
			int64_t w = alias_weight(ld, v->u.items[i], has_alias);

			if (w > best)
				best = w;
		}
		return best;
	default:
		return 1;
	}
}

/* yaml's anchor and alias names end at white space or a flow indicator. */
static size_t name_end(const char *s, size_t i, size_t end)
{
	while (i < end && !strchr(" \t\r\n,[]{}", s[i]))
		i++;
	return i;
}

/* A node's properties as yaml reads them from the source. */
struct props {
	const char *anchor;	/* NULL when there is none */
	size_t anchor_len;
	const char *tag;	/* the tag token, '!' included */
	size_t tag_len;
};

/*
 * Skip the properties (anchor, tag), white space and comments in front of
 * a node's content, noting the first anchor and tag in *p (a later one
 * belongs to a child).  Names may run past `end` (libyaml's end of the
 * node), up to len.
 */
static size_t skip_props(const char *s, size_t i, size_t end, size_t len,
			 struct props *p)
{
	memset(p, 0, sizeof(*p));
	while (i < end) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			i++;
		else if (c == '#') {
			while (i < end && s[i] != '\n')
				i++;
		} else if (c == '&') {
			size_t e = name_end(s, i + 1, len);

			if (!p->anchor) {
				p->anchor = s + i + 1;
				p->anchor_len = e - i - 1;
			}
			i = e;
		} else if (c == '!') {
			size_t b = i;

			while (i < len && s[i] != ' ' && s[i] != '\t' &&
			       s[i] != '\n' && s[i] != '\r')
				i++;
			if (!p->tag) {
				p->tag = s + b;
				p->tag_len = i - b;
			}
		} else
			break;
	}
	return i;
}

/*
 * yaml splits a tag at its last '!' (libyaml at its second), and
 * refuses a tag without a suffix.  Where the two would read a tag
 * differently, yaml cannot resolve it.
 */
static int check_tag(struct loader *ld, const struct props *p,
		     const yaml_mark_t *mark)
{
	const char *t = p->tag;
	size_t n = p->tag_len, last = 0, lib_end, i;

	if (!t || n < 2 || t[1] == '<')
		return 0;
	for (i = 0; i < n; i++)
		if (t[i] == '!')
			last = i;
	lib_end = t[1] == '!' ? 1 : 0;
	for (i = 1; !lib_end && i < n; i++)
		if (t[i] == '!')
			lib_end = i;
	if (last == n - 1)
		return fail(ld, LOAD_EINVALID, mark, "the tag %.*s has no suffix",
			    (int)n, t);
	if (last != lib_end)
		return fail(ld, ld->has_tag_directive ? LOAD_EUNSUPPORTED :
			    LOAD_EINVALID, mark, "could not resolve tag %.*s",
			    (int)n, t);
	return 0;
}

/*
 * libyaml gets letters for the characters of an anchor name it would
 * not take (yamlfix.c), so both read names of the same length.
 */
static int check_name(struct loader *ld, const char *name, size_t yaml_len,
		      const yaml_mark_t *mark)
{
	if (strlen(name) != yaml_len)
		return fail(ld, LOAD_EUNSUPPORTED, mark,
			    "an anchor name libyaml reads differently");
	return 0;
}

/* --- tree building ----------------------------------------------------- */

static int attach(struct loader *ld, struct value *v)
{
	struct frame *f;

	if (!ld->depth) {
		ld->root = v;
		return 0;
	}
	f = &ld->stack[ld->depth - 1];
	ALLOC_GROW(f->items, f->nr + 1, f->alloc);
	f->items[f->nr++] = v;
	if (f->nr > UINT32_MAX - 2)
		return fail(ld, LOAD_EUNSUPPORTED, NULL, "collection too large");
	return 0;
}

static int keys_equal(const struct value *a, const struct value *b)
{
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case VALUE_NULL:
		return 1;
	case VALUE_BOOL:
		return a->u.boolean == b->u.boolean;
	case VALUE_NUMBER:
		return a->u.number == b->u.number;
	case VALUE_STRING:
		return a->u.str.len == b->u.str.len &&
		       !memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len);
	default:
		return 0;	/* aliases, collections, bytes never collide */
	}
}

static int key_order(const void *pa, const void *pb)
{
	const struct value *a = *(const struct value * const *)pa;
	const struct value *b = *(const struct value * const *)pb;
	size_t n;
	int c;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	switch (a->kind) {
	case VALUE_BOOL:
		return a->u.boolean - b->u.boolean;
	case VALUE_NUMBER:
		/* -0 and 0 compare equal; NaN never reaches here. */
		return a->u.number < b->u.number ? -1 :
		       a->u.number > b->u.number;
	case VALUE_STRING:
		n = a->u.str.len < b->u.str.len ? a->u.str.len : b->u.str.len;
		c = memcmp(a->u.str.ptr, b->u.str.ptr, n);
		if (c)
			return c;
		return (a->u.str.len > b->u.str.len) -
		       (a->u.str.len < b->u.str.len);
	default:
		return 0;
	}
}

/* A short printable form of a scalar key, for messages. */
static void describe_key(struct strbuf *sb, const struct value *k)
{
	char num[NUMFMT_MAX];
	size_t i;

	switch (k->kind) {
	case VALUE_NULL:
		strbuf_addstr(sb, "null");
		break;
	case VALUE_BOOL:
		strbuf_addstr(sb, k->u.boolean ? "true" : "false");
		break;
	case VALUE_NUMBER:
		strbuf_add(sb, num, numfmt_es(num, k->u.number));
		break;
	default:
		strbuf_addch(sb, '\'');
		for (i = 0; i < k->u.str.len && i < 60; i++) {
			unsigned char c = (unsigned char)k->u.str.ptr[i];

			if (c < 0x20 || c == 0x7f)
				strbuf_addf(sb, "\\x%02x", c);
			else if (c == 0xED && (k->u.str.ptr[i + 1] & 0xE0) == 0xA0) {
				/* A lone surrogate: not printable as UTF-8. */
				const unsigned char *p =
					(const unsigned char *)k->u.str.ptr + i;

				strbuf_addf(sb, "\\u%04x", 0xD000 |
					    ((p[1] & 0x3F) << 6) | (p[2] & 0x3F));
				i += 2;
			} else
				strbuf_addch(sb, c);
		}
		strbuf_addstr(sb, i < k->u.str.len ? "...'" : "'");
	}
}

/* yaml's uniqueKeys: keys equal as scalar values (===) are an error. */
static int check_unique_keys(struct loader *ld, struct frame *f)
{
	size_t npairs = f->nr / 2, i, j, n = 0;
	const struct value **keys, *dup = NULL;

	if (npairs < 2)
		return 0;
	if (npairs <= 16) {
		for (i = 0; i < npairs && !dup; i++)
			for (j = 0; j < i && !dup; j++)
				if (keys_equal(f->items[2 * i], f->items[2 * j]))
					dup = f->items[2 * i];
	} else {
		keys = xmalloc(npairs * sizeof(*keys));
		for (i = 0; i < npairs; i++) {
			const struct value *k = f->items[2 * i];

			if (k->kind == VALUE_NULL || k->kind == VALUE_BOOL ||
			    k->kind == VALUE_STRING ||
			    (k->kind == VALUE_NUMBER && !isnan(k->u.number)))
				keys[n++] = k;
		}
		qsort(keys, n, sizeof(*keys), key_order);
		for (i = 1; i < n && !dup; i++)
			if (keys_equal(keys[i - 1], keys[i]))
				dup = keys[i];
		free(keys);
	}
	if (dup) {
		struct strbuf what = STRBUF_INIT;

		describe_key(&what, dup);
		fail(ld, LOAD_EINVALID, &f->start_mark,
		     "map keys must be unique: %s appears twice in the mapping "
		     "that starts here", what.buf);
		strbuf_release(&what);
		return ld->status;
	}
	return 0;
}

/*
 * Called when a map key's node is complete, with its marks: an implicit
 * key must end with its ':' on the same line, at most 1024 UTF-16 units
 * after the key's start (properties included), as yaml@2.8.3 checks.
 */
static int check_implicit_key(struct loader *ld, struct frame *f)
{
	size_t start = posmap_byte(&ld->pm, f->key_start.index);
	size_t end = posmap_byte(&ld->pm, f->key_end.index);
	size_t i = end;
	int newline = 0;

	while (i < ld->len) {
		char c = ld->text[i];

		if (c == ' ' || c == '\t')
			i++;
		else if (f->flow_pair && (c == '\n' || c == '\r')) {
			newline = 1;
			i++;
		} else if (f->flow_pair && c == '#') {
			while (i < ld->len && ld->text[i] != '\n')
				i++;
		} else
			break;
	}
	if (i >= ld->len || ld->text[i] != ':')
		return 0;	/* an explicit key, or none */
	if (f->flow_pair && (newline || memchr(ld->text + start, '\n',
					       end - start)))
		return fail(ld, LOAD_EINVALID, &f->key_start,
			    "implicit keys of flow sequence pairs need to be on a single line");
	if (utf16_length(ld->text + start, i - start) > 1024)
		return fail(ld, LOAD_EINVALID, &f->key_start,
			    "implicit key longer than 1024 characters");
	return 0;
}

static void note_child_marks(struct loader *ld, const yaml_mark_t *start,
			     const yaml_mark_t *end)
{
	struct frame *f;

	if (!ld->depth)
		return;
	f = &ld->stack[ld->depth - 1];
	if (!f->is_map || !f->check_keys || f->nr % 2 != 1)
		return;
	/* The node just attached was a key. */
	f->key_start = *start;
	f->key_end = *end;
	check_implicit_key(ld, f);
}

/*
 * yaml's lexer wants the lines that continue a quoted scalar or a flow
 * collection in block context indented at least to its `indentNext`,
 * which the line that opened them sets: its indentation, then one more
 * than the column of each "- ", "? " or ": " indicator on it.  libyaml
 * does not check this.  The value computed here is never below yaml's
 * (where an earlier line would have set it lower, the line's own
 * indentation is used), so whatever yaml refuses is refused here too.
 */
static size_t indent_next_at(const char *t, size_t pos)
{
	size_t ls = pos, i, nxt, col;

	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	i = ls;
	while (i < pos && t[i] == ' ')
		i++;
	nxt = i - ls;
	while (i + 1 < pos && strchr("-?:", t[i]) &&
	       (t[i + 1] == ' ' || t[i + 1] == '\t')) {
		nxt = i - ls + 1;
		i++;
		while (i < pos && (t[i] == ' ' || t[i] == '\t'))
			i++;
	}
	col = i - ls;
	for (; i < pos; i++) {
		if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];

			for (i++; i < pos && t[i] != q; i++)
				if (q == '"' && t[i] == '\\')
					i++;
		} else if (t[i] == ':' && (t[i + 1] == ' ' || t[i + 1] == '\t'))
			nxt = col + 1;
	}
	return nxt;
}

/*
 * Check the lines after the first of [b, e) against indent_next_at(at).
 * For a quoted scalar (closer 0) only empty lines pass; in a flow
 * collection (closer 1) blank and comment lines pass, and a line that
 * starts with the final bracket may sit one column short, as yaml allows.
 */
static int check_continuation(struct loader *ld, size_t at, size_t b,
			      size_t e, int closer, const yaml_mark_t *mark)
{
	const char *t = ld->text;
	size_t need = indent_next_at(t, at), i;

	for (i = b; i < e; i++) {
		size_t n = 0, f;

		if (t[i] != '\n')
			continue;
		while (i + 1 + n < ld->len && t[i + 1 + n] == ' ')
			n++;
		f = i + 1 + n;
		if (!closer) {
			/* Inside quotes only an empty line is exempt. */
			if (f >= ld->len || t[f] == '\n' ||
			    (t[f] == '\r' && f + 1 < ld->len && t[f + 1] == '\n'))
				continue;
		} else {
			/* Between flow items tabs separate; comments pass. */
			while (f < ld->len && t[f] == '\t')
				f++;
			if (f >= ld->len || strchr("\r\n#", t[f]))
				continue;
		}
		if (n >= need)
			continue;
		if (closer && n + 1 == need && f == e - 1)
			continue;
		return fail(ld, LOAD_EINVALID, mark,
			    "continuation line indented less than %zu spaces",
			    need);
	}
	return 0;
}

/* yaml wants white space before a comment; libyaml does not. */
static int check_comment_after(struct loader *ld, size_t e,
			       const yaml_mark_t *mark)
{
	if (e < ld->len && ld->text[e] == '#')
		return fail(ld, LOAD_EINVALID, mark,
			    "comment not separated from the token before it "
			    "by white space");
	return 0;
}

static int push_collection(struct loader *ld, enum value_kind kind,
			   const yaml_event_t *ev)
{
	const unsigned char *anchor = kind == VALUE_MAP ?
		ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	const unsigned char *tag = kind == VALUE_MAP ?
		ev->data.mapping_start.tag : ev->data.sequence_start.tag;
	const char *anchor_name = NULL;
	struct frame *f;
	struct value *v;
	int special = 0;

	if (ld->depth >= YL_MAX_DEPTH)
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "nesting deeper than %d levels", YL_MAX_DEPTH);
	if (tag && !strncmp((const char *)tag, YAML_TAG_PREFIX,
			    strlen(YAML_TAG_PREFIX))) {
		const char *name = (const char *)tag + strlen(YAML_TAG_PREFIX);

		/*
		 * yaml@2.8.3 applies these YAML 1.1 tags under the core
		 * schema too, on the collection kind they are for; on the
		 * other kind they only warn.
		 */
		if (kind == VALUE_MAP && !strcmp(name, "set"))
			special = SPECIAL_SET;
		else if (kind == VALUE_SEQ && !strcmp(name, "omap"))
			special = SPECIAL_OMAP;
		else if (kind == VALUE_SEQ && !strcmp(name, "pairs"))
			special = SPECIAL_PAIRS;
	}
	if (anchor || tag) {
		size_t b = posmap_byte(&ld->pm, ev->start_mark.index);
		struct props pr;
		size_t c = skip_props(ld->text, b, ld->len, ld->len, &pr);

		if (tag && check_tag(ld, &pr, &ev->start_mark))
			return ld->status;
		if (anchor && !pr.anchor)
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate an anchor");
		if (anchor && check_name(ld, (const char *)anchor,
					 pr.anchor_len, &ev->start_mark))
			return ld->status;
		if (yl_fix_patched(&ld->fx, b, c))
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "control character in a node's properties");
		if (anchor)
			anchor_name = arena_memdup(ld->arena, pr.anchor,
						   pr.anchor_len);
	}
	v = value_new(ld->arena, kind);
	ALLOC_GROW(ld->stack, ld->depth + 1, ld->stack_alloc);
	f = &ld->stack[ld->depth++];
	memset(f, 0, sizeof(*f));
	f->node = v;
	f->special = special;
	f->start_mark = ev->start_mark;
	f->is_map = kind == VALUE_MAP;
	f->anchor = anchor ? anchor_add(ld, anchor_name, v) : -1;
	if (f->is_map) {
		size_t b = posmap_byte(&ld->pm, ev->start_mark.index);
		int flow = ev->data.mapping_start.style ==
			   YAML_FLOW_MAPPING_STYLE;

		f->flow_pair = flow && !anchor && !tag &&
			       b < ld->len && ld->text[b] != '{';
		f->check_keys = !flow || f->flow_pair;
		f->flow = flow;
	} else
		f->flow = ev->data.sequence_start.style ==
			  YAML_FLOW_SEQUENCE_STYLE;
	if (f->flow && !ld->flow_depth) {
		ld->flow_start = posmap_byte(&ld->pm, ev->start_mark.index);
		ld->flow_in_block = ld->depth > 1;
	}
	ld->flow_depth += f->flow;
	return 0;
}

/*
 * yaml's resolvePairs(): each item of a !!omap or !!pairs sequence
 * becomes one pair, a one-pair mapping as it is, an empty mapping as
 * null: null, anything else as the key of a null value.  The pair is
 * returned as a one-pair map.
 */
static struct value *item_pair(struct loader *ld, struct value *item,
			       const yaml_mark_t *mark)
{
	struct value *m;

	if (item->kind == VALUE_MAP && item->nr == 1)
		return item;
	if (item->kind == VALUE_MAP && item->nr > 1) {
		fail(ld, LOAD_EINVALID, mark,
		     "each pair must have its own sequence indicator");
		return NULL;
	}
	m = value_new(ld->arena, VALUE_MAP);
	m->nr = 1;
	m->u.items = arena_alloc(ld->arena, 2 * sizeof(struct value *));
	m->u.items[0] = item->kind == VALUE_MAP ?
			value_new(ld->arena, VALUE_NULL) : item;
	m->u.items[1] = value_new(ld->arena, VALUE_NULL);
	return m;
}

/* SameValueZero, as Array.prototype.includes compares omap keys. */
static int same_value_zero(const struct value *a, const struct value *b)
{
	if (a->kind == VALUE_NUMBER && b->kind == VALUE_NUMBER &&
	    isnan(a->u.number) && isnan(b->u.number))
		return 1;
	return keys_equal(a, b);
}

static int apply_special(struct loader *ld, struct frame *f, struct value *v,
			 size_t end)
{
	uint32_t i, j;

	switch (f->special) {
	case SPECIAL_SET:
		/*
		 * A Set, canonically {}; every value must be null, and
		 * yaml's test also looks at tags and comments on those
		 * nulls, which we only partly see.
		 */
		for (i = 0; i < v->nr; i++) {
			const struct value *val = v->u.items[2 * i + 1];

			if (val->kind != VALUE_NULL)
				return fail(ld, LOAD_EINVALID, &f->start_mark,
					    "set items must all have null values");
			if (val->tagged)
				return fail(ld, LOAD_EUNSUPPORTED, &f->start_mark,
					    "!!set with a tagged null value");
		}
		if (v->nr) {
			size_t b = posmap_byte(&ld->pm, f->start_mark.index);

			if (end > b && memchr(ld->text + b, '#', end - b))
				return fail(ld, LOAD_EUNSUPPORTED, &f->start_mark,
					    "!!set with comments");
		}
		v->nr = 0;
		return 0;
	case SPECIAL_OMAP:
	case SPECIAL_PAIRS:
		for (i = 0; i < v->nr; i++) {
			struct value *p = item_pair(ld, v->u.items[i],
						    &f->start_mark);

			if (!p)
				return ld->status;
			v->u.items[i] = p;
		}
		if (f->special == SPECIAL_PAIRS)
			return 0;
		/* An omap is a JavaScript Map: canonically {}. */
		for (i = 0; i < v->nr; i++)
			for (j = 0; j < i; j++)
				if (same_value_zero(v->u.items[i]->u.items[0],
						    v->u.items[j]->u.items[0]))
					return fail(ld, LOAD_EINVALID,
						    &f->start_mark,
						    "ordered maps must not include duplicate keys");
		v->kind = VALUE_MAP;
		v->nr = 0;
		return 0;
	}
	return 0;
}

/* Does the tree under v hold an alias of an anchor other than idx? */
static int other_alias(const struct value *v, uint32_t idx)
{
	uint32_t i, n;

	if (v->kind == VALUE_ALIAS)
		return v->nr != idx;
	if (v->kind != VALUE_SEQ && v->kind != VALUE_MAP)
		return 0;
	n = v->kind == VALUE_MAP ? 2 * v->nr : v->nr;
	for (i = 0; i < n; i++)
		if (other_alias(v->u.items[i], idx))
			return 1;
	return 0;
}

/*
 * yaml weighs an alias when it meets it, over the whole anchored node;
 * for an alias inside its own node that is known only now.  With no
 * other alias inside, the weight cannot have changed in between (the
 * node's own alias weighs 0 then), so the check is exact.
 */
static int finish_deferred_alias(struct loader *ld, int idx,
				 const yaml_mark_t *mark)
{
	struct anchor *a = &ld->anchors[idx];
	int has_alias = 0;

	if (other_alias(a->node, (uint32_t)idx))
		return fail(ld, LOAD_EUNSUPPORTED, mark,
			    "alias as a key inside its own anchored node, "
			    "next to other aliases");
	a->deferred = 0;
	a->weight = alias_weight(ld, a->node, &has_alias);
	if (a->count * a->weight > MAX_ALIAS_COUNT)
		return fail(ld, LOAD_EINVALID, mark,
			    "excessive alias count (more than %d alias expansions)",
			    MAX_ALIAS_COUNT);
	return 0;
}

static int pop_collection(struct loader *ld, const yaml_event_t *ev)
{
	struct frame *f = &ld->stack[ld->depth - 1];
	struct value *v = f->node;
	yaml_mark_t start;

	if (f->is_map && check_unique_keys(ld, f))
		return ld->status;
	v->nr = (uint32_t)(f->is_map ? f->nr / 2 : f->nr);
	v->u.items = arena_alloc(ld->arena, (f->nr ? f->nr : 1) *
					    sizeof(struct value *));
	if (f->nr)
		memcpy(v->u.items, f->items, f->nr * sizeof(struct value *));
	free(f->items);
	f->items = NULL;
	if (f->special &&
	    apply_special(ld, f, v, posmap_byte(&ld->pm, ev->end_mark.index)))
		return ld->status;
	if (f->anchor >= 0) {
		ld->anchors[f->anchor].complete = 1;
		if (ld->anchors[f->anchor].deferred &&
		    finish_deferred_alias(ld, f->anchor, &f->start_mark))
			return ld->status;
	}
	ld->flow_depth -= f->flow;
	if (f->flow && !f->flow_pair) {
		size_t b = posmap_byte(&ld->pm, f->start_mark.index);
		size_t e = posmap_byte(&ld->pm, ev->end_mark.index);

		if (check_comment_after(ld, e, &ev->end_mark))
			return ld->status;
		/* The outermost flow collection inside a block one. */
		if (!ld->flow_depth && ld->depth > 1 &&
		    check_continuation(ld, b, b, e, 1, &f->start_mark))
			return ld->status;
	}
	start = f->start_mark;
	ld->depth--;
	if (attach(ld, v))
		return ld->status;
	note_child_marks(ld, &start, &ev->end_mark);
	return ld->status;
}

/*
 * A block scalar's value from its lines as yaml's lexer cut them
 * (yamlfix.c): the header at b, the lines up to the span's end.
 */
static int block_scalar(struct loader *ld, const yaml_event_t *ev, size_t b,
			size_t e, struct strbuf *out)
{
	const char *t = ld->text;
	const char *v = (const char *)ev->data.scalar.value;
	size_t vlen = ev->data.scalar.length;
	const struct yl_span *sp = yl_fix_span(&ld->fx, b);
	int folded = t[b] == '>', chomp = 0, explicit = 0, trim = -1;
	size_t i = b + 1, pos, end, first_indent = 0, k;

	if (!sp || sp->kind != YL_BLOCK)
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "cannot locate a block scalar's lines");
	end = sp->end;
	for (; i < e && !strchr(" \t\r\n#", t[i]); i++) {
		if (t[i] == '-' || t[i] == '+')
			chomp = t[i];
		else if (t[i] >= '1' && t[i] <= '9')
			explicit = 1;
	}
	while (i < end && t[i] != '\n')
		i++;
	if (i >= end)
		return 0;	/* nothing after the header */
	pos = i + 1;
	for (k = pos; k < end; k++) {
		if (t[k] == ' ')
			first_indent++;
		else if (t[k] == '\n')
			first_indent = 0;
		else if (!(t[k] == '\r' && k + 1 < ld->len && t[k + 1] == '\n'))
			break;
	}

	if (explicit) {
		/*
		 * The indicator counts from the parent's indentation, which
		 * libyaml knew: read it back from libyaml's value, whose
		 * first content line kept the spaces beyond it.
		 */
		size_t line = 0, lead = 0, li = 0, c = pos;

		while (c < end && strchr(" \r\n", t[c])) {
			line += t[c] == '\n';
			c++;
		}
		for (k = 0; k < vlen && li < line; k++)
			li += v[k] == '\n';
		while (k < vlen && v[k] == ' ') {
			k++;
			lead++;
		}
		if (c >= end)
			trim = 1;	/* no content: the indentation is moot */
		else if (li < line || first_indent <= lead)
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "block scalar indentation indicator");
		else
			trim = (int)(first_indent - lead);
	}
	strbuf_reset(&ld->why);
	if (yl_block_scalar_value(out, t + pos, end - pos, folded, chomp,
				    trim, &ld->why))
		return fail(ld, LOAD_EINVALID, &ev->start_mark, "%s",
			    ld->why.buf);
	return 0;
}

static int check_quoted_layout(struct loader *ld, size_t b, size_t e,
			       const yaml_mark_t *mark)
{
	if (check_comment_after(ld, e, mark))
		return ld->status;
	if (ld->depth && memchr(ld->text + b, '\n', e - b)) {
		/* In a flow collection the line that opened it counts. */
		if (!ld->flow_depth)
			return check_continuation(ld, b, b, e, 0, mark);
		if (ld->flow_in_block)
			return check_continuation(ld, ld->flow_start, b, e, 0,
						  mark);
	}
	return 0;
}

static int on_scalar(struct loader *ld, const yaml_event_t *ev)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	struct value *v = value_new(ld->arena, VALUE_NULL);
	size_t b = posmap_byte(&ld->pm, ev->start_mark.index);
	size_t e = posmap_byte(&ld->pm, ev->end_mark.index);
	const char *anchor = NULL;
	size_t anchor_len = 0, c;
	struct props pr;
	int ret;

	c = skip_props(ld->text, b, e, ld->len, &pr);
	anchor = pr.anchor;
	anchor_len = pr.anchor_len;
	if (tag && check_tag(ld, &pr, &ev->start_mark))
		return ld->status;
	if (ev->data.scalar.anchor && !anchor)
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "cannot locate an anchor");
	if (ev->data.scalar.anchor &&
	    check_name(ld, (const char *)ev->data.scalar.anchor, anchor_len,
		       &ev->start_mark))
		return ld->status;
	if (yl_fix_patched(&ld->fx, b, c))
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "control character in a node's properties");
	/* Both readers must cut the scalar alike (a block scalar's lines are yaml's). */
	if (c < e && ev->data.scalar.style != YAML_LITERAL_SCALAR_STYLE &&
	    ev->data.scalar.style != YAML_FOLDED_SCALAR_STYLE) {
		const struct yl_span *sp = yl_fix_span(&ld->fx, c);

		if (!sp || sp->end != e)
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "a scalar libyaml ends elsewhere than yaml");
	}
	/*
	 * yaml@2.8.3 makes any scalar tagged !!merge a merge key (a
	 * Symbol as a value); that is not reproduced.
	 */
	if (tag && !strcmp(tag, YAML_TAG_PREFIX "merge"))
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "a scalar tagged !!merge");
	if (tag && !strcmp(tag, "!"))
		plain = 0;	/* the non-specific tag makes a string */
	v->tagged = tag != NULL;
	strbuf_reset(&ld->scratch);
	strbuf_reset(&ld->why);
	ret = 0;
	switch (ev->data.scalar.style) {
	case YAML_PLAIN_SCALAR_STYLE:
		/* yaml takes "-" before a blank or "," for a sequence entry. */
		if (ld->flow_depth && c < e && ld->text[c] == '-' &&
		    (c + 1 >= ld->len || strchr(" \t\r\n,[]{}", ld->text[c + 1])))
			return fail(ld, LOAD_EINVALID, &ev->start_mark,
				    "block collections are not allowed within "
				    "flow collections");
		if (c < e)
			yl_fold_lines(&ld->scratch, ld->text + c, e - c);
		break;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		if (e - c < 2 || ld->text[c] != '\'' || ld->text[e - 1] != '\'')
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate a single-quoted scalar");
		yl_single_quoted_value(&ld->scratch, ld->text + c, e - c);
		if (check_quoted_layout(ld, c, e, &ev->start_mark))
			return ld->status;
		break;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		if (e - c < 2 || ld->text[c] != '"' || ld->text[e - 1] != '"')
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate a double-quoted scalar");
		ret = yl_decode_double_quoted(&ld->scratch, ld->text + c,
						e - c, &ld->why);
		if (!ret && check_quoted_layout(ld, c, e, &ev->start_mark))
			return ld->status;
		break;
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		if (c >= e || (ld->text[c] != '|' && ld->text[c] != '>'))
			return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate a block scalar");
		if (block_scalar(ld, ev, c, e, &ld->scratch))
			return ld->status;
		break;
	default:
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "unknown scalar style");
	}
	if (ret)
		return fail(ld, ret, &ev->start_mark, "%s", ld->why.buf);
	ret = yl_resolve_scalar(v, ld->arena, ld->scratch.buf,
				  ld->scratch.len, plain && !tag, tag, &ld->why);
	if (ret)
		return fail(ld, ret, &ev->start_mark, "%s", ld->why.buf);
	if (ev->data.scalar.anchor) {
		int idx = anchor_add(ld, arena_memdup(ld->arena, anchor,
						      anchor_len), v);

		ld->anchors[idx].complete = 1;
	}
	if (attach(ld, v))
		return ld->status;
	note_child_marks(ld, &ev->start_mark, &ev->end_mark);
	return ld->status;
}

static int on_alias(struct loader *ld, const yaml_event_t *ev)
{
	size_t b = posmap_byte(&ld->pm, ev->start_mark.index);
	size_t e = name_end(ld->text, b + 1, ld->len);
	const char *name;
	struct anchor *a;
	struct value *v;
	int idx;

	if (check_name(ld, (const char *)ev->data.alias.anchor, e - b - 1,
		       &ev->start_mark))
		return ld->status;
	name = arena_memdup(ld->arena, ld->text + b + 1, e - b - 1);
	idx = anchor_find(ld, name);

	if (idx < 0)
		return fail(ld, LOAD_EINVALID, &ev->start_mark,
			    "unresolved alias '%s'", name);
	a = &ld->anchors[idx];
	if (!a->complete) {
		struct frame *f = &ld->stack[ld->depth - 1];

		/*
		 * As a value the reference recurses forever; as a key it
		 * prints "*name" (canon.c).  The weight is known only once
		 * the node is complete: see finish_deferred_alias().
		 */
		if (!f->is_map || f->nr % 2)
			return fail(ld, LOAD_EINVALID, &ev->start_mark,
				    "alias '%s' refers to a node that contains it",
				    name);
		a->count++;
		a->deferred = 1;
	} else
		a->count++;
	if (a->complete && !a->weight && !a->settled) {
		int has_alias = 0;

		a->weight = alias_weight(ld, a->node, &has_alias);
		if (!a->weight && !has_alias)
			a->settled = 1;
	}
	if (a->count * a->weight > MAX_ALIAS_COUNT)
		return fail(ld, LOAD_EINVALID, &ev->start_mark,
			    "excessive alias count (more than %d alias expansions)",
			    MAX_ALIAS_COUNT);
	v = value_new(ld->arena, VALUE_ALIAS);
	v->u.alias.target = a->node;
	v->u.alias.name = a->name;
	v->nr = (uint32_t)idx;
	if (attach(ld, v))
		return ld->status;
	note_child_marks(ld, &ev->start_mark, &ev->end_mark);
	return ld->status;
}

static int on_document_start(struct loader *ld, const yaml_event_t *ev)
{
	const yaml_version_directive_t *ver =
		ev->data.document_start.version_directive;

	if (ev->data.document_start.tag_directives.start !=
	    ev->data.document_start.tag_directives.end)
		ld->has_tag_directive = 1;
	if (++ld->documents > 1)
		return fail(ld, LOAD_EINVALID, &ev->start_mark,
			    "source contains more than one document");
	if (ver && !(ver->major == 1 && ver->minor == 2))
		return fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "%%YAML %d.%d directive (only YAML 1.2 is reproduced)",
			    ver->major, ver->minor);
	return 0;
}

static int handle_event(struct loader *ld, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		return on_document_start(ld, ev);
	case YAML_SCALAR_EVENT:
		return on_scalar(ld, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(ld, ev);
	case YAML_SEQUENCE_START_EVENT:
		return push_collection(ld, VALUE_SEQ, ev);
	case YAML_MAPPING_START_EVENT:
		return push_collection(ld, VALUE_MAP, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return pop_collection(ld, ev);
	default:
		return 0;
	}
}

static void loader_reset(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->depth; i++)
		free(ld->stack[i].items);
	ld->depth = 0;
	ld->flow_depth = 0;
	ld->status = 0;
	ld->root = NULL;
	ld->documents = 0;
	ld->nr_anchors = 0;
	free(ld->anchor_hash);
	ld->anchor_hash = NULL;
	ld->hash_size = 0;
}

static void loader_release(struct loader *ld)
{
	loader_reset(ld);
	yl_fix_release(&ld->fx);
	free(ld->stack);
	free(ld->anchors);
	strbuf_release(&ld->scratch);
	strbuf_release(&ld->why);
}

/*
 * One pass of libyaml over its copy of the text (yamlfix.c made it
 * readable where libyaml departs from yaml).
 */
static int parse_pass(struct loader *ld)
{
	const char *src = ld->fx.lib ? ld->fx.lib : ld->text;
	yaml_parser_t parser;
	yaml_event_t ev;
	int done = 0, ret = 0;

	ld->pm.text = (const unsigned char *)src;
	ld->pm.len = ld->fx.lib_len;
	ld->pm.shift_at = ld->fx.shift_at;
	ld->pm.shift = ld->fx.shift;
	ld->pm.nshift = ld->fx.nr_shifts;
	if (!yaml_parser_initialize(&parser))
		die("cannot initialize libyaml");
	yaml_parser_set_input_string(&parser, (const unsigned char *)src,
				     ld->fx.lib_len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			ret = fail(ld, LOAD_EINVALID, &parser.problem_mark,
				   "%s%s%s", parser.problem ? parser.problem :
				   "unknown error", parser.context ? " " : "",
				   parser.context ? parser.context : "");
			break;
		}
		if (ev.type == YAML_STREAM_END_EVENT)
			done = 1;
		ret = handle_event(ld, &ev);
		yaml_event_delete(&ev);
		if (ret)
			break;
	}
	yaml_parser_delete(&parser);
	return ret;
}

int yl_load(struct value **out, struct arena *arena, const char *text,
	    size_t len, struct strbuf *err)
{
	struct loader ld;
	int ret;

	memset(&ld, 0, sizeof(ld));
	ld.err = err;
	/*
	 * yaml@2.8.3 ignores a leading BOM, as libyaml would if it sniffed,
	 * except that it then refuses a block sequence entry with content on
	 * the first line.
	 */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		size_t i = 3;

		while (i < len && text[i] == ' ')
			i++;
		if (i + 1 < len && text[i] == '-' &&
		    (text[i + 1] == ' ' || text[i + 1] == '\t'))
			return fail(&ld, LOAD_EINVALID, NULL,
				    "block sequence entry right after a byte "
				    "order mark");
		text += 3;
		len -= 3;
		ld.fx.bom_taken = 1;
	}
	ld.arena = arena;
	ld.text = text;
	ld.len = len;
	strbuf_init(&ld.scratch, 0);
	strbuf_init(&ld.why, 0);

	ret = yl_fix_scan(&ld.fx, text, len, err);
	if (!ret) {
		yl_fix_build(&ld.fx, text, len);
		ret = parse_pass(&ld);
	}
	if (!ret && !ld.root)
		ld.root = value_new(arena, VALUE_NULL);
	if (!ret)
		*out = ld.root;
	loader_release(&ld);
	return ret;
}
