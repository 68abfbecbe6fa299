/*
 * The loader's checks and rules on complete nodes: anchors and alias
 * counts, unique and implicit keys, and the layout rules of quoted scalars and flow collections that yaml@2.8.3
 * checks and libyaml does not.
 */
#include "config.h"
#include "yamlload.h"
#include "yamlload-int.h"
#include "yaml11.h"
#include "yamlscalar.h"
#include "json/numfmt.h"
#include "usage.h"
#include "utf8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int yl_anchor_find(struct loader *ld, const char *name)
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

int yl_anchor_add(struct loader *ld, const char *name, struct value *node)
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
int64_t yl_alias_weight(struct loader *ld, const struct value *v,
			    int *has_alias)
{
	int64_t best = 0;
	uint32_t i, n;
	int pairs;

	switch (v->kind) {
	case VALUE_ALIAS: {
		const struct anchor *a = &ld->anchors[v->nr];

		*has_alias = 1;
		return a->count * a->weight;
	}
	case VALUE_STRING:
		/* A collection key weighs as the collection it was. */
		if (v->yflags & VALUE_YF_COLLECTION_KEY)
			return yl_alias_weight(ld, yl_collection_key_source(v),
					       has_alias);
		return 1;
	case VALUE_SEQ:
	case VALUE_MAP:
		if (v->yflags & VALUE_YF_DATE)
			return 1;	/* a scalar */
		/*
		 * An !!omap or !!pairs item that is not a map of one pair
		 * or more becomes a pair with a null value: at least 1.
		 */
		pairs = v->yflags & (VALUE_YF_OMAP | VALUE_YF_PAIRS);
		if (v->yflags & YAML11_REWRITTEN)
			v = yaml11_original(v);
		n = v->kind == VALUE_MAP ? 2 * v->nr : v->nr;
		for (i = 0; i < n; i++) {
			const struct value *it = v->u.items[i];
			int64_t w = yl_alias_weight(ld, it, has_alias);

			if (pairs && w < 1 && !(it->kind == VALUE_MAP && it->nr))
				w = 1;
			if (w > best)
				best = w;
		}
		return best;
	default:
		return 1;
	}
}

int yl_keys_equal(const struct value *a, const struct value *b)
{
	if (a->kind != b->kind ||
	    (a->yflags | b->yflags) &
	    (VALUE_YF_COLLECTION_KEY | VALUE_YF_MERGE_KEY))
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
int yl_check_unique_keys(struct loader *ld, struct frame *f)
{
	size_t npairs = f->nr / 2, i, j, n = 0;
	const struct value **keys, *dup = NULL;

	if (npairs < 2)
		return 0;
	if (npairs <= 16) {
		for (i = 0; i < npairs && !dup; i++)
			for (j = 0; j < i && !dup; j++)
				if (yl_keys_equal(f->items[2 * i], f->items[2 * j]))
					dup = f->items[2 * i];
	} else {
		keys = xmalloc(npairs * sizeof(*keys));
		for (i = 0; i < npairs; i++) {
			const struct value *k = f->items[2 * i];

			if (k->yflags &
			    (VALUE_YF_COLLECTION_KEY | VALUE_YF_MERGE_KEY))
				continue;
			if (k->kind == VALUE_NULL || k->kind == VALUE_BOOL ||
			    k->kind == VALUE_STRING ||
			    (k->kind == VALUE_NUMBER && !isnan(k->u.number)))
				keys[n++] = k;
		}
		qsort(keys, n, sizeof(*keys), key_order);
		for (i = 1; i < n && !dup; i++)
			if (yl_keys_equal(keys[i - 1], keys[i]))
				dup = keys[i];
		free(keys);
	}
	if (dup) {
		struct strbuf what = STRBUF_INIT;

		describe_key(&what, dup);
		yl_fail(ld, LOAD_EINVALID, &f->start_mark,
		     "map keys must be unique: %s appears twice in the mapping "
		     "that starts here", what.buf);
		strbuf_release(&what);
		return ld->status;
	}
	return 0;
}

/*
 * Whether the line before the one starting at line (just past its '\n')
 * ends in an empty value: a ':' or a lone anchor or tag, as its last
 * token.
 */
static int line_ends_empty_value(const char *text, size_t line)
{
	size_t e, t;

	if (!line)
		return 0;
	e = line - 1;
	while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t' ||
			 text[e - 1] == '\r'))
		e--;
	if (!e || text[e - 1] == '\n')
		return 0;
	if (text[e - 1] == ':')
		return 1;
	t = e;
	while (t > 0 && text[t - 1] != ' ' && text[t - 1] != '\t' &&
	       text[t - 1] != '\n')
		t--;
	return text[t] == '&' || text[t] == '!';
}

/*
 * Called when a map key's node is complete, with its marks: an implicit
 * key must end with its ':' on the same line, at most 1024 UTF-16 units
 * after the key's start (properties included), as yaml@2.8.3 checks.
 */
int yl_check_implicit_key(struct loader *ld, struct frame *f)
{
	size_t start = yl_posmap_byte(&ld->pm, f->key_start.index);
	size_t end = yl_posmap_byte(&ld->pm, f->key_end.index);
	size_t i = end, line, len, brk;
	int newline = 0;

	while (i < ld->len) {
		char c = ld->text[i];

		if (c == ' ' || c == '\t')
			i++;
		else if (f->flow_pair && (c == '\n' || c == '\r')) {
			newline += c == '\n';
			i++;
		} else if (f->flow_pair && c == '#') {
			while (i < ld->len && ld->text[i] != '\n')
				i++;
		} else
			break;
	}
	if (i >= ld->len || ld->text[i] != ':')
		return 0;	/* an explicit key, or none */
	/*
	 * The line break after a flow collection belongs to it, not to the
	 * pair: yaml looks for more only.
	 */
	if (newline && f->flow_pair) {
		struct yl_props pr;
		size_t c = yl_skip_props(ld->text, start, end, ld->len, &pr);

		if (c < end && (ld->text[c] == '[' || ld->text[c] == '{'))
			newline--;
	}
	if (f->flow_pair && (newline || memchr(ld->text + start, '\n',
					       end - start)))
		return yl_fail(ld, LOAD_EINVALID, &f->key_start,
			    "implicit keys of flow sequence pairs need to be on a single line");
	len = utf16_length(ld->text + start, i - start);
	if (len > 1024)
		return yl_fail(ld, LOAD_EINVALID, &f->key_start,
			    "implicit key longer than 1024 characters");
	/*
	 * yaml measures from the first token of the pair, which after a
	 * line ending in an empty value (`a:`, `a: &x`, `a: !t`, but not one
	 * ending in a comment) is that line's break, so its limit there is
	 * the key's indentation plus the break's length shorter than ours
	 * (the first key of a map is measured from itself).  Such a key that
	 * close to the limit is refused rather than followed further.
	 */
	line = start;
	while (line > 0 && ld->text[line - 1] != '\n')
		line--;
	brk = line >= 2 && ld->text[line - 2] == '\r' ? 2 : 1;
	if (f->nr > 1 &&
	    len + utf16_length(ld->text + line, start - line) + brk > 1024 &&
	    line_ends_empty_value(ld->text, line))
		return yl_fail(ld, LOAD_EUNSUPPORTED, &f->key_start,
			    "an implicit key within its indentation of the 1024-character limit after an empty value");
	return 0;
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
int yl_check_continuation(struct loader *ld, size_t at, size_t b,
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
		return yl_fail(ld, LOAD_EINVALID, mark,
			    "continuation line indented less than %zu spaces",
			    need);
	}
	return 0;
}

/* yaml wants white space before a comment; libyaml does not. */
int yl_check_comment_after(struct loader *ld, size_t e,
			       const yaml_mark_t *mark)
{
	if (e < ld->len && ld->text[e] == '#')
		return yl_fail(ld, LOAD_EINVALID, mark,
			    "comment not separated from the token before it "
			    "by white space");
	return 0;
}



/* Does the tree under v hold an alias of an anchor other than idx? */
static int other_alias(const struct value *v, uint32_t idx)
{
	uint32_t i, n;

	if (v->kind == VALUE_ALIAS)
		return v->nr != idx;
	if (v->yflags & VALUE_YF_COLLECTION_KEY)
		return other_alias(yl_collection_key_source(v), idx);
	if (v->kind != VALUE_SEQ && v->kind != VALUE_MAP)
		return 0;
	if (v->yflags & YAML11_REWRITTEN)
		v = yaml11_original(v);
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
int yl_finish_deferred_alias(struct loader *ld, int idx,
				 const yaml_mark_t *mark)
{
	struct anchor *a = &ld->anchors[idx];
	int has_alias = 0;

	if (other_alias(a->node, (uint32_t)idx))
		return yl_fail(ld, LOAD_EUNSUPPORTED, mark,
			    "alias as a key inside its own anchored node, "
			    "next to other aliases");
	a->deferred = 0;
	a->weight = yl_alias_weight(ld, a->node, &has_alias);
	if (a->count * a->weight > MAX_ALIAS_COUNT)
		return yl_fail(ld, LOAD_EINVALID, mark,
			    "excessive alias count (more than %d alias expansions)",
			    MAX_ALIAS_COUNT);
	return 0;
}


int yl_check_quoted_layout(struct loader *ld, size_t b, size_t e,
			       const yaml_mark_t *mark)
{
	if (yl_check_comment_after(ld, e, mark))
		return ld->status;
	if (ld->depth && memchr(ld->text + b, '\n', e - b)) {
		/* In a flow collection the line that opened it counts. */
		if (!ld->flow_depth)
			return yl_check_continuation(ld, b, b, e, 0, mark);
		if (ld->flow_in_block)
			return yl_check_continuation(ld, ld->flow_start, b, e, 0,
						  mark);
	}
	return 0;
}


/* --- collection keys and the document's schema ------------------------ */

const struct value *yl_collection_key_source(const struct value *v)
{
	return ((const struct ckey_value *)v)->source;
}

/*
 * A collection that starts as a map's key, or inside such a key: note it
 * for the key's string (yamlkey.h).  Returns whether it is one.
 */
int yl_note_key_collection(struct loader *ld, int is_map, const char *anchor,
			   const unsigned char *tag, int special)
{
	const struct frame *p = ld->depth ? &ld->stack[ld->depth - 1] : NULL;
	struct ykey_node n;

	/* A !!pairs item that is a sequence becomes a pair's key. */
	if (!ld->keys.depth && !(p && p->is_map && p->nr % 2 == 0) &&
	    !(p && p->special == SPECIAL_PAIRS && !is_map))
		return 0;
	ld->keys.depth++;
	memset(&n, 0, sizeof(n));
	n.style = YKEY_COLLECTION;
	n.anchor = anchor;
	n.tag = tag ? arena_memdup(ld->arena, tag, strlen((const char *)tag)) :
		NULL;
	n.special = special != 0;
	ykeys_note(&ld->keys, &n);
	return 1;
}

void yl_note_key_scalar(struct loader *ld, const yaml_event_t *ev,
			const char *tag, const char *anchor,
			size_t anchor_len, size_t at, size_t end)
{
	const struct frame *p = &ld->stack[ld->depth - 1];
	struct ykey_node n;

	memset(&n, 0, sizeof(n));
	switch (ev->data.scalar.style) {
	case YAML_PLAIN_SCALAR_STYLE:
		n.style = YKEY_PLAIN;
		break;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		n.style = YKEY_SINGLE;
		break;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		n.style = YKEY_DOUBLE;
		break;
	case YAML_FOLDED_SCALAR_STYLE:
		n.style = YKEY_FOLDED;
		break;
	default:
		n.style = YKEY_BLOCK;
	}
	n.tag = tag ? arena_memdup(ld->arena, tag, strlen(tag)) : NULL;
	n.anchor = anchor ? arena_memdup(ld->arena, anchor, anchor_len) : NULL;
	n.source = arena_memdup(ld->arena, ld->scratch.buf, ld->scratch.len);
	n.source_len = ld->scratch.len;
	n.src_begin = at;
	n.src_end = end;
	n.absent = n.style == YKEY_PLAIN && !tag && !anchor &&
		   !ld->scratch.len && p->is_map && p->nr % 2 == 1 &&
		   ykeys_value_absent(ld->text, at);
	ykeys_note(&ld->keys, &n);
}

/*
 * A collection key is complete: the reference's key is yaml's string for
 * it, blank lines and comments inside included (ykeys_layout() refuses
 * those it cannot place).  Returns the string value, or NULL on failure.
 */
struct value *yl_collection_key_string(struct loader *ld,
				       const struct value *key,
				       const yaml_mark_t *start,
				       const yaml_mark_t *end)
{
	size_t b = yl_posmap_byte(&ld->pm, start->index);
	size_t e = yl_posmap_byte(&ld->pm, end->index);
	struct ckey_value *ck;
	struct value *v;
	int ret;

	if (ykeys_layout(&ld->keys, ld->text, b, e)) {
		yl_fail(ld, LOAD_EUNSUPPORTED, start,
			"a comment or blank lines inside a collection key "
			"where yaml would move them");
		return NULL;
	}
	ld->keys.text = ld->text;
	strbuf_reset(&ld->scratch);
	strbuf_reset(&ld->why);
	ret = ykeys_stringify(&ld->keys, key, &ld->scratch, &ld->why);
	if (ret) {
		yl_fail(ld, ret, start, "%s", ld->why.buf);
		return NULL;
	}
	ck = arena_alloc(ld->arena, sizeof(*ck));
	memset(ck, 0, sizeof(*ck));
	ck->source = key;
	v = &ck->v;
	v->kind = VALUE_STRING;
	v->yflags = VALUE_YF_COLLECTION_KEY;
	v->u.str.ptr = arena_memdup(ld->arena, ld->scratch.buf,
				    ld->scratch.len);
	v->u.str.len = ld->scratch.len;
	return v;
}

/*
 * yaml@2.8.3's parser refuses a flow collection as an implicit key of an
 * indented block map after a pair with a value, but not after every
 * kind of pair; such keys after the first are refused here.
 */
/*
 * The last token of the line [s, e), a comment and white space after it
 * left out: its start, or e for none; *endp is where it ends.
 */
static size_t last_token(const char *t, size_t s, size_t e, size_t *endp)
{
	size_t i, end = e;

	for (i = s; i < e; i++) {
		int at_start = i == s || strchr(" \t[{,", t[i - 1]);

		if (at_start && (t[i] == '"' || t[i] == '\'')) {
			/* a quoted scalar: no comment in it */
			char q = t[i];

			for (i++; i < e && t[i] != q; i++)
				if (q == '"' && t[i] == '\\')
					i++;
		} else if (t[i] == '#' && i > s && strchr(" \t", t[i - 1])) {
			end = i;
			break;
		}
	}
	while (end > s && strchr(" \t\r", t[end - 1]))
		end--;
	for (i = end; i > s && !strchr(" \t", t[i - 1]); i--)
		;
	*endp = end;
	return i < end ? i : e;
}

/*
 * Lines right above a flow collection that starts a later pair of a
 * block map: a blank line, a line of white space or a comment line not
 * right of the map's column after a pair with a value leaves yaml's
 * parser an item of the map holding only those, and its composer throws
 * "Map comment with trailing content".  After an explicit key alone or
 * an empty value there is no error; after a block scalar, properties or
 * a line further right (a nested node's, which may take the lines for
 * itself) this is refused.  `line` is where the key's line starts.
 */
static int check_lines_above(struct loader *ld, const struct frame *map,
			     const yaml_mark_t *mark, size_t line)
{
	const char *t = ld->text;
	size_t col = map->start_mark.column, e = line, s = 0, k = 0, tok, end;
	size_t p_end;
	int open = 0, commented = 0, left = 0, any = 0;

	/* up to the line with content before the key: P, ending at e - 1 */
	while (e > 0) {
		for (s = e - 1; s > 0 && t[s - 1] != '\n'; s--)
			;
		for (k = s; k < e - 1 && strchr(" \t\r", t[k]); k++)
			;
		if (k < e - 1 && t[k] != '#')
			break;
		any = 1;
		e = s;
	}
	if (!any || !e)
		return 0;
	/* below a nested node the lines may go to it: refused */
	if (k - s != col)
		return yl_fail(ld, LOAD_EUNSUPPORTED, mark, "lines above a flow "
			       "collection as a later key of a block mapping");
	/*
	 * Down the lines between, as yaml's parser sees them: a blank line
	 * or a comment not right of the map's column opens an item of the
	 * map; a comment right of it goes to the value before, with the
	 * blank lines before it, unless that item holds a comment.
	 */
	for (p_end = e, s = e; s < line; s = k + 1) {
		size_t c;

		for (c = s; c < line && strchr(" \t\r", t[c]); c++)
			;
		for (k = c; k < line && t[k] != '\n'; k++)
			;
		if (c < k && c - s > col && !commented) {
			open = 0;
			continue;
		}
		open = 1;
		commented |= c < k;
		left |= c < k && c - s < col;
	}
	if (!open)
		return 0;
	/* P itself: at the map's column, a pair with a value */
	for (s = p_end - 1; s > 0 && t[s - 1] != '\n'; s--)
		;
	for (k = s; strchr(" \t", t[k]); k++)
		;
	if (left)
		return yl_fail(ld, LOAD_EUNSUPPORTED, mark, "lines above a flow "
			       "collection as a later key of a block mapping");
	if (t[k] == '?')
		return 0;	/* an explicit key: no value yet */
	tok = last_token(t, k, p_end - 1, &end);
	if (tok < p_end - 1 && t[end - 1] == ':')
		return 0;	/* an empty value */
	if (tok < p_end - 1 && (t[tok] == '|' || t[tok] == '>' ||
				t[tok] == '&' || t[tok] == '!'))
		return yl_fail(ld, LOAD_EUNSUPPORTED, mark, "lines above a flow "
			       "collection as a later key of a block mapping");
	return yl_fail(ld, LOAD_EINVALID, mark,
		       "Map comment with trailing content");
}

int yl_check_flow_key(struct loader *ld, const struct frame *map,
		      const yaml_mark_t *mark)
{
	size_t b = yl_posmap_byte(&ld->pm, mark->index), i = b;

	if (!map->is_map || map->flow || !map->nr)
		return 0;
	while (i > 0 && ld->text[i - 1] == ' ')
		i--;
	if (i > 0 && ld->text[i - 1] != '\n')
		return 0;	/* an explicit key */
	if (check_lines_above(ld, map, mark, i))
		return ld->status;
	if (!map->start_mark.column)
		return 0;
	return yl_fail(ld, LOAD_EUNSUPPORTED, mark,
		       "a flow collection as an implicit key after the first "
		       "pair of an indented block mapping");
}

/*
 * Resolve the scalar read into ld->scratch with the document's schema.
 * A timestamp key is left to whoever makes it a string (canon.c,
 * yaml11.c): a Set's or a Map's key never is one.
 */
int yl_resolve_node_scalar(struct loader *ld, struct value *v,
			   const yaml_event_t *ev, int plain, const char *tag)
{
	const struct frame *p = ld->depth ? &ld->stack[ld->depth - 1] : NULL;
	int at_key = p && p->is_map && p->nr % 2 == 0, ret;
	/* A !!pairs item is a pair's key when the pair becomes an object. */
	int merges = at_key || (p && p->special == SPECIAL_PAIRS);

	if (!ld->yaml11 && tag && !strcmp(tag, YAML_TAG_PREFIX "merge")) {
		/*
		 * The core schema knows !!merge only by name, so it applies
		 * whatever the text: the scalar is a Symbol, which merges
		 * as a key (yaml11_merge()).
		 */
		v->kind = VALUE_STRING;
		v->u.str.ptr = "<<";
		v->u.str.len = 2;
		v->yflags |= VALUE_YF_SYMBOL | (at_key ? VALUE_YF_MERGE_KEY : 0);
		return 0;
	}
	if (ld->yaml11)
		ret = yaml11_resolve_scalar(v, ld->arena, ld->scratch.buf,
					    ld->scratch.len,
					    ev->data.scalar.style ==
					    YAML_PLAIN_SCALAR_STYLE, tag,
					    merges, &ld->why);
	else
		ret = yl_resolve_scalar(v, ld->arena, ld->scratch.buf,
					ld->scratch.len, plain && !tag, tag,
					&ld->why);
	if (ret)
		return yl_fail(ld, ret, &ev->start_mark, "%s", ld->why.buf);
	return 0;
}
