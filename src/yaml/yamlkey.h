#ifndef YAMLKEY_H
#define YAMLKEY_H

#include <stddef.h>
#include "strbuf.h"
#include "json/value.h"

/*
 * Mapping keys that are collections.  A JavaScript object's keys are
 * strings, so yaml@2.8.3 turns such a key into the text its own
 * stringifier prints for the key node, in flow style ("{ a: 1 }",
 * "[ a, b ]").  That text depends on how each node inside was written
 * (quoting style, "0x1F" or "~", anchors, tags), which the value tree
 * does not keep; the loader notes it here for every node inside a key,
 * in document order, and asks for the text when the key is complete.
 */

enum ykey_style {
	YKEY_PLAIN,
	YKEY_SINGLE,
	YKEY_DOUBLE,
	YKEY_BLOCK,	/* literal */
	YKEY_FOLDED,
	YKEY_COLLECTION,
};

/* What the source said about one node inside a key. */
struct ykey_node {
	const char *tag;	/* the resolved tag, or NULL */
	const char *anchor;	/* the anchor's name, or NULL */
	const char *source;	/* a scalar's value before resolution */
	size_t source_len;
	size_t src_begin, src_end;	/* a scalar's bytes in the text */
	unsigned char style;	/* enum ykey_style */
	unsigned char absent;	/* a map value with no ':' at all */
	unsigned char special;	/* a !!set, !!omap or !!pairs collection */
	unsigned char pair;	/* the map of a flow sequence's pair */
	unsigned char space_before;	/* yaml's spaceBefore: blank lines */
	/*
	 * yaml's commentBefore: comment lines from the '#' at cb_begin to
	 * cb_end, then cb_trail blank lines; and its comment, after it on
	 * its line: the text from c_begin (after the '#') to c_end.  A zero
	 * end is none.
	 */
	size_t cb_begin, cb_end, c_begin, c_end;
	unsigned cb_trail;
};

struct ykeys {
	struct ykey_node *nodes;
	size_t nr, alloc;
	int depth;		/* open collections that are (inside) a key */
	int yaml11;		/* the document reads YAML 1.1 */
	/*
	 * The document's tag handles in yaml's order: "!!" first (its
	 * prefix as a %TAG gave it, else the default), then each other
	 * %TAG handle in the order written.
	 */
	const char *const *handles;	/* handle, prefix, handle, ... */
	size_t nr_handles;
	const char *text;	/* the source, for the comments */
};


/* Note one node (collections when they start, scalars when read). */
void ykeys_note(struct ykeys *k, const struct ykey_node *n);

/*
 * Is the empty plain scalar at byte `at` of text a map value with no
 * value indicator (`{a}`, `? a` alone), as opposed to `a:` with nothing
 * after it?  yaml prints the two differently.
 */
int ykeys_value_absent(const char *text, size_t at);

/*
 * Mark the noted nodes of the key in text[b, e) with what yaml's composer
 * gives them for its printer: spaceBefore (blank lines before them),
 * commentBefore (comment lines before an item of a block collection) and
 * comment (after a scalar item or value on its line).  Returns 0, or 1
 * where this does not place them as yaml would: blank lines before a
 * value, an alias, an empty node or a flow sequence's pair, or in a block
 * scalar's trailing white space; comments inside a flow collection, on a
 * block scalar's header line, after a key or a collection, or not left
 * of the next item of the same collection.
 */
int ykeys_layout(struct ykeys *k, const char *text, size_t b, size_t e);

/*
 * Append to out yaml's string for the collection key `key`, whose nodes
 * were noted in order since the last reset, and forget them.  Returns 0,
 * or LOAD_EINVALID (yaml throws while printing) / LOAD_EUNSUPPORTED with
 * a reason appended to why.
 */
int ykeys_stringify(struct ykeys *k, const struct value *key,
		    struct strbuf *out, struct strbuf *why);

void ykeys_reset(struct ykeys *k);
void ykeys_release(struct ykeys *k);

#endif
