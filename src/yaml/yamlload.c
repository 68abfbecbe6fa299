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
#include "strutil.h"
#include "json/numfmt.h"
#include "yamlfix.h"
#include "yamlscalar.h"
#include "yaml11.h"
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
#include "yamlload-int.h"

size_t yl_posmap_byte(struct posmap *pm, size_t ci)
{
	if (pm->ascii)
		pm->bi = pm->ci = ci < pm->len ? ci : pm->len;
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

int yl_fail(struct loader *ld, int status, const yaml_mark_t *mark,
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
	if (mark && ld->fx.lib && ld->pm.text) {
		/* libyaml's copy has bytes moved: count in the source. */
		size_t at = yl_posmap_byte(&ld->pm, mark->index), i, line = 0,
		       col = 0;

		for (i = 0; i < at && i < ld->len; i++) {
			if (ld->text[i] == '\n') {
				line++;
				col = 0;
			} else if ((ld->text[i] & 0xC0) != 0x80)
				col++;
		}
		strbuf_addf(ld->err, " (line %zu, column %zu)", line + 1,
			    col + 1);
	} else if (mark)
		strbuf_addf(ld->err, " (line %zu, column %zu)", mark->line + 1,
			    mark->column + 1);
	ld->status = status;
	return status;
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
		return yl_fail(ld, LOAD_EUNSUPPORTED, NULL, "collection too large");
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
	yl_check_implicit_key(ld, f);
}

/* yl_load_marked(): v starts at mark, in the source's bytes. */
static void note_mark(struct loader *ld, const struct value *v,
		      const yaml_mark_t *mark)
{
	struct yl_marks *m = ld->marks;

	if (!m)
		return;
	ALLOC_GROW(m->items, m->nr + 1, m->alloc);
	m->items[m->nr].node = v;
	m->items[m->nr++].at = yl_posmap_byte(&ld->pm, mark->index);
}

static int push_collection(struct loader *ld, enum value_kind kind,
			   const yaml_event_t *ev)
{
	const unsigned char *anchor = kind == VALUE_MAP ?
		ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	const unsigned char *tag = kind == VALUE_MAP ?
		ev->data.mapping_start.tag : ev->data.sequence_start.tag;
	const char *anchor_name = NULL, *key_tag = (const char *)tag;
	struct frame *f;
	struct value *v;
	int special = 0, in_key;

	if (ld->depth >= YL_MAX_DEPTH)
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
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
		size_t b = yl_posmap_byte(&ld->pm, ev->start_mark.index);
		struct yl_props pr;
		size_t c = yl_skip_props(ld->text, b, ld->len, ld->len, &pr);

		if (tag && yl_check_tag(ld, &pr, &ev->start_mark))
			return ld->status;
		if (anchor && !pr.anchor)
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate an anchor");
		if (anchor && yl_check_name(ld, (const char *)anchor,
					 pr.anchor_len, &ev->start_mark))
			return ld->status;
		if (yl_fix_patched(&ld->fx, b, c))
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "control character in a node's properties");
		if (anchor)
			anchor_name = arena_memdup(ld->arena, pr.anchor,
						   pr.anchor_len);
		key_tag = yl_tag_name(ld, key_tag, &pr);
	}
	v = value_new(ld->arena, kind);
	in_key = yl_note_key_collection(ld, kind == VALUE_MAP, anchor_name,
					(const unsigned char *)key_tag, special);
	ALLOC_GROW(ld->stack, ld->depth + 1, ld->stack_alloc);
	f = &ld->stack[ld->depth++];
	memset(f, 0, sizeof(*f));
	f->node = v;
	f->special = special;
	f->in_key = in_key;
	f->start_mark = ev->start_mark;
	note_mark(ld, v, &ev->start_mark);
	f->is_map = kind == VALUE_MAP;
	f->anchor = anchor ? yl_anchor_add(ld, anchor_name, v) : -1;
	if (f->is_map) {
		size_t b = yl_posmap_byte(&ld->pm, ev->start_mark.index);
		int flow = ev->data.mapping_start.style ==
			   YAML_FLOW_MAPPING_STYLE;
		/* libyaml's own byte: a '?' put before a '{' key there */
		int lib_c = ld->pm.bi < ld->pm.len ? ld->pm.text[ld->pm.bi] : -1;

		f->flow_pair = flow && !anchor && !tag &&
			       b < ld->len && lib_c != '{';
		/* An explicit key ("? k : v") has no implicit-key limits. */
		f->check_keys = !flow ||
				(f->flow_pair && ld->text[b] != '?');
		f->flow = flow;
	} else
		f->flow = ev->data.sequence_start.style ==
			  YAML_FLOW_SEQUENCE_STYLE;
	if (in_key) {
		/* where the collection starts, for ykeys_layout() */
		struct ykey_node *n = &ld->keys.nodes[ld->keys.nr - 1];

		n->src_begin = n->src_end =
			yl_posmap_byte(&ld->pm, ev->start_mark.index);
		n->pair = f->flow_pair;
	}
	if (f->flow && !ld->flow_depth) {
		ld->flow_start = yl_posmap_byte(&ld->pm, ev->start_mark.index);
		ld->flow_in_block = ld->depth > 1;
	}
	ld->flow_depth += f->flow;
	if (in_key && f->flow && ld->depth > 1)
		return yl_check_flow_key(ld, &ld->stack[ld->depth - 2],
					 &ev->start_mark);
	/* After a BOM yaml reads the first line's columns differently. */
	if (in_key && !f->flow && ld->fx.bom_taken && !ev->start_mark.line)
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			       "a block collection in a key on the first line "
			       "after a byte order mark");
	return 0;
}

static int pop_collection(struct loader *ld, const yaml_event_t *ev)
{
	struct frame *f = &ld->stack[ld->depth - 1];
	struct value *v = f->node;
	yaml_mark_t start;
	int r;

	if (f->is_map && yl_check_unique_keys(ld, f))
		return ld->status;
	v->nr = (uint32_t)(f->is_map ? f->nr / 2 : f->nr);
	v->u.items = arena_alloc(ld->arena, (f->nr ? f->nr : 1) *
					    sizeof(struct value *));
	if (f->nr)
		memcpy(v->u.items, f->items, f->nr * sizeof(struct value *));
	free(f->items);
	f->items = NULL;
	if (f->special &&
	    yl_apply_special(ld, f, v, yl_posmap_byte(&ld->pm, ev->end_mark.index)))
		return ld->status;
	v->yflags |= f->special == SPECIAL_SET ? VALUE_YF_SET :
		     f->special == SPECIAL_OMAP ? VALUE_YF_OMAP :
		     f->special == SPECIAL_PAIRS ? VALUE_YF_PAIRS : 0;
	/*
	 * Merge keys merge as the map becomes a JavaScript object; an
	 * !!omap's pairs become a Map's entries without that step.
	 */
	if (f->is_map && !(ld->depth > 1 &&
			   ld->stack[ld->depth - 2].special == SPECIAL_OMAP)) {
		strbuf_reset(&ld->why);
		if ((r = yaml11_merge(v, ld->arena, &ld->why)))
			return yl_fail(ld, r, &f->start_mark, "%s",
				       ld->why.buf);
	}
	if (f->anchor >= 0) {
		ld->anchors[f->anchor].complete = 1;
		if (ld->anchors[f->anchor].deferred &&
		    yl_finish_deferred_alias(ld, f->anchor, &f->start_mark))
			return ld->status;
	}
	ld->flow_depth -= f->flow;
	if (f->flow && !f->flow_pair) {
		size_t b = yl_posmap_byte(&ld->pm, f->start_mark.index);
		size_t e = yl_posmap_byte(&ld->pm, ev->end_mark.index);

		if (yl_check_comment_after(ld, e, &ev->end_mark))
			return ld->status;
		/* The outermost flow collection inside a block one. */
		if (!ld->flow_depth && ld->depth > 1 &&
		    yl_check_continuation(ld, b, b, e, 1, &f->start_mark))
			return ld->status;
	}
	start = f->start_mark;
	if (f->in_key && --ld->keys.depth == 0 &&
	    !(v = yl_collection_key_string(ld, v, &start, &ev->end_mark)))
		return ld->status;
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
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
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
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "block scalar indentation indicator");
		else
			trim = (int)(first_indent - lead);
	}
	strbuf_reset(&ld->why);
	if (yl_block_scalar_value(out, t + pos, end - pos, folded, chomp,
				    trim, &ld->why))
		return yl_fail(ld, LOAD_EINVALID, &ev->start_mark, "%s",
			    ld->why.buf);
	return 0;
}

static int on_scalar(struct loader *ld, const yaml_event_t *ev)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	struct value *v = value_new(ld->arena, VALUE_NULL);
	size_t b = yl_posmap_byte(&ld->pm, ev->start_mark.index);
	size_t e = yl_posmap_byte(&ld->pm, ev->end_mark.index);
	const char *anchor = NULL;
	size_t anchor_len = 0, c;
	struct yl_props pr;
	int ret;

	note_mark(ld, v, &ev->start_mark);
	c = yl_skip_props(ld->text, b, e, ld->len, &pr);
	anchor = pr.anchor;
	anchor_len = pr.anchor_len;
	if (tag && yl_check_tag(ld, &pr, &ev->start_mark))
		return ld->status;
	if (ev->data.scalar.anchor && !anchor)
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "cannot locate an anchor");
	if (ev->data.scalar.anchor &&
	    yl_check_name(ld, (const char *)ev->data.scalar.anchor, anchor_len,
		       &ev->start_mark))
		return ld->status;
	if (yl_fix_patched(&ld->fx, b, c))
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "control character in a node's properties");
	/* Both readers must cut the scalar alike (a block scalar's lines are yaml's). */
	if (c < e && ev->data.scalar.style != YAML_LITERAL_SCALAR_STYLE &&
	    ev->data.scalar.style != YAML_FOLDED_SCALAR_STYLE) {
		const struct yl_span *sp = yl_fix_span(&ld->fx, c);

		if (!sp || sp->end != e)
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "a scalar libyaml ends elsewhere than yaml");
	}
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
			return yl_fail(ld, LOAD_EINVALID, &ev->start_mark,
				    "block collections are not allowed within "
				    "flow collections");
		if (c < e)
			yl_fold_lines(&ld->scratch, ld->text + c, e - c);
		break;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		if (e - c < 2 || ld->text[c] != '\'' || ld->text[e - 1] != '\'')
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate a single-quoted scalar");
		yl_single_quoted_value(&ld->scratch, ld->text + c, e - c);
		if (yl_check_quoted_layout(ld, c, e, &ev->start_mark))
			return ld->status;
		break;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		if (e - c < 2 || ld->text[c] != '"' || ld->text[e - 1] != '"')
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate a double-quoted scalar");
		ret = yl_decode_double_quoted(&ld->scratch, ld->text + c,
						e - c, &ld->why);
		if (!ret && yl_check_quoted_layout(ld, c, e, &ev->start_mark))
			return ld->status;
		break;
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		if (c >= e || (ld->text[c] != '|' && ld->text[c] != '>'))
			return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
				    "cannot locate a block scalar");
		if (block_scalar(ld, ev, c, e, &ld->scratch))
			return ld->status;
		break;
	default:
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
			    "unknown scalar style");
	}
	if (ret)
		return yl_fail(ld, ret, &ev->start_mark, "%s", ld->why.buf);
	if (yl_resolve_node_scalar(ld, v, ev, plain, tag))
		return ld->status;
	if (ld->keys.depth)
		yl_note_key_scalar(ld, ev, yl_tag_name(ld, tag, &pr),
				   ev->data.scalar.anchor ? anchor : NULL,
				   anchor_len, b, e);
	if (ev->data.scalar.anchor) {
		int idx = yl_anchor_add(ld, arena_memdup(ld->arena, anchor,
						      anchor_len), v);

		ld->anchors[idx].complete = 1;
	}
	if (attach(ld, v))
		return ld->status;
	note_child_marks(ld, &ev->start_mark, &ev->end_mark);
	return ld->status;
}

/*
 * The alias just attached is a key of an object whose JavaScript key is
 * yaml's text for it, "*name" (a collection or binary data as a key),
 * and yaml throws printing that name (is_yaml_anchor_name()).
 */
static int alias_key_unprintable(struct loader *ld, const struct anchor *a)
{
	const struct frame *f = &ld->stack[ld->depth - 1];
	const struct value *t = a->node;

	if (!f->is_map || f->nr % 2 != 1 || f->special)
		return 0;
	if (!(t->kind == VALUE_BYTES || ((t->kind == VALUE_SEQ ||
					  t->kind == VALUE_MAP) &&
					 !(t->yflags & VALUE_YF_DATE))))
		return 0;
	return !is_yaml_anchor_name(a->name);
}

static int on_alias(struct loader *ld, const yaml_event_t *ev)
{
	size_t b = yl_posmap_byte(&ld->pm, ev->start_mark.index);
	size_t e = yl_name_end(ld->text, b + 1, ld->len);
	const char *name;
	struct anchor *a;
	struct value *v;
	int idx;

	if (yl_check_name(ld, (const char *)ev->data.alias.anchor, e - b - 1,
		       &ev->start_mark))
		return ld->status;
	name = arena_memdup(ld->arena, ld->text + b + 1, e - b - 1);
	idx = yl_anchor_find(ld, name);

	if (idx < 0)
		return yl_fail(ld, LOAD_EINVALID, &ev->start_mark,
			    "unresolved alias '%s'", name);
	a = &ld->anchors[idx];
	if (!a->complete) {
		struct frame *f = &ld->stack[ld->depth - 1];

		/*
		 * As a value the reference recurses forever; as a key it
		 * prints "*name" (canon.c).  The weight is known only once
		 * the node is complete: see yl_finish_deferred_alias().
		 */
		if (!f->is_map || f->nr % 2)
			return yl_fail(ld, LOAD_EINVALID, &ev->start_mark,
				    "alias '%s' refers to a node that contains it",
				    name);
		a->count++;
		a->deferred = 1;
	} else
		a->count++;
	if (a->complete && !a->weight && !a->settled) {
		int has_alias = 0;

		a->weight = yl_alias_weight(ld, a->node, &has_alias);
		if (!a->weight && !has_alias)
			a->settled = 1;
	}
	if (a->count * a->weight > MAX_ALIAS_COUNT)
		return yl_fail(ld, LOAD_EINVALID, &ev->start_mark,
			    "excessive alias count (more than %d alias expansions)",
			    MAX_ALIAS_COUNT);
	v = value_new(ld->arena, VALUE_ALIAS);
	v->u.alias.target = a->node;
	v->u.alias.name = a->name;
	v->nr = (uint32_t)idx;
	if (attach(ld, v))
		return ld->status;
	if (alias_key_unprintable(ld, a))
		return yl_fail(ld, LOAD_EINVALID, &ev->start_mark,
			       "anchor must not contain whitespace or control "
			       "characters: '%s'", name);
	note_child_marks(ld, &ev->start_mark, &ev->end_mark);
	return ld->status;
}

static int on_document_start(struct loader *ld, const yaml_event_t *ev)
{
	const yaml_version_directive_t *ver =
		ev->data.document_start.version_directive;

	const yaml_tag_directive_t *td =
		ev->data.document_start.tag_directives.start;
	const yaml_tag_directive_t *te =
		ev->data.document_start.tag_directives.end;

	if (td != te) {
		size_t n = 1 + (size_t)(te - td);
		const char **h = arena_alloc(ld->arena, 2 * n * sizeof(*h));

		ld->has_tag_directive = 1;
		h[0] = "!!";
		h[1] = YAML_TAG_PREFIX;
		for (n = 1; td < te; td++) {
			const char *hd = (const char *)td->handle;
			const char *pf = arena_memdup(ld->arena, td->prefix,
					strlen((const char *)td->prefix));

			if (!strcmp(hd, "!!"))
				h[1] = pf;
			else {
				h[2 * n] = arena_memdup(ld->arena, hd, strlen(hd));
				h[2 * n + 1] = pf;
				n++;
			}
		}
		ld->keys.handles = h;
		ld->keys.nr_handles = n;
	}
	if (++ld->documents > 1)
		return yl_fail(ld, LOAD_EINVALID, &ev->start_mark,
			    "source contains more than one document");
	if (ver && ver->major == 1 && ver->minor == 1)
		ld->yaml11 = ld->keys.yaml11 = 1;
	else if (ver && !(ver->major == 1 && ver->minor == 2))
		return yl_fail(ld, LOAD_EUNSUPPORTED, &ev->start_mark,
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
	ld->yaml11 = ld->keys.yaml11 = 0;
	ld->keys.handles = NULL;
	ld->keys.nr_handles = 0;
	ykeys_reset(&ld->keys);
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
	ykeys_release(&ld->keys);
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
	ld->pm.ascii = !ld->fx.non_ascii;
	if (!yaml_parser_initialize(&parser))
		die("cannot initialize libyaml");
	yaml_parser_set_input_string(&parser, (const unsigned char *)src,
				     ld->fx.lib_len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			ret = yl_fail(ld, LOAD_EINVALID, &parser.problem_mark,
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
	return yl_load_marked(out, arena, text, len, NULL, err);
}

int yl_load_marked(struct value **out, struct arena *arena, const char *text,
		   size_t len, struct yl_marks *marks, struct strbuf *err)
{
	struct loader ld;
	int ret;

	memset(&ld, 0, sizeof(ld));
	ld.err = err;
	ld.marks = marks;
	/*
	 * yaml@2.8.3 ignores a leading BOM, as libyaml would if it sniffed;
	 * the line after it is read as yaml's parser reads it (yamlfix-bom.c).
	 */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
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
	/* JSON.stringify(Symbol) is undefined, which cannot be hashed. */
	if (!ret && (ld.root->yflags & VALUE_YF_SYMBOL))
		ret = yl_fail(&ld, LOAD_EINVALID, NULL,
			      "the document is a !!merge scalar, which has no "
			      "JSON text");
	if (!ret)
		*out = ld.root;
	loader_release(&ld);
	return ret;
}
