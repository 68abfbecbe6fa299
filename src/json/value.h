#ifndef VALUE_H
#define VALUE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The in-memory value tree both loaders build: what the reference's
 * JavaScript value looks like after `yaml.parse()` (or JSON parsing),
 * before canonicalization.
 *
 * Strings are WTF-8: UTF-8 that may also hold lone surrogate code points
 * (three-byte sequences ED A0..BF xx), because JavaScript strings can carry
 * them and the reference prints them as \udxxx escapes.  A surrogate pair
 * is always stored as the four-byte form of its code point.
 *
 * Every node and string lives in a `struct arena` and is freed with it;
 * nothing in the tree is owned separately.
 */

enum value_kind {
	VALUE_NULL,
	VALUE_BOOL,
	VALUE_NUMBER,
	VALUE_STRING,
	VALUE_BYTES,	/* !!binary: a Uint8Array in the reference */
	VALUE_SEQ,
	VALUE_MAP,
	VALUE_ALIAS,	/* YAML alias; u.alias.target is the anchored node */
};

/* What a YAML node was beyond its value (struct value's yflags). */
enum {
	/* a string standing for a key that was a collection: equal to no
	 * other key when keys are checked for uniqueness */
	VALUE_YF_COLLECTION_KEY = 1,
	/* a key that merges: a !!merge scalar, or a plain "<<" under 1.1 */
	VALUE_YF_MERGE_KEY = 2,
	VALUE_YF_DATE = 4,	/* a timestamp: a Date, canonically {} */
	VALUE_YF_SET = 8,	/* !!set, !!omap, !!pairs collections */
	VALUE_YF_OMAP = 16,
	VALUE_YF_PAIRS = 32,
	VALUE_YF_MERGED = 64,	/* a map whose merges are resolved */
	/* a !!merge scalar: a Symbol, which JSON.stringify leaves out of
	 * objects and prints as null in arrays; a string "<<" here */
	VALUE_YF_SYMBOL = 128,
};

struct value {
	unsigned char kind;	/* enum value_kind */
	unsigned char tagged;	/* YAML: the node had an explicit tag */
	unsigned char yflags;	/* YAML: VALUE_YF_* */
	/* items of a sequence, pairs of a map; an alias's anchor index */
	uint32_t nr;
	union {
		int boolean;
		double number;
		struct {
			const char *ptr;
			size_t len;
		} str;	/* VALUE_STRING and VALUE_BYTES */
		/* VALUE_SEQ: nr items; VALUE_MAP: 2 * nr, key then value */
		struct value **items;
		struct {
			struct value *target;
			const char *name;	/* the anchor's name */
		} alias;
	} u;
};

/* Follow aliases to the node they stand for. */
static inline const struct value *value_deref(const struct value *v)
{
	while (v->kind == VALUE_ALIAS)
		v = v->u.alias.target;
	return v;
}

/* A sequence or map, not a timestamp (a Date, held as an empty map). */
static inline int value_is_collection(const struct value *v)
{
	return (v->kind == VALUE_SEQ || v->kind == VALUE_MAP) &&
	       !(v->yflags & VALUE_YF_DATE);
}

/*
 * A bump allocator.  ARENA_INIT needs no setup; arena_release() frees
 * every block and leaves the arena reusable.
 */
struct arena_block;
struct arena {
	struct arena_block *head;
	char *cur;
	size_t left;
	size_t total;	/* bytes handed out, for the memory limit */
};
#define ARENA_INIT { NULL, NULL, 0, 0 }

void *arena_alloc(struct arena *a, size_t size);
char *arena_memdup(struct arena *a, const void *data, size_t len);
void arena_release(struct arena *a);
/*
 * Forget every allocation but keep one ordinary block for the next ones:
 * a loop that fills and empties an arena per item (a line of a log)
 * then allocates nothing once warm.  Pointers into the arena die.
 */
void arena_clear(struct arena *a);

struct value *value_new(struct arena *a, enum value_kind kind);

#endif
