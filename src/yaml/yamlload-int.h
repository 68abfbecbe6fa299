#ifndef YAMLLOAD_INT_H
#define YAMLLOAD_INT_H

/*
 * The loader's state, shared by yamlload.c (events to values) and
 * yamlnode.c (anchors, keys, special collections, layout checks).
 */
#include <stdint.h>
#include <yaml.h>
#include "strbuf.h"
#include "json/value.h"
#include "yamlfix.h"
#include "yamlkey.h"

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
	int ascii;	/* one byte per character: ci is bi */
	size_t ci;	/* character index of bi */
	size_t bi;
	size_t k;	/* shifts that apply at bi */
};


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
	int in_key;		/* a key that is a collection, or inside one */
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
	struct ykeys keys;	/* nodes of the collection key being read */

	struct yl_fix fx;	/* libyaml's copy of the text */
	int flow_depth;
	int flow_in_block;	/* the outermost flow collection is nested */
	size_t flow_start;	/* where the outermost flow collection starts */
	int has_tag_directive;
	int yaml11;		/* the document reads YAML 1.1 */
	struct yl_marks *marks;	/* yl_load_marked()'s, or NULL */
};

int yl_fail(struct loader *ld, int status, const yaml_mark_t *mark,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

size_t yl_posmap_byte(struct posmap *pm, size_t ci);

/* Record the first error (with the mark's position) and return status. */
/* (declared above with its format attribute) */

/* yamlnode.c: anchors and aliases as yaml@2.8.3 counts them */
int yl_anchor_find(struct loader *ld, const char *name);
int yl_anchor_add(struct loader *ld, const char *name, struct value *node);
int64_t yl_alias_weight(struct loader *ld, const struct value *v,
			int *has_alias);
int yl_finish_deferred_alias(struct loader *ld, int idx,
			     const yaml_mark_t *mark);

/* yamlnode.c: checks on a complete collection or key */
int yl_check_unique_keys(struct loader *ld, struct frame *f);
int yl_check_implicit_key(struct loader *ld, struct frame *f);
/* Scalar keys equal as yaml's uniqueKeys compares them (===). */
int yl_keys_equal(const struct value *a, const struct value *b);

/* yamlspecial.c: a complete !!set, !!omap or !!pairs collection */
int yl_apply_special(struct loader *ld, struct frame *f, struct value *v,
		     size_t end);

/* yamlnode.c: layout rules yaml checks and libyaml does not */
int yl_check_continuation(struct loader *ld, size_t at, size_t b,
			  size_t e, int closer, const yaml_mark_t *mark);
int yl_check_comment_after(struct loader *ld, size_t e,
			   const yaml_mark_t *mark);
int yl_check_quoted_layout(struct loader *ld, size_t b, size_t e,
			   const yaml_mark_t *mark);

/* yamlnode.c: collection keys (yamlkey.h) and the document's schema */
int yl_note_key_collection(struct loader *ld, int is_map, const char *anchor,
			   const unsigned char *tag, int special);
void yl_note_key_scalar(struct loader *ld, const yaml_event_t *ev,
			const char *tag, const char *anchor,
			size_t anchor_len, size_t at, size_t end);
/*
 * A collection key's string (VALUE_YF_COLLECTION_KEY), which keeps the
 * collection it was written as: aliases in it count as yaml counts them.
 */
struct ckey_value {
	struct value v;		/* first: a struct value * to it is this */
	const struct value *source;
};
const struct value *yl_collection_key_source(const struct value *v);
struct value *yl_collection_key_string(struct loader *ld,
				       const struct value *key,
				       const yaml_mark_t *start,
				       const yaml_mark_t *end);
int yl_check_flow_key(struct loader *ld, const struct frame *map,
		      const yaml_mark_t *mark);
int yl_resolve_node_scalar(struct loader *ld, struct value *v,
			   const yaml_event_t *ev, int plain, const char *tag);


/* A node's properties as yaml reads them from the source. */
struct yl_props {
	const char *anchor;	/* NULL when there is none */
	size_t anchor_len;
	const char *tag;	/* the tag token, '!' included */
	size_t tag_len;
};

/* Node properties read from the source (yamlprops.c). */
size_t yl_name_end(const char *s, size_t i, size_t end);
size_t yl_skip_props(const char *s, size_t i, size_t end, size_t len,
		     struct yl_props *p);
int yl_check_tag(struct loader *ld, const struct yl_props *p,
		 const yaml_mark_t *mark);
const char *yl_tag_name(struct loader *ld, const char *tag,
			const struct yl_props *p);
int yl_check_name(struct loader *ld, const char *name, size_t yaml_len,
		  const yaml_mark_t *mark);

#endif
