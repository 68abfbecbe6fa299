/*
 * The YAML 1.1 collections yaml@2.8.3 applies under every schema: a
 * !!set becomes a Set, an !!omap a Map, !!pairs a sequence of one-pair
 * objects; each with the checks yaml makes on the way.
 */
#include "config.h"
#include "yamlload.h"
#include "yamlload-int.h"
#include "yaml11.h"

#include <math.h>
#include <string.h>

/*
 * yaml's resolvePairs(): each item of a !!omap or !!pairs sequence
 * becomes one pair, a one-pair mapping as it is, an empty mapping as
 * null: null, anything else as the key of a null value.  The pair is
 * returned as a one-pair map.
 */
static struct value *item_pair(struct loader *ld, struct value *item,
			       int special, const yaml_mark_t *mark)
{
	/*
	 * A map counts its pairs as written (yaml11_original()): a pair
	 * whose key merges is one, a !!set's pairs are still there.
	 */
	const struct value *as_written = item->yflags & YAML11_REWRITTEN ?
		yaml11_original(item) : item;
	/* an !!omap or !!pairs is a sequence as written: a key */
	int is_map = value_is_collection(item) && item->kind == VALUE_MAP &&
		     !(item->yflags & (VALUE_YF_OMAP | VALUE_YF_PAIRS));
	struct value *m;

	/*
	 * A !!pairs pair becomes an object as a map's pair does: a merge
	 * key alone merges its null value (an !!omap makes a Map without
	 * merging).
	 */
	if (special == SPECIAL_PAIRS &&
	    (item->yflags & (VALUE_YF_SYMBOL | VALUE_YF_MERGE_KEY))) {
		yl_fail(ld, LOAD_EINVALID, mark,
			"merge sources must be maps or map aliases");
		return NULL;
	}
	if (is_map && as_written->nr == 1)
		return item->yflags & VALUE_YF_SET ?
		       (struct value *)as_written : item;
	if (is_map && as_written->nr > 1) {
		yl_fail(ld, LOAD_EINVALID, mark,
		     "each pair must have its own sequence indicator");
		return NULL;
	}
	m = value_new(ld->arena, VALUE_MAP);
	m->nr = 1;
	m->u.items = arena_alloc(ld->arena, 2 * sizeof(struct value *));
	m->u.items[0] = is_map ?
			value_new(ld->arena, VALUE_NULL) : item;
	m->u.items[1] = value_new(ld->arena, VALUE_NULL);
	return m;
}

/*
 * SameValueZero of two omap keys as the Map built from the omap sees
 * them: aliases stand for their node's value, and objects (collections,
 * dates, binary, Symbols) equal only themselves.  A collection key was
 * made a string here, so an alias of one is refused (*refuse set).
 */
static int same_value_zero(const struct value *a, const struct value *b,
			   int *refuse)
{
	const struct value *da = value_deref(a), *db = value_deref(b);

	if ((a->kind == VALUE_ALIAS && value_is_collection(da)) ||
	    (b->kind == VALUE_ALIAS && value_is_collection(db)))
		*refuse = 1;
	if (da == db)
		return 1;
	if (da->kind == VALUE_NUMBER && db->kind == VALUE_NUMBER &&
	    isnan(da->u.number) && isnan(db->u.number))
		return 1;
	if ((da->yflags | db->yflags) & VALUE_YF_SYMBOL)
		return 0;
	return yl_keys_equal(da, db);
}

int yl_apply_special(struct loader *ld, struct frame *f, struct value *v,
			 size_t end)
{
	uint32_t i, j;

	struct value *orig;
	size_t n = f->is_map ? 2 * (size_t)v->nr : v->nr;

	/*
	 * Keep the collection as written (yaml11_original()): yaml weighs
	 * aliases and prints keys from it.
	 */
	orig = value_new(ld->arena, v->kind);
	*orig = *v;
	orig->u.items = arena_alloc(ld->arena, (n ? n : 1) * sizeof(*v->u.items));
	if (n)
		memcpy(orig->u.items, v->u.items, n * sizeof(*v->u.items));
	switch (f->special) {
	case SPECIAL_SET:
		/*
		 * A Set, canonically {}; every value must be null, and
		 * yaml's test also looks at tags and comments on those
		 * nulls, which we only partly see.
		 */
		for (i = 0; i < v->nr; i++) {
			const struct value *val = v->u.items[2 * i + 1];

			/* A tagged null is not null enough for yaml. */
			if (val->kind != VALUE_NULL || val->tagged)
				return yl_fail(ld, LOAD_EINVALID, &f->start_mark,
					    "set items must all have null values");
		}
		/* A merge key merges its null value into the Set. */
		for (i = 0; i < v->nr; i++)
			if (v->u.items[2 * i]->yflags & VALUE_YF_MERGE_KEY)
				return yl_fail(ld, LOAD_EINVALID, &f->start_mark,
					    "merge sources must be maps or map aliases");
		if (v->nr) {
			size_t b = yl_posmap_byte(&ld->pm, f->start_mark.index);

			if (end > b && memchr(ld->text + b, '#', end - b))
				return yl_fail(ld, LOAD_EUNSUPPORTED, &f->start_mark,
					    "!!set with comments");
		}
		v->nr = 0;
		v->u.items = arena_alloc(ld->arena, sizeof(*v->u.items));
		v->u.items[0] = orig;
		return 0;
	case SPECIAL_OMAP:
	case SPECIAL_PAIRS:
		for (i = 0; i < v->nr; i++) {
			struct value *p = item_pair(ld, v->u.items[i],
						    f->special, &f->start_mark);

			if (!p)
				return ld->status;
			v->u.items[i] = p;
		}
		if (f->special == SPECIAL_PAIRS) {
			struct value **items = arena_alloc(ld->arena,
				(n + 1) * sizeof(*items));

			if (n)
				memcpy(items, v->u.items, n * sizeof(*items));
			items[n] = orig;
			v->u.items = items;
			return 0;
		}
		/* An omap is a JavaScript Map: canonically {}. */
		for (i = 0; i < v->nr; i++)
			for (j = 0; j < i; j++) {
				int refuse = 0;

				if (same_value_zero(v->u.items[i]->u.items[0],
						    v->u.items[j]->u.items[0],
						    &refuse))
					return yl_fail(ld, LOAD_EINVALID,
						    &f->start_mark,
						    "ordered maps must not include duplicate keys");
				if (refuse)
					return yl_fail(ld, LOAD_EUNSUPPORTED,
						    &f->start_mark,
						    "an alias of a collection as an !!omap key");
			}
		v->kind = VALUE_MAP;
		v->nr = 0;
		v->u.items = arena_alloc(ld->arena, sizeof(*v->u.items));
		v->u.items[0] = orig;
		return 0;
	}
	return 0;
}
